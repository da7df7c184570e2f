use super::*;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read to be refused: the members are what the test is about
struct Sample {
    name: String,
    #[serde(default)]
    count: Option<u32>,
    #[serde(default)]
    flag: bool,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default, deserialize_with = "fields::revision")]
    revision: Option<String>,
    #[serde(default)]
    inner: Option<Inner>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Inner {
    level: Level,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Low,
    High,
}

impl Rules for Sample {
    fn required() -> &'static [&'static str] {
        &["name"]
    }

    fn check(&self, at: &Loc, faults: &mut Faults) {
        if self.flag && self.count.is_none() {
            faults.add(at.key("count"), "a flag needs a count", "conflict");
        }
    }
}

fn faults(body: &Value) -> Vec<(String, String, String)> {
    let Err(Invalid(found)) = read::<Sample>(body, &Loc::body()) else {
        panic!("{body} was read");
    };
    found
        .into_iter()
        .map(|error| (error.loc.to_string(), error.msg, error.kind))
        .collect()
}

fn one(loc: &str, msg: &str, kind: &str) -> (String, String, String) {
    (loc.into(), msg.into(), kind.into())
}

#[test]
fn a_body_that_follows_the_type_is_read() {
    let body = json!({"name": "n", "count": 2.0, "tags": ["a"], "revision": "main",
        "inner": {"level": "high"}});
    let sample = read::<Sample>(&body, &Loc::body()).unwrap();
    assert_eq!(sample.count, Some(2));
    assert!(matches!(sample.inner, Some(Inner { level: Level::High })));
}

#[test]
fn each_fault_is_located_and_worded_for_people() {
    assert_eq!(
        faults(&json!({"name": 1})),
        [one(
            "name",
            "name must be a string, not a number",
            "string_expected"
        )]
    );
    assert_eq!(
        faults(&json!({"name": "n", "count": -1})),
        [one(
            "count",
            "count must be a whole number of at least 0, not -1",
            "integer_expected"
        )]
    );
    assert_eq!(
        faults(&json!({"name": "n", "tags": ["a", 2]})),
        [one(
            "tags[1]",
            "tags[1] must be a string, not a number",
            "string_expected"
        )]
    );
    assert_eq!(
        faults(&json!({"name": "n", "inner": {"level": "mid"}})),
        [one(
            "inner.level",
            r#"level must be one of "low", "high", not "mid""#,
            "enum"
        )]
    );
    assert_eq!(
        faults(&json!({"name": "n", "extra": 1})),
        [one(
            "extra",
            "unknown member `extra` (known: name, count, flag, tags, revision, inner)",
            "unknown_member"
        )]
    );
    assert_eq!(
        faults(&json!({"name": "n", "inner": {}})),
        [one("inner.level", "level is required", "missing")]
    );
    assert_eq!(
        faults(&json!({"name": "n", "revision": ""})),
        [one("revision", "revision may not be empty", "empty")]
    );
    assert_eq!(
        faults(&json!([])),
        [one(
            "body",
            "the request body must be an object, not an array",
            "object_expected"
        )]
    );
}

#[test]
fn every_fault_is_found_at_once_missing_members_first() {
    assert_eq!(
        faults(&json!({"count": "x", "flag": 1, "tags": [1], "inner": {"level": 2}})),
        [
            one("name", "name is required", "missing"),
            one(
                "count",
                "count must be a whole number, not a string",
                "integer_expected"
            ),
            one(
                "flag",
                "flag must be a boolean, not a number",
                "bool_expected"
            ),
            one(
                "tags[0]",
                "tags[0] must be a string, not a number",
                "string_expected"
            ),
            one(
                "inner.level",
                r#"level must be one of "low", "high", not a number"#,
                "enum"
            ),
        ]
    );
}

#[test]
fn rules_across_members_run_once_the_members_are_read() {
    assert_eq!(
        faults(&json!({"name": "n", "flag": true})),
        [one("count", "a flag needs a count", "conflict")]
    );
    // Not while a member is faulty: the rule would judge a body with the member left out.
    assert_eq!(
        faults(&json!({"name": "n", "flag": true, "count": "x"})),
        [one(
            "count",
            "count must be a whole number, not a string",
            "integer_expected"
        )]
    );
}

#[test]
fn the_work_a_body_can_ask_for_is_bounded() {
    let mut body = serde_json::Map::new();
    body.insert("name".into(), json!("n"));
    for i in 0..1000 {
        body.insert(format!("x{i}"), json!(i));
    }
    assert_eq!(faults(&Value::Object(body)).len(), MAX_ROUNDS);
}

#[test]
fn a_refusal_under_serde_json_is_its_text() {
    let error = serde_json::from_value::<Sample>(json!({"name": "n", "revision": ""})).unwrap_err();
    assert_eq!(error.to_string(), "may not be empty");
}

/// Query parameters: the struct's members are the parameters, found without naming them
/// again; an undeclared one is ignored even when repeated, a declared one repeated is
/// refused where it repeats, and faults come in the order of the pairs.
#[test]
fn a_query_reads_the_members_its_type_declares() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct Query {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        flag: Option<String>,
    }
    impl Rules for Query {}
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    };
    let read = read_query::<Query>(&pairs(&[("other", "1"), ("other", "2"), ("name", "a")]));
    assert_eq!(
        read.unwrap(),
        Query {
            name: Some("a".into()),
            flag: None
        }
    );
    let refused =
        read_query::<Query>(&pairs(&[("flag", "x"), ("name", "a"), ("flag", "y")])).unwrap_err();
    let found: Vec<(String, String)> = refused
        .0
        .iter()
        .map(|e| (e.loc.to_string(), e.kind.clone()))
        .collect();
    assert_eq!(found, [("query.flag".to_owned(), "duplicate".to_owned())]);
}

//! Examples of a repository model: ingest (JSON Lines, JSON array, stdin), bad lines,
//! atomic ingest, annotation, listing with filters and pagination, show, export.

use crate::common::{TestEnv, assert_succeeded, support_file};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

const MODEL: &str = "acme/support";

fn create(env: &TestEnv, model: &str) {
    env.json(&[
        "models",
        "create",
        model,
        "--questions",
        &support_file("questions.yaml"),
    ]);
}

/// The committed support examples, parsed.
fn support_examples() -> Vec<Value> {
    std::fs::read_to_string(support_file("examples.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn annotation_count(example: &Value) -> usize {
    example
        .get("annotations")
        .and_then(Value::as_object)
        .map_or(0, serde_json::Map::len)
}

/// Run `arbiter args…` and return (exit code, stdout parsed as JSON).
fn run(env: &TestEnv, args: &[&str]) -> (i32, Value) {
    let output = env.cmd().args(args).output().unwrap();
    let stdout: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "arbiter {args:?}: stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap(), stdout)
}

fn ingest_support(env: &TestEnv) -> Value {
    env.json(&[
        "examples",
        "ingest",
        MODEL,
        "--file",
        &support_file("examples.jsonl"),
    ])
}

fn list(env: &TestEnv, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["examples", "list", MODEL, "-n", "1000"];
    args.extend_from_slice(extra);
    let page = env.json(&args);
    assert!(page["nextCursor"].is_null(), "{page}");
    page["examples"].as_array().unwrap().clone()
}

fn ids(examples: &[Value]) -> Vec<String> {
    examples
        .iter()
        .map(|e| e["exampleId"].as_str().unwrap().to_owned())
        .collect()
}

/// Annotations without their timestamps: question -> (answer, reasoning).
fn ground_truth(example: &Value) -> BTreeMap<String, (Value, Value)> {
    example["annotations"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(q, a)| {
            (
                q.clone(),
                (
                    a["answer"].clone(),
                    a.get("reasoning").cloned().unwrap_or(Value::Null),
                ),
            )
        })
        .collect()
}

/// A file mixing valid lines with one of each kind of bad line (and a blank line).
const MIXED: &str = r#"{"example_id":"ok-1","state":{"t":"one"}}
{not json
[1,2]
{"example_id":"no-state"}
{"example_id":"bad-question","state":{"t":"x"},"annotations":{"nope":{"answer":true}}}
{"example_id":"ok-2","state":{"t":"two"},"annotations":{"urgency":{"answer":4,"reasoning":"outage"}}}
{"example_id":"bad-choice","state":{"t":"x"},"annotations":{"intent":{"answer":"pizza"}}}
{"example_id":"bad-score","state":{"t":"x"},"annotations":{"urgency":{"answer":7}}}
{"example_id":"bad-noul","state":{"t":"x"},"annotations":{"escalate":{"answer":"maybe"}}}

{"example_id":"ok-3","state":{"t":"three"}}
"#;

/// The rejected lines of `MIXED`: line number, example ID, a word the reason must contain.
const MIXED_REJECTED: [(u64, Option<&str>, &str); 7] = [
    (2, None, "JSON"),
    (3, None, "object"),
    (4, Some("no-state"), "state"),
    (5, Some("bad-question"), "nope"),
    (7, Some("bad-choice"), "pizza"),
    (8, Some("bad-score"), "7"),
    (9, Some("bad-noul"), "maybe"),
];

fn check_mixed_rejections(report: &Value) {
    let rejected = report["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), MIXED_REJECTED.len(), "{report}");
    for (got, (line, id, word)) in rejected.iter().zip(MIXED_REJECTED) {
        assert_eq!(got["line"], line, "{report}");
        assert_eq!(got["exampleId"].as_str(), id, "{got}");
        let reason = got["reason"].as_str().unwrap();
        assert!(
            reason.contains(word),
            "line {line}: {reason:?} should mention {word:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// ingest

#[test]
fn ingests_the_support_examples_once() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let expected = support_examples();
    let annotations: usize = expected.iter().map(annotation_count).sum();
    assert_eq!(expected.len(), 40);

    let report = ingest_support(&env);
    assert_eq!(
        report,
        json!({"committed": true, "created": 40, "existing": 0, "annotations": annotations, "rejected": []})
    );
    assert!(annotations > 0);
    let listed = list(&env, &[]);
    assert_eq!(listed.len(), 40);
    let listed_ids: BTreeSet<String> = ids(&listed).into_iter().collect();
    for example in &expected {
        if let Some(id) = example["example_id"].as_str() {
            assert!(listed_ids.contains(id), "{id} missing");
        }
    }
    let t001 = listed.iter().find(|e| e["exampleId"] == "t-001").unwrap();
    assert_eq!(t001["state"], expected[0]["state"]);
    assert_eq!(t001["annotations"]["intent"]["answer"], "refund");
    assert_eq!(
        t001["annotations"]["intent"]["reasoning"],
        "Asks for a charge after cancellation to be returned."
    );

    // Again: nothing new, no duplicates.
    let again = ingest_support(&env);
    assert_eq!(again["created"], 0, "{again}");
    assert_eq!(again["existing"], 40, "{again}");
    assert_eq!(again["rejected"], json!([]));
    assert_eq!(ids(&list(&env, &[])), ids(&listed));
}

#[test]
fn ingests_a_json_array_and_stdin() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let array = json!([
        {"example_id": "a-1", "state": {"body": "first"}, "annotations": {"escalate": {"answer": true}}},
        {"state": {"body": "no id given"}},
        {"example_id": "a-3", "state": "a plain string state"},
    ]);
    let file = env.write("array.json", &serde_json::to_string_pretty(&array).unwrap());
    let report = env.json(&[
        "examples",
        "ingest",
        MODEL,
        "--file",
        &file.display().to_string(),
    ]);
    assert_eq!(
        report,
        json!({"committed": true, "created": 3, "existing": 0, "annotations": 1, "rejected": []})
    );
    let listed = list(&env, &[]);
    let listed_ids = ids(&listed);
    assert_eq!(listed_ids.len(), 3);
    assert!(listed_ids.contains(&"a-1".to_owned()) && listed_ids.contains(&"a-3".to_owned()));
    let derived = listed_ids
        .iter()
        .find(|id| id.starts_with("ex_"))
        .expect("a derived ID")
        .clone();
    assert_eq!(derived.len(), 35, "{derived}");

    // The derived ID is the one a decision on the same state uses.
    let state = env.write("state.json", r#"{ "body" : "no id given" }"#);
    let decided = env.json(&[
        "decide",
        "--model",
        MODEL,
        "--state",
        &state.display().to_string(),
    ]);
    assert_eq!(
        decided["example"],
        json!({"exampleId": derived, "created": false})
    );

    // JSON Lines from stdin.
    let output = env
        .cmd()
        .args(["examples", "ingest", MODEL, "--file", "-"])
        .write_stdin("{\"example_id\":\"s-1\",\"state\":1}\n{\"example_id\":\"s-2\",\"state\":2}\n{\"example_id\":\"a-1\",\"state\":{}}\n")
        .output()
        .unwrap();
    assert_succeeded(&output);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["created"], 2, "{report}");
    assert_eq!(report["existing"], 1, "{report}");
    assert_eq!(list(&env, &[]).len(), 5);
    // An existing example keeps its state.
    let a1 = env.json(&["examples", "show", MODEL, "a-1"]);
    assert_eq!(a1["state"], json!({"body": "first"}));
}

#[test]
fn bad_lines_are_reported_and_the_valid_ones_written() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let file = env.write("mixed.jsonl", MIXED);
    let (code, report) = run(
        &env,
        &[
            "examples",
            "ingest",
            MODEL,
            "--file",
            &file.display().to_string(),
        ],
    );
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["committed"], true);
    assert_eq!(report["created"], 3, "{report}");
    assert_eq!(report["annotations"], 1, "{report}");
    check_mixed_rejections(&report);
    assert_eq!(ids(&list(&env, &[])), ["ok-1", "ok-2", "ok-3"]);
    let ok2 = env.json(&["examples", "show", MODEL, "ok-2"]);
    assert_eq!(ok2["annotations"]["urgency"]["answer"], 4);
    assert_eq!(ok2["annotations"]["urgency"]["reasoning"], "outage");
}

#[test]
fn atomic_ingest_writes_nothing_when_a_line_is_bad() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let file = env.write("mixed.jsonl", MIXED);
    let (code, report) = run(
        &env,
        &[
            "examples",
            "ingest",
            MODEL,
            "--file",
            &file.display().to_string(),
            "--atomic",
        ],
    );
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["committed"], false, "{report}");
    assert_eq!(report["created"], 0, "{report}");
    assert_eq!(report["annotations"], 0, "{report}");
    check_mixed_rejections(&report);
    assert!(list(&env, &[]).is_empty());

    // The valid lines alone go in atomically.
    let good = MIXED
        .lines()
        .filter(|l| l.contains("\"ok-"))
        .fold(String::new(), |mut out, l| {
            writeln!(out, "{l}").unwrap();
            out
        });
    let file = env.write("good.jsonl", &good);
    let report = env.json(&[
        "examples",
        "ingest",
        MODEL,
        "--file",
        &file.display().to_string(),
        "--atomic",
    ]);
    assert_eq!(
        report,
        json!({"committed": true, "created": 3, "existing": 0, "annotations": 1, "rejected": []})
    );
    assert_eq!(ids(&list(&env, &[])), ["ok-1", "ok-2", "ok-3"]);
}

#[test]
fn ingest_into_an_unknown_model_is_not_found() {
    let env = TestEnv::new();
    let (code, problem, _) = env.problem(&[
        "examples",
        "ingest",
        "acme/nope",
        "--file",
        &support_file("examples.jsonl"),
    ]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("model_not_found")),
        "{problem}"
    );
}

// ---------------------------------------------------------------------------------------
// annotate

// One scenario end to end: splitting it would hide the steps.
#[allow(clippy::too_many_lines)]
#[test]
fn annotates_one_example() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let file = env.write(
        "one.jsonl",
        "{\"example_id\":\"e-1\",\"state\":{\"body\":\"Checkout is down for everyone\"}}\n",
    );
    env.json(&[
        "examples",
        "ingest",
        MODEL,
        "--file",
        &file.display().to_string(),
    ]);

    let annotated = env.json(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "urgency",
        "--answer",
        "3",
        "--reasoning",
        "Money at stake today.",
    ]);
    assert_eq!(annotated["answer"], 3);
    assert_eq!(annotated["reasoning"], "Money at stake today.");
    let shown = env.json(&["examples", "show", MODEL, "e-1"]);
    let urgency = &shown["annotations"]["urgency"];
    assert_eq!(urgency["answer"], 3);
    assert_eq!(urgency["reasoning"], "Money at stake today.");
    let at = urgency["annotatedAt"].as_str().unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(at).is_ok(), "{at}");

    // Annotating again replaces the annotation.
    env.json(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "urgency",
        "--answer",
        "4",
    ]);
    let shown = env.json(&["examples", "show", MODEL, "e-1"]);
    assert_eq!(shown["annotations"]["urgency"]["answer"], 4, "{shown}");
    assert!(
        shown["annotations"]["urgency"].get("reasoning").is_none(),
        "{shown}"
    );
    assert_eq!(shown["annotations"].as_object().unwrap().len(), 1);

    // Out of range: refused with a clear message, and the annotation is unchanged.
    let (code, problem, stderr) = env.problem(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "urgency",
        "--answer",
        "5",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(problem["code"], "validation_error");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("not a level") && detail.contains("0 to 4"),
        "{detail}"
    );
    // Without --json the message is plain text on stderr.
    let output = env
        .cmd()
        .args([
            "examples",
            "annotate",
            MODEL,
            "e-1",
            "--question",
            "urgency",
            "--answer",
            "5",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a level"));
    assert_eq!(
        env.json(&["examples", "show", MODEL, "e-1"])["annotations"]["urgency"]["answer"],
        4
    );

    // Unknown question, unknown example.
    let (code, problem, _) = env.problem(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "nope",
        "--answer",
        "true",
    ]);
    assert_eq!(code, 1, "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("nope"),
        "{problem}"
    );
    let (code, problem, _) = env.problem(&[
        "examples",
        "annotate",
        MODEL,
        "e-404",
        "--question",
        "urgency",
        "--answer",
        "1",
    ]);
    assert_eq!(code, 4, "{problem}");
    assert_eq!(problem["code"], "example_not_found");

    // A choice answer as text; a noul answer as a boolean.
    let choice = env.json(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "intent",
        "--answer",
        "technical",
    ]);
    assert_eq!(choice["answer"], "technical");
    let noul = env.json(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "escalate",
        "--answer",
        "true",
    ]);
    assert_eq!(noul["answer"], true);
    let (code, _, _) = env.problem(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "intent",
        "--answer",
        "pizza",
    ]);
    assert_eq!(code, 1);
    let (code, _, _) = env.problem(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "escalate",
        "--answer",
        "maybe",
    ]);
    assert_eq!(code, 1);
    let shown = env.json(&["examples", "show", MODEL, "e-1"]);
    assert_eq!(
        ground_truth(&shown),
        [
            ("escalate".to_owned(), (json!(true), Value::Null)),
            ("intent".to_owned(), (json!("technical"), Value::Null)),
            ("urgency".to_owned(), (json!(4), Value::Null)),
        ]
        .into()
    );
}

#[test]
fn annotates_from_a_file() {
    let env = TestEnv::new();
    create(&env, MODEL);
    ingest_support(&env);
    let report = env.json(&[
        "examples",
        "annotate",
        MODEL,
        "--file",
        &support_file("annotations.jsonl"),
    ]);
    assert_eq!(report["annotations"], 10, "{report}");
    assert_eq!(report["rejected"], json!([]));
    let t004 = env.json(&["examples", "show", MODEL, "t-004"]);
    assert_eq!(t004["annotations"]["urgency"]["answer"], 3);
    assert_eq!(
        t004["annotations"]["urgency"]["reasoning"],
        "Locked out with a client presentation from the account in two hours."
    );

    let lines = [
        r#"{"example_id": "t-002", "question": "escalate", "answer": true}"#,
        r#"{"example_id": "t-999", "question": "urgency", "answer": 1}"#,
        r#"{"example_id": "t-003", "question": "urgency", "answer": 9}"#,
        r#"{"example_id": "t-005", "question": "intent", "answer": "shipping", "reasoning": "Where is it?"}"#,
    ];
    let file = env.write("more.jsonl", &(lines.join("\n") + "\n"));
    let (code, report) = run(
        &env,
        &[
            "examples",
            "annotate",
            MODEL,
            "--file",
            &file.display().to_string(),
        ],
    );
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["annotations"], 2, "{report}");
    let rejected = report["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 2, "{report}");
    assert_eq!(rejected[0]["line"], 2);
    assert!(
        rejected[0]["reason"].as_str().unwrap().contains("t-999"),
        "{report}"
    );
    assert_eq!(rejected[1]["line"], 3);
    assert!(
        rejected[1]["reason"].as_str().unwrap().contains('9'),
        "{report}"
    );
    assert_eq!(
        env.json(&["examples", "show", MODEL, "t-002"])["annotations"]["escalate"]["answer"],
        true
    );
    assert_eq!(
        env.json(&["examples", "show", MODEL, "t-005"])["annotations"]["intent"]["answer"],
        "shipping"
    );
    // The rejected annotation did not overwrite the stored one.
    let t003 = env.json(&["examples", "show", MODEL, "t-003"]);
    assert_eq!(t003["annotations"]["urgency"]["answer"], 1);
    assert!(matches!(
        env.problem(&["examples", "show", MODEL, "t-999"]),
        (4, ref p, _) if p["code"] == "example_not_found"
    ));
}

// ---------------------------------------------------------------------------------------
// list

#[test]
fn list_filters_by_annotation() {
    let env = TestEnv::new();
    create(&env, MODEL);
    ingest_support(&env);
    let expected = support_examples();
    let annotated_count = expected.iter().filter(|e| annotation_count(e) > 0).count();
    let urgency_count = expected
        .iter()
        .filter(|e| e["annotations"].get("urgency").is_some())
        .count();

    let all: BTreeSet<String> = ids(&list(&env, &[])).into_iter().collect();
    let annotated = list(&env, &["--annotated"]);
    let unannotated = list(&env, &["--unannotated"]);
    assert_eq!(annotated.len(), annotated_count);
    assert_eq!(unannotated.len(), expected.len() - annotated_count);
    assert!(
        annotated
            .iter()
            .all(|e| !e["annotations"].as_object().unwrap().is_empty())
    );
    assert!(
        unannotated
            .iter()
            .all(|e| e["annotations"].as_object().unwrap().is_empty())
    );
    let mut union: BTreeSet<String> = ids(&annotated).into_iter().collect();
    union.extend(ids(&unannotated));
    assert_eq!(union, all);

    let urgency = list(&env, &["--question", "urgency"]);
    assert_eq!(urgency.len(), urgency_count);
    assert!(
        urgency
            .iter()
            .all(|e| e["annotations"].get("urgency").is_some())
    );
    assert!(list(&env, &["--question", "churn_risk"]).is_empty());
    assert!(list(&env, &["--question", "urgency", "--unannotated"]).is_empty());

    // Annotating an unannotated example moves it between the filters.
    let moved = ids(&unannotated)[0].clone();
    env.json(&[
        "examples",
        "annotate",
        MODEL,
        &moved,
        "--question",
        "urgency",
        "--answer",
        "0",
    ]);
    assert_eq!(list(&env, &["--unannotated"]).len(), unannotated.len() - 1);
    assert!(ids(&list(&env, &["--question", "urgency"])).contains(&moved));
}

#[test]
fn pages_visit_every_example_once_in_order() {
    let env = TestEnv::new();
    create(&env, MODEL);
    ingest_support(&env);
    let all = ids(&list(&env, &[]));
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(all, sorted, "listed in example ID order");

    for (limit, pages) in [(7, 6), (8, 5), (40, 1), (1000, 1)] {
        let limit_text = limit.to_string();
        let mut seen = Vec::new();
        let mut after: Option<String> = None;
        let mut count = 0;
        loop {
            let mut args = vec!["examples", "list", MODEL, "-n", &limit_text];
            if let Some(cursor) = &after {
                args.extend_from_slice(&["--after", cursor]);
            }
            let page = env.json(&args);
            let page_ids = ids(page["examples"].as_array().unwrap());
            assert!(page_ids.len() <= limit, "{page}");
            assert!(!page_ids.is_empty(), "an empty page after {after:?}");
            seen.extend(page_ids);
            count += 1;
            match page["nextCursor"].as_str() {
                Some(next) => {
                    assert_eq!(Some(next), seen.last().map(String::as_str));
                    after = Some(next.to_owned());
                }
                None => break,
            }
            assert!(count <= 50, "pagination does not end");
        }
        assert_eq!(seen, all, "-n {limit}");
        assert_eq!(count, pages, "-n {limit}");
    }
}

// ---------------------------------------------------------------------------------------
// show, export

#[test]
fn shows_a_captured_example_with_its_decisions() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let state =
        json!({"subject": "Locked out", "body": "I cannot log in since the password reset."});
    let path = env
        .write("s.json", &state.to_string())
        .display()
        .to_string();
    let first = env.json(&[
        "decide",
        "--model",
        MODEL,
        "--state",
        &path,
        "--example-id",
        "ticket-81",
    ]);
    env.json(&["models", "tag", MODEL, "v1"]);
    let second = env.json(&[
        "decide",
        "--model",
        MODEL,
        "--state",
        &path,
        "--example-id",
        "ticket-81",
        "--revision",
        "v1",
    ]);
    assert_eq!(second["example"]["created"], false);

    let shown = env.json(&["examples", "show", MODEL, "ticket-81"]);
    assert_eq!(shown["exampleId"], "ticket-81");
    assert_eq!(shown["state"], state);
    assert_eq!(shown["annotations"], json!({}));
    let decisions = shown["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 2, "{shown}");
    for (decision, response) in decisions.iter().zip([&first, &second]) {
        assert_eq!(decision["decisionId"], response["decision"]["decisionId"]);
        assert_eq!(decision["createdAt"], response["decision"]["createdAt"]);
        assert_eq!(decision["exampleId"], "ticket-81");
        assert_eq!(
            decision["checkpoint"],
            response["checkpoint"]["checkpointId"]
        );
        assert_eq!(decision["answers"], response["answers"]);
        let questions: Vec<&String> = decision["questions"].as_object().unwrap().keys().collect();
        assert_eq!(questions, ["intent", "urgency", "escalate"]);
        assert_eq!(decision["questions"]["urgency"]["type"], "score");
        let request_id = decision["requestId"].as_str().unwrap();
        assert!(uuid::Uuid::parse_str(request_id).is_ok(), "{request_id}");
        assert_eq!(decision["inputTokens"], response["usage"]["input_tokens"]);
    }
    assert_eq!(decisions[0]["revisionName"], "main");
    assert_eq!(decisions[0]["revisionKind"], "branch");
    assert_eq!(decisions[1]["revisionName"], "v1");
    assert_eq!(decisions[1]["revisionKind"], "tag");
    assert_ne!(decisions[0]["requestId"], decisions[1]["requestId"]);
    // Listing shows the example without its decisions.
    let listed = list(&env, &[]);
    assert_eq!(ids(&listed), ["ticket-81"]);
    assert!(listed[0].get("decisions").is_none());
}

#[test]
fn export_round_trips_through_ingest() {
    let env = TestEnv::new();
    create(&env, MODEL);
    ingest_support(&env);
    env.json(&[
        "examples",
        "annotate",
        MODEL,
        "--file",
        &support_file("annotations.jsonl"),
    ]);
    let path = env
        .write("s.json", r#"{"body":"captured by a decision"}"#)
        .display()
        .to_string();
    env.json(&["decide", "--model", MODEL, "--state", &path]);
    let source = list(&env, &[]);
    assert_eq!(source.len(), 41);

    let output = env
        .cmd()
        .args(["examples", "export", MODEL])
        .output()
        .unwrap();
    assert_succeeded(&output);
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), source.len());
    assert!(text.ends_with('\n'));
    for (line, example) in lines.iter().zip(&source) {
        assert_eq!(line["example_id"], example["exampleId"]);
        assert_eq!(line["state"], example["state"]);
        let keys: BTreeSet<&str> = line
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["annotations", "example_id", "state"].into());
    }
    let annotated = env
        .cmd()
        .args(["examples", "export", MODEL, "--annotated"])
        .output()
        .unwrap();
    assert!(annotated.status.success());
    assert_eq!(
        String::from_utf8(annotated.stdout).unwrap().lines().count(),
        list(&env, &["--annotated"]).len()
    );

    // Into a second model through stdin.
    create(&env, "acme/copy");
    let output = env
        .cmd()
        .args(["examples", "ingest", "acme/copy", "--file", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_succeeded(&output);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["created"], 41, "{report}");
    assert_eq!(report["rejected"], json!([]));
    let copy = env.json(&["examples", "list", "acme/copy", "-n", "1000"])["examples"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(ids(&copy), ids(&source));
    for (a, b) in source.iter().zip(&copy) {
        assert_eq!(a["state"], b["state"], "{}", a["exampleId"]);
        assert_eq!(ground_truth(a), ground_truth(b), "{}", a["exampleId"]);
    }
    // The file annotations replaced the ingested ones before export.
    let t001 = copy.iter().find(|e| e["exampleId"] == "t-001").unwrap();
    assert_eq!(
        t001["annotations"]["urgency"]["reasoning"],
        "A wrong charge is a real problem for one person but there is no hard deadline."
    );
}

#[test]
fn large_ingests_span_batches() {
    let env = TestEnv::new();
    create(&env, MODEL);
    // More lines than one write batch, with one bad line past the first batches.
    let mut text = String::new();
    for i in 0..4_500 {
        if i == 4_399 {
            text.push_str("oops\n");
        } else {
            text.push_str(&json!({"example_id": format!("b{i:05}"), "state": {"i": i}, "annotations": {"urgency": {"answer": i % 5}}}).to_string());
            text.push('\n');
        }
    }
    let file = env.write("big.jsonl", &text).display().to_string();

    let (code, report) = run(
        &env,
        &["examples", "ingest", MODEL, "--file", &file, "--atomic"],
    );
    assert_eq!(code, 1);
    assert_eq!(report["committed"], false, "{report}");
    assert_eq!(report["rejected"].as_array().unwrap().len(), 1);
    assert_eq!(report["rejected"][0]["line"], 4_400);
    let page = env.json(&["examples", "list", MODEL]);
    assert_eq!(
        page["examples"],
        json!([]),
        "an atomic ingest left examples behind"
    );

    let (code, report) = run(&env, &["examples", "ingest", MODEL, "--file", &file]);
    assert_eq!(code, 1);
    assert_eq!(report["created"], 4_499, "{report}");
    assert_eq!(report["annotations"], 4_499, "{report}");
    assert_eq!(report["rejected"][0]["line"], 4_400);
    let output = env
        .cmd()
        .args(["examples", "export", MODEL])
        .output()
        .unwrap();
    assert!(output.status.success());
    let exported: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(exported.len(), 4_499);
    assert_eq!(exported[0]["example_id"], "b00000");
    assert_eq!(exported[4_498]["example_id"], "b04499");
    assert!(!exported.iter().any(|e| e["example_id"] == "b04399"));
    let tail = env.json(&[
        "examples",
        "list",
        MODEL,
        "--question",
        "urgency",
        "--after",
        "b04400",
        "-n",
        "1000",
    ]);
    assert_eq!(tail["examples"].as_array().unwrap().len(), 99);
    assert!(tail["nextCursor"].is_null());
}

#[test]
fn annotation_files_report_each_bad_line() {
    let env = TestEnv::new();
    create(&env, MODEL);
    ingest_support(&env);
    let input = [
        r#"{"example_id":"t-017","question":"urgency","answer":0}"#,
        "",
        "not json",
        r#"{"question":"urgency","answer":1}"#,
        r#"{"example_id":"t-017","question":"intent"}"#,
        r#"{"example_id":"t-017","question":"escalate","answer":0.25,"reasoning":"calm"}"#,
    ]
    .join("\n");
    let output = env
        .cmd()
        .args(["examples", "annotate", MODEL, "--file", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["annotations"], 2, "{report}");
    let lines: Vec<u64> = report["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [3, 4, 5], "{report}");
    let t017 = env.json(&["examples", "show", MODEL, "t-017"]);
    assert_eq!(t017["annotations"]["urgency"]["answer"], 0);
    assert_eq!(t017["annotations"]["escalate"]["answer"], 0.25);
    assert_eq!(t017["annotations"]["escalate"]["reasoning"], "calm");
}

// ---------------------------------------------------------------------------------------
// annotators

/// `examples annotate MODEL <example> --question <q> --answer <a> [--annotator <who>]`.
fn annotate_as(env: &TestEnv, who: Option<&str>, example: &str, q: &str, answer: &str) -> Value {
    let mut args = vec![
        "examples",
        "annotate",
        MODEL,
        example,
        "--question",
        q,
        "--answer",
        answer,
    ];
    if let Some(who) = who {
        args.extend(["--annotator", who]);
    }
    env.json(&args)
}

/// Each vote as (annotator, answer), oldest first.
pub(crate) fn votes(annotation: &Value) -> Vec<(String, Value)> {
    annotation["votes"]
        .as_array()
        .unwrap_or_else(|| panic!("no votes: {annotation}"))
        .iter()
        .map(|v| {
            (
                v["annotator"].as_str().unwrap().to_owned(),
                v["answer"].clone(),
            )
        })
        .collect()
}

fn ingest_text(env: &TestEnv, model: &str, text: &str, extra: &[&str]) -> (i32, Value) {
    let file = env.write("lines.jsonl", text).display().to_string();
    let mut args = vec!["examples", "ingest", model, "--file", &file];
    args.extend_from_slice(extra);
    run(env, &args)
}

#[test]
fn annotators_keep_their_own_answers_and_the_majority_is_the_ground_truth() {
    let env = TestEnv::new();
    create(&env, MODEL);
    ingest_text(
        &env,
        MODEL,
        r#"{"example_id":"e-1","state":{"body":"hi"}}"#,
        &[],
    );

    let alice = annotate_as(&env, Some("alice"), "e-1", "escalate", "true");
    assert_eq!(
        (&alice["answer"], &alice["annotator"]),
        (&json!(true), &json!("alice"))
    );
    assert_eq!(votes(&alice), [("alice".to_owned(), json!(true))]);
    // Bob disagrees: one each, so the latest answer is the ground truth.
    let bob = annotate_as(&env, Some("bob"), "e-1", "escalate", "false");
    assert_eq!(
        (&bob["answer"], &bob["annotator"]),
        (&json!(false), &json!("bob"))
    );
    // Carol sides with alice: true, two to one, though bob's is not the latest.
    let carol = annotate_as(&env, Some("carol"), "e-1", "escalate", "true");
    assert_eq!(
        (&carol["answer"], &carol["annotator"]),
        (&json!(true), &json!("carol"))
    );
    assert_eq!(votes(&carol).len(), 3);
    let shown = env.json(&["examples", "show", MODEL, "e-1"]);
    assert_eq!(
        shown["annotations"]["escalate"], carol,
        "show resolves as annotate says"
    );

    // Bob changes his mind: his own answer is replaced, nobody else's.
    let again = env.json(&[
        "examples",
        "annotate",
        MODEL,
        "e-1",
        "--question",
        "escalate",
        "--answer",
        "true",
        "--annotator",
        "bob",
        "--reasoning",
        "reread it",
    ]);
    assert_eq!(
        votes(&again),
        [
            ("alice".to_owned(), json!(true)),
            ("carol".to_owned(), json!(true)),
            ("bob".to_owned(), json!(true)),
        ]
    );
    assert_eq!(
        (&again["annotator"], &again["reasoning"]),
        (&json!("bob"), &json!("reread it"))
    );
    let listed = list(&env, &["--annotated", "--question", "escalate"]);
    assert_eq!(ids(&listed), ["e-1"]);
    assert_eq!(listed[0]["annotations"]["escalate"], again);
}

#[test]
fn the_default_annotator_is_the_local_user() {
    let env = TestEnv::new();
    create(&env, MODEL);
    ingest_text(
        &env,
        MODEL,
        r#"{"example_id":"e-1","state":{"body":"hi"}}"#,
        &[],
    );
    // Without --annotator: the local user, else `local`.
    let output = env
        .cmd()
        .env("USER", "dana")
        .args([
            "examples",
            "annotate",
            MODEL,
            "e-1",
            "--question",
            "urgency",
            "--answer",
            "1",
        ])
        .output()
        .unwrap();
    assert_succeeded(&output);
    let dana: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(dana["annotator"], "dana");
    let local = annotate_as(&env, None, "e-1", "urgency", "3");
    assert_eq!(
        votes(&local),
        [
            ("dana".to_owned(), json!(1)),
            ("local".to_owned(), json!(3))
        ]
    );

    // A name that is no name is a usage error, and writes nothing.
    for bad in ["", "  ", "tab\there", &"x".repeat(129)] {
        let output = env
            .cmd()
            .args([
                "examples",
                "annotate",
                MODEL,
                "e-1",
                "--question",
                "urgency",
            ])
            .args(["--answer", "4", "--annotator", bad])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("annotator"), "{bad:?}: {stderr}");
    }
    let shown = env.json(&["examples", "show", MODEL, "e-1"]);
    assert_eq!(votes(&shown["annotations"]["urgency"]).len(), 2);
}

#[test]
fn eval_scores_the_majority_answer() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let state = json!({"subject": "Charged twice", "body": "You charged my card twice for one order. I want the second charge refunded."});
    ingest_text(
        &env,
        MODEL,
        &json!({"example_id": "e-1", "state": state}).to_string(),
        &[],
    );
    let state_file = env
        .write("state.json", &state.to_string())
        .display()
        .to_string();
    let decided = env.json(&[
        "decide",
        "--model",
        MODEL,
        "--state",
        &state_file,
        "--no-capture",
    ]);
    let predicted = decided["answers"]["intent"]["choice"]
        .as_str()
        .unwrap()
        .to_owned();
    let other = if predicted == "feedback" {
        "shipping"
    } else {
        "feedback"
    };
    let accuracy = |env: &TestEnv| {
        let report = env.json(&["eval", MODEL, "--questions", "intent"]);
        let metrics = &report["questions"]["intent"]["metrics"];
        assert_eq!(metrics["examples"], 1, "{report}");
        metrics["accuracy"].as_f64().unwrap()
    };

    // Two say what the model says, the latest says otherwise: the majority is scored.
    annotate_as(&env, Some("alice"), "e-1", "intent", &predicted);
    annotate_as(&env, Some("bob"), "e-1", "intent", &predicted);
    annotate_as(&env, Some("carol"), "e-1", "intent", other);
    assert!((accuracy(&env) - 1.0).abs() < 1e-12);
    // A fourth evens it: the tie goes to the latest answer, and the model is now wrong.
    annotate_as(&env, Some("dana"), "e-1", "intent", other);
    assert!(accuracy(&env).abs() < 1e-12);
}

#[test]
fn export_and_ingest_keep_every_annotator() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let text = concat!(
        r#"{"example_id":"m-1","state":{"t":"one"},"annotations":{"escalate":[{"answer":true,"annotator":"alice"},{"answer":false,"annotator":"bob","reasoning":"calm"}],"urgency":{"answer":2}}}"#,
        "\n",
        r#"{"example_id":"m-2","state":{"t":"two"},"annotations":{"intent":{"answer":"refund","annotator":"vendor"}}}"#,
        "\n",
    );
    let (code, report) = ingest_text(&env, MODEL, text, &["--annotator", "ingester"]);
    assert_eq!((code, &report["created"]), (0, &json!(2)), "{report}");
    let m1 = env.json(&["examples", "show", MODEL, "m-1"]);
    let escalate = &m1["annotations"]["escalate"];
    assert_eq!(
        (&escalate["answer"], &escalate["annotator"]),
        (&json!(false), &json!("bob"))
    );
    assert_eq!(m1["annotations"]["urgency"]["annotator"], "ingester");
    // A bulk annotation line may name its annotator too: a third voice on escalate.
    let lines = env.write(
        "annotations.jsonl",
        r#"{"example_id":"m-1","question":"escalate","answer":true,"annotator":"zed"}"#,
    );
    env.json(&[
        "examples",
        "annotate",
        MODEL,
        "--file",
        &lines.display().to_string(),
    ]);
    let m1 = env.json(&["examples", "show", MODEL, "m-1"]);
    let escalate = m1["annotations"]["escalate"].clone();
    assert_eq!(
        (&escalate["answer"], &escalate["annotator"]),
        (&json!(true), &json!("zed"))
    );

    // Export writes every annotator's answer, oldest first: a list where there are several.
    let output = env
        .cmd()
        .args(["examples", "export", MODEL])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let exported: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        exported[0]["annotations"],
        json!({
            "escalate": [
                {"answer": true, "annotator": "alice"},
                {"answer": false, "annotator": "bob", "reasoning": "calm"},
                {"answer": true, "annotator": "zed"},
            ],
            "urgency": {"answer": 2, "annotator": "ingester"},
        })
    );
    assert_eq!(
        exported[1]["annotations"],
        json!({"intent": {"answer": "refund", "annotator": "vendor"}})
    );
    // Into another model by someone else: every annotator and answer comes along.
    create(&env, "acme/copy");
    let (code, report) = ingest_text(&env, "acme/copy", &text, &["--annotator", "mover"]);
    assert_eq!((code, &report["annotations"]), (0, &json!(5)), "{report}");
    for id in ["m-1", "m-2"] {
        let source = env.json(&["examples", "show", MODEL, id]);
        let copy = env.json(&["examples", "show", "acme/copy", id]);
        for (question, annotation) in source["annotations"].as_object().unwrap() {
            let copied = &copy["annotations"][question];
            assert_eq!(votes(copied), votes(annotation), "{id} {question}");
            assert_eq!(copied["answer"], annotation["answer"], "{id} {question}");
            assert_eq!(
                copied["annotator"], annotation["annotator"],
                "{id} {question}"
            );
        }
    }
}

#[test]
fn ingest_refuses_bad_annotators_where_they_are() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let text = concat!(
        r#"{"example_id":"bad-twice","state":{"t":"x"},"annotations":{"escalate":[{"answer":true,"annotator":"a"},{"answer":false,"annotator":"a"}]}}"#,
        "\n",
        r#"{"example_id":"bad-empty","state":{"t":"x"},"annotations":{"escalate":{"answer":true,"annotator":""}}}"#,
        "\n",
        r#"{"example_id":"bad-type","state":{"t":"x"},"annotations":{"escalate":{"answer":true,"annotator":7}}}"#,
        "\n",
        r#"{"example_id":"bad-list","state":{"t":"x"},"annotations":{"escalate":[]}}"#,
        "\n",
        r#"{"example_id":"bad-answer","state":{"t":"x"},"annotations":{"escalate":[{"answer":true},{"answer":"maybe","annotator":"b"}]}}"#,
        "\n",
    );
    let (code, report) = ingest_text(&env, MODEL, text, &["--annotator", "ingester"]);
    assert_eq!((code, &report["created"]), (1, &json!(0)), "{report}");
    let reasons: Vec<(&str, &str)> = report["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["exampleId"].as_str().unwrap(),
                r["reason"].as_str().unwrap(),
            )
        })
        .collect();
    let expected = [
        (
            "bad-twice",
            "annotations.escalate[1].annotator: `a` answers twice",
        ),
        (
            "bad-empty",
            "annotations.escalate.annotator: an annotator's name may not be empty",
        ),
        (
            "bad-type",
            "annotations.escalate.annotator: annotator must be a string, not a number",
        ),
        ("bad-list", "annotations.escalate: an empty list"),
        ("bad-answer", "annotations.escalate[1].answer: \"maybe\""),
    ];
    assert_eq!(reasons.len(), expected.len(), "{report}");
    for ((id, reason), (want_id, want)) in reasons.iter().zip(expected) {
        assert_eq!(*id, want_id);
        assert!(
            reason.starts_with(want),
            "{id}: {reason:?} should start with {want:?}"
        );
    }
}

/// Ten examples two annotators answered like Cohen's classic table (kappa 0.4), four that
/// three answered unevenly (Fleiss for varying raters: 23/72), one question with a single
/// annotator.
const RATED: &str = r#"{"example_id":"g-0","state":{"i":0},"annotations":{"escalate":[{"answer":true,"annotator":"ann"},{"answer":true,"annotator":"bob"}],"intent":[{"answer":"refund","annotator":"ann"},{"answer":"refund","annotator":"bob"},{"answer":"refund","annotator":"cy"}],"urgency":{"answer":1,"annotator":"ann"}}}
{"example_id":"g-1","state":{"i":1},"annotations":{"escalate":[{"answer":true,"annotator":"ann"},{"answer":true,"annotator":"bob"}],"intent":[{"answer":"refund","annotator":"ann"},{"answer":"technical","annotator":"cy"}],"urgency":{"answer":2,"annotator":"ann"}}}
{"example_id":"g-2","state":{"i":2},"annotations":{"escalate":[{"answer":true,"annotator":"ann"},{"answer":true,"annotator":"bob"}],"intent":[{"answer":"technical","annotator":"bob"},{"answer":"technical","annotator":"cy"}],"urgency":{"answer":2,"annotator":"ann"}}}
{"example_id":"g-3","state":{"i":3},"annotations":{"escalate":[{"answer":true,"annotator":"ann"},{"answer":true,"annotator":"bob"}],"intent":{"answer":"refund","annotator":"cy"}}}
{"example_id":"g-4","state":{"i":4},"annotations":{"escalate":[{"answer":true,"annotator":"ann"},{"answer":false,"annotator":"bob"}]}}
{"example_id":"g-5","state":{"i":5},"annotations":{"escalate":[{"answer":false,"annotator":"ann"},{"answer":true,"annotator":"bob"}]}}
{"example_id":"g-6","state":{"i":6},"annotations":{"escalate":[{"answer":false,"annotator":"ann"},{"answer":true,"annotator":"bob"}]}}
{"example_id":"g-7","state":{"i":7},"annotations":{"escalate":[{"answer":false,"annotator":"ann"},{"answer":false,"annotator":"bob"}]}}
{"example_id":"g-8","state":{"i":8},"annotations":{"escalate":[{"answer":false,"annotator":"ann"},{"answer":false,"annotator":"bob"}]}}
{"example_id":"g-9","state":{"i":9},"annotations":{"escalate":[{"answer":false,"annotator":"ann"},{"answer":false,"annotator":"bob"}]}}
"#;

#[test]
fn agreement_reports_cohen_and_fleiss_kappa() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let (code, report) = ingest_text(&env, MODEL, RATED, &[]);
    assert_eq!(code, 0, "{report}");
    let close = |value: &Value, expected: f64| {
        assert!(
            value.as_f64().is_some_and(|v| (v - expected).abs() < 1e-9),
            "{value} is not {expected}"
        );
    };
    let report = env.json(&["examples", "agreement", MODEL]);
    assert_eq!(report["model"], MODEL);
    let questions: Vec<&String> = report["questions"].as_object().unwrap().keys().collect();
    assert_eq!(
        questions,
        ["intent", "urgency", "escalate"],
        "the questions' order"
    );

    let escalate = &report["questions"]["escalate"];
    assert_eq!(escalate["method"], "cohen", "{escalate}");
    assert_eq!(
        (&escalate["examples"], &escalate["sharedExamples"]),
        (&json!(10), &json!(10))
    );
    close(&escalate["observedAgreement"], 0.7);
    close(&escalate["expectedAgreement"], 0.5);
    close(&escalate["kappa"], 0.4);
    assert_eq!(
        escalate["annotators"],
        json!([{"annotator": "ann", "examples": 10}, {"annotator": "bob", "examples": 10}])
    );
    assert!(escalate.get("reason").is_none(), "{escalate}");

    let intent = &report["questions"]["intent"];
    assert_eq!(intent["method"], "fleiss", "{intent}");
    assert_eq!(
        (&intent["examples"], &intent["sharedExamples"]),
        (&json!(4), &json!(3))
    );
    close(&intent["observedAgreement"], 2.0 / 3.0);
    close(&intent["expectedAgreement"], 25.0 / 49.0);
    close(&intent["kappa"], 23.0 / 72.0);
    assert_eq!(
        intent["annotators"],
        json!([
            {"annotator": "cy", "examples": 4},
            {"annotator": "ann", "examples": 2},
            {"annotator": "bob", "examples": 2},
        ])
    );

    let urgency = &report["questions"]["urgency"];
    assert_eq!(
        (
            &urgency["method"],
            &urgency["kappa"],
            &urgency["observedAgreement"]
        ),
        (&Value::Null, &Value::Null, &Value::Null),
        "{urgency}"
    );
    assert_eq!(
        urgency["reason"],
        "one annotator (ann): agreement needs two"
    );
    assert_eq!(
        (&urgency["examples"], &urgency["sharedExamples"]),
        (&json!(3), &json!(0))
    );

    // One question; an unknown one is refused where it was named.
    let one = env.json(&["examples", "agreement", MODEL, "--question", "escalate"]);
    assert_eq!(one["questions"].as_object().unwrap().len(), 1);
    assert_eq!(one["questions"]["escalate"], *escalate);
    let (code, problem, _) = env.problem(&["examples", "agreement", MODEL, "--question", "nope"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error"))
    );
    assert_eq!(problem["details"][0]["loc"], json!(["query", "question"]));
    let (code, problem, _) = env.problem(&["examples", "agreement", "acme/nope"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("model_not_found"))
    );
}

/// `batch` of `MODEL` over the one item `item`, its results to a file: a job whose input
/// lines hold the item's state.
fn batch_to_a_file(env: &TestEnv, item: &Value) {
    let input = env.write("batch.jsonl", &format!("{item}\n"));
    let output = env
        .cmd()
        .args([
            "batch",
            MODEL,
            "--input",
            input.to_str().unwrap(),
            "--output",
        ])
        .arg(env.path().join("answers.jsonl"))
        .output()
        .unwrap();
    assert_succeeded(&output);
}

/// Every file of the home's store (the database, its log and shared memory), read raw.
fn store_bytes(env: &TestEnv) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(env.home()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("arbiter.db") {
            bytes.extend(std::fs::read(&path).unwrap());
        }
    }
    assert!(
        !bytes.is_empty(),
        "no store files in {}",
        env.home().display()
    );
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

/// `examples delete` forgets an example: its state is found neither by `examples show`
/// nor in the store's files (`grep -a`), nor in the input of a batch job that decided it;
/// its decisions and annotations go with it; the deletion is in the model's history (the
/// ID, never the content); an unknown ID deletes nothing.
#[test]
fn a_deleted_example_is_gone_from_the_api_and_from_the_store_files() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let secret = "Zebulon Quarterfield, 41 Larkspur Lane";
    let state = json!({"messages": [{"role": "user", "content": format!("I am {secret} and my parcel is late")}]});
    env.ingest(
        MODEL,
        &format!(
            "{}\n{}\n",
            json!({"example_id": "forget-me", "state": state, "annotations": {"escalate": {"answer": true}}}),
            json!({"example_id": "keep-me", "state": "an order that arrived broken"})
        ),
    );
    let state_file = env.write("state.json", &state.to_string());
    env.json(&[
        "decide",
        "-m",
        MODEL,
        "-s",
        state_file.to_str().unwrap(),
        "--example-id",
        "forget-me",
    ]);
    batch_to_a_file(&env, &json!({"example_id": "forget-me", "state": state}));
    assert!(
        contains(&store_bytes(&env), secret),
        "the test's state was never stored"
    );

    // An unknown ID beside a known one: not found, and nothing deleted.
    let (code, problem, _) = env.problem(&["examples", "delete", MODEL, "forget-me", "no-such"]);
    assert_eq!(code, 4, "{problem}");
    assert_eq!(problem["code"], "example_not_found");
    assert!(
        problem["detail"].as_str().unwrap().contains("no-such"),
        "{problem}"
    );
    env.json(&["examples", "show", MODEL, "forget-me"]);

    let deleted = env.json(&["examples", "delete", MODEL, "forget-me"]);
    assert_eq!(deleted, json!({"deleted": ["forget-me"]}));
    let (code, problem, _) = env.problem(&["examples", "show", MODEL, "forget-me"]);
    assert_eq!(code, 4, "{problem}");
    let bytes = store_bytes(&env);
    assert!(
        !contains(&bytes, secret),
        "the deleted state is still in the store's files"
    );
    assert!(
        !contains(&bytes, "Quarterfield"),
        "a part of the deleted state is still there"
    );
    let listed = env.json(&["examples", "list", MODEL]);
    let ids: Vec<&str> = listed["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["exampleId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["keep-me"]);
    let history = env.json(&["models", "history", MODEL]);
    let event = &history[0];
    assert_eq!(event["action"], "delete", "{history}");
    assert_eq!(event["ref"], "examples/forget-me", "{history}");
    assert!(!history.to_string().contains("Zebulon"), "{history}");
    // Deleting it again: not found.
    let (code, _, _) = env.problem(&["examples", "delete", MODEL, "forget-me"]);
    assert_eq!(code, 4);
}

/// `capture.retain_days`: after a capture, unannotated examples recorded more than that
/// many days ago are deleted; annotated ones (ground truth) and recent ones stay, and the
/// sweep is one event of the model's history.
#[test]
fn retain_days_deletes_old_unannotated_examples_after_a_capture() {
    let env = TestEnv::new();
    env.json(&[
        "models",
        "create",
        MODEL,
        "--questions",
        &support_file("questions.yaml"),
        "--retain-days",
        "2",
    ]);
    let shown = env.json(&["models", "show", MODEL]);
    assert_eq!(shown["capture"]["retainDays"], 2, "{shown}");
    env.ingest(
        MODEL,
        &[
            json!({"example_id": "old-annotated", "state": "a", "annotations": {"escalate": {"answer": true}}}),
            json!({"example_id": "old", "state": "b"}),
            json!({"example_id": "recent", "state": "c"}),
        ]
        .map(|line| format!("{line}\n"))
        .concat(),
    );
    // Recorded five days ago, as far as the store knows.
    let db = rusqlite::Connection::open(env.home().join("arbiter.db")).unwrap();
    let five_days_ago = (chrono::Utc::now() - chrono::Duration::days(5))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    db.execute(
        "UPDATE examples SET created_at = ?1 WHERE example_id IN ('old-annotated', 'old')",
        [&five_days_ago],
    )
    .unwrap();
    drop(db);

    let state = env.write("state.json", r#"{"text": "a parcel that never came"}"#);
    let decided = env.json(&["decide", "-m", MODEL, "-s", state.to_str().unwrap()]);
    assert_eq!(decided["recorded"], true, "{decided}");
    let listed = env.json(&["examples", "list", MODEL]);
    let mut ids: Vec<&str> = listed["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["exampleId"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    let captured = decided["example"]["exampleId"].as_str().unwrap();
    let mut expected = vec!["old-annotated", "recent", captured];
    expected.sort_unstable();
    assert_eq!(ids, expected);
    let history = env.json(&["models", "history", MODEL]);
    assert_eq!(history[0]["action"], "delete", "{history}");
    assert_eq!(
        history[0]["ref"], "examples: 1 unannotated, older than 2 days",
        "{history}"
    );
    assert_eq!(history[0]["actor"], "capture.retain_days");
}

/// `models delete`: refused without `--yes` when there is no terminal to ask on (exit 2);
/// with it, the model is gone (not listed, not found), its captured states are in none of
/// the store's files, and the path can be created again, empty.
#[test]
fn a_deleted_model_leaves_nothing_behind() {
    let env = TestEnv::new();
    create(&env, MODEL);
    let secret = "Ottoline Fairweather-Grieve";
    env.ingest(
        MODEL,
        &format!(
            "{}\n",
            json!({"example_id": "x", "state": format!("{secret} wants a refund")})
        ),
    );
    batch_to_a_file(&env, &json!({"state": secret}));
    assert!(contains(&store_bytes(&env), secret));

    let (code, problem, _) = env.problem(&["models", "delete", MODEL]);
    assert_eq!(code, 2, "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("--yes"),
        "{problem}"
    );
    env.json(&["models", "show", MODEL]);

    let deleted = env.json(&["models", "delete", MODEL, "--yes"]);
    assert_eq!(deleted["deleted"], MODEL);
    let (code, _, _) = env.problem(&["models", "show", MODEL]);
    assert_eq!(code, 4);
    let listed = env.json(&["models"]);
    assert!(!listed.to_string().contains(MODEL), "{listed}");
    assert!(
        !contains(&store_bytes(&env), secret),
        "the deleted model's states remain"
    );
    let (code, _, _) = env.problem(&["models", "delete", MODEL, "--yes"]);
    assert_eq!(code, 4, "deleting it again: not found");

    create(&env, MODEL);
    let examples = env.json(&["examples", "list", MODEL]);
    assert_eq!(examples["examples"], json!([]), "{examples}");
    let history = env.json(&["models", "history", MODEL]);
    assert_eq!(history, json!([]), "{history}");
}

/// `examples list --question Q --answer A` and `--text T` find what the web app's Examples
/// page finds, on a local home and against a server alike.
#[test]
fn examples_are_listed_by_answer_and_by_text_here_and_on_a_server() {
    let env = TestEnv::new();
    env.model("acme/support");
    let lines = [
        json!({"example_id": "t-0", "state": {"text": "My card was charged twice"}, "annotations": {"intent": {"answer": "refund"}, "urgency": {"answer": 2}}}),
        json!({"example_id": "t-1", "state": {"text": "The PARCEL is late"}, "annotations": {"intent": {"answer": "shipping"}, "urgency": {"answer": 1}}}),
        json!({"example_id": "t-2", "state": {"text": "my parcel is lost (100% sure)"}}),
    ]
    .map(|line| line.to_string())
    .join("\n");
    env.ingest("acme/support", &lines);
    let ids = |listed: &Value| -> Vec<String> {
        listed["examples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["exampleId"].as_str().unwrap().to_owned())
            .collect()
    };
    let queries: [(&[&str], &[&str]); 5] = [
        (&["--question", "intent", "--answer", "refund"], &["t-0"]),
        (&["--question", "urgency", "--answer", "1"], &["t-1"]),
        (&["--text", "parcel"], &["t-1", "t-2"]),
        (&["--text", "100%"], &["t-2"]),
        (&["--text", "_"], &[]),
    ];
    let token = env.admin_token("lead");
    let server = env.serve_on_thread();
    for (flags, want) in queries {
        let mut args = vec!["examples", "list", "acme/support"];
        args.extend_from_slice(flags);
        let here = env.json(&args);
        assert_eq!(ids(&here), want, "{flags:?}");
        let output = env
            .cmd()
            .env("ARBITER_SERVER", server.url())
            .env("ARBITER_TOKEN", &token)
            .args(&args)
            .output()
            .unwrap();
        assert_succeeded(&output);
        let there: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(there, here, "{flags:?}");
    }
    let (code, _, stderr) = env.problem(&["examples", "list", "acme/support", "--answer", "x"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--question"), "{stderr}");
    // Over HTTP, an answer without its question is refused where it is.
    let request = format!(
        "GET /v1/models/acme/support/examples?answer=refund HTTP/1.1\r\nHost: x\r\n\
         Authorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    let (status, _, body) = crate::common::raw_exchange(server.url(), request.as_bytes());
    assert_eq!(status, 422, "{body}");
    let problem: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["query", "answer"]),
        "{problem}"
    );
}

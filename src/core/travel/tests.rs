use super::derived_path;
use super::labels::items;
use crate::core::model_files::parse_questions_yaml;
use crate::error::Error;
use crate::wire::travel::LABELS_FILE;

#[test]
fn an_imported_model_is_named_by_the_last_two_components_of_its_source() {
    for (source, path) in [
        ("file:///srv/git/acme/support.git", Some("acme/support")),
        (
            "https://git.example/acme/support.git/",
            Some("acme/support"),
        ),
        (
            "ssh://git@git.example:2222/acme/support",
            Some("acme/support"),
        ),
        ("git@git.example:acme/support.git", Some("acme/support")),
        ("../hub/acme/support.git", Some("acme/support")),
        ("/home/dana/acme/support/.git", Some("acme/support")),
        ("./acme/./support", Some("acme/support")),
        // One component, or components that make no model path: the user names it.
        ("support.git", None),
        ("https://git.example/support.git", None),
        ("/tmp/my repos/support.git", None),
        ("/srv/.hidden/support.git", None),
    ] {
        assert_eq!(
            derived_path(source).map(|p| p.to_string()).as_deref(),
            path,
            "{source}"
        );
    }
}

#[test]
fn a_labels_file_is_read_whole_or_refused_with_every_bad_line_located() {
    let questions = parse_questions_yaml(
        "intent: {type: choice, criteria: {refund: r, billing: b}}\nescalate: {type: noul}\n",
    )
    .unwrap();
    let good = concat!(
        r#"{"example_id":"t-1","state":"a","annotations":{"intent":{"answer":"refund","annotator":"bob"}}}"#,
        "\n\n",
        r#"{"example_id":"t-2","state":"b","annotations":{"escalate":[{"answer":true},{"answer":false,"annotator":"cat"}]}}"#,
        "\n"
    );
    let read = items(good, LABELS_FILE, &questions, "dana").unwrap();
    assert_eq!(read.len(), 2);
    let by: Vec<&str> = read[1]
        .annotations
        .iter()
        .map(|a| a.annotator.as_str())
        .collect();
    assert_eq!(by, ["dana", "cat"]);

    let bad = format!(
        "{good}{}\n{}\nnot json\n",
        r#"{"example_id":"t-3","state":"c","annotations":{"urgency":{"answer":2}}}"#,
        r#"{"example_id":"t-4","state":"d","annotations":{"intent":{"answer":"shipping"}}}"#,
    );
    let Err(Error::Validation(details)) = items(&bad, LABELS_FILE, &questions, "dana") else {
        panic!("a bad file was read");
    };
    let said: Vec<String> = details.iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(
        said[0].starts_with(
            "examples/annotated.jsonl:4: annotations.urgency.answer: no question `urgency`"
        ),
        "{said:?}"
    );
    assert!(
        said[1].starts_with("examples/annotated.jsonl:5: annotations.intent.answer:")
            && said[1].contains("shipping"),
        "{said:?}"
    );
    assert!(
        said[2].starts_with("examples/annotated.jsonl:6: "),
        "{said:?}"
    );
}

//! The rough edges a newcomer hits (issue 36, item 4), each held where its class lives:
//! help and man pages, tokens, batch inputs and their failed items' lines, YAML files,
//! model names and example ID prefixes. What must also hold against a server is in
//! `client.rs` ("Rough edges").

use crate::common::{QUESTIONS, STATE, TestEnv, assert_succeeded};
use serde_json::json;

fn env_with_model() -> TestEnv {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env
}

/// `--help` lists the options every command takes under their own heading, apart from the
/// command's own options.
#[test]
fn help_lists_global_options_under_their_own_heading() {
    let env = TestEnv::new();
    for command in [&["batch"][..], &["jobs", "list"], &[]] {
        let output = env.cmd().args(command).arg("--help").output().unwrap();
        assert!(output.status.success(), "{command:?}");
        let help = String::from_utf8_lossy(&output.stdout);
        let (own, global) = help
            .split_once("\nGlobal options:\n")
            .unwrap_or_else(|| panic!("{command:?}: no Global options heading:\n{help}"));
        for flag in [
            "--home <DIR>",
            "--json",
            "--table",
            "--full-ids",
            "--quiet",
            "--server <URL>",
        ] {
            let listed = |section: &str| {
                section
                    .lines()
                    .any(|line| line.trim_start().starts_with(flag))
            };
            assert!(listed(global), "{command:?}: {flag} not global:\n{help}");
            assert!(
                !listed(own),
                "{command:?}: {flag} among the own options:\n{help}"
            );
        }
    }
}

/// A man page's synopsis says which options take a value, and what value.
#[test]
fn man_synopses_show_value_placeholders() {
    let env = TestEnv::new();
    let dir = env.path().join("man");
    env.cmd()
        .arg("man")
        .arg("--dir")
        .arg(&dir)
        .assert()
        .success();
    let page = std::fs::read_to_string(dir.join("arbiter-batch.1")).unwrap();
    let synopsis = page
        .split(".SH SYNOPSIS\n")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap();
    for shown in [
        r"[\fB\-i\fR|\fB\-\-input\fR \fIFILE\fR]",
        r"[\fB\-\-revision\fR \fIREV\fR]",
        r"[\fB\-\-max\-failed\-items\fR \fIN|P%\fR]",
        r"[\fB\-\-home\fR \fIDIR\fR]",
        r"[\fB\-\-capture\fR]",
        r"<\fIMODEL\fR>",
    ] {
        assert!(synopsis.contains(shown), "{shown} not in {synopsis}");
    }
}

/// A token without `--role` reaches no repository model: created, with a warning that says
/// so; with a role, no warning.
#[test]
fn a_token_without_a_role_is_created_with_a_warning() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .args(["tokens", "create", "--name", "bare", "--scope", "decisions"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning: `bare` has no --role, so it reaches no repository model"),
        "{stderr}"
    );
    let output = env
        .cmd()
        .args([
            "tokens",
            "create",
            "--name",
            "reader",
            "--role",
            "acme/*=reader",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(!String::from_utf8_lossy(&output.stderr).contains("warning"));
}

/// An empty batch input (no line, or only blank lines) is refused, and no job is left behind.
#[test]
fn an_empty_batch_input_is_refused() {
    let env = env_with_model();
    for (name, text) in [("empty.jsonl", ""), ("blank.jsonl", "\n  \n\n")] {
        let input = env.write(name, text).display().to_string();
        let (code, problem, stderr) = env.problem(&["batch", "acme/support", "--input", &input]);
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(problem["code"], "validation_error", "{problem}");
        assert_eq!(problem["details"][0]["loc"], json!(["body", "items"]));
        assert_eq!(problem["details"][0]["msg"], "input has no items");
    }
    assert_eq!(env.json(&["jobs", "list"]), json!([]));
}

/// A JSON Lines input whose blank lines are skipped: item 1 is line 5, item 2 line 6.
pub(crate) const BLANK_LINES_INPUT: &str = "\n{\"example_id\":\"a\",\"state\":\"Where is my parcel?\"}\n\n   \n{not json\n{\"state\": 1, \"extra\": 2}\n";

/// A failed item of a JSON Lines input is named by its index and its line, blank lines
/// counted: in its result line (`line`, absent on answered items) and on stderr.
#[test]
fn batch_item_errors_name_the_input_line() {
    let env = env_with_model();
    let input = env.write("blank.jsonl", BLANK_LINES_INPUT);
    let output = env
        .cmd()
        .args(["batch", "acme/support", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let results: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let lines: Vec<_> = results.iter().map(|r| r.get("line").cloned()).collect();
    assert_eq!(lines, [None, Some(json!(5)), Some(json!(6))]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let items: Vec<&str> = stderr.lines().filter(|l| l.starts_with("item ")).collect();
    assert_eq!(
        items,
        [
            "item 1 (line 5): the item is not JSON: key must be a string at line 1 column 2",
            "item 2 (line 6): extra: unknown member `extra` (known: example_id, state, annotations)",
        ],
        "{stderr}"
    );
    // `jobs results` reads the same lines back, and `jobs poll --wait` names the same items.
    let id = stderr
        .lines()
        .find_map(|line| line.strip_prefix("completed: 3 items (2 failed), job "))
        .unwrap();
    let stored = env.cmd().args(["jobs", "results", id]).output().unwrap();
    assert_eq!(stored.stdout, output.stdout);
    let polled = env
        .cmd()
        .args(["jobs", "poll", id, "--wait"])
        .output()
        .unwrap();
    assert_eq!(polled.status.code(), Some(1));
    let polled = String::from_utf8_lossy(&polled.stderr);
    let named: Vec<&str> = polled.lines().filter(|l| l.starts_with("item ")).collect();
    assert_eq!(named, items, "{polled}");
}

/// A YAML file indented with a tab says that the tab is the fault, wherever YAML is read.
#[test]
fn a_yaml_error_caused_by_a_tab_says_so() {
    let env = TestEnv::new();
    let questions = env
        .write("tab.yaml", "q:\n\ttype: noul\n")
        .display()
        .to_string();
    let state = env.write("s.json", STATE).display().to_string();
    let output = env
        .cmd()
        .args(["decide", "-m", "mo", "-q", &questions, "-s", &state])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 2 is indented with a tab; YAML indents with spaces only"),
        "{stderr}"
    );
    // config.yaml too.
    std::fs::write(env.home().join("config.yaml"), "server:\n\tlisten: x\n").unwrap();
    let output = env.cmd().args(["models", "list"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("indented with a tab"), "{stderr}");
}

/// A misspelled base model name is not found, with the name it probably meant; a name far
/// from every model gets no guess.
#[test]
fn an_unknown_model_name_gets_did_you_mean() {
    let env = TestEnv::new();
    let questions = env.write("q.yaml", QUESTIONS).display().to_string();
    let state = env.write("s.json", STATE).display().to_string();
    for (model, suggestion) in [
        ("moo", Some("mo")),
        ("jev-lates", Some("jev-latest")),
        ("gpt-9", None),
    ] {
        let (code, problem, _) =
            env.problem(&["decide", "-m", model, "-q", &questions, "-s", &state]);
        assert_eq!(code, 4, "{problem}");
        assert_eq!(problem["code"], "model_not_found");
        let detail = problem["detail"].as_str().unwrap();
        match suggestion {
            Some(name) => assert_eq!(
                detail,
                format!("model `{model}` not found; did you mean `{name}`?")
            ),
            None => assert_eq!(detail, format!("model `{model}` not found")),
        }
    }
}

/// Every table writes a timestamp one way: UTC to the second, `2026-11-27 06:47:48`, whatever
/// precision the JSON has (a job's milliseconds, a checkpoint's seconds).
#[test]
fn every_table_writes_timestamps_one_way() {
    let env = env_with_model();
    let state = env.write("s.json", STATE).display().to_string();
    env.cmd()
        .args(["decide", "-m", "acme/support", "-s", &state])
        .assert()
        .success();
    let input = env.write("in.jsonl", &format!("{{\"state\":{STATE}}}\n"));
    env.cmd()
        .args(["batch", "acme/support", "--input"])
        .arg(&input)
        .assert()
        .success();
    env.cmd()
        .args(["tokens", "create", "--name", "t", "--role", "acme/*=reader"])
        .assert()
        .success();
    let one_format = regex::Regex::new(r"\b\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\b").unwrap();
    let other_formats = regex::Regex::new(r"\d\d:\d\d:\d\d(\.\d+)?Z|\dT\d").unwrap();
    for listing in [
        &["jobs", "list"][..],
        &["models", "log", "acme/support"],
        &["examples", "list", "acme/support"],
        &["tokens", "list"],
    ] {
        let output = env
            .cmd()
            .env("COLUMNS", "200")
            .arg("--table")
            .args(listing)
            .output()
            .unwrap();
        assert!(output.status.success(), "{listing:?}");
        let table = String::from_utf8_lossy(&output.stdout);
        assert!(one_format.is_match(&table), "{listing:?}:\n{table}");
        assert!(!other_formats.is_match(&table), "{listing:?}:\n{table}");
    }
}

/// `models diff` shows a score's levels level by level and a choice's options option by
/// option: which criterion changed, not that the list did.
#[test]
fn models_diff_shows_which_criteria_changed() {
    let env = env_with_model();
    let changed = QUESTIONS
        .replace(
            "    - A minor inconvenience.",
            "    - A small inconvenience.",
        )
        .replace(
            "    shipping: The customer asks where their delivery is.",
            "    shipping: The customer asks where their parcel is.",
        );
    let questions = env.write("changed.yaml", &changed).display().to_string();
    env.cmd()
        .args([
            "models",
            "commit",
            "acme/support",
            "--questions",
            &questions,
        ])
        .args(["--branch", "draft", "-m", "Reword"])
        .assert()
        .success();
    let output = env
        .cmd()
        .args(["--table", "models", "diff", "acme/support", "main", "draft"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(
        shown.contains(r#"criteria.1: "A minor inconvenience." -> "A small inconvenience.""#),
        "{shown}"
    );
    assert!(shown.contains("criteria.shipping: "), "{shown}");
    let diff = env.json(&["models", "diff", "acme/support", "main", "draft"]);
    let paths: Vec<String> = diff["questions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|file| {
            let id = file["id"].as_str().unwrap().to_owned();
            file["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |change| {
                    let path: Vec<&str> = change["path"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|segment| segment.as_str().unwrap())
                        .collect();
                    format!("{id}: {}", path.join("."))
                })
        })
        .collect();
    assert_eq!(
        paths,
        ["intent: criteria.shipping", "urgency: criteria.1"],
        "{diff}"
    );
}

/// A job ID prefix shorter than the minimum is refused as such, not "not found".
#[test]
fn a_short_prefix_is_not_reported_as_not_found() {
    let env = TestEnv::new();
    let output = env.cmd().args(["jobs", "poll", "ab"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`ab` is too short"), "{stderr}");
    assert!(!stderr.contains("not found"), "{stderr}");
}

/// A decision's footer at 80 and 100 columns breaks between its parts: the example ID it
/// was recorded under is never split across lines.
#[test]
fn a_footer_never_splits_an_id_across_lines() {
    let env = env_with_model();
    let state = env.write("s.json", STATE).display().to_string();
    for width in ["80", "100"] {
        let output = env
            .cmd()
            .env("COLUMNS", width)
            .args(["--table", "decide", "-m", "acme/support", "-s", &state])
            .output()
            .unwrap();
        assert!(output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        let width: usize = width.parse().unwrap();
        assert!(
            stderr.lines().all(|line| line.chars().count() <= width),
            "{stderr}"
        );
        assert!(
            stderr
                .lines()
                .any(|line| line.starts_with("recorded under ex_") && line.len() == 50),
            "{stderr}"
        );
    }
}

/// Example IDs chosen to catch a careless prefix rule: a short ID, an ID that starts
/// another, SQL LIKE wildcards (`%`, `_`) as plain text, and two derived-looking IDs that
/// share a prefix.
pub(crate) const PREFIX_EXAMPLES: &str = concat!(
    r#"{"example_id": "ab", "state": "a"}"#,
    "\n",
    r#"{"example_id": "abcd", "state": "b"}"#,
    "\n",
    r#"{"example_id": "abcde", "state": "c"}"#,
    "\n",
    r#"{"example_id": "a%_x1", "state": "d"}"#,
    "\n",
    r#"{"example_id": "a%_y2", "state": "e"}"#,
    "\n",
    r#"{"example_id": "a%c99", "state": "f"}"#,
    "\n",
    r#"{"example_id": "ex_1234a", "state": "g"}"#,
    "\n",
    r#"{"example_id": "ex_1234b", "state": "h"}"#,
    "\n",
);

/// What `examples show TEXT` answers: `Ok(the example ID shown)`, or `Err((exit code,
/// detail))`. An exact ID always wins; a prefix names the one example it starts, with the
/// words and codes of a job ID prefix.
type PrefixCase = (&'static str, Result<&'static str, (i32, &'static str)>);

const PREFIX_CASES: &[PrefixCase] = &[
    ("ab", Ok("ab")),
    ("abcd", Ok("abcd")),
    ("abcde", Ok("abcde")),
    ("a%_x", Ok("a%_x1")),
    ("a%c9", Ok("a%c99")),
    (
        "a%_",
        Err((
            1,
            "example ID prefix `a%_` is too short: give at least 4 characters of the ID",
        )),
    ),
    (
        "ex_1234",
        Err((
            4,
            "example ID prefix `ex_1234` is ambiguous: it starts ex_1234a, ex_1234b; give more of the ID",
        )),
    ),
    ("a%_z", Err((4, "example `a%_z` not found"))),
    ("zzzz", Err((4, "example `zzzz` not found"))),
];

/// Run [`PREFIX_CASES`] (and one `annotate` by prefix) with `cmd`, on a home where
/// [`PREFIX_EXAMPLES`] are ingested in `acme/support`.
pub(crate) fn check_prefix_cases(cmd: &dyn Fn() -> assert_cmd::Command) {
    for (text, expected) in PREFIX_CASES {
        let output = cmd()
            .args(["--json", "examples", "show", "acme/support", text])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        match expected {
            Ok(id) => {
                assert!(output.status.success(), "{text}: {stderr}");
                let shown: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                assert_eq!(shown["exampleId"], *id, "{text}");
            }
            Err((code, message)) => {
                assert_eq!(output.status.code(), Some(*code), "{text}: {stderr}");
                let problem: serde_json::Value = serde_json::from_str(&stderr).unwrap();
                assert_eq!(problem["detail"], *message, "{text}");
            }
        }
    }
    let output = cmd()
        .args(["examples", "annotate", "acme/support", "a%_y"])
        .args(["--question", "escalate", "--answer", "true"])
        .output()
        .unwrap();
    assert_succeeded(&output);
    let output = cmd()
        .args(["--json", "examples", "show", "acme/support", "a%_y2"])
        .output()
        .unwrap();
    let shown: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(shown["annotations"]["escalate"]["answer"], true, "{shown}");
}

/// A noul is annotated `yes` or `no` as the annotation screen labels its keys (it was
/// refused: it wanted `true`); anything else is still refused, naming what it takes.
#[test]
fn a_noul_takes_yes_and_no_on_the_command_line() {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env.ingest("acme/support", PREFIX_EXAMPLES);
    for (given, stored) in [("yes", true), ("No", false), ("true", true)] {
        let output = env
            .cmd()
            .args(["examples", "annotate", "acme/support", "a%_y2"])
            .args(["--question", "escalate", "--answer", given])
            .output()
            .unwrap();
        assert_succeeded(&output);
        let shown = env.json(&["examples", "show", "acme/support", "a%_y2"]);
        assert_eq!(
            shown["annotations"]["escalate"]["answer"], stored,
            "{given}: {shown}"
        );
    }
    let (code, problem, _) = env.problem(&[
        "examples",
        "annotate",
        "acme/support",
        "a%_y2",
        "--question",
        "escalate",
        "--answer",
        "maybe",
    ]);
    assert_eq!(
        (code, &problem["code"]),
        (1, &json!("validation_error")),
        "{problem}"
    );
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("is not true, false or a probability")),
        "{problem}"
    );
}

/// Example IDs take unique prefixes as job IDs do, on SQLite and on PostgreSQL (whose
/// order, which decides the examples that follow a prefix, must be the same byte order).
#[test]
fn example_ids_take_unique_prefixes() {
    // Without PostgreSQL installed, SQLite alone (as the other suites on both stores).
    for database in [None, arbiter_testing::postgres::database()] {
        let env = TestEnv::new();
        if let Some(url) = &database {
            std::fs::write(
                env.home().join("config.yaml"),
                format!("database:\n  url: {url}\n"),
            )
            .unwrap();
        }
        let questions = env.write("questions.yaml", QUESTIONS);
        env.create_model("acme/support", "mo", &questions);
        env.ingest("acme/support", PREFIX_EXAMPLES);
        check_prefix_cases(&|| env.cmd());
    }
}

/// `eval --questions questions.yaml` (a file where `decide` and `batch` take one, IDs here)
/// says what to do instead of only that there is no such question; so does `align`.
#[test]
fn a_questions_file_given_for_question_ids_gets_a_hint() {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    for (command, says) in [
        ("eval", "evaluated with --questions-file"),
        ("align", "commit the file first (arbiter models commit)"),
    ] {
        let (code, problem, _) =
            env.problem(&[command, "acme/support", "--questions", "questions.yaml"]);
        let detail = problem["detail"].as_str().unwrap_or_default();
        assert_eq!(code, 1, "{command}: {problem}");
        assert!(
            detail.contains("has no question `questions.yaml`")
                && detail.contains("looks like a file")
                && detail.contains(says),
            "{command}: {problem}"
        );
    }
    // An ID that is not a file name keeps the plain message.
    let (_, problem, _) = env.problem(&["eval", "acme/support", "--questions", "nope"]);
    assert!(
        !problem["detail"]
            .as_str()
            .unwrap()
            .contains("looks like a file"),
        "{problem}"
    );
}

/// `eval --help` says what `--include-fitted` changes: a learned head's fitted examples
/// are scored by their out-of-fold answers without it (it said they were left out).
#[test]
fn eval_help_says_how_fitted_examples_are_scored() {
    let env = TestEnv::new();
    let output = env.cmd().args(["eval", "--help"]).output().unwrap();
    assert_succeeded(&output);
    let help = String::from_utf8(output.stdout).unwrap().replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("a learned head's fitted examples are scored by their out-of-fold answers")
            && !help.contains("only on examples neither was fitted on"),
        "{help}"
    );
}

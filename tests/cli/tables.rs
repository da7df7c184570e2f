//! Tables with the real binary: `eval` and `jobs list` drawn at 80, 120 and 200 columns
//! (`COLUMNS`, with `--table` or `--format table` since stdout is a pipe) fit on every line
//! and split no value; job IDs show as unique prefixes that every `jobs` command takes.

use crate::align::labelled;
use crate::common::{TestEnv, repo_root};
use serde_json::Value;

/// A model with 40 examples annotated for intent, evaluated once against itself.
fn evaluated() -> (TestEnv, Value) {
    let env = TestEnv::new();
    let questions = repo_root().join("examples/support/questions.yaml");
    env.create_model("acme/support", "mo", &questions);
    env.ingest("acme/support", &labelled(40, &["intent"]));
    let report = env.json(&["eval", "acme/support", "--baseline", "main"]);
    (env, report)
}

/// `arbiter args…` drawn at `width` columns: stdout and stderr.
fn at_width(env: &TestEnv, width: usize, args: &[&str]) -> (String, String) {
    let output = env
        .cmd()
        .env("COLUMNS", width.to_string())
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    (String::from_utf8_lossy(&output.stdout).into_owned(), stderr)
}

/// No line is wider than `width`, and each value is on one line, whole.
fn assert_fits(table: &str, width: usize, whole: &[String]) {
    for line in table.lines() {
        assert!(
            console::measure_text_width(line) <= width,
            "a line wider than {width}:\n{table}"
        );
    }
    for value in whole {
        assert!(
            table.lines().any(|line| line.contains(value.as_str())),
            "{value:?} is not whole on a line at {width}:\n{table}"
        );
    }
}

#[test]
fn eval_and_jobs_list_fit_80_120_and_200_columns() {
    let (env, report) = evaluated();
    let intent = &report["questions"]["intent"]["metrics"];
    // The figures a gate reads, at three decimals, whole at every width.
    let figures: Vec<String> = ["accuracy", "loss", "ece"]
        .iter()
        .map(|k| format!("{:.3}", intent[k].as_f64().unwrap()))
        .chain(["intent".to_owned(), "overall".to_owned()])
        .collect();
    let job_id = report["jobId"].as_str().unwrap();
    for width in [80, 120, 200] {
        let (table, _) = at_width(
            &env,
            width,
            &[
                "eval",
                "acme/support",
                "--baseline",
                "main",
                "--format",
                "table",
            ],
        );
        assert_fits(&table, width, &figures);
        assert!(table.contains("Accuracy (95%)"), "{table}");
        // It says which answer its accuracy counts: a score's is its most likely level.
        assert!(
            table.contains(
                "accuracy: the answer is the most likely outcome (a score: its most likely level,"
            ),
            "{table}"
        );
        let (jobs, _) = at_width(&env, width, &["jobs", "list", "--table"]);
        assert_fits(&jobs, width, &[job_id[..12].to_owned()]);
        assert!(!jobs.contains(job_id), "the whole ID at {width}:\n{jobs}");
    }
    // At 80 columns the least important figures give way, and stderr says which.
    let (narrow, note) = at_width(&env, 80, &["eval", "acme/support", "--format", "table"]);
    assert!(note.contains("hidden to fit 80 columns: "), "{note}");
    assert!(!narrow.contains("MAE"), "{narrow}");
    // At 200 nothing is hidden; without COLUMNS on a pipe, nothing is cut either.
    let (wide, note) = at_width(&env, 200, &["eval", "acme/support", "--format", "table"]);
    assert!(
        wide.contains("MAE") && !note.contains("hidden"),
        "{wide}\n{note}"
    );
    // One header style: Title case.
    assert!(
        wide.contains(" Question ") && !wide.contains("QUESTION"),
        "{wide}"
    );
}

#[test]
fn a_unique_prefix_names_a_job_and_full_ids_shows_it_whole() {
    let (env, report) = evaluated();
    let job_id = report["jobId"].as_str().unwrap();
    let (whole, _) = at_width(&env, 200, &["jobs", "list", "--table", "--full-ids"]);
    assert!(whole.contains(job_id), "{whole}");
    let job = env.json(&["jobs", "poll", &job_id[..12]]);
    assert_eq!(job["jobId"], job_id);
    let job = env.json(&["jobs", "poll", &job_id[..4]]);
    assert_eq!(job["jobId"], job_id);
    let cancelled = env.json(&["jobs", "cancel", &job_id[..8]]);
    assert_eq!(cancelled["jobId"], job_id);
    env.cmd()
        .args(["jobs", "results", &job_id[..12]])
        .assert()
        .success();
    // No job's: not found (exit 4), as an unknown whole ID.
    let other = if job_id.starts_with('0') { "1" } else { "0" };
    let (code, problem, _) = env.problem(&["jobs", "poll", &format!("{other}{}", &job_id[1..8])]);
    assert_eq!(code, 4, "{problem}");
    assert_eq!(problem["code"], "job_not_found", "{problem}");
    // Too short: said so (exit 1), not "not found": it may well start a job.
    let (code, problem, _) = env.problem(&["jobs", "poll", &job_id[..3]]);
    assert_eq!(code, 1, "{problem}");
    assert_eq!(
        problem["detail"],
        format!(
            "job ID prefix `{}` is too short: give at least 4 characters of the ID",
            &job_id[..3]
        )
    );
}

/// An example ID holding terminal escapes (stored by a token with only the `decisions`
/// scope, as a probe did) is shown escaped in `examples list`, never sent to the terminal:
/// no screen cleared, no window title set. Question IDs in `decide`'s table alike.
#[test]
fn terminal_escapes_in_stored_ids_are_shown_not_obeyed() {
    let env = TestEnv::new();
    let questions = env.write("q.yaml", "\"a\\e]0;TITLE\\a\": {type: noul}\n");
    env.create_model("acme/esc", "mo", &questions);
    let hostile = "r\u{1b}[2J\u{1b}]0;HIJACK\u{7}";
    let line = serde_json::json!({"example_id": hostile, "state": "where is my parcel?"});
    env.ingest("acme/esc", &format!("{line}\n"));
    let (list, _) = at_width(
        &env,
        200,
        &["examples", "list", "acme/esc", "--table", "--full-ids"],
    );
    assert!(
        !list.contains('\u{1b}') && !list.contains('\u{7}'),
        "{list:?}"
    );
    assert!(list.contains(r"r\u{1b}[2J\u{1b}]0;HIJACK\u{7}"), "{list}");
    let state = env.write("s.json", "\"where is my parcel?\"");
    let (decided, _) = at_width(
        &env,
        200,
        &[
            "decide",
            "-m",
            "acme/esc",
            "-s",
            state.to_str().unwrap(),
            "--no-capture",
            "--table",
        ],
    );
    assert!(
        !decided.contains('\u{1b}') && !decided.contains('\u{7}'),
        "{decided:?}"
    );
    assert!(decided.contains(r"a\u{1b}]0;TITLE\u{7}"), "{decided}");
}

//! `arbiter eval --format markdown` with the real binary: the summary a pull request shows,
//! read back as a table and held to the JSON report of the same evaluation (answers come from
//! the cache the first run filled, and the intervals are seeded, so both print one report).

use crate::align::labelled;
use crate::common::{TestEnv, repo_root};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::Output;

/// `acme/support` on `mo` with the labelled set's first `n` examples, annotated for intent
/// and escalate only: urgency has nothing to score.
pub(crate) fn env_with_two_questions_annotated(n: usize) -> TestEnv {
    let env = TestEnv::new();
    env.create_model(
        "acme/support",
        "mo",
        &repo_root().join("examples/support/questions.yaml"),
    );
    env.ingest("acme/support", &labelled(n, &["intent", "escalate"]));
    env
}

/// `arbiter eval acme/support <args> --format <format>`, whatever it exits with.
fn eval(env: &TestEnv, args: &[&str], format: &str) -> Output {
    env.cmd()
        .args(["eval", "acme/support"])
        .args(args)
        .args(["--format", format])
        .output()
        .unwrap()
}

/// The cells of a Markdown table line, split at the `|` not escaped, with `\|` unescaped.
fn cells(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut chars = line.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cells.last_mut().unwrap().push('|');
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    // A line starts and ends with a `|`: nothing before the first or after the last.
    assert!(
        cells.first().unwrap().is_empty() && cells.last().unwrap().is_empty(),
        "{line}"
    );
    cells[1..cells.len() - 1]
        .iter()
        .map(|c| c.trim().to_owned())
        .collect()
}

/// The one table of a summary: its header and, per row, its cells by header. Every line
/// has as many cells as the header, and the second line is the delimiter row.
fn table(markdown: &str) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let lines: Vec<&str> = markdown.lines().filter(|l| l.starts_with('|')).collect();
    let header = cells(lines[0]);
    let delimiter = cells(lines[1]);
    assert!(
        delimiter.iter().all(|d| d == "---" || d == "---:"),
        "{markdown}"
    );
    let rows = lines[2..]
        .iter()
        .map(|line| {
            let row = cells(line);
            assert_eq!(row.len(), header.len(), "{line}");
            header.iter().cloned().zip(row).collect()
        })
        .collect();
    (header, rows)
}

/// `0.780 [0.710, 0.840]` of a JSON `{value, low, high}`, signed for a change.
fn estimate(e: &Value, signed: bool) -> String {
    let f = |key: &str| e[key].as_f64().unwrap();
    if signed {
        format!("{:+.3} [{:+.3}, {:+.3}]", f("value"), f("low"), f("high"))
    } else {
        format!("{:.3} [{:.3}, {:.3}]", f("value"), f("low"), f("high"))
    }
}

fn fixed(value: &Value) -> String {
    format!("{:.3}", value.as_f64().unwrap())
}

/// A change cell of a JSON delta figure: marked only when its interval excludes 0, ▲ when
/// that is better.
fn change(e: &Value, lower_is_better: bool) -> String {
    let (low, high) = (e["low"].as_f64().unwrap(), e["high"].as_f64().unwrap());
    let better = if lower_is_better {
        high < 0.0
    } else {
        low > 0.0
    };
    let worse = if lower_is_better {
        low > 0.0
    } else {
        high < 0.0
    };
    let mark = match (better, worse) {
        (true, _) => " ▲",
        (_, true) => " ▼",
        _ => "",
    };
    format!("{}{mark}", estimate(e, true))
}

#[test]
fn a_markdown_summary_shows_the_json_reports_figures_per_question() {
    let env = env_with_two_questions_annotated(40);
    let json = eval(&env, &[], "json");
    assert_eq!(json.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let markdown = eval(&env, &[], "markdown");
    assert_eq!(
        markdown.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&markdown.stderr)
    );
    let markdown = String::from_utf8(markdown.stdout).unwrap();
    assert!(!markdown.contains('\u{1b}'), "no colour: {markdown}");

    let commit = report["revision"]["commit"].as_str().unwrap();
    assert!(
        markdown.starts_with(&format!(
            "### arbiter eval: `acme/support` at `main`\n\n`main` is branch `{}`.\n\nNo gate was asked for.\n\n| Question |",
            &commit[..12]
        )),
        "{markdown}"
    );
    let (header, rows) = table(&markdown);
    assert_eq!(
        header,
        [
            "Question",
            "Examples",
            "Accuracy (95%)",
            "Metric",
            "Loss (95%)",
            "ECE"
        ]
    );
    let questions = report["questions"].as_object().unwrap();
    let ids: Vec<String> = questions.keys().map(|id| format!("`{id}`")).collect();
    assert_eq!(
        rows.iter()
            .map(|r| r["Question"].clone())
            .collect::<Vec<_>>(),
        [&ids[..], &["**overall**".to_owned()]].concat()
    );
    for (row, (id, question)) in rows.iter().zip(questions) {
        let Some(m) = question.get("metrics") else {
            assert_eq!(question["status"], "not_evaluated");
            assert_eq!(row["Examples"], "0", "{id}");
            assert_eq!(row["Accuracy (95%)"], "not evaluated", "{id}");
            continue;
        };
        assert_eq!(row["Examples"], m["examples"].to_string(), "{id}");
        assert_eq!(
            row["Accuracy (95%)"],
            estimate(&m["intervals"]["accuracy"], false),
            "{id}"
        );
        assert_eq!(
            row["Metric"],
            format!("`{}`", m["metric"].as_str().unwrap())
        );
        assert_eq!(
            row["Loss (95%)"],
            estimate(&m["intervals"]["loss"], false),
            "{id}"
        );
        assert_eq!(row["ECE"], fixed(&m["ece"]), "{id}");
    }
    assert_eq!(questions["intent"]["metrics"]["examples"], 40);
    // The overall row: the mean, which has no interval.
    let overall = &report["overall"]["metrics"];
    let last = rows.last().unwrap();
    assert_eq!(last["Accuracy (95%)"], fixed(&overall["accuracy"]));
    assert_eq!(last["ECE"], fixed(&overall["ece"]));
    // The question with nothing to score is listed with why, and no gate failed.
    assert_eq!(questions["urgency"]["reason"], "no annotated examples");
    assert!(
        markdown.ends_with("\n\n**Not evaluated**\n\n- `urgency`: no annotated examples\n"),
        "{markdown}"
    );
    assert!(!markdown.contains("Gate"), "{markdown}");
}

/// The rows of a summary against a baseline, each checked against its question in the JSON
/// report: figures as baseline → revision, the changes with their intervals, the gate's
/// verdict. The rows by header, and by position (two columns share a header).
fn rows_held_to_the_report(
    markdown: &str,
    report: &Value,
) -> (Vec<HashMap<String, String>>, Vec<Vec<String>>) {
    let failures = report["gates"]["failures"].as_array().unwrap();
    let (header, rows) = table(markdown);
    assert_eq!(
        header,
        [
            "Question",
            "Examples",
            "Accuracy",
            "Change (95%)",
            "Metric",
            "Loss",
            "Change (95%)",
            "ECE",
            "Change",
            "Gate"
        ]
    );
    // Two columns share a header: read the row's cells by position too.
    let lines: Vec<Vec<String>> = markdown
        .lines()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(cells)
        .collect();
    let questions = report["questions"].as_object().unwrap();
    for ((row, line), (id, question)) in rows.iter().zip(&lines).zip(questions) {
        let gates: Vec<&str> = failures
            .iter()
            .filter(|f| f["question"] == id.as_str())
            .map(|f| f["gate"].as_str().unwrap())
            .fold(Vec::new(), |mut gates, gate| {
                if gates.last() != Some(&gate) {
                    gates.push(gate);
                }
                gates
            });
        let verdict = if gates.is_empty() {
            "✅ pass".to_owned()
        } else {
            format!("❌ {}", gates.join(", "))
        };
        assert_eq!(row["Gate"], verdict, "{id}");
        let Some(m) = question.get("metrics") else {
            assert_eq!(row["Accuracy"], "not evaluated", "{id}");
            continue;
        };
        let (base, delta) = (&question["baseline"], &question["delta"]);
        let from_to = |key: &str| format!("{} → {}", fixed(&base[key]), fixed(&m[key]));
        assert_eq!(row["Examples"], m["examples"].to_string(), "{id}");
        assert_eq!(row["Accuracy"], from_to("accuracy"), "{id}");
        assert_eq!(line[3], change(&delta["accuracy"], false), "{id}");
        assert_eq!(row["Loss"], from_to("loss"), "{id}");
        assert_eq!(line[6], change(&delta["loss"], true), "{id}");
        assert_eq!(row["ECE"], from_to("ece"), "{id}");
        let ece = m["ece"].as_f64().unwrap() - base["ece"].as_f64().unwrap();
        assert_eq!(row["Change"], format!("{ece:+.3}"), "{id}");
    }
    (rows, lines)
}

#[test]
fn a_markdown_summary_against_a_baseline_shows_the_changes_and_the_gates_verdicts() {
    let env = env_with_two_questions_annotated(120);
    let aligned = env.json(&crate::align::ALIGN_INTENT);
    let branch = aligned["result"]["branch"]
        .as_str()
        .unwrap_or_else(|| panic!("intent improves: {aligned}"))
        .to_owned();
    let args = [
        "--revision",
        &branch,
        "--baseline",
        "main",
        "--no-regression",
        "--min-accuracy",
        "0.8",
    ];
    let json = eval(&env, &args, "json");
    let markdown = eval(&env, &args, "markdown");
    // The gate's exit code, whatever the format.
    assert_eq!(
        (json.status.code(), markdown.status.code()),
        (Some(3), Some(3))
    );
    // What failed is said on stderr too, alike.
    assert_eq!(json.stderr, markdown.stderr);
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let markdown = String::from_utf8(markdown.stdout).unwrap();
    assert!(!markdown.contains('\u{1b}'), "no colour: {markdown}");

    let (revision, baseline) = (&report["revision"], &report["baseline"]);
    let short = |r: &Value| r["commit"].as_str().unwrap()[..12].to_owned();
    assert!(
        markdown.starts_with(&format!(
            "### arbiter eval: `acme/support` at `{branch}` against `main`\n\n`{branch}` is branch `{}`; baseline `main` is branch `{}`.\n\n",
            short(revision),
            short(baseline)
        )),
        "{markdown}"
    );
    let failures = report["gates"]["failures"].as_array().unwrap();
    let failed_questions: Vec<&str> = failures
        .iter()
        .map(|f| f["question"].as_str().unwrap())
        .collect();
    assert!(
        markdown.contains(&format!(
            "❌ **Gates failed** (exit 3): {} of 3 questions, under `--min-accuracy 0.8 --no-regression`.",
            {
                let mut unique = failed_questions.clone();
                unique.dedup();
                unique.len()
            }
        )),
        "{markdown}"
    );

    let (rows, lines) = rows_held_to_the_report(&markdown, &report);
    // What this run shows: intent, aligned, better beyond chance and above 0.8; escalate
    // unchanged and below it; urgency unmeasured.
    let verdicts: Vec<&str> = rows.iter().map(|r| r["Gate"].as_str()).collect();
    assert_eq!(
        verdicts,
        ["✅ pass", "❌ not-evaluated", "❌ min-accuracy", ""],
        "{markdown}"
    );
    assert!(
        lines[0][3].ends_with('▲') && lines[0][6].ends_with('▲'),
        "intent's accuracy rose and its loss fell beyond chance: {markdown}"
    );
    assert!(
        lines[2][3] == "+0.000 [+0.000, +0.000]",
        "escalate is unchanged: {markdown}"
    );
    // Every failure, with its message, under the table; then what was not evaluated.
    let listed = failures.iter().fold(String::new(), |mut listed, f| {
        let _ = write!(
            listed,
            "\n- `{}` ({}): {}",
            f["question"].as_str().unwrap(),
            f["gate"].as_str().unwrap(),
            f["message"].as_str().unwrap().replace('_', "\\_")
        );
        listed
    });
    assert!(
        markdown.contains(&format!("\n\n**Gate failures**\n{listed}\n\n**Not evaluated**\n\n- `urgency`: no annotated examples\n")),
        "{markdown}"
    );
}

/// `eval --output FILE` writes the report only once there is one: an evaluation that
/// cannot run (an unknown revision, exit 4) neither creates FILE nor changes one that is
/// there, unlike a shell's `> FILE`; a finished one writes it (`JUnit`, with a failing gate
/// too: exit 3).
#[test]
fn eval_output_is_written_only_when_there_is_a_report() {
    let env = env_with_two_questions_annotated(12);
    let report = env.path().join("eval.xml");
    let output = ["--output", report.to_str().unwrap()];
    let fails = || {
        let failed = eval(
            &env,
            &[&["--revision", "no-such-branch"][..], &output].concat(),
            "junit",
        );
        assert_eq!(failed.status.code(), Some(4));
    };
    fails();
    assert!(!report.exists(), "a failed eval created its --output");
    std::fs::write(&report, "the last good report\n").unwrap();
    fails();
    assert_eq!(
        std::fs::read_to_string(&report).unwrap(),
        "the last good report\n",
        "a failed eval changed its --output"
    );
    let gated = eval(
        &env,
        &[
            "--min-accuracy",
            "0.999",
            "--allow-unevaluated",
            "-o",
            report.to_str().unwrap(),
        ],
        "junit",
    );
    assert_eq!(
        gated.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&gated.stderr)
    );
    assert!(gated.stdout.is_empty(), "the report went to stdout too");
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(written.starts_with("<?xml"), "{written}");
    assert!(written.contains("<failure"), "{written}");
    // Without --format, a file gets JSON.
    let json_report = env.path().join("eval.json");
    let output = env
        .cmd()
        .args(["eval", "acme/support", "--output"])
        .arg(&json_report)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let parsed: Value =
        serde_json::from_str(&std::fs::read_to_string(&json_report).unwrap()).unwrap();
    assert!(parsed["jobId"].is_string(), "{parsed}");
}

mod gates;
mod html;

pub(crate) use html::screenshot_path;

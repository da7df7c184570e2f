//! `arbiter eval --format html`: one self-contained page, held to the JSON report of the
//! same evaluation, opened in a real headless Chromium with no network, and safe to open
//! whatever the questions and annotations hold.

use super::{env_with_two_questions_annotated, eval};
use crate::common::TestEnv;
use arbiter_testing::browser::Browser;
use regex::Regex;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The page's policy: it loads nothing and runs nothing.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
                      base-uri 'none'; form-action 'none'";

fn stdout(output: &std::process::Output) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The text of the summary cell `figure` of `question`'s row, as the page holds it.
fn cell(html: &str, question: &str, figure: &str) -> Option<String> {
    let row = Regex::new(&format!(
        r#"(?s)<tr data-question="{}">(.*?)</tr>"#,
        regex::escape(question)
    ))
    .unwrap();
    let row = row.captures(html)?.get(1)?.as_str().to_owned();
    let cell = Regex::new(&format!(r#"data-figure="{figure}">([^<]*)<"#)).unwrap();
    Some(cell.captures(&row)?.get(1)?.as_str().to_owned())
}

fn fixed(value: &Value) -> String {
    format!("{:.3}", value.as_f64().unwrap())
}

/// Where a test leaves a page's screenshot: the guide's folder when
/// `ARBITER_UPDATE_SCREENSHOTS` is set (the guide shows them), else the test's own.
pub(crate) fn screenshot_path(name: &str) -> PathBuf {
    if std::env::var_os("ARBITER_UPDATE_SCREENSHOTS").is_some() {
        crate::common::repo_root()
            .join("docs/src/screenshots")
            .join(name)
    } else {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }
}

#[test]
fn an_html_report_shows_the_json_reports_figures_and_needs_no_network() {
    let env = env_with_two_questions_annotated(40);
    let report: Value = serde_json::from_str(&stdout(&eval(&env, &[], "json"))).unwrap();
    let html = stdout(&eval(&env, &[], "html"));
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(
        html.contains(&format!(
            r#"<meta http-equiv="Content-Security-Policy" content="{POLICY}">"#
        )),
        "{html}"
    );
    // Nothing to fetch, nothing to run.
    for outside in [
        "<script", "<link", "src=", "http://", "https://", "@import", "url(",
    ] {
        assert!(!html.contains(outside), "{outside} in {html}");
    }
    let questions = report["questions"].as_object().unwrap();
    for (id, question) in questions {
        let Some(m) = question.get("metrics") else {
            assert_eq!(question["status"], "not_evaluated");
            assert_eq!(cell(&html, id, "accuracy"), None, "{id}");
            continue;
        };
        for (figure, key) in [("accuracy", "accuracy"), ("loss", "loss"), ("ece", "ece")] {
            assert_eq!(
                cell(&html, id, figure),
                Some(fixed(&m[key])),
                "{id} {figure}"
            );
        }
        assert_eq!(cell(&html, id, "examples"), Some(m["examples"].to_string()));
        // The diagrams are drawn from the report's own bins and matrix.
        let bins = m["reliability"].as_array().unwrap();
        let counted: u64 = bins.iter().map(|b| b["examples"].as_u64().unwrap()).sum();
        assert_eq!(counted, m["examples"].as_u64().unwrap(), "{id}");
        let matrix = m["confusion"].as_array().unwrap();
        let outcomes = question["outcomes"].as_array().unwrap();
        assert_eq!(matrix.len(), outcomes.len(), "{id}");
        let cells: u64 = matrix
            .iter()
            .flat_map(|row| row.as_array().unwrap())
            .map(|c| c.as_u64().unwrap())
            .sum();
        assert_eq!(cells, m["examples"].as_u64().unwrap(), "{id}");
    }
    let overall = &report["overall"]["metrics"];
    assert_eq!(
        cell(&html, "overall", "accuracy"),
        Some(fixed(&overall["accuracy"]))
    );

    let Some(mut browser) = Browser::start() else {
        return;
    };
    let file = env.write("report.html", &html);
    browser.goto(&format!("file://{}", file.display()));
    let seen = browser.execute(
        "return {
            resources: performance.getEntriesByType('resource').length,
            reliability: document.querySelectorAll('svg[aria-label=\"reliability diagram\"]').length,
            confusion: document.querySelectorAll('svg[aria-label=\"confusion matrix\"]').length,
            accuracy: document.querySelector('tr[data-question=\"intent\"] td[data-figure=\"accuracy\"]').textContent,
        }",
        vec![],
    );
    let evaluated = questions
        .values()
        .filter(|q| q.get("metrics").is_some())
        .count();
    assert_eq!(
        seen,
        json!({
            "resources": 0,
            "reliability": evaluated,
            "confusion": evaluated,
            "accuracy": fixed(&questions["intent"]["metrics"]["accuracy"]),
        })
    );
}

/// Question IDs, option keys and example IDs are anyone's text: on the page they are text.
#[test]
fn an_html_report_runs_no_script_whatever_the_questions_and_examples_hold() {
    let env = TestEnv::new();
    let script = "<script>window.canary = 'question id'</script>";
    let handler = "<img src=x onerror=\"window.canary = 'option key'\">";
    let link = "javascript:window.canary='link'";
    let questions = env.write(
        "questions.yaml",
        &serde_json::to_string(&json!({
            script: {
                "type": "choice",
                "instructions": "Which? </style><script>window.canary = 'instructions'</script>",
                "criteria": { handler: "a payload", link: "a link", "plain": "plain text" },
            }
        }))
        .unwrap(),
    );
    env.create_model("acme/hostile", "mo", &questions);
    let lines: Vec<String> = [
        ("\"><svg onload=\"window.canary='example'\">", handler),
        ("two", link),
        ("three", "plain"),
    ]
    .iter()
    .map(|(id, answer)| {
        json!({
            "example_id": id,
            "state": format!("a state about {answer}"),
            "annotations": { script: {
                "answer": answer,
                "reasoning": "<script>window.canary = 'reason'</script>",
            } },
        })
        .to_string()
    })
    .collect();
    env.ingest("acme/hostile", &lines.join("\n"));
    let output = env
        .cmd()
        .args(["eval", "acme/hostile", "--format", "html"])
        .output()
        .unwrap();
    let html = stdout(&output);
    for raw in [
        script,
        handler,
        "onload=\"",
        "<svg onload",
        "</style><script",
    ] {
        assert!(!html.contains(raw), "{raw} unescaped in {html}");
    }
    assert!(html.contains("&lt;script&gt;window.canary"), "{html}");

    let Some(mut browser) = Browser::start() else {
        return;
    };
    let file = env.write("hostile.html", &html);
    browser.goto(&format!("file://{}", file.display()));
    let seen = browser.execute(
        "return {
            canary: window.canary === undefined ? null : window.canary,
            heading: document.querySelector('section h2').textContent,
            links: [...document.querySelectorAll('a')].map(a => a.getAttribute('href')),
        }",
        vec![],
    );
    assert_eq!(seen["canary"], Value::Null, "a script ran: {seen}");
    assert_eq!(seen["heading"], script, "{seen}");
    for href in seen["links"].as_array().unwrap() {
        assert!(href.as_str().unwrap().starts_with("#q-"), "{seen}");
    }
    let errors = browser.errors();
    assert!(errors.is_empty(), "{errors:?}");
}

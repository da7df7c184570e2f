//! The app in a real browser.

use super::App;
use crate::eval::screenshot_path;
use arbiter_testing::browser::Browser;
use serde_json::Value;

const ENTER: &str = "\u{E007}";

/// Log in with `token` from the login page, arriving at `path` (a page of the app).
fn log_in(browser: &mut Browser, app: &App, token: &str, path: &str) {
    browser.goto(&app.url(path));
    browser.wait_for("return document.querySelector('input[name=token]')");
    browser.keys(&format!("{token}{ENTER}"));
    browser.wait_for(
        "return !document.querySelector('input[name=token]') && document.readyState === 'complete'",
    );
}

/// The example the annotate page shows, and its active question.
fn on_screen(browser: &mut Browser) -> (String, String) {
    let seen = browser.wait_for(
        "const e = document.getElementById('example');
         const q = document.querySelector('form.ask.active');
         return e && q && document.readyState === 'complete' ? [e.dataset.example, q.dataset.question] : null",
    );
    (
        seen[0].as_str().unwrap().to_owned(),
        seen[1].as_str().unwrap().to_owned(),
    )
}

/// Press `key` and wait for the page it posts to to show `done` answers given.
fn press(browser: &mut Browser, key: &str, done_after: u64) {
    browser.keys(key);
    browser.wait_for(&format!(
        "const d = document.getElementById('done'); return d && document.readyState === 'complete' && d.textContent === '{done_after}'"
    ));
}

/// The value the guess button of the active question writes.
fn guess(browser: &mut Browser) -> Value {
    let text = browser.execute(
        "return document.querySelector('form.ask.active button.guess').value",
        vec![],
    );
    serde_json::from_str(text.as_str().unwrap()).unwrap()
}

/// What the store holds of `example`: its annotators' votes per question.
fn votes(app: &App, example: &str) -> Vec<(String, String, Value)> {
    let shown = app.env.json(&["examples", "show", "acme/support", example]);
    let mut votes = Vec::new();
    for (question, annotation) in shown["annotations"].as_object().unwrap() {
        for vote in annotation["votes"].as_array().unwrap() {
            votes.push((
                question.clone(),
                vote["annotator"].as_str().unwrap().to_owned(),
                vote["answer"].clone(),
            ));
        }
    }
    votes.sort_by(|a, b| a.0.cmp(&b.0));
    votes
}

#[test]
fn an_annotator_annotates_three_examples_by_keyboard_and_undoes_one() {
    let app = App::start("", 5);
    let token = app.annotator("ana");
    let Some(mut browser) = Browser::start() else {
        return;
    };
    log_in(
        &mut browser,
        &app,
        &token,
        &format!("/ui/models/{}/annotate", app.model_id),
    );
    let mut expected: Vec<(String, Vec<(String, Value)>)> = Vec::new();
    let mut given = 0;
    for _ in 0..3 {
        let (example, first) = on_screen(&mut browser);
        assert_eq!(first, "intent", "questions in file order");
        let mut answers = Vec::new();
        // intent: option 2 (technical); urgency: the model's guess (Enter); escalate: no.
        press(&mut browser, "2", given + 1);
        answers.push(("intent".to_owned(), Value::from("technical")));
        let (same, question) = on_screen(&mut browser);
        assert_eq!(
            (same.as_str(), question.as_str()),
            (example.as_str(), "urgency")
        );
        let urgency = guess(&mut browser);
        press(&mut browser, ENTER, given + 2);
        answers.push(("urgency".to_owned(), urgency));
        let (same, question) = on_screen(&mut browser);
        assert_eq!(
            (same.as_str(), question.as_str()),
            (example.as_str(), "escalate")
        );
        // `r` writes a reason, Escape leaves it, and the answer carries it.
        browser.keys("r");
        browser.keys("calm, no manager asked for\u{E00C}");
        press(&mut browser, "n", given + 3);
        answers.push(("escalate".to_owned(), Value::Bool(false)));
        let shown = app
            .env
            .json(&["examples", "show", "acme/support", &example]);
        assert_eq!(
            shown["annotations"]["escalate"]["reasoning"], "calm, no manager asked for",
            "{shown}"
        );
        given += 3;
        expected.push((example, answers));
    }
    let examples: Vec<&str> = expected.iter().map(|(e, _)| e.as_str()).collect();
    let mut distinct = examples.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "three different examples: {examples:?}");
    browser.screenshot(&screenshot_path("ui-annotate.png"));
    for (example, answers) in &expected {
        let mut want: Vec<(String, String, Value)> = answers
            .iter()
            .map(|(q, a)| (q.clone(), "ana".to_owned(), a.clone()))
            .collect();
        want.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(votes(&app, example), want, "{example}");
    }
    // `u` undoes the last answer: the third example's escalate, which is asked again.
    press(&mut browser, "u", given - 1);
    let (example, question) = on_screen(&mut browser);
    assert_eq!(
        (example.as_str(), question.as_str()),
        (examples[2], "escalate")
    );
    let left: Vec<String> = votes(&app, examples[2])
        .into_iter()
        .map(|(q, _, _)| q)
        .collect();
    assert_eq!(left, ["intent", "urgency"]);
    // The other two examples were never touched by the undo; the two never annotated are
    // still bare.
    assert_eq!(votes(&app, examples[0]).len(), 3);
    assert_eq!(votes(&app, examples[1]).len(), 3);
    let all = app.env.json(&["examples", "list", "acme/support"]);
    let annotated = all["examples"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| !e["annotations"].as_object().unwrap().is_empty())
        .count();
    assert_eq!(annotated, 3, "{all}");
    let errors = browser.errors();
    assert!(errors.is_empty(), "{errors:?}");
}

/// The example on screen and why it was picked, or `None` when nothing is left.
fn shown(browser: &mut Browser) -> Option<(String, String)> {
    let seen = browser.wait_for(
        "if (document.readyState !== 'complete') return null;
         if (document.getElementById('nothing-left')) return 'none';
         const e = document.getElementById('example');
         return e ? [e.dataset.example, e.dataset.why] : null",
    );
    seen.as_array().map(|pair| {
        (
            pair[0].as_str().unwrap().to_owned(),
            pair[1].as_str().unwrap().to_owned(),
        )
    })
}

#[test]
fn two_annotators_are_never_shown_the_same_held_example() {
    let app = App::start("", 4);
    let (ana, bo) = (app.annotator("ana"), app.annotator("bo"));
    let Some(mut first) = Browser::start() else {
        return;
    };
    let mut second = Browser::start().expect("a second browser");
    let annotate = format!("/ui/models/{}/annotate", app.model_id);
    log_in(&mut first, &app, &ana, &annotate);
    let (held, why) = shown(&mut first).expect("an example for ana");
    log_in(&mut second, &app, &bo, &annotate);
    // Bo passes over every example offered to him until none is left.
    let mut offered = Vec::new();
    while let Some((example, why)) = shown(&mut second) {
        assert!(offered.len() < 8, "skipping ends: {offered:?}");
        offered.push((example.clone(), why));
        second.keys("s");
        second.wait_for(&format!(
            "const e = document.getElementById('example');
             return document.readyState === 'complete' && (!e || e.dataset.example !== '{example}')"
        ));
    }
    // Bo is offered every other example; ana's only as an audit pick (never held: a
    // second answer to it is how agreement is measured), and only if it is not held.
    assert_eq!(why, "uncertain", "ana's first pick is held");
    let mut others: Vec<&str> = offered
        .iter()
        .filter(|(example, _)| *example != held)
        .map(|(example, _)| example.as_str())
        .collect();
    others.sort_unstable();
    let mut want: Vec<String> = (1..=4).map(|i| format!("t-{i}")).collect();
    want.retain(|id| *id != held);
    assert_eq!(others, want, "{offered:?}");
    for (example, why) in &offered {
        if *example == held {
            assert_eq!(why, "audit", "ana holds {held}; bo was offered {offered:?}");
        }
    }
}

#[test]
fn a_reader_sees_the_examples_but_cannot_annotate() {
    let app = App::start("", 2);
    let reader = app.env.token(
        "rita",
        &[
            "examples:read",
            "examples:write",
            "decisions",
            "models:read",
        ],
        &["acme/*=reader"],
    );
    let Some(mut browser) = Browser::start() else {
        return;
    };
    log_in(
        &mut browser,
        &app,
        &reader,
        &format!("/ui/models/{}/examples", app.model_id),
    );
    let rows = browser.wait_for("return document.querySelectorAll('#examples tbody tr').length");
    assert_eq!(rows, 2);
    browser.goto(&app.url(&format!("/ui/models/{}/annotate", app.model_id)));
    let problem =
        browser.wait_for("const p = document.getElementById('problem'); return p && p.textContent");
    let title = browser.execute("return document.querySelector('h1').textContent", vec![]);
    assert_eq!(title, "403 Forbidden");
    assert!(
        problem.as_str().unwrap().contains("this needs writer"),
        "{problem}"
    );
    // Nothing was written or claimed.
    for example in ["t-1", "t-2"] {
        assert!(votes(&app, example).is_empty());
    }
}

/// Markup in every value a page shows: a canary global that any script run would set.
const CANARY_QUESTIONS: &str = r#"
intent:
  type: choice
  instructions: <script>window.canary = 'instructions'</script>
  criteria:
    "<img src=x onerror=\"window.canary='option'\">": An option named with markup.
    refund: The customer wants their money back.
urgency:
  type: score
  criteria:
    - <script>window.canary = 'legend'</script>
    - javascript:window.canary = 'legend-url'
    - <svg onload="window.canary = 'svg'"></svg>
"#;

#[test]
fn no_script_in_a_state_a_question_or_a_reason_runs_on_any_page() {
    let app = App::start_with(
        CANARY_QUESTIONS,
        &[
            serde_json::json!({"example_id": "x\"><script>window.canary='id'</script>", "state": {
                "messages": [
                    {"role": "<img src=x onerror=\"window.canary='role'\">", "content": "<script>window.canary='content'</script>"},
                    {"role": "agent", "content": "javascript:window.canary='message-url'"}
                ],
                "link": "javascript:window.canary='url'",
                "picture": "https://x.invalid/a.png\" onerror=\"window.canary='img'",
                "markup": "<svg onload=\"window.canary='svg-state'\"></svg><a href=\"javascript:window.canary='a'\">a</a>"
            }, "annotations": {"urgency": {"answer": 1, "reasoning": "<script>window.canary='reason'</script>"}}}),
            serde_json::json!({"example_id": "plain", "state": {"text": "<iframe src=\"javascript:window.canary='iframe'\"></iframe>"}}),
        ],
    );
    let admin = app.env.admin_token("root");
    let Some(mut browser) = Browser::start() else {
        return;
    };
    let model = app.model_id.clone();
    log_in(&mut browser, &app, &admin, "/ui/");
    let hostile_id = "x\"><script>window.canary='id'</script>";
    let example_page =
        arbiter::ui::app::with_query(&format!("/ui/models/{model}/example"), [("id", hostile_id)]);
    let pages = [
        "/ui/".to_owned(),
        "/ui/jobs".to_owned(),
        format!("/ui/models/{model}"),
        format!("/ui/models/{model}/examples"),
        format!("/ui/models/{model}/examples?text=%3Cscript"),
        example_page,
        format!("/ui/models/{model}/annotate"),
    ];
    for page in &pages {
        browser.goto(&app.url(page));
        browser.wait_for("return document.readyState === 'complete'");
        let canary = browser.execute(
            "return window.canary === undefined ? null : String(window.canary)",
            vec![],
        );
        assert_eq!(canary, Value::Null, "a script ran on {page}");
        let severe = browser.errors();
        assert!(severe.is_empty(), "{page}: {severe:?}");
        let status = browser.execute("return document.querySelector('h1').textContent", vec![]);
        assert!(
            !status.as_str().unwrap().starts_with('4'),
            "{page}: {status}"
        );
    }
    // The markup is shown as the text it is.
    browser.goto(&app.url(&pages[5]));
    let text =
        browser.wait_for("return document.readyState === 'complete' && document.body.innerText");
    for shown in [
        "<script>window.canary='content'</script>",
        "<script>window.canary='reason'</script>",
        "javascript:window.canary='url'",
    ] {
        assert!(text.as_str().unwrap().contains(shown), "{shown} in {text}");
    }
    let links = browser.execute(
        "return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')).filter(h => !h.startsWith('/'))",
        vec![],
    );
    assert_eq!(
        links,
        serde_json::json!([]),
        "no link to anything but the app"
    );
}

/// The app over a home where `branch` is an alignment of `acme/support` and an evaluation
/// of it against `main` ran: every page drawn at 1280×800 (the guide's screenshots), the
/// Evaluation page with the alignment's curve, a reliability diagram and a confusion matrix,
/// and the Model page with the diff of the two revisions' learned heads.
pub(crate) fn pages_of_an_alignment(env: &crate::common::TestEnv, branch: &str) {
    let config = env.home().join("config.yaml");
    let written = std::fs::read_to_string(&config).unwrap_or_default();
    assert!(!written.contains("server:"), "{written}");
    std::fs::write(&config, format!("{written}\nserver:\n  ui: true\n")).unwrap();
    let admin = env.admin_token("lead");
    let served = env.spawn_serve();
    let Some(mut browser) = Browser::start() else {
        return;
    };
    let url = |path: &str| format!("{}{path}", served.address);
    let shot = |browser: &mut Browser, name: &str| browser.screenshot(&screenshot_path(name));
    browser.goto(&url("/ui/jobs"));
    browser.wait_for("return document.querySelector('input[name=token]')");
    shot(&mut browser, "ui-login.png");
    browser.keys(&format!("{admin}{ENTER}"));
    let evaluation = browser.wait_for(
        "const a = document.querySelector('#jobs tr[data-kind=evaluation][data-status=completed] a');
         return a && a.getAttribute('href')",
    );
    shot(&mut browser, "ui-jobs.png");
    browser.goto(&url(evaluation.as_str().unwrap()));
    let seen = browser.wait_for(
        "const section = document.querySelector('section[data-question=\"intent\"]');
         if (!section) return null;
         return {
            curve: section.querySelectorAll('svg[aria-label=\"learning curve\"]').length,
            reliability: section.querySelectorAll('svg[aria-label=\"reliability diagram\"]').length,
            confusion: section.querySelectorAll('svg[aria-label=\"confusion matrix\"]').length,
         }",
    );
    assert_eq!(
        seen,
        serde_json::json!({ "curve": 1, "reliability": 1, "confusion": 1 })
    );
    shot(&mut browser, "ui-evaluation.png");
    browser.goto(&url("/ui/"));
    let model = browser.wait_for(
        "const a = document.querySelector('#models a'); return a && a.getAttribute('href')",
    );
    let model = model.as_str().unwrap();
    shot(&mut browser, "ui-models.png");
    browser.goto(&url(&arbiter::ui::app::with_query(
        model,
        [("from", "main"), ("to", branch)],
    )));
    let heads =
        browser.wait_for("const d = document.getElementById('diff'); return d && d.innerText");
    assert!(heads.as_str().unwrap().contains("learned heads"), "{heads}");
    browser.execute(
        "document.getElementById('compare').scrollIntoView()",
        vec![],
    );
    shot(&mut browser, "ui-model.png");
    // A writer promotes the alignment's branch from the Model page; the history says so.
    browser.goto(&url(model));
    browser.wait_for("return document.querySelector('#branches form button')");
    browser.execute(
        "document.querySelector('#branches form button').click()",
        vec![],
    );
    let notice = browser.wait_for(
        "const n = document.getElementById('notice'); return document.readyState === 'complete' && n && n.textContent",
    );
    assert!(
        notice
            .as_str()
            .unwrap()
            .starts_with(&format!("Promoted {branch}")),
        "{notice}"
    );
    let history = browser.execute(
        "return [...document.querySelectorAll('#history tbody tr td:nth-child(2)')].map(td => td.textContent)",
        vec![],
    );
    assert_eq!(history, serde_json::json!(["promote"]));
    browser.goto(&url(&format!("{model}/examples?annotated=yes")));
    let first = browser.wait_for(
        "const a = document.querySelector('#examples tbody a'); return a && a.getAttribute('href')",
    );
    shot(&mut browser, "ui-examples.png");
    browser.goto(&url(first.as_str().unwrap()));
    browser.wait_for("return document.getElementById('annotations')");
    shot(&mut browser, "ui-example.png");
    let severe = browser.errors();
    assert!(severe.is_empty(), "{severe:?}");
}

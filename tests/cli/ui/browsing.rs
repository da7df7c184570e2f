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
        press(&mut browser, "n", given + 3);
        answers.push(("escalate".to_owned(), Value::Bool(false)));
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
    let errors: Vec<_> = browser
        .console()
        .into_iter()
        .filter(|(level, _)| level == "SEVERE")
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

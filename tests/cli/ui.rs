//! The web app (`server.ui`, `arbiter ui`) in a real headless Chromium: login, annotating
//! by keyboard with what the store then holds, claims between two annotators, roles, the
//! pages with their screenshots, escaping of every hostile value; and its HTTP contract
//! (headers, CSRF, sessions) with a plain client.

mod browsing;
mod contract;

pub(crate) use browsing::pages_of_an_alignment;

use crate::common::{Background, TestEnv};
use serde_json::json;

/// A home with the web app on, a model `acme/support` (the common questions) holding
/// `examples` unannotated examples `t-1`…, and a server over it.
pub(crate) struct App {
    pub(crate) env: TestEnv,
    pub(crate) model_id: String,
    pub(crate) server: Background,
}

impl App {
    pub(crate) fn start(config: &str, examples: usize) -> Self {
        let env = TestEnv::with_config(&format!("server:\n  ui: true\n{config}"));
        let model_id = env.model("acme/support");
        let lines = Self::messages(examples);
        Self::over(env, model_id, &lines)
    }

    /// A home with the app on, `acme/support` asking `questions`, and `lines` ingested.
    pub(crate) fn start_with(questions: &str, lines: &[serde_json::Value]) -> Self {
        let env = TestEnv::with_config("server:\n  ui: true\n");
        let file = env.write("questions.yaml", questions);
        env.create_model("acme/support", "mo", &file);
        let model_id = env.json(&["models", "show", "acme/support"])["modelId"]
            .as_str()
            .unwrap()
            .to_owned();
        let lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
        Self::over(env, model_id, &lines)
    }

    /// `examples` customer messages `t-1`… as ingest lines.
    fn messages(examples: usize) -> Vec<String> {
        let texts = [
            "my card was charged twice for the same order, I want one of them refunded",
            "the app crashes with error 500 whenever I open settings",
            "where is my parcel? it was due on Monday",
            "I need the invoice for order 1182 before Friday",
            "the dashboard is down for our whole team, nobody can log in",
            "can I change the delivery address of my order?",
        ];
        (1..=examples)
            .map(|i| {
                let text = texts[(i - 1) % texts.len()];
                json!({"example_id": format!("t-{i}"), "state": {"messages": [{"role": "customer", "content": format!("{text} (#{i})")}]}})
                    .to_string()
            })
            .collect()
    }

    fn over(env: TestEnv, model_id: String, lines: &[String]) -> Self {
        if !lines.is_empty() {
            env.ingest("acme/support", &lines.join("\n"));
        }
        let server = env.serve_on_thread();
        Self {
            env,
            model_id,
            server,
        }
    }

    /// A page's URL.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url())
    }

    /// A writer's token (an annotator).
    pub(crate) fn annotator(&self, name: &str) -> String {
        self.env.token(
            name,
            &[
                "examples:read",
                "examples:write",
                "decisions",
                "models:read",
            ],
            &["acme/*=writer"],
        )
    }
}

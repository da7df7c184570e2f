//! The bundled support tickets against what a person would answer (issue "Better answers out
//! of the box"), per built-in base model, with the evidence the score readout has to work
//! with: each urgency level's similarity to the ticket.
//!
//! For each of `examples/support/states/{refund,shipping,password,outage,angry-escalation}`
//! and each base model it prints the decided intent, urgency and escalate, whether each meets
//! the bar a person sets (refund → `refund`; shipping → `shipping`; password →
//! `account_access`, urgency ≤ 2; outage → `technical`, urgency ≥ 3; the angry escalation →
//! escalate > 0.5), then the similarity of every urgency level (as the engine renders it,
//! framed by the instructions) and which level is most similar.
//!
//! Run: `cargo bench --bench bundled`.

// A bench reads as one measurement from setup to its figures; the 80-line bound on
// functions (clippy.toml) is for `src/`.
#![allow(clippy::too_many_lines)]
#![allow(clippy::print_stdout)]

use arbiter::engine::Engines;
use arbiter::engine::builtin::learned::NONE;
use arbiter::wire::question::parse_questions;
use arbiter::wire::value::parse_yaml;
use arbiter::wire::{Loc, Questions};
use serde_json::Value;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/support");
const MODELS: [&str; 2] = ["mo", "jev-latest"];

/// A ticket, the intent a person reads in it, and the urgency bound they set (if any).
struct Expected {
    state: &'static str,
    intent: Option<&'static str>,
    urgency: Option<Bound>,
    /// The angry escalation's bar; the issue sets none for the calm tickets.
    escalate: Option<bool>,
}

#[derive(Clone, Copy)]
enum Bound {
    AtMost(f64),
    AtLeast(f64),
}

const TICKETS: [Expected; 5] = [
    Expected {
        state: "refund",
        intent: Some("refund"),
        urgency: None,
        escalate: None,
    },
    Expected {
        state: "shipping",
        intent: Some("shipping"),
        urgency: None,
        escalate: None,
    },
    Expected {
        state: "password",
        intent: Some("account_access"),
        urgency: Some(Bound::AtMost(2.0)),
        escalate: None,
    },
    Expected {
        state: "outage",
        intent: Some("technical"),
        urgency: Some(Bound::AtLeast(3.0)),
        escalate: None,
    },
    Expected {
        state: "angry-escalation",
        intent: None,
        urgency: None,
        escalate: Some(true),
    },
];

fn main() {
    let read = |path: String| {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
    };
    let mut errors = Vec::new();
    let questions: Questions = parse_questions(
        &parse_yaml(&read(format!("{EXAMPLES}/questions.yaml"))).expect("questions YAML"),
        &Loc::body(),
        &mut errors,
    );
    assert!(errors.is_empty(), "{errors:?}");
    let urgency = questions
        .iter()
        .find(|(id, _)| *id == "urgency")
        .map(|(_, q)| q.clone())
        .expect("an urgency question");
    let engines = Engines::builtin();
    let mut met = 0;
    let mut bars = 0;
    for model in MODELS {
        let engine = engines
            .get(model)
            .and_then(|e| e.as_builtin())
            .expect("a built-in base model");
        println!("== {model} ==");
        println!(
            "  {:<17} {:<15} {:>5} {:>8} {:>8}   urgency level similarities (most similar)",
            "ticket", "intent", "", "urgency", "escalate"
        );
        for ticket in &TICKETS {
            let state: Value =
                serde_json::from_str(&read(format!("{EXAMPLES}/states/{}.json", ticket.state)))
                    .expect("a JSON state");
            let output = engine
                .decide_blocking(&state, &questions, &NONE)
                .expect("a decision");
            let answers = serde_json::to_value(&output.answers).expect("answers as JSON");
            let intent = answers["intent"]["choice"]
                .as_str()
                .unwrap_or("-")
                .to_owned();
            let intent_p = answers["intent"]["probabilities"][&intent]
                .as_f64()
                .unwrap_or(0.0);
            let score = answers["urgency"]["score"].as_f64().unwrap_or(f64::NAN);
            let escalate = answers["escalate"]["noul"].as_f64().unwrap_or(f64::NAN);
            let mark = |ok: bool| if ok { "ok" } else { "MISS" };
            let mut marks = Vec::new();
            if let Some(want) = ticket.intent {
                marks.push(format!("intent {}", mark(intent == want)));
            }
            if let Some(bound) = ticket.urgency {
                let ok = match bound {
                    Bound::AtMost(b) => score <= b,
                    Bound::AtLeast(b) => score >= b,
                };
                marks.push(format!("urgency {}", mark(ok)));
            }
            if let Some(want) = ticket.escalate {
                marks.push(format!("escalate {}", mark((escalate > 0.5) == want)));
            }
            bars += marks.len();
            met += marks.iter().filter(|m| m.ends_with(" ok")).count();
            let embedded = engine.embed_state(&state).expect("an embedded state");
            let sims = engine
                .similarities(&embedded, &urgency)
                .expect("similarities");
            let best = (0..sims.len())
                .max_by(|&a, &b| sims[a].total_cmp(&sims[b]))
                .unwrap_or(0);
            let shown: Vec<String> = sims.iter().map(|s| format!("{s:.3}")).collect();
            println!(
                "  {:<17} {:<15} {:>5.3} {:>8.2} {:>8.3}   [{}] ({best})   {}",
                ticket.state,
                intent,
                intent_p,
                score,
                escalate,
                shown.join(" "),
                marks.join(", ")
            );
        }
    }
    println!("{met} of {bars} bars met");
}

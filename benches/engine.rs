//! Built-in engine throughput: a 3-question request over a ~1 KB state, warm outcome cache.
//!
//! Reports decisions per second and the ratio of one decision's time to the time of
//! embedding the state alone (the one unavoidable encoder pass), both on states the engine
//! has not seen (target: ratio ≤ 1.25); then the time of a decision over a state it has
//! seen (the state cache) against a fresh one (target: ≤ 0.10); then, through the public
//! routing (`Engines::builtin()`), each base model's time per decision on new states of
//! ~1 KB and of ~8 KB (what the table of base models in docs/src/performance.md shows).
//! Run: `cargo bench --bench engine`.

use arbiter::engine::Engines;
use arbiter::engine::builtin::learned::NONE;
use arbiter::engine::builtin::{BuiltinEngine, Embedder, Reading};
use arbiter::wire::Loc;
use arbiter::wire::decision::BASE_MODELS;
use arbiter::wire::question::parse_questions;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The state, made new by `n`: a different account number, so never a cache hit.
fn state(n: u32) -> Value {
    let mut state = base_state();
    let body = state["body"]
        .as_str()
        .unwrap_or_default()
        .replace("88213", &n.to_string());
    state["body"] = Value::String(body);
    state
}

fn base_state() -> Value {
    json!({
        "subject": "Charged twice for my annual plan and now locked out",
        "body": "Hello, I upgraded our workspace to the annual Pro plan on Monday and my card statement shows two identical charges of $1,188 from you, one on the 3rd and one on the 4th. I only clicked the upgrade button once. On top of that, since yesterday evening none of my five teammates can log in: the login page says our seats are suspended pending payment review, which makes no sense given we paid twice. We have a client presentation on Thursday and all of our project files are in your app. Could you please reverse the duplicate charge and restore access for the team as soon as possible? I have attached the bank statement. If this cannot be sorted out today I will have to escalate to my finance director and consider moving the team to another provider. Thanks, Maria (workspace owner, account #88213)",
        "customer": {"plan": "pro-annual", "tenure_months": 26, "seats": 6}
    })
}

fn main() {
    let mut errors = Vec::new();
    let questions = parse_questions(
        &json!({
            "intent": {"type": "choice", "criteria": {
                "refund": "The customer wants their money back for a purchase.",
                "billing": "The customer has a question about an invoice or a charge.",
                "technical": "The product is broken or shows an error.",
                "account_access": "The customer cannot log in or access their account.",
                "shipping": "The customer asks where their delivery is."}},
            "urgency": {"type": "score", "criteria": [
                "A question or feedback with no time pressure.", "A minor inconvenience.",
                "A problem blocking one user.", "A problem blocking a team or costing money.",
                "An outage or security problem affecting many users right now."]},
            "escalate": {"type": "noul", "instructions": "The customer is upset and asks to speak to a human or a manager."}
        }),
        &Loc::body(),
        &mut errors,
    );
    assert!(errors.is_empty());
    let engine = BuiltinEngine::new(Arc::new(Embedder::new()), Reading::FirstWindow);
    // Warm up: load weights, fill the outcome cache.
    let decide = |state: &Value| {
        black_box(engine.decide_blocking(state, &questions, &NONE).unwrap());
    };
    for n in 0..5 {
        decide(&state(n));
    }
    let budget = Duration::from_secs(3);
    // Interleave the measurements so drift affects them alike. Every state but the
    // repeated one is new.
    let repeated = state(0);
    let (mut decide_time, mut embed_time, mut repeat_time) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut rounds, mut n) = (0u32, 1_000_000u32);
    let started = Instant::now();
    while started.elapsed() < budget * 2 || rounds < 20 {
        let fresh = [state(n), state(n + 1)];
        n += 2;
        let t = Instant::now();
        black_box(engine.embed_state(&fresh[0]).unwrap());
        embed_time += t.elapsed();
        let t = Instant::now();
        decide(&fresh[1]);
        decide_time += t.elapsed();
        let t = Instant::now();
        decide(&repeated);
        repeat_time += t.elapsed();
        rounds += 1;
    }
    let per = |time: Duration| time.as_secs_f64() / f64::from(rounds);
    let (per_decision, per_embed, per_repeat) =
        (per(decide_time), per(embed_time), per(repeat_time));
    let ratio = per_decision / per_embed;
    let repeat_ratio = per_repeat / per_decision;
    let out = format!(
        "engine: {rounds} rounds, 3 questions, {} bytes of state\n\
         decision:        {:.3} ms  ({:.1} decisions/s on one thread)\n\
         state embedding: {:.3} ms\n\
         ratio decision / state embedding = {ratio:.3}  (target <= 1.25: {})\n\
         repeated state:  {:.3} ms\n\
         ratio repeated / fresh decision = {repeat_ratio:.3}  (target <= 0.10: {})\n",
        repeated.to_string().len(),
        per_decision * 1e3,
        1.0 / per_decision,
        per_embed * 1e3,
        if ratio <= 1.25 { "met" } else { "NOT met" },
        per_repeat * 1e3,
        if repeat_ratio <= 0.10 {
            "met"
        } else {
            "NOT met"
        }
    );
    std::io::Write::write_all(&mut std::io::stdout(), out.as_bytes()).unwrap();
    per_base_model(&questions);
}

/// Each base model's time per decision, on new states of ~1 KB and ~8 KB (the body eight
/// times), interleaved so drift affects them alike.
fn per_base_model(questions: &arbiter::wire::Questions) {
    let engines = Engines::builtin();
    let long = |n: u32| {
        let mut long = state(n);
        let body = long["body"].as_str().unwrap_or_default().to_owned();
        long["body"] = Value::String(vec![body; 8].join("\n\n"));
        long
    };
    let sizes = [
        ("~1 KB", state(0).to_string().len()),
        ("~8 KB", long(0).to_string().len()),
    ];
    // Warm up: every encoder loaded, every outcome embedded.
    for model in BASE_MODELS {
        let engine = engines.get(model).and_then(|e| e.as_builtin());
        let engine = engine.expect("a built-in base model");
        black_box(engine.decide_blocking(&state(1), questions, &NONE).unwrap());
    }
    let mut times = vec![[Duration::ZERO; 2]; BASE_MODELS.len()];
    let (mut rounds, mut n) = (0u32, 2_000_000u32);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) || rounds < 5 {
        for (m, model) in BASE_MODELS.iter().enumerate() {
            let engine = engines
                .get(model)
                .and_then(|e| e.as_builtin())
                .expect("a built-in base model");
            for (s, fresh) in [state(n), long(n)].iter().enumerate() {
                let t = Instant::now();
                black_box(engine.decide_blocking(fresh, questions, &NONE).unwrap());
                times[m][s] += t.elapsed();
            }
            n += 1;
        }
        rounds += 1;
    }
    let mut out = format!(
        "per base model, new states ({rounds} rounds): {} ({} bytes), {} ({} bytes)\n",
        sizes[0].0, sizes[0].1, sizes[1].0, sizes[1].1
    );
    for (model, [short, long]) in BASE_MODELS.iter().zip(&times) {
        let ms = |t: &Duration| t.as_secs_f64() * 1e3 / f64::from(rounds);
        let _ = writeln!(
            out,
            "  {model:<22} {:>8.1} ms {:>8.1} ms",
            ms(short),
            ms(long)
        );
    }
    std::io::Write::write_all(&mut std::io::stdout(), out.as_bytes()).unwrap();
}

use super::learned::NONE;
use super::*;
use crate::wire::Loc;
use crate::wire::question::parse_questions;
use serde_json::json;
use std::fmt::Write as _;

fn questions(value: &Value) -> Questions {
    let mut errors = Vec::new();
    let parsed = parse_questions(value, &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    parsed
}

fn engine(reading: Reading) -> BuiltinEngine {
    BuiltinEngine::new(Arc::new(Embedder::new()), reading)
}

fn sample() -> Value {
    json!({
        "intent": {"type": "choice", "criteria": {"refund": "The customer wants money back.", "bug": "Something is broken."}},
        "urgency": {"type": "score", "criteria": ["no rush", "soon", "right now"]},
        "angry": {"type": "noul", "instructions": "The customer is angry."}
    })
}

/// Text of `words` distinct words.
fn words(n: usize) -> String {
    (0..n).fold(String::new(), |mut out, i| {
        let _ = write!(out, "w{i} ");
        out
    })
}

fn read(truncate: bool, stop: &AtomicBool) -> Read<'_> {
    Read {
        model: "jev-latest",
        truncate,
        stop,
        progress: None,
    }
}

/// More decisions at once than the pool has threads, each on an embedder of its own (its
/// encoders not loaded, its outcomes not embedded): each loads and embeds on the pool it
/// runs on, so none waits forever on threads that wait for the pool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cold_decisions_at_once_on_the_pool_all_finish() {
    let q = questions(&sample());
    let n = rayon::current_num_threads() * 2;
    let engines: Vec<BuiltinEngine> = (0..n).map(|_| engine(Reading::AllWindows)).collect();
    let states: Vec<Value> = (0..n)
        .map(|i| json!(format!("ticket {i}: {}", words(300))))
        .collect();
    let decisions = engines.iter().zip(&states).map(|(engine, state)| {
        engine.decide(EngineRequest {
            model: "jev-latest",
            state,
            questions: &q,
            heads: &NONE,
            truncate: false,
        })
    });
    let all = tokio::time::timeout(
        std::time::Duration::from_mins(2),
        futures_util::future::join_all(decisions),
    )
    .await
    .expect("every decision finished");
    for answered in all {
        answered.expect("answered");
    }
}

/// A state decided again is read from the cache: the same answers and usage, and no
/// window read (nothing for a watcher to count).
#[tokio::test]
async fn a_repeated_state_is_not_read_again() {
    use crate::engine::progress::{ReadProgress, watch};
    let engine = engine(Reading::AllWindows);
    let q = questions(&json!({"angry": {"type": "noul", "instructions": "Angry."}}));
    let state = json!(words(600));
    let request = || EngineRequest {
        model: "mo-reasoning",
        state: &state,
        questions: &q,
        heads: &NONE,
        truncate: false,
    };
    let first = engine.decide(request()).await.unwrap();
    let progress = Arc::new(ReadProgress::default());
    let again = watch(progress.clone(), engine.decide(request()))
        .await
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(progress.snapshot().windows, 0, "read from the cache");
    // Read whole, it is what a truncating reading (an evaluation's) reads too.
    let progress = Arc::new(ReadProgress::default());
    let truncating = watch(
        progress.clone(),
        engine.decide(EngineRequest {
            truncate: true,
            ..request()
        }),
    )
    .await
    .unwrap();
    assert_eq!(truncating, first);
    assert_eq!(progress.snapshot().windows, 0, "read from the cache");
    // The same text read another way (the first window) is another entry.
    let first_window = BuiltinEngine::new(engine.embedder.clone(), Reading::FirstWindow);
    let progress = Arc::new(ReadProgress::default());
    watch(progress.clone(), first_window.decide(request()))
        .await
        .unwrap();
    assert_eq!(progress.snapshot().windows, 1);
}

/// What a watched `mo-reasoning` decision on `state` (one noul) reads of it.
async fn windows_read(
    engine: &BuiltinEngine,
    state: &Value,
) -> crate::engine::progress::ReadSnapshot {
    use crate::engine::progress::{ReadProgress, watch};
    let q = questions(&json!({"angry": {"type": "noul"}}));
    let progress = Arc::new(ReadProgress::default());
    let request = EngineRequest {
        model: "mo-reasoning",
        state,
        questions: &q,
        heads: &NONE,
        truncate: false,
    };
    watch(progress.clone(), engine.decide(request))
        .await
        .unwrap();
    progress.snapshot()
}

/// A watched decision counts every window it reads.
#[tokio::test]
async fn a_watched_decision_counts_the_windows_it_reads() {
    let engine = engine(Reading::AllWindows);
    let state = json!(words(600));
    // Counted by another engine: this one must read the state itself, not from its cache.
    let embedded = self::engine(Reading::AllWindows)
        .embed_state(&state)
        .unwrap();
    let seen = windows_read(&engine, &state).await;
    assert_eq!(seen.windows, embedded.window_count());
    assert!(seen.windows > 3, "{seen:?}");
    assert_eq!(seen.read, seen.windows);
}

/// A window that repeats an earlier one is read once, and the state is what reading
/// every window alone gives.
#[tokio::test]
async fn a_repeated_window_is_read_once() {
    let engine = engine(Reading::AllWindows);
    let state = json!("the disk is full again ".repeat(400));
    let seen = windows_read(&engine, &state).await;
    let embedded = engine.embed_state(&state).unwrap();
    let windows = engine
        .embedder
        .windows_within(
            &text::render(&state),
            STATE_BUDGET,
            false,
            &AtomicBool::new(false),
        )
        .unwrap()
        .windows;
    assert_eq!(embedded.window_count(), windows.len());
    for (vector, window) in embedded.windows.iter().zip(&windows) {
        assert_eq!(vector, &engine.embedder.embed(&window.text).unwrap());
    }
    let (distinct, _) = distinct_texts(&windows);
    assert_eq!(seen.windows, distinct.len());
    assert!(
        distinct.len() < windows.len() / 2,
        "{} of {}",
        distinct.len(),
        windows.len()
    );
}

/// Over the budget: refused at the state with the exact count when it had to be
/// tokenized and has at most twice the budget's tokens, with a lower bound when it has
/// more (tokenized only that far) or when the cheap bound already exceeds it; read up
/// to the budget with `truncate`. Under it: read whole either way.
#[test]
fn a_state_over_the_budget_is_refused_or_truncated() {
    let engine = engine(Reading::AllWindows);
    let stop = AtomicBool::new(false);
    let q = questions(&json!({"angry": {"type": "noul"}}));
    // "w123" is one word to the bound but several tokens ("w", "##12", …) to the
    // tokenizer.
    let state = json!(words(STATE_BUDGET / 2));
    let error = engine
        .decide_as(&state, &q, &NONE, &read(false, &stop))
        .unwrap_err();
    assert_eq!(error.code(), "state_too_large");
    assert_eq!(error.status(), 422);
    let detail = &error.details()[0];
    assert_eq!(detail.loc, Loc::body().key("state"));
    let count = engine.embedder.count_tokens(&text::render(&state)).unwrap();
    assert!(count > STATE_BUDGET, "{count}");
    assert!(
        detail.msg.contains(&format!("has {count} tokens")),
        "{}",
        detail.msg
    );
    assert!(
        detail.msg.contains(&STATE_BUDGET.to_string()),
        "{}",
        detail.msg
    );

    let long = json!(words(STATE_BUDGET));
    let text = text::render(&long);
    assert!(text::least_tokens(&text) <= STATE_BUDGET);
    let count = engine.embedder.count_tokens(&text).unwrap();
    assert!(count > STATE_BUDGET * 2, "{count}");
    let error = engine
        .decide_as(&long, &q, &NONE, &read(false, &stop))
        .unwrap_err();
    let msg = &error.details()[0].msg;
    let counted: usize = msg
        .strip_prefix("the state has at least ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{msg}"));
    assert!(counted > STATE_BUDGET * 2 && counted < count, "{msg}");

    let huge = json!(words(STATE_BUDGET * 4));
    let error = engine
        .decide_as(&huge, &q, &NONE, &read(false, &stop))
        .unwrap_err();
    let bound = text::least_tokens(&text::render(&huge));
    assert!(
        error.details()[0]
            .msg
            .contains(&format!("at least {bound} tokens")),
        "{error}"
    );

    let truncated = engine
        .decide_as(&state, &q, &NONE, &read(true, &stop))
        .unwrap();
    let whole_read = engine
        .embed_state_as(&state, &read(true, &stop))
        .unwrap()
        .tokens;
    assert!(truncated.usage.input_tokens >= whole_read);
    // Windows overlap and carry two special tokens each: what they read is the budget's
    // tokens and no more than the overlap beyond them.
    let windows = STATE_BUDGET.div_ceil(embedder::WINDOW_STRIDE) as u64;
    assert!(
        whole_read <= (STATE_BUDGET as u64) * 2 + windows * 2,
        "{whole_read}"
    );

    let small = json!(words(100));
    assert!(
        engine
            .decide_as(&small, &q, &NONE, &read(false, &stop))
            .is_ok()
    );
    // The first-window models read one window whatever the length: no budget.
    assert!(
        self::engine(Reading::FirstWindow)
            .decide_as(&huge, &q, &NONE, &read(false, &stop))
            .is_ok()
    );
}

/// The cheap bound never exceeds the tokenizer's count, whatever the script.
#[test]
fn the_cheap_token_bound_is_a_lower_bound() {
    let embedder = Embedder::new();
    for text in [
        "Refund me, please!! Order #12345 (twice) -- now.",
        "caf\u{e9} cafe\u{301} na\u{ef}ve r\u{e9}sum\u{e9} \u{2014} ok",
        "\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{6587}\u{7ae0} and \u{1f600} emoji \u{1f44d}",
        &"x".repeat(500),
        "a.b,c;d:e!f?g'h\"i(j)k[l]m{n}o<p>q/r\\s|t`u~v@w#x$y%z^&*_+=-",
        "\t\n  spaced   out\r\n",
    ] {
        let bound = text::least_tokens(text);
        let count = embedder.count_tokens(text).unwrap();
        assert!(bound <= count, "{text:?}: bound {bound} > {count}");
    }
}

#[test]
fn an_answer_depends_only_on_its_own_question() {
    let engine = engine(Reading::FirstWindow);
    let state = json!({"subject": "Charged twice", "body": "Please give me my money back, this is unacceptable."});
    let alone = engine
        .decide_blocking(&state, &questions(&sample()), &NONE)
        .unwrap();
    // Reordered, renamed, and with another question added.
    let mixed = questions(&json!({
        "extra": {"type": "noul", "instructions": "The ticket mentions shipping."},
        "anger": sample()["angry"].clone(),
        "urgency": sample()["urgency"].clone(),
        "what": sample()["intent"].clone()
    }));
    let other = engine.decide_blocking(&state, &mixed, &NONE).unwrap();
    assert_eq!(alone.answers["intent"], other.answers["what"]);
    assert_eq!(alone.answers["urgency"], other.answers["urgency"]);
    assert_eq!(alone.answers["angry"], other.answers["anger"]);
}

#[test]
fn deterministic_and_cache_independent() {
    let state = json!("My order never arrived and support is ignoring me.");
    let warm = engine(Reading::AllWindows);
    let first = warm
        .decide_blocking(&state, &questions(&sample()), &NONE)
        .unwrap();
    let again = warm
        .decide_blocking(&state, &questions(&sample()), &NONE)
        .unwrap();
    let cold = engine(Reading::AllWindows)
        .decide_blocking(&state, &questions(&sample()), &NONE)
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(first, cold);
}

#[test]
fn usage_counts_state_and_outcome_tokens() {
    let engine = engine(Reading::FirstWindow);
    let state = json!("hello world");
    let one = questions(&json!({"q": {"type": "choice", "criteria": {"a": null, "b": null}}}));
    let output = engine.decide_blocking(&state, &one, &NONE).unwrap();
    // [CLS] hello world [SEP] + [CLS] a [SEP] + [CLS] b [SEP]
    assert_eq!(output.usage.input_tokens, 4 + 3 + 3);
    assert_eq!(output.usage.output_tokens, 0);
}

#[test]
fn the_whole_state_reading_sees_what_the_first_window_misses() {
    let filler = (0..60).fold(String::new(), |mut out, i| {
        write!(out, "Line {i} of the order history is routine. ").unwrap();
        out
    });
    let state = json!(format!(
        "{filler} Finally: the server is down and every user is locked out right now."
    ));
    let q = questions(
        &json!({"outage": {"type": "noul", "instructions": "The service is down for all users.",
        "criteria": {"false": "Routine order history with no problem."}}}),
    );
    let first = engine(Reading::FirstWindow)
        .decide_blocking(&state, &q, &NONE)
        .unwrap();
    let whole = engine(Reading::AllWindows)
        .decide_blocking(&state, &q, &NONE)
        .unwrap();
    let p = |o: &EngineOutput| match o.answers["outage"] {
        Answer::Noul { noul, .. } => noul,
        _ => unreachable!(),
    };
    assert!(
        p(&whole) > p(&first),
        "whole {} vs first {}",
        p(&whole),
        p(&first)
    );
    assert!(whole.usage.input_tokens > first.usage.input_tokens);
}

#[test]
fn a_blank_state_is_uniform() {
    let engine = engine(Reading::FirstWindow);
    let output = engine
        .decide_blocking(
            &json!({"image": {"type": "image_url", "image_url": {"url": "x"}}}),
            &questions(&sample()),
            &NONE,
        )
        .unwrap();
    assert_eq!(
        output.answers["angry"],
        Answer::Noul {
            noul: 0.5,
            x_option_mass: None,
            x_abstain: None
        }
    );
    assert_eq!(output.usage.input_tokens, 0);
    let Answer::Choice { probabilities, .. } = &output.answers["intent"] else {
        panic!()
    };
    assert!(probabilities.values().all(|p| (*p - 0.5).abs() < 1e-12));
}

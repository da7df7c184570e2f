//! The learning curve: how much an aligned checkpoint gets out of 8, 16, 32, 64 and 128
//! annotated examples, on examples never annotated, against the baselines a user would
//! reach for, all run here.
//!
//! For each of the project's labelled sets (support tickets, `SpamAssassin`, sentiment) and
//! each of 5 seeds: the set is split in two by SHA-256 of (seed, example ID); the first
//! half is the pool annotations are drawn from, the second is never annotated and is the
//! only place accuracy is measured ("fresh"). For each size n, n pool examples (a seeded
//! draw; every question of the set annotated on them) go into a new repository model on
//! `mo`, which is aligned through the real job machinery (default settings: 5 folds, the
//! gate); the checkpoint it commits (or the base, when no question passed) then answers the
//! fresh examples. Beside it, fitted on the same n examples and scored on the same fresh
//! ones:
//! - zero-shot: the base checkpoint's answers;
//! - majority: the most frequent annotated answer among the n;
//! - TF-IDF + logistic regression as a data scientist fits it, with scikit-learn
//!   (`benches/baselines.py`, in a virtualenv this bench makes under `target/`): word
//!   1-2-grams with sublinear TF, then `LogisticRegressionCV` (C chosen by stratified
//!   cross-validation on the n alone, refitted on all of them);
//! - the frozen encoder + logistic regression: the same `LogisticRegressionCV` on the
//!   pooled embedding the built-in engine computes, of `mo`'s encoder (`MiniLM-L3`, what the
//!   aligned checkpoint reads) and of `jev-latest`'s (`MiniLM-L3` with `all-MiniLM-L6-v2`);
//! - the Rust proxy of scikit-learn's defaults (C = 1 on unit TF-IDF rows, as before): a
//!   fast line kept for comparison with earlier runs, not the bar.
//!
//! Printed per set and size: mean accuracy over seeds and questions of each; the worst
//! question's (aligned − zero-shot), averaged over seeds, with its standard error over them
//! (is a dip more than the draws' noise?) and its name; and the mean (cross-validated − fresh)
//! accuracy of the questions the alignment improved (its out-of-fold figure against what it
//! then scores: how far the figure `align` reports is from what a user then sees); and the
//! same over every question ("reported − fresh"): the figure `align` reports as expected
//! (its `after`, the whole choice's out of fold, whatever it chose; zero-shot's where
//! nothing was fitted), with its standard error over the draws (a set
//! and a seed: its questions share their examples, so they are not independent); and that
//! gap less the draw's luck: how much better zero-shot, which reads no label, scored on
//! the annotated examples than on the fresh ones. Its expectation is 0, so subtracting it
//! leaves the same expectation (the reported figure's own bias) with less of the noise of
//! which examples were drawn, which at 8 labels is most of it.
//! Then the wall time of aligning 64 and 500 annotated examples × 4 questions, and the cost of a
//! decision at an aligned checkpoint against a zero-shot one.
//!
//! Run: `cargo bench --bench learning` (`LEARNING_SETS=support,spam` for some sets,
//! `LEARNING_SEEDS=2` for fewer seeds, `LEARNING_SIZES=8,16` for some sizes,
//! `LEARNING_PARTS=curve` or `time` for one part; `remote` and `instructions` are run
//! only when named: the alignment over a real `arbiter serve` as a remote engine, and
//! `align --instructions` beside the heads).
//! `LEARNING_PYTHON=<python with scikit-learn>` uses that interpreter instead of the
//! virtualenv. `LEARNING_CAPTURED=100` gives each model that many captured states besides
//! the annotated ones (the pool's next, never annotated), as a team's model has: the
//! alignment's corrected prior is estimated on them.
//! `LEARNING_BASE=jev-latest` creates the curve's models on that base model instead of
//! `mo` (its engine reads every window with L3 and L6, as the frozen L6 baseline does).
//! `LEARNING_TUNE=0` aligns without the encoder's fine-tune (`--no-tune`), for A/B runs.
//! `LEARNING_DEV=1` is for developing the learner: it scores on half of the pool instead,
//! so that choices are never made on the examples the figures are reported on.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::too_many_lines)]

use arbiter::config::Settings;
use arbiter::core::metrics::{argmax, label_of, predicted_of};
use arbiter::core::model_files::CapturePolicy;
use arbiter::core::models::CreateModel;
use arbiter::core::{self, Context};
use arbiter::engine::builtin::aligned::outcome_keys;
use arbiter::engine::builtin::learned::head::softmax;
use arbiter::engine::builtin::learned::lbfgs::Stop;
use arbiter::wire::align::{AlignmentRequest, AlignmentResult};
use arbiter::wire::{Answers, Questions};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Cursor;
use std::time::Instant;

#[path = "common/generated.rs"]
mod generated;
#[path = "common/logistic.rs"]
mod logistic;
#[path = "common/sklearn.rs"]
mod sklearn;
#[path = "common/split.rs"]
mod split;
use generated::generate;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
const SIZES: [usize; 5] = [8, 16, 32, 64, 128];

/// The sizes of the curve: `LEARNING_SIZES=8,16` for some, else [`SIZES`].
fn sizes() -> Vec<usize> {
    std::env::var("LEARNING_SIZES").map_or_else(
        |_| SIZES.to_vec(),
        |v| {
            v.split(',')
                .map(|n| n.trim().parse().expect("LEARNING_SIZES: numbers"))
                .collect()
        },
    )
}

struct Set {
    name: &'static str,
    data: &'static str,
    questions: &'static str,
}

const SETS: [Set; 3] = [
    Set {
        name: "support",
        data: "support/labelled.jsonl",
        questions: "support/questions.yaml",
    },
    Set {
        name: "spam",
        data: "spam/labelled.jsonl",
        questions: "spam/questions.yaml",
    },
    Set {
        name: "sentiment",
        data: "sentiment/labelled.jsonl",
        questions: "sentiment/questions.yaml",
    },
];

struct Row {
    id: String,
    line: String,
    state: Value,
    /// Question → annotated answer.
    truth: HashMap<String, Value>,
}

fn rows(set: &Set) -> Vec<Row> {
    let text = std::fs::read_to_string(format!("{DATA}/{}", set.data)).expect("labelled set");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("a row");
            let truth = value["annotations"]
                .as_object()
                .expect("annotations")
                .iter()
                .map(|(q, a)| (q.clone(), a["answer"].clone()))
                .collect();
            Row {
                id: value["example_id"].as_str().expect("an ID").to_owned(),
                line: line.to_owned(),
                state: value["state"].clone(),
                truth,
            }
        })
        .collect()
}

/// `path` as core names a model.
fn model(path: &str) -> arbiter::ids::ModelRef {
    path.parse().expect("model path")
}

fn create(ctx: &Context, path: &str, questions: &str) {
    create_on(ctx, path, "mo", questions);
}

/// The base model the curve's models are created on: `LEARNING_BASE`, else `mo`.
fn curve_base() -> String {
    std::env::var("LEARNING_BASE").unwrap_or_else(|_| "mo".into())
}

fn create_on(ctx: &Context, path: &str, base: &str, questions: &str) {
    core::models::create(
        ctx,
        &CreateModel {
            path: path.parse().expect("model path"),
            base: base.into(),
            questions_yaml: Some(questions.to_owned()),
            gates_yaml: None,
            capture: CapturePolicy::default(),
            message: None,
        },
    )
    .expect("create the model");
}

fn ingest(ctx: &Context, path: &str, lines: &[&str]) {
    core::examples::ingest(
        ctx,
        &model(path),
        "bench",
        &mut Cursor::new(lines.join("\n")),
        true,
        &mut |_| {},
    )
    .expect("ingest");
}

fn align(
    runtime: &tokio::runtime::Runtime,
    ctx: &Context,
    path: &str,
    seed: u64,
) -> AlignmentResult {
    align_with(
        runtime,
        ctx,
        path,
        AlignmentRequest {
            seed,
            ..AlignmentRequest::default()
        },
    )
}

/// Align `path` as `request` says, through the real job.
fn align_with(
    runtime: &tokio::runtime::Runtime,
    ctx: &Context,
    path: &str,
    request: AlignmentRequest,
) -> AlignmentResult {
    let job = runtime.block_on(async {
        let (_, lock) = core::align::create(
            ctx,
            core::align::NewAlignment {
                model: &model(path),
                request: AlignmentRequest {
                    // `LEARNING_TUNE=0`: the alignment without its fine-tune (`--no-tune`),
                    // for A/B; else as `align` runs it, with.
                    tune: std::env::var("LEARNING_TUNE").map_or(true, |v| v != "0"),
                    ..request
                },
            },
            None,
        )
        .expect("create the alignment");
        core::runner::run(ctx, lock, &core::jobs::NoObserver)
            .await
            .expect("run")
    });
    assert_eq!(job.status.as_str(), "completed", "{job:?}");
    match job.result {
        Some(arbiter::wire::jobs::JobResult::Alignment(result)) => *result,
        other => panic!("an alignment result, not {other:?}"),
    }
}

/// The answers of `path` at `revision` to each state, through the built-in engine.
fn decide(ctx: &Context, path: &str, revision: Option<&str>, states: &[&Value]) -> Vec<Answers> {
    let loaded = core::models::load(ctx, &model(path), revision).expect("load");
    let engine = loaded.engine(ctx).expect("engine");
    let builtin = engine.as_builtin().expect("the built-in engine");
    states
        .iter()
        .map(|state| {
            builtin
                .decide_blocking(state, &loaded.questions, &loaded.heads)
                .expect("decide")
                .answers
        })
        .collect()
}

/// The mean over the questions of the accuracy of `answers` (one per row) on `rows`.
fn questions_accuracy(questions: &Questions, rows: &[&Row], answers: &[Answers]) -> f64 {
    let per: Vec<f64> = questions
        .keys()
        .map(|q| {
            let outcomes = outcome_keys(&questions[q].kind).len();
            let predicted: Vec<Vec<f64>> = answers
                .iter()
                .map(|a| predicted_of(&a[q], outcomes))
                .collect();
            accuracy(questions, q, rows, &predicted)
        })
        .collect();
    mean(&per)
}

/// Accuracy of `predicted` (one distribution per row) against the rows' annotations.
fn accuracy(questions: &Questions, q: &str, rows: &[&Row], predicted: &[Vec<f64>]) -> f64 {
    let kind = &questions[q].kind;
    let correct = rows
        .iter()
        .zip(predicted)
        .filter(|(row, p)| {
            let label = label_of(kind, &row.truth[q]).expect("a label");
            argmax(&label) == argmax(p)
        })
        .count();
    correct as f64 / rows.len().max(1) as f64
}

fn outcome(questions: &Questions, q: &str, row: &Row) -> usize {
    argmax(&label_of(&questions[q].kind, &row.truth[q]).expect("a label"))
}

// ---- TF-IDF + logistic regression, as scikit-learn's defaults ----

fn words(text: &str) -> Vec<String> {
    let lowered = text.to_lowercase();
    let tokens: Vec<&str> = lowered
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() >= 2)
        .collect();
    let mut grams: Vec<String> = tokens.iter().map(|t| (*t).to_owned()).collect();
    grams.extend(tokens.windows(2).map(|w| format!("{} {}", w[0], w[1])));
    grams
}

struct TfIdf {
    vocabulary: HashMap<String, usize>,
    idf: Vec<f64>,
}

impl TfIdf {
    fn fit(texts: &[String]) -> Self {
        let mut df: HashMap<String, usize> = HashMap::new();
        for text in texts {
            let mut seen: Vec<String> = words(text);
            seen.sort();
            seen.dedup();
            for w in seen {
                *df.entry(w).or_default() += 1;
            }
        }
        let mut terms: Vec<(String, usize)> = df.into_iter().collect();
        terms.sort();
        let n = texts.len() as f64;
        let idf = terms
            .iter()
            .map(|(_, d)| ((1.0 + n) / (1.0 + *d as f64)).ln() + 1.0)
            .collect();
        let vocabulary = terms
            .into_iter()
            .enumerate()
            .map(|(i, (t, _))| (t, i))
            .collect();
        Self { vocabulary, idf }
    }

    fn row(&self, text: &str) -> Vec<(usize, f64)> {
        let mut counts: HashMap<usize, f64> = HashMap::new();
        for w in words(text) {
            if let Some(&i) = self.vocabulary.get(&w) {
                *counts.entry(i).or_default() += 1.0;
            }
        }
        let mut row: Vec<(usize, f64)> = counts
            .into_iter()
            .map(|(i, c)| (i, c * self.idf[i]))
            .collect();
        row.sort_by_key(|(i, _)| *i);
        let norm = row.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
        if norm > 0.0 {
            for (_, w) in &mut row {
                *w /= norm;
            }
        }
        row
    }
}

fn text_of(state: &Value) -> String {
    arbiter::engine::builtin::text::render(state)
}

/// TF-IDF + LR's answers to `fresh`, fitted on `fitted`.
fn tfidf_lr(fitted: &[&Row], fresh: &[&Row], questions: &Questions, q: &str) -> Vec<Vec<f64>> {
    let classes = outcome_keys(&questions[q].kind).len();
    let texts: Vec<String> = fitted.iter().map(|r| text_of(&r.state)).collect();
    let tfidf = TfIdf::fit(&texts);
    let rows: Vec<Vec<(usize, f64)>> = texts.iter().map(|t| tfidf.row(t)).collect();
    let labels: Vec<usize> = fitted.iter().map(|r| outcome(questions, q, r)).collect();
    let features = tfidf.idf.len();
    let stop = Stop {
        iterations: 100,
        gradient: 1e-4,
    };
    let theta = logistic::fit(&rows, &labels, features, classes, stop);
    fresh
        .iter()
        .map(|r| {
            softmax(&logistic::scores(
                &theta,
                &tfidf.row(&text_of(&r.state)),
                features,
                classes,
            ))
        })
        .collect()
}

fn majority(fitted: &[&Row], fresh: usize, questions: &Questions, q: &str) -> Vec<Vec<f64>> {
    let classes = outcome_keys(&questions[q].kind).len();
    let mut counts = vec![0.0; classes];
    for r in fitted {
        counts[outcome(questions, q, r)] += 1.0;
    }
    vec![counts; fresh]
}

/// The scikit-learn baselines, in the order printed: the name `baselines.py` gives each.
const SKLEARN: [(&str, &str); 3] = [
    ("tfidf", "tfidf+LR-CV"),
    ("frozen/mo", "frozen mo+LR"),
    ("frozen/l6", "frozen L6+LR"),
];
/// The encoders of the frozen baselines: their name there, and the base model whose engine
/// embeds the rows.
const FROZEN: [(&str, &str); 2] = [("mo", "mo"), ("l6", "jev-latest")];

#[derive(Default, Clone)]
struct Draw {
    aligned: f64,
    majority: f64,
    sklearn: [f64; 3],
    n: f64,
}

#[derive(Default)]
struct Sums {
    aligned: f64,
    tfidf: f64,
    zero: f64,
    majority: f64,
    sklearn: [f64; 3],
    n: f64,
    /// Per draw (a set and a seed): the sums of its questions, for the spread of
    /// (aligned − a baseline) over draws.
    draws: HashMap<String, Draw>,
    /// Per question: (aligned − zero-shot), one per seed.
    gains: HashMap<String, Vec<f64>>,
    cv_gap: f64,
    cv_n: f64,
    /// (reported − fresh) over every question: the figure `align` reports for what the
    /// checkpoint answers (out of fold for a question it changed, zero-shot's for a
    /// question it kept), against what that question then scores.
    reported_gap: f64,
    /// Per draw (a set and a seed, whose questions share their examples): the mean
    /// (reported − fresh) over its questions. The draws are independent, so their spread
    /// is the figure's noise.
    reported_draws: Vec<f64>,
    /// Per draw: the same less zero-shot's (annotated − fresh) accuracy, the draw's luck.
    /// Its expectation is the learner's own bias, as the line before's is, with less of
    /// the draws' noise: a control variate whose mean is known to be 0.
    lucky_draws: Vec<f64>,
}

/// The mean of `draws` (0 without any).
fn mean(draws: &[f64]) -> f64 {
    draws.iter().sum::<f64>() / (draws.len() as f64).max(1.0)
}

/// The standard error of the mean of `draws`, from their spread (NaN under two).
fn standard_error(draws: &[f64]) -> f64 {
    let n = draws.len() as f64;
    if n < 2.0 {
        return f64::NAN;
    }
    let mean = mean(draws);
    let var = draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (var / n).sqrt()
}

impl Sums {
    /// The question whose mean (aligned − zero-shot) is the lowest.
    fn worst(&self) -> Option<(&str, &[f64])> {
        self.gains
            .iter()
            .min_by(|a, b| mean(a.1).total_cmp(&mean(b.1)))
            .map(|(q, g)| (q.as_str(), g.as_slice()))
    }

    /// The standard error of the mean (reported − fresh), from the draws' spread.
    fn reported_error(&self) -> f64 {
        standard_error(&self.reported_draws)
    }

    /// The strongest of the baselines fitted on the labels (scikit-learn's and the
    /// majority), and per draw (aligned − it): its name, mean and standard error.
    fn against_best(&self) -> (&'static str, f64, f64) {
        // The lines: scikit-learn's, then the majority (index `SKLEARN.len()`).
        let line = |draw: &Draw, b: usize| draw.sklearn.get(b).copied().unwrap_or(draw.majority);
        let name = |b: usize| SKLEARN.get(b).map_or("majority", |(_, name)| *name);
        let mean_of = |b: usize| self.sklearn.get(b).copied().unwrap_or(self.majority);
        let best = (0..=SKLEARN.len())
            .max_by(|&a, &b| mean_of(a).total_cmp(&mean_of(b)))
            .unwrap_or(0);
        let diffs: Vec<f64> = self
            .draws
            .values()
            .map(|draw| (draw.aligned - line(draw, best)) / draw.n.max(1.0))
            .collect();
        (name(best), mean(&diffs), standard_error(&diffs))
    }

    fn add(&mut self, other: Sums) {
        self.aligned += other.aligned;
        self.tfidf += other.tfidf;
        self.zero += other.zero;
        self.majority += other.majority;
        for b in 0..SKLEARN.len() {
            self.sklearn[b] += other.sklearn[b];
        }
        self.n += other.n;
        self.draws.extend(other.draws);
        self.gains.extend(other.gains);
        self.cv_gap += other.cv_gap;
        self.cv_n += other.cv_n;
        self.reported_gap += other.reported_gap;
        self.reported_draws.extend(other.reported_draws);
        self.lucky_draws.extend(other.lucky_draws);
    }
}

fn main() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARBITER_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = Settings::resolve(Some(dir.path().to_owned())).expect("settings");
    let ctx = Context::new(settings).expect("context");
    let wanted = std::env::var("LEARNING_SETS").unwrap_or_else(|_| "support,spam,sentiment".into());
    let seeds: u64 = std::env::var("LEARNING_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let parts = std::env::var("LEARNING_PARTS").unwrap_or_else(|_| "curve,time".into());
    if parts.contains("curve") {
        curve(&runtime, &ctx, &wanted, seeds);
    }
    if parts.contains("time") {
        timing(&runtime, &ctx, dir.path());
    }
    if parts.contains("remote") {
        remote(&runtime, &ctx, seeds);
    }
    if parts.contains("instructions") {
        instructions(&runtime, &ctx, &wanted, seeds);
    }
}

/// `align --instructions` beside the heads: for each set, seed and size, the same n pool
/// examples annotated in two models on `mo`, one aligned by default (heads), one with
/// `--instructions` (demonstrations chosen through the engine); both checkpoints and the
/// base answer the fresh half. Printed: mean accuracy over seeds and questions per size.
fn instructions(runtime: &tokio::runtime::Runtime, ctx: &Context, wanted: &str, seeds: u64) {
    println!(
        "\nalign --instructions beside the heads, accuracy on the fresh half (mean over {seeds} \
         seeds and the questions):"
    );
    println!("set        annotated  zero-shot  heads  instructions  instructions-heads");
    for set in SETS
        .iter()
        .filter(|s| wanted.split(',').any(|w| w == s.name))
    {
        let questions_yaml =
            std::fs::read_to_string(format!("{DATA}/{}", set.questions)).expect("questions");
        let rows = rows(set);
        for n in sizes() {
            let mut sums = [0.0; 3];
            for seed in 0..seeds {
                let (pool, fresh) = split::split(&rows, seed, false, |r| r.id.as_str());
                let drawn: Vec<&str> = pool.iter().take(n).map(|r| r.line.as_str()).collect();
                let states: Vec<&Value> = fresh.iter().map(|r| &r.state).collect();
                for (at, mode) in ["heads", "instructions"].into_iter().enumerate() {
                    let path = format!("instructions/{}-{n}-{seed}-{mode}", set.name);
                    create(ctx, &path, &questions_yaml);
                    ingest(ctx, &path, &drawn);
                    let result = align_with(
                        runtime,
                        ctx,
                        &path,
                        AlignmentRequest {
                            seed,
                            instructions: mode == "instructions",
                            ..AlignmentRequest::default()
                        },
                    );
                    let questions = core::models::load(ctx, &model(&path), None)
                        .expect("load")
                        .questions;
                    let score =
                        |answers: &[Answers]| questions_accuracy(&questions, &fresh, answers);
                    if at == 0 {
                        sums[0] += score(&decide(ctx, &path, None, &states)) / seeds as f64;
                    }
                    let answers = decide(ctx, &path, result.branch.as_deref(), &states);
                    sums[1 + at] += score(&answers) / seeds as f64;
                }
            }
            println!(
                "{:<10} {n:>9}  {:>9.3}  {:>5.3}  {:>12.3}  {:>+18.3}",
                set.name,
                sums[0],
                sums[1],
                sums[2],
                sums[2] - sums[1]
            );
        }
    }
}

/// Annotated examples the remote alignment is measured at.
const REMOTE_AT: usize = 64;

/// Alignment over a remote engine: the support set's fresh half answered by a model aligned
/// on [`REMOTE_AT`] annotated examples here (on `mo`), and by the same model in a second
/// home whose `mo` is routed to a real `arbiter serve` (this home's built-in engine behind
/// HTTP, the System One protocol): its heads are fitted over the server's answers and
/// applied after its one call per decision. Per seed and on average: zero-shot, the local
/// alignment, the remote one, and the remote engine calls the alignment made.
fn remote(runtime: &tokio::runtime::Runtime, ctx: &Context, seeds: u64) {
    use arbiter::core::tokens::NewToken;
    let set = &SETS[0];
    let questions_yaml =
        std::fs::read_to_string(format!("{DATA}/{}", set.questions)).expect("questions");
    let rows = rows(set);
    let request = NewToken {
        name: "remote-bench".into(),
        scopes: arbiter::core::tokens::Scope::names()
            .map(str::to_owned)
            .collect(),
        roles: vec!["*=admin".into()],
    };
    let (_, token) = arbiter::core::tokens::create(ctx, &request).expect("token");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    {
        let ctx = ctx.clone();
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            arbiter::server::serve(ctx, listener, std::future::pending())
                .await
                .expect("serve");
        });
    }
    let remote_dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        remote_dir.path().join("config.yaml"),
        format!(
            "engines:\n  upstream: {{kind: systemone, url: '{url}', model: mo, api_key_env: \
             UPSTREAM_TOKEN, timeout: 60, max_in_flight: 8}}\nmodels:\n  mo: upstream\n"
        ),
    )
    .expect("config");
    let remote_settings = Settings::resolve_with(Some(remote_dir.path().to_owned()), &|name| {
        if name == "UPSTREAM_TOKEN" {
            Some(token.clone())
        } else {
            std::env::var(name).ok()
        }
    })
    .expect("settings");
    let remote_ctx = Context::new(remote_settings).expect("context");
    println!(
        "\nalignment over a remote engine (a real arbiter serve, System One), {} at {REMOTE_AT} \
         annotated examples, accuracy on the fresh half:",
        set.name
    );
    println!("seed  zero-shot  local  remote  remote-local  calls");
    let mut sums = [0.0; 3];
    for seed in 0..seeds {
        let (pool, fresh) = split::split(&rows, seed, false, |r| r.id.as_str());
        let drawn: Vec<&str> = pool
            .iter()
            .take(REMOTE_AT)
            .map(|r| r.line.as_str())
            .collect();
        let path = format!("remote/{}-{seed}", set.name);
        let states: Vec<&Value> = fresh.iter().map(|r| &r.state).collect();
        let mut calls = 0;
        let mut figures = [0.0; 3];
        for (at, on) in [ctx, &remote_ctx].into_iter().enumerate() {
            create(on, &path, &questions_yaml);
            ingest(on, &path, &drawn);
            let result = align(runtime, on, &path, seed);
            if let Some(made) = &result.engine_calls {
                calls = made.calls;
            }
            let answers =
                decide_through_engine(runtime, on, &path, result.branch.as_deref(), &states);
            let base = (at == 0).then(|| decide_through_engine(runtime, on, &path, None, &states));
            let questions = core::models::load(on, &model(&path), None)
                .expect("load")
                .questions;
            let mean_accuracy =
                |answers: &[Answers]| questions_accuracy(&questions, &fresh, answers);
            if let Some(base) = base {
                figures[0] = mean_accuracy(&base);
            }
            figures[1 + at] = mean_accuracy(&answers);
        }
        println!(
            "{seed:>4}  {:>9.3}  {:>5.3}  {:>6.3}  {:>+12.3}  {calls:>5}",
            figures[0],
            figures[1],
            figures[2],
            figures[2] - figures[1]
        );
        for (sum, figure) in sums.iter_mut().zip(figures) {
            *sum += figure / seeds as f64;
        }
    }
    println!(
        "mean  {:>9.3}  {:>5.3}  {:>6.3}  {:>+12.3}",
        sums[0],
        sums[1],
        sums[2],
        sums[2] - sums[1]
    );
}

/// The answers of `path` at `revision` to each state, through its engine as a decision
/// asks it (a remote engine's call, then its heads), eight at a time.
fn decide_through_engine(
    runtime: &tokio::runtime::Runtime,
    ctx: &Context,
    path: &str,
    revision: Option<&str>,
    states: &[&Value],
) -> Vec<Answers> {
    use futures_util::StreamExt as _;
    let loaded = core::models::load(ctx, &model(path), revision).expect("load");
    let engine = loaded.engine(ctx).expect("engine");
    runtime.block_on(
        futures_util::stream::iter(states.iter().map(|state| {
            let (engine, loaded) = (&engine, &loaded);
            async move {
                engine
                    .decide(arbiter::engine::EngineRequest {
                        model: &loaded.spec.base,
                        state,
                        questions: &loaded.questions,
                        heads: &loaded.heads,
                        truncate: true,
                    })
                    .await
                    .expect("decide")
                    .answers
            }
        }))
        .buffered(8)
        .collect(),
    )
}

/// Every row's pooled embedding by the engine of `base`.
fn pooled(ctx: &Context, path: &str, rows: &[Row]) -> Vec<Vec<f32>> {
    use rayon::prelude::*;
    let loaded = core::models::load(ctx, &model(path), None).expect("load");
    let engine = loaded.engine(ctx).expect("engine");
    let builtin = engine.as_builtin().expect("the built-in engine");
    rows.par_iter()
        .map(|r| builtin.embed_state(&r.state).expect("embed").pooled())
        .collect()
}

/// A fit the scikit-learn baselines make, and where its accuracy goes.
struct Pending {
    n: usize,
    draw: String,
    question: String,
    truth: Vec<usize>,
}

fn curve(runtime: &tokio::runtime::Runtime, ctx: &Context, wanted: &str, seeds: u64) {
    let dev = std::env::var("LEARNING_DEV").is_ok_and(|v| v == "1");
    if dev {
        println!("(development run: scored on half of the pool, never on the fresh half)");
    }
    let captured: usize = std::env::var("LEARNING_CAPTURED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if captured > 0 {
        println!("(each model also holds {captured} captured states never annotated)");
    }
    let mut overall: HashMap<usize, Sums> = HashMap::new();
    for set in SETS
        .iter()
        .filter(|s| wanted.split(',').any(|w| w == s.name))
    {
        let questions_yaml =
            std::fs::read_to_string(format!("{DATA}/{}", set.questions)).expect("questions");
        let rows = rows(set);
        let base = format!("bench/{}", set.name);
        create_on(ctx, &base, &curve_base(), &questions_yaml);
        let questions = core::models::load(ctx, &model(&base), None)
            .expect("load")
            .questions;
        let ids: Vec<&String> = questions.keys().collect();
        // Zero-shot answers of every row, once.
        let started = Instant::now();
        let states: Vec<&Value> = rows.iter().map(|r| &r.state).collect();
        let zero: Vec<Answers> = decide(ctx, &base, None, &states);
        eprintln!(
            "{}: {} rows answered zero-shot in {:.1} s",
            set.name,
            rows.len(),
            started.elapsed().as_secs_f64()
        );
        let zero_of: HashMap<&str, &Answers> =
            rows.iter().map(|r| r.id.as_str()).zip(&zero).collect();
        let index_of: HashMap<&str, usize> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.as_str(), i))
            .collect();
        let mut tasks: Vec<sklearn::Task> = Vec::new();
        let mut pending: Vec<Pending> = Vec::new();
        let mut by_size: Vec<(usize, Sums)> =
            sizes().into_iter().map(|n| (n, Sums::default())).collect();
        for seed in 0..seeds {
            // Development runs never see the fresh half: the pool is split again, half
            // drawn from and half scored on.
            let (drawn, fresh) = split::split(rows.iter(), seed, dev, |r| r.id.as_str());
            let fresh_states: Vec<&Value> = fresh.iter().map(|r| &r.state).collect();
            for (n, sums) in &mut by_size {
                let fitted = &drawn[..(*n).min(drawn.len())];
                let path = format!("bench/{}-{seed}-{n}", set.name);
                create_on(ctx, &path, &curve_base(), &questions_yaml);
                let mut lines: Vec<String> = fitted.iter().map(|r| r.line.clone()).collect();
                // Captured states never annotated: the pool's next ones, their labels dropped.
                lines.extend(drawn.iter().skip(fitted.len()).take(captured).map(|r| {
                    serde_json::json!({"example_id": r.id, "state": r.state}).to_string()
                }));
                let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
                ingest(ctx, &path, &lines);
                let result = align(runtime, ctx, &path, seed);
                let aligned = result
                    .branch
                    .as_deref()
                    .map(|branch| decide(ctx, &path, Some(branch), &fresh_states));
                let draw_key = format!("{}/{seed}", set.name);
                let mut line = format!("{:<10} seed {seed} n {n:>3}:", set.name);
                let mut draw_gap = 0.0;
                let mut draw_luck = 0.0;
                for q in &ids {
                    let outcomes = outcome_keys(&questions[*q].kind).len();
                    let zero_p: Vec<Vec<f64>> = fresh
                        .iter()
                        .map(|r| predicted_of(&zero_of[r.id.as_str()][*q], outcomes))
                        .collect();
                    let aligned_p: Vec<Vec<f64>> = match &aligned {
                        Some(answers) => answers
                            .iter()
                            .map(|a| predicted_of(&a[*q], outcomes))
                            .collect(),
                        None => zero_p.clone(),
                    };
                    let a = accuracy(&questions, q, &fresh, &aligned_p);
                    let z = accuracy(&questions, q, &fresh, &zero_p);
                    let t = accuracy(
                        &questions,
                        q,
                        &fresh,
                        &tfidf_lr(fitted, &fresh, &questions, q),
                    );
                    let m = accuracy(
                        &questions,
                        q,
                        &fresh,
                        &majority(fitted, fresh.len(), &questions, q),
                    );
                    tasks.push(sklearn::Task {
                        train: fitted.iter().map(|r| index_of[r.id.as_str()]).collect(),
                        labels: fitted.iter().map(|r| outcome(&questions, q, r)).collect(),
                        test: fresh.iter().map(|r| index_of[r.id.as_str()]).collect(),
                        seed,
                    });
                    pending.push(Pending {
                        n: *n,
                        draw: draw_key.clone(),
                        question: (*q).clone(),
                        truth: fresh.iter().map(|r| outcome(&questions, q, r)).collect(),
                    });
                    let report = &result.questions[*q];
                    if report.improved
                        && let Some(after) = &report.after
                    {
                        sums.cv_gap += after.accuracy - a;
                        sums.cv_n += 1.0;
                    }
                    // What `align` reports it expects: the whole procedure's out-of-fold
                    // figure, whatever it chose (zero-shot's own figure only where it has
                    // nothing else).
                    let reported = report.after.as_ref().or(report.before.as_ref());
                    sums.reported_gap += reported.map_or(0.0, |m| m.accuracy - a);
                    draw_gap += reported.map_or(0.0, |m| m.accuracy - a);
                    // Zero-shot reads no label, so on average it scores the same on the
                    // annotated examples as on fresh ones; how far a draw's annotated
                    // examples were easier for it is that draw's luck, which a figure
                    // measured on them shares.
                    let zero_drawn: Vec<Vec<f64>> = fitted
                        .iter()
                        .map(|r| predicted_of(&zero_of[r.id.as_str()][*q], outcomes))
                        .collect();
                    let z_drawn = accuracy(&questions, q, fitted, &zero_drawn);
                    draw_luck += z_drawn - z;
                    sums.gains
                        .entry(format!("{}/{q}", set.name))
                        .or_default()
                        .push(a - z);
                    sums.aligned += a;
                    sums.tfidf += t;
                    sums.zero += z;
                    sums.majority += m;
                    sums.n += 1.0;
                    let draw = sums.draws.entry(draw_key.clone()).or_default();
                    draw.aligned += a;
                    draw.majority += m;
                    draw.n += 1.0;
                    let chosen = report.chosen.as_deref().unwrap_or("-");
                    let _ = write!(
                        line,
                        "  {q} {a:.3} (zero {z:.3}, {chosen}{}, reported {}; zero on the annotated {z_drawn:.3})",
                        if report.improved { "" } else { ", kept" },
                        reported.map_or("-".into(), |m| format!("{:.3}", m.accuracy)),
                    );
                }
                sums.reported_draws.push(draw_gap / ids.len() as f64);
                sums.lucky_draws
                    .push((draw_gap - draw_luck) / ids.len() as f64);
                if let Some(tuning) = &result.tuning {
                    let _ = write!(
                        line,
                        "  [tuned: {}]",
                        match (tuning.used, tuning.steps) {
                            (true, _) => "kept",
                            (false, 0) => "not run",
                            (false, _) => "not kept",
                        }
                    );
                }
                eprintln!("{line}");
            }
        }
        // The scikit-learn baselines of every draw, size and question, in one run.
        let started = Instant::now();
        let texts: Vec<String> = rows.iter().map(|r| text_of(&r.state)).collect();
        let embeddings: Vec<(&str, Vec<Vec<f32>>)> = FROZEN
            .iter()
            .map(|(name, base_model)| {
                let path = format!("bench/{}-{name}", set.name);
                create_on(ctx, &path, base_model, &questions_yaml);
                (*name, pooled(ctx, &path, &rows))
            })
            .collect();
        let predicted = sklearn::run(set.name, &texts, &embeddings, &tasks);
        eprintln!(
            "{}: {} scikit-learn fits of each baseline in {:.1} s",
            set.name,
            tasks.len(),
            started.elapsed().as_secs_f64()
        );
        for (fit, predicted) in pending.iter().zip(&predicted) {
            let sums = &mut by_size
                .iter_mut()
                .find(|(n, _)| *n == fit.n)
                .expect("a size")
                .1;
            for (b, (name, _)) in SKLEARN.iter().enumerate() {
                let p = &predicted[*name];
                let right = p.iter().zip(&fit.truth).filter(|(p, t)| p == t).count();
                let acc = right as f64 / fit.truth.len().max(1) as f64;
                sums.sklearn[b] += acc;
                sums.draws.get_mut(&fit.draw).expect("a draw").sklearn[b] += acc;
                if std::env::var("LEARNING_VERBOSE").is_ok() {
                    eprintln!("{} n {} {}: {name} {acc:.3}", fit.draw, fit.n, fit.question);
                }
            }
        }
        println!(
            "\n== {} ({} rows; {} seeds; accuracy on never-annotated examples, mean over seeds and questions) ==",
            set.name,
            rows.len(),
            seeds
        );
        print_table(&by_size);
        for (n, sums) in by_size {
            overall.entry(n).or_default().add(sums);
        }
    }
    let mut all: Vec<(usize, Sums)> = overall.into_iter().collect();
    all.sort_by_key(|(n, _)| *n);
    println!("\n== all sets ==");
    print_table(&all);
}

fn print_table(rows: &[(usize, Sums)]) {
    println!(
        "{:>9} {:>8} {:>12} {:>13} {:>13} {:>9} {:>10} {:>12} {:>30} {:>16} {:>14} {:>17} {:>7} {:>26}  (the worst question)",
        "annotated",
        "aligned",
        SKLEARN[0].1,
        SKLEARN[1].1,
        SKLEARN[2].1,
        "majority",
        "zero-shot",
        "tfidf C=1",
        "aligned − best line ± s.e.",
        "worst question",
        "cv − fresh",
        "reported − fresh",
        "± s.e.",
        "less the draw's luck ± s.e."
    );
    for (n, s) in rows {
        let d = s.n.max(1.0);
        let (worst, gain) = s.worst().map_or(("-", (f64::NAN, f64::NAN)), |(q, g)| {
            (q, (mean(g), standard_error(g)))
        });
        let (best, diff, diff_error) = s.against_best();
        println!(
            "{:>9} {:>8.3} {:>12.3} {:>13.3} {:>13.3} {:>9.3} {:>10.3} {:>12.3} {:>30} {:>+8.3} ± {:>5.3} {:>+14.3} {:>+17.3} {:>7.3} {:>26}  {}",
            n,
            s.aligned / d,
            s.sklearn[0] / d,
            s.sklearn[1] / d,
            s.sklearn[2] / d,
            s.majority / d,
            s.zero / d,
            s.tfidf / d,
            format!("{diff:+.3} ± {diff_error:.3} ({best})"),
            gain.0,
            gain.1,
            s.cv_gap / s.cv_n.max(1.0),
            s.reported_gap / d,
            s.reported_error(),
            format!(
                "{:+.3} ± {:.3}",
                mean(&s.lucky_draws),
                standard_error(&s.lucky_draws)
            ),
            worst
        );
    }
}

fn timing(runtime: &tokio::runtime::Runtime, ctx: &Context, home: &std::path::Path) {
    // 500 generated tickets × the support questions and a fourth.
    let dir = tempfile::tempdir().expect("temp dir");
    let text = generate(dir.path(), 500, 21);
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut value: Value = serde_json::from_str(line).expect("a row");
            let urgent = value["annotations"]["urgency"]["answer"]
                .as_u64()
                .unwrap_or(0)
                >= 3;
            value["annotations"]["urgent"] = serde_json::json!({"answer": urgent});
            value.to_string()
        })
        .collect();
    let mut questions =
        std::fs::read_to_string(format!("{DATA}/support/questions.yaml")).expect("questions");
    questions.push_str(
        "urgent:\n  type: noul\n  instructions: Does the customer need an answer today?\n",
    );
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    // 64 examples first (nested cross-validation below 100: the costlier choice per label),
    // then all 500, each in a model of its own.
    let mut result = None;
    for (n, target) in [(64, 180.0), (refs.len(), 600.0)] {
        let path = format!("bench/time-{n}");
        create(ctx, &path, &questions);
        ingest(ctx, &path, &refs[..n]);
        let started = Instant::now();
        let aligned = align(runtime, ctx, &path, 1);
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "\n== wall time: aligning {n} annotated examples × 4 questions: {seconds:.1} s on {} cores (target ≤ {target} s); improved: {} ==",
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            aligned.questions.values().filter(|q| q.improved).count()
        );
        if let Some(tuning) = &aligned.tuning {
            println!(
                "fine-tune: used {}, {} examples, {} steps; {}",
                tuning.used, tuning.examples, tuning.steps, tuning.reason
            );
        }
        result = Some(aligned);
    }
    let result = result.expect("aligned");
    // A decision's cost at the aligned checkpoint against the base, on the same states,
    // each read once by each (a fresh process's cache): generated tickets of another seed.
    let states: Vec<Value> = generate(dir.path(), 300, 22)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("a row")["state"].clone())
        .collect();
    let aligned_branch = result.branch.clone().expect("an aligned checkpoint");
    for (branch, what) in [
        (aligned_branch.clone(), "the aligned checkpoint"),
        (
            tuned_checkpoint(home, "bench/time-500", &aligned_branch, &states),
            "the aligned checkpoint, its encoder fine-tuned",
        ),
    ] {
        decision_cost(ctx, &states, &branch, what);
    }
}

/// A branch of `path` off `branch` whose heads read the encoder fine-tuned on 32 of
/// `states` (a delta of the size `align --tune` keeps, its manifest entry as align writes
/// it): the cost of a decision at a tuned checkpoint. The heads were fitted on the base
/// vectors, so its answers are not the point here, only what they cost.
fn tuned_checkpoint(home: &std::path::Path, path: &str, branch: &str, states: &[Value]) -> String {
    use arbiter::engine::builtin::tuned::{Budget, Layered, fine_tune};
    let layered = Layered::load().expect("the layered encoder");
    let texts: Vec<String> = states.iter().take(32).map(text_of).collect();
    let inputs: Vec<_> = texts
        .iter()
        .map(|t| layered.top_inputs(t).expect("top inputs"))
        .collect();
    let refs: Vec<_> = inputs.iter().collect();
    let pairs: Vec<(usize, usize, f64)> = (0..refs.len())
        .flat_map(|i| {
            (0..refs.len())
                .filter(move |&j| j != i)
                .map(move |j| (i, j, f64::from(u8::from(i % 2 == j % 2))))
        })
        .collect();
    let delta = fine_tune(&layered, &refs, &pairs, Budget::DEFAULT, 7, &mut |_, _| {
        true
    })
    .expect("a fine-tune");
    let bytes = delta.to_bytes().expect("the delta's bytes");
    let sha = arbiter::engine::builtin::learned::file::sha256(&bytes);
    let repo = home.join(format!("repos/{path}.git"));
    let work = home.join("tuned-work");
    let git = |dir: &std::path::Path, args: &[&str]| {
        let exit = std::process::Command::new("git")
            .current_dir(dir)
            .args([
                "-c",
                "user.name=bench",
                "-c",
                "user.email=bench@example.com",
            ])
            .args(args)
            .status()
            .expect("git");
        assert!(exit.success(), "git {args:?}");
    };
    let repo = repo.to_str().expect("a UTF-8 path");
    git(
        home,
        &["clone", "-q", "--branch", branch, repo, "tuned-work"],
    );
    let manifest_path = work.join("learned/manifest.yaml");
    let manifest = std::fs::read_to_string(&manifest_path).expect("the manifest");
    let tuned = manifest
        .replacen(
            "\nquestions:",
            &format!(
                "\ntuned:\n  file: encoder.safetensors\n  sha256: {sha}\n  layer: 2\n  rank: 8\n  \
                 examples: {}\n  steps: {}\nquestions:",
                refs.len(),
                Budget::DEFAULT.steps
            ),
            1,
        )
        .replace("embedding: pooled\n", "embedding: pooled-tuned\n");
    let heads = tuned.matches("embedding: pooled-tuned\n").count();
    assert!(heads > 0, "no head reads the tuned encoder: {tuned}");
    println!(
        "(a tuned checkpoint: {heads} heads read the encoder fine-tuned on {} states)",
        refs.len()
    );
    std::fs::write(&manifest_path, tuned).expect("write the manifest");
    std::fs::write(work.join("learned/encoder.safetensors"), &bytes).expect("write the delta");
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-qm", "tuned"]);
    git(
        &work,
        &["push", "-q", "origin", "HEAD:refs/heads/bench-tuned"],
    );
    "bench-tuned".to_owned()
}

/// A decision's cost at `branch` of the 500-example model against a zero-shot one, on the
/// same states, each read once by each (a fresh process's cache: each round, and each
/// branch measured, marks its states anew).
fn decision_cost(ctx: &Context, states: &[Value], branch: &str, what: &str) {
    let mut ratios = Vec::new();
    for round in 0..3 {
        let (zero_states, aligned_states) = states.split_at(states.len() / 2);
        // Alternate which half each reads, so neither gets the cheaper texts.
        let (z, a) = if round % 2 == 0 {
            (zero_states, aligned_states)
        } else {
            (aligned_states, zero_states)
        };
        let mark = |s: &Value, r: usize| {
            let mut s = s.clone();
            s["round"] = Value::from(format!("{branch} {r}"));
            s
        };
        let z: Vec<Value> = z.iter().map(|s| mark(s, round)).collect();
        let a: Vec<Value> = a.iter().map(|s| mark(s, round)).collect();
        let zr: Vec<&Value> = z.iter().collect();
        let ar: Vec<&Value> = a.iter().collect();
        let started = Instant::now();
        decide(ctx, "bench/time-500", None, &zr);
        let zero = started.elapsed().as_secs_f64();
        let started = Instant::now();
        decide(ctx, "bench/time-500", Some(branch), &ar);
        let aligned = started.elapsed().as_secs_f64();
        ratios.push(aligned / zero);
        println!(
            "decisions, round {round}: zero-shot {:.2} ms, aligned {:.2} ms per state: {:.3}×",
            zero * 1e3 / z.len() as f64,
            aligned * 1e3 / a.len() as f64,
            aligned / zero
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "== a decision at {what} costs {:.3}× a zero-shot one (median of 3; target ≤ 1.15×) ==",
        ratios[1]
    );
}

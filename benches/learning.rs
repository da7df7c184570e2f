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
//! - TF-IDF + logistic regression: scikit-learn's defaults, in Rust: lowercased words of
//!   two or more word characters, 1- and 2-grams, smoothed IDF, unit rows
//!   (`TfidfVectorizer(ngram_range=(1, 2))`), then multinomial logistic regression with an
//!   L2 penalty of C = 1 and an unpenalized intercept, by L-BFGS (`LogisticRegression()`).
//!
//! Printed per set and size: mean accuracy over seeds and questions of each; the worst
//! question's (aligned − zero-shot), averaged over seeds, with its standard error over them
//! (is a dip more than the draws' noise?) and its name; and the mean (cross-validated − fresh)
//! accuracy of the questions the alignment improved (its out-of-fold figure against what it
//! then scores: how far the figure `align` reports is from what a user then sees); and the
//! same over every question ("reported − fresh"), a question the gate kept counted by the
//! zero-shot figure `align` reports for it, with its standard error over the draws (a set
//! and a seed: its questions share their examples, so they are not independent).
//! Then the wall time of aligning 500 annotated examples × 4 questions, and the cost of a
//! decision at an aligned checkpoint against a zero-shot one.
//!
//! Run: `cargo bench --bench learning` (`LEARNING_SETS=support,spam` for some sets,
//! `LEARNING_SEEDS=2` for fewer seeds, `LEARNING_SIZES=8,16` for some sizes,
//! `LEARNING_PARTS=curve` or `time` for one part).
//! `LEARNING_DEV=1` is for developing the learner: it scores on half of the pool instead,
//! so that choices are never made on the examples the figures are reported on.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::too_many_lines)]

use arbiter::config::Settings;
use arbiter::core::checkpoint::CapturePolicy;
use arbiter::core::metrics::{argmax, label_of, predicted_of};
use arbiter::core::models::CreateModel;
use arbiter::core::{self, Context};
use arbiter::engine::builtin::aligned::outcome_keys;
use arbiter::learned::head::softmax;
use arbiter::learned::lbfgs::Stop;
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
    core::models::create(
        ctx,
        &CreateModel {
            path: path.parse().expect("model path"),
            base: "mo".into(),
            questions_yaml: Some(questions.to_owned()),
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
    let job = runtime.block_on(async {
        let (_, lock) = core::align::create(
            ctx,
            core::align::NewAlignment {
                model: &model(path),
                request: AlignmentRequest {
                    seed,
                    ..AlignmentRequest::default()
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
                .decide_blocking(state, &loaded.questions)
                .expect("decide")
                .answers
        })
        .collect()
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

#[derive(Default)]
struct Sums {
    aligned: f64,
    tfidf: f64,
    zero: f64,
    majority: f64,
    n: f64,
    /// Per question: (aligned − zero-shot), one per seed.
    gains: HashMap<String, Vec<f64>>,
    cv_gap: f64,
    cv_n: f64,
    /// (reported − fresh) over every question: the figure `align` reports for what the
    /// checkpoint answers (out of fold for a head it committed, zero-shot's for a question
    /// it kept), against what that question then scores.
    reported_gap: f64,
    /// Per draw (a set and a seed, whose questions share their examples): the mean
    /// (reported − fresh) over its questions. The draws are independent, so their spread
    /// is the figure's noise.
    reported_draws: Vec<f64>,
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
        timing(&runtime, &ctx);
    }
}

fn curve(runtime: &tokio::runtime::Runtime, ctx: &Context, wanted: &str, seeds: u64) {
    let dev = std::env::var("LEARNING_DEV").is_ok_and(|v| v == "1");
    if dev {
        println!("(development run: scored on half of the pool, never on the fresh half)");
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
        create(ctx, &base, &questions_yaml);
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
                create(ctx, &path, &questions_yaml);
                let lines: Vec<&str> = fitted.iter().map(|r| r.line.as_str()).collect();
                ingest(ctx, &path, &lines);
                let result = align(runtime, ctx, &path, seed);
                let aligned = result
                    .branch
                    .as_deref()
                    .map(|branch| decide(ctx, &path, Some(branch), &fresh_states));
                let mut line = format!("{:<10} seed {seed} n {n:>3}:", set.name);
                let mut draw_gap = 0.0;
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
                    let report = &result.questions[*q];
                    if report.improved
                        && let Some(after) = &report.after
                    {
                        sums.cv_gap += after.accuracy - a;
                        sums.cv_n += 1.0;
                    }
                    let reported = if report.improved {
                        report.after.as_ref()
                    } else {
                        report.before.as_ref()
                    };
                    sums.reported_gap += reported.map_or(0.0, |m| m.accuracy - a);
                    draw_gap += reported.map_or(0.0, |m| m.accuracy - a);
                    sums.gains
                        .entry(format!("{}/{q}", set.name))
                        .or_default()
                        .push(a - z);
                    sums.aligned += a;
                    sums.tfidf += t;
                    sums.zero += z;
                    sums.majority += m;
                    sums.n += 1.0;
                    let chosen = report
                        .candidate
                        .as_deref()
                        .and_then(|c| c.split_once(" (penalty "))
                        .map(|(link, rest)| {
                            format!(" {} {}", &link[..3], rest.split(';').next().unwrap_or(""))
                        })
                        .unwrap_or_default();
                    let _ = write!(
                        line,
                        "  {q} {a:.3} (tfidf {t:.3}, zero {z:.3}{}{chosen})",
                        if report.improved { "" } else { ", kept" }
                    );
                }
                sums.reported_draws.push(draw_gap / ids.len() as f64);
                eprintln!("{line}");
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
            let total = overall.entry(n).or_default();
            total.aligned += sums.aligned;
            total.tfidf += sums.tfidf;
            total.zero += sums.zero;
            total.majority += sums.majority;
            total.n += sums.n;
            total.gains.extend(sums.gains);
            total.cv_gap += sums.cv_gap;
            total.cv_n += sums.cv_n;
            total.reported_gap += sums.reported_gap;
            total.reported_draws.extend(sums.reported_draws);
        }
    }
    let mut all: Vec<(usize, Sums)> = overall.into_iter().collect();
    all.sort_by_key(|(n, _)| *n);
    println!("\n== all sets ==");
    print_table(&all);
}

fn print_table(rows: &[(usize, Sums)]) {
    println!(
        "{:>9} {:>9} {:>12} {:>10} {:>9} {:>15} {:>7} {:>13} {:>17} {:>7}  (the worst question)",
        "annotated",
        "aligned",
        "tfidf+logreg",
        "zero-shot",
        "majority",
        "worst question",
        "± s.e.",
        "cv − fresh",
        "reported − fresh",
        "± s.e."
    );
    for (n, s) in rows {
        let d = s.n.max(1.0);
        let (worst, gain) = s.worst().map_or(("-", (f64::NAN, f64::NAN)), |(q, g)| {
            (q, (mean(g), standard_error(g)))
        });
        println!(
            "{:>9} {:>9.3} {:>12.3} {:>10.3} {:>9.3} {:>+15.3} {:>7.3} {:>+13.3} {:>+17.3} {:>7.3}  {}",
            n,
            s.aligned / d,
            s.tfidf / d,
            s.zero / d,
            s.majority / d,
            gain.0,
            gain.1,
            s.cv_gap / s.cv_n.max(1.0),
            s.reported_gap / d,
            s.reported_error(),
            worst
        );
    }
}

fn timing(runtime: &tokio::runtime::Runtime, ctx: &Context) {
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
    create(ctx, "bench/time", &questions);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    ingest(ctx, "bench/time", &refs);
    let started = Instant::now();
    let result = align(runtime, ctx, "bench/time", 1);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "\n== wall time: aligning {} annotated examples × 4 questions: {seconds:.1} s on {} cores (target ≤ 30 s); improved: {} ==",
        lines.len(),
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        result.questions.values().filter(|q| q.improved).count()
    );
    // A decision's cost at the aligned checkpoint against the base, on the same states,
    // each read once by each (a fresh process's cache): generated tickets of another seed.
    let states: Vec<Value> = generate(dir.path(), 300, 22)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("a row")["state"].clone())
        .collect();
    let branch = result.branch.expect("an aligned checkpoint");
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
            s["round"] = Value::from(r);
            s
        };
        let z: Vec<Value> = z.iter().map(|s| mark(s, round)).collect();
        let a: Vec<Value> = a.iter().map(|s| mark(s, round)).collect();
        let zr: Vec<&Value> = z.iter().collect();
        let ar: Vec<&Value> = a.iter().collect();
        let started = Instant::now();
        decide(ctx, "bench/time", None, &zr);
        let zero = started.elapsed().as_secs_f64();
        let started = Instant::now();
        decide(ctx, "bench/time", Some(&branch), &ar);
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
        "== a decision at the aligned checkpoint costs {:.3}× a zero-shot one (median of 3; target ≤ 1.15×) ==",
        ratios[1]
    );
}

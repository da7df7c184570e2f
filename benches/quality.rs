//! Zero-shot quality of the built-in base models on labelled sets, two of them labelled by
//! people outside this project.
//!
//! Sets (`examples/README.md` says where each label comes from):
//! - `support`: 600 synthetic support tickets, labelled by construction (`generate.py`);
//! - `spam`: 480 emails of the Apache `SpamAssassin` public corpus, labelled by its curators;
//! - `sentiment`: 480 sentences rated by at least 20 people each (VADER's ground truth).
//!
//! Each state is sent once per base model, with all of its set's questions, through the
//! public routing: `Engines::builtin()`, then the named engine's `Engine::decide`, so this
//! measures whatever engine each name runs. Per set, question and model it reports
//! accuracy, macro-F1, mean log loss and ECE, and the same figures for two baselines that
//! read no text: `majority` (always the most frequent label, the label frequencies as its
//! probabilities) and `uniform` (equal probabilities, decided by the engine's rules); then
//! each model's recall of every label (where it goes wrong).
//!
//! Then two summary tables of means over questions (unweighted): by set and overall, and by
//! question type. Timing goes to stderr, tables and the total time to stdout.
//!
//! Run: `cargo bench --bench quality`. Subsets: `QUALITY_SETS=spam,support`,
//! `QUALITY_MODELS=mo`. `QUALITY_UNSUPERVISED=1` adds a column per model with its choice and
//! score questions corrected on the set's own states, labels unread (`<model>+unsup`, as
//! `arbiter align --unsupervised` corrects them on captured states).
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::too_many_lines)]

use arbiter::engine::builtin::aligned::AlignedInstructions;
use arbiter::engine::builtin::aligned::unsupervised;
use arbiter::engine::{EngineRequest, Engines};
use arbiter::wire::align::MIN_EXAMPLES;
use arbiter::wire::answer::Distribution;
use arbiter::wire::question::parse_questions;
use arbiter::wire::value::parse_yaml;
use arbiter::wire::{Answer, Loc, Question, QuestionKind, Questions};
use futures_util::StreamExt as _;
use indexmap::IndexMap;
use metrics::{Figures, Prediction};
use serde_json::Value;
use std::fmt::Write as _;
use std::time::Instant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
/// Set name, questions file, labelled examples file.
const SETS: [(&str, &str, &str); 3] = [
    (
        "support",
        "support/questions.yaml",
        "support/labelled.jsonl",
    ),
    ("spam", "spam/questions.yaml", "spam/labelled.jsonl"),
    (
        "sentiment",
        "sentiment/questions.yaml",
        "sentiment/labelled.jsonl",
    ),
];
const MODELS: [&str; 3] = ["mo", "mo-reasoning", "jev-latest"];
const TYPES: [&str; 3] = ["noul", "choice", "score"];

/// One labelled set: its questions, states, and per question the label of every state as
/// an outcome index (noul: 0 = true, 1 = false; choice: option index; score: level).
struct Set {
    name: &'static str,
    questions: Questions,
    states: Vec<Value>,
    labels: Vec<Vec<usize>>,
}

/// The figures of one question for every model and baseline, in column order.
struct Row {
    set: &'static str,
    kind: &'static str,
    columns: Vec<Figures>,
}

fn main() {
    metrics::self_check();
    let sets = load_sets(&selected("QUALITY_SETS", &SETS.map(|(name, _, _)| name)));
    let models = selected("QUALITY_MODELS", &MODELS);
    let unsupervised = std::env::var_os("QUALITY_UNSUPERVISED").is_some();
    let mut columns: Vec<String> = vec!["majority".into(), "uniform".into()];
    columns.extend(models.iter().map(|m| (*m).to_owned()));
    if unsupervised {
        columns.extend(models.iter().map(|m| format!("{m}+unsup")));
    }

    let started = Instant::now();
    let engines = Engines::builtin();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    // predictions[model][set][example] = the engine's answers, in question order.
    let mut predictions: Vec<Vec<Vec<Vec<Prediction>>>> = models
        .iter()
        .map(|model| {
            sets.iter()
                .map(|set| runtime.block_on(decide_all(&engines, model, &set.questions, set)))
                .collect()
        })
        .collect();
    // Then each model with its questions corrected on the set's states, labels unread: as
    // `arbiter align --unsupervised` corrects them on a model's captured states.
    if unsupervised {
        for model in &models {
            let per_set = sets
                .iter()
                .map(|set| {
                    let corrected = corrected(&engines, model, set);
                    runtime.block_on(decide_all(&engines, model, &corrected, set))
                })
                .collect();
            predictions.push(per_set);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();

    let mut out = String::new();
    let _ = writeln!(
        out,
        "quality: zero-shot, {} base model(s) x {} set(s); accuracy (noul: p >= 0.5 is true; \
         choice: the answer's choice; score: the level nearest the expected level), macro-F1 \
         (over the labels that occur or are predicted), mean log loss (nats, p clipped at 1e-6), \
         ECE (10 equal-width bins over the predicted label's probability)",
        models.len(),
        sets.len()
    );
    let mut rows = Vec::new();
    for (s, set) in sets.iter().enumerate() {
        for (q, (qid, question)) in set.questions.iter().enumerate() {
            let labels = &set.labels[q];
            let k = outcomes(&question.kind).len();
            let mut figures = vec![
                Figures::of(labels, &vec![metrics::majority(labels, k); labels.len()], k),
                Figures::of(labels, &vec![uniform(question); labels.len()], k),
            ];
            for per_model in &predictions {
                let own: Vec<Prediction> = per_model[s].iter().map(|p| p[q].clone()).collect();
                figures.push(Figures::of(labels, &own, k));
            }
            let counts = outcomes(&question.kind)
                .iter()
                .enumerate()
                .map(|(i, name)| format!("{name} {}", labels.iter().filter(|l| **l == i).count()))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(
                out,
                "\n== {} / {qid} ({}), {} examples; labels: {counts} ==",
                set.name,
                question.kind.type_name(),
                labels.len()
            );
            let _ = writeln!(
                out,
                "  {:<14} {:>8} {:>8} {:>8} {:>8}",
                "", "accuracy", "macro-F1", "log loss", "ECE"
            );
            for (name, f) in columns.iter().zip(&figures) {
                let _ = writeln!(
                    out,
                    "  {name:<14} {:>8.3} {:>8.3} {:>8.3} {:>8.3}",
                    f.accuracy, f.macro_f1, f.log_loss, f.ece
                );
            }
            let names = outcomes(&question.kind);
            let width = names.iter().map(String::len).max().unwrap_or(0).max(5);
            let mut line = format!("  {:<14}", "recall of");
            for name in &names {
                let _ = write!(line, " {name:>width$}");
            }
            let _ = writeln!(out, "{line}");
            for (name, f) in columns.iter().zip(&figures).skip(2) {
                let mut line = format!("  {name:<14}");
                for recall in &f.recall {
                    match recall {
                        Some(r) => write!(line, " {r:>width$.3}"),
                        None => write!(line, " {:>width$}", "-"),
                    }
                    .expect("writing to a String");
                }
                let _ = writeln!(out, "{line}");
            }
            rows.push(Row {
                set: set.name,
                kind: question.kind.type_name(),
                columns: figures,
            });
        }
    }

    for (title, pick) in [
        (
            "accuracy",
            (|f: &Figures| f.accuracy) as fn(&Figures) -> f64,
        ),
        ("macro-F1", |f: &Figures| f.macro_f1),
    ] {
        let _ = writeln!(out, "\n== summary: mean {title} over questions ==");
        let mut line = format!("  {:<18} {:>9}", "", "questions");
        for c in &columns {
            let _ = write!(line, " {c:>12}");
        }
        let _ = writeln!(out, "{line}");
        let mut groups: Vec<(String, Vec<&Row>)> = sets
            .iter()
            .map(|set| {
                let name = format!("set {}", set.name);
                (name, rows.iter().filter(|r| r.set == set.name).collect())
            })
            .collect();
        groups.push(("all sets".to_owned(), rows.iter().collect()));
        for kind in TYPES {
            let members: Vec<&Row> = rows.iter().filter(|r| r.kind == kind).collect();
            if !members.is_empty() {
                groups.push((format!("type {kind}"), members));
            }
        }
        for (name, members) in groups {
            let mut line = format!("  {name:<18} {:>9}", members.len());
            for c in 0..columns.len() {
                let mean =
                    members.iter().map(|r| pick(&r.columns[c])).sum::<f64>() / members.len() as f64;
                let _ = write!(line, " {mean:>12.3}");
            }
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(
        out,
        "\n{} states x {} model(s) decided in {elapsed:.1}s on {} core(s)",
        sets.iter().map(|s| s.states.len()).sum::<usize>(),
        models.len(),
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    );
    print!("{out}");
}

/// The names of `env` (comma-separated), all of `known` when unset; an unknown name panics.
fn selected(env: &str, known: &[&'static str]) -> Vec<&'static str> {
    let Ok(list) = std::env::var(env) else {
        return known.to_vec();
    };
    let wanted: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    for name in &wanted {
        assert!(
            known.contains(name),
            "{env}: unknown {name:?}; known: {known:?}"
        );
    }
    known
        .iter()
        .copied()
        .filter(|k| wanted.contains(k))
        .collect()
}

fn load_sets(names: &[&'static str]) -> Vec<Set> {
    SETS.iter()
        .filter(|(name, _, _)| names.contains(name))
        .map(|(name, questions, examples)| load_set(name, questions, examples))
        .collect()
}

fn load_set(name: &'static str, questions_file: &str, examples_file: &str) -> Set {
    let read = |file: &str| {
        std::fs::read_to_string(format!("{DATA}/{file}"))
            .unwrap_or_else(|e| panic!("reading {file}: {e}"))
    };
    let value = parse_yaml(&read(questions_file)).expect("questions YAML");
    let mut errors = Vec::new();
    let questions = parse_questions(&value, &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{questions_file}: {errors:?}");
    let mut states = Vec::new();
    let mut labels = vec![Vec::new(); questions.len()];
    for line in read(examples_file).lines().filter(|l| !l.trim().is_empty()) {
        let example: Value = serde_json::from_str(line).expect("a JSON line");
        let id = &example["example_id"];
        for (q, (qid, question)) in questions.iter().enumerate() {
            let answer = &example["annotations"][qid]["answer"];
            let label = label(&question.kind, answer)
                .unwrap_or_else(|| panic!("{examples_file} {id}: bad {qid} answer {answer}"));
            labels[q].push(label);
        }
        states.push(example["state"].clone());
    }
    Set {
        name,
        questions,
        states,
        labels,
    }
}

/// An annotation's answer as an outcome index.
fn label(kind: &QuestionKind, answer: &Value) -> Option<usize> {
    match kind {
        QuestionKind::Noul { .. } => answer.as_bool().map(|truth| usize::from(!truth)),
        QuestionKind::Choice { options } => {
            let key = answer.as_str()?;
            options.iter().position(|(k, _)| k == key)
        }
        QuestionKind::Score { levels } => answer
            .as_u64()
            .and_then(|l| usize::try_from(l).ok())
            .filter(|l| *l < levels.len()),
    }
}

/// Outcome names in index order.
fn outcomes(kind: &QuestionKind) -> Vec<String> {
    match kind {
        QuestionKind::Noul { .. } => vec!["true".to_owned(), "false".to_owned()],
        QuestionKind::Choice { options } => options.iter().map(|(k, _)| k.clone()).collect(),
        QuestionKind::Score { levels } => (0..levels.len()).map(|l| l.to_string()).collect(),
    }
}

/// Every state of `set` decided by `model`: per state, one prediction per question.
/// `set`'s questions, each choice and score corrected without annotations on the set's
/// states (a noul is left as it is), through the same correction as `arbiter align
/// --unsupervised`.
fn corrected(engines: &Engines, model: &str, set: &Set) -> Questions {
    let engine = engines
        .get(model)
        .and_then(|e| e.as_builtin())
        .unwrap_or_else(|| panic!("{model} is not a built-in base model"));
    let embedded: Vec<_> = set
        .states
        .iter()
        .map(|state| engine.embed_state(state).expect("embedding a state"))
        .collect();
    set.questions
        .iter()
        .map(|(id, question)| {
            let similarities: Vec<Vec<f64>> = embedded
                .iter()
                .map(|state| engine.similarities(state, question).expect("similarities"))
                .collect();
            let corrected = match unsupervised::correction(question, &similarities, MIN_EXAMPLES) {
                Ok(calibration) => {
                    let instructions = AlignedInstructions {
                        task: question.instructions.clone(),
                        examples: Vec::new(),
                        cues: IndexMap::new(),
                        arbiter_alignment: calibration,
                    };
                    Question {
                        instructions: Some(
                            serde_json::to_value(instructions).expect("an alignment as JSON"),
                        ),
                        kind: question.kind.clone(),
                    }
                }
                Err(_) => question.clone(),
            };
            (id.clone(), corrected)
        })
        .collect()
}

async fn decide_all(
    engines: &Engines,
    model: &str,
    questions: &Questions,
    set: &Set,
) -> Vec<Vec<Prediction>> {
    let engine = engines
        .get(model)
        .unwrap_or_else(|| panic!("{model} is not a base model"));
    let started = Instant::now();
    // The built-in engine runs each decision on a blocking thread: one per core.
    let results: Vec<Vec<Prediction>> = futures_util::stream::iter(&set.states)
        .map(|state| async move {
            let output = engine
                .decide(EngineRequest {
                    model,
                    state,
                    questions,
                    heads: &arbiter::engine::builtin::learned::NONE,
                    truncate: true,
                })
                .await
                .unwrap_or_else(|e| panic!("{model} on {}: {e:#}", set.name));
            questions
                .iter()
                .map(|(qid, question)| prediction(question, &output.answers[qid.as_str()]))
                .collect()
        })
        .buffered(engine.max_in_flight())
        .collect()
        .await;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{model:<13} {:<10} {} states in {secs:.1}s ({:.1}/s)",
        set.name,
        set.states.len(),
        set.states.len() as f64 / secs
    );
    results
}

/// An answer as a prediction: its probabilities in outcome order, and the outcome it
/// answers (noul: true when p >= 0.5; choice: its choice; score: the nearest level).
fn prediction(question: &Question, answer: &Answer) -> Prediction {
    match (&question.kind, answer) {
        (QuestionKind::Noul { .. }, Answer::Noul { noul, .. }) => Prediction {
            probs: vec![*noul, 1.0 - noul],
            predicted: usize::from(*noul < 0.5),
        },
        (
            QuestionKind::Choice { options },
            Answer::Choice {
                choice,
                probabilities,
                ..
            },
        ) => Prediction {
            probs: options
                .iter()
                .map(|(k, _)| probabilities[k.as_str()])
                .collect(),
            predicted: options
                .iter()
                .position(|(k, _)| Some(k) == choice.as_ref())
                .expect("a choice among the options"),
        },
        (
            QuestionKind::Score { levels },
            Answer::Score {
                score,
                probabilities,
                ..
            },
        ) => Prediction {
            probs: (0..levels.len())
                .map(|l| probabilities[l.to_string().as_str()])
                .collect(),
            predicted: (score.round().max(0.0) as usize).min(levels.len() - 1),
        },
        _ => panic!("an answer of another type than its question"),
    }
}

/// Equal probabilities, turned into an answer and read back as the engine's answers are.
fn uniform(question: &Question) -> Prediction {
    let k = outcomes(&question.kind).len();
    let answer = Answer::from_distribution(question, &Distribution::Outcomes(vec![1.0; k]));
    prediction(question, &answer)
}

/// The figures, kept simple enough to check by eye; `self_check` runs them on small cases.
mod metrics {
    /// One prediction: a probability per outcome, and the outcome predicted.
    #[derive(Clone, Debug)]
    pub(crate) struct Prediction {
        pub(crate) probs: Vec<f64>,
        pub(crate) predicted: usize,
    }

    pub(crate) struct Figures {
        pub(crate) accuracy: f64,
        pub(crate) macro_f1: f64,
        pub(crate) log_loss: f64,
        pub(crate) ece: f64,
        /// Per outcome, the share of its examples predicted right (none without examples).
        pub(crate) recall: Vec<Option<f64>>,
    }

    const CLIP: f64 = 1e-6;
    const BINS: usize = 10;

    impl Figures {
        pub(crate) fn of(labels: &[usize], predictions: &[Prediction], outcomes: usize) -> Self {
            assert_eq!(labels.len(), predictions.len());
            let predicted: Vec<usize> = predictions.iter().map(|p| p.predicted).collect();
            Self {
                accuracy: accuracy(labels, &predicted),
                macro_f1: macro_f1(labels, &predicted),
                log_loss: log_loss(labels, predictions),
                ece: ece(labels, predictions),
                recall: (0..outcomes)
                    .map(|c| recall(labels, &predicted, c))
                    .collect(),
            }
        }
    }

    pub(crate) fn accuracy(labels: &[usize], predicted: &[usize]) -> f64 {
        let right = labels.iter().zip(predicted).filter(|(l, p)| l == p).count();
        right as f64 / labels.len() as f64
    }

    /// The share of the examples labelled `class` that are predicted `class`.
    pub(crate) fn recall(labels: &[usize], predicted: &[usize], class: usize) -> Option<f64> {
        let of_class = labels.iter().filter(|l| **l == class).count();
        let right = labels
            .iter()
            .zip(predicted)
            .filter(|(l, p)| **l == class && **p == class)
            .count();
        (of_class > 0).then(|| right as f64 / of_class as f64)
    }

    /// The mean over classes of F1 = 2·TP / (2·TP + FP + FN), over every class that is a
    /// label or a prediction at least once (as scikit-learn's `f1_score(average="macro")`).
    pub(crate) fn macro_f1(labels: &[usize], predicted: &[usize]) -> f64 {
        let mut classes: Vec<usize> = labels.iter().chain(predicted).copied().collect();
        classes.sort_unstable();
        classes.dedup();
        let f1 = |c: usize| {
            let pairs = || labels.iter().zip(predicted);
            let tp = pairs().filter(|(l, p)| **l == c && **p == c).count();
            let fp = pairs().filter(|(l, p)| **l != c && **p == c).count();
            let fn_ = pairs().filter(|(l, p)| **l == c && **p != c).count();
            (2 * tp) as f64 / (2 * tp + fp + fn_) as f64
        };
        classes.iter().map(|c| f1(*c)).sum::<f64>() / classes.len() as f64
    }

    /// Mean of −ln p(label), p clipped to at least 1e-6.
    pub(crate) fn log_loss(labels: &[usize], predictions: &[Prediction]) -> f64 {
        let total: f64 = labels
            .iter()
            .zip(predictions)
            .map(|(l, p)| -p.probs[*l].max(CLIP).ln())
            .sum();
        total / labels.len() as f64
    }

    /// Σ over 10 equal-width bins of confidence (the predicted outcome's probability):
    /// (bin size / n) · |accuracy in the bin − mean confidence in the bin|, which is
    /// |right answers in the bin − sum of its confidences| / n.
    pub(crate) fn ece(labels: &[usize], predictions: &[Prediction]) -> f64 {
        let mut bins = [(0usize, 0.0f64, 0usize); BINS];
        for (l, p) in labels.iter().zip(predictions) {
            let confidence = p.probs[p.predicted];
            let bin = ((confidence * BINS as f64) as usize).min(BINS - 1);
            bins[bin].0 += 1;
            bins[bin].1 += confidence;
            bins[bin].2 += usize::from(*l == p.predicted);
        }
        let n = labels.len() as f64;
        bins.iter()
            .filter(|(count, _, _)| *count > 0)
            .map(|(_, confidence, right)| (*right as f64 - confidence).abs() / n)
            .sum()
    }

    /// Always the most frequent label (ties: the first outcome), the label frequencies as
    /// its probabilities.
    pub(crate) fn majority(labels: &[usize], outcomes: usize) -> Prediction {
        let mut counts = vec![0usize; outcomes];
        for l in labels {
            counts[*l] += 1;
        }
        let mut predicted = 0;
        for (i, c) in counts.iter().enumerate() {
            if *c > counts[predicted] {
                predicted = i;
            }
        }
        let n = labels.len() as f64;
        Prediction {
            probs: counts.iter().map(|c| *c as f64 / n).collect(),
            predicted,
        }
    }

    /// Small cases worked by hand; a wrong figure stops the bench before it prints.
    pub(crate) fn self_check() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        let labels = [0, 0, 1, 2];
        let predicted = [0, 1, 1, 1];
        assert!(close(accuracy(&labels, &predicted), 0.5));
        // class 0: tp 1, fn 1 -> 2/3; class 1: tp 1, fp 2 -> 2/4; class 2: fn 1 -> 0.
        assert!(close(
            macro_f1(&labels, &predicted),
            (2.0 / 3.0 + 0.5) / 3.0
        ));
        assert_eq!(recall(&labels, &predicted, 0), Some(0.5));
        assert_eq!(recall(&labels, &predicted, 2), Some(0.0));
        assert_eq!(recall(&labels, &predicted, 3), None);
        let p = |probs: &[f64], predicted| Prediction {
            probs: probs.to_vec(),
            predicted,
        };
        let predictions = [
            p(&[0.9, 0.1], 0),
            p(&[0.6, 0.4], 0),
            p(&[0.0, 1.0], 1),
            p(&[0.3, 0.7], 1),
        ];
        let labels = [0, 1, 0, 1];
        let expected = -(0.9f64.ln() + 0.4f64.ln() + CLIP.ln() + 0.7f64.ln()) / 4.0;
        assert!(close(log_loss(&labels, &predictions), expected));
        // Bins: [0.9 right, 1.0 wrong] -> |1 - 1.9|; [0.6 wrong] -> 0.6; [0.7 right] -> 0.3.
        assert!(close(ece(&labels, &predictions), (0.9 + 0.6 + 0.3) / 4.0));
        let m = majority(&[1, 1, 0, 2], 3);
        assert_eq!(m.predicted, 1);
        assert!(close(m.probs[1], 0.5) && close(m.probs[2], 0.25));
    }
}

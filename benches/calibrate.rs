//! Calibrates the built-in engine (`mo`, first window) on the labelled support set.
//!
//! Loads `examples/support/labelled.jsonl` and `examples/support/questions.yaml`, embeds each
//! state once and each distinct outcome text once, and keeps every similarity in memory.
//! Examples are split 50/50 by SHA-256 of `example_id` (first byte even: fit half, odd:
//! held-out half). Every temperature is chosen on the fit half by a grid search (log-spaced)
//! minimizing mean log loss, and every "chosen" mark is decided by fit-half log loss; the
//! held-out half is only reported.
//!
//! Two tables per question:
//! - text variants: other ways of rendering the outcomes to text, grouped by what the
//!   question states (for a noul: both sides, or one side and a generated negation);
//! - library paths: what the engine does now (its rendering and its constants, through
//!   `BuiltinEngine::similarities` and `scoring::from_similarities`) on the question as
//!   given and on the same question stripped of instructions or criteria, since one constant
//!   serves all of them. `pooled` is the temperature fitted on all paths of one constant.
//!
//! Held-out metrics: mean log loss (nats), accuracy (argmax; noul: p >= 0.5 means true), ECE
//! (10 equal-width bins over the predicted class's probability), and a ranking figure that
//! does not depend on the temperature: ROC AUC of p(true) for a noul; for a score, Spearman's
//! rho between the expected level and the label (which moves a little with the temperature).
//!
//! Run: `cargo bench --bench calibrate` (`CALIBRATE_MODEL=jev-latest` for the whole-state
//! models' paired encoder, reading the whole state as they do).
// Exact float equality is meant (ties in ranks and AUC, one constant per path group).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::float_cmp,
    clippy::too_many_lines
)]

use arbiter::engine::builtin::{outcomes, scoring, text};
use arbiter::engine::{Engine as _, Engines};
use arbiter::wire::answer::{Distribution, argmax, normalize};
use arbiter::wire::question::parse_questions;
use arbiter::wire::value::parse_yaml;
use arbiter::wire::{Loc, Question, QuestionKind, Questions};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Instant;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/support/labelled.jsonl"
);
const QUESTIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/support/questions.yaml"
);
/// The temperature every type used before calibration.
const PLACEHOLDER_TEMPERATURE: f64 = 0.05;
/// Grid: `GRID_POINTS` log-spaced temperatures from `GRID_MIN` to `GRID_MAX`.
const GRID_MIN: f64 = 0.002;
const GRID_MAX: f64 = 2.0;
const GRID_POINTS: usize = 91;
const ECE_BINS: usize = 10;
/// Negation templates tried for a noul that states one side only (`{}` is the statement).
const NEGATIONS: [(&str, &str); 3] = [
    ("'It is not the case that X'", "It is not the case that {}"),
    ("'Not: X'", "Not: {}"),
    ("'The opposite of: X'", "The opposite of: {}"),
];

/// The label of one question for one example: an outcome index, or the truth of a noul.
#[derive(Clone, Copy)]
enum Label {
    Index(usize),
    Bool(bool),
}

struct Example {
    fit: bool,
    /// Question ID → label.
    labels: HashMap<String, Label>,
}

/// One way of rendering a question's outcomes to text.
struct Variant {
    question: String,
    /// Variants are compared within a group (a noul: what the question states).
    group: &'static str,
    name: String,
    texts: Vec<String>,
}

/// The engine itself on one form of a question.
struct Path {
    question: String,
    /// Paths sharing a temperature constant.
    constant: &'static str,
    name: &'static str,
    form: Question,
}

/// Per example, similarities in one variant's or path's outcome order.
type Rows = Vec<Vec<f64>>;

struct Data<'a> {
    examples: &'a [Example],
    qid: &'a str,
    kind: &'a QuestionKind,
}

fn main() {
    let questions = load_questions();
    let (examples, states) = load_examples(&questions);
    let variants = variants(&questions);
    let paths = paths(&questions);

    // Every distinct variant text, embedded once.
    let mut texts: Vec<String> = Vec::new();
    let mut text_index: HashMap<String, usize> = HashMap::new();
    for t in variants.iter().flat_map(|v| &v.texts) {
        if !text_index.contains_key(t) {
            text_index.insert(t.clone(), texts.len());
            texts.push(t.clone());
        }
    }

    // `mo` by default, the model the temperatures were fitted on; CALIBRATE_MODEL=jev-latest
    // shows them on the whole-state models' paired encoder.
    let model = std::env::var("CALIBRATE_MODEL").unwrap_or_else(|_| "mo".to_owned());
    let engines = Engines::builtin();
    let engine = engines
        .get(&model)
        .and_then(|e| e.as_builtin())
        .unwrap_or_else(|| panic!("CALIBRATE_MODEL: {model} is not a built-in base model"));
    eprintln!("calibrating on {model}: {}", engine.describe());
    let started = Instant::now();
    let mut text_sims: Rows = Vec::with_capacity(states.len());
    let mut path_rows: Vec<Rows> = vec![Vec::with_capacity(states.len()); paths.len()];
    let mut before_rows: Vec<Rows> = vec![Vec::with_capacity(states.len()); paths.len()];
    for (i, state) in states.iter().enumerate() {
        let embedded = engine.embed_state(state).expect("embedding a state");
        let row = engine
            .text_similarities(&embedded, &texts)
            .expect("similarities");
        assert_eq!(row.len(), texts.len(), "a blank state in the labelled set");
        text_sims.push(row);
        for ((path, rows), before) in paths.iter().zip(&mut path_rows).zip(&mut before_rows) {
            rows.push(
                engine
                    .similarities(&embedded, &path.form)
                    .expect("similarities"),
            );
            before.push(
                engine
                    .text_similarities(&embedded, &uncalibrated_texts(&path.form))
                    .expect("similarities"),
            );
        }
        if (i + 1) % 200 == 0 {
            eprintln!(
                "embedded {} states in {:.1}s",
                i + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let embed_secs = started.elapsed().as_secs_f64();
    let fit_count = examples.iter().filter(|e| e.fit).count();

    let mut out = String::new();
    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "\n== summary, held-out half: before (placeholder T = {PLACEHOLDER_TEMPERATURE}, \
         pre-calibration rendering) -> after (engine as built) ==\n  {:<52} {:>7} {:>6} {:>6} | {:>7} {:>7} {:>6} {:>6} {:>6}",
        "question / form", "LL", "acc", "ECE", "T", "LL", "acc", "ECE", "rank"
    );
    let _ = writeln!(
        out,
        "calibrate: {} examples ({fit_count} fit, {} held-out; split by SHA-256(example_id)[0] even/odd), \
         model = {model} ({})\n\
         {} states + {} distinct variant texts embedded in {embed_secs:.1}s\n\
         T: {GRID_POINTS} log-spaced temperatures {GRID_MIN}..{GRID_MAX}, chosen by fit-half mean log loss; \
         'placeholder' = {PLACEHOLDER_TEMPERATURE}\n\
         held-out columns: log loss (nats), accuracy, ECE ({ECE_BINS} bins), rank = ROC AUC (noul) / Spearman rho (score)",
        examples.len(),
        examples.len() - fit_count,
        engine.describe(),
        states.len(),
        texts.len(),
    );

    for (qid, question) in &questions {
        let data = Data {
            examples: &examples,
            qid,
            kind: &question.kind,
        };
        let _ = writeln!(out, "\n== {qid} ({}) ==", question.kind.type_name());
        header(&mut out, "reference (reads no text)");
        for (name, ps) in priors(&data) {
            let judged = data
                .examples
                .iter()
                .filter(|e| !e.fit)
                .map(|e| {
                    let i = index(e.labels[qid]);
                    let best = argmax(&ps).unwrap_or(0);
                    Judged {
                        p_label: ps[i],
                        right: i == best,
                        confidence: ps[best],
                        p_true: ps[0],
                        expected: ps.iter().enumerate().map(|(i, p)| i as f64 * p).sum(),
                        label: i,
                    }
                })
                .collect::<Vec<_>>();
            row(&mut out, name, None, None, &summarize(data.kind, &judged));
        }

        let groups: Vec<&str> = variants
            .iter()
            .filter(|v| v.question == *qid)
            .map(|v| v.group)
            .fold(Vec::new(), |mut g, x| {
                if !g.contains(&x) {
                    g.push(x);
                }
                g
            });
        for group in groups {
            header(&mut out, &format!("text variants: {group}"));
            let mut best: Option<(f64, String, f64)> = None;
            for variant in variants
                .iter()
                .filter(|v| v.question == *qid && v.group == group)
            {
                let columns: Vec<usize> = variant.texts.iter().map(|t| text_index[t]).collect();
                let rows: Rows = text_sims
                    .iter()
                    .map(|r| columns.iter().map(|&c| r[c]).collect())
                    .collect();
                let (t_fit, fit_ll) = fit(&data, &[&rows]);
                for (t, label) in [(PLACEHOLDER_TEMPERATURE, "placeholder"), (t_fit, "fitted")] {
                    let name = format!("{} @ {label}{}", variant.name, edge(t));
                    let fit_m = evaluate(&data, &rows, t, true);
                    let held = evaluate(&data, &rows, t, false);
                    row(&mut out, &name, Some(t), Some(fit_m.log_loss), &held);
                }
                if best.as_ref().is_none_or(|(ll, _, _)| fit_ll < *ll) {
                    best = Some((fit_ll, variant.name.clone(), t_fit));
                }
            }
            if let Some((ll, name, t)) = best {
                let _ = writeln!(
                    out,
                    "  lowest fit-half log loss: {name} at T = {t:.4} ({ll:.4})"
                );
            }
        }

        header(
            &mut out,
            "library paths (engine rendering; shipped / path-fitted / pooled T)",
        );
        let mut constants: Vec<&str> = Vec::new();
        for path in paths.iter().filter(|p| p.question == *qid) {
            if !constants.contains(&path.constant) {
                constants.push(path.constant);
            }
        }
        for constant in constants {
            let members: Vec<(&Path, &Rows)> = paths
                .iter()
                .zip(&path_rows)
                .filter(|(p, _)| p.question == *qid && p.constant == constant)
                .collect();
            let all: Vec<&Rows> = members.iter().map(|(_, r)| *r).collect();
            let (pooled, pooled_ll) = fit(&data, &all);
            let shipped: Vec<f64> = members
                .iter()
                .map(|(p, _)| scoring::temperature(&p.form))
                .collect();
            assert!(
                shipped.iter().all(|t| *t == shipped[0]),
                "{constant}: paths of one constant with different shipped temperatures"
            );
            for (path, rows) in &members {
                let i = paths
                    .iter()
                    .position(|p| std::ptr::eq(p, *path))
                    .expect("a path");
                let before = &before_rows[i];
                let name = format!("{} @ before (old rendering)", path.name);
                let fit_m = evaluate(&data, before, PLACEHOLDER_TEMPERATURE, true);
                let old = evaluate(&data, before, PLACEHOLDER_TEMPERATURE, false);
                row(
                    &mut out,
                    &name,
                    Some(PLACEHOLDER_TEMPERATURE),
                    Some(fit_m.log_loss),
                    &old,
                );
                let shipped = scoring::temperature(&path.form);
                let (t_fit, _) = fit(&data, &[rows]);
                for (t, label) in [
                    (shipped, "shipped"),
                    (t_fit, "path-fitted"),
                    (pooled, "pooled"),
                ] {
                    let name = format!("{} @ {label}{}", path.name, edge(t));
                    let fit_m = evaluate(&data, rows, t, true);
                    let held = evaluate(&data, rows, t, false);
                    row(&mut out, &name, Some(t), Some(fit_m.log_loss), &held);
                }
                let new = evaluate(&data, rows, shipped, false);
                let _ = writeln!(
                    summary,
                    "  {:<52} {:>7.4} {:>6.3} {:>6.3} | {:>7.4} {:>7.4} {:>6.3} {:>6.3} {:>6}",
                    format!("{qid}: {}", path.name),
                    old.log_loss,
                    old.accuracy,
                    old.ece,
                    shipped,
                    new.log_loss,
                    new.accuracy,
                    new.ece,
                    new.rank
                        .map_or_else(|| "-".to_owned(), |r| format!("{r:.3}")),
                );
            }
            let _ = writeln!(
                out,
                "  {constant}: pooled fit over {} path(s): T = {pooled:.4} (fit LL {pooled_ll:.4})",
                members.len()
            );
        }
    }
    out.push_str(&summary);
    let _ = writeln!(out, "\ntotal {:.1}s", started.elapsed().as_secs_f64());
    print!("{out}");
}

fn header(out: &mut String, title: &str) {
    let _ = writeln!(
        out,
        "-- {title}\n  {:<58} {:>7} {:>7} | {:>7} {:>6} {:>6} {:>6}",
        "", "T", "fit LL", "held LL", "acc", "ECE", "rank"
    );
}

fn row(out: &mut String, name: &str, t: Option<f64>, fit_ll: Option<f64>, held: &Metrics) {
    let t = t.map_or_else(|| "-".to_owned(), |t| format!("{t:.4}"));
    let fit_ll = fit_ll.map_or_else(|| "-".to_owned(), |ll| format!("{ll:.4}"));
    let rank = held
        .rank
        .map_or_else(|| "-".to_owned(), |r| format!("{r:.3}"));
    let _ = writeln!(
        out,
        "  {name:<58} {t:>7} {fit_ll:>7} | {:>7.4} {:>6.3} {:>6.3} {rank:>6}",
        held.log_loss, held.accuracy, held.ece
    );
}

fn edge(t: f64) -> &'static str {
    if t <= GRID_MIN * 1.0001 || t >= GRID_MAX / 1.0001 {
        " (grid edge)"
    } else {
        ""
    }
}

fn load_questions() -> Questions {
    let yaml = std::fs::read_to_string(QUESTIONS).expect("reading questions.yaml");
    let value = parse_yaml(&yaml).expect("parsing questions.yaml");
    let mut errors = Vec::new();
    let questions = parse_questions(&value, &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    questions
}

fn load_examples(questions: &Questions) -> (Vec<Example>, Vec<Value>) {
    let data = std::fs::read_to_string(DATA).expect("reading the labelled set");
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let record: Value = serde_json::from_str(line).expect("a JSON line");
            let id = record["example_id"].as_str().expect("example_id");
            let fit = Sha256::digest(id.as_bytes())[0] % 2 == 0;
            let labels = questions
                .iter()
                .map(|(qid, q)| {
                    let answer = &record["annotations"][qid]["answer"];
                    let label = match &q.kind {
                        QuestionKind::Noul { .. } => {
                            Label::Bool(answer.as_bool().expect("a boolean label"))
                        }
                        QuestionKind::Choice { options } => Label::Index(
                            options
                                .iter()
                                .position(|(k, _)| Some(k.as_str()) == answer.as_str())
                                .unwrap_or_else(|| panic!("unknown option {answer} in {id}")),
                        ),
                        QuestionKind::Score { levels } => {
                            let level = answer.as_u64().expect("a level") as usize;
                            assert!(level < levels.len(), "level {level} out of range in {id}");
                            Label::Index(level)
                        }
                    };
                    (qid.clone(), label)
                })
                .collect();
            (Example { fit, labels }, record["state"].clone())
        })
        .unzip()
}

/// The outcome-text variants evaluated for each question of the set.
fn variants(questions: &Questions) -> Vec<Variant> {
    let mut variants = Vec::new();
    for (qid, question) in questions {
        let instructions = question
            .instructions()
            .map(text::render)
            .unwrap_or_default();
        let mut add = |group: &'static str, name: &str, texts: Vec<String>| {
            variants.push(Variant {
                question: qid.clone(),
                group,
                name: name.to_owned(),
                texts,
            });
        };
        match &question.kind {
            QuestionKind::Choice { options } => {
                let each = |f: &dyn Fn(&str, &str) -> String| -> Vec<String> {
                    options
                        .iter()
                        .map(|(k, d)| f(k, &text::render(d)))
                        .collect()
                };
                let g = "options";
                add(g, "key: description", each(&|k, d| format!("{k}: {d}")));
                add(g, "description", each(&|_, d| d.to_owned()));
                add(g, "key", each(&|k, _| k.replace('_', " ")));
                add(
                    g,
                    "instructions + key: description",
                    each(&|k, d| format!("{instructions}\n{k}: {d}")),
                );
                add(
                    g,
                    "instructions + description",
                    each(&|_, d| format!("{instructions}\n{d}")),
                );
            }
            QuestionKind::Score { levels } => {
                let each = |f: &dyn Fn(usize, &str) -> String| -> Vec<String> {
                    levels
                        .iter()
                        .enumerate()
                        .map(|(i, l)| f(i, &text::render(l)))
                        .collect()
                };
                let g = "levels";
                add(g, "description", each(&|_, d| d.to_owned()));
                add(
                    g,
                    "level i: description",
                    each(&|i, d| format!("level {i}: {d}")),
                );
                add(
                    g,
                    "instructions + description",
                    each(&|_, d| format!("{instructions}\n{d}")),
                );
                add(
                    g,
                    "description + instructions",
                    each(&|_, d| format!("{d}\n{instructions}")),
                );
            }
            QuestionKind::Noul {
                when_true,
                when_false,
            } => {
                let t = text::render(when_true);
                let f = text::render(when_false);
                let g = "both sides stated";
                add(g, "true crit vs false crit", vec![t.clone(), f.clone()]);
                add(
                    g,
                    "instr + true crit vs instr + false crit",
                    vec![
                        format!("{instructions}\n{t}"),
                        format!("{instructions}\n{f}"),
                    ],
                );
                add(g, "instr vs false crit", vec![instructions.clone(), f]);
                for (group, statement) in [
                    (
                        "no false criterion, true side = instructions",
                        &instructions,
                    ),
                    ("no false criterion, true side = true criterion", &t),
                ] {
                    for (name, template) in NEGATIONS {
                        add(
                            group,
                            &format!("X vs {name}"),
                            vec![statement.clone(), template.replace("{}", statement)],
                        );
                    }
                }
                let g = "no false criterion, true criterion and instructions";
                let negate = |x: &str| NEGATIONS[0].1.replace("{}", x);
                let both = format!("{instructions}\n{t}");
                add(g, "true crit vs negation", vec![t.clone(), negate(&t)]);
                add(
                    g,
                    "instr + true crit vs instr + negation",
                    vec![both.clone(), format!("{instructions}\n{}", negate(&t))],
                );
                add(
                    g,
                    "instr + true crit vs negation of both",
                    vec![both.clone(), negate(&both)],
                );
            }
        }
    }
    variants
}

/// The forms of each question the engine is evaluated on.
fn paths(questions: &Questions) -> Vec<Path> {
    let mut paths = Vec::new();
    for (qid, question) in questions {
        let without_instructions = Question {
            instructions: None,
            kind: question.kind.clone(),
        };
        let mut add = |constant: &'static str, name: &'static str, form: Question| {
            paths.push(Path {
                question: qid.clone(),
                constant,
                name,
                form,
            });
        };
        match &question.kind {
            QuestionKind::Choice { .. } => {
                add("CHOICE_TEMPERATURE", "as given", question.clone());
                add(
                    "CHOICE_TEMPERATURE",
                    "without instructions",
                    without_instructions,
                );
            }
            QuestionKind::Score { .. } => {
                add("SCORE_TEMPERATURE", "as given", question.clone());
                add(
                    "UNFRAMED_SCORE_TEMPERATURE",
                    "without instructions",
                    without_instructions,
                );
            }
            QuestionKind::Noul { when_true, .. } => {
                let noul = |instructions: bool, when_true: &Value, when_false: &Value| Question {
                    instructions: question.instructions.clone().filter(|_| instructions),
                    kind: QuestionKind::Noul {
                        when_true: when_true.clone(),
                        when_false: when_false.clone(),
                    },
                };
                let null = &Value::Null;
                add(
                    "NOUL_TEMPERATURE",
                    "as given (instructions, both sides)",
                    question.clone(),
                );
                add(
                    "UNFRAMED_NOUL_TEMPERATURE",
                    "both sides, no instructions",
                    without_instructions,
                );
                for (name, form) in [
                    ("instructions + true criterion", noul(true, when_true, null)),
                    ("true criterion only", noul(false, when_true, null)),
                    ("instructions only", noul(true, null, null)),
                ] {
                    assert!(outcomes::noul_is_negated(&form));
                    add("NEGATED_NOUL_TEMPERATURE", name, form);
                }
            }
        }
    }
    paths
}

/// The engine's outcome texts before calibration (kept here so the "before" figures stay
/// reproducible): `key: description`, level descriptions alone, and noul sides without the
/// instructions, a missing side negated as "It is not the case that …".
fn uncalibrated_texts(question: &Question) -> Vec<String> {
    let non_blank = |t: String| (!t.trim().is_empty()).then_some(t);
    match &question.kind {
        QuestionKind::Choice { options } => options
            .iter()
            .map(|(key, description)| {
                let description = text::render(description);
                let text = match (key.trim(), description.is_empty()) {
                    (key, true) => key.to_owned(),
                    ("", false) => description,
                    (key, false) => format!("{key}: {description}"),
                };
                non_blank(text).unwrap_or_else(|| "option".to_owned())
            })
            .collect(),
        QuestionKind::Score { levels } => levels
            .iter()
            .enumerate()
            .map(|(i, l)| non_blank(text::render(l)).unwrap_or_else(|| format!("level {i}")))
            .collect(),
        QuestionKind::Noul {
            when_true,
            when_false,
        } => {
            let statement = question
                .instructions()
                .map(text::render)
                .unwrap_or_default();
            let truthy = non_blank(text::render(when_true)).or_else(|| non_blank(statement));
            let falsy = non_blank(text::render(when_false));
            let negate = |s: &str| format!("It is not the case that {s}");
            match (truthy, falsy) {
                (Some(t), Some(f)) => vec![t, f],
                (Some(t), None) => {
                    let negation = negate(&t);
                    vec![t, negation]
                }
                (None, Some(f)) => vec![negate(&f), f],
                (None, None) => Vec::new(),
            }
        }
    }
}

#[derive(Default)]
struct Metrics {
    log_loss: f64,
    accuracy: f64,
    ece: f64,
    rank: Option<f64>,
}

/// One prediction, judged against its label.
struct Judged {
    p_label: f64,
    right: bool,
    /// Probability of the predicted class.
    confidence: f64,
    /// Noul: p(true).
    p_true: f64,
    /// Score: expected level.
    expected: f64,
    /// Outcome index (noul: 0 = true, 1 = false).
    label: usize,
}

fn judge(kind: &QuestionKind, sims: &[f64], label: Label, temperature: f64) -> Judged {
    match (scoring::at_temperature(kind, sims, temperature), label) {
        (Distribution::Noul(p), Label::Bool(truth)) => Judged {
            p_label: if truth { p } else { 1.0 - p },
            right: (p >= 0.5) == truth,
            confidence: p.max(1.0 - p),
            p_true: p,
            expected: 0.0,
            label: index(label),
        },
        (Distribution::Outcomes(ps), Label::Index(i)) => {
            let ps = normalize(&ps, outcome_count(kind));
            let best = argmax(&ps).unwrap_or(0);
            Judged {
                p_label: ps[i],
                right: best == i,
                confidence: ps[best],
                p_true: 0.0,
                expected: ps.iter().enumerate().map(|(i, p)| i as f64 * p).sum(),
                label: i,
            }
        }
        _ => unreachable!("label and question type disagree"),
    }
}

fn outcome_count(kind: &QuestionKind) -> usize {
    match kind {
        QuestionKind::Choice { options } => options.len(),
        QuestionKind::Score { levels } => levels.len(),
        QuestionKind::Noul { .. } => 2,
    }
}

fn judged(data: &Data<'_>, rows: &Rows, temperature: f64, fit: bool) -> Vec<Judged> {
    data.examples
        .iter()
        .zip(rows)
        .filter(|(e, _)| e.fit == fit)
        .map(|(e, sims)| judge(data.kind, sims, e.labels[data.qid], temperature))
        .collect()
}

fn evaluate(data: &Data<'_>, rows: &Rows, temperature: f64, fit: bool) -> Metrics {
    summarize(data.kind, &judged(data, rows, temperature, fit))
}

fn summarize(kind: &QuestionKind, judged: &[Judged]) -> Metrics {
    if judged.is_empty() {
        return Metrics::default();
    }
    let n = judged.len() as f64;
    let log_loss = judged
        .iter()
        .map(|j| -j.p_label.max(1e-15).ln())
        .sum::<f64>()
        / n;
    let accuracy = judged.iter().filter(|j| j.right).count() as f64 / n;
    let mut bins = [(0usize, 0.0f64, 0.0f64); ECE_BINS];
    for j in judged {
        let bin = ((j.confidence * ECE_BINS as f64) as usize).min(ECE_BINS - 1);
        bins[bin].0 += 1;
        bins[bin].1 += j.confidence;
        bins[bin].2 += f64::from(u8::from(j.right));
    }
    let ece = bins
        .iter()
        .filter(|(count, _, _)| *count > 0)
        .map(|(_, conf, right)| (right - conf).abs() / n)
        .sum();
    let rank = match kind {
        QuestionKind::Noul { .. } => auc(judged),
        QuestionKind::Score { .. } => spearman(
            &judged.iter().map(|j| j.expected).collect::<Vec<_>>(),
            &judged.iter().map(|j| j.label as f64).collect::<Vec<_>>(),
        ),
        QuestionKind::Choice { .. } => None,
    };
    Metrics {
        log_loss,
        accuracy,
        ece,
        rank,
    }
}

/// ROC AUC of p(true) (ties count half); none without both classes.
fn auc(judged: &[Judged]) -> Option<f64> {
    let positives: Vec<f64> = judged
        .iter()
        .filter(|j| j.label == 0)
        .map(|j| j.p_true)
        .collect();
    let negatives: Vec<f64> = judged
        .iter()
        .filter(|j| j.label == 1)
        .map(|j| j.p_true)
        .collect();
    if positives.is_empty() || negatives.is_empty() {
        return None;
    }
    let mut wins = 0.0;
    for p in &positives {
        for q in &negatives {
            wins += if p > q {
                1.0
            } else if p == q {
                0.5
            } else {
                0.0
            };
        }
    }
    Some(wins / (positives.len() * negatives.len()) as f64)
}

/// Spearman's rho (Pearson on average ranks); none when either side is constant.
fn spearman(xs: &[f64], ys: &[f64]) -> Option<f64> {
    let (rx, ry) = (ranks(xs), ranks(ys));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    (vx > 0.0 && vy > 0.0).then(|| cov / (vx * vy).sqrt())
}

fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut ranks = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        let average = (i + j) as f64 / 2.0;
        for &k in &order[i..=j] {
            ranks[k] = average;
        }
        i = j + 1;
    }
    ranks
}

/// The grid temperature with the lowest fit-half mean log loss over all `blocks` (each one
/// row per example), and that loss.
fn fit(data: &Data<'_>, blocks: &[&Rows]) -> (f64, f64) {
    let step = (GRID_MAX / GRID_MIN).ln() / (GRID_POINTS - 1) as f64;
    (0..GRID_POINTS)
        .map(|i| GRID_MIN * (step * i as f64).exp())
        .map(|t| {
            let all: Vec<Judged> = blocks
                .iter()
                .flat_map(|rows| judged(data, rows, t, true))
                .collect();
            (t, summarize(data.kind, &all).log_loss)
        })
        .fold((f64::NAN, f64::INFINITY), |best, (t, ll)| {
            if ll < best.1 { (t, ll) } else { best }
        })
}

/// Distributions that read no text: uniform, and the fit half's label frequencies
/// (add-one), in outcome order (noul: true, false).
fn priors(data: &Data<'_>) -> Vec<(&'static str, Vec<f64>)> {
    let n = outcome_count(data.kind);
    let mut counts = vec![1.0; n];
    for e in data.examples.iter().filter(|e| e.fit) {
        counts[index(e.labels[data.qid])] += 1.0;
    }
    let total: f64 = counts.iter().sum();
    vec![
        ("uniform", vec![1.0 / n as f64; n]),
        (
            "fit-half label frequencies",
            counts.iter().map(|c| c / total).collect(),
        ),
    ]
}

fn index(label: Label) -> usize {
    match label {
        Label::Index(i) => i,
        Label::Bool(truth) => usize::from(!truth),
    }
}

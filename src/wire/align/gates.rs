//! The gates of an evaluation, judged on its report: per question, the gates file's gate
//! (the revision's `gates.yaml`, or `arbiter eval --gates FILE`) with each gate asked for
//! beside it ([`Flags`]: `arbiter eval`'s `--min-accuracy`, …) replacing that metric's for
//! every question. The one place gates are judged: `arbiter eval` and the web app's
//! Evaluation page judge with it; the server's evaluation job reports the gates it was
//! asked with.

use super::{EvaluationReport, Metrics, QuestionEvaluation};
use crate::wire::gates::{GATES_FILE, Gate};
use indexmap::IndexMap;
use serde::Serialize;

/// The gates asked for beside the report's gates file (`arbiter eval`'s flags), and how
/// to judge; the default judges the file's gates alone.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    pub min_accuracy: Option<f64>,
    pub max_ece: Option<f64>,
    pub no_regression: bool,
    /// Judge the bound of each figure's 95% interval least in the gate's favour.
    pub strict: bool,
    /// A gated question that could not be measured passes instead of failing.
    pub allow_unevaluated: bool,
    /// The gates file as messages name it (`--gates`'s path); `None`: `gates.yaml`.
    pub file: Option<String>,
}

/// What set a threshold: the gates file or a flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    File,
    Flag,
}

/// One question's gate as judged: each threshold with what set it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QuestionGate {
    min_accuracy: Option<(f64, Source)>,
    max_ece: Option<(f64, Source)>,
    no_regression: Option<Source>,
}

impl QuestionGate {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The gate as people read it, each threshold with what set it:
    /// `accuracy ≥ 0.85 (gates.yaml), ECE ≤ 0.1 (--max-ece)`.
    fn describe(&self, label: &str) -> String {
        let by = |source: Source, flag: &str| match source {
            Source::File => format!(" ({label})"),
            Source::Flag => format!(" ({flag})"),
        };
        let mut parts = Vec::new();
        if let Some((min, source)) = self.min_accuracy {
            parts.push(format!("accuracy ≥ {min}{}", by(source, "--min-accuracy")));
        }
        if let Some((max, source)) = self.max_ece {
            parts.push(format!("ECE ≤ {max}{}", by(source, "--max-ece")));
        }
        if let Some(source) = self.no_regression {
            parts.push(format!("no regression{}", by(source, "--no-regression")));
        }
        parts.join(", ")
    }
}

/// A question's gate and verdict, as `--format json` shows them under `gates.questions`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Shown {
    #[serde(skip_serializing_if = "Option::is_none")]
    min_accuracy: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_ece: Option<f64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    no_regression: bool,
    passed: bool,
}

/// One gate a question failed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    pub question: String,
    /// `min-accuracy`, `max-ece`, `no-regression`, or `not-evaluated` (a gated question
    /// that could not be measured).
    pub gate: &'static str,
    pub message: String,
}

/// The gates of an evaluation, judged.
#[derive(Debug)]
pub struct Judged {
    /// Per question with a gate, in the report's order.
    pub gates: IndexMap<String, QuestionGate>,
    /// Every gate every question fails, in the order judged.
    pub failures: Vec<Failure>,
    /// The gates file read, as named in messages (`gates.yaml`, or `--gates`'s path);
    /// `None` when no file gated a question.
    pub file: Option<String>,
    /// Gates that could not be judged (`no_regression` without a baseline), for stderr.
    pub notes: Vec<String>,
    /// What a gate of the file is said to come from (`gates.yaml`, or `--gates`'s path).
    label: String,
}

impl Judged {
    /// Question `id`'s gate as people read it (empty when it has none).
    pub fn describe(&self, id: &str) -> String {
        self.gates
            .get(id)
            .map(|gate| gate.describe(&self.label))
            .unwrap_or_default()
    }

    /// Whether any question has a gate.
    pub fn gated(&self) -> bool {
        !self.gates.is_empty()
    }

    /// The gates question `id` failed, in the order they were judged.
    pub fn failures_of<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Failure> {
        self.failures.iter().filter(move |f| f.question == id)
    }

    /// `--format json`'s `gates.questions`: per gated question, its gate and whether it passed.
    pub fn shown(&self) -> IndexMap<&str, impl Serialize> {
        self.gates
            .iter()
            .map(|(id, gate)| {
                let shown = Shown {
                    min_accuracy: gate.min_accuracy.map(|(v, _)| v),
                    max_ece: gate.max_ece.map(|(v, _)| v),
                    no_regression: gate.no_regression.is_some(),
                    passed: self.failures_of(id).next().is_none(),
                };
                (id.as_str(), shown)
            })
            .collect()
    }
}

/// The gate of question `id`: the file's, each flag given replacing its metric's.
fn gate_of(file: Option<&Gate>, flags: &Flags) -> QuestionGate {
    let file = file.copied().unwrap_or_default();
    let pick = |flag: Option<f64>, file: Option<f64>| {
        flag.map(|v| (v, Source::Flag))
            .or(file.map(|v| (v, Source::File)))
    };
    QuestionGate {
        min_accuracy: pick(flags.min_accuracy, file.accuracy),
        max_ece: pick(flags.max_ece, file.max_ece),
        no_regression: if flags.no_regression {
            Some(Source::Flag)
        } else {
            file.no_regression.then_some(Source::File)
        },
    }
}

/// Judge every question of `report`. With `--strict` a gate judges the bound of the
/// figure's 95% interval that is least in its favour. A gate never passes on what it did
/// not measure: a gated question not evaluated fails, unless `--allow-unevaluated`.
pub fn judge(report: &EvaluationReport, flags: &Flags) -> Judged {
    // `--no-gates` sent an empty map, so the report carries none.
    let file_gates = report.question_gates.as_ref();
    let label = flags.file.clone().unwrap_or_else(|| GATES_FILE.to_owned());
    let mut judged = Judged {
        gates: IndexMap::new(),
        failures: Vec::new(),
        file: None,
        notes: Vec::new(),
        label: label.clone(),
    };
    for (id, evaluation) in &report.questions {
        let gate = gate_of(file_gates.and_then(|g| g.of(id)), flags);
        if gate.is_empty() {
            continue;
        }
        let from_file = [
            gate.min_accuracy.map(|(_, s)| s),
            gate.max_ece.map(|(_, s)| s),
            gate.no_regression,
        ]
        .contains(&Some(Source::File));
        if from_file {
            judged.file = Some(label.clone());
        }
        let mut fail = |gate, message| {
            judged.failures.push(Failure {
                question: id.clone(),
                gate,
                message,
            });
        };
        judge_question(
            id,
            evaluation,
            &gate,
            flags,
            &label,
            &mut fail,
            &mut judged.notes,
        );
        judged.gates.insert(id.clone(), gate);
    }
    judged
}

/// Where a threshold came from, after its message: nothing for a flag (as before gates
/// files), ` (gates.yaml)` for the file's.
fn from(source: Source, label: &str) -> String {
    match source {
        Source::Flag => String::new(),
        Source::File => format!(" ({label})"),
    }
}

fn judge_question(
    id: &str,
    evaluation: &QuestionEvaluation,
    gate: &QuestionGate,
    flags: &Flags,
    label: &str,
    fail: &mut impl FnMut(&'static str, String),
    notes: &mut Vec<String>,
) {
    let Some(m) = &evaluation.metrics else {
        if !flags.allow_unevaluated {
            fail(
                "not-evaluated",
                format!(
                    "not evaluated: {}; a gate needs every question measured \
                     (annotate it, leave it out with --questions, or pass --allow-unevaluated)",
                    evaluation.reason.as_deref().unwrap_or("nothing to score")
                ),
            );
        }
        return;
    };
    if let Some((min, source)) = gate.min_accuracy {
        let (accuracy, what) = match (&m.intervals, flags.strict) {
            (Some(iv), true) => (iv.accuracy.low, "accuracy's 95% lower bound"),
            _ => (m.accuracy, "accuracy"),
        };
        if accuracy < min {
            fail(
                "min-accuracy",
                format!("{what} {accuracy:.4} is below {min}{}", from(source, label)),
            );
        }
    }
    if let Some((max, source)) = gate.max_ece
        && m.ece > max
    {
        fail(
            "max-ece",
            format!("ECE {:.4} is above {max}{}", m.ece, from(source, label)),
        );
    }
    if let Some(source) = gate.no_regression {
        match &evaluation.baseline {
            Some(base) => regressions(evaluation, m, base, flags.strict, fail),
            None if source == Source::File => notes.push(format!(
                "note: {id}'s no_regression ({label}) was not judged: there is no --baseline"
            )),
            None => {}
        }
    }
}

/// The no-regression gate: with `--strict`, a change the 95% interval does not rule
/// out; else any figure worse than the baseline's.
fn regressions(
    evaluation: &QuestionEvaluation,
    m: &Metrics,
    base: &Metrics,
    strict: bool,
    fail: &mut impl FnMut(&'static str, String),
) {
    if let (true, Some(delta)) = (strict, &evaluation.delta) {
        if delta.accuracy.low < 0.0 {
            fail(
                "no-regression",
                format!(
                    "a drop in accuracy is not ruled out: the change's 95% interval is \
                     [{:+.4}, {:+.4}]",
                    delta.accuracy.low, delta.accuracy.high
                ),
            );
        }
        if delta.loss.high > 0.0 {
            fail(
                "no-regression",
                format!(
                    "a rise in {} is not ruled out: the change's 95% interval is \
                     [{:+.4}, {:+.4}]",
                    m.metric, delta.loss.low, delta.loss.high
                ),
            );
        }
        return;
    }
    if m.accuracy < base.accuracy {
        fail(
            "no-regression",
            format!(
                "accuracy {:.4} is below the baseline's {:.4}",
                m.accuracy, base.accuracy
            ),
        );
    }
    if m.loss > base.loss {
        fail(
            "no-regression",
            format!(
                "{} {:.4} is above the baseline's {:.4}",
                m.metric, m.loss, base.loss
            ),
        );
    }
}

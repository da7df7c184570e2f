//! What each question of a request means, as events the encoder reads once and the laws of
//! probability combine, so that answers agree with one another by construction:
//!
//! - a noul stating only its instructions is read by its logical form ([`statement`]): a
//!   negation is one minus the statement, "both" and "at least one" count statements;
//! - a choice or a score with two outcomes, yes and no (or true and false), is the noul of
//!   its instructions;
//! - a choice's options are read by their descriptions (a key is only a label, and the text
//!   when there is no description); a choice's or a score's outcomes are events
//!   ([`partition`]): merged, split or copied outcomes keep their mass;
//! - a choice over the joint answers of two questions ("the answer to the first question is
//!   yes and …") is the product of the two;
//! - a noul about an outcome of another question of the request is read from that
//!   question's answer, and a noul worded as the opposite of an earlier one is one minus it
//!   ([`reference`](mod@reference)).
//!
//! Everything else is answered as a question alone: [`Meaning::Alone`].

pub mod partition;
pub mod reference;
pub mod statement;

use super::outcomes;
use super::scoring;
use super::text::render;
use crate::wire::{Question, QuestionKind, Questions};
use partition::Partition;
use regex::Regex;
use statement::Statement;
use std::sync::LazyLock;

/// What one question of a request means.
#[derive(Debug, Clone, PartialEq)]
pub enum Meaning {
    /// Answered from its own outcome texts, as a question alone: a noul with stated sides,
    /// an aligned question, one with nothing to read.
    Alone,
    /// A noul that states only its instructions.
    Statement(Statement),
    /// A choice or a score whose two outcomes are yes and no: the statement of its
    /// instructions; `yes` is the index of its yes outcome.
    YesNo { statement: Statement, yes: usize },
    /// A choice or a score: its outcomes as events, each event's text read as `reading`
    /// says.
    Outcomes {
        partition: Partition,
        reading: Reading,
        temperature: f64,
    },
    /// A choice over the joint answers of two statements: each option is a cell (first
    /// holds, second holds).
    Joint {
        first: Statement,
        second: Statement,
        cells: Vec<(bool, bool)>,
    },
    /// A noul about outcomes of the request's question at `question`.
    Refers {
        question: usize,
        reference: reference::Reference,
    },
}

/// The meaning of each question of `questions`, in order. A noul about another question
/// refers only to one that is not itself a reference.
pub fn plan(questions: &Questions) -> Vec<Meaning> {
    let alone: Vec<Meaning> = questions.values().map(alone).collect();
    let targets = targets(questions);
    alone
        .into_iter()
        .enumerate()
        .map(|(i, meaning)| match &meaning {
            Meaning::Statement(Statement::Plain(text)) if !targets.is_empty() => {
                refers(text, i, &targets).unwrap_or(meaning)
            }
            _ => meaning,
        })
        .collect()
}

/// Each choice and score a noul may ask about, normalized once: a request's work is its
/// nouls times its choices and scores, in substring searches.
fn targets(questions: &Questions) -> Vec<(usize, reference::Target)> {
    questions
        .values()
        .enumerate()
        .filter(|(_, q)| !matches!(q.kind, QuestionKind::Noul { .. }))
        .map(|(j, q)| {
            let instructions = q.task().map(render).unwrap_or_default();
            let ordered = matches!(q.kind, QuestionKind::Score { .. });
            (
                j,
                reference::Target::new(&instructions, &raw_outcome_texts(&q.kind), ordered),
            )
        })
        .collect()
}

/// Every (noul, question) pair where [`plan`] could read the noul from that question: each
/// question the noul's statement restates, not only the most specific one [`plan`] picks.
/// A group closed under these pairs picks as the whole request does, since the pick is a
/// maximum over the candidates (ties to the first asked, an order a group keeps).
pub fn could_refer(questions: &Questions) -> Vec<(usize, usize)> {
    let targets = targets(questions);
    if targets.is_empty() {
        return Vec::new();
    }
    let mut pairs = Vec::new();
    for (i, question) in questions.values().enumerate() {
        if let Meaning::Statement(Statement::Plain(text)) = alone(question) {
            let statement = reference::normalized(&text);
            pairs.extend(
                targets
                    .iter()
                    .filter(|(j, target)| *j != i && target.reference(&statement).is_some())
                    .map(|(j, _)| (i, *j)),
            );
        }
    }
    pairs
}

/// The most specific reference of statement `text` (question `own`) to one of `targets`:
/// the one whose instructions it restates at the greatest length; among those, one whose
/// every outcome it names (a listed scale), then the first asked.
fn refers(text: &str, own: usize, targets: &[(usize, reference::Target)]) -> Option<Meaning> {
    let statement = reference::normalized(text);
    targets
        .iter()
        .filter(|(j, _)| *j != own)
        .filter_map(|(j, target)| {
            let found = target.reference(&statement)?;
            let (length, names_all) = target.rank(&statement);
            Some(((length, names_all, std::cmp::Reverse(*j)), *j, found))
        })
        .max_by_key(|(rank, ..)| *rank)
        .map(|(_, question, reference)| Meaning::Refers {
            question,
            reference,
        })
}

/// The meaning of `question` read alone (in a request of its own).
pub fn alone(question: &Question) -> Meaning {
    if super::aligned::AlignedInstructions::is_aligned(question.instructions.as_ref()) {
        return Meaning::Alone;
    }
    let instructions = question.task().map(render).unwrap_or_default();
    match &question.kind {
        QuestionKind::Noul {
            when_true,
            when_false,
        } => {
            if instructions.trim().is_empty()
                || !render(when_true).trim().is_empty()
                || !render(when_false).trim().is_empty()
            {
                Meaning::Alone
            } else {
                Meaning::Statement(statement::parse(&instructions))
            }
        }
        kind => {
            let texts = raw_outcome_texts(kind);
            if !instructions.trim().is_empty()
                && let Some(yes) = yes_no(kind)
            {
                return Meaning::YesNo {
                    statement: statement::parse(&instructions),
                    yes,
                };
            }
            if let QuestionKind::Choice { .. } = kind
                && let Some(joint) = joint(&instructions, &texts)
            {
                return joint;
            }
            let reading = Reading {
                framing: outcomes::framed_by_instructions(question).then_some(instructions),
                without_exclusions: matches!(kind, QuestionKind::Choice { .. }),
            };
            Meaning::Outcomes {
                partition: Partition::of(&texts),
                reading,
                temperature: scoring::temperature(question),
            }
        }
    }
}

/// Each outcome's own words, as written: a choice option's description (its key when it has
/// none), a score level's text (`level i` when blank). What a noul about it quotes, and
/// what its events are made of; each event's text is read as its [`Reading`] says.
pub fn raw_outcome_texts(kind: &QuestionKind) -> Vec<String> {
    match kind {
        QuestionKind::Noul { .. } => Vec::new(),
        QuestionKind::Choice { options } => outcomes::option_words(options),
        QuestionKind::Score { levels } => outcomes::score_texts("", levels),
    }
}

/// The index of the yes outcome of a two-outcome choice or score whose outcomes are yes and
/// no (or true and false), by key or description.
fn yes_no(kind: &QuestionKind) -> Option<usize> {
    const YES: &[&str] = &["yes", "true", "y"];
    const NO: &[&str] = &["no", "false", "n"];
    let words: Vec<Vec<String>> = match kind {
        QuestionKind::Choice { options } if options.len() == 2 => options
            .iter()
            .map(|(key, description)| vec![word(key), word(&render(description))])
            .collect(),
        QuestionKind::Score { levels } if levels.len() == 2 => {
            levels.iter().map(|l| vec![word(&render(l))]).collect()
        }
        _ => return None,
    };
    let says = |i: usize, set: &[&str]| words[i].iter().any(|w| set.contains(&w.as_str()));
    match (says(0, YES) && says(1, NO), says(0, NO) && says(1, YES)) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    }
}

fn word(text: &str) -> String {
    text.trim().trim_end_matches(['.', '!']).to_lowercase()
}

static JOINT_QUESTIONS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)first question:\s*(?P<a>.+?)\s*second question:\s*(?P<b>.+?)\s*$")
        .expect("valid")
});
static JOINT_CELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)^\s*the answer to the first question is (yes|no)\b.*?\bthe answer to the second question is (yes|no)\b\W*$")
        .expect("valid")
});

/// A choice over the joint answers of two questions, when its instructions name them and
/// every option is one cell.
fn joint(instructions: &str, texts: &[String]) -> Option<Meaning> {
    let caps = JOINT_QUESTIONS.captures(instructions)?;
    let cells = texts
        .iter()
        .map(|t| {
            let cell = JOINT_CELL.captures(t)?;
            Some((
                cell[1].eq_ignore_ascii_case("yes"),
                cell[2].eq_ignore_ascii_case("yes"),
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    (cells.len() > 1).then(|| Meaning::Joint {
        first: statement::parse(&caps["a"]),
        second: statement::parse(&caps["b"]),
        cells,
    })
}

impl Meaning {
    /// The texts (as the encoder reads them) whose similarities its answer needs: none for
    /// [`Meaning::Alone`] (its outcome texts) and [`Meaning::Refers`].
    pub fn texts(&self) -> Vec<String> {
        let statements = |s: &[&Statement]| -> Vec<String> {
            s.iter()
                .flat_map(|s| s.plain_texts())
                .filter(|t| !t.trim().is_empty())
                .flat_map(|t| [t.to_owned(), outcomes::negate(t)])
                .collect()
        };
        match self {
            Self::Alone | Self::Refers { .. } => Vec::new(),
            Self::Statement(s) | Self::YesNo { statement: s, .. } => statements(&[s]),
            Self::Joint { first, second, .. } => statements(&[first, second]),
            Self::Outcomes {
                partition, reading, ..
            } => partition
                .texts()
                .into_iter()
                .map(|t| reading.read(t))
                .collect(),
        }
    }

    /// Its outcome probabilities given the similarity of any of its [`Self::texts`] to the
    /// state (`None` for [`Meaning::Alone`] and [`Meaning::Refers`]): `P(true)` for a noul,
    /// one per outcome otherwise.
    pub fn distribution(&self, similarity: &dyn Fn(&str) -> f64) -> Option<Vec<f64>> {
        let mut plain = |text: &str| {
            if text.trim().is_empty() {
                return 0.5;
            }
            let gap = similarity(text) - similarity(&outcomes::negate(text));
            scoring::sigmoid(gap / scoring::NEGATED_NOUL_TEMPERATURE)
        };
        match self {
            Self::Alone | Self::Refers { .. } => None,
            Self::Statement(s) => Some(vec![s.probability(&mut plain)]),
            Self::YesNo { statement, yes } => {
                let p = statement.probability(&mut plain);
                Some(if *yes == 0 {
                    vec![p, 1.0 - p]
                } else {
                    vec![1.0 - p, p]
                })
            }
            Self::Joint {
                first,
                second,
                cells,
            } => {
                let (a, b) = (
                    first.probability(&mut plain),
                    second.probability(&mut plain),
                );
                let mass: Vec<f64> = cells
                    .iter()
                    .map(|&(x, y)| (if x { a } else { 1.0 - a }) * (if y { b } else { 1.0 - b }))
                    .collect();
                // Cells named twice (or missing) are normalized over those asked.
                let total: f64 = mass.iter().sum();
                Some(if total > 0.0 {
                    mass.iter().map(|m| m / total).collect()
                } else {
                    vec![1.0 / mass.len() as f64; mass.len()]
                })
            }
            Self::Outcomes {
                partition,
                reading,
                temperature,
            } => Some(partition.probabilities(&|t| similarity(&reading.read(t)), *temperature)),
        }
    }
}

/// How the encoder reads an event's text: a choice option's without the clauses that
/// exclude, a framed score level's after its question's instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    framing: Option<String>,
    without_exclusions: bool,
}

impl Reading {
    fn read(&self, text: &str) -> String {
        let text = if self.without_exclusions {
            outcomes::without_exclusions(text)
        } else {
            text.to_owned()
        };
        match &self.framing {
            Some(instructions) if !instructions.trim().is_empty() => {
                format!("{instructions}\n{text}")
            }
            _ => text,
        }
    }
}

//! An answer as an annotator picks from it: its outcomes in question order, each with the
//! key that picks it and the ground truth it writes, and the model's guess.

use super::answer::Answer;
use serde_json::Value;

/// One outcome of an answer as an annotator picks it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The key that picks it: `y`/`n` for a noul, a choice's option from `1`, a score's
    /// level from `0`; `None` past the keys there are.
    pub key: Option<String>,
    /// As people read it: yes or no, the option's key, the level's legend.
    pub label: String,
    pub probability: f64,
    /// Whether it is the model's guess ([`Answer::guess`]).
    pub guess: bool,
    /// The ground truth that picking it writes.
    pub value: Value,
}

impl Answer {
    /// The model's guess as ground truth: a noul's more likely side (true at 0.5), a
    /// choice's most likely option, a score's most likely level (the lower of equals).
    pub fn guess(&self) -> Value {
        match self {
            Self::Noul { noul, .. } => Value::Bool(*noul >= 0.5),
            Self::Choice { probabilities, .. } => {
                let (i, _) = self.most_likely().unwrap_or((0, 0.0));
                probabilities
                    .get_index(i)
                    .map_or(Value::Null, |(key, _)| Value::String(key.clone()))
            }
            Self::Score { .. } => Value::from(self.most_likely().map_or(0, |(i, _)| i)),
        }
    }

    /// The outcomes an annotator picks from, in question order, with the key that picks
    /// each, its probability, and the guess marked.
    pub fn outcomes(&self) -> Vec<Outcome> {
        let best = self.most_likely().map(|(i, _)| i);
        match self {
            Self::Noul { noul, .. } => vec![
                Outcome {
                    key: Some("y".to_owned()),
                    label: "yes".to_owned(),
                    probability: *noul,
                    guess: *noul >= 0.5,
                    value: Value::Bool(true),
                },
                Outcome {
                    key: Some("n".to_owned()),
                    label: "no".to_owned(),
                    probability: 1.0 - noul,
                    guess: *noul < 0.5,
                    value: Value::Bool(false),
                },
            ],
            Self::Choice { probabilities, .. } => probabilities
                .iter()
                .enumerate()
                .map(|(i, (key, p))| Outcome {
                    key: (i < 9).then(|| (i + 1).to_string()),
                    label: key.clone(),
                    probability: *p,
                    guess: best == Some(i),
                    value: Value::String(key.clone()),
                })
                .collect(),
            Self::Score {
                probabilities,
                legend,
                ..
            } => probabilities
                .iter()
                .enumerate()
                .map(|(i, (level, p))| Outcome {
                    key: (i < 10).then(|| i.to_string()),
                    label: legend
                        .get(level)
                        .map_or_else(String::new, |text| match text {
                            Value::String(text) => text.clone(),
                            other => other.to_string(),
                        }),
                    probability: *p,
                    guess: best == Some(i),
                    value: Value::from(i),
                })
                .collect(),
        }
    }
}

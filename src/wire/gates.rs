//! Per-question gates: `gates.yaml` at a model repository's root (committed with the
//! questions it names), or the `gates` of an evaluation request. A map of question ID to
//! its gate; the ID `*` is the gate of every question the map does not name:
//!
//! ```yaml
//! intent: {accuracy: 0.85}
//! urgency: {max_ece: 0.1, no_regression: true}
//! "*": {accuracy: 0.6}
//! ```
//!
//! Read by the one validation pass, every fault located in its file (or body). Which
//! question IDs exist is the checkpoint's to say ([`Gates::unknown_questions`]).

use crate::wire::validate::{self, FieldError, Loc, Refusal, Rules, Segment, Validated};
use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// The file at a model repository's root.
pub const GATES_FILE: &str = "gates.yaml";

/// The key of the gate of every question a gates map does not name.
pub const EVERY_OTHER: &str = "*";

/// One question's gate: each metric set is a threshold it must meet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Gate {
    /// The question fails when its accuracy is below this (0 to 1).
    #[serde(deserialize_with = "fraction", skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub accuracy: Option<f64>,
    /// The question fails when its expected calibration error is above this (0 to 1).
    #[serde(deserialize_with = "fraction", skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub max_ece: Option<f64>,
    /// The question fails when it is worse than at the baseline (lower accuracy or higher
    /// loss); judged only when the evaluation has a baseline.
    #[serde(
        deserialize_with = "validate::fields::or_default",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub no_regression: bool,
}

impl Gate {
    /// Whether it sets no threshold.
    pub fn is_empty(&self) -> bool {
        self.accuracy.is_none() && self.max_ece.is_none() && !self.no_regression
    }
}

/// A threshold from 0 to 1 (null: none).
fn fraction<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
    let value = Option::<f64>::deserialize(deserializer)?;
    match value {
        Some(v) if !(0.0..=1.0).contains(&v) => {
            Err(Refusal::of(format!("must be a number from 0 to 1, not {v}"), "range").raise())
        }
        _ => Ok(value),
    }
}

/// Question ID (or [`EVERY_OTHER`]) → its gate, in the order written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Gates(pub IndexMap<String, Gate>);

impl Rules for Gates {}

impl Gates {
    /// Read `value`, which sits at `at`: every fault at once, each located.
    pub fn read(value: &Value, at: &Loc) -> Validated<Self> {
        if value.is_null() {
            // An empty file: no gates.
            return Ok(Self::default());
        }
        validate::read(value, at)
    }

    /// Parse the YAML `text` of the file called `file` (its name is the root of every
    /// fault's location, as `gates.yaml.intent.accuracy`).
    pub fn from_yaml(file: &str, text: &str) -> Result<Self, Vec<FieldError>> {
        let root = Loc(vec![Segment::Key(file.to_owned())]);
        let value = crate::wire::value::parse_yaml(text).map_err(|e| {
            vec![FieldError::new(
                root.clone(),
                format!("not valid YAML: {e}"),
                "yaml",
            )]
        })?;
        Self::read(&value, &root).map_err(|invalid| invalid.0)
    }

    /// A fault for each question ID that `exists` does not know ([`EVERY_OTHER`] aside),
    /// located under `at` (where the map sits).
    pub fn unknown_questions(&self, at: &Loc, exists: impl Fn(&str) -> bool) -> Vec<FieldError> {
        self.0
            .keys()
            .filter(|id| id.as_str() != EVERY_OTHER && !exists(id))
            .map(|id| {
                FieldError::new(
                    at.key(id),
                    format!("no question `{id}` at this checkpoint (a gate names a question of questions.yaml, or `*` for every other)"),
                    "unknown_question",
                )
            })
            .collect()
    }

    /// The gate of question `id`: its own, else the one of every other question.
    pub fn of(&self, id: &str) -> Option<&Gate> {
        self.0.get(id).or_else(|| self.0.get(EVERY_OTHER))
    }

    pub fn is_empty(&self) -> bool {
        self.0.values().all(Gate::is_empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> Vec<String> {
        Gates::from_yaml("gates.yaml", text)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_gates_file_reads_each_questions_gate_and_the_default() {
        let gates = Gates::from_yaml(
            "gates.yaml",
            "intent: {accuracy: 0.85}\nurgency: {max_ece: 0.1, no_regression: true}\n\"*\": {accuracy: 0.6}\n",
        )
        .unwrap();
        assert_eq!(gates.of("intent").unwrap().accuracy, Some(0.85));
        assert_eq!(gates.of("urgency").unwrap().max_ece, Some(0.1));
        assert!(gates.of("urgency").unwrap().no_regression);
        assert_eq!(gates.of("escalate").unwrap().accuracy, Some(0.6));
        assert!(Gates::from_yaml("gates.yaml", "").unwrap().is_empty());
        assert!(Gates::from_yaml("gates.yaml", "{}").unwrap().is_empty());
        let unknown = gates
            .unknown_questions(&Loc(vec![Segment::Key("gates.yaml".into())]), |id| {
                id == "intent"
            });
        assert_eq!(
            unknown
                .iter()
                .map(|e| e.loc.to_string())
                .collect::<Vec<_>>(),
            ["gates.yaml.urgency"]
        );
    }

    #[test]
    fn a_bad_gates_file_is_located() {
        assert_eq!(
            shown("intent: {accuracy: 1.5, min_f1: 0.2}\n"),
            [
                "gates.yaml.intent.accuracy: accuracy must be a number from 0 to 1, not 1.5",
                "gates.yaml.intent.min_f1: unknown member `min_f1` (known: accuracy, max_ece, no_regression)",
            ]
        );
        assert_eq!(shown("intent: [")[0].split(':').next(), Some("gates.yaml"));
        assert!(
            shown("- intent\n")[0].starts_with("gates.yaml: "),
            "{:?}",
            shown("- intent\n")
        );
    }
}

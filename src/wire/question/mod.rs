//! Question objects: `{type, instructions?, criteria?}` keyed by any string ID.
//!
//! Parsing collects every problem in one pass, each at its location, so a caller fixes a
//! question file in one round trip instead of one error at a time.

pub mod demonstrations;
mod read;
mod schema;
pub mod yaml_edit;

pub use read::{
    nullable_questions, optional_questions, parse_question, parse_questions, questions,
    read_question, read_questions,
};
pub use schema::QuestionsSchema;

use indexmap::IndexMap;
use serde_json::Value;

/// The member of `instructions` that marks a question as aligned (the built-in engine's
/// format, `engine::builtin::aligned`); named here so the contract can measure such
/// instructions by their task without knowing the engine.
pub const ALIGNMENT_KEY: &str = "arbiter_alignment";

/// Question ID → question, in request order (the order decides choice ties and output order).
pub type Questions = IndexMap<String, Question>;

/// One question. `instructions` is `None` when absent; any JSON value (null included) otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub instructions: Option<Value>,
    pub kind: QuestionKind,
}

/// The typed part of a question. Descriptions keep their JSON form (string, object, array).
#[derive(Debug, Clone, PartialEq)]
pub enum QuestionKind {
    /// Probability that a statement holds; each description may be null.
    Noul { when_true: Value, when_false: Value },
    /// Named options, in order; a description may be null. No minimum count.
    Choice { options: Vec<(String, Value)> },
    /// Rubric levels 0..N-1, N ≥ 1, none null.
    Score { levels: Vec<Value> },
}

impl QuestionKind {
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Noul { .. } => "noul",
            Self::Choice { .. } => "choice",
            Self::Score { .. } => "score",
        }
    }
}

impl Question {
    /// The instructions unless absent or null.
    pub fn instructions(&self) -> Option<&Value> {
        self.instructions.as_ref().filter(|v| !v.is_null())
    }

    /// The canonical JSON object of this question.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Serialize a question map (the order is kept).
pub fn questions_to_value(questions: &Questions) -> Value {
    Value::Object(
        questions
            .iter()
            .map(|(id, q)| (id.clone(), q.to_value()))
            .collect(),
    )
}

#[cfg(test)]
mod tests;

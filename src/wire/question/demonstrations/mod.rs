//! Instructions with demonstrations: what `arbiter align --instructions` writes into a
//! question's `instructions` (any JSON, as the specification allows), and what an engine
//! reads of them.
//!
//! ```yaml
//! intent:
//!   type: choice
//!   instructions:
//!     task: What does the customer mainly want?   # the instructions as they were (any JSON; absent when there were none)
//!     demonstrations:                              # annotated examples, each with its right answer
//!       - example_id: ex_7fc1…                     # the example it is (never its own demonstration)
//!         excerpt: "I was charged twice for …"     # the state's text, or its whole `state: {…}`
//!         answer: refund
//!         reason: asks for the money back          # the annotator's reason, when there was one
//! ```
//!
//! A remote engine receives all of it as the question's instructions (a System One server
//! its JSON; a chat model reads it in its prompt). The built-in engine frames its outcomes
//! with `task` alone and compares the state with each demonstration
//! (`engine::builtin`).

use super::Question;
use crate::wire::validate::{FieldError, Loc};
use serde_json::Value;

/// The member that holds the demonstrations.
pub const DEMONSTRATIONS: &str = "demonstrations";
/// The member that holds the instructions as they were.
pub const TASK: &str = "task";

/// One demonstration, as read.
#[derive(Debug, Clone, PartialEq)]
pub struct Demonstration {
    pub example_id: Option<String>,
    /// The text to compare with: the excerpt, or the whole state's.
    pub excerpt: Option<String>,
    pub state: Option<Value>,
    pub answer: Value,
    pub reason: Option<String>,
}

impl Question {
    /// Whether the instructions carry demonstrations.
    pub fn has_demonstrations(&self) -> bool {
        matches!(&self.instructions, Some(Value::Object(o)) if o.contains_key(DEMONSTRATIONS))
    }

    /// What the question asks, without its demonstrations: `task` when it has them, else
    /// the instructions; `None` when absent or null.
    pub fn task(&self) -> Option<&Value> {
        if self.has_demonstrations() {
            self.instructions
                .as_ref()
                .and_then(|i| i.get(TASK))
                .filter(|v| !v.is_null())
        } else {
            self.instructions()
        }
    }

    /// The demonstrations, in order (none when it has none; an entry that is not an object
    /// with an `answer` is not one: [`check`] refuses it in a file).
    pub fn demonstrations(&self) -> Vec<Demonstration> {
        let Some(Value::Array(list)) = self
            .instructions
            .as_ref()
            .and_then(|i| i.get(DEMONSTRATIONS))
        else {
            return Vec::new();
        };
        list.iter()
            .filter_map(|entry| {
                let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::to_owned);
                Some(Demonstration {
                    example_id: text("example_id"),
                    excerpt: text("excerpt"),
                    state: entry.get("state").cloned(),
                    answer: entry.get("answer")?.clone(),
                    reason: text("reason"),
                })
            })
            .collect()
    }

    /// Whether `example_id` is one of its demonstrations.
    pub fn demonstrates(&self, example_id: &str) -> bool {
        self.demonstrations()
            .iter()
            .any(|d| d.example_id.as_deref() == Some(example_id))
    }

    /// The question without its demonstration of `example_id` (so that an example is never
    /// answered by its own demonstration); `None` when it has none.
    pub fn without_demonstration(&self, example_id: &str) -> Option<Self> {
        if !self.demonstrates(example_id) {
            return None;
        }
        let mut instructions = self.instructions.clone()?;
        if let Some(Value::Array(list)) = instructions.get_mut(DEMONSTRATIONS) {
            list.retain(|d| d.get("example_id").and_then(Value::as_str) != Some(example_id));
        }
        Some(Self {
            instructions: Some(instructions),
            kind: self.kind.clone(),
        })
    }
}

/// The faults of a question's demonstrations (`loc`: the question's location): each must
/// be an object with an `answer` and an `excerpt` (text) or a `state`.
pub fn check(question: &Question, loc: &Loc) -> Vec<FieldError> {
    let Some(list) = question
        .instructions
        .as_ref()
        .and_then(|i| i.get(DEMONSTRATIONS))
    else {
        return Vec::new();
    };
    let loc = loc.key("instructions").key(DEMONSTRATIONS);
    let Value::Array(list) = list else {
        return vec![FieldError::new(
            loc,
            "must be an array of demonstrations",
            "array_expected",
        )];
    };
    let mut errors = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let at = loc.index(i);
        let Value::Object(members) = entry else {
            errors.push(FieldError::new(
                at,
                "must be an object {excerpt or state, answer, reason?}",
                "object_expected",
            ));
            continue;
        };
        if !members.contains_key("answer") {
            errors.push(FieldError::new(
                at.key("answer"),
                "a demonstration needs its answer",
                "missing",
            ));
        }
        match (members.get("excerpt"), members.get("state")) {
            (Some(Value::String(_)), _) | (None, Some(_)) => {}
            (Some(_), _) => errors.push(FieldError::new(
                at.key("excerpt"),
                "must be text",
                "string_expected",
            )),
            (None, None) => errors.push(FieldError::new(
                at,
                "a demonstration needs its `excerpt` (text) or its `state`",
                "missing",
            )),
        }
    }
    errors
}

#[cfg(test)]
mod tests;

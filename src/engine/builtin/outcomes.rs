//! The text of each outcome of a question, as the encoder reads it.

use super::text::render;
use crate::wire::{Question, QuestionKind};
use serde_json::Value;

/// The two sides of a noul question, or `None` when it states nothing to compare.
pub fn noul_sides(question: &Question) -> Option<(String, String)> {
    let QuestionKind::Noul {
        when_true,
        when_false,
    } = &question.kind
    else {
        return None;
    };
    let statement = question.instructions().map(render).unwrap_or_default();
    let truthy = non_blank(render(when_true)).or_else(|| non_blank(statement.clone()));
    let falsy = non_blank(render(when_false));
    match (truthy, falsy) {
        (Some(t), Some(f)) => Some((t, f)),
        (Some(t), None) => {
            let negation = negate(&t);
            Some((t, negation))
        }
        (None, Some(f)) => {
            let negation = negate(&f);
            Some((negation, f))
        }
        (None, None) => None,
    }
}

/// The text of each choice option, in order: `key: description`, or the key alone.
pub fn choice_texts(options: &[(String, Value)]) -> Vec<String> {
    options
        .iter()
        .map(|(key, description)| {
            let description = render(description);
            let text = match (key.trim(), description.is_empty()) {
                (key, true) => key.to_owned(),
                ("", false) => description,
                (key, false) => format!("{key}: {description}"),
            };
            non_blank(text).unwrap_or_else(|| "option".to_owned())
        })
        .collect()
}

/// The text of each score level, in order: its description, or `level i` when it has none.
pub fn score_texts(levels: &[Value]) -> Vec<String> {
    levels
        .iter()
        .enumerate()
        .map(|(i, level)| non_blank(render(level)).unwrap_or_else(|| format!("level {i}")))
        .collect()
}

fn negate(statement: &str) -> String {
    format!("It is not the case that {statement}")
}

fn non_blank(text: String) -> Option<String> {
    (!text.trim().is_empty()).then_some(text)
}

//! Rendering JSON to the plain text the encoder reads. Deterministic: the same value always
//! renders to the same text.
//!
//! - strings as themselves; numbers, booleans as their JSON spelling; null as nothing
//! - a message (`{"role", "content"}`) as `role: content`; content blocks contribute their
//!   text, image blocks (`{"type": "image_url", ...}`) contribute nothing (no pixels are read)
//! - an object as `key: value` lines, nested values indented under their key
//! - an array as one line per element

use serde_json::Value;
use std::fmt::Write;

/// Render any JSON value as text.
pub fn render(value: &Value) -> String {
    let mut out = String::new();
    render_into(value, 0, &mut out);
    out.trim_end().to_owned()
}

fn render_into(value: &Value, depth: usize, out: &mut String) {
    match value {
        Value::Null => {}
        Value::Bool(b) => line(out, depth, &b.to_string()),
        Value::Number(n) => line(out, depth, &n.to_string()),
        Value::String(s) => line(out, depth, s),
        Value::Array(items) => {
            for item in items {
                render_into(item, depth, out);
            }
        }
        Value::Object(object) => {
            if is_image_block(value) {
                return;
            }
            if let Some(text) = text_block(value) {
                line(out, depth, text);
                return;
            }
            if let Some(role) = object.get("role").and_then(Value::as_str)
                && let Some(content) = object.get("content")
            {
                let content = render(content);
                if !content.is_empty() {
                    line(out, depth, &format!("{role}: {content}"));
                }
                return;
            }
            for (key, item) in object {
                match item {
                    Value::Object(_) | Value::Array(_) => {
                        let mut nested = String::new();
                        render_into(item, depth + 1, &mut nested);
                        if !nested.trim().is_empty() {
                            line(out, depth, &format!("{key}:"));
                            out.push_str(&nested);
                        }
                    }
                    Value::Null => {}
                    Value::String(s) => line(out, depth, &format!("{key}: {s}")),
                    scalar => line(out, depth, &format!("{key}: {scalar}")),
                }
            }
        }
    }
}

fn line(out: &mut String, depth: usize, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    for _ in 0..depth {
        out.push_str("  ");
    }
    let _ = writeln!(out, "{text}");
}

/// `{"type": "image_url", "image_url": {"url": ...}}`: accepted, never read.
fn is_image_block(value: &Value) -> bool {
    value.get("type").and_then(Value::as_str) == Some("image_url")
}

/// `{"type": "text", "text": "..."}` content blocks read as their text.
fn text_block(value: &Value) -> Option<&str> {
    (value.get("type").and_then(Value::as_str) == Some("text"))
        .then(|| value.get("text").and_then(Value::as_str))
        .flatten()
}

/// The text a person wrote in a value: its string values, one per line. Never its keys,
/// numbers, booleans or JSON syntax, nor the strings that are structure (a message's
/// `role`, a content block's `type`, an image block). What alignment learns cues from, so
/// that a cue is content, not the shape of the state.
pub fn text_values(value: &Value) -> String {
    let mut out = String::new();
    text_values_into(value, &mut out);
    out.trim_end().to_owned()
}

fn text_values_into(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => line(out, 0, s),
        Value::Array(items) => items.iter().for_each(|item| text_values_into(item, out)),
        Value::Object(object) => {
            if is_image_block(value) {
                return;
            }
            if let Some(text) = text_block(value) {
                line(out, 0, text);
                return;
            }
            let is_message =
                object.get("role").is_some_and(Value::is_string) && object.contains_key("content");
            for (key, item) in object {
                if !(is_message && key == "role") {
                    text_values_into(item, out);
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// A cheap lower bound on the `WordPiece` tokens of `text`: its tokenizer splits at white
/// space and at every ASCII punctuation character, so each run of letters and digits
/// between those is at least one token and each such character exactly one. Other
/// characters (accents it strips, symbols) count nothing and split nothing, so the bound
/// never exceeds the true count. One pass over the characters, no tokenizer.
pub fn least_tokens(text: &str) -> usize {
    let mut count = 0;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_whitespace() {
            in_word = false;
        } else if c.is_ascii_punctuation() {
            count += 1;
            in_word = false;
        } else if c.is_alphanumeric() && !in_word {
            count += 1;
            in_word = true;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_render_as_role_and_text() {
        let state = json!({"messages": [
            {"role": "user", "content": "my card was charged twice"},
            {"role": "assistant", "content": [{"type": "text", "text": "Sorry!"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}
        ]});
        assert_eq!(
            render(&state),
            "messages:\n  user: my card was charged twice\n  assistant: Sorry!"
        );
    }

    #[test]
    fn objects_render_as_key_value_lines() {
        let state = json!({"subject": "Refund", "priority": 2, "vip": true, "note": null,
            "customer": {"name": "Ada", "tags": ["a", "b"]}});
        assert_eq!(
            render(&state),
            "subject: Refund\npriority: 2\nvip: true\ncustomer:\n  name: Ada\n  tags:\n    a\n    b"
        );
    }

    #[test]
    fn text_values_are_the_strings_without_keys_roles_or_scalars() {
        let state = json!({
            "channel": "email",
            "priority": 3,
            "vip": true,
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "My parcel is late"},
                                             {"type": "image_url", "image_url": {"url": "x"}}]},
                {"role": "agent", "content": "Sorry to hear that"}
            ],
            "customer": {"name": "Ana", "notes": null}
        });
        assert_eq!(
            text_values(&state),
            "email\nMy parcel is late\nSorry to hear that\nAna"
        );
        assert_eq!(text_values(&json!({"a": 1, "b": [true, null]})), "");
    }

    #[test]
    fn scalars_and_empty_values() {
        assert_eq!(render(&json!("  hi ")), "hi");
        assert_eq!(render(&json!(null)), "");
        assert_eq!(render(&json!({})), "");
        assert_eq!(
            render(&json!([{"type": "image_url", "image_url": {"url": "x"}}])),
            ""
        );
    }
}

//! A state as the screen shows it: as text to read, not JSON to decode. A string keeps its
//! line breaks (a stack trace, a code fence), `messages: [{role, content}]` reads as one
//! `role:` block per message, any other object as a `field: value` list (what is nested,
//! indented) and an array as `- ` items. On the screen every row is wrapped to the width
//! ([`rows`]), its continuation rows indented as it is; line mode prints the same lines
//! unwrapped ([`lines`]). Control characters are shown escaped (`\u{1b}`), never sent to
//! the terminal ([`escape_controls`]); a tab becomes spaces.

use crate::cli::output::escape_controls;
use serde_json::{Map, Value};

/// Columns a tab takes.
const TAB: &str = "    ";

/// One row of the state as shown: indented by `indent` columns, a role's heading or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Row {
    pub(super) indent: usize,
    pub(super) text: String,
    pub(super) heading: bool,
}

/// `state` as rows at most `width` columns wide (indent included, down to a few columns
/// of text for what is nested deepest).
pub(super) fn rows(state: &Value, width: usize) -> Vec<Row> {
    let mut lines = Vec::new();
    value(&mut lines, state, 0);
    let mut rows = Vec::with_capacity(lines.len());
    for line in lines {
        let room = width.saturating_sub(line.indent).max(8);
        for (i, text) in wrap(&line.text, room, line.hang).into_iter().enumerate() {
            rows.push(Row {
                indent: line.indent,
                text: if i == 0 {
                    text
                } else {
                    format!("{}{text}", " ".repeat(line.hang))
                },
                heading: line.heading,
            });
        }
    }
    rows
}

/// `state` as lines of text, not wrapped (a row's indent written as spaces): what line
/// mode prints, where the reader's terminal, if there is one, wraps.
pub(super) fn lines(state: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    value(&mut lines, state, 0);
    lines
        .into_iter()
        .map(|line| format!("{}{}", " ".repeat(line.indent), line.text))
        .collect()
}

/// A logical line before it is wrapped: its continuation rows go `hang` columns further in.
struct Line {
    indent: usize,
    hang: usize,
    text: String,
    heading: bool,
}

impl Line {
    fn new(indent: usize, text: String) -> Self {
        Self {
            indent,
            hang: 0,
            text,
            heading: false,
        }
    }
}

fn value(out: &mut Vec<Line>, value: &Value, indent: usize) {
    match value {
        Value::String(text) => text_lines(out, text, indent),
        Value::Object(map) if !map.is_empty() => {
            for (key, field) in map {
                self::field(out, key, field, indent);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                self::item(out, item, indent);
            }
        }
        other => out.push(Line::new(indent, scalar(other))),
    }
}

/// A string's lines, each a line of its own (an empty string shows as `""`).
fn text_lines(out: &mut Vec<Line>, text: &str, indent: usize) {
    if text.is_empty() {
        out.push(Line::new(indent, "\"\"".to_owned()));
        return;
    }
    let text = text.replace("\r\n", "\n");
    for line in text.split('\n') {
        out.push(Line::new(indent, shown(line)));
    }
}

/// `key: value` on one line when the value fits one (a number, a one-line string), else
/// `key:` over the value, indented.
fn field(out: &mut Vec<Line>, key: &str, value: &Value, indent: usize) {
    let key = one_line(key);
    if let Some(messages) = messages(value) {
        out.push(Line::new(indent, format!("{key}:")));
        for message in messages {
            self::message(out, message, indent + 2);
        }
        return;
    }
    if let Some(text) = inline(value) {
        out.push(Line {
            hang: 2,
            ..Line::new(indent, format!("{key}: {text}"))
        });
    } else {
        out.push(Line::new(indent, format!("{key}:")));
        self::value(out, value, indent + 2);
    }
}

/// `- item`: an item's first line after the dash, its others under it.
fn item(out: &mut Vec<Line>, value: &Value, indent: usize) {
    if let Some(text) = inline(value) {
        out.push(Line {
            hang: 2,
            ..Line::new(indent, format!("- {text}"))
        });
        return;
    }
    let start = out.len();
    self::value(out, value, indent + 2);
    if let Some(first) = out.get_mut(start) {
        first.indent = indent;
        first.text = format!("- {}", first.text);
        first.hang += 2;
    }
}

/// A chat's messages, when `value` is one: an array of objects, each with a string `role`.
fn messages(value: &Value) -> Option<Vec<&Map<String, Value>>> {
    let items = value.as_array().filter(|items| !items.is_empty())?;
    items
        .iter()
        .map(|item| {
            item.as_object()
                .filter(|message| message.get("role").is_some_and(Value::is_string))
        })
        .collect()
}

/// `role:` over the content, then whatever else the message holds.
fn message(out: &mut Vec<Line>, message: &Map<String, Value>, indent: usize) {
    let role = message.get("role").and_then(Value::as_str).unwrap_or("");
    out.push(Line {
        heading: true,
        ..Line::new(indent, format!("{}:", one_line(role)))
    });
    if let Some(content) = message.get("content") {
        value(out, content, indent + 2);
    }
    for (key, field) in message {
        if key != "role" && key != "content" {
            self::field(out, key, field, indent + 2);
        }
    }
}

/// A value's text when it takes one line: a scalar, an empty object or array, a string
/// without a line break.
fn inline(value: &Value) -> Option<String> {
    match value {
        Value::String(text) if text.is_empty() => Some("\"\"".to_owned()),
        Value::String(text) if !text.contains('\n') => Some(shown(text)),
        Value::Object(map) if map.is_empty() => Some("{}".to_owned()),
        Value::Array(items) if items.is_empty() => Some("[]".to_owned()),
        Value::String(_) | Value::Object(_) | Value::Array(_) => None,
        other => Some(scalar(other)),
    }
}

/// A number, a boolean, null, an empty object or array, as JSON writes it.
fn scalar(value: &Value) -> String {
    match value {
        Value::Object(_) => "{}".to_owned(),
        Value::Array(_) => "[]".to_owned(),
        other => other.to_string(),
    }
}

/// One line of a string as shown: tabs as spaces, other control characters escaped.
fn shown(line: &str) -> String {
    escape_controls(&line.replace('\t', TAB)).into_owned()
}

/// A key or a role, on one line whatever it holds: its line breaks and tabs escaped too.
fn one_line(text: &str) -> String {
    escape_controls(text)
        .replace('\n', r"\u{a}")
        .replace('\t', r"\u{9}")
}

/// The display width of one character.
fn char_width(c: char) -> usize {
    let mut buffer = [0; 4];
    console::measure_text_width(c.encode_utf8(&mut buffer))
}

/// `text` cut into rows of at most `width` columns, between words where it can (a word
/// wider than a row is cut where it must); continuation rows have `hang` columns less.
/// Leading spaces (code's indentation) are kept.
fn wrap(text: &str, width: usize, hang: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut room = width.max(1);
    let mut used = 0;
    // The last space after the row's first word: its byte offset and the width before it.
    let mut space: Option<(usize, usize)> = None;
    for c in text.chars() {
        let wide = char_width(c);
        while used + wide > room && !row.is_empty() {
            if let Some((at, before)) = space {
                let rest = row.split_off(at + 1);
                row.truncate(at);
                rows.push(std::mem::replace(&mut row, rest));
                used -= before + 1;
            } else {
                rows.push(std::mem::take(&mut row));
                used = 0;
            }
            space = last_space(&row);
            room = width.saturating_sub(hang).max(1);
        }
        if c == ' ' && !row.trim_start().is_empty() {
            space = Some((row.len(), used));
        }
        row.push(c);
        used += wide;
    }
    rows.push(row);
    rows
}

/// The last space of `row` after its first word: its byte offset and the width before it.
fn last_space(row: &str) -> Option<(usize, usize)> {
    let mut found = None;
    let mut used = 0;
    for (at, c) in row.char_indices() {
        if c == ' ' && !row[..at].trim_start().is_empty() {
            found = Some((at, used));
        }
        used += char_width(c);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(state: &Value, width: usize) -> Vec<String> {
        rows(state, width)
            .into_iter()
            .map(|row| format!("{}{}", " ".repeat(row.indent), row.text))
            .collect()
    }

    #[test]
    fn messages_read_as_role_blocks_with_their_line_breaks() {
        let state = json!({"messages": [
            {"role": "user", "content": "It crashes:\n```\npanicked at src/main.rs:3\n```"},
            {"role": "assistant", "content": "Which version?", "name": "bot"},
        ]});
        assert_eq!(
            text(&state, 80),
            [
                "messages:",
                "  user:",
                "    It crashes:",
                "    ```",
                "    panicked at src/main.rs:3",
                "    ```",
                "  assistant:",
                "    Which version?",
                "    name: bot",
            ]
        );
        let headings: Vec<String> = rows(&state, 80)
            .into_iter()
            .filter(|row| row.heading)
            .map(|row| row.text)
            .collect();
        assert_eq!(headings, ["user:", "assistant:"]);
    }

    #[test]
    fn objects_are_field_lists_nested_indented_and_arrays_items() {
        let state = json!({
            "subject": "Refund",
            "body": "line one\r\nline two",
            "customer": {"plan": "pro", "seats": 3, "tags": ["vip", {"since": 2021}], "notes": []},
            "open": true,
            "empty": "",
            "none": null,
        });
        assert_eq!(
            text(&state, 80),
            [
                "subject: Refund",
                "body:",
                "  line one",
                "  line two",
                "customer:",
                "  plan: pro",
                "  seats: 3",
                "  tags:",
                "    - vip",
                "    - since: 2021",
                "  notes: []",
                "open: true",
                "empty: \"\"",
                "none: null",
            ]
        );
        assert_eq!(text(&json!("just text"), 80), ["just text"]);
        assert_eq!(text(&json!([1, "two"]), 80), ["- 1", "- two"]);
    }

    #[test]
    fn control_characters_are_shown_escaped_never_sent() {
        // Clear the screen, set the window title, a C1 CSI, a carriage return, a tab.
        let state = json!({
            "ti\u{1b}]0;x\u{7}tle": "a\u{1b}[2Jb\u{9b}c\rd\te",
            "messages": [{"role": "us\ner", "content": "\u{1b}[31mred"}],
        });
        let shown = text(&state, 80);
        assert_eq!(
            shown,
            [
                r"ti\u{1b}]0;x\u{7}tle: a\u{1b}[2Jb\u{9b}c\u{d}d    e",
                "messages:",
                r"  us\u{a}er:",
                r"    \u{1b}[31mred",
            ]
        );
        assert!(
            shown.iter().all(|row| !row.chars().any(char::is_control)),
            "{shown:?}"
        );
    }

    #[test]
    fn long_rows_wrap_between_words_to_the_width_keeping_their_indent() {
        let state = json!({"messages": [{"role": "user", "content": "word ".repeat(30)}]});
        let shown = text(&state, 40);
        assert!(shown.len() > 3, "{shown:?}");
        assert!(
            shown.iter().all(|row| row.chars().count() <= 40),
            "{shown:?}"
        );
        assert!(
            shown[2..].iter().all(|row| row.starts_with("    word")),
            "{shown:?}"
        );
        // A word wider than the row is cut; a field's value hangs under its key.
        let long = json!({"url": format!("see {}", "x".repeat(30))});
        assert_eq!(
            text(&long, 20),
            [
                "url: see".to_owned(),
                format!("  {}", "x".repeat(18)),
                format!("  {}", "x".repeat(12))
            ]
        );
        // Code keeps its indentation.
        assert_eq!(wrap("    let x = 1;", 80, 0), ["    let x = 1;"]);
        assert_eq!(wrap("", 10, 0), [""]);
    }

    #[test]
    fn lines_are_the_rows_unwrapped() {
        let long = "word ".repeat(40);
        let state = json!({"messages": [
            {"role": "user", "content": format!("first\n{long}")},
        ], "open": true});
        assert_eq!(
            lines(&state),
            [
                "messages:".to_owned(),
                "  user:".to_owned(),
                "    first".to_owned(),
                format!("    {long}"),
                "open: true".to_owned(),
            ]
        );
        // Wide enough, the screen's rows are the same lines.
        assert_eq!(text(&state, 1000), lines(&state));
    }
}

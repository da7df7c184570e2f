//! Setting a question's `instructions` in a questions file without rewriting the rest of
//! it: every other byte (comments, order, quoting, blank lines) stays as the user wrote
//! it. `arbiter align` writes a question's instructions this way, so that a checkpoint's
//! `questions.yaml` stays the user's file.
//!
//! The file is read with libyaml's parser (the one `serde_yaml` reads with), event by
//! event, for where each question's mapping and its `instructions` entry are; only that
//! entry's value is replaced (or the entry added after `type`, or removed). A question
//! written as a flow mapping (`{type: noul, …}`) is written again whole, as JSON. The
//! edited text is parsed again and must read as the intended questions; when it does not,
//! [`with_instructions`] says so, and the caller writes the file whole.

use serde_json::Value;
use std::ops::Range;
use unsafe_libyaml::{
    YAML_ALIAS_EVENT, YAML_MAPPING_END_EVENT, YAML_MAPPING_START_EVENT, YAML_NO_EVENT,
    YAML_SCALAR_EVENT, YAML_SEQUENCE_END_EVENT, YAML_SEQUENCE_START_EVENT, YAML_STREAM_END_EVENT,
    YAML_UTF8_ENCODING, yaml_event_delete, yaml_event_t, yaml_event_type_t, yaml_parser_delete,
    yaml_parser_initialize, yaml_parser_parse, yaml_parser_set_encoding,
    yaml_parser_set_input_string, yaml_parser_t,
};

/// `text` (a questions file) with each `(question ID, instructions)` of `edits` set: a
/// value replaces the question's instructions, `None` removes them. `None` when the text
/// cannot be edited in place (it is not a mapping of questions, a question is not in it,
/// or the edit would read otherwise than intended).
pub fn with_instructions(text: &str, edits: &[(&str, Option<&Value>)]) -> Option<String> {
    let original = crate::wire::value::parse_yaml(text).ok()?;
    let mut expected = original.clone();
    let mut edited = text.to_owned();
    // From the end of the file back, so that the spans found before stay where they are.
    let mut placed: Vec<(Range<usize>, String)> = Vec::new();
    let questions = Layout::read(text)?;
    for (id, instructions) in edits {
        let question = expected.get_mut(*id)?.as_object_mut()?;
        match instructions {
            Some(value) => {
                question.insert("instructions".into(), (*value).clone());
            }
            None => {
                question.remove("instructions");
            }
        }
        let found = questions.iter().find(|q| q.id == *id)?;
        placed.push(found.edit(text, *instructions, &expected[*id])?);
    }
    placed.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    for pair in placed.windows(2) {
        if pair[1].0.end > pair[0].0.start {
            return None;
        }
    }
    for (range, replacement) in placed {
        edited.replace_range(range, &replacement);
    }
    (crate::wire::value::parse_yaml(&edited).ok()? == expected).then_some(edited)
}

/// Where one question is in the file.
#[derive(Debug)]
struct QuestionAt {
    id: String,
    /// The question's mapping: its span, and whether it is a flow mapping.
    value: Range<usize>,
    flow: bool,
    /// Its first key's start: the column entries are indented to.
    first_key: usize,
    /// The `type` entry's end, when it has one.
    type_end: Option<usize>,
    /// The `instructions` entry: its key's start and end, and its value's end.
    instructions: Option<(usize, usize, usize)>,
}

impl QuestionAt {
    /// The span to replace, and its replacement, for `instructions` (`question` is the whole
    /// question as it must read).
    fn edit(
        &self,
        text: &str,
        instructions: Option<&Value>,
        question: &Value,
    ) -> Option<(Range<usize>, String)> {
        if self.flow {
            return Some((self.value.clone(), serde_json::to_string(question).ok()?));
        }
        let indent = column(text, self.first_key);
        match (instructions, self.instructions) {
            (Some(value), Some((_, key_end, value_end))) => Some((
                key_end..value_end,
                format!(":{}", render(value, indent + 2)?),
            )),
            (Some(value), None) => {
                let entry = format!("instructions:{}", render(value, indent + 2)?);
                Some(match self.type_end {
                    Some(end) => (end..end, format!("\n{}{entry}", " ".repeat(indent))),
                    None => (
                        self.first_key..self.first_key,
                        format!("{entry}\n{}", " ".repeat(indent)),
                    ),
                })
            }
            (None, Some((key_start, _, value_end))) => {
                // The whole entry, from its line's start to its value's line end.
                let start = text[..key_start].rfind('\n').map_or(0, |i| i + 1);
                let end = text[value_end..]
                    .find('\n')
                    .map_or(text.len(), |i| value_end + i + 1);
                Some((start..end, String::new()))
            }
            (None, None) => Some((self.first_key..self.first_key, String::new())),
        }
    }
}

/// The 0-based column (in characters) of byte `at`.
fn column(text: &str, at: usize) -> usize {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..at].chars().count()
}

/// `value` as the YAML after an entry's `:`: ` scalar` on the key's line, or a block on
/// the lines below, indented by `indent`.
fn render(value: &Value, indent: usize) -> Option<String> {
    let yaml = serde_yaml::to_string(value).ok()?;
    let yaml = yaml.strip_suffix('\n').unwrap_or(&yaml);
    let block = matches!(value, Value::Object(o) if !o.is_empty())
        || matches!(value, Value::Array(a) if !a.is_empty());
    let pad = " ".repeat(indent);
    if block {
        Some(yaml.lines().fold(String::new(), |mut out, line| {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&pad);
            }
            out.push_str(line);
            out
        }))
    } else {
        // A scalar; a multi-line string is a block scalar whose lines follow its header.
        let mut lines = yaml.lines();
        let mut out = format!(" {}", lines.next()?);
        for line in lines {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&pad);
                out.push_str(line.trim_start_matches("  "));
            }
        }
        Some(out)
    }
}

/// The questions of a file, as found by walking its events.
struct Layout;

impl Layout {
    fn read(text: &str) -> Option<Vec<QuestionAt>> {
        let events = Events::read(text)?;
        let mut questions = Vec::new();
        // The top mapping's entries: key, value, key, value, …
        let mut at = events
            .iter()
            .position(|e| e.kind == YAML_MAPPING_START_EVENT)?
            + 1;
        while events.get(at)?.kind != YAML_MAPPING_END_EVENT {
            let key = &events[at];
            let value_end = skip(&events, at + 1)?;
            if key.kind == YAML_SCALAR_EVENT {
                let value = &events[at + 1];
                if value.kind == YAML_MAPPING_START_EVENT {
                    questions.push(question_at(text, &events, key, at + 1, value_end)?);
                }
            }
            at = value_end;
        }
        Some(questions)
    }
}

/// The question whose key is `key` and whose mapping's events are `start..end`.
fn question_at(
    text: &str,
    events: &[Event],
    key: &Event,
    start: usize,
    end: usize,
) -> Option<QuestionAt> {
    let mapping = &events[start];
    let flow = text.get(mapping.start..)?.starts_with('{');
    let mut question = QuestionAt {
        id: key.value.clone(),
        value: mapping.start..content_end(text, events, start, end),
        flow,
        first_key: events.get(start + 1).map_or(mapping.start, |e| e.start),
        type_end: None,
        instructions: None,
    };
    let mut at = start + 1;
    while at < end - 1 {
        let entry_key = &events[at];
        let next = skip(events, at + 1)?;
        let value_end = content_end(text, events, at + 1, next);
        if entry_key.kind == YAML_SCALAR_EVENT {
            match entry_key.value.as_str() {
                "type" => question.type_end = Some(value_end),
                "instructions" => {
                    question.instructions = Some((entry_key.start, entry_key.end, value_end));
                }
                _ => {}
            }
        }
        at = next;
    }
    Some(question)
}

/// The index after the node starting at event `at`.
fn skip(events: &[Event], at: usize) -> Option<usize> {
    let first = events.get(at)?;
    if first.kind != YAML_MAPPING_START_EVENT && first.kind != YAML_SEQUENCE_START_EVENT {
        return Some(at + 1);
    }
    let mut depth = 0usize;
    for (i, event) in events.iter().enumerate().skip(at) {
        match event.kind {
            YAML_MAPPING_START_EVENT | YAML_SEQUENCE_START_EVENT => depth += 1,
            YAML_MAPPING_END_EVENT | YAML_SEQUENCE_END_EVENT => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Where the content of the events `start..end` ends: its last scalar's or flow
/// collection's end, never a block collection's end (which libyaml places at the next
/// token, past comments and blank lines that belong to what follows), with trailing
/// whitespace left out.
fn content_end(text: &str, events: &[Event], start: usize, end: usize) -> usize {
    let last = events[start..end]
        .iter()
        .rev()
        .find(|e| match e.kind {
            YAML_SCALAR_EVENT | YAML_ALIAS_EVENT => true,
            YAML_MAPPING_END_EVENT | YAML_SEQUENCE_END_EVENT => {
                // A flow collection's end is its closing bracket.
                matches!(text.as_bytes().get(e.start), Some(b'}' | b']'))
            }
            YAML_MAPPING_START_EVENT | YAML_SEQUENCE_START_EVENT => {
                // An empty flow collection, `{}` or `[]`.
                matches!(text.get(e.start..e.end), Some("{}" | "[]"))
            }
            _ => false,
        })
        .map_or(events[start].end, |e| e.end)
        .min(text.len());
    text[..last].trim_end().len()
}

/// One parser event: its kind, where it starts and ends (byte offsets), and a scalar's value.
#[derive(Debug)]
struct Event {
    kind: yaml_event_type_t,
    start: usize,
    end: usize,
    value: String,
}

struct Events;

impl Events {
    /// Every event of `text`, up to the stream's end; `None` on a parse error.
    fn read(text: &str) -> Option<Vec<Event>> {
        let mut parser = Box::new(std::mem::MaybeUninit::<yaml_parser_t>::uninit());
        let raw = parser.as_mut_ptr();
        let mut events = Vec::new();
        // SAFETY: `raw` points to a boxed, aligned `yaml_parser_t` that
        // `yaml_parser_initialize` fills; the input is set only after it succeeded, and
        // `text` outlives the parser, which is deleted before this returns. Each event is
        // written by `yaml_parser_parse` and deleted with `yaml_event_delete` once read; a
        // scalar's value is `length` bytes at `value`.
        unsafe {
            if !yaml_parser_initialize(raw).ok {
                return None;
            }
            yaml_parser_set_encoding(raw, YAML_UTF8_ENCODING);
            yaml_parser_set_input_string(raw, text.as_ptr(), text.len() as u64);
            let complete = loop {
                let mut event = std::mem::MaybeUninit::<yaml_event_t>::uninit();
                let event = event.as_mut_ptr();
                if yaml_parser_parse(raw, event).fail {
                    break false;
                }
                let kind = (*event).type_;
                let value = if kind == YAML_SCALAR_EVENT {
                    let scalar = (*event).data.scalar;
                    let bytes = std::slice::from_raw_parts(scalar.value, scalar.length as usize);
                    String::from_utf8_lossy(bytes).into_owned()
                } else {
                    String::new()
                };
                events.push(Event {
                    kind,
                    start: (*event).start_mark.index as usize,
                    end: (*event).end_mark.index as usize,
                    value,
                });
                yaml_event_delete(event);
                if kind == YAML_STREAM_END_EVENT || kind == YAML_NO_EVENT {
                    break true;
                }
            };
            yaml_parser_delete(raw);
            complete.then_some(events)
        }
    }
}

#[cfg(test)]
mod tests;

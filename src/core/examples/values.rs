//! The values of an ingest or annotation body, one at a time, with their line numbers.

use crate::wire::Loc;
use crate::wire::validate::json::{self, JsonError};
use serde_json::Value;
use std::io::BufRead;

/// Values from JSON Lines (one per non-blank line) or a JSON array (read whole).
pub(super) struct Values<'a> {
    input: &'a mut dyn BufRead,
    line: u64,
    array: Option<std::vec::IntoIter<Value>>,
    buffer: String,
    started: bool,
}

impl<'a> Values<'a> {
    pub(super) fn new(input: &'a mut dyn BufRead) -> Self {
        Self {
            input,
            line: 0,
            array: None,
            buffer: String::new(),
            started: false,
        }
    }

    pub(super) fn next_value(&mut self) -> Option<(u64, std::result::Result<Value, String>)> {
        if !self.started {
            self.started = true;
            if let Err(reason) = self.detect_array() {
                return Some((1, Err(reason)));
            }
        }
        if let Some(array) = &mut self.array {
            self.line += 1;
            return array.next().map(|v| (self.line, Ok(v)));
        }
        loop {
            self.buffer.clear();
            self.line += 1;
            match self.input.read_line(&mut self.buffer) {
                Ok(0) => return None,
                Ok(_) if self.buffer.trim().is_empty() => {}
                Ok(_) => {
                    let parsed = json::from_str(self.buffer.trim(), &Loc::default())
                        .map_err(|e| e.to_string());
                    return Some((self.line, parsed));
                }
                Err(e) => return Some((self.line, Err(format!("cannot read: {e}")))),
            }
        }
    }

    /// A document whose first non-blank byte is `[` is one JSON array.
    fn detect_array(&mut self) -> std::result::Result<(), String> {
        let first = loop {
            let buffer = self
                .input
                .fill_buf()
                .map_err(|e| format!("cannot read: {e}"))?;
            match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
                Some(i) => break Some(buffer[i]),
                None if buffer.is_empty() => break None,
                None => {
                    let n = buffer.len();
                    self.input.consume(n);
                }
            }
        };
        if first == Some(b'[') {
            let mut text = Vec::new();
            self.input
                .read_to_end(&mut text)
                .map_err(|e| format!("cannot read: {e}"))?;
            let values = match json::from_slice(&text, &Loc::default()) {
                Ok(Value::Array(values)) => values,
                Err(JsonError::Syntax(e)) => return Err(format!("not a valid JSON array: {e}")),
                // Only an array starts with `[`.
                Ok(_) => return Err("not a valid JSON array".to_owned()),
                Err(duplicate) => return Err(duplicate.to_string()),
            };
            self.array = Some(values.into_iter());
        }
        Ok(())
    }
}

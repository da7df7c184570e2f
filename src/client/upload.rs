//! Large uploads in chunks: JSON Lines cut at line ends (a JSON array is re-sent as JSON
//! Lines, one element per line), each chunk small enough for one request and knowing how
//! many lines came before it, so the server's line numbers become the file's.

use crate::core::service::Input;
use crate::error::{Error, Result};
use serde_json::Value;
use std::io::BufRead;

/// JSON Lines, the body of every chunk.
pub(crate) const NDJSON: &str = "application/x-ndjson";

/// An input, ready to send.
pub(crate) enum Upload {
    /// In chunks of whole lines.
    Chunks(Chunker),
    /// A document that starts with `[` but is not a JSON array: sent as it is, in one
    /// request, so the server reports it exactly as the command run locally would.
    Whole(Vec<u8>),
}

/// One request's worth of lines.
#[derive(Debug)]
pub(crate) struct Chunk {
    /// From 0.
    pub(crate) index: usize,
    /// Lines (or array elements) of the input before this chunk.
    pub(crate) lines_before: u64,
    pub(crate) bytes: Vec<u8>,
}

/// Cuts an input into chunks.
pub(crate) struct Chunker {
    lines: Lines,
    max: usize,
    index: usize,
    lines_before: u64,
    /// A line read that belongs to the next chunk.
    pending: Option<Vec<u8>>,
}

enum Lines {
    Raw(Input),
    Array(std::vec::IntoIter<Value>),
}

/// Read `input`: JSON Lines are read as they are sent; a JSON array (first non-blank byte
/// `[`, as the local ingest decides) is read whole and sent as JSON Lines.
pub(crate) fn open(mut input: Input, max: usize) -> Result<Upload> {
    let lines = if first_byte(&mut input)? == Some(b'[') {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes).map_err(read_error)?;
        match serde_json::from_slice::<Vec<Value>>(&bytes) {
            Ok(values) => Lines::Array(values.into_iter()),
            Err(_) => return Ok(Upload::Whole(bytes)),
        }
    } else {
        Lines::Raw(input)
    };
    Ok(Upload::Chunks(Chunker {
        lines,
        max: max.max(1),
        index: 0,
        lines_before: 0,
        pending: None,
    }))
}

/// The whole input and its media type: a JSON array as `application/json`, else JSON Lines.
pub(crate) fn whole(mut input: Input) -> Result<(&'static str, Vec<u8>)> {
    let media_type = if first_byte(&mut input)? == Some(b'[') {
        "application/json"
    } else {
        NDJSON
    };
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(read_error)?;
    Ok((media_type, bytes))
}

impl Chunker {
    /// The next chunk; the first is returned even when the input is empty (so the server
    /// still checks the model), then `None` at the end.
    pub(crate) fn next_chunk(&mut self) -> Result<Option<Chunk>> {
        let mut bytes = Vec::new();
        let mut lines = 0u64;
        if let Some(line) = self.pending.take() {
            bytes.extend_from_slice(&line);
            lines += 1;
        }
        while let Some(line) = self.next_line()? {
            if !bytes.is_empty() && bytes.len() + line.len() > self.max && starts_chunk(&line) {
                self.pending = Some(line);
                break;
            }
            bytes.extend_from_slice(&line);
            lines += 1;
        }
        if lines == 0 && self.index > 0 {
            return Ok(None);
        }
        let chunk = Chunk {
            index: self.index,
            lines_before: self.lines_before,
            bytes,
        };
        self.index += 1;
        self.lines_before += lines;
        Ok(Some(chunk))
    }

    fn next_line(&mut self) -> Result<Option<Vec<u8>>> {
        match &mut self.lines {
            Lines::Raw(input) => {
                let mut line = Vec::new();
                let read = input.read_until(b'\n', &mut line).map_err(read_error)?;
                Ok((read > 0).then_some(line))
            }
            Lines::Array(values) => Ok(values.next().map(|value| {
                // Compact JSON has no raw newline: one element, one line.
                let mut line = serde_json::to_vec(&value).unwrap_or_else(|_| b"null".to_vec());
                line.push(b'\n');
                line
            })),
        }
    }
}

/// Whether a chunk may start with `line`: the server reads a body whose first non-blank
/// byte is `[` as one JSON array, so neither a blank line nor such a line may lead a chunk
/// (they stay with the one before).
fn starts_chunk(line: &[u8]) -> bool {
    line.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b != b'[')
}

/// The first non-blank byte, not consumed.
fn first_byte(input: &mut Input) -> Result<Option<u8>> {
    loop {
        let buffer = input.fill_buf().map_err(read_error)?;
        if buffer.is_empty() {
            return Ok(None);
        }
        if let Some(i) = buffer.iter().position(|b| !b.is_ascii_whitespace()) {
            return Ok(Some(buffer[i]));
        }
        let n = buffer.len();
        input.consume(n);
    }
}

#[allow(clippy::needless_pass_by_value)] // for `map_err`
fn read_error(error: std::io::Error) -> Error {
    Error::BadRequest(format!("reading the input: {error}"))
}

/// The `example_id` of item `index` of a body sent whole (JSON Lines: line `index + 1`;
/// an array: element `index`), when it is a JSON object with a string `example_id`.
pub(crate) fn example_id_at(media_type: &str, bytes: &[u8], index: usize) -> Option<String> {
    let value: Value = if media_type == NDJSON {
        let line = bytes.split(|b| *b == b'\n').nth(index)?;
        serde_json::from_slice(line.trim_ascii()).ok()?
    } else {
        serde_json::from_slice::<Vec<Value>>(bytes)
            .ok()?
            .into_iter()
            .nth(index)?
    };
    value
        .get("example_id")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(text: &str, max: usize) -> Vec<(u64, String)> {
        let input: Input = Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
        let Upload::Chunks(mut chunker) = open(input, max).unwrap() else {
            panic!("not chunked")
        };
        let mut out = Vec::new();
        while let Some(chunk) = chunker.next_chunk().unwrap() {
            out.push((chunk.lines_before, String::from_utf8(chunk.bytes).unwrap()));
        }
        out
    }

    #[test]
    fn lines_are_cut_at_line_ends_and_know_their_offsets() {
        let text = "{\"a\":1}\n{\"a\":2}\n\n{\"a\":3}\n[1]\n{\"a\":4}";
        assert_eq!(
            chunks(text, 10),
            [
                (0, "{\"a\":1}\n".to_owned()),
                // The blank line stays behind, never leading a chunk.
                (1, "{\"a\":2}\n\n".to_owned()),
                // A line starting with `[` would read as an array: it stays behind too.
                (3, "{\"a\":3}\n[1]\n".to_owned()),
                (5, "{\"a\":4}".to_owned()),
            ]
        );
        assert_eq!(chunks(text, 1 << 20).len(), 1);
        assert_eq!(
            chunks("", 10),
            [(0, String::new())],
            "one chunk even when empty"
        );
    }

    #[test]
    fn an_array_is_sent_as_lines_and_a_broken_one_whole() {
        assert_eq!(
            chunks("  [{\"a\": 1}, 2,\n 3]", 8),
            [(0, "{\"a\":1}\n".to_owned()), (1, "2\n3\n".to_owned())]
        );
        let input: Input = Box::new(std::io::Cursor::new(b"[1, 2".to_vec()));
        assert!(matches!(open(input, 10).unwrap(), Upload::Whole(bytes) if bytes == b"[1, 2"));
    }

    #[test]
    fn example_ids_are_found_by_index() {
        let lines = b"{\"example_id\": \"a\"}\nnot json\n{\"example_id\": \"c\"}\n";
        assert_eq!(example_id_at(NDJSON, lines, 0).as_deref(), Some("a"));
        assert_eq!(example_id_at(NDJSON, lines, 1), None);
        assert_eq!(example_id_at(NDJSON, lines, 2).as_deref(), Some("c"));
        let array = b"[{\"example_id\": \"x\"}, 3]";
        assert_eq!(
            example_id_at("application/json", array, 0).as_deref(),
            Some("x")
        );
        assert_eq!(example_id_at("application/json", array, 1), None);
    }
}

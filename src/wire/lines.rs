//! JSON values kept as compact lines: how the server holds a batch body's `items` between
//! reading the body and staging them, at about the bytes they were sent in rather than as
//! a tree of values (a tree of 600,000 small items took some 400 MiB).

use serde_json::Value;

/// Values, each written compactly on a line of its own.
#[derive(Debug, Default)]
pub struct CompactLines {
    bytes: Vec<u8>,
    count: u64,
}

impl CompactLines {
    /// Append `value` as a line.
    pub fn push(&mut self, value: &Value) {
        // Writing a value into a Vec cannot fail: every map key is a string.
        let _ = serde_json::to_writer(&mut self.bytes, value);
        self.bytes.push(b'\n');
        self.count += 1;
    }

    /// How many values there are.
    pub fn len(&self) -> u64 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Each value's line, without its newline, in order.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        // A compact value never holds a raw newline (one in a string is written `\n`).
        self.bytes
            .split(|byte| *byte == b'\n')
            .take(usize::try_from(self.count).unwrap_or(usize::MAX))
    }

    /// Each value, read back from its line as it was pushed (the crate's `serde_json` keeps
    /// key order and round-trips floats, so a line reads as the value it was written from).
    pub fn values(&self) -> impl Iterator<Item = Value> {
        self.lines()
            .map(|line| serde_json::from_slice(line).unwrap_or(Value::Null))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_read_back_as_they_were_pushed() {
        let values = [
            json!({"state": {"b": "line one\nline two", "a": [1.1, 1e300, null]}}),
            json!(u64::MAX),
            json!(i64::MIN),
            json!("\u{1b}[2J"),
            json!({}),
        ];
        let mut lines = CompactLines::default();
        for value in &values {
            lines.push(value);
        }
        assert_eq!(lines.len(), 5);
        assert_eq!(lines.values().collect::<Vec<_>>(), values);
        assert_eq!(
            lines.lines().next().unwrap(),
            br#"{"state":{"b":"line one\nline two","a":[1.1,1e+300,null]}}"#
        );
        assert!(CompactLines::default().lines().next().is_none());
    }
}

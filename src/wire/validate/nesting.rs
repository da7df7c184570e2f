//! Nesting bounded before parsing: one pass over a JSON or YAML text that stops at the
//! first array or object nested deeper than [`MAX_NESTING`].
//!
//! Both parsers bound their recursion, but only after the cost: `serde_yaml` scans the whole
//! document into events before it builds a value, and libyaml's scanner spends time in
//! proportion to the flow nesting on every token, so a 200 KB document of 100,000 nested
//! `{"a":` took minutes to refuse. The checks here stop reading at the first level too many,
//! so what a refused document costs does not depend on its length.

use crate::limits::MAX_NESTING;
use std::fmt;
use unsafe_libyaml::{
    YAML_BLOCK_END_TOKEN, YAML_BLOCK_MAPPING_START_TOKEN, YAML_BLOCK_SEQUENCE_START_TOKEN,
    YAML_FLOW_MAPPING_END_TOKEN, YAML_FLOW_MAPPING_START_TOKEN, YAML_FLOW_SEQUENCE_END_TOKEN,
    YAML_FLOW_SEQUENCE_START_TOKEN, YAML_NO_TOKEN, YAML_STREAM_END_TOKEN, YAML_UTF8_ENCODING,
    yaml_mark_t, yaml_parser_delete, yaml_parser_initialize, yaml_parser_scan,
    yaml_parser_set_encoding, yaml_parser_set_input_string, yaml_parser_t, yaml_token_delete,
    yaml_token_t, yaml_token_type_t,
};

/// Where a document first nests deeper than [`MAX_NESTING`] (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    pub line: u64,
    pub column: u64,
}

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "arrays and objects nest deeper than {MAX_NESTING} levels (the limit) at line {}, \
             column {}",
            self.line, self.column
        )
    }
}

/// Check a JSON text's nesting. Brackets inside strings are text; a text that is not JSON
/// passes or fails here as it may, and the parser then reports its syntax error.
pub fn check_json(bytes: &[u8]) -> Result<(), TooDeep> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &byte) in bytes.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(position(&bytes[..i]));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The 1-based line and column (in characters) just after `before`.
fn position(before: &[u8]) -> TooDeep {
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    let lines = before.split(|&b| b == b'\n').count();
    TooDeep {
        line: lines as u64,
        column: column as u64 + 1,
    }
}

/// Check a YAML text's nesting, with libyaml's own scanner (the one `serde_yaml` parses
/// with), so what is counted is exactly what the parser will nest: block and flow
/// collections alike. A text libyaml cannot scan passes here: the parser reports the same
/// error, having read no deeper than this check did.
pub fn check_yaml(text: &str) -> Result<(), TooDeep> {
    let mut scanner = Scanner::new(text);
    let mut depth = 0usize;
    while let Some((kind, mark)) = scanner.next() {
        match kind {
            YAML_BLOCK_SEQUENCE_START_TOKEN
            | YAML_BLOCK_MAPPING_START_TOKEN
            | YAML_FLOW_SEQUENCE_START_TOKEN
            | YAML_FLOW_MAPPING_START_TOKEN => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(TooDeep {
                        line: mark.line + 1,
                        column: mark.column + 1,
                    });
                }
            }
            YAML_BLOCK_END_TOKEN | YAML_FLOW_SEQUENCE_END_TOKEN | YAML_FLOW_MAPPING_END_TOKEN => {
                depth = depth.saturating_sub(1);
            }
            YAML_STREAM_END_TOKEN => break,
            _ => {}
        }
    }
    Ok(())
}

/// libyaml's scanner over a borrowed text, token by token; freed when dropped.
struct Scanner<'a> {
    /// Boxed: libyaml keeps a pointer to the parser in the parser (its string reader's
    /// data), so it must not move once the input is set.
    parser: Box<std::mem::MaybeUninit<yaml_parser_t>>,
    initialized: bool,
    _text: std::marker::PhantomData<&'a str>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        let mut parser = Box::new(std::mem::MaybeUninit::<yaml_parser_t>::uninit());
        let raw = parser.as_mut_ptr();
        // SAFETY: `raw` points to a boxed, properly aligned `yaml_parser_t` that
        // `yaml_parser_initialize` fills; the input is set only after it succeeded, and the
        // text it points to outlives the scanner (`'a`).
        let initialized = unsafe {
            let initialized = yaml_parser_initialize(raw).ok;
            if initialized {
                yaml_parser_set_encoding(raw, YAML_UTF8_ENCODING);
                yaml_parser_set_input_string(raw, text.as_ptr(), text.len() as u64);
            }
            initialized
        };
        Self {
            parser,
            initialized,
            _text: std::marker::PhantomData,
        }
    }

    /// The next token's kind and where it starts; `None` after the stream's end or an error.
    fn next(&mut self) -> Option<(yaml_token_type_t, yaml_mark_t)> {
        if !self.initialized {
            return None;
        }
        let mut token = std::mem::MaybeUninit::<yaml_token_t>::uninit();
        // SAFETY: the parser was initialized with an input that is still borrowed; the
        // token is written by `yaml_parser_scan` (zeroed first, even on failure) and freed
        // with `yaml_token_delete` before it goes out of scope.
        unsafe {
            let token = token.as_mut_ptr();
            if yaml_parser_scan(self.parser.as_mut_ptr(), token).fail {
                yaml_token_delete(token);
                return None;
            }
            let scanned = ((*token).type_, (*token).start_mark);
            yaml_token_delete(token);
            (scanned.0 != YAML_NO_TOKEN).then_some(scanned)
        }
    }
}

impl Drop for Scanner<'_> {
    fn drop(&mut self) {
        if self.initialized {
            // SAFETY: initialized in `new` and deleted only here, once.
            unsafe { yaml_parser_delete(self.parser.as_mut_ptr()) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn nested(open: &str, inner: &str, close: &str, depth: usize) -> String {
        format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
    }

    #[test]
    fn json_nests_up_to_the_limit_and_no_deeper() {
        assert_eq!(
            check_json(nested("[", "1", "]", MAX_NESTING).as_bytes()),
            Ok(())
        );
        assert_eq!(
            check_json(nested("{\"a\":", "1", "}", MAX_NESTING + 1).as_bytes()),
            Err(TooDeep {
                line: 1,
                column: 5 * MAX_NESTING as u64 + 1
            })
        );
        // Brackets in strings, escaped quotes included, are text.
        let text = format!(
            "{{\"a\":\"{}\\\"{}\",\"b\":[]}}",
            "[".repeat(500),
            "{".repeat(500)
        );
        assert_eq!(check_json(text.as_bytes()), Ok(()));
        // The position is in characters, on its own line.
        let text = format!("{{\"é\":\n  {}", "[".repeat(MAX_NESTING));
        assert_eq!(
            check_json(text.as_bytes()),
            Err(TooDeep {
                line: 2,
                column: MAX_NESTING as u64 + 2
            })
        );
        // serde_json itself takes the deepest document the check lets through.
        let deepest = nested("[", "", "]", MAX_NESTING);
        assert!(serde_json::from_str::<serde_json::Value>(&deepest).is_ok());
    }

    #[test]
    fn yaml_counts_block_and_flow_collections_alike() {
        assert_eq!(check_yaml(&nested("[", "1", "]", MAX_NESTING)), Ok(()));
        assert!(check_yaml(&nested("[", "1", "]", MAX_NESTING + 1)).is_err());
        let block = "- ".repeat(MAX_NESTING) + "x\n";
        assert_eq!(check_yaml(&block), Ok(()));
        let block = "- ".repeat(MAX_NESTING + 1) + "x\n";
        assert_eq!(
            check_yaml(&block),
            Err(TooDeep {
                line: 1,
                column: 2 * MAX_NESTING as u64 + 1
            })
        );
        let mixed = format!("a:\n  b: {}", nested("{c: ", "1", "}", MAX_NESTING - 1));
        assert!(check_yaml(&mixed).is_err());
        // Brackets in scalars of every style are text.
        let text = format!(
            "a: \"{0}\"\nb: '{0}'\nc: x{0}\nd: |\n  {0}\n# {0}\n",
            "[{".repeat(300)
        );
        assert_eq!(check_yaml(&text), Ok(()));
        // What libyaml cannot scan is left to the parser's message.
        assert_eq!(check_yaml("a: [\n"), Ok(()));
        assert_eq!(check_yaml(""), Ok(()));
        // serde_yaml itself takes the deepest document the check lets through.
        let deepest = nested("[", "", "]", MAX_NESTING);
        assert!(serde_yaml::from_str::<serde_yaml::Value>(&deepest).is_ok());
    }

    /// A document nested 100,000 deep is refused in microseconds whatever its length: the
    /// checks stop at the first level too many (libyaml alone took minutes on it).
    #[test]
    fn a_document_nested_100_000_deep_is_refused_at_once() {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let text = nested(open, "1", close, 100_000);
            let started = Instant::now();
            assert!(check_json(text.as_bytes()).is_err());
            assert!(check_yaml(&text).is_err());
            let took = started.elapsed();
            assert!(took < Duration::from_millis(50), "{open}: {took:?}");
        }
    }
}

//! Every limit on what arbiter reads, in one place: validation enforces these constants,
//! the `OpenAPI` document states them (its attributes are literals, checked against
//! [`TABLE`] by a test), and `docs/src/limits.md` lists them (a test checks that the page's
//! table and [`TABLE`] agree). A value past a limit is refused with a located problem
//! naming the limit, never truncated quietly and never left to fail later.
//!
//! Text is counted in characters (Unicode scalar values), as JSON Schema's `maxLength`
//! counts, so a string the document allows is a string validation accepts.

use serde_json::Value;

/// Arrays and objects nest at most this deep in any JSON or YAML document arbiter reads (a
/// request body, a JSON Lines line, a file named on the command line, a committed file):
/// `[[1]]` nests 2 deep. Checked in one pass before the document is parsed, so a document
/// nested 100,000 deep costs microseconds, not the seconds a YAML parser spends on it; one
/// below the recursion limit (128) of `serde_json`, so that limit is never what refuses.
pub const MAX_NESTING: usize = 127;

/// Questions in one request, question file or checkpoint.
pub const MAX_QUESTIONS: usize = 256;
/// Characters of a question ID.
pub const MAX_QUESTION_ID_CHARS: usize = 255;
/// Characters of a question's text: its instructions, a noul criterion, a choice option's
/// description, a score level. A description that is an object or an array counts the
/// characters of every key and scalar in it.
pub const MAX_TEXT_CHARS: usize = 16_384;
/// Characters of a choice's option key.
pub const MAX_OPTION_KEY_CHARS: usize = 255;
/// Options of a choice question, levels of a score question.
pub const MAX_OPTIONS: usize = 256;
/// Bytes of a state, as compact JSON: the default limit on a request body
/// (`server.max_body_bytes`), so a state the server reads is a state any command reads.
/// (How much of a state a model reads is its own limit: `state_too_large`.)
pub const MAX_STATE_BYTES: usize = 10 << 20;
/// Arrays and objects nest at most this deep in a state, leaving room under
/// [`MAX_NESTING`] for the records a state is stored and sent in.
pub const MAX_STATE_NESTING: usize = 64;
/// Characters of an example ID.
pub const MAX_EXAMPLE_ID_CHARS: usize = 255;
/// Characters of an annotation's reasoning.
pub const MAX_REASONING_CHARS: usize = 16_384;
/// Characters of an annotator's name.
pub const MAX_ANNOTATOR_CHARS: usize = 128;
/// Characters of a revision (a branch, tag or commit SHA) named in a request.
pub const MAX_REVISION_CHARS: usize = 255;
/// Query parameters that name a revision (on every route that takes one): each is held to
/// [`MAX_REVISION_CHARS`] before the route reads it, as a revision in a body is.
pub const REVISION_PARAMETERS: [&str; 3] = ["revision", "from", "to"];
/// Bytes of a request's head (request line and headers); past it, 431.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Headers in a request's head; past it, 431.
pub const MAX_HEADERS: usize = 100;
/// Entries one listing returns at most: the `limit` of every listing route and the
/// `-n`/`--limit` of every listing command, so a value is refused alike in local and
/// client mode.
pub const MAX_LISTING: usize = 1000;
/// Entries a listing route returns when no `limit` is given.
pub const DEFAULT_LISTING: usize = 50;

/// One row of the limits table: what is limited, the figure, its unit, and where the
/// `OpenAPI` document states it (JSON pointers into `openapi.json`; none where JSON Schema
/// cannot say it, such as a state's size).
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub what: &'static str,
    pub value: usize,
    pub unit: &'static str,
    pub in_openapi: &'static [&'static str],
}

/// The limits, as `docs/src/limits.md` tables them.
pub const TABLE: &[Limit] = &[
    Limit {
        what: "nesting of a JSON or YAML document",
        value: MAX_NESTING,
        unit: "levels",
        in_openapi: &[],
    },
    Limit {
        what: "questions per request, file or checkpoint",
        value: MAX_QUESTIONS,
        unit: "questions",
        in_openapi: &[
            "/components/schemas/Questions/maxProperties",
            "/components/schemas/AlignmentRequest/properties/questions/maxItems",
            "/components/schemas/EvaluationRequest/properties/questions/maxItems",
        ],
    },
    Limit {
        what: "question ID",
        value: MAX_QUESTION_ID_CHARS,
        unit: "characters",
        in_openapi: &["/components/schemas/Questions/propertyNames/maxLength"],
    },
    Limit {
        what: "instructions, criterion, option description or score level",
        value: MAX_TEXT_CHARS,
        unit: "characters",
        in_openapi: &[
            "/components/schemas/Description/oneOf/0/maxLength",
            "/components/schemas/NoulQuestion/properties/instructions/maxLength",
            "/components/schemas/ChoiceQuestion/properties/instructions/maxLength",
            "/components/schemas/ScoreQuestion/properties/instructions/maxLength",
        ],
    },
    Limit {
        what: "option key",
        value: MAX_OPTION_KEY_CHARS,
        unit: "characters",
        in_openapi: &[
            "/components/schemas/ChoiceQuestion/properties/criteria/propertyNames/maxLength",
        ],
    },
    Limit {
        what: "options of a choice, levels of a score",
        value: MAX_OPTIONS,
        unit: "options",
        in_openapi: &[
            "/components/schemas/ChoiceQuestion/properties/criteria/maxProperties",
            "/components/schemas/ScoreQuestion/properties/criteria/maxItems",
        ],
    },
    Limit {
        what: "state size (compact JSON)",
        value: MAX_STATE_BYTES,
        unit: "bytes",
        in_openapi: &[],
    },
    Limit {
        what: "nesting of a state",
        value: MAX_STATE_NESTING,
        unit: "levels",
        in_openapi: &[],
    },
    Limit {
        what: "example ID",
        value: MAX_EXAMPLE_ID_CHARS,
        unit: "characters",
        in_openapi: &[
            "/components/schemas/DecisionRequest/properties/example_id/maxLength",
            "/components/schemas/BatchItem/properties/example_id/maxLength",
            "/components/schemas/IngestExample/properties/example_id/maxLength",
            "/components/schemas/AnnotationLine/allOf/1/properties/example_id/maxLength",
        ],
    },
    Limit {
        what: "reasoning of an annotation",
        value: MAX_REASONING_CHARS,
        unit: "characters",
        in_openapi: &[
            "/components/schemas/AnnotationInput/properties/reasoning/maxLength",
            "/components/schemas/IngestAnnotation/properties/reasoning/maxLength",
        ],
    },
    Limit {
        what: "annotator name",
        value: MAX_ANNOTATOR_CHARS,
        unit: "characters",
        in_openapi: &[
            "/components/schemas/IngestAnnotation/properties/annotator/maxLength",
            "/components/schemas/AnnotationLine/allOf/1/properties/annotator/maxLength",
        ],
    },
    Limit {
        what: "revision named in a request",
        value: MAX_REVISION_CHARS,
        unit: "characters",
        in_openapi: &["/components/schemas/DecisionRequest/properties/revision/maxLength"],
    },
    Limit {
        what: "request head (request line and headers)",
        value: MAX_HEAD_BYTES,
        unit: "bytes",
        in_openapi: &[],
    },
    Limit {
        what: "headers in a request",
        value: MAX_HEADERS,
        unit: "headers",
        in_openapi: &[],
    },
];

/// The pattern every stored text's schema states: no NUL character.
pub const NO_NUL: &str = "^[^\\u0000]*$";

/// What is wrong with a stored text, said after its name: a NUL character (U+0000), or
/// more than `max` characters. PostgreSQL cannot store a NUL in text and SQLite can, so one
/// rule for both stores: it is refused, never stored.
pub fn text_fault(text: &str, max: usize) -> Option<(String, &'static str)> {
    if text.contains('\0') {
        return Some((
            "contains a NUL character (U+0000), which is never stored".to_owned(),
            "nul_character",
        ));
    }
    let chars = text.chars().count();
    (chars > max).then(|| {
        (
            format!("is {chars} characters; the limit is {max}"),
            "too_long",
        )
    })
}

/// What is wrong with `count` things (`what`) where at most `max` are allowed, said whole.
pub fn count_fault(count: usize, max: usize, what: &str) -> Option<(String, &'static str)> {
    (count > max).then(|| (format!("{count} {what}; the limit is {max}"), "too_many"))
}

/// The characters of a question's text (any JSON value): a string's own, an object's or
/// array's keys and scalars, counted only as far as `max` + 1 would need.
pub fn value_chars(value: &Value, max: usize) -> usize {
    fn walk(value: &Value, max: usize, total: &mut usize) {
        if *total > max {
            return;
        }
        match value {
            Value::Null => {}
            Value::String(s) => *total += s.chars().count(),
            Value::Bool(_) | Value::Number(_) => *total += value.to_string().chars().count(),
            Value::Array(items) => items.iter().for_each(|item| walk(item, max, total)),
            Value::Object(members) => {
                for (key, item) in members {
                    *total += key.chars().count();
                    walk(item, max, total);
                }
            }
        }
    }
    let mut total = 0;
    walk(value, max, &mut total);
    total
}

/// What is wrong with a question's text (any JSON value) past [`MAX_TEXT_CHARS`], said
/// after its name.
pub fn question_text_fault(value: &Value) -> Option<(String, &'static str)> {
    let chars = value_chars(value, MAX_TEXT_CHARS);
    (chars > MAX_TEXT_CHARS).then(|| {
        (
            format!(
                "is {}{chars} characters; the limit is {MAX_TEXT_CHARS}",
                if value.is_string() { "" } else { "at least " }
            ),
            "too_long",
        )
    })
}

/// What is wrong with a state past its size or nesting limit, said whole.
pub fn state_fault(state: &Value) -> Option<(String, &'static str)> {
    let depth = nesting(state);
    if depth > MAX_STATE_NESTING {
        return Some((
            format!("the state nests {depth} levels deep; the limit is {MAX_STATE_NESTING} levels"),
            "too_deep",
        ));
    }
    let bytes = compact_len(state);
    (bytes > MAX_STATE_BYTES).then(|| {
        (
            format!("the state is {bytes} bytes of JSON; the limit is {MAX_STATE_BYTES} bytes"),
            "too_large",
        )
    })
}

/// How deep arrays and objects nest in `value` (`[[1]]`: 2).
pub fn nesting(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// The length of `value` as compact JSON, without writing it out.
fn compact_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` to a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The table in `docs/src/limits.md` lists exactly [`TABLE`]: each row's figure is the
    /// constant's.
    #[test]
    fn the_documented_table_is_the_constants() {
        let page =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/limits.md"))
                .unwrap();
        let rows: Vec<Vec<String>> = page
            .lines()
            .skip_while(|line| !line.starts_with("| limit |"))
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .map(|line| {
                line.trim_matches('|')
                    .split('|')
                    .map(|cell| cell.trim().replace('`', ""))
                    .collect()
            })
            .collect();
        let documented: Vec<(String, String)> = rows
            .iter()
            .map(|row| (row[0].clone(), row[1].clone()))
            .collect();
        let constants: Vec<(String, String)> = TABLE
            .iter()
            .map(|limit| {
                (
                    limit.what.to_owned(),
                    format!("{} {}", figure(limit.value), limit.unit),
                )
            })
            .collect();
        assert_eq!(documented, constants, "docs/src/limits.md's table");
    }

    /// A figure as the page writes it: thousands separated by commas.
    fn figure(value: usize) -> String {
        let digits = value.to_string();
        let mut out = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(digit);
        }
        out
    }

    #[test]
    fn each_check_names_its_limit_at_its_location() {
        assert!(text_fault(&"é".repeat(255), 255).is_none());
        assert_eq!(
            text_fault(&"é".repeat(256), 255),
            Some(("is 256 characters; the limit is 255".to_owned(), "too_long"))
        );
        assert_eq!(text_fault("a\0b", 255).unwrap().1, "nul_character");
        assert!(text_fault("a\u{1}b", usize::MAX).is_none());
        let (msg, kind) = count_fault(257, MAX_OPTIONS, "options").unwrap();
        assert_eq!(
            (msg.as_str(), kind),
            ("257 options; the limit is 256", "too_many")
        );
        assert!(count_fault(256, MAX_OPTIONS, "options").is_none());
        assert_eq!(
            value_chars(&json!({"ab": ["cd", 12, true, null]}), 100),
            2 + 2 + 2 + 4
        );
        let deep = (0..=MAX_STATE_NESTING).fold(json!(1), |inner, _| json!([inner]));
        assert_eq!(nesting(&deep), MAX_STATE_NESTING + 1);
        assert_eq!(state_fault(&deep).unwrap().1, "too_deep");
        assert!(state_fault(&deep[0]).is_none());
        let big = json!({"text": "x".repeat(MAX_STATE_BYTES)});
        let (msg, kind) = state_fault(&big).unwrap();
        assert_eq!(kind, "too_large");
        assert!(msg.contains(&format!("{} bytes of JSON", MAX_STATE_BYTES + 11)));
    }
}

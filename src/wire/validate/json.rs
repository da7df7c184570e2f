//! Strict JSON text: what every JSON body and JSON Lines line is parsed with.
//!
//! `serde_json` keeps the last of two equal keys in one object, so
//! `{"model":"jev-latest","model":"acme/support"}` would quietly run the second model.
//! A repeated key is refused here instead, located at the repeated key, so no reader
//! downstream has to guess which one the caller meant.
//!
//! Nesting is checked first, in one pass that stops at the first level past
//! [`crate::limits::MAX_NESTING`] ([`super::nesting`]), so a deep document is refused as a
//! limit, located at its root, before any parsing.

use crate::wire::validate::{FieldError, Loc, Segment};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;

/// Why a text is not a strict JSON value.
#[derive(Debug)]
pub enum JsonError {
    /// Not JSON at all: the parser's message.
    Syntax(serde_json::Error),
    /// Valid JSON, but an object repeats a key: located at the second occurrence.
    DuplicateKey(FieldError),
    /// Arrays and objects nested past the limit: located at the root, the message says
    /// where in the text (`too_deep`).
    TooDeep(FieldError),
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(e) => write!(f, "not valid JSON: {e}"),
            Self::DuplicateKey(error) | Self::TooDeep(error) => write!(f, "{error}"),
        }
    }
}

/// Parse `bytes` as one JSON value whose objects have distinct keys; `root` is where the
/// value sits (e.g. `["body"]`), the start of a duplicate key's location.
pub fn from_slice(bytes: &[u8], root: &Loc) -> Result<Value, JsonError> {
    parse(bytes, root, None)
}

/// [`from_slice`] for a document whose top-level member `key` may be a long array (a
/// batch's `items`): each of its elements is handed to `each` as soon as it is parsed (its
/// repeated keys located under `root.key[i]`), and the member reads as an empty array, so
/// the document is never a tree whole. Any other member, or a `key` that is not an array,
/// parses as [`from_slice`] parses it.
pub fn from_slice_streaming(
    bytes: &[u8],
    root: &Loc,
    key: &str,
    each: &mut dyn FnMut(Value),
) -> Result<Value, JsonError> {
    let stream = Stream {
        key,
        depth: root.0.len(),
        each: RefCell::new(each),
    };
    parse(bytes, root, Some(&stream as &dyn Sink))
}

fn parse(bytes: &[u8], root: &Loc, stream: Option<&dyn Sink>) -> Result<Value, JsonError> {
    super::nesting::check_json(bytes).map_err(|deep| {
        JsonError::TooDeep(FieldError::new(root.clone(), deep.to_string(), "too_deep"))
    })?;
    let path = RefCell::new(root.0.clone());
    let duplicate = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let parsed = StrictValue {
        path: &path,
        duplicate: &duplicate,
        stream,
    }
    .deserialize(&mut deserializer)
    .and_then(|value| deserializer.end().map(|()| value));
    match (parsed, duplicate.into_inner()) {
        (_, Some(error)) => Err(JsonError::DuplicateKey(error)),
        (Ok(value), None) => Ok(value),
        (Err(e), None) => Err(JsonError::Syntax(e)),
    }
}

/// [`from_slice`] over text.
pub fn from_str(text: &str, root: &Loc) -> Result<Value, JsonError> {
    from_slice(text.as_bytes(), root)
}

/// A JSON value seed that tracks where it is, to locate a repeated key.
#[derive(Clone, Copy)]
struct StrictValue<'a> {
    path: &'a RefCell<Vec<Segment>>,
    duplicate: &'a RefCell<Option<FieldError>>,
    /// The top-level array handed over an element at a time ([`from_slice_streaming`]).
    stream: Option<&'a (dyn Sink + 'a)>,
}

/// A [`Stream`] as the seeds hold it (a trait object, whose lifetime may shorten, where the
/// closure it holds may not).
trait Sink {
    /// Whether the member `key` of the object at `depth` is the streamed one.
    fn streams(&self, key: &str, depth: usize) -> bool;
    fn take(&self, element: Value);
}

impl Sink for Stream<'_> {
    fn streams(&self, key: &str, depth: usize) -> bool {
        self.key == key && self.depth == depth
    }

    fn take(&self, element: Value) {
        (self.each.borrow_mut())(element);
    }
}

/// Where [`from_slice_streaming`]'s elements go.
struct Stream<'a> {
    key: &'a str,
    /// The length of the path at the top-level object.
    depth: usize,
    each: RefCell<&'a mut dyn FnMut(Value)>,
}

/// The streamed member: an array's elements go to the stream one by one (each parsed
/// strictly, and streaming nothing itself); anything else is a value as any other.
struct Streamed<'a>(StrictValue<'a>, &'a (dyn Sink + 'a));

impl<'de> DeserializeSeed<'de> for Streamed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Streamed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    // Every visit but a sequence's is the strict value's.
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.0.visit_bool(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.0.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.0.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.0.visit_f64(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.0.visit_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.0.visit_string(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.0.visit_unit()
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        self.0.visit_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let Self(value, stream) = self;
        let element = StrictValue {
            stream: None,
            ..value
        };
        let mut index = 0;
        while let Some(item) =
            element.at(Segment::Index(index), |seed| seq.next_element_seed(seed))?
        {
            stream.take(item);
            index += 1;
        }
        Ok(Value::Array(Vec::new()))
    }
}

impl StrictValue<'_> {
    /// Deserialize the next value one segment deeper.
    fn at<T, E>(self, segment: Segment, next: impl FnOnce(Self) -> Result<T, E>) -> Result<T, E> {
        self.path.borrow_mut().push(segment);
        let result = next(self);
        self.path.borrow_mut().pop();
        result
    }
}

impl<'de> DeserializeSeed<'de> for StrictValue<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        loop {
            let index = items.len();
            match self.at(Segment::Index(index), |seed| seq.next_element_seed(seed))? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                let mut loc = Loc(self.path.borrow().clone());
                loc.0.push(Segment::Key(key.clone()));
                let msg = format!("the key `{key}` appears more than once in one object");
                *self.duplicate.borrow_mut() = Some(FieldError::new(loc, msg, "duplicate_key"));
                return Err(de::Error::custom("duplicate key"));
            }
            let streamed = self
                .stream
                .filter(|stream| stream.streams(&key, self.path.borrow().len()));
            let value = self.at(Segment::Key(key.clone()), |seed| match streamed {
                Some(stream) => map.next_value_seed(Streamed(seed, stream)),
                None => map.next_value_seed(seed),
            })?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn duplicate(text: &str) -> FieldError {
        match from_str(text, &Loc::body()) {
            Err(JsonError::DuplicateKey(error)) => error,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn a_repeated_key_is_located_where_it_repeats() {
        let error = duplicate(r#"{"model":"jev-latest","model":"acme/support","state":1}"#);
        assert_eq!(
            serde_json::to_value(&error.loc).unwrap(),
            json!(["body", "model"])
        );
        assert_eq!(error.kind, "duplicate_key");
        let nested = duplicate(r#"{"questions":{"q":{"type":"noul"}},"items":[1,{"a":1,"a":2}]}"#);
        assert_eq!(
            serde_json::to_value(&nested.loc).unwrap(),
            json!(["body", "items", 1, "a"])
        );
        let deep = duplicate(r#"{"q":{"":{"x":[{"":0,"":0}]}}}"#);
        assert_eq!(
            serde_json::to_value(&deep.loc).unwrap(),
            json!(["body", "q", "", "x", 0, ""])
        );
    }

    #[test]
    fn distinct_keys_parse_as_serde_json_does() {
        for text in [
            r#"{"a":1,"b":[1,2.5,-3,"x",null,true,{"a":{}}],"c":{"a":1}}"#,
            "[]",
            "null",
            "18446744073709551615",
            "-9223372036854775808",
            "1e300",
            r#""\u00e9\ud83d\ude00""#,
        ] {
            let strict = from_str(text, &Loc::body()).unwrap();
            let lenient: Value = serde_json::from_str(text).unwrap();
            assert_eq!(strict, lenient, "{text}");
        }
    }

    fn streamed(text: &str) -> (Result<Value, JsonError>, Vec<Value>) {
        let mut elements = Vec::new();
        let parsed = from_slice_streaming(text.as_bytes(), &Loc::body(), "items", &mut |item| {
            elements.push(item);
        });
        (parsed, elements)
    }

    #[test]
    fn a_streamed_array_hands_over_its_elements_and_reads_as_empty() {
        let text = r#"{"revision":"main","items":[{"state":{"b":1,"a":[2.5,null]}},3,"x"],"q":{"items":[1]}}"#;
        let (parsed, elements) = streamed(text);
        assert_eq!(
            parsed.unwrap(),
            json!({"revision": "main", "items": [], "q": {"items": [1]}}),
            "only the top-level member streams"
        );
        let whole = from_str(text, &Loc::body()).unwrap();
        assert_eq!(&Value::Array(elements), &whole["items"]);
        // Anything else under the key parses as it would whole.
        for text in [
            r#"{"items":"x"}"#,
            r#"{"items":{"a":1}}"#,
            r#"{"items":null}"#,
            "[1,2]",
        ] {
            let (parsed, elements) = streamed(text);
            assert_eq!(
                parsed.unwrap(),
                from_str(text, &Loc::body()).unwrap(),
                "{text}"
            );
            assert!(elements.is_empty(), "{text}");
        }
    }

    #[test]
    fn a_streamed_element_is_as_strict_as_a_whole_document() {
        let (parsed, _) = streamed(r#"{"items":[{"a":1},{"state":{"a":1,"a":2}}]}"#);
        let Err(JsonError::DuplicateKey(error)) = parsed else {
            panic!("a repeated key in an element was not refused: {parsed:?}");
        };
        assert_eq!(
            serde_json::to_value(&error.loc).unwrap(),
            json!(["body", "items", 1, "state", "a"])
        );
        let (parsed, _) = streamed(r#"{"items":[1,]}"#);
        assert!(matches!(parsed, Err(JsonError::Syntax(_))));
        let deep = format!(r#"{{"items":[{}]}}"#, "[".repeat(200));
        assert!(matches!(streamed(&deep).0, Err(JsonError::TooDeep(_))));
    }

    #[test]
    fn syntax_errors_and_trailing_text_are_syntax_errors() {
        for text in ["{", "[1,]", "{} {}", "", "nul"] {
            assert!(
                matches!(from_str(text, &Loc::body()), Err(JsonError::Syntax(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn nesting_past_the_limit_is_refused_at_the_root_before_parsing() {
        let deep = "[".repeat(100_000);
        let Err(JsonError::TooDeep(error)) = from_str(&deep, &Loc::body().key("state")) else {
            panic!("a document 100,000 deep was not refused as too deep");
        };
        assert_eq!(error.loc, Loc::body().key("state"));
        assert_eq!(error.kind, "too_deep");
        assert!(error.msg.contains("127 levels"), "{}", error.msg);
        assert!(error.msg.contains("line 1, column 128"), "{}", error.msg);
        let limit = crate::limits::MAX_NESTING;
        let deepest = format!("{}{}", "[".repeat(limit), "]".repeat(limit));
        assert!(from_str(&deepest, &Loc::body()).is_ok());
    }
}

//! JSON value helpers: YAML input, RFC 8785 canonical form, and example IDs derived from it.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Parse YAML (or JSON, which is YAML) into a JSON value. Non-string mapping keys
/// (`true:`, `1:`) become their text, since question IDs, option keys and criteria
/// members are strings on the wire. Nesting past [`crate::limits::MAX_NESTING`] is refused
/// before parsing.
pub fn parse_yaml(text: &str) -> Result<Value, String> {
    let yaml: serde_yaml::Value = from_yaml(text)?;
    yaml_to_json(yaml)
}

/// Deserialize YAML into `T` (every YAML arbiter reads goes through here or
/// [`parse_yaml`]): nesting past [`crate::limits::MAX_NESTING`] is refused before parsing,
/// in one pass that stops at the first level too many.
pub fn from_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    super::validate::nesting::check_yaml(text).map_err(|deep| deep.to_string())?;
    serde_yaml::from_str(text).map_err(|e| with_tab_hint(text, &e))
}

/// The parser's message, and, when the line it stopped at is indented with a tab, that the
/// tab is the cause: libyaml only says it "found character that cannot start any token".
fn with_tab_hint(text: &str, error: &serde_yaml::Error) -> String {
    let message = error.to_string();
    let Some(line) = error.location().map(|location| location.line()) else {
        return message;
    };
    let tabbed = text
        .lines()
        .nth(line.saturating_sub(1))
        .is_some_and(|text| {
            text.chars()
                .take_while(|c| c.is_whitespace())
                .any(|c| c == '\t')
        });
    if tabbed {
        format!("{message}: line {line} is indented with a tab; YAML indents with spaces only")
    } else {
        message
    }
}

fn yaml_to_json(yaml: serde_yaml::Value) -> Result<Value, String> {
    use serde_yaml::Value as Y;
    Ok(match yaml {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                serde_json::Number::from_f64(f)
                    .map(Value::Number)
                    .ok_or_else(|| format!("{f} is not a JSON number"))?
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(
            items
                .into_iter()
                .map(yaml_to_json)
                .collect::<Result<_, _>>()?,
        ),
        Y::Mapping(map) => {
            let mut object = serde_json::Map::with_capacity(map.len());
            for (key, value) in map {
                let key = match key {
                    Y::String(s) => s,
                    Y::Bool(b) => b.to_string(),
                    Y::Number(n) => n.to_string(),
                    Y::Null => String::new(),
                    other => return Err(format!("unsupported mapping key {other:?}")),
                };
                object.insert(key, yaml_to_json(value)?);
            }
            Value::Object(object)
        }
        Y::Tagged(tagged) => yaml_to_json(tagged.value)?,
    })
}

/// The RFC 8785 (JCS) canonical form: sorted keys, no white space, ECMAScript numbers,
/// so `{"b":2,"a":1.0}` and `{"a":1,"b":2}` are the same bytes.
pub fn canonical_json(value: &Value) -> String {
    let mut out = Vec::new();
    write_canonical(&mut out, value);
    // Only UTF-8 is written: the value's own strings, escaped, and ASCII.
    String::from_utf8(out).unwrap_or_default()
}

/// SHA-256 of the canonical form, in hex.
pub fn canonical_hash(value: &Value) -> String {
    let mut out = Vec::new();
    write_canonical(&mut out, value);
    hex::encode(Sha256::digest(&out))
}

/// [`canonical_hash`] of `object` with its member `key` (an array, read empty) standing
/// for `elements`: the hash of a body whose array was streamed out of it
/// ([`super::validate::json::from_slice_streaming`]), the same as the whole body's, written
/// a piece at a time.
pub fn canonical_hash_spliced(
    object: &Value,
    key: &str,
    elements: impl IntoIterator<Item = Value>,
) -> String {
    let Value::Object(members) = object else {
        return canonical_hash(object);
    };
    if !members.get(key).is_some_and(Value::is_array) {
        return canonical_hash(object);
    }
    let mut elements = elements.into_iter();
    let mut hasher = Sha256::new();
    let mut out = Vec::new();
    out.push(b'{');
    for (i, (name, member)) in sorted(members).into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(&mut out, name);
        out.push(b':');
        if name != key {
            write_canonical(&mut out, member);
            continue;
        }
        out.push(b'[');
        for (j, element) in elements.by_ref().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            write_canonical(&mut out, &element);
            if out.len() >= 1 << 16 {
                hasher.update(&out);
                out.clear();
            }
        }
        out.push(b']');
    }
    out.push(b'}');
    hasher.update(&out);
    hex::encode(hasher.finalize())
}

/// An object's members sorted by their keys' UTF-16 code units (RFC 8785 §3.2.3).
fn sorted(members: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
    sorted.sort_unstable_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    sorted
}

/// Append `value`'s canonical form to `out`. Written over the value directly: a
/// serializer's formatter (`serde_jcs`) buffers every member and parses each key back to
/// sort it, which cost an item of a remote batch ~10 µs of its ~180.
fn write_canonical(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        // Every JSON number is an IEEE double in ECMAScript, integers too (a u64 past
        // 2^53 is rounded, as JSON.stringify would).
        Value::Number(number) => {
            let double = number.as_f64().unwrap_or_default();
            out.extend_from_slice(ryu_js::Buffer::new().format_finite(double).as_bytes());
        }
        Value::String(text) => write_string(out, text),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(out, item);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            out.push(b'{');
            for (i, (key, member)) in sorted(members).into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(out, key);
                out.push(b':');
                write_canonical(out, member);
            }
            out.push(b'}');
        }
    }
}

/// A JSON string as RFC 8785 writes it, which is `serde_json`'s escaping: `\"`, `\\`,
/// the short escapes of `\b \f \n \r \t`, other controls as lowercase `\u00xx`.
fn write_string(out: &mut Vec<u8>, text: &str) {
    // Writing into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

/// The example ID derived from a state: `ex_` + 32 hex digits of its canonical hash.
pub fn derived_example_id(state: &Value) -> String {
    format!("ex_{}", &canonical_hash(state)[..32])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn canonical_form_ignores_key_order_and_number_spelling() {
        let a: Value = serde_json::from_str(r#"{"a":1,"b":2}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"b":2,"a":1.0}"#).unwrap();
        let c: Value = serde_json::from_str(r#"{"b":2e0,"a":10e-1}"#).unwrap();
        assert_eq!(canonical_json(&a), r#"{"a":1,"b":2}"#);
        assert_eq!(canonical_json(&b), canonical_json(&a));
        assert_eq!(canonical_json(&c), canonical_json(&a));
        assert_eq!(derived_example_id(&a), derived_example_id(&b));
        assert_ne!(
            derived_example_id(&a),
            derived_example_id(&json!({"a":1,"b":3}))
        );
    }

    #[test]
    fn a_spliced_hash_is_the_whole_value_s_hash() {
        // Enough elements to cross the hasher's flushes, around members on either side.
        let items: Vec<Value> = (0..5000)
            .map(|i| json!({"state": {"n": i, "text": "x".repeat(i % 40)}, "b": 1.5}))
            .collect();
        let whole = json!({"revision": "main", "items": items, "capture": true, "z": [1]});
        let mut emptied = whole.clone();
        emptied["items"] = json!([]);
        assert_eq!(
            canonical_hash_spliced(&emptied, "items", items.clone()),
            canonical_hash(&whole)
        );
        assert_eq!(
            canonical_hash_spliced(&json!({"items": []}), "items", []),
            canonical_hash(&json!({"items": []}))
        );
        // No array under the key (or not an object): the value's own hash.
        for other in [
            json!({"items": "x"}),
            json!({"examples": "all"}),
            json!([1]),
        ] {
            assert_eq!(
                canonical_hash_spliced(&other, "items", items.clone()),
                canonical_hash(&other)
            );
        }
    }

    #[test]
    fn canonical_form_sorts_nested_keys_by_utf16() {
        let v = json!({"z": [{"é": 1, "e": 2}], "a": "x\u{2028}"});
        assert_eq!(
            canonical_json(&v),
            "{\"a\":\"x\u{2028}\",\"z\":[{\"e\":2,\"é\":1}]}"
        );
        // U+10000 is a surrogate pair (D800 DC00) in UTF-16: before U+E000, which its
        // UTF-8 bytes (F0 ... against EE ...) are not.
        let astral = json!({"\u{e000}": 1, "\u{10000}": 2});
        assert_eq!(canonical_json(&astral), "{\"\u{10000}\":2,\"\u{e000}\":1}");
    }

    /// Any JSON value: unicode keys (astral ones sort apart in UTF-16), control
    /// characters, integers past 2^53, fractions and exponents.
    fn any_json() -> impl Strategy<Value = Value> {
        let text = prop_oneof![
            "[a-zA-Z0-9 ]{0,6}",
            any::<String>(),
            proptest::collection::vec(
                prop_oneof![
                    Just('\u{0}'),
                    Just('\u{1f}'),
                    Just('\u{7f}'),
                    Just('"'),
                    Just('\\'),
                    Just('/'),
                    Just('\u{e000}'),
                    Just('\u{ffff}'),
                    Just('\u{10000}'),
                    Just('\u{1f600}'),
                    Just('é'),
                ],
                0..5
            )
            .prop_map(|chars| chars.into_iter().collect::<String>()),
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            (-1000i32..1000, -30i32..30)
                .prop_map(|(m, e)| Value::from(f64::from(m) * 10f64.powi(e))),
            text.clone().prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec((text.clone(), inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The hand-written form is byte for byte what serde_jcs (a JCS implementation
        /// checked against the RFC's examples) writes, so example IDs derived before it
        /// are unchanged.
        #[test]
        fn canonical_form_is_serde_jcs_byte_for_byte(value in any_json()) {
            prop_assert_eq!(canonical_json(&value), serde_jcs::to_string(&value).unwrap());
        }
    }

    #[test]
    fn canonical_numbers_are_ecmascript_doubles() {
        let v = json!([
            0,
            -0.0,
            1e21,
            1e-7,
            123.456,
            9_007_199_254_740_993_u64,
            -5,
            1.5e300
        ]);
        assert_eq!(
            canonical_json(&v),
            "[0,0,1e+21,1e-7,123.456,9007199254740992,-5,1.5e+300]"
        );
    }

    #[test]
    fn derived_id_shape() {
        let id = derived_example_id(&json!("hello"));
        assert!(id.starts_with("ex_"));
        assert_eq!(id.len(), 35);
    }

    #[test]
    fn deep_yaml_is_refused_naming_the_limit() {
        let deep = format!("q: {}", "{a: ".repeat(100_000));
        let error = parse_yaml(&deep).unwrap_err();
        assert!(
            error.contains("deeper than 127 levels (the limit) at line 1, column"),
            "{error}"
        );
        assert!(from_yaml::<serde_yaml::Value>(&deep).is_err());
    }

    #[test]
    fn yaml_keys_become_strings() {
        let v = parse_yaml(
            "q:\n  type: noul\n  criteria:\n    true: yes it is\n    false: ~\n1: one\n",
        )
        .unwrap();
        assert_eq!(
            v,
            json!({"q": {"type": "noul", "criteria": {"true": "yes it is", "false": null}}, "1": "one"})
        );
    }
}

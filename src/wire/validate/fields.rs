//! Members' rules that a plain type cannot say, for `#[serde(deserialize_with = …)]`: each
//! reads the member and refuses a wrong value with a [`Refusal`], which the validation
//! pass locates at the member.

use super::{FieldError, Loc, Refusal};
use crate::limits;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

fn empty() -> Refusal {
    Refusal::of("may not be empty", "empty")
}

/// A non-empty text within `max` characters and without NUL.
fn text_within(text: &str, max: usize) -> Result<(), Refusal> {
    if text.is_empty() {
        return Err(empty());
    }
    match limits::text_fault(text, max) {
        Some((fault, kind)) => Err(Refusal::of(fault, kind)),
        None => Ok(()),
    }
}

/// `text` holding a NUL character or past `max` characters ([`limits::text_fault`]): the
/// problem at `loc`, naming `what`.
pub fn text(text: &str, max: usize, loc: &Loc, what: &str) -> Option<FieldError> {
    limits::text_fault(text, max)
        .map(|(fault, kind)| FieldError::new(loc.clone(), format!("{what} {fault}"), kind))
}

/// `text` holding a NUL character: the problem at `loc`, naming `what`.
pub fn stored(text: &str, loc: &Loc, what: &str) -> Option<FieldError> {
    self::text(text, usize::MAX, loc, what)
}

/// An optional non-empty text within `max` characters: absent or null is none.
fn optional_text<'de, D: Deserializer<'de>>(
    deserializer: D,
    max: usize,
) -> Result<Option<String>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    if let Some(text) = &text {
        text_within(text, max).map_err(Refusal::raise)?;
    }
    Ok(text)
}

/// `count` things (`what`) where at most `max` are allowed: refused, said whole
/// ([`limits::count_fault`]).
pub fn too_many(count: usize, max: usize, what: &str) -> Option<Refusal> {
    limits::count_fault(count, max, what).map(|(msg, kind)| Refusal::whole(msg, kind))
}

/// A non-empty string.
pub fn non_empty<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let text = String::deserialize(deserializer)?;
    if text.is_empty() {
        return Err(empty().raise());
    }
    Ok(text)
}

/// A revision (branch, tag or commit SHA), when given: [`limits::MAX_REVISION_CHARS`].
pub fn revision<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    optional_text(deserializer, limits::MAX_REVISION_CHARS)
}

/// An example ID, when given: [`limits::MAX_EXAMPLE_ID_CHARS`].
pub fn example_id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    optional_text(deserializer, limits::MAX_EXAMPLE_ID_CHARS)
}

/// A state: any JSON value within the size and nesting limits.
pub fn state<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    let state = Value::deserialize(deserializer)?;
    match limits::state_fault(&state) {
        Some((msg, kind)) => Err(Refusal::whole(msg, kind).raise()),
        None => Ok(state),
    }
}

/// A member whose null means its default, as absence does (with `#[serde(default)]`).
pub fn or_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_s_problem_names_its_limit_at_its_location() {
        let loc = Loc::body().key("example_id");
        assert!(text(&"é".repeat(255), 255, &loc, "example_id").is_none());
        let error = text(&"é".repeat(256), 255, &loc, "example_id").unwrap();
        assert_eq!(error.loc, loc);
        assert_eq!(error.msg, "example_id is 256 characters; the limit is 255");
        assert_eq!(error.kind, "too_long");
        let error = text("a\0b", 255, &loc, "example_id").unwrap();
        assert_eq!(error.kind, "nul_character");
        assert!(stored("a\u{1}b", &loc, "example_id").is_none());
    }
}

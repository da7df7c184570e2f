//! The one validation pass: how every request body becomes a typed request or a list of
//! located faults.
//!
//! A request type derives `Deserialize` and says what it can there: its members' types,
//! enums, `deny_unknown_fields`, newtypes and [`fields`] that refuse a value with a
//! [`Refusal`]. [`read`] runs it over the parsed body with a [`reader`] that locates each
//! fault at its field path and words it for people, then runs the type's cross-member
//! [`Rules`]. Every fault comes back at once, as the API has always answered: a body is
//! read again with each faulty member left out (at most [`MAX_ROUNDS`] times), and every
//! required member the body lacks is named, not only the first.

mod fault;
pub mod fields;
pub mod json;
mod located;
pub mod nesting;
mod path;
mod query;
mod reader;

pub use fault::{Fault, Refusal};
pub use located::{FieldError, Invalid, Loc, Segment, Validated};
pub use query::read_query;

use path::Path;
use reader::Reader;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The `type` of a detail that names a member its object does not have. A client reads it
/// too: a server older than a member refuses it so (`client::older_servers`).
pub const UNKNOWN_MEMBER: &str = "unknown_member";

/// How many times a body is read again, each with one more faulty member left out, to find
/// its other faults: a bound on the work a hostile body can ask for.
pub const MAX_ROUNDS: usize = 16;

/// What a request type says beyond what serde's derive can.
pub trait Rules {
    /// The members the type requires: each one missing from a body is named at once.
    fn required() -> &'static [&'static str] {
        &[]
    }

    /// What to say when `member` is missing, if more than "`member` is required".
    fn requirement(_member: &str) -> Option<&'static str> {
        None
    }

    /// Rules across members (or past what a member's type says), run once the body has
    /// been read without a fault.
    fn check(&self, _at: &Loc, _faults: &mut Faults) {}
}

/// Located faults, as [`Rules::check`] finds them.
#[derive(Debug, Default)]
pub struct Faults(Vec<FieldError>);

impl Faults {
    pub fn add(&mut self, loc: Loc, msg: impl Into<String>, kind: &str) {
        self.0.push(FieldError::new(loc, msg, kind));
    }

    pub fn extend(&mut self, errors: impl IntoIterator<Item = FieldError>) {
        self.0.extend(errors);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(())` when nothing was found.
    pub fn into_result(self) -> Validated<()> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(Invalid(self.0))
        }
    }
}

/// The JSON type of a value, for messages.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Whether `text` shows nothing: only whitespace and invisible format characters (the
/// zero-width space, joiners and non-joiners, the word joiner, a byte-order mark, a soft
/// hyphen), which `str::trim` keeps. A name made of them looks empty wherever it is shown.
pub fn is_blank(text: &str) -> bool {
    text.chars().all(|c| {
        c.is_whitespace()
            || matches!(
                c,
                '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
            )
    })
}

/// Read `value`, which sits at `at` (`["body"]` for a request body), as a `T`: every fault
/// at once, each at its location.
pub fn read<T: DeserializeOwned + Rules>(value: &Value, at: &Loc) -> Validated<T> {
    let name = root_name(at);
    let mut faults: Vec<FieldError> = Vec::new();
    if let Value::Object(members) = value {
        for member in T::required() {
            if !members.contains_key(*member) {
                let msg = T::requirement(member)
                    .map_or_else(|| format!("{member} is required"), str::to_owned);
                faults.push(FieldError::new(at.key(member), msg, "missing"));
            }
        }
    }
    let mut pruned: Option<Value> = None;
    for _ in 0..MAX_ROUNDS {
        let path = Path::root(at, &name);
        let reader = Reader {
            value: pruned.as_ref().unwrap_or(value),
            path: &path,
        };
        let fault = match T::deserialize(reader) {
            Ok(read) if faults.is_empty() => {
                let mut found = Faults::default();
                read.check(at, &mut found);
                return found.into_result().map(|()| read);
            }
            Ok(_) => break,
            Err(fault) => fault,
        };
        let errors = fault.into_errors(&path);
        let Some(last) = errors.last().map(|error| error.loc.clone()) else {
            break;
        };
        // A fault at or around one already found is what leaving a member out asked again.
        let fresh: Vec<FieldError> = errors
            .into_iter()
            .filter(|error| !faults.iter().any(|old| related(&old.loc, &error.loc)))
            .collect();
        faults.extend(fresh);
        let Some(depth) = member_to_leave_out(pruned.as_ref().unwrap_or(value), at, &last) else {
            break;
        };
        if !leave_out(
            pruned.get_or_insert_with(|| value.clone()),
            at,
            &last,
            depth,
        ) {
            break;
        }
    }
    Err(Invalid(faults))
}

/// What messages call the value at `at`: a request body is "the request body".
fn root_name(at: &Loc) -> String {
    match at.0.as_slice() {
        [Segment::Key(body)] if body == "body" => "the request body".to_owned(),
        _ => at.to_string(),
    }
}

/// One location is the other or under it.
fn related(a: &Loc, b: &Loc) -> bool {
    a.0.starts_with(&b.0) || b.0.starts_with(&a.0)
}

/// How deep the object member to leave out for a fault at `loc` lies under `at`: the
/// deepest on the way that `doc` still has. `None` when there is none (the fault is the
/// root's, or at an array's element of the root). Read-only, so a body is copied for
/// pruning only when there is something to prune.
fn member_to_leave_out(doc: &Value, at: &Loc, loc: &Loc) -> Option<usize> {
    let under = loc.0.strip_prefix(at.0.as_slice())?;
    let mut deepest = None;
    let mut here = doc;
    for (depth, segment) in under.iter().enumerate() {
        let next = match (here, segment) {
            (Value::Object(members), Segment::Key(key)) => {
                let next = members.get(key);
                if next.is_some() {
                    deepest = Some(depth);
                }
                next
            }
            (Value::Array(items), Segment::Index(index)) => items.get(*index),
            _ => None,
        };
        match next {
            Some(next) => here = next,
            None => break,
        }
    }
    deepest
}

/// Leave out the member of `doc` at `loc`'s segment `depth` under `at`
/// ([`member_to_leave_out`]); false when it is not there.
fn leave_out(doc: &mut Value, at: &Loc, loc: &Loc, depth: usize) -> bool {
    let Some(under) = loc.0.strip_prefix(at.0.as_slice()) else {
        return false;
    };
    let mut parent = doc;
    for segment in &under[..depth] {
        let next = match (parent, segment) {
            (Value::Object(members), Segment::Key(key)) => members.get_mut(key),
            (Value::Array(items), Segment::Index(index)) => items.get_mut(*index),
            _ => None,
        };
        match next {
            Some(next) => parent = next,
            None => return false,
        }
    }
    match (parent, &under[depth]) {
        (Value::Object(members), Segment::Key(key)) => members.shift_remove(key).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests;

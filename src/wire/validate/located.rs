//! What the validation pass finds: where a fault is ([`Loc`], [`Segment`]), what it says
//! ([`FieldError`], one element of a problem's `details`), and every fault of a request at
//! once ([`Invalid`]).

use serde::{Deserialize, Serialize};
use std::fmt;

/// One segment of a location: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum Segment {
    Index(usize),
    Key(String),
}

/// Where a problem is, as path segments from the root (`["body","questions","q1","type"]`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(transparent)]
pub struct Loc(pub Vec<Segment>);

impl Loc {
    /// The root of a request body.
    pub fn body() -> Self {
        Self(vec![Segment::Key("body".into())])
    }

    /// A query parameter's root: `["query", name]` once keyed.
    pub fn query() -> Self {
        Self(vec![Segment::Key("query".into())])
    }

    /// A request header, e.g. `["header","Idempotency-Key"]`.
    pub fn header(name: &str) -> Self {
        Self(vec![
            Segment::Key("header".into()),
            Segment::Key(name.into()),
        ])
    }

    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        let mut next = self.clone();
        next.0.push(Segment::Key(key.to_owned()));
        next
    }

    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        let mut next = self.clone();
        next.0.push(Segment::Index(index));
        next
    }
}

impl fmt::Display for Loc {
    /// A readable path without the leading `body`: `questions.urgency.criteria[2]`.
    /// Keys that are not plain identifiers are quoted: `questions[""].type`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let segments = match self.0.first() {
            Some(Segment::Key(root)) if root == "body" && self.0.len() > 1 => &self.0[1..],
            _ => &self.0[..],
        };
        let mut first = true;
        for segment in segments {
            match segment {
                Segment::Index(i) => write!(f, "[{i}]")?,
                // The first segment names a root (a body member or a file): shown as is.
                Segment::Key(key) if is_plain(key) || (first && !key.is_empty()) => {
                    if !first {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Segment::Key(key) => write!(f, "[{}]", serde_json::Value::from(key.as_str()))?,
            }
            first = false;
        }
        Ok(())
    }
}

fn is_plain(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// One element of a problem's `details`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FieldError {
    pub loc: Loc,
    /// What is wrong, for people.
    pub msg: String,
    /// A short machine-readable code, e.g. `null_level`, `missing`.
    #[serde(rename = "type")]
    pub kind: String,
}

impl FieldError {
    pub fn new(loc: Loc, msg: impl Into<String>, kind: &str) -> Self {
        Self {
            loc,
            msg: msg.into(),
            kind: kind.to_owned(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loc = self.loc.to_string();
        if loc.is_empty() || loc == "body" {
            f.write_str(&self.msg)
        } else {
            write!(f, "{loc}: {}", self.msg)
        }
    }
}

/// Every located fault a validation pass found: a request is refused with all of them at
/// once. `wire` reports faults this way and knows nothing of the crate's `Error`, which
/// takes them as a `validation_error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub Vec<FieldError>);

/// What a validation pass returns.
pub type Validated<T> = Result<T, Invalid>;

impl Invalid {
    /// One fault.
    pub fn one(loc: Loc, msg: impl Into<String>, kind: &str) -> Self {
        Self(vec![FieldError::new(loc, msg, kind)])
    }
}

impl From<FieldError> for Invalid {
    fn from(error: FieldError) -> Self {
        Self(vec![error])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loc_displays_as_a_readable_path() {
        let loc = Loc::body()
            .key("questions")
            .key("urgency")
            .key("criteria")
            .index(2);
        assert_eq!(loc.to_string(), "questions.urgency.criteria[2]");
        let odd = Loc::body().key("questions").key("").key("type");
        assert_eq!(odd.to_string(), r#"questions[""].type"#);
        let spaced = Loc::body().key("questions").key("is it urgent?");
        assert_eq!(spaced.to_string(), r#"questions["is it urgent?"]"#);
    }

    #[test]
    fn loc_serializes_as_mixed_array() {
        let loc = Loc::body()
            .key("questions")
            .key("u")
            .key("criteria")
            .index(2);
        assert_eq!(
            serde_json::to_string(&loc).unwrap(),
            r#"["body","questions","u","criteria",2]"#
        );
    }
}

//! What goes wrong while a body is read: located by the reader, or raised by the target's
//! own code (which does not know where it is) and located by the reader that called it.

use super::path::{Path, one_of};
use crate::wire::validate::{FieldError, Loc, Segment, UNKNOWN_MEMBER};
use serde::de::{self, Expected, Unexpected};
use std::cell::RefCell;
use std::fmt;

/// A fault met while reading.
#[derive(Debug)]
pub enum Fault {
    /// Where and what: ready for a problem's `details`.
    Located(Vec<FieldError>),
    /// Raised by the target's code; the reader that called it says where.
    Unlocated(Unlocated),
}

#[derive(Debug)]
pub enum Unlocated {
    Missing(&'static str),
    Unknown {
        member: String,
        known: &'static [&'static str],
    },
    Variant {
        value: String,
        known: &'static [&'static str],
    },
    Mistyped {
        unexpected: String,
        expected: String,
    },
    Invalid {
        unexpected: String,
        expected: String,
    },
    Refused(Refusal),
    Custom(String),
}

impl Fault {
    pub(super) fn located(loc: Loc, msg: impl Into<String>, kind: &str) -> Self {
        Self::Located(vec![FieldError::new(loc, msg, kind)])
    }

    /// Locate a fault raised at `path`; one already located stays where it is.
    pub(super) fn locate(self, path: &Path<'_>) -> Self {
        match self {
            Self::Located(_) => self,
            Self::Unlocated(fault) => Self::Located(fault.at(path)),
        }
    }

    /// The located faults; an unlocated one is put at `root`.
    pub(super) fn into_errors(self, root: &Path<'_>) -> Vec<FieldError> {
        match self.locate(root) {
            Self::Located(errors) => errors,
            Self::Unlocated(_) => Vec::new(),
        }
    }
}

impl Unlocated {
    fn at(self, path: &Path<'_>) -> Vec<FieldError> {
        let loc = path.loc();
        let name = path.name();
        let one = |loc: Loc, msg: String, kind: &str| vec![FieldError::new(loc, msg, kind)];
        match self {
            Self::Missing(member) => {
                one(loc.key(member), format!("{member} is required"), "missing")
            }
            // Raised reading a key, so located at it already.
            Self::Unknown { member, known } => one(
                loc,
                format!("unknown member `{member}` (known: {})", known.join(", ")),
                UNKNOWN_MEMBER,
            ),
            Self::Variant { value, known } => one(
                loc,
                format!("{name} must be {}, not \"{value}\"", one_of(known)),
                "enum",
            ),
            Self::Mistyped {
                unexpected,
                expected,
            } => one(
                loc,
                format!("{name} must be {expected}, not {unexpected}"),
                "invalid_type",
            ),
            Self::Invalid {
                unexpected,
                expected,
            } => one(
                loc,
                format!("{name} must be {expected}, not {unexpected}"),
                "invalid_value",
            ),
            Self::Refused(refusal) => refusal.at(&loc, &name),
            Self::Custom(msg) => one(loc, msg, "invalid"),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Located(errors) => {
                let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
                f.write_str(&texts.join("; "))
            }
            Self::Unlocated(fault) => write!(f, "{fault:?}"),
        }
    }
}

impl std::error::Error for Fault {}

impl de::Error for Fault {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        let text = msg.to_string();
        Self::Unlocated(match Refusal::take_shown(&text) {
            Some(refusal) => Unlocated::Refused(refusal),
            None => Unlocated::Custom(text),
        })
    }

    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Self::Unlocated(Unlocated::Mistyped {
            unexpected: describe(&unexpected),
            expected: expected.to_string(),
        })
    }

    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Self::Unlocated(Unlocated::Invalid {
            unexpected: describe(&unexpected),
            expected: expected.to_string(),
        })
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Self::Unlocated(Unlocated::Variant {
            value: variant.to_owned(),
            known: expected,
        })
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Self::Unlocated(Unlocated::Unknown {
            member: field.to_owned(),
            known: expected,
        })
    }

    fn missing_field(field: &'static str) -> Self {
        Self::Unlocated(Unlocated::Missing(field))
    }
}

/// An unexpected value as a message shows it: JSON's words, not Rust's.
fn describe(unexpected: &Unexpected<'_>) -> String {
    match unexpected {
        Unexpected::Str(s) => serde_json::Value::from(*s).to_string(),
        Unexpected::Unit | Unexpected::Option => "null".into(),
        Unexpected::Map | Unexpected::StructVariant => "an object".into(),
        Unexpected::Seq | Unexpected::TupleVariant => "an array".into(),
        Unexpected::Bool(b) => b.to_string(),
        Unexpected::Signed(n) => n.to_string(),
        Unexpected::Unsigned(n) => n.to_string(),
        Unexpected::Float(x) => x.to_string(),
        other => other.to_string(),
    }
}

/// What a type that checks its own value (a newtype's `TryFrom`, a hand `Deserialize`)
/// refuses, with a `type` code, possibly at places under it (`criteria[2]`).
///
/// serde hands a refusal to the deserializer's error only as text (`Error::custom(impl
/// Display)`), so showing one also leaves it, for this thread, where [`Fault`]'s `custom`
/// takes it back when the text is the same; any other reader sees just the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal(Vec<Part>);

#[derive(Debug, Clone, PartialEq)]
struct Part {
    under: Vec<Segment>,
    msg: Msg,
    kind: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
enum Msg {
    /// Said of the value, after its name: `may not be empty`.
    Of(String),
    /// Said whole: `a score level may not be null`.
    Whole(String),
}

thread_local! {
    static SHOWN: RefCell<Option<Refusal>> = const { RefCell::new(None) };
}

impl Refusal {
    /// `{name} {predicate}`, e.g. `model may not be empty`.
    pub fn of(predicate: impl Into<String>, kind: &'static str) -> Self {
        Self(vec![Part {
            under: Vec::new(),
            msg: Msg::Of(predicate.into()),
            kind,
        }])
    }

    /// A message said whole, e.g. `at least one question is required`.
    pub fn whole(msg: impl Into<String>, kind: &'static str) -> Self {
        Self(vec![Part {
            under: Vec::new(),
            msg: Msg::Whole(msg.into()),
            kind,
        }])
    }

    /// The same refusal, said of the value at `segment` under this one.
    #[must_use]
    pub fn under(mut self, segment: &Segment) -> Self {
        for part in &mut self.0 {
            part.under.insert(0, segment.clone());
        }
        self
    }

    /// This refusal and `other`'s, together.
    #[must_use]
    pub fn and(mut self, other: Self) -> Self {
        self.0.extend(other.0);
        self
    }

    /// The refusal as the error of any deserializer.
    pub fn raise<E: de::Error>(self) -> E {
        E::custom(self)
    }

    fn at(self, loc: &Loc, name: &str) -> Vec<FieldError> {
        self.0
            .into_iter()
            .map(|part| {
                let mut here = loc.clone();
                here.0.extend(part.under.iter().cloned());
                let msg = match part.msg {
                    Msg::Whole(msg) => msg,
                    Msg::Of(predicate) => {
                        let name = match part.under.last() {
                            Some(Segment::Key(key)) => key.clone(),
                            Some(Segment::Index(i)) => format!("{name}[{i}]"),
                            None => name.to_owned(),
                        };
                        format!("{name} {predicate}")
                    }
                };
                FieldError::new(here, msg, part.kind)
            })
            .collect()
    }

    fn take_shown(text: &str) -> Option<Self> {
        SHOWN
            .with(|shown| shown.borrow_mut().take())
            .filter(|refusal| refusal.text() == text)
    }

    fn text(&self) -> String {
        self.0
            .first()
            .map(|part| match &part.msg {
                Msg::Of(text) | Msg::Whole(text) => text.clone(),
            })
            .unwrap_or_default()
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        SHOWN.with(|shown| *shown.borrow_mut() = Some(self.clone()));
        f.write_str(&self.text())
    }
}

//! Reading a question: its `Deserialize`, with the rules a question's parts follow (a type
//! the criteria depend on, option keys, descriptions, levels, the limits on its text).
//! The validation pass ([`crate::wire::validate`]) runs it and locates what it refuses.

use super::{ALIGNMENT_KEY, Question, QuestionKind, Questions};
use crate::limits;
use crate::wire::validate::fields::too_many;
use crate::wire::validate::json_type;
use crate::wire::validate::{self, Refusal, Rules};
use crate::wire::validate::{Loc, Segment, Validated};
use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// A question's members, in the order they are read: `criteria` after the `type` it
/// depends on.
const MEMBERS: &[&str] = &["type", "instructions", "criteria"];

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Member {
    Type,
    Instructions,
    Criteria,
}

#[derive(Debug, Clone, Copy)]
enum Type {
    Noul,
    Choice,
    Score,
}

impl<'de> Deserialize<'de> for Type {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(name) if name == "noul" => Ok(Self::Noul),
            Value::String(name) if name == "choice" => Ok(Self::Choice),
            Value::String(name) if name == "score" => Ok(Self::Score),
            other => Err(Refusal::whole(
                format!("unknown question type {other}: expected noul, choice or score"),
                "unknown_type",
            )
            .raise()),
        }
    }
}

/// A member the question's type requires, missing.
fn missing(member: &str, msg: &str) -> Refusal {
    Refusal::whole(msg, "missing").under(&Segment::Key(member.into()))
}

impl<'de> Deserialize<'de> for Question {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("Question", MEMBERS, QuestionVisitor)
    }
}

struct QuestionVisitor;

impl<'de> Visitor<'de> for QuestionVisitor {
    type Value = Question;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object with type, instructions and criteria")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Question, A::Error> {
        let (mut kind, mut instructions, mut criteria, mut early) = (None, None, None, None);
        while let Some(member) = map.next_key::<Member>()? {
            match member {
                Member::Type => kind = Some(map.next_value::<Type>()?),
                Member::Instructions => instructions = Some(map.next_value_seed(Instructions)?),
                Member::Criteria => match kind {
                    Some(kind) => criteria = Some(map.next_value_seed(Criteria(kind))?),
                    // Read in the document's order (not the validation pass's), the
                    // criteria can come before the type they depend on.
                    None => early = Some(map.next_value::<Value>()?),
                },
            }
        }
        let kind = kind.ok_or_else(|| {
            missing("type", "type is required: one of noul, choice, score").raise()
        })?;
        if let Some(value) = early {
            criteria = Some(
                Criteria(kind)
                    .deserialize(value)
                    .map_err(de::Error::custom)?,
            );
        }
        let kind = match (kind, criteria) {
            (_, Some(criteria)) => criteria,
            (Type::Noul, None) => QuestionKind::Noul {
                when_true: Value::Null,
                when_false: Value::Null,
            },
            (Type::Choice, None) => {
                let msg = "choice criteria are required: an object of option key to description";
                return Err(missing("criteria", msg).raise());
            }
            (Type::Score, None) => {
                let msg = "score criteria are required: an array of rubric level descriptions";
                return Err(missing("criteria", msg).raise());
            }
        };
        Ok(Question { instructions, kind })
    }
}

/// Instructions: any JSON value, within the limit on a question's text. An aligned
/// question's instructions (what `arbiter align` wrote, or a client sends back of it) are
/// measured by their `task`, the instructions as written: the rest is the alignment's.
struct Instructions;

impl<'de> DeserializeSeed<'de> for Instructions {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        let instructions = Value::deserialize(deserializer)?;
        let fault = match &instructions {
            Value::Object(members) if members.contains_key(ALIGNMENT_KEY) => members
                .get("task")
                .and_then(limits::question_text_fault)
                .map(|(fault, kind)| Refusal::of(fault, kind).under(&Segment::Key("task".into()))),
            other => {
                limits::question_text_fault(other).map(|(fault, kind)| Refusal::of(fault, kind))
            }
        };
        match fault {
            Some(refusal) => Err(refusal.raise()),
            None => Ok(instructions),
        }
    }
}

/// The criteria of a question of a type.
struct Criteria(Type);

impl<'de> DeserializeSeed<'de> for Criteria {
    type Value = QuestionKind;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<QuestionKind, D::Error> {
        match self.0 {
            Type::Noul => {
                let criteria =
                    Option::<NoulCriteria>::deserialize(deserializer)?.unwrap_or_default();
                Ok(QuestionKind::Noul {
                    when_true: criteria.when_true.0,
                    when_false: criteria.when_false.0,
                })
            }
            Type::Choice => {
                let options = deserializer.deserialize_map(
                    Counted::<OptionKey, Described<true>>::new(limits::MAX_OPTIONS, "options"),
                )?;
                Ok(QuestionKind::Choice {
                    options: options
                        .into_iter()
                        .map(|(key, text)| (key.0, text.0))
                        .collect(),
                })
            }
            Type::Score => {
                let levels = Vec::<Described<false>>::deserialize(deserializer)?;
                if levels.is_empty() {
                    return Err(
                        Refusal::whole("a score needs at least one level", "empty_levels").raise(),
                    );
                }
                if let Some(refusal) = too_many(levels.len(), limits::MAX_OPTIONS, "levels") {
                    return Err(refusal.raise());
                }
                Ok(QuestionKind::Score {
                    levels: levels.into_iter().map(|level| level.0).collect(),
                })
            }
        }
    }
}

/// A noul's criteria: what its true and its false side mean, each may be null.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct NoulCriteria {
    #[serde(rename = "true", default)]
    when_true: Described<true>,
    #[serde(rename = "false", default)]
    when_false: Described<true>,
}

/// What an outcome means: a string, an object or an array (or null, where `NULLABLE`),
/// within the limit on a question's text.
#[derive(Default)]
struct Described<const NULLABLE: bool>(Value);

impl<'de, const NULLABLE: bool> Deserialize<'de> for Described<NULLABLE> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let refusal = match &value {
            Value::String(_) | Value::Object(_) | Value::Array(_) => {
                limits::question_text_fault(&value)
                    .map(|(fault, kind)| Refusal::whole(format!("the description {fault}"), kind))
            }
            Value::Null if NULLABLE => None,
            Value::Null => Some(Refusal::whole(
                "a score level may not be null",
                "null_level",
            )),
            other => Some(Refusal::whole(
                format!(
                    "a description must be a string, object or array{}, not {}",
                    if NULLABLE { " (or null)" } else { "" },
                    json_type(other)
                ),
                "description_type",
            )),
        };
        match refusal {
            Some(refusal) => Err(refusal.raise()),
            None => Ok(Self(value)),
        }
    }
}

/// A choice's option key: a non-empty string within [`limits::MAX_OPTION_KEY_CHARS`].
#[derive(PartialEq, Eq, Hash)]
struct OptionKey(String);

impl<'de> Deserialize<'de> for OptionKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        if key.is_empty() {
            return Err(
                Refusal::whole("an option key may not be empty", "empty_option_key").raise(),
            );
        }
        match limits::text_fault(&key, limits::MAX_OPTION_KEY_CHARS) {
            Some((fault, kind)) => {
                Err(Refusal::whole(format!("the option key {fault}"), kind).raise())
            }
            None => Ok(Self(key)),
        }
    }
}

/// A question ID: any string (even "") within [`limits::MAX_QUESTION_ID_CHARS`].
#[derive(PartialEq, Eq, Hash)]
struct QuestionId(String);

impl<'de> Deserialize<'de> for QuestionId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        match limits::text_fault(&id, limits::MAX_QUESTION_ID_CHARS) {
            Some((fault, kind)) => {
                Err(Refusal::whole(format!("the question ID {fault}"), kind).raise())
            }
            None => Ok(Self(id)),
        }
    }
}

/// A map of at most `max` entries, refused by its count before any entry is read when the
/// reader knows it.
struct Counted<K, V> {
    max: usize,
    what: &'static str,
    entries: std::marker::PhantomData<(K, V)>,
}

impl<K, V> Counted<K, V> {
    fn new(max: usize, what: &'static str) -> Self {
        Self {
            max,
            what,
            entries: std::marker::PhantomData,
        }
    }
}

impl<'de, K: Deserialize<'de> + std::hash::Hash + Eq, V: Deserialize<'de>> Visitor<'de>
    for Counted<K, V>
{
    type Value = IndexMap<K, V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object of {}", self.what)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let refuse = |count| too_many(count, self.max, self.what).map(Refusal::raise);
        if let Some(error) = map.size_hint().and_then(refuse) {
            return Err(error);
        }
        let mut entries = IndexMap::with_capacity(map.size_hint().unwrap_or(0));
        while let Some((key, value)) = map.next_entry()? {
            entries.insert(key, value);
        }
        match refuse(entries.len()) {
            Some(error) => Err(error),
            None => Ok(entries),
        }
    }
}

/// A question map as a request carries it: question ID → question, at least one, at most
/// [`limits::MAX_QUESTIONS`]; for `#[serde(deserialize_with = …)]`.
pub fn questions<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Questions, D::Error> {
    let read = deserializer.deserialize_map(Counted::<QuestionId, Question>::new(
        limits::MAX_QUESTIONS,
        "questions",
    ))?;
    if read.is_empty() {
        return Err(Refusal::whole("at least one question is required", "empty_questions").raise());
    }
    Ok(read
        .into_iter()
        .map(|(id, question)| (id.0, question))
        .collect())
}

/// [`questions`], when given: absent is none (with `#[serde(default)]`).
pub fn optional_questions<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Questions>, D::Error> {
    questions(deserializer).map(Some)
}

/// [`questions`], when given: absent or null is none.
pub fn nullable_questions<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Questions>, D::Error> {
    Ok(Option::<QuestionMap>::deserialize(deserializer)?.map(|map| map.0))
}

/// A question map on its own (a question file, a `--questions` argument).
#[derive(Deserialize)]
struct QuestionMap(#[serde(deserialize_with = "questions")] Questions);

impl Rules for QuestionMap {}

/// Read a question map at `loc`: every fault at once.
pub fn read_questions(value: &Value, loc: &Loc) -> Validated<Questions> {
    validate::read::<QuestionMap>(value, loc).map(|map| map.0)
}

/// Read one question at `loc`.
pub fn read_question(value: &Value, loc: &Loc) -> Validated<Question> {
    validate::read::<Question>(value, loc)
}

impl Rules for Question {}

/// [`read_questions`] for callers that gather faults from several places: the faults go
/// onto `errors`, and no question is returned when there are any.
pub fn parse_questions(
    value: &Value,
    loc: &Loc,
    errors: &mut Vec<crate::wire::FieldError>,
) -> Questions {
    read_questions(value, loc).unwrap_or_else(|invalid| {
        errors.extend(invalid.0);
        Questions::new()
    })
}

/// [`read_question`], gathering faults as [`parse_questions`] does.
pub fn parse_question(
    value: &Value,
    loc: &Loc,
    errors: &mut Vec<crate::wire::FieldError>,
) -> Option<Question> {
    read_question(value, loc)
        .map_err(|invalid| errors.extend(invalid.0))
        .ok()
}

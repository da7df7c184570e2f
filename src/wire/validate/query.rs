//! A query string read by the pass: its `name=value` pairs as the object of the members
//! the type declares.

use super::{FieldError, Invalid, Loc, Rules, Segment, Validated, read};
use serde::Deserializer;
use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::{Map, Value};

/// Read a query's `name=value` pairs as a `T` whose members are the parameters: every
/// fault at once, each at `["query", name]`, in the order the pairs give them. Only the
/// parameters `T` declares are read (any other is ignored, as on every route); one given
/// twice is refused, never read as the last.
pub fn read_query<T: DeserializeOwned + Rules>(pairs: &[(String, String)]) -> Validated<T> {
    let declared = members_of::<T>();
    // Each declared parameter's first value, as the object the pass reads; each later one,
    // a fault where it is.
    let mut object = Map::new();
    let mut faults: Vec<(usize, FieldError)> = Vec::new();
    for (at, (name, value)) in pairs.iter().enumerate() {
        if !declared.contains(&name.as_str()) {
            continue;
        }
        if object.contains_key(name) {
            let msg = format!("{name} is given more than once");
            faults.push((
                at,
                FieldError::new(Loc::query().key(name), msg, "duplicate"),
            ));
            continue;
        }
        object.insert(name.clone(), Value::String(value.clone()));
    }
    let read = read::<T>(&Value::Object(object), &Loc::query());
    let read = match read {
        Ok(query) => Some(query),
        Err(Invalid(errors)) => {
            for error in errors {
                let at = match error.loc.0.get(1) {
                    Some(Segment::Key(name)) => pairs.iter().position(|(n, _)| n == name),
                    _ => None,
                };
                faults.push((at.unwrap_or(0), error));
            }
            None
        }
    };
    match read {
        Some(query) if faults.is_empty() => Ok(query),
        _ => {
            faults.sort_by_key(|(at, _)| *at);
            Err(Invalid(
                faults.into_iter().map(|(_, fault)| fault).collect(),
            ))
        }
    }
}

/// The members a derived struct declares, as its `Deserialize` hands them to a
/// deserializer (`deserialize_struct`'s `fields`): asked once, of a probe that reads
/// nothing. Empty for a type that is no struct.
fn members_of<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut members: &'static [&'static str] = &[];
    // The probe always refuses: what it was asked is all it is for.
    let _ = T::deserialize(Probe(&mut members));
    members
}

/// A deserializer that records the members a struct asks for, and refuses.
struct Probe<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("a probe of the members"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("a probe of the members"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

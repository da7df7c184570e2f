//! A serde `Deserializer` over a parsed JSON value that knows where it is.
//!
//! `serde_json`'s own reader of a [`Value`] says what went wrong ("invalid type: integer
//! `1`, expected a string") but not where. This one keeps the path it has walked (a list of
//! steps on the stack, turned into a [`Loc`](super::located::Loc) only when something is wrong), checks each
//! value's JSON type against what the target asked for before it hands it over, and locates
//! every fault: its own, and the ones the target's derived code raises (a missing or
//! unknown member, an unknown enum value, a newtype's [`Refusal`](super::fault::Refusal)).
//!
//! A struct's members are handed over in the order the struct declares them (the members
//! it does not know after, in document order), so a type whose members depend on one
//! another (a question's `criteria` on its `type`) reads the one it depends on first.

use super::fault::Fault;
use super::json_type;
use super::path::{Path, Step, one_of};
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, IntoDeserializer as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Reads `value`, which sits at `path`.
pub(super) struct Reader<'v, 'p> {
    pub(super) value: &'v Value,
    pub(super) path: &'p Path<'p>,
}

impl Reader<'_, '_> {
    /// The value is not of the JSON type the target reads: `expected` is what it reads.
    fn mistyped(&self, expected: &str, kind: &'static str) -> Fault {
        Fault::located(
            self.path.loc(),
            format!(
                "{} must be {expected}, not {}",
                self.path.name(),
                json_type(self.value)
            ),
            kind,
        )
    }

    fn locate<T>(&self, result: Result<T, Fault>) -> Result<T, Fault> {
        result.map_err(|fault| fault.locate(self.path))
    }
}

/// A whole number as an unsigned integer: `2` and `2.0` alike (JSON does not tell them
/// apart), up to 2^53 − 1 written as a float (where floats stop being exact).
fn whole(value: &Value) -> Option<u64> {
    const MAX_EXACT: f64 = 9_007_199_254_740_991.0;
    let number = value.as_number()?;
    number.as_u64().or_else(|| {
        number
            .as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= MAX_EXACT)
            .map(|f| f as u64)
    })
}

macro_rules! through_any {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
            self.deserialize_any(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Reader<'de, '_> {
    type Error = Fault;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        let read = match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => visitor.visit_seq(SeqReader::new(items, self.path)),
            Value::Object(members) => visitor.visit_map(MapReader::new(members.iter(), self.path)),
        };
        self.locate(read)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value {
            Value::Bool(b) => self.locate(visitor.visit_bool(*b)),
            _ => Err(self.mistyped("a boolean", "bool_expected")),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match whole(self.value) {
            Some(n) => self.locate(visitor.visit_u64(n)),
            None if self.value.is_number() => Err(Fault::located(
                self.path.loc(),
                format!(
                    "{} must be a whole number of at least 0, not {}",
                    self.path.name(),
                    self.value
                ),
                "integer_expected",
            )),
            None => Err(self.mistyped("a whole number", "integer_expected")),
        }
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value.as_i64() {
            Some(n) => self.locate(visitor.visit_i64(n)),
            None => match whole(self.value) {
                Some(n) => self.locate(visitor.visit_u64(n)),
                None => Err(self.mistyped("a whole number", "integer_expected")),
            },
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value.as_f64() {
            Some(f) => self.locate(visitor.visit_f64(f)),
            None => Err(self.mistyped("a number", "number_expected")),
        }
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value {
            Value::String(s) => self.locate(visitor.visit_borrowed_str(s)),
            _ => Err(self.mistyped("a string", "string_expected")),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value {
            Value::Null => self.locate(visitor.visit_none()),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value {
            Value::Null => self.locate(visitor.visit_unit()),
            _ => Err(self.mistyped("null", "null_expected")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Fault> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Fault> {
        let path = self.path;
        visitor
            .visit_newtype_struct(self)
            .map_err(|fault| fault.locate(path))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value {
            Value::Array(items) => self.locate(visitor.visit_seq(SeqReader::new(items, self.path))),
            _ => Err(self.mistyped("an array", "array_expected")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Fault> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Fault> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        match self.value {
            Value::Object(members) => {
                self.locate(visitor.visit_map(MapReader::new(members.iter(), self.path)))
            }
            _ => Err(self.mistyped("an object", "object_expected")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Fault> {
        match self.value {
            Value::Object(members) => {
                let ordered = declared_first(members, fields);
                self.locate(visitor.visit_map(MapReader::new(ordered.into_iter(), self.path)))
            }
            _ => Err(self.mistyped("an object", "object_expected")),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Fault> {
        match self.value {
            Value::String(s) => self.locate(visitor.visit_enum(BorrowedStrDeserializer::new(s))),
            _ => Err(self.mistyped(&one_of(variants), "enum")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        visitor.visit_unit()
    }

    through_any! {
        deserialize_i128 deserialize_u128 deserialize_bytes deserialize_byte_buf
    }
}

/// A struct's members in its declared order, then those it does not declare.
fn declared_first<'v>(
    members: &'v Map<String, Value>,
    fields: &[&str],
) -> Vec<(&'v String, &'v Value)> {
    let mut ordered: Vec<(&String, &Value)> = fields
        .iter()
        .filter_map(|field| members.get_key_value(*field))
        .collect();
    ordered.extend(
        members
            .iter()
            .filter(|(key, _)| !fields.contains(&key.as_str())),
    );
    ordered
}

struct SeqReader<'v, 'p> {
    items: std::slice::Iter<'v, Value>,
    index: usize,
    path: &'p Path<'p>,
}

impl<'v, 'p> SeqReader<'v, 'p> {
    fn new(items: &'v [Value], path: &'p Path<'p>) -> Self {
        Self {
            items: items.iter(),
            index: 0,
            path,
        }
    }
}

impl<'de> SeqAccess<'de> for SeqReader<'de, '_> {
    type Error = Fault;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Fault> {
        let Some(value) = self.items.next() else {
            return Ok(None);
        };
        let here = self.path.then(Step::Index(self.index));
        self.index += 1;
        seed.deserialize(Reader { value, path: &here })
            .map(Some)
            .map_err(|fault| fault.locate(&here))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapReader<'v, 'p, I> {
    members: I,
    next: Option<(&'v str, &'v Value)>,
    path: &'p Path<'p>,
}

impl<'p, I> MapReader<'_, 'p, I> {
    fn new(members: I, path: &'p Path<'p>) -> Self {
        Self {
            members,
            next: None,
            path,
        }
    }
}

impl<'de, I: ExactSizeIterator<Item = (&'de String, &'de Value)>> MapAccess<'de>
    for MapReader<'de, '_, I>
{
    type Error = Fault;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Fault> {
        let Some((key, value)) = self.members.next() else {
            return Ok(None);
        };
        self.next = Some((key, value));
        let here = self.path.then(Step::Key(key));
        seed.deserialize(KeyReader(key))
            .map(Some)
            .map_err(|fault| fault.locate(&here))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Fault> {
        let Some((key, value)) = self.next.take() else {
            return Err(de::Error::custom("a value was asked for before its key"));
        };
        let here = self.path.then(Step::Key(key));
        seed.deserialize(Reader { value, path: &here })
            .map_err(|fault| fault.locate(&here))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// An object's key: a string, which a newtype key may still refuse.
struct KeyReader<'v>(&'v str);

impl<'de> de::Deserializer<'de> for KeyReader<'de> {
    type Error = Fault;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Fault> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Fault> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Fault> {
        visitor.visit_enum(self.0.into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

//! The values that cross between the store and either database: SQLite's five storage
//! classes, which PostgreSQL's column types map onto (BIGINT, DOUBLE PRECISION, TEXT,
//! BYTEA, BOOLEAN read as an integer).

use super::DbError;

/// One value of a parameter or a column.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What can be bound to a statement's parameter.
pub(crate) trait Param {
    fn value(&self) -> Value;
}

impl Param for Value {
    fn value(&self) -> Value {
        self.clone()
    }
}

impl Param for str {
    fn value(&self) -> Value {
        Value::Text(self.to_owned())
    }
}

impl Param for String {
    fn value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl Param for crate::ids::ExampleId {
    fn value(&self) -> Value {
        Value::Text(self.as_str().to_owned())
    }
}

impl Param for i64 {
    fn value(&self) -> Value {
        Value::Integer(*self)
    }
}

/// A recorded moment is stored as the contract writes it, so that text order is time order.
impl Param for crate::wire::time::Recorded {
    fn value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl Param for u32 {
    fn value(&self) -> Value {
        Value::Integer(i64::from(*self))
    }
}

impl Param for u16 {
    fn value(&self) -> Value {
        Value::Integer(i64::from(*self))
    }
}

impl Param for bool {
    fn value(&self) -> Value {
        Value::Integer(i64::from(*self))
    }
}

impl Param for f64 {
    fn value(&self) -> Value {
        Value::Real(*self)
    }
}

impl Param for [u8] {
    fn value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl Param for Vec<u8> {
    fn value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl<const N: usize> Param for [u8; N] {
    fn value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> Value {
        (**self).value()
    }
}

impl<T: Param> Param for Option<T> {
    fn value(&self) -> Value {
        self.as_ref().map_or(Value::Null, Param::value)
    }
}

/// The values of a statement's arguments.
pub(super) fn bind(args: &[&dyn Param]) -> Vec<Value> {
    args.iter().map(|arg| Param::value(*arg)).collect()
}

/// A row of a result, its columns in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row(pub(super) Vec<Value>);

impl Row {
    /// Column `index` as a `T`; a column of another type is an error that names it.
    pub(crate) fn get<T: FromValue>(&self, index: usize) -> Result<T, DbError> {
        let value = self
            .0
            .get(index)
            .ok_or_else(|| DbError::Other(format!("no column {index} in the row")))?;
        T::from_value(value).ok_or_else(|| {
            DbError::Other(format!(
                "column {index} holds {value:?}, not {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// What a column can be read as.
pub(crate) trait FromValue: Sized {
    fn from_value(value: &Value) -> Option<Self>;
}

impl FromValue for Value {
    fn from_value(value: &Value) -> Option<Self> {
        Some(value.clone())
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Text(text) => Some(text.clone()),
            _ => None,
        }
    }
}

impl FromValue for crate::ids::ExampleId {
    fn from_value(value: &Value) -> Option<Self> {
        String::from_value(value).map(Self::from)
    }
}

/// A stored moment is read once, as a time: text that is none is a column of another type.
impl FromValue for crate::wire::time::Recorded {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Text(text) => text.parse().ok(),
            _ => None,
        }
    }
}

impl FromValue for i64 {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Integer(n) => Some(*n),
            _ => None,
        }
    }
}

impl FromValue for u32 {
    fn from_value(value: &Value) -> Option<Self> {
        i64::from_value(value).and_then(|n| u32::try_from(n).ok())
    }
}

impl FromValue for u16 {
    fn from_value(value: &Value) -> Option<Self> {
        i64::from_value(value).and_then(|n| u16::try_from(n).ok())
    }
}

impl FromValue for bool {
    fn from_value(value: &Value) -> Option<Self> {
        i64::from_value(value).map(|n| n != 0)
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Real(x) => Some(*x),
            #[allow(clippy::cast_precision_loss)] // SQLite stores whole reals as integers
            Value::Integer(n) => Some(*n as f64),
            _ => None,
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Blob(bytes) => Some(bytes.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            value => T::from_value(value).map(Some),
        }
    }
}

//! [`super::Db`] on a rusqlite connection, its statements cached by rusqlite.

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ToSql};

use super::{DbError, Param, Row, Value};

/// A failure as the store reports it: a refused write (`SQLITE_FULL`: no space; `SQLITE_IOERR_WRITE`:
/// over quota or the file size limit) is told apart, since SQLite rolls the transaction back
/// and nothing of it stays.
#[allow(clippy::needless_pass_by_value)] // `map_err(error)`
pub(super) fn error(e: rusqlite::Error) -> DbError {
    let refused = e.sqlite_error().is_some_and(|f| {
        f.code == rusqlite::ErrorCode::DiskFull
            || f.extended_code == rusqlite::ffi::SQLITE_IOERR_WRITE
    });
    if refused {
        DbError::Full(e.to_string())
    } else {
        DbError::Other(e.to_string())
    }
}

/// [`error`], told apart when the failure is one of the file system (an I/O error, a
/// read-only or unopenable file, a full disk) and a file of the database at `path` cannot
/// be written: then that file and the cause are what failed, not a full disk
/// ([`crate::store::writable`]).
pub(crate) fn failure(path: Option<&str>, e: rusqlite::Error) -> DbError {
    let of_files = e.sqlite_error().is_some_and(|f| {
        matches!(
            f.code,
            rusqlite::ErrorCode::SystemIoFailure
                | rusqlite::ErrorCode::ReadOnly
                | rusqlite::ErrorCode::CannotOpen
                | rusqlite::ErrorCode::DiskFull
                | rusqlite::ErrorCode::PermissionDenied
        )
    });
    if of_files
        && let Some(path) = path.filter(|p| !p.is_empty())
        && let Some(reason) = crate::store::writable::unwritable(std::path::Path::new(path))
    {
        return DbError::Unwritable(reason);
    }
    error(e)
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Self::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Self::Integer(n) => ToSqlOutput::Borrowed(ValueRef::Integer(*n)),
            Self::Real(x) => ToSqlOutput::Borrowed(ValueRef::Real(*x)),
            Self::Text(text) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
            Self::Blob(bytes) => ToSqlOutput::Borrowed(ValueRef::Blob(bytes)),
        })
    }
}

pub(super) fn execute(conn: &Connection, sql: &str, args: &[&dyn Param]) -> Result<usize, DbError> {
    let values = super::value::bind(args);
    let error = |e| failure(conn.path(), e);
    let mut stmt = conn.prepare_cached(sql).map_err(error)?;
    stmt.execute(rusqlite::params_from_iter(values.iter()))
        .map_err(error)
}

pub(super) fn query(
    conn: &Connection,
    sql: &str,
    args: &[&dyn Param],
) -> Result<Vec<Row>, DbError> {
    let values = super::value::bind(args);
    let error = |e| failure(conn.path(), e);
    let mut stmt = conn.prepare_cached(sql).map_err(error)?;
    let width = stmt.column_count();
    let mut rows = stmt
        .query(rusqlite::params_from_iter(values.iter()))
        .map_err(error)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(error)? {
        let mut columns = Vec::with_capacity(width);
        for index in 0..width {
            columns.push(match row.get_ref(index).map_err(error)? {
                ValueRef::Null => Value::Null,
                ValueRef::Integer(n) => Value::Integer(n),
                ValueRef::Real(x) => Value::Real(x),
                ValueRef::Text(bytes) => Value::Text(String::from_utf8_lossy(bytes).into_owned()),
                ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
            });
        }
        out.push(Row(columns));
    }
    Ok(out)
}

//! One way to run SQL on either backend: SQLite (the embedded default) or PostgreSQL (shared
//! by several replicas). The store's operations are written once, against [`Db`]; the few
//! places where the dialects differ ask [`Dialect`] for their spelling.
//!
//! SQL is written in SQLite's syntax with numbered parameters (`?1`); on PostgreSQL they
//! become `$1` when the statement is first prepared on a connection.

mod postgres;
mod sqlite;
mod value;

pub(super) use self::postgres::{PgConn, PgPool};
pub(super) use sqlite::failure as sqlite_failure;
pub(super) use value::Value;
pub(super) use value::{FromValue, Param, Row};

use super::StoreError;
use crate::telemetry::metrics;

/// Which SQL the connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// A table of the texts of the JSON array `param` (a `?n`), as a row source with one
    /// column `value`.
    pub(super) fn json_texts(self, param: &str) -> String {
        match self {
            Self::Sqlite => format!("json_each({param})"),
            Self::Postgres => {
                format!("jsonb_array_elements_text(CAST({param} AS jsonb)) AS json_texts(value)")
            }
        }
    }

    /// The JSON array text of `expr` over a group.
    pub(super) fn json_array_agg(self, expr: &str) -> String {
        match self {
            Self::Sqlite => format!("json_group_array({expr})"),
            Self::Postgres => format!("CAST(COALESCE(json_agg({expr}), '[]') AS TEXT)"),
        }
    }
}

impl Dialect {
    /// The backend label of the store's metrics.
    pub fn backend(self) -> metrics::Backend {
        match self {
            Self::Sqlite => metrics::Backend::Sqlite,
            Self::Postgres => metrics::Backend::Postgres,
        }
    }

    /// `result`, its failure counted in the metrics as one of this backend's
    /// (`arbiter_store_errors_total`).
    pub(super) fn count_failure<T, E>(self, result: Result<T, E>) -> Result<T, E> {
        if result.is_err() {
            metrics::store_error(self.backend());
        }
        result
    }
}

/// A failure of the database itself, before the store says which operation it was.
#[derive(Debug)]
pub(super) enum DbError {
    /// The storage refused the write (disk full, over quota): nothing was written.
    Full(String),
    /// The database server cannot be reached (PostgreSQL down or restarting).
    Unavailable(String),
    /// A file of the SQLite database cannot be written: which, and why.
    Unwritable(String),
    /// A query that must return a row returned none.
    NoRows,
    /// Anything else, as the database put it.
    Other(String),
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Full(message)
            | Self::Unavailable(message)
            | Self::Unwritable(message)
            | Self::Other(message) => f.write_str(message),
            Self::NoRows => f.write_str("the query returned no row"),
        }
    }
}

/// Attaches the operation to a database failure: `db.execute(..).ctx("insert example")?`.
pub(super) trait SqlContext<T> {
    fn ctx(self, context: &str) -> Result<T, StoreError>;
}

impl<T> SqlContext<T> for Result<T, DbError> {
    fn ctx(self, context: &str) -> Result<T, StoreError> {
        self.map_err(|e| match e {
            DbError::Full(_) => StoreError::Full {
                context: context.to_owned(),
            },
            DbError::Unavailable(message) => StoreError::Unavailable {
                context: context.to_owned(),
                message,
            },
            DbError::Unwritable(reason) => StoreError::Unwritable {
                context: context.to_owned(),
                reason,
            },
            e => StoreError::Database {
                context: context.to_owned(),
                message: e.to_string(),
            },
        })
    }
}

impl<T> SqlContext<T> for Result<T, rusqlite::Error> {
    fn ctx(self, context: &str) -> Result<T, StoreError> {
        self.map_err(sqlite::error).ctx(context)
    }
}

/// A connection of either backend, inside or outside a transaction.
pub(super) enum Db<'c> {
    Sqlite(&'c rusqlite::Connection),
    Postgres(&'c mut PgConn),
}

impl Db<'_> {
    pub(super) fn dialect(&self) -> Dialect {
        match self {
            Self::Sqlite(_) => Dialect::Sqlite,
            Self::Postgres(_) => Dialect::Postgres,
        }
    }

    /// `result`, its failure counted in the metrics (`arbiter_store_errors_total`).
    fn counted<T>(&self, result: Result<T, DbError>) -> Result<T, DbError> {
        self.dialect().count_failure(result)
    }

    /// Runs a statement; how many rows it changed.
    pub(super) fn execute(&mut self, sql: &str, args: &[&dyn Param]) -> Result<usize, DbError> {
        let done = match self {
            Self::Sqlite(conn) => sqlite::execute(conn, sql, args),
            Self::Postgres(conn) => conn.execute(sql, args),
        };
        self.counted(done)
    }

    /// Every row of a query.
    pub(super) fn query(&mut self, sql: &str, args: &[&dyn Param]) -> Result<Vec<Row>, DbError> {
        let rows = match self {
            Self::Sqlite(conn) => sqlite::query(conn, sql, args),
            Self::Postgres(conn) => conn.query(sql, args),
        };
        self.counted(rows)
    }

    /// Every row of a query, each read by `read`.
    pub(super) fn query_map<T>(
        &mut self,
        sql: &str,
        args: &[&dyn Param],
        read: impl FnMut(&Row) -> Result<T, DbError>,
    ) -> Result<Vec<T>, DbError> {
        self.query(sql, args)?.iter().map(read).collect()
    }

    /// The first row of a query, if any, read by `read`.
    pub(super) fn query_opt<T>(
        &mut self,
        sql: &str,
        args: &[&dyn Param],
        read: impl FnOnce(&Row) -> Result<T, DbError>,
    ) -> Result<Option<T>, DbError> {
        self.query(sql, args)?.first().map(read).transpose()
    }

    /// The first row of a query, which must have one.
    pub(super) fn query_row<T>(
        &mut self,
        sql: &str,
        args: &[&dyn Param],
        read: impl FnOnce(&Row) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        self.query_opt(sql, args, read)?.ok_or(DbError::NoRows)
    }

    /// The first column of the first row.
    pub(super) fn query_value<T: FromValue>(
        &mut self,
        sql: &str,
        args: &[&dyn Param],
    ) -> Result<T, DbError> {
        self.query_row(sql, args, |row| row.get(0))
    }

    /// Several statements without parameters (a migration).
    pub(super) fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        let done = match self {
            Self::Sqlite(conn) => conn.execute_batch(sql).map_err(sqlite::error),
            Self::Postgres(conn) => conn.batch(sql),
        };
        self.counted(done)
    }
}

/// Arguments built at run time (a filter's), as a statement takes them.
pub(super) fn dynamic(values: &[Value]) -> Vec<&dyn Param> {
    values.iter().map(|value| value as &dyn Param).collect()
}

/// `params![a, b]`: the arguments of a statement, each anything that is a [`Param`].
macro_rules! params {
    () => { &[] as &[&dyn $crate::store::sql::Param] };
    ($($arg:expr),+ $(,)?) => { &[$(&$arg as &dyn $crate::store::sql::Param),+] as &[&dyn $crate::store::sql::Param] };
}
pub(super) use params;

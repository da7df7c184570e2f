//! [`super::Db`] on a PostgreSQL connection (the synchronous `postgres` client).
//!
//! Statements are prepared once per connection and kept; their `?n` parameters become `$n`
//! then. Values are bound by the type PostgreSQL inferred for each parameter, so the store's
//! SQLite-shaped values (an integer for a boolean, text for JSON) fit the columns.

use std::collections::HashMap;
use std::error::Error as StdError;
use std::sync::mpsc;

use bytes::{BufMut, BytesMut};
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use postgres::{Client, NoTls, Statement};

use super::{DbError, Param, Row, Value};

/// One connection. The `postgres` client blocks on a runtime of its own, which tokio
/// refuses inside another runtime (the command line runs the store from async code), so
/// the client lives on a thread of its own and each call is handed to it.
pub(crate) struct PgConn {
    tasks: mpsc::Sender<Task>,
    /// Between `begin` and `end_transaction`: what the pool must roll back.
    in_transaction: bool,
}

type Task = Box<dyn FnOnce(&mut Session) + Send>;

/// The client and the statements prepared on it, owned by the connection's thread.
struct Session {
    client: Client,
    statements: HashMap<String, Statement>,
}

impl std::fmt::Debug for PgConn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgConn").finish_non_exhaustive()
    }
}

/// How PostgreSQL's failures read: its own message, with the detail when it gives one.
pub(super) fn error(e: &postgres::Error) -> DbError {
    let Some(db) = e.as_db_error() else {
        // No answer from the server: it is down, restarting, or unreachable.
        return DbError::Unavailable(e.to_string());
    };
    let mut message = db.message().to_owned();
    if let Some(detail) = db.detail() {
        message = format!("{message} ({detail})");
    }
    // 53100 disk_full, 53400 configuration_limit_exceeded (a tablespace quota).
    let code = db.code().code();
    if matches!(code, "53100" | "53400") {
        DbError::Full(message)
    } else if code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03") {
        // Connection exceptions; the server shutting down, crashed, or starting up.
        DbError::Unavailable(message)
    } else {
        DbError::Other(message)
    }
}

impl PgConn {
    /// Connects to `url` (`postgres://user@host:port/db` or key=value pairs).
    pub(in crate::store) fn connect(url: &str) -> Result<Self, DbError> {
        let (tasks, inbox) = mpsc::channel::<Task>();
        let (ready, connected) = mpsc::sync_channel(1);
        let url = url.to_owned();
        std::thread::Builder::new()
            .name("postgres-connection".into())
            .spawn(move || {
                let mut session = match Client::connect(&url, NoTls) {
                    Ok(client) => {
                        let _ = ready.send(Ok(()));
                        Session {
                            client,
                            statements: HashMap::new(),
                        }
                    }
                    Err(e) => {
                        let _ = ready.send(Err(error(&e)));
                        return;
                    }
                };
                // Ends when the connection is dropped (its sender with it).
                for task in inbox {
                    task(&mut session);
                }
            })
            .map_err(|e| DbError::Other(format!("starting a connection thread: {e}")))?;
        connected
            .recv()
            .map_err(|_| DbError::Unavailable("the connection thread ended".into()))??;
        Ok(Self {
            tasks,
            in_transaction: false,
        })
    }

    /// Runs `work` on the connection's thread and waits for its answer.
    fn call<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Session) -> Result<R, DbError> + Send + 'static,
    ) -> Result<R, DbError> {
        let (answer, answered) = mpsc::sync_channel(1);
        self.tasks
            .send(Box::new(move |session| {
                let _ = answer.send(work(session));
            }))
            .map_err(|_| DbError::Unavailable("the connection thread ended".into()))?;
        answered
            .recv()
            .map_err(|_| DbError::Unavailable("the connection thread ended".into()))?
    }

    /// Opens a transaction with `begin` (`BEGIN …` and whatever must run first in it).
    pub(in crate::store) fn begin(&mut self, begin: &str) -> Result<(), DbError> {
        // Set first: if a later statement of `begin` fails, the transaction is still open.
        self.in_transaction = true;
        self.batch(begin)
    }

    /// Commits (or rolls back) the open transaction; nothing when there is none.
    pub(in crate::store) fn end_transaction(&mut self, commit: bool) -> Result<(), DbError> {
        if !std::mem::take(&mut self.in_transaction) {
            return Ok(());
        }
        self.batch(if commit { "COMMIT" } else { "ROLLBACK" })
    }

    /// Whether the server closed the connection (it restarted, say): then it is not reused.
    pub(in crate::store) fn is_closed(&self) -> bool {
        self.call(|session| Ok(session.client.is_closed()))
            .unwrap_or(true)
    }

    pub(super) fn execute(&mut self, sql: &str, args: &[&dyn Param]) -> Result<usize, DbError> {
        let (sql, values) = (sql.to_owned(), super::value::bind(args));
        self.call(move |session| {
            let statement = session.statement(&sql)?;
            let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v as _).collect();
            let changed = session
                .client
                .execute(&statement, &refs)
                .map_err(|e| error(&e))?;
            Ok(usize::try_from(changed).unwrap_or(usize::MAX))
        })
    }

    pub(super) fn query(&mut self, sql: &str, args: &[&dyn Param]) -> Result<Vec<Row>, DbError> {
        let (sql, values) = (sql.to_owned(), super::value::bind(args));
        self.call(move |session| {
            let statement = session.statement(&sql)?;
            let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v as _).collect();
            let rows = session
                .client
                .query(&statement, &refs)
                .map_err(|e| error(&e))?;
            rows.iter().map(read_row).collect()
        })
    }

    /// Statements without parameters, as one simple query (migrations, `BEGIN`, `COMMIT`).
    pub(in crate::store) fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        let sql = sql.to_owned();
        self.call(move |session| session.client.batch_execute(&sql).map_err(|e| error(&e)))
    }
}

impl Session {
    /// The statement prepared for `sql` on this connection, preparing it the first time.
    fn statement(&mut self, sql: &str) -> Result<Statement, DbError> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(&numbered(sql)).map_err(|e| error(&e))?;
        self.statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }
}

/// `?n` → `$n`, outside quoted text; a bare `?` takes the next number.
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut quoted = false;
    let mut next = 0;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
        }
        if c != '?' || quoted {
            out.push(c);
            continue;
        }
        let mut digits = String::new();
        while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
            digits.push(d);
            chars.next();
        }
        if digits.is_empty() {
            next += 1;
            digits = next.to_string();
        }
        out.push('$');
        out.push_str(&digits);
    }
    out
}

/// A row's columns as [`Value`]s, by the column types the store's schema uses.
fn read_row(row: &postgres::Row) -> Result<Row, DbError> {
    let get_error = |e: postgres::Error| DbError::Other(e.to_string());
    let mut columns = Vec::with_capacity(row.len());
    for (index, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, Value::Integer)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, |n| Value::Integer(i64::from(n)))
        } else if *ty == Type::INT2 {
            row.try_get::<_, Option<i16>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, |n| Value::Integer(i64::from(n)))
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, |b| Value::Integer(i64::from(b)))
        } else if *ty == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, Value::Real)
        } else if *ty == Type::FLOAT4 {
            row.try_get::<_, Option<f32>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, |x| Value::Real(f64::from(x)))
        } else if *ty == Type::BYTEA {
            row.try_get::<_, Option<Vec<u8>>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, Value::Blob)
        } else if <String as postgres::types::FromSql>::accepts(ty) {
            row.try_get::<_, Option<String>>(index)
                .map_err(get_error)?
                .map_or(Value::Null, Value::Text)
        } else {
            return Err(DbError::Other(format!(
                "column `{}` has type {ty}, which the store does not read (cast it)",
                column.name()
            )));
        };
        columns.push(value);
    }
    Ok(Row(columns))
}

type BoxError = Box<dyn StdError + Sync + Send>;

/// Binds by the parameter's inferred type, so one value fits several column types.
impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match self {
            Self::Null => Ok(IsNull::Yes),
            Self::Integer(n) => {
                if *ty == Type::INT8 {
                    n.to_sql(ty, out)
                } else if *ty == Type::INT4 {
                    i32::try_from(*n)?.to_sql(ty, out)
                } else if *ty == Type::INT2 {
                    i16::try_from(*n)?.to_sql(ty, out)
                } else if *ty == Type::BOOL {
                    (*n != 0).to_sql(ty, out)
                } else if *ty == Type::FLOAT8 {
                    #[allow(clippy::cast_precision_loss)] // as SQLite does
                    (*n as f64).to_sql(ty, out)
                } else {
                    n.to_string().as_str().to_sql(ty, out)
                }
            }
            Self::Real(x) => {
                if *ty == Type::FLOAT4 {
                    #[allow(clippy::cast_possible_truncation)] // the column's own precision
                    (*x as f32).to_sql(ty, out)
                } else {
                    x.to_sql(ty, out)
                }
            }
            Self::Text(text) => {
                if *ty == Type::JSONB {
                    // JSONB's binary form: a version byte, then the text.
                    out.put_u8(1);
                    out.put_slice(text.as_bytes());
                    Ok(IsNull::No)
                } else if *ty == Type::JSON {
                    out.put_slice(text.as_bytes());
                    Ok(IsNull::No)
                } else {
                    text.as_str().to_sql(ty, out)
                }
            }
            Self::Blob(bytes) => bytes.as_slice().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

#[cfg(test)]
mod tests {
    use super::numbered;

    #[test]
    fn parameters_are_numbered_outside_quotes() {
        assert_eq!(
            numbered("SELECT ?1, '?2', ?12 WHERE a = ?"),
            "SELECT $1, '?2', $12 WHERE a = $1"
        );
    }
}

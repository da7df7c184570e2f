//! [`super::Db`] on PostgreSQL: `tokio-postgres` connections pooled by `deadpool-postgres`,
//! driven by a small runtime the store owns.
//!
//! The store's API is synchronous and is called from the command line's async code as well
//! as from blocking threads, so a call cannot block on a runtime of its own there (tokio
//! refuses to nest runtimes). Each call is a task on the store's runtime instead, and the
//! calling thread only waits on a channel for its answer.
//!
//! Statements are prepared once per connection (deadpool's statement cache); their `?n`
//! parameters become `$n` first. Values are bound by the type PostgreSQL inferred for each
//! parameter, so the store's SQLite-shaped values (an integer for a boolean, text for JSON)
//! fit the columns.

use std::error::Error as StdError;
use std::sync::mpsc;

use bytes::{BufMut, BytesMut};
use deadpool_postgres::{
    ClientWrapper, Manager, ManagerConfig, Object, PoolError, RecyclingMethod,
};
use futures_util::future::BoxFuture;
use tokio::runtime::{Handle, Runtime};
use tokio_postgres::NoTls;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use super::{DbError, Param, Row, Value};

/// Connections one PostgreSQL store opens at most; more callers wait for one.
const MAX_CONNECTIONS: usize = 16;

/// Threads of the store's runtime: they only move bytes between the callers and the
/// server (rows are read on the caller's thread), so two are plenty.
const WORKERS: usize = 2;

/// The connections of one PostgreSQL store, and the runtime that drives them.
pub(crate) struct PgPool {
    pool: deadpool_postgres::Pool,
    runtime: Driver,
}

/// The store's runtime. Stopped without waiting for its tasks, since a store may be dropped
/// from async code, where waiting for a runtime to stop panics.
struct Driver(Option<Runtime>);

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

impl std::fmt::Debug for PgPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPool").finish_non_exhaustive()
    }
}

impl PgPool {
    /// A pool of connections to `url` (`postgres://user@host:port/db` or key=value pairs);
    /// none is opened yet.
    pub(in crate::store) fn new(url: &str) -> Result<Self, DbError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| error(&e))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(WORKERS)
            .thread_name("arbiter-postgres")
            .enable_all()
            .build()
            .map_err(|e| DbError::Other(format!("starting the PostgreSQL runtime: {e}")))?;
        // `Fast`: a connection the server closed (it restarted, say) is not handed out again;
        // the runtime polls every connection, so it sees the close as it happens.
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = deadpool_postgres::Pool::builder(manager)
            .max_size(MAX_CONNECTIONS)
            .build()
            .map_err(|e| DbError::Other(e.to_string()))?;
        Ok(Self {
            pool,
            runtime: Driver(Some(runtime)),
        })
    }

    fn handle(&self) -> &Handle {
        self.runtime
            .0
            .as_ref()
            .expect("running until dropped")
            .handle()
    }

    /// A connection, opened if none is idle; waits while all are lent.
    pub(in crate::store) fn get(&self) -> Result<PgConn, DbError> {
        let pool = self.pool.clone();
        let client = run(self.handle(), async move { pool.get().await })?.map_err(|e| match e {
            PoolError::Backend(e) => error(&e),
            e => DbError::Unavailable(e.to_string()),
        })?;
        Ok(PgConn {
            handle: self.handle().clone(),
            client: Some(client),
            in_transaction: false,
        })
    }
}

/// Runs `work` on the store's runtime and waits for its answer on this thread, which may
/// be any thread, async or not.
fn run<R: Send + 'static>(
    handle: &Handle,
    work: impl Future<Output = R> + Send + 'static,
) -> Result<R, DbError> {
    let (answer, answered) = mpsc::sync_channel(1);
    handle.spawn(async move {
        let _ = answer.send(work.await);
    });
    answered
        .recv()
        .map_err(|_| DbError::Unavailable("the store's PostgreSQL runtime stopped".into()))
}

/// One connection, lent by the pool; it goes back when dropped.
pub(crate) struct PgConn {
    handle: Handle,
    /// `None` only while a call has it, or after a call that never finished.
    client: Option<Object>,
    /// Between `begin` and `end_transaction`: what must be rolled back before it goes back.
    in_transaction: bool,
}

/// The client while a call's task has it. A task that never finishes (it panicked, or the
/// runtime stopped) may leave a transaction open, so its client is closed, not pooled.
struct Lent(Option<Object>);

impl Drop for Lent {
    fn drop(&mut self) {
        if let Some(client) = self.0.take() {
            drop(Object::take(client));
        }
    }
}

impl std::fmt::Debug for PgConn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgConn").finish_non_exhaustive()
    }
}

impl Drop for PgConn {
    fn drop(&mut self) {
        // Given back mid-transaction (a panic in the store's code), it would hold its locks:
        // roll back, or close it when that fails.
        if self.in_transaction
            && self.end_transaction(false).is_err()
            && let Some(client) = self.client.take()
        {
            drop(Object::take(client));
        }
    }
}

/// How PostgreSQL's failures read: its own message, with the detail when it gives one.
pub(super) fn error(e: &tokio_postgres::Error) -> DbError {
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
    /// Runs `work` with the client on the store's runtime and waits for its answer.
    fn call<R: Send + 'static>(
        &mut self,
        work: impl for<'c> FnOnce(&'c ClientWrapper) -> BoxFuture<'c, Result<R, DbError>>
        + Send
        + 'static,
    ) -> Result<R, DbError> {
        let lent = Lent(self.client.take());
        let (mut lent, out) = run(&self.handle, async move {
            let out = match lent.0.as_deref() {
                Some(client) => work(client).await,
                None => Err(DbError::Unavailable("the connection was lost".into())),
            };
            (lent, out)
        })?;
        self.client = lent.0.take();
        out
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

    pub(super) fn execute(&mut self, sql: &str, args: &[&dyn Param]) -> Result<usize, DbError> {
        let (sql, values) = (numbered(sql), super::value::bind(args));
        let changed = self.call(move |client| {
            Box::pin(async move {
                let statement = client.prepare_cached(&sql).await.map_err(|e| error(&e))?;
                client
                    .execute(&statement, &refs(&values))
                    .await
                    .map_err(|e| error(&e))
            })
        })?;
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    pub(super) fn query(&mut self, sql: &str, args: &[&dyn Param]) -> Result<Vec<Row>, DbError> {
        let (sql, values) = (numbered(sql), super::value::bind(args));
        let rows = self.call(move |client| {
            Box::pin(async move {
                let statement = client.prepare_cached(&sql).await.map_err(|e| error(&e))?;
                client
                    .query(&statement, &refs(&values))
                    .await
                    .map_err(|e| error(&e))
            })
        })?;
        // Read here, on the caller's thread, so the runtime's threads only move bytes.
        rows.iter().map(read_row).collect()
    }

    /// Statements without parameters, as one simple query (migrations, `BEGIN`, `COMMIT`).
    pub(in crate::store) fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        let sql = sql.to_owned();
        self.call(move |client| {
            Box::pin(async move { client.batch_execute(&sql).await.map_err(|e| error(&e)) })
        })
    }
}

fn refs(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| v as _).collect()
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
fn read_row(row: &tokio_postgres::Row) -> Result<Row, DbError> {
    let get_error = |e: tokio_postgres::Error| DbError::Other(e.to_string());
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
        } else if <String as tokio_postgres::types::FromSql>::accepts(ty) {
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

//! Connections of one store, kept for reuse: r2d2 for SQLite, deadpool for PostgreSQL
//! ([`super::sql::PgPool`]). Both cap how many are open at once, so a burst of blocking
//! tasks queues instead of opening hundreds.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use r2d2::PooledConnection;
use rusqlite::Connection;
use scheduled_thread_pool::ScheduledThreadPool;

use super::error::StoreError;
use super::sql::{Db, DbError, Dialect, PgConn, PgPool, SqlContext};

/// How long a SQLite connection waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// SQLite connections one store opens at most, all kept once open (today's idle cap).
const MAX_SQLITE: u32 = 8;

/// Where SQLite connections come from.
#[derive(Debug, Clone)]
pub(super) enum Location {
    File(PathBuf),
    /// One private in-memory database; it lives as long as its only connection.
    Memory,
}

impl Location {
    /// A new connection, configured.
    pub(super) fn open(&self) -> Result<Connection, StoreError> {
        let conn = match self {
            Self::File(path) => {
                writable(path)?;
                Connection::open(path).map_err(|e| StoreError::Database {
                    context: format!("open database {}", path.display()),
                    message: e.to_string(),
                })?
            }
            Self::Memory => Connection::open_in_memory().map_err(|e| StoreError::Database {
                context: "open in-memory database".into(),
                message: e.to_string(),
            })?,
        };
        configure(&conn)?;
        Ok(conn)
    }
}

/// The database at `path`, if each of its files can be written ([`super::writable`]).
fn writable(path: &std::path::Path) -> Result<(), StoreError> {
    match super::writable::unwritable(path) {
        None => Ok(()),
        Some(reason) => Err(StoreError::Unwritable {
            context: "use the database".into(),
            reason,
        }),
    }
}

/// Puts the file in WAL mode. The mode is persistent in the file, so this only changes
/// something the first time. Switching needs the file to itself, and SQLite answers
/// `SQLITE_BUSY` at once (without its busy handler) while another process opens the same
/// new file, so a busy answer is retried for as long as any other lock is waited for.
pub(super) fn enable_wal(conn: &Connection) -> Result<(), StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Database {
        context: "enable WAL journal".into(),
        message: e.to_string(),
    };
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        let mode = conn
            .pragma_query_value(None, "journal_mode", |r| r.get::<_, String>(0))
            .and_then(|mode| {
                if mode.eq_ignore_ascii_case("wal") {
                    Ok(mode)
                } else {
                    conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
                }
            });
        match mode {
            Ok(_) => return Ok(()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(failed(e)),
        }
    }
}

/// Per-connection settings (these are not persisted in the file).
fn configure(conn: &Connection) -> Result<(), StoreError> {
    let setting = |e: rusqlite::Error| StoreError::Database {
        context: "configure the connection".into(),
        message: e.to_string(),
    };
    conn.busy_timeout(BUSY_TIMEOUT).map_err(setting)?;
    // WAL + NORMAL: commits survive a process crash; only an OS crash can lose
    // the last transactions. `record_decision` raises this to FULL for itself.
    conn.pragma_update(None, "synchronous", "NORMAL")
        .map_err(setting)?;
    conn.pragma_update(None, "foreign_keys", true)
        .map_err(setting)?;
    // What is deleted is overwritten with zeros, not left in free pages: a deleted
    // example's text must not be readable in the file (`deletion`).
    conn.pragma_update(None, "secure_delete", true)
        .map_err(setting)?;
    // Listing builds a few SQL variants per filter; keep them all cached.
    conn.set_prepared_statement_cache_capacity(32);
    Ok(())
}

/// Opens SQLite connections for r2d2.
#[derive(Debug)]
pub(super) struct SqliteManager {
    location: Location,
    /// The connection the store opened (and migrated) itself, handed out first: the
    /// in-memory database is that one connection.
    first: Mutex<Option<Connection>>,
}

impl r2d2::ManageConnection for SqliteManager {
    type Connection = Connection;
    type Error = StoreError;

    fn connect(&self) -> Result<Connection, StoreError> {
        let first = self
            .first
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        first.map_or_else(|| self.location.open(), Ok)
    }

    fn is_valid(&self, _: &mut Connection) -> Result<(), StoreError> {
        Ok(())
    }

    /// Called as a connection goes back. One left in a transaction would hold its locks
    /// forever: it is rolled back, or closed if that fails. The in-memory database is its
    /// one connection, so it is always kept.
    fn has_broken(&self, conn: &mut Connection) -> bool {
        let clean = conn.is_autocommit() || conn.execute_batch("ROLLBACK").is_ok();
        !clean && matches!(self.location, Location::File(_))
    }
}

/// The last failure to open a connection, which r2d2 would otherwise only log: a caller
/// that timed out waiting for one is told why.
#[derive(Debug, Clone, Default)]
pub(super) struct LastFailure(Arc<Mutex<Option<StoreError>>>);

impl LastFailure {
    fn take(&self) -> Option<StoreError> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

impl r2d2::HandleError<StoreError> for LastFailure {
    fn handle_error(&self, error: StoreError) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
    }
}

/// The pool of either backend.
pub(super) enum Pool {
    Sqlite {
        location: Location,
        pool: r2d2::Pool<SqliteManager>,
        failure: LastFailure,
    },
    Postgres(PgPool),
}

impl Pool {
    /// SQLite at `location`, whose first connection is `first` (configured and migrated).
    pub(super) fn sqlite(location: Location, first: Connection) -> Self {
        let failure = LastFailure::default();
        let manager = SqliteManager {
            location: location.clone(),
            first: Mutex::new(Some(first)),
        };
        // None opened ahead (a command opens only what it uses), and none closed for being
        // idle or old: the in-memory database must never be, and 8 idle files are cheap.
        // Its one thread opens connections for the callers that wait for them.
        let pool = r2d2::Pool::builder()
            .max_size(match location {
                Location::File(_) => MAX_SQLITE,
                Location::Memory => 1,
            })
            .min_idle(Some(0))
            .idle_timeout(None)
            .max_lifetime(None)
            .test_on_check_out(false)
            .error_handler(Box::new(failure.clone()))
            .thread_pool(Arc::new(
                ScheduledThreadPool::builder()
                    .num_threads(1)
                    .thread_name_pattern("arbiter-sqlite-{}")
                    .build(),
            ))
            .build_unchecked(manager);
        Self::Sqlite {
            location,
            pool,
            failure,
        }
    }

    pub(super) fn dialect(&self) -> Dialect {
        match self {
            Self::Sqlite { .. } => Dialect::Sqlite,
            Self::Postgres(_) => Dialect::Postgres,
        }
    }

    /// What to call the database in messages (never the URL: it may carry a password).
    pub(super) fn describe(&self) -> String {
        match self {
            Self::Sqlite {
                location: Location::File(path),
                ..
            } => path.display().to_string(),
            Self::Sqlite {
                location: Location::Memory,
                ..
            } => "in-memory".into(),
            Self::Postgres(_) => "PostgreSQL".into(),
        }
    }

    /// A connection; waits while all are lent. The in-memory store has exactly one. A
    /// connection not had is counted in the metrics.
    pub(super) fn get(&self) -> Result<Conn, StoreError> {
        self.dialect().count_failure(self.connect())
    }

    fn connect(&self) -> Result<Conn, StoreError> {
        match self {
            Self::Sqlite {
                location,
                pool,
                failure,
            } => {
                // A file SQLite cannot write is named before any connection touches it (one
                // that maps an unwritable `-shm` can die by SIGBUS).
                if let Location::File(path) = location {
                    writable(path)?;
                }
                let conn = pool.get().map_err(|e| {
                    failure.take().unwrap_or_else(|| StoreError::Database {
                        context: "take a database connection".into(),
                        message: e.to_string(),
                    })
                })?;
                Ok(Conn::Sqlite(conn))
            }
            Self::Postgres(pool) => pool
                .get()
                .map(|conn| Conn::Postgres(Box::new(conn)))
                .ctx("connect to PostgreSQL"),
        }
    }
}

/// A connection of either backend, lent by the pool; it goes back when dropped.
pub(super) enum Conn {
    Sqlite(PooledConnection<SqliteManager>),
    Postgres(Box<PgConn>),
}

impl Conn {
    pub(super) fn db(&mut self) -> Db<'_> {
        match self {
            Self::Sqlite(conn) => Db::Sqlite(conn),
            Self::Postgres(conn) => Db::Postgres(conn),
        }
    }

    /// Whether a commit waits for the disk (SQLite's `synchronous=FULL`), for writes that
    /// must survive a power loss. PostgreSQL's commits always do (`synchronous_commit`).
    pub(super) fn fsync_commits(&mut self, on: bool) -> Result<(), DbError> {
        match self {
            Self::Sqlite(conn) => conn
                .pragma_update(None, "synchronous", if on { "FULL" } else { "NORMAL" })
                .map_err(|e| DbError::Other(e.to_string())),
            Self::Postgres(_) => Ok(()),
        }
    }

    /// SQLite: copy the write-ahead log into the database and truncate it to nothing
    /// (after a deletion, so no page of what was deleted is left in the log).
    pub(super) fn fold_wal(&mut self) -> Result<(), DbError> {
        match self {
            Self::Sqlite(conn) => conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
                .map_err(|e| DbError::Other(e.to_string())),
            Self::Postgres(_) => Ok(()),
        }
    }
}

//! Connections of one store, kept for reuse: a `Mutex<Vec<Conn>>` with a cap on how many
//! are open at once (PostgreSQL's connections are a shared, limited resource; a burst of
//! blocking tasks must queue, not open hundreds).

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::Connection;

use super::error::StoreError;
use super::sql::{Db, DbError, PgConn, SqlContext};

/// How long a SQLite connection waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Idle connections kept around; extra ones (opened under a burst) are closed.
const MAX_IDLE: usize = 8;

/// Connections one PostgreSQL store opens at most; more callers wait for one.
const MAX_POSTGRES: usize = 16;

/// Where connections come from.
#[derive(Debug)]
pub(super) enum Source {
    File(PathBuf),
    /// One private in-memory database; it lives as long as its only connection.
    Memory,
    /// A PostgreSQL server (the URL, which may hold a password: never shown).
    Postgres(String),
}

impl Source {
    pub(super) fn connect(&self) -> Result<Conn, StoreError> {
        match self {
            Self::File(path) => {
                writable(path)?;
                let conn = Connection::open(path).map_err(|e| StoreError::Sqlite {
                    context: format!("open database {}", path.display()),
                    message: e.to_string(),
                })?;
                configure(&conn)?;
                Ok(Conn::Sqlite(conn))
            }
            Self::Memory => {
                let conn = Connection::open_in_memory().map_err(|e| StoreError::Sqlite {
                    context: "open in-memory database".into(),
                    message: e.to_string(),
                })?;
                configure(&conn)?;
                Ok(Conn::Sqlite(conn))
            }
            Self::Postgres(url) => PgConn::connect(url)
                .map(|conn| Conn::Postgres(Box::new(conn)))
                .ctx("connect to PostgreSQL"),
        }
    }

    /// What to call the database in messages (never the URL: it may carry a password).
    pub(super) fn describe(&self) -> String {
        match self {
            Self::File(path) => path.display().to_string(),
            Self::Memory => "in-memory".into(),
            Self::Postgres(_) => "PostgreSQL".into(),
        }
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
    let failed = |e: rusqlite::Error| StoreError::Sqlite {
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
    let setting = |e: rusqlite::Error| StoreError::Sqlite {
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
    // Listing builds a few SQL variants per filter; keep them all cached.
    conn.set_prepared_statement_cache_capacity(32);
    Ok(())
}

/// A connection of either backend.
pub(super) enum Conn {
    Sqlite(Connection),
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

    /// Whether the connection is fit to go back to the pool: out of any transaction, and
    /// still connected.
    fn reusable(&mut self) -> bool {
        match self {
            Self::Sqlite(conn) => conn.is_autocommit() || conn.execute_batch("ROLLBACK").is_ok(),
            Self::Postgres(conn) => !conn.is_closed() && conn.end_transaction(false).is_ok(),
        }
    }
}

/// The pool. File and PostgreSQL stores open a new connection when none is idle (up to
/// their cap); the in-memory store has exactly one and callers wait for it.
pub(super) struct Pool {
    pub(super) source: Source,
    state: Mutex<State>,
    returned: Condvar,
}

struct State {
    idle: Vec<Conn>,
    /// Connections open, idle or lent.
    open: usize,
}

impl Pool {
    pub(super) fn new(source: Source, first: Conn) -> Self {
        Self {
            source,
            state: Mutex::new(State {
                idle: vec![first],
                open: 1,
            }),
            returned: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The lock only guards push/pop and a count, so a poisoned pool is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn cap(&self) -> usize {
        match self.source {
            Source::File(_) => usize::MAX,
            Source::Memory => 1,
            Source::Postgres(_) => MAX_POSTGRES,
        }
    }

    pub(super) fn get(&self) -> Result<PooledConn<'_>, StoreError> {
        // A file SQLite cannot write is named before any connection touches it (one that
        // maps an unwritable `-shm` can die by SIGBUS).
        if let Source::File(path) = &self.source {
            writable(path)?;
        }
        let mut state = self.lock();
        loop {
            if let Some(conn) = state.idle.pop() {
                return Ok(PooledConn {
                    pool: self,
                    conn: Some(conn),
                });
            }
            if state.open < self.cap() {
                state.open += 1;
                drop(state); // don't block others while connecting
                return match self.source.connect() {
                    Ok(conn) => Ok(PooledConn {
                        pool: self,
                        conn: Some(conn),
                    }),
                    Err(e) => {
                        self.forget();
                        Err(e)
                    }
                };
            }
            state = self
                .returned
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// One connection fewer is open (it failed, or was closed).
    fn forget(&self) {
        let mut state = self.lock();
        state.open = state.open.saturating_sub(1);
        drop(state);
        self.returned.notify_one();
    }

    fn put(&self, mut conn: Conn) {
        // A connection stuck in a transaction would hold locks forever; a broken one is
        // closed. The in-memory database is its one connection, so it is always kept.
        let keep = conn.reusable() || matches!(self.source, Source::Memory);
        let mut state = self.lock();
        if keep && state.idle.len() < MAX_IDLE {
            state.idle.push(conn);
        } else {
            state.open = state.open.saturating_sub(1);
        }
        drop(state);
        self.returned.notify_one();
    }
}

/// A connection borrowed from the pool; goes back on drop.
pub(super) struct PooledConn<'a> {
    pool: &'a Pool,
    conn: Option<Conn>,
}

impl Deref for PooledConn<'_> {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn.as_ref().expect("connection present until drop")
    }
}

impl DerefMut for PooledConn<'_> {
    fn deref_mut(&mut self) -> &mut Conn {
        self.conn.as_mut().expect("connection present until drop")
    }
}

impl Drop for PooledConn<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            self.pool.put(conn);
        }
    }
}

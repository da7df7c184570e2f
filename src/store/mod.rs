//! SQLite persistence for Arbiter: examples, their ground-truth annotations, captured
//! decisions, jobs, tokens and idempotency records.
//!
//! [`Store`] is `Send + Sync` and meant to be shared through an `Arc`. It keeps a
//! small pool of connections so that concurrent callers (e.g. a tokio blocking
//! pool) do not serialise on one connection; readers run in parallel thanks to
//! WAL, and writers queue on SQLite's busy timeout. Every write transaction is
//! `BEGIN IMMEDIATE`: a deferred transaction that later tries to write can fail
//! with `SQLITE_BUSY` *without* waiting, which is exactly the failure we avoid.
//!
//! Several processes may open the same file; migrations run under
//! `BEGIN IMMEDIATE` and are keyed by `PRAGMA user_version`, so racing openers
//! migrate exactly once.

// "SQLite" is a product name in prose, not an identifier to backtick.

mod annotations;
mod caches;
mod claims;
mod decisions;
mod deletion;
mod error;
mod example_rows;
mod examples;
mod fitted;
mod idempotency;
mod job_lines;
mod job_shards;
mod job_state;
mod jobs;
mod labels;
mod leases;
mod majority;
mod migrate;
mod pool;
mod registry;
mod sql;
mod tokens;
mod types;
mod ui_sessions;
mod unannotated;
mod writable;

use rusqlite::TransactionBehavior;
use std::fmt;
use std::path::Path;

pub use annotations::UNKNOWN_ANNOTATOR;
pub use caches::CachedAnswers;
pub use deletion::is_deleted_item;
pub use error::StoreError;
pub use idempotency::{Claim, Key as IdempotencyKey, StoredResponse};
pub use job_lines::{Fence, JobPart};
pub use job_shards::{NewShard, OpenJob, Shard, ShardEnd, ShardStats, ShardStatus, TakenShard};
pub use job_state::{JobState, Outcome};
pub use jobs::{JobFilter, JobRecord, NewJob};
use pool::{Conn, Location, Pool};
pub use registry::NewRegistryEvent;
pub use sql::Dialect;
use sql::{Db, SqlContext};
pub use tokens::TokenRecord;
pub use types::{
    Annotation, Decision, Example, ExampleDetail, ExampleFilter, IngestCounts, IngestItem,
    NewAnnotation, NewDecision, RecordedDecision, Vote,
};
pub use ui_sessions::UiSession;
pub use unannotated::{Candidate, Chosen};

/// One schema migration, written in SQLite's DDL; PostgreSQL runs it translated
/// (`migrate::for_postgres`) and then `postgres_after`.
struct Migration {
    sqlite: &'static str,
    postgres_after: &'static str,
}

impl Migration {
    const fn both(sqlite: &'static str) -> Self {
        Self {
            sqlite,
            postgres_after: "",
        }
    }

    const fn postgres_after(self, sql: &'static str) -> Self {
        Self {
            postgres_after: sql,
            ..self
        }
    }
}

/// Schema migrations; entry `i` upgrades the database to `user_version = i + 1`.
/// Append only: never edit a migration that has shipped.
const MIGRATIONS: &[Migration] = &[
    // 1: initial schema.
    Migration::both(
        "
    CREATE TABLE examples (
        model_id    TEXT NOT NULL,
        example_id  TEXT NOT NULL,
        state       TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        PRIMARY KEY (model_id, example_id)
    );
    CREATE TABLE annotations (
        model_id     TEXT NOT NULL,
        example_id   TEXT NOT NULL,
        question_id  TEXT NOT NULL,
        answer       TEXT NOT NULL,
        reasoning    TEXT,
        annotated_at TEXT NOT NULL,
        PRIMARY KEY (model_id, example_id, question_id),
        FOREIGN KEY (model_id, example_id) REFERENCES examples ON DELETE CASCADE
    );
    -- Filtering/counting examples annotated for one question.
    CREATE INDEX annotations_by_question ON annotations (model_id, question_id, example_id);
    CREATE TABLE decisions (
        decision_id   TEXT NOT NULL PRIMARY KEY,
        model_id      TEXT NOT NULL,
        example_id    TEXT NOT NULL,
        checkpoint    TEXT NOT NULL,
        revision_name TEXT NOT NULL,
        revision_kind TEXT NOT NULL,
        questions     TEXT NOT NULL,
        answers       TEXT NOT NULL,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        request_id    TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        FOREIGN KEY (model_id, example_id) REFERENCES examples
    );
    CREATE INDEX decisions_by_example ON decisions (model_id, example_id);
    ",
    )
    .postgres_after(
        // PostgreSQL has no rowid: decisions are ordered by one of that name.
        "ALTER TABLE decisions ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;",
    ),
    // 2: API tokens and idempotency records of the server.
    Migration::both(
        "
    CREATE TABLE tokens (
        token_id    TEXT NOT NULL PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        secret_hash TEXT NOT NULL,
        scopes      TEXT NOT NULL,
        roles       TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        revoked_at  TEXT
    );
    CREATE TABLE idempotency (
        token_id     TEXT NOT NULL,
        method       TEXT NOT NULL,
        route        TEXT NOT NULL,
        key          TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status       INTEGER,
        headers      TEXT,
        body         BLOB,
        created_at   TEXT NOT NULL,
        PRIMARY KEY (token_id, method, route, key)
    );
    CREATE INDEX idempotency_by_age ON idempotency (created_at);
    ",
    ),
    // 3: jobs (batch decisions, alignments). Results live in files beside the database;
    // these rows hold the status, the progress and the request to resume from.
    Migration::both(
        "
    CREATE TABLE jobs (
        job_id           TEXT NOT NULL PRIMARY KEY,
        model_id         TEXT NOT NULL,
        kind             TEXT NOT NULL,
        status           TEXT NOT NULL,
        request          TEXT NOT NULL,
        created_at       TEXT NOT NULL,
        started_at       TEXT,
        finished_at      TEXT,
        total            INTEGER NOT NULL DEFAULT 0,
        done             INTEGER NOT NULL DEFAULT 0,
        failed           INTEGER NOT NULL DEFAULT 0,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        error            TEXT,
        result           TEXT
    );
    CREATE INDEX jobs_by_model ON jobs (model_id, created_at);
    CREATE INDEX jobs_by_status ON jobs (status);
    ",
    ),
    // 4: caches that only save time: an evaluation's engine answers, keyed by what they
    // depend on, and the built-in engine's embeddings of exemplars and outcome texts.
    Migration::both(
        "
    CREATE TABLE answer_cache (
        key           TEXT NOT NULL PRIMARY KEY,
        answers       TEXT NOT NULL,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        created_at    TEXT NOT NULL
    );
    CREATE TABLE embeddings (
        key    BLOB NOT NULL PRIMARY KEY,
        tokens INTEGER NOT NULL,
        vector BLOB NOT NULL
    );
    ",
    ),
    // 5: who holds an idempotency key in progress (a process lease, `core::lease`), so a
    // key left by a process that died is taken over by the retry, not refused for 24 hours.
    Migration::both(
        "
    ALTER TABLE idempotency ADD COLUMN owner TEXT;
    ",
    ),
    // 6: the examples each alignment fitted a question on (by the learned file's fit ID),
    // so an evaluation can leave them out.
    Migration::both(
        "
    CREATE TABLE fitted_examples (
        fit_id     TEXT NOT NULL,
        example_id TEXT NOT NULL,
        PRIMARY KEY (fit_id, example_id)
    ) WITHOUT ROWID;
    ",
    ),
    // 7: examples newest first per model, so `examples next` walks the most recently
    // captured ones and stops at its pool instead of sorting every example.
    Migration::both(
        "
    CREATE INDEX examples_by_age ON examples (model_id, created_at, example_id);
    ",
    ),
    // 8: annotations per annotator: each keeps their own answer to a question, and the
    // ground truth is their majority (`majority`). Rows written before were not attributed:
    // they become the answers of the annotator `unknown` (`annotations::UNKNOWN_ANNOTATOR`),
    // written in their time order so that the rowid follows it.
    Migration::both(
        "
    CREATE TABLE annotations_by_annotator (
        model_id     TEXT NOT NULL,
        example_id   TEXT NOT NULL,
        question_id  TEXT NOT NULL,
        annotator    TEXT NOT NULL,
        answer       TEXT NOT NULL,
        reasoning    TEXT,
        annotated_at TEXT NOT NULL,
        PRIMARY KEY (model_id, example_id, question_id, annotator),
        FOREIGN KEY (model_id, example_id) REFERENCES examples ON DELETE CASCADE
    );
    INSERT INTO annotations_by_annotator
        (model_id, example_id, question_id, annotator, answer, reasoning, annotated_at)
        SELECT model_id, example_id, question_id, 'unknown', answer, reasoning, annotated_at
        FROM annotations ORDER BY annotated_at;
    DROP TABLE annotations;
    ALTER TABLE annotations_by_annotator RENAME TO annotations;
    CREATE INDEX annotations_by_question ON annotations (model_id, question_id, example_id);
    ",
    )
    .postgres_after(
        "ALTER TABLE annotations ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;",
    ),
    // 9: the registry's record: promotions and tag moves made through arbiter, with who,
    // when, and the evaluation relied on (a JSON summary), read newest first per model.
    Migration::both(
        "
    CREATE TABLE registry_events (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        model_id    TEXT NOT NULL,
        action      TEXT NOT NULL,
        ref_name    TEXT NOT NULL,
        from_commit TEXT,
        to_commit   TEXT NOT NULL,
        actor       TEXT NOT NULL,
        at          TEXT NOT NULL,
        evaluation  TEXT
    );
    CREATE INDEX registry_events_by_model ON registry_events (model_id, id);
    ",
    ),
    // 10: process leases renewed in the store (`leases`), so replicas that share a
    // database tell a claim still worked on from one left by a replica that died.
    Migration::both(
        "
    CREATE TABLE leases (
        lease_id   TEXT NOT NULL PRIMARY KEY,
        expires_at TEXT NOT NULL
    );
    ",
    ),
    // 11: jobs any replica can run. A job's owner is the lease of the process running it
    // (a live lease keeps it; a dead one lets another claim it), and its input and result
    // lines live in the store (`job_lines`), one row per line, instead of files in a home.
    Migration::both(
        "
    ALTER TABLE jobs ADD COLUMN owner TEXT;
    CREATE TABLE job_lines (
        job_id TEXT NOT NULL,
        part   TEXT NOT NULL,
        idx    INTEGER NOT NULL,
        body   BLOB NOT NULL,
        PRIMARY KEY (job_id, part, idx)
    ) WITHOUT ROWID;
    ",
    ),
    // 12: claims on examples being annotated (`claims`): while one annotator has an example
    // on screen (`arbiter annotate`), the others' flows pass it by, until it is answered,
    // skipped or left, or the claim expires.
    Migration::both(
        "
    CREATE TABLE annotation_claims (
        model_id   TEXT NOT NULL,
        example_id TEXT NOT NULL,
        annotator  TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (model_id, example_id)
    );
    ",
    ),
    // 13: shards of a batch or an evaluation (`job_shards`): runs of its lines that any
    // process's workers claim, each owned by the lease of the process running it, with what
    // it has done so far and who ran it (`worker`, for people). A job without shards (an
    // alignment, a job of an older arbiter) runs whole.
    Migration::both(
        "
    CREATE TABLE job_shards (
        job_id        TEXT NOT NULL,
        shard         INTEGER NOT NULL,
        part          TEXT NOT NULL,
        first_line    INTEGER NOT NULL,
        lines         INTEGER NOT NULL,
        status        TEXT NOT NULL,
        owner         TEXT,
        worker        TEXT,
        attempts      INTEGER NOT NULL DEFAULT 0,
        done          INTEGER NOT NULL DEFAULT 0,
        failed        INTEGER NOT NULL DEFAULT 0,
        input_tokens  INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        timed         INTEGER NOT NULL DEFAULT 0,
        latency_us    INTEGER NOT NULL DEFAULT 0,
        started_at    TEXT,
        finished_at   TEXT,
        PRIMARY KEY (job_id, shard)
    );
    CREATE INDEX job_shards_open ON job_shards (status, job_id, shard);
    ",
    ),
    // 14: sessions of the web app (`ui_sessions`), kept here so that replicas sharing a
    // database share them and a revoked token ends its sessions: the SHA-256 of the cookie's
    // secret, never the secret; the token it was opened with (none: the local home's owner,
    // `arbiter ui`); the form token its writes must carry; its absolute expiry.
    Migration::both(
        "
    CREATE TABLE ui_sessions (
        session_hash TEXT PRIMARY KEY,
        token_id     TEXT,
        csrf         TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        expires_at   TEXT NOT NULL
    );
    CREATE INDEX ui_sessions_expiry ON ui_sessions (expires_at);
    ",
    ),
];

/// Schema version this code writes and understands.
#[allow(clippy::cast_possible_wrap)] // a handful of migrations
const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The advisory lock every PostgreSQL write transaction takes first, so that writes run one
/// at a time across replicas as they do on SQLite (`BEGIN IMMEDIATE`): the store's
/// read-then-write operations stay correct without retrying serialization failures.
const WRITE_LOCK: i64 = 0x4172_6269_7465_7202;

/// Handle to an Arbiter database. Cheap to share via `Arc`.
pub struct Store {
    pool: Pool,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("source", &self.pool.describe())
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Opens (creating if needed) the database file and migrates it.
    ///
    /// # Errors
    /// [`StoreError::TooNew`] if the file was written by a newer schema;
    /// [`StoreError::Database`] if it cannot be opened or migrated.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let location = Location::File(path.to_owned());
        let mut first = location.open()?;
        pool::enable_wal(&first)?;
        migrate::sqlite(&mut first)?;
        Ok(Self {
            pool: Pool::sqlite(location, first),
        })
    }

    /// Connects to the PostgreSQL database at `url` and migrates it: the store several
    /// replicas share.
    ///
    /// # Errors
    /// [`StoreError::TooNew`] if a newer arbiter migrated it; [`StoreError::Database`] if it
    /// cannot be reached or migrated.
    pub fn connect(url: &str) -> Result<Self, StoreError> {
        let pool = sql::PgPool::new(url).ctx("connect to PostgreSQL")?;
        migrate::postgres(&mut pool.get().ctx("connect to PostgreSQL")?)?;
        Ok(Self {
            pool: Pool::Postgres(pool),
        })
    }

    /// Opens a private in-memory database (for tests). All callers share one
    /// connection, so concurrent calls simply take turns.
    ///
    /// # Errors
    /// [`StoreError::Database`] if SQLite cannot create the database.
    pub fn open_in_memory() -> Result<Self, StoreError> {
        let mut first = Location::Memory.open()?;
        migrate::sqlite(&mut first)?;
        Ok(Self {
            pool: Pool::sqlite(Location::Memory, first),
        })
    }

    /// Which backend this store runs on.
    pub fn dialect(&self) -> sql::Dialect {
        self.pool.dialect()
    }

    /// Whether the database answers (for `/healthz`).
    ///
    /// # Errors
    /// What stopped a trivial query.
    pub fn check(&self) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        conn.db()
            .query_value::<i64>("SELECT 1", &[])
            .ctx("check the database")
            .map(drop)
    }

    /// Takes a pooled connection. Never hold one while calling back into user
    /// code that may use the store: in-memory stores have a single connection.
    fn conn(&self) -> Result<Conn, StoreError> {
        self.pool.get()
    }

    /// Runs `f` in a write transaction and commits; an error (or panic) in `f` rolls back.
    fn write<T>(
        &self,
        what: &str,
        f: impl FnOnce(&mut Db<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn()?;
        write_tx(&mut conn, what, f)
    }

    /// Runs `f` in a read transaction so that several queries see one snapshot.
    fn read<T>(
        &self,
        what: &str,
        f: impl FnOnce(&mut Db<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn()?;
        match &mut conn {
            Conn::Sqlite(conn) => sqlite_tx(conn, TransactionBehavior::Deferred, what, f),
            Conn::Postgres(conn) => in_transaction(
                conn,
                "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
                what,
                f,
            ),
        }
    }
}

/// A write transaction (`BEGIN IMMEDIATE` on SQLite, the write lock on PostgreSQL) + `f` +
/// `COMMIT` on an already-acquired connection.
fn write_tx<T>(
    conn: &mut Conn,
    what: &str,
    f: impl FnOnce(&mut Db<'_>) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    match conn {
        Conn::Sqlite(conn) => sqlite_tx(conn, TransactionBehavior::Immediate, what, f),
        Conn::Postgres(conn) => in_transaction(
            conn,
            &format!("BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})"),
            what,
            f,
        ),
    }
}

/// `f` in a SQLite transaction that begins as `behavior` says, committed when `f` succeeds
/// (dropping the transaction on an error rolls it back).
fn sqlite_tx<T>(
    conn: &mut rusqlite::Connection,
    behavior: TransactionBehavior,
    what: &str,
    f: impl FnOnce(&mut Db<'_>) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let _span =
        tracing::trace_span!("store", db.system.name = "sqlite", transaction = what).entered();
    let started = std::time::Instant::now();
    let path = conn.path().map(ToOwned::to_owned);
    let failed = |e| {
        crate::telemetry::metrics::store_error(Dialect::Sqlite.backend());
        sql::sqlite_failure(path.as_deref(), e)
    };
    let out = (|| {
        let tx = conn
            .transaction_with_behavior(behavior)
            .map_err(failed)
            .ctx(what)?;
        let out = f(&mut Db::Sqlite(&tx))?;
        tx.commit().map_err(failed).ctx(what)?;
        Ok(out)
    })();
    crate::telemetry::metrics::store_transaction(
        Dialect::Sqlite.backend(),
        started.elapsed(),
        out.is_ok(),
    );
    out
}

/// `begin` + `f` + `COMMIT` on PostgreSQL; an error in `f` rolls back (and a panic leaves
/// the transaction to the connection's drop, which rolls it back).
fn in_transaction<T>(
    conn: &mut sql::PgConn,
    begin: &str,
    what: &str,
    f: impl FnOnce(&mut Db<'_>) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let _span =
        tracing::trace_span!("store", db.system.name = "postgresql", transaction = what).entered();
    let started = std::time::Instant::now();
    let pg = Dialect::Postgres;
    pg.count_failure(conn.begin(begin)).ctx(what)?;
    let out = f(&mut Db::Postgres(conn));
    let committed = out.is_ok();
    let ended = pg.count_failure(conn.end_transaction(committed)).ctx(what);
    crate::telemetry::metrics::store_transaction(
        pg.backend(),
        started.elapsed(),
        committed && ended.is_ok(),
    );
    let out = out?;
    ended?;
    Ok(out)
}

/// Counts are `u64` in Rust and `INTEGER` (i64) in SQLite.
fn count(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

fn int(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// Current time as stored: as the contract writes it ([`crate::wire::time::Recorded`]).
fn now() -> crate::wire::time::Recorded {
    crate::wire::time::Recorded::now()
}

/// When something held for `ttl` from now lapses (a claim, a lease).
fn expiry(ttl: std::time::Duration) -> crate::wire::time::Recorded {
    now().plus(chrono::TimeDelta::from_std(ttl).unwrap_or(chrono::TimeDelta::MAX))
}

#[cfg(test)]
pub(crate) mod test_support;

#[cfg(test)]
mod tests;

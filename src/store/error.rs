//! The single error type of the store.
//!
//! Database errors (SQLite's or PostgreSQL's) are flattened into [`StoreError::Database`] with
//! a short description of the operation (`sql::SqlContext`), so no driver type leaks into
//! the public API and messages say *what* failed, not just "database is locked".

/// Everything that can go wrong in the store.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The example does not exist for this model.
    #[error("example not found: {0}")]
    ExampleNotFound(String),
    /// The database was migrated by a newer Arbiter than this one.
    #[error(
        "database schema version {found} is newer than the supported version {supported}; upgrade arbiter"
    )]
    TooNew { found: i64, supported: i64 },
    /// A stored JSON column failed to parse.
    #[error("corrupt {what}: {reason}")]
    Corrupt { what: String, reason: String },
    /// A unique name is taken.
    #[error("{0}")]
    Conflict(String),
    /// A named record does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The storage refused a write (full, over quota or over the file size limit): nothing
    /// of the transaction was written.
    #[error(
        "{context}: the storage refused the write (full, over quota or over its file size \
         limit); nothing was written: free space and retry"
    )]
    Full { context: String },
    /// The shared database (PostgreSQL) cannot be reached: nothing was read or written.
    #[error("{context}: the database cannot be reached ({message}); retry once it is back")]
    Unavailable { context: String, message: String },
    /// A file of the SQLite database cannot be written (its mode, an immutable attribute,
    /// a read-only file system): `reason` names the file and the cause. Nothing was
    /// written; an operator must fix it.
    #[error(
        "{context}: {reason}: the database's files must be writable; nothing was written: \
         make the file writable, then retry"
    )]
    Unwritable { context: String, reason: String },
    /// Any failure of the database (SQLite or PostgreSQL), with the operation that was
    /// being attempted.
    #[error("{context}: {message}")]
    Database { context: String, message: String },
}

/// Parses a JSON column, reporting which value was corrupt.
pub(super) fn parse_json<T: serde::de::DeserializeOwned>(
    text: &str,
    what: impl FnOnce() -> String,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
        what: what(),
        reason: e.to_string(),
    })
}

//! The application layer: one function per operation, called by both the CLI and the
//! server. Knows nothing of clap, axum, git2 or rusqlite types.

pub mod access;
pub mod agreement;
pub mod align;
pub mod answer_cache;
pub mod background;
pub mod base_batch;
pub mod batch;
pub mod checkout_home;
pub mod claims;
pub mod decide;
pub mod diff;
pub mod engines;
pub mod eval;
pub mod examples;
mod gates;
pub mod health;
pub mod idempotency;
pub mod jobs;
pub mod kappa;
pub mod lease;
pub mod metrics;
pub mod model_files;
pub mod models;
mod parsed_checkpoints;
pub mod prefix;
pub(crate) mod question_ids;
pub mod registry;
pub mod requests;
pub mod resample;
pub mod runner;
pub mod service;
#[cfg(test)]
pub(crate) mod test_support;
pub mod to_annotate;
pub mod tokens;
pub mod travel;
pub mod web_sessions;
pub mod working;

use crate::config::Settings;
use crate::engine::Engines;
use crate::error::{Error, Result};
use crate::repo::Repos;
use crate::store::Store;
use std::sync::{Arc, OnceLock};

/// What every operation runs against. Cheap to clone.
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

struct Inner {
    settings: Settings,
    engines: Engines,
    repos: Repos,
    /// Checkpoints read, by model and commit ([`parsed_checkpoints`]).
    parsed_checkpoints: parsed_checkpoints::ParsedCheckpoints,
    /// Opened on first use, so commands that never touch examples never create a database.
    store: OnceLock<Arc<Store>>,
    /// Taken on first claim (`lease`).
    lease: OnceLock<lease::Lease>,
    /// What operations started and did not wait for.
    background: background::Background,
    /// Each model's last retention sweep.
    retention_sweeps: examples::retention::Sweeps,
}

impl Context {
    /// A context for `settings` with the engines they configure: routed base models on
    /// their remote engines, the others on the built-in engine.
    pub fn new(settings: Settings) -> Result<Self> {
        let engines = Engines::configure(&settings)?;
        // Exemplar embeddings persist in the home's database: an aligned question's
        // hundreds of exemplars are embedded once per home, not once per process.
        let stored = Arc::new(StoredEmbeddings::new(settings.database_path()));
        for embedder in engines.embedders() {
            embedder.attach_store(stored.clone());
        }
        Ok(Self::with_engines(settings, engines))
    }

    pub fn with_engines(settings: Settings, engines: Engines) -> Self {
        let repos = match &settings.repos.remote {
            Some(remote) => Repos::with_remote(settings.repos_dir(), remote.clone()),
            None => Repos::new(settings.repos_dir()),
        }
        .with_credentials(settings.repos.credentials.clone());
        Self {
            inner: Arc::new(Inner {
                settings,
                engines,
                repos,
                parsed_checkpoints: parsed_checkpoints::ParsedCheckpoints::new(),
                store: OnceLock::new(),
                lease: OnceLock::new(),
                background: background::Background::default(),
                retention_sweeps: examples::retention::Sweeps::default(),
            }),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    pub fn engines(&self) -> &Engines {
        &self.inner.engines
    }

    pub fn repos(&self) -> &Repos {
        &self.inner.repos
    }

    pub(crate) fn parsed_checkpoints(&self) -> &parsed_checkpoints::ParsedCheckpoints {
        &self.inner.parsed_checkpoints
    }

    /// The example store, opened on first use: the shared PostgreSQL database when one is
    /// configured (`ARBITER_DATABASE_URL`, `database.url`), else `ARBITER_HOME/arbiter.db`.
    /// A failure to open is not kept: a database that was down is tried again next time.
    pub fn store(&self) -> Result<&Store> {
        if let Some(store) = self.inner.store.get() {
            return Ok(store);
        }
        let opened = if let Some(url) = &self.inner.settings.database.url {
            Store::connect(url.expose())?
        } else {
            let path = self.inner.settings.database_path();
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| Error::internal(&format!("creating {}", parent.display()), e))?;
            }
            Store::open(&path)?
        };
        // Two first callers may both open one; the loser's is dropped.
        Ok(self.inner.store.get_or_init(|| Arc::new(opened)))
    }

    /// This process's lease, taken on first use: what its claims are held under. In the
    /// home on one machine; in the shared store when replicas share a database, since they
    /// share no home. A failure is not kept: the next claim tries again.
    pub fn lease(&self) -> Result<&lease::Lease> {
        if let Some(lease) = self.inner.lease.get() {
            return Ok(lease);
        }
        let taken = if self.inner.settings.database.url.is_some() {
            self.store()?;
            let store = self
                .inner
                .store
                .get()
                .cloned()
                .ok_or_else(|| Error::bug("the store is open but not kept"))?;
            lease::Lease::shared(store)?
        } else {
            let dir = self.inner.settings.leases_dir();
            lease::Lease::take(&dir).map_err(|e| {
                Error::internal(
                    &format!("taking this process's lease in {}", dir.display()),
                    e,
                )
            })?
        };
        // Two first callers may both take one; the loser's is dropped (and let go).
        Ok(self.inner.lease.get_or_init(|| taken))
    }

    /// What operations started in the background (a capture's retention sweep): a
    /// process that is one command waits for it before it exits.
    pub fn background(&self) -> &background::Background {
        &self.inner.background
    }

    /// Each model's last retention sweep by this context ([`examples::retention`]).
    pub(crate) fn retention_sweeps(&self) -> &examples::retention::Sweeps {
        &self.inner.retention_sweeps
    }

    /// Whether `name` is a base model of this process.
    pub fn is_base_model(&self, name: &str) -> bool {
        self.inner.engines.get(name).is_some()
    }
}

/// Run blocking work (git, `SQLite`, the encoder) off the async workers, in the current
/// span (so the store's and git's spans are children of the operation that asked).
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || span.in_scope(work))
        .await
        .map_err(|e| Error::internal("a blocking task", e))?
}

/// The persistent tier of the built-in engine's embedding cache: the home's database,
/// opened on first use (so a command that embeds no exemplar never creates it).
struct StoredEmbeddings {
    path: std::path::PathBuf,
    store: OnceLock<Option<Store>>,
}

impl StoredEmbeddings {
    fn new(path: std::path::PathBuf) -> Self {
        Self {
            path,
            store: OnceLock::new(),
        }
    }

    fn store(&self) -> Option<&Store> {
        self.store
            .get_or_init(|| {
                if let Some(parent) = self.path.parent() {
                    std::fs::create_dir_all(parent).ok()?;
                }
                Store::open(&self.path)
                    .inspect_err(|error| {
                        tracing::warn!(%error, "the embedding cache is unavailable");
                    })
                    .ok()
            })
            .as_ref()
    }
}

impl crate::engine::builtin::EmbeddingStore for StoredEmbeddings {
    fn load(&self, key: &[u8; 32]) -> Option<crate::engine::builtin::Embedding> {
        match self.store()?.load_embedding(key) {
            Ok(found) => {
                found.map(|(tokens, vector)| crate::engine::builtin::Embedding { vector, tokens })
            }
            Err(error) => {
                tracing::warn!(%error, "reading the embedding cache failed");
                None
            }
        }
    }

    fn save(&self, entries: &[([u8; 32], crate::engine::builtin::Embedding)]) {
        let Some(store) = self.store() else { return };
        let rows: Vec<([u8; 32], u64, &[f32])> = entries
            .iter()
            .map(|(key, e)| (*key, e.tokens, e.vector.as_slice()))
            .collect();
        if let Err(error) = store.save_embeddings(&rows) {
            tracing::warn!(%error, "writing the embedding cache failed");
        }
    }
}

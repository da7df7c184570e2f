//! The application layer: one function per operation, called by both the CLI and the
//! server. Knows nothing of clap, axum, git2 or rusqlite types.

pub mod decide;
pub mod models;

use crate::config::Settings;
use crate::engine::Engines;
use crate::error::Result;
use std::sync::Arc;

/// What every operation runs against. Cheap to clone.
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

struct Inner {
    settings: Settings,
    engines: Engines,
}

impl Context {
    /// A context for `settings` with the engines they configure.
    pub fn new(settings: Settings) -> Result<Self> {
        Ok(Self::with_engines(settings, Engines::builtin()))
    }

    pub fn with_engines(settings: Settings, engines: Engines) -> Self {
        Self {
            inner: Arc::new(Inner { settings, engines }),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    pub fn engines(&self) -> &Engines {
        &self.inner.engines
    }
}

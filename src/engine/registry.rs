//! Which engine answers for which base model name.

use super::Engine;
use super::builtin::{BuiltinEngine, Embedder, Reading};
use crate::wire::decision::BASE_MODELS;
use std::collections::HashMap;
use std::sync::Arc;

/// Base model name → engine. Unrouted names use the built-in engine.
#[derive(Clone)]
pub struct Engines {
    routes: HashMap<String, Arc<dyn Engine>>,
}

impl Engines {
    /// The built-in engine behind every base model: `*mo` reads the first window,
    /// `*-reasoning` reads the whole state, and `jev-*` read the whole state too.
    pub fn builtin() -> Self {
        let embedder = Arc::new(Embedder::new());
        let fast: Arc<dyn Engine> =
            Arc::new(BuiltinEngine::new(embedder.clone(), Reading::FirstWindow));
        let whole: Arc<dyn Engine> = Arc::new(BuiltinEngine::new(embedder, Reading::AllWindows));
        let routes = BASE_MODELS
            .iter()
            .map(|name| {
                let engine = if matches!(*name, "mo" | "service/mo") {
                    fast.clone()
                } else {
                    whole.clone()
                };
                ((*name).to_owned(), engine)
            })
            .collect();
        Self { routes }
    }

    /// The engine for a base model name, or `None` when the name is not a base model.
    pub fn get(&self, model: &str) -> Option<&Arc<dyn Engine>> {
        self.routes.get(model)
    }

    /// Base model names with their engines, in the spec's order.
    pub fn list(&self) -> Vec<(&'static str, &Arc<dyn Engine>)> {
        BASE_MODELS
            .iter()
            .filter_map(|name| self.routes.get(*name).map(|e| (*name, e)))
            .collect()
    }

    /// Route `model` to `engine` (used by configuration).
    pub fn route(&mut self, model: &str, engine: Arc<dyn Engine>) {
        self.routes.insert(model.to_owned(), engine);
    }
}

//! Which engine answers for which base model name.

use super::Engine;
use super::builtin::{BuiltinEngine, Embedder, Encoders, Reading};
use crate::config::{EngineSettings, Settings};
use crate::error::Result;
use crate::wire::decision::BASE_MODELS;
use indexmap::IndexMap;
use std::collections::HashMap;
use std::sync::Arc;

/// Base model name → engine. Unrouted names use the built-in engine.
#[derive(Clone)]
pub struct Engines {
    routes: HashMap<String, Arc<dyn Engine>>,
    configured: IndexMap<String, Configured>,
    /// The built-in engines' encoders and caches: the first-window models' and the
    /// whole-state models'.
    embedders: [Arc<Embedder>; 2],
}

/// A remote engine from `config.yaml`, with the base models routed to it.
#[derive(Clone)]
pub struct Configured {
    pub settings: EngineSettings,
    pub engine: Arc<dyn Engine>,
    /// Base model names routed to it, in the spec's order.
    pub models: Vec<&'static str>,
}

impl Engines {
    /// The built-in engine behind every base model: `*mo` reads the first window with the
    /// fast encoder; `*-reasoning` and `jev-*` read the whole state with the fast and the
    /// six-layer encoder side by side ([`Encoders::L3WithL6`]).
    pub fn builtin() -> Self {
        let first = Arc::new(Embedder::new());
        let paired = Arc::new(Embedder::with(Encoders::L3WithL6));
        let fast: Arc<dyn Engine> =
            Arc::new(BuiltinEngine::new(first.clone(), Reading::FirstWindow));
        let whole: Arc<dyn Engine> =
            Arc::new(BuiltinEngine::new(paired.clone(), Reading::AllWindows));
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
        Self {
            routes,
            configured: IndexMap::new(),
            embedders: [first, paired],
        }
    }

    /// The built-in engines' encoders (to attach a persistent cache to each).
    pub fn embedders(&self) -> &[Arc<Embedder>] {
        &self.embedders
    }

    /// The engines `settings` configure: each remote engine built once (one connection
    /// pool and one in-flight limit, shared by every base model routed to it), the routed
    /// base models on them, the others on the built-in engine.
    pub fn configure(settings: &Settings) -> Result<Self> {
        let mut engines = Self::builtin();
        for (name, engine_settings) in &settings.engines {
            let models = BASE_MODELS
                .iter()
                .copied()
                .filter(|model| settings.routes.get(*model) == Some(name))
                .collect();
            let configured = Configured {
                settings: engine_settings.clone(),
                engine: super::remote(engine_settings)?,
                models,
            };
            for model in &configured.models {
                // The built-in engine the name has without the route: what the heads
                // fitted over the remote answers read ([`super::headed`]).
                let local = engines
                    .get(model)
                    .cloned()
                    .ok_or_else(|| crate::error::Error::bug("a base model without an engine"))?;
                let headed = super::headed::Headed::new(name, configured.engine.clone(), local);
                engines.route(model, Arc::new(headed));
            }
            engines.configured.insert(name.clone(), configured);
        }
        Ok(engines)
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

    /// The remote engines of `config.yaml`, in file order.
    pub fn configured(&self) -> impl Iterator<Item = &Configured> {
        self.configured.values()
    }

    /// Route `model` to `engine` (used by configuration).
    pub fn route(&mut self, model: &str, engine: Arc<dyn Engine>) {
        self.routes.insert(model.to_owned(), engine);
    }
}

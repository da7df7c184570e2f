//! A remote engine with learned heads on top: what a base model routed to a remote engine
//! answers with. The remote engine answers every question (one call per decision, as
//! without heads); a question with a learned head is then answered by it, locally, over
//! the built-in encoder's features of the state with the remote answer as its prior
//! (`arbiter align` fits such heads, [`crate::core::align`]).
//!
//! Without a head among the questions asked this is the remote engine, call for call.

use super::builtin::BuiltinEngine;
use super::{Engine, EngineOutput, EngineRequest};
use crate::error::{Error, Result};
use crate::wire::Questions;
use serde_json::Value;
use std::sync::Arc;

/// A remote engine, and the built-in engine whose features its heads read.
pub struct Headed {
    /// Its name in `config.yaml`: what a head's manifest names as its prior.
    name: String,
    remote: Arc<dyn Engine>,
    local: Arc<dyn Engine>,
}

impl Headed {
    /// `remote` (named `name` in `config.yaml`) with heads over the features of `local`,
    /// the built-in engine the base model would have without the route.
    pub fn new(name: &str, remote: Arc<dyn Engine>, local: Arc<dyn Engine>) -> Self {
        Self {
            name: name.to_owned(),
            remote,
            local,
        }
    }
}

#[async_trait::async_trait]
impl Engine for Headed {
    fn describe(&self) -> String {
        self.remote.describe()
    }

    fn release_date(&self) -> Option<&str> {
        self.remote.release_date()
    }

    fn max_in_flight(&self) -> usize {
        self.remote.max_in_flight()
    }

    fn state_budget(&self) -> Option<usize> {
        self.remote.state_budget()
    }

    fn check_state(&self, model: &str, state: &Value, truncate: bool) -> Result<()> {
        self.remote.check_state(model, state, truncate)
    }

    async fn decide(&self, request: EngineRequest<'_>) -> Result<EngineOutput> {
        let headed = request
            .questions
            .keys()
            .any(|id| request.heads.get(id).is_some());
        let mut output = self
            .remote
            .decide(EngineRequest {
                heads: &super::builtin::learned::NONE,
                ..request
            })
            .await?;
        if !headed {
            return Ok(output);
        }
        let local = self.local.clone();
        let (name, state, questions, heads) = (
            self.name.clone(),
            request.state.clone(),
            request.questions.clone(),
            request.heads.clone(),
        );
        let mut answers = std::mem::take(&mut output.answers);
        // The encoder's work is CPU-bound: on the pool, off the async workers.
        let answers = crate::parallel::on_the_pool(move || {
            let builtin = features(local.as_ref())?;
            builtin.apply_heads(&name, &state, &questions, &heads, &mut answers)?;
            Ok::<_, Error>(answers)
        })
        .await
        .map_err(|_| Error::internal("the heads' task", "it panicked"))??;
        output.answers = answers;
        Ok(output)
    }

    fn answered_together(&self, questions: &Questions) -> Result<Vec<Vec<usize>>> {
        self.remote.answered_together(questions)
    }

    fn heads_over(&self) -> Option<(&str, &BuiltinEngine)> {
        Some((&self.name, self.local.as_builtin()?))
    }
}

fn features(engine: &dyn Engine) -> Result<&BuiltinEngine> {
    engine
        .as_builtin()
        .ok_or_else(|| Error::bug("a remote engine's heads read no built-in engine"))
}

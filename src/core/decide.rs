//! Decisions: a state and questions in, one answer per question out.

use super::Context;
use crate::engine::EngineRequest;
use crate::error::{Error, Result};
use crate::wire::{DecisionRequest, DecisionResponse};

/// Answer a validated request.
///
/// A base model name is answered by its engine with the request's questions. Anything
/// else is a repository path or unknown (`model_not_found`).
pub async fn decide(ctx: &Context, request: &DecisionRequest) -> Result<DecisionResponse> {
    let Some(engine) = ctx.engines().get(&request.model) else {
        return Err(Error::ModelNotFound(request.model.clone()));
    };
    request.check_base_model_fields()?;
    let questions = request
        .questions
        .as_ref()
        .ok_or_else(|| Error::Internal("questions checked above".into()))?;
    let output = engine
        .decide(EngineRequest {
            model: &request.model,
            state: &request.state,
            questions,
        })
        .await?;
    Ok(DecisionResponse {
        model: request.model.clone(),
        answers: output.answers,
        usage: output.usage,
        revision: None,
        checkpoint: None,
        recorded: None,
        example: None,
        decision: None,
    })
}

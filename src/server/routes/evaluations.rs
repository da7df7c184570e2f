//! Evaluations: what their `POST` body is and who may send it. Creating, listing, polling
//! and cancelling are the shared handlers of [`super::jobs`]; the report is the job's
//! `result`.

use super::jobs::{Evaluations, JsonCollection};
use crate::core::eval::NewEvaluation;
use crate::core::jobs::{JobLock, Origin};
use crate::core::tokens::Role;
use crate::core::{self, Context};
use crate::error::Result;
use crate::wire::align::EvaluationRequest;
use crate::wire::jobs::Job;
use serde_json::Value;

/// An evaluation stages the annotated examples and only reads the model.
impl JsonCollection for Evaluations {
    type Request = EvaluationRequest;
    const ROLE: Role = Role::Reader;

    fn parse(body: &Value) -> Result<EvaluationRequest> {
        Ok(EvaluationRequest::from_value(body)?)
    }

    fn create(
        ctx: &Context,
        model: &str,
        request: EvaluationRequest,
        origin: Origin,
    ) -> Result<(Job, JobLock)> {
        core::eval::create(ctx, NewEvaluation { model, request }, Some(origin))
    }
}

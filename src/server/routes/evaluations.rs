//! Evaluations: what their `POST` body is and who may send it. Creating, listing, polling
//! and cancelling are the shared handlers of [`super::jobs`]; the report is the job's
//! `result`.

use super::jobs::{self, Evaluations, JsonCollection};
use crate::core::requests::JobRequest;
use crate::error::Result;
use crate::wire::align::EvaluationRequest;
use serde_json::Value;

/// An evaluation stages the annotated examples and only reads the model
/// ([`crate::core::access::Need::to_create`]).
impl JsonCollection for Evaluations {
    fn parse(body: &Value) -> Result<JobRequest> {
        Ok(JobRequest::Evaluation(EvaluationRequest::read(body)?))
    }
}

jobs::job_collection!(
    Evaluations,
    paths: crate::wire::paths::EVALUATIONS,
    tag: "evaluations",
    scope: "batches",
    name: "Evaluation",
    noun: "evaluation",
    list: list_evaluations,
    get: get_evaluation,
    cancel: cancel_evaluation,
    poll: "The job; when completed, `result` is an `EvaluationReport`.",
    cancelled: "A queued evaluation is cancelled at once; a running one stops at its next \
        example. Idempotent.",
);

jobs::json_job_create!(
    Evaluations,
    paths: crate::wire::paths::EVALUATIONS,
    tag: "evaluations",
    scope: "batches",
    name: "Evaluation",
    create: create_evaluation,
    summary: "Start an evaluation",
    description: "Queues a job that decides every annotated example at the revision (and at \
        the baseline, when given) and reports, per question and overall, log loss or RPS, \
        accuracy, macro-F1, Cohen's kappa, Brier, ECE and, for scores, MAE. An aligned question \
        never uses an example as its own exemplar. Answers are cached by engine, questions and \
        state, so a re-run calls no engine. The `Idempotency-Key` is required.",
    body: EvaluationRequest,
    body_description: "The evaluation.",
);

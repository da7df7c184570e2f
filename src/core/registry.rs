//! The registry's history: each promotion and tag move made through arbiter is recorded with
//! who made it, when, from and to which commit, and the evaluation it relied on. A push made
//! with plain git is not seen here, so it is not recorded.

use indexmap::IndexMap;

use super::Context;
use crate::error::{Error, Result};
use crate::ids::{JobId, ModelId};
use crate::store::{JobFilter, JobRecord, JobState, NewRegistryEvent, Outcome};
use crate::wire::align::EvaluationReport;
use crate::wire::jobs::{JobKind, JobResult, JobStatus};
use crate::wire::registry::{EvaluationSummary, QuestionSummary, RegistryEvent};
use crate::wire::validate::{FieldError, Loc};

/// How far back the latest evaluation of a commit is looked for.
const EVALUATIONS_SEARCHED: usize = 1000;

/// The model's last `limit` events, newest first.
pub fn history(ctx: &Context, model_id: &ModelId, limit: usize) -> Result<Vec<RegistryEvent>> {
    Ok(ctx.store()?.registry_events(model_id, limit)?)
}

/// Append an event to `model_id`'s history.
pub(crate) fn record(
    ctx: &Context,
    model_id: &ModelId,
    event: &NewRegistryEvent<'_>,
) -> Result<RegistryEvent> {
    Ok(ctx.store()?.record_registry_event(model_id, event)?)
}

/// The evaluation a move of a ref to `commit` relies on: the job `named` (which must be a
/// completed evaluation of `model_id` at `commit`; otherwise a validation error at
/// `body.evaluation`, where a request names it), else the latest completed evaluation of
/// `commit`, else none.
pub(crate) fn relied_on(
    ctx: &Context,
    model_id: &ModelId,
    commit: &str,
    named: Option<&str>,
) -> Result<Option<EvaluationSummary>> {
    let store = ctx.store()?;
    let Some(named) = named else {
        let completed = store.list_jobs(&JobFilter {
            model_id: Some(model_id),
            statuses: &[JobStatus::Completed],
            limit: EVALUATIONS_SEARCHED,
            id_prefix: None,
        })?;
        return Ok(completed
            .iter()
            .filter(|job| job.kind == JobKind::Evaluation)
            .filter_map(summarize)
            .find(|summary| summary.commit == commit));
    };
    let invalid = |message: String| {
        Error::Validation(vec![FieldError::new(
            Loc::body().key("evaluation"),
            message,
            "invalid_evaluation",
        )])
    };
    let job = named
        .parse::<JobId>()
        .ok()
        .map(|id| store.get_job(&id))
        .transpose()?
        .flatten()
        .filter(|job| &job.model_id == model_id && job.kind == JobKind::Evaluation)
        .ok_or_else(|| invalid(format!("this model has no evaluation job `{named}`")))?;
    if job.state.status() != JobStatus::Completed {
        return Err(invalid(format!(
            "evaluation `{named}` is {}, not completed",
            job.state.status()
        )));
    }
    let report = report_of(&job)
        .ok_or_else(|| Error::bug(format!("evaluation `{named}` has no readable report")))?;
    if report.working_copy.is_some() {
        return Err(invalid(format!(
            "evaluation `{named}` evaluated a working copy (questions not committed), not a commit"
        )));
    }
    let summary = summary_of(&job, report);
    if summary.commit != commit {
        return Err(invalid(format!(
            "evaluation `{named}` evaluated {}, not {commit}",
            summary.commit
        )));
    }
    Ok(Some(summary))
}

/// A completed evaluation's report; `None` for any other job.
fn report_of(job: &JobRecord) -> Option<EvaluationReport> {
    let JobState::Finished {
        outcome: Outcome::Completed {
            result: JobResult::Evaluation(report),
        },
        ..
    } = &job.state
    else {
        return None;
    };
    Some((**report).clone())
}

/// A completed evaluation's figures as history keeps them; `None` for any other job, and
/// for an evaluation of a working copy: its figures are not its commit's, so it is never
/// relied on for a promotion or a tag.
fn summarize(job: &JobRecord) -> Option<EvaluationSummary> {
    let report = report_of(job)?;
    if report.working_copy.is_some() {
        return None;
    }
    Some(summary_of(job, report))
}

/// What history keeps of `job`'s evaluation `report`.
fn summary_of(job: &JobRecord, report: EvaluationReport) -> EvaluationSummary {
    // A question not evaluated has no figures to keep.
    let figures = |evaluation: &crate::wire::align::QuestionEvaluation| {
        let metrics = evaluation.metrics.as_ref()?;
        Some(QuestionSummary {
            examples: metrics.examples,
            accuracy: metrics.accuracy,
            interval: metrics
                .intervals
                .as_ref()
                .map(|intervals| [intervals.accuracy.low, intervals.accuracy.high]),
            delta: evaluation.delta.as_ref().map(|d| d.accuracy),
        })
    };
    let questions: IndexMap<String, QuestionSummary> = report
        .questions
        .iter()
        .filter_map(|(id, evaluation)| Some((id.clone(), figures(evaluation)?)))
        .collect();
    EvaluationSummary {
        job_id: job.job_id,
        commit: report.revision.commit,
        baseline: report.baseline.map(|b| b.commit),
        // Nothing evaluated: no examples, as an evaluation of no annotated example was.
        overall: figures(&report.overall).unwrap_or(QuestionSummary {
            examples: 0,
            accuracy: 0.0,
            interval: None,
            delta: None,
        }),
        questions,
    }
}

//! Decisions: a state and questions in, one answer per question out; for repository models,
//! the checkpoint's questions, the resolved revision, and capture.

use super::metrics::predicted_of;
use super::model_files::sampled;
use super::models::{self, Loaded};
use super::{Context, blocking};
use crate::engine::EngineRequest;
use crate::engine::builtin::aligned::format::Abstain;
use crate::engine::builtin::aligned::outcome_keys;
use crate::engine::builtin::learned::{self, Heads};
use crate::error::{Error, Result};
use crate::ids::ExampleId;
use crate::store::NewDecision;
use crate::telemetry::metrics as telemetry;
use crate::wire::decision::{DecisionRef, ExampleRef};
use crate::wire::question::questions_to_value;
use crate::wire::validate::Loc;
use crate::wire::value::derived_example_id;
use crate::wire::{Answers, DecisionRequest, DecisionResponse, Questions};
use std::borrow::Cow;

/// How a decision that ended in `error` is counted in the metrics: `overloaded` by its
/// variant, else refused when the asker is at fault (a 4xx), failed when not.
pub fn counted_as(error: &Error) -> telemetry::Outcome {
    match (error, error.status()) {
        (Error::Overloaded { .. }, _) => telemetry::Outcome::Overloaded,
        (_, 400..=499) => telemetry::Outcome::Refused,
        _ => telemetry::Outcome::Failed,
    }
}

/// Answer a validated request. `request_id` is recorded with a captured decision.
pub async fn decide(
    ctx: &Context,
    request: &DecisionRequest,
    request_id: &str,
) -> Result<DecisionResponse> {
    let prepared = prepare(ctx, request).await?;
    decide_prepared(ctx, request, prepared, request_id).await
}

/// A decision ready to compute: its model resolved (a repository model's checkpoint
/// loaded) and its state within the base model's budget.
pub enum Prepared {
    Base,
    Repository(Box<Loaded>),
}

/// Resolve the model and check the state against its budget: everything that may refuse
/// the request before it computes. The server prepares before a decision waits for a
/// slot, so one that cannot run is refused at once rather than after the queue.
#[tracing::instrument(level = "trace", name = "resolve_model", skip_all, fields(gen_ai.request.model = %request.model))]
pub async fn prepare(ctx: &Context, request: &DecisionRequest) -> Result<Prepared> {
    let (base, prepared) = if ctx.is_base_model(&request.model) {
        request.check_base_model_fields()?;
        (request.model.clone(), Prepared::Base)
    } else {
        let model = models::named_here(ctx, &request.model)?;
        let (ctx, revision) = (ctx.clone(), request.revision.clone());
        let loaded = blocking(move || models::load(&ctx, &model, revision.as_deref())).await?;
        (
            loaded.spec.base.clone(),
            Prepared::Repository(Box::new(loaded)),
        )
    };
    let engine = ctx
        .engines()
        .get(&base)
        .ok_or_else(|| Error::ModelNotFound(base.clone()))?;
    // One pass over the state's text, on this thread: cheaper than copying a large state
    // to the blocking pool (a 10 MB state is refused in milliseconds).
    engine.check_state(
        &request.model,
        &request.state,
        request.truncate == Some(true),
    )?;
    Ok(prepared)
}

/// Answer a [`prepare`]d request.
pub async fn decide_prepared(
    ctx: &Context,
    request: &DecisionRequest,
    prepared: Prepared,
    request_id: &str,
) -> Result<DecisionResponse> {
    match prepared {
        Prepared::Base => decide_base(ctx, request).await,
        Prepared::Repository(loaded) => {
            let capture_as = CaptureAs {
                request_id,
                decision_id: None,
            };
            decide_repository(ctx, request, &loaded, capture_as).await
        }
    }
}

async fn decide_base(ctx: &Context, request: &DecisionRequest) -> Result<DecisionResponse> {
    request.check_base_model_fields()?;
    let questions = request
        .questions
        .as_ref()
        .ok_or_else(|| Error::bug("questions checked above"))?;
    let engine = ctx
        .engines()
        .get(&request.model)
        .ok_or_else(|| Error::ModelNotFound(request.model.clone()))?;
    let output = engine
        .decide(EngineRequest {
            model: &request.model,
            state: &request.state,
            questions,
            heads: &learned::NONE,
            truncate: request.truncate == Some(true),
        })
        .await?;
    Ok(DecisionResponse {
        model: request.model.clone(),
        answers: mark_abstentions(questions, &learned::NONE, output.answers),
        usage: output.usage,
        revision: None,
        checkpoint: None,
        recorded: None,
        example: None,
        decision: None,
    })
}

/// Answers that an aligned question's abstain rule leaves to a person (the most likely
/// outcome less probable than its threshold) marked `x_abstain: true`; the rest as they are.
/// Applied here, not in an engine, so it holds for every engine alike.
pub fn mark_abstentions(questions: &Questions, heads: &Heads, mut answers: Answers) -> Answers {
    for (id, answer) in &mut answers {
        let Some(question) = questions.get(id) else {
            continue;
        };
        let rule = Abstain::of(question.instructions.as_ref())
            .or_else(|| heads.get(id)?.entry.abstain.clone());
        let Some(rule) = rule else {
            continue;
        };
        let outcomes = outcome_keys(&question.kind).len();
        let top = predicted_of(answer, outcomes)
            .into_iter()
            .fold(0.0, f64::max);
        if top < rule.below {
            *answer = answer.clone().abstaining();
        }
    }
    answers
}

/// What a call to a checkpoint asks: its questions, overridden and extended by the
/// request's for this call only, and the learned heads of those still the checkpoint's.
pub struct Asked<'a> {
    pub questions: Cow<'a, Questions>,
    pub heads: Cow<'a, Heads>,
}

/// A checkpoint's questions (`saved`, with their `heads`), overridden and extended by the
/// request's (`supplied`).
pub fn effective_questions<'a>(
    (saved, heads): (&'a Questions, &'a Heads),
    supplied: Option<&Questions>,
) -> Asked<'a> {
    // The saved questions alone, as most decisions (and every item of a batch without
    // questions of its own) ask, are not copied.
    let Some(supplied) = supplied.filter(|supplied| !supplied.is_empty()) else {
        return Asked {
            questions: Cow::Borrowed(saved),
            heads: Cow::Borrowed(heads),
        };
    };
    let mut questions = saved.clone();
    for (id, question) in supplied {
        questions.insert(id.clone(), question.clone());
    }
    // A question the request wrote under a checkpoint's ID is asked as written: the head
    // fitted for the checkpoint's wording does not answer it.
    let heads = if supplied.keys().any(|id| heads.get(id).is_some()) {
        Cow::Owned(heads.clone().only(|id| !supplied.contains_key(id)))
    } else {
        Cow::Borrowed(heads)
    };
    Asked {
        questions: Cow::Owned(questions),
        heads,
    }
}

/// What a call to `loaded` asks ([`effective_questions`]); no question at all is the
/// caller's to fix, located at `questions`.
pub(crate) fn asked_of<'a>(loaded: &'a Loaded, supplied: Option<&Questions>) -> Result<Asked<'a>> {
    let asked = effective_questions((&loaded.questions, &loaded.heads), supplied);
    if asked.questions.is_empty() {
        return Err(Error::invalid(
            Loc::body().key("questions"),
            format!(
                "{} has no saved questions at {}; supply questions",
                loaded.path, loaded.revision.name
            ),
            "missing",
        ));
    }
    Ok(asked)
}

/// How a captured decision is recorded.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CaptureAs<'a> {
    /// The request that asked for it (a job's creating request, for a job's items).
    pub(crate) request_id: &'a str,
    /// A fixed decision ID (see [`NewDecision::decision_id`]), for a job's item.
    pub(crate) decision_id: Option<&'a str>,
}

/// Answer for a loaded repository model, as a caller's request: a capture that fails still
/// answers, unrecorded (logged), unless the storage is full.
pub(crate) async fn decide_repository(
    ctx: &Context,
    request: &DecisionRequest,
    loaded: &Loaded,
    capture_as: CaptureAs<'_>,
) -> Result<DecisionResponse> {
    let (response, captured) = decide_and_capture(ctx, request, loaded, capture_as).await?;
    match captured {
        Ok(()) => Ok(response),
        // A full disk is the operator's to fix and the caller's to retry: answered as a
        // problem, never as an answer whose record silently went missing.
        Err(error @ Error::InsufficientStorage(_)) => Err(error),
        Err(error) => {
            tracing::warn!(%error, model = %response.model, "capture failed; answering unrecorded");
            Ok(response)
        }
    }
}

/// Answer for a loaded repository model (resolved once, for a batch), and how its capture
/// went, apart: a job's item must not be answered unrecorded, so what a failed capture
/// means is the caller's to say. `Ok(())` too when nothing was to be captured.
pub(crate) async fn decide_and_capture(
    ctx: &Context,
    request: &DecisionRequest,
    loaded: &Loaded,
    capture_as: CaptureAs<'_>,
) -> Result<(DecisionResponse, Result<()>)> {
    let Asked { questions, heads } = asked_of(loaded, request.questions.as_ref())?;
    let engine = loaded.engine(ctx)?;
    let output = engine
        .decide(EngineRequest {
            model: &loaded.spec.base,
            state: &request.state,
            questions: &questions,
            heads: &heads,
            truncate: request.truncate == Some(true),
        })
        .await?;
    let example_id = ExampleId::from(
        request
            .example_id
            .clone()
            .unwrap_or_else(|| derived_example_id(&request.state)),
    );
    let wanted = loaded.spec.capture.enabled
        && request.capture != Some(false)
        && sampled(&example_id, loaded.spec.capture.sample_rate);
    let mut response = DecisionResponse {
        model: request.model.clone(),
        answers: mark_abstentions(&questions, &heads, output.answers),
        usage: output.usage,
        revision: Some(loaded.revision.clone()),
        checkpoint: Some(loaded.checkpoint.clone()),
        recorded: Some(false),
        example: None,
        decision: None,
    };
    if !wanted {
        telemetry::capture(telemetry::Capture::Skipped);
        return Ok((response, Ok(())));
    }
    // Answered only once the capture is durable.
    let captured = capture(
        ctx,
        request,
        loaded,
        &questions,
        &response,
        &example_id,
        capture_as,
    )
    .await
    .map(|(example, decision)| {
        response.recorded = Some(true);
        response.example = Some(example);
        response.decision = Some(decision);
    });
    telemetry::capture(if captured.is_ok() {
        telemetry::Capture::Recorded
    } else {
        telemetry::Capture::Failed
    });
    if captured.is_ok()
        && let Some(days) = loaded.spec.capture.retain_days
    {
        // In the background: the decision is recorded, and answered without waiting for
        // the sweep (which may delete thousands of examples) or caring how it goes.
        super::examples::retention::after_capture(ctx, &loaded.model_id, days);
    }
    Ok((response, captured))
}

#[tracing::instrument(level = "trace", name = "capture", skip_all, fields(example_id = %example_id))]
async fn capture(
    ctx: &Context,
    request: &DecisionRequest,
    loaded: &Loaded,
    questions: &Questions,
    response: &DecisionResponse,
    example_id: &ExampleId,
    capture_as: CaptureAs<'_>,
) -> Result<(ExampleRef, DecisionRef)> {
    let revision_kind = loaded.revision.kind.as_str().to_owned();
    let record = OwnedDecision {
        decision_id: capture_as.decision_id.map(str::to_owned),
        model_id: loaded.model_id,
        example_id: example_id.clone(),
        state: request.state.clone(),
        checkpoint: loaded.checkpoint.checkpoint_id.clone(),
        revision_name: loaded.revision.name.clone(),
        revision_kind,
        questions: questions_to_value(questions),
        answers: serde_json::to_value(&response.answers)
            .map_err(|e| Error::internal("serializing answers", e))?,
        usage: response.usage,
        request_id: capture_as.request_id.to_owned(),
    };
    let ctx = ctx.clone();
    blocking(move || {
        let recorded = ctx.store()?.record_decision(&record.borrow())?;
        Ok((
            ExampleRef {
                example_id: record.example_id.clone(),
                created: recorded.example_created,
            },
            DecisionRef {
                decision_id: recorded.decision_id,
                created_at: recorded.created_at,
            },
        ))
    })
    .await
}

/// A decision to record, owned so it can cross into a blocking task.
struct OwnedDecision {
    decision_id: Option<String>,
    model_id: crate::ids::ModelId,
    example_id: ExampleId,
    state: serde_json::Value,
    checkpoint: String,
    revision_name: String,
    revision_kind: String,
    questions: serde_json::Value,
    answers: serde_json::Value,
    usage: crate::wire::Usage,
    request_id: String,
}

impl OwnedDecision {
    fn borrow(&self) -> NewDecision<'_> {
        NewDecision {
            decision_id: self.decision_id.as_deref(),
            model_id: &self.model_id,
            example_id: &self.example_id,
            state: &self.state,
            checkpoint: &self.checkpoint,
            revision_name: &self.revision_name,
            revision_kind: &self.revision_kind,
            questions: &self.questions,
            answers: &self.answers,
            input_tokens: self.usage.input_tokens,
            output_tokens: self.usage.output_tokens,
            request_id: &self.request_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin::learned::file::{VERSION, read, test_files, test_head};
    use crate::wire::question::parse_questions;

    fn questions(value: &serde_json::Value) -> Questions {
        let mut errors = Vec::new();
        let parsed = parse_questions(value, &Loc::body(), &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        parsed
    }

    #[test]
    fn a_question_a_request_writes_under_a_checkpoints_id_is_asked_without_its_head() {
        let saved = questions(&serde_json::json!({
            "q": {"type": "noul", "instructions": "Is it urgent?"},
            "r": {"type": "noul"},
        }));
        let heads = read(&test_files(&test_head(), VERSION), &|_| {
            Some(vec!["true".into(), "false".into()])
        })
        .unwrap();
        assert!(heads.get("q").is_some());

        let asked = effective_questions((&saved, &heads), None);
        assert!(matches!(asked.heads, Cow::Borrowed(_)), "not copied");
        assert!(asked.heads.get("q").is_some());

        // Another question beside it: the head still answers `q`.
        let other = questions(&serde_json::json!({"s": {"type": "noul"}}));
        let asked = effective_questions((&saved, &heads), Some(&other));
        assert_eq!(asked.questions.len(), 3);
        assert!(asked.heads.get("q").is_some());

        // `q` reworded by the request: asked as written, with no head.
        let reworded =
            questions(&serde_json::json!({"q": {"type": "noul", "instructions": "Is it late?"}}));
        let asked = effective_questions((&saved, &heads), Some(&reworded));
        assert_eq!(asked.questions["q"], reworded["q"]);
        assert!(asked.heads.get("q").is_none());
        assert!(
            heads.get("q").is_some(),
            "the checkpoint's heads are untouched"
        );
    }
}

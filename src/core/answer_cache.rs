//! The answers cache evaluations and `examples next` share: a checkpoint's answers about
//! a state, keyed by everything they depend on (this arbiter's version, the engine, the
//! base model it is asked as, the questions, the state), so deciding a state again, by
//! either, costs no engine call.
//!
//! What is cached is what an evaluation reads: the state truncated to what the model reads,
//! and an aligned question never using the example as its own exemplar.

use super::{Context, blocking};
use crate::engine::{Engine, EngineRequest};
use crate::error::{Error, Result};
use crate::store::CachedAnswers;
use crate::wire::question::questions_to_value;
use crate::wire::value::canonical_hash;
use crate::wire::{Answers, Questions, Usage};
use futures_util::future::BoxFuture;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Questions to ask one engine, as one checkpoint has them.
pub(crate) struct Asking<'a> {
    pub(crate) engine: &'a dyn Engine,
    /// The base model name the engine is asked as.
    pub(crate) base: &'a str,
    pub(crate) questions: &'a Questions,
    /// [`questions_hash`] of `questions`, computed once for every state asked about.
    pub(crate) questions_hash: &'a str,
}

/// The cache key part for a set of questions as they are.
pub(crate) fn questions_hash(questions: &Questions) -> String {
    let mut value = questions_to_value(questions);
    // A learned head is not part of a question's JSON, but it changes its answers.
    for (id, question) in questions {
        if let Some(learned) = &question.learned
            && let Some(serde_json::Value::Object(members)) = value.get_mut(id)
        {
            members.insert("learned".into(), learned.digest.clone().into());
        }
    }
    canonical_hash(&value)
}

/// What lets an engine call start: the server's decision slots, so that work a request
/// does in the background competes for them like any decision. The guard is held while
/// the call computes.
pub trait Gate: Send + Sync {
    /// A guard once the call may start; an error (`overloaded`) when it may not.
    fn enter(&self) -> BoxFuture<'_, Result<Box<dyn Send + '_>>>;
}

/// No gate: every call starts at once (the command line, jobs).
pub struct Open;

impl Gate for Open {
    fn enter(&self) -> BoxFuture<'_, Result<Box<dyn Send + '_>>> {
        Box::pin(async { Ok(Box::new(()) as Box<dyn Send>) })
    }
}

/// One example's answers, and whether they came from the cache.
pub(crate) struct Answered {
    pub(crate) answers: Answers,
    /// What they cost when computed (also when read back from the cache).
    pub(crate) usage: Usage,
    pub(crate) cached: bool,
}

/// The answers to `asking` about one example's state: from the cache when they are in it,
/// else from the engine once `gate` lets the call start (and then cached).
pub(crate) async fn answers(
    ctx: &Context,
    asking: &Asking<'_>,
    example_id: &str,
    state: &Value,
    gate: &dyn Gate,
) -> Result<Answered> {
    // The questions whose exemplars include this example: they are asked without it. The
    // key names them, so a hit costs no rewriting of large aligned questions.
    let own: Vec<&String> = asking
        .questions
        .iter()
        .filter(|(_, q)| super::align::has_exemplar(q, example_id))
        .map(|(id, _)| id)
        .collect();
    let questions_key = if own.is_empty() {
        asking.questions_hash.to_owned()
    } else {
        let ids = serde_json::to_string(&own).unwrap_or_default();
        format!("{} without {example_id:?} in {ids}", asking.questions_hash)
    };
    let key = cache_key(asking.engine, asking.base, &questions_key, state);
    let cached = {
        let (ctx, key) = (ctx.clone(), key.clone());
        blocking(move || Ok(ctx.store()?.cached_answers(&key)?)).await?
    };
    if let Some(cached) = cached
        && let Ok(answers) = serde_json::from_value::<Answers>(cached.answers)
    {
        let usage = Usage {
            input_tokens: cached.input_tokens,
            output_tokens: cached.output_tokens,
        };
        return Ok(Answered {
            answers,
            usage,
            cached: true,
        });
    }
    let mut rewritten: Option<Questions> = None;
    for id in own {
        if let Some(without) = super::align::without_exemplar(&asking.questions[id], example_id) {
            rewritten
                .get_or_insert_with(|| asking.questions.clone())
                .insert(id.clone(), without);
        }
    }
    let output = {
        let _entered = gate.enter().await?;
        asking
            .engine
            .decide(EngineRequest {
                model: asking.base,
                state,
                questions: rewritten.as_ref().unwrap_or(asking.questions),
                // What the model reads of a long example, as a caller opting into
                // truncation would: the key does not name it, so it is always so.
                truncate: true,
            })
            .await?
    };
    let entry = CachedAnswers {
        answers: serde_json::to_value(&output.answers)
            .map_err(|e| Error::internal("serializing answers", e))?,
        input_tokens: output.usage.input_tokens,
        output_tokens: output.usage.output_tokens,
    };
    let ctx = ctx.clone();
    // A cache that cannot be written only costs time next run.
    if let Err(error) = blocking(move || Ok(ctx.store()?.cache_answers(&key, &entry)?)).await {
        tracing::warn!(%error, "caching answers failed");
    }
    Ok(Answered {
        answers: output.answers,
        usage: output.usage,
        cached: false,
    })
}

/// What an engine's answers depend on: the engine (and this arbiter's version of it), the
/// base model it was asked as, the questions and the state.
fn cache_key(engine: &dyn Engine, base: &str, questions_key: &str, state: &Value) -> String {
    let mut hasher = Sha256::new();
    for part in [
        env!("CARGO_PKG_VERSION"),
        &engine.describe(),
        base,
        questions_key,
        &canonical_hash(state),
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hex::encode(hasher.finalize())
}

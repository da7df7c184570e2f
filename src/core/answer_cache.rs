//! The answers cache evaluations and `examples next` share: a checkpoint's answers about
//! a state, keyed by everything they depend on (this arbiter's version, the engine, the
//! base model it is asked as, the questions, the state), so deciding a state again, by
//! either, costs no engine call. Entries are per group of questions the engine answers
//! together ([`Engine::answered_together`]; for the built-in engine, mostly one question
//! each), so a questions file with one question edited decides only that one again.
//!
//! What is cached is what an evaluation reads: the state truncated to what the model reads,
//! and an aligned question never using the example as its own exemplar.

use super::{Context, blocking};
use crate::engine::builtin::aligned;
use crate::engine::builtin::learned::Heads;
use crate::engine::{Engine, EngineRequest};
use crate::error::Result;
use crate::ids::ExampleId;
use crate::store::CachedAnswers;
use crate::wire::question::questions_to_value;
use crate::wire::value::canonical_hash;
use crate::wire::{Answers, Questions, Usage};
use futures_util::future::BoxFuture;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// Questions to ask one engine, as one checkpoint has them.
pub(crate) struct Asking<'a> {
    pub(crate) engine: &'a dyn Engine,
    /// The base model name the engine is asked as.
    pub(crate) base: &'a str,
    pub(crate) questions: &'a Questions,
    /// The checkpoint's learned heads of some of them.
    pub(crate) heads: &'a Heads,
    /// [`groups`] of `questions`, computed once for every state asked about.
    pub(crate) groups: &'a [Group],
}

/// A loaded checkpoint made ready to be asked about states: its engine, and the groups
/// its questions are answered in.
pub(crate) struct Ready {
    engine: Arc<dyn Engine>,
    groups: Vec<Group>,
}

impl Ready {
    pub(crate) async fn of(ctx: &super::Context, loaded: &super::models::Loaded) -> Result<Self> {
        let engine = loaded.engine(ctx)?;
        let groups = groups(
            engine.clone(),
            loaded.questions.clone(),
            loaded.heads.clone(),
        )
        .await?;
        Ok(Self { engine, groups })
    }

    /// `loaded`'s questions, as this asks them.
    pub(crate) fn asking<'a>(&'a self, loaded: &'a super::models::Loaded) -> Asking<'a> {
        Asking {
            engine: self.engine.as_ref(),
            base: &loaded.spec.base,
            questions: &loaded.questions,
            heads: &loaded.heads,
            groups: &self.groups,
        }
    }
}

/// Questions whose answers depend on one another ([`Engine::answered_together`]), cached
/// as one entry: an edit to one question decides its group again, and no other.
pub(crate) struct Group {
    /// Indices into the questions, ascending.
    indices: Vec<usize>,
    /// [`questions_hash`] of the group's questions.
    hash: String,
}

/// The groups `engine` answers `questions` in, each with its cache key part. Blocking: the
/// built-in engine embeds the statements it compares (once; they are cached).
pub(crate) async fn groups(
    engine: Arc<dyn Engine>,
    questions: Questions,
    heads: Heads,
) -> Result<Vec<Group>> {
    blocking(move || {
        let mut together = engine.answered_together(&questions)?;
        // Groups that do not cover each question once would lose or repeat answers: one
        // group of all is always right.
        let mut seen: Vec<usize> = together.iter().flatten().copied().collect();
        seen.sort_unstable();
        if seen != (0..questions.len()).collect::<Vec<_>>() {
            tracing::warn!("an engine's groups of questions do not cover them once");
            together = vec![(0..questions.len()).collect()];
        }
        Ok(together
            .into_iter()
            .filter(|indices| !indices.is_empty())
            .map(|mut indices| {
                indices.sort_unstable();
                let hash = questions_hash(&subset(&questions, &indices), &heads);
                Group { indices, hash }
            })
            .collect())
    })
    .await
}

/// The questions at `indices`, in that order.
fn subset(questions: &Questions, indices: &[usize]) -> Questions {
    indices
        .iter()
        .filter_map(|&i| questions.get_index(i))
        .map(|(id, q)| (id.clone(), q.clone()))
        .collect()
}

/// The cache key part for a set of questions as they are, with their learned heads.
fn questions_hash(questions: &Questions, heads: &Heads) -> String {
    let mut value = questions_to_value(questions);
    // A learned head is not part of a question's JSON, but it changes its answers.
    for id in questions.keys() {
        if let Some(learned) = heads.get(id)
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

/// The answers to `asking` about one example's state: each group of questions from the
/// cache when it is in it; the groups that are not, from one engine call once `gate` lets it
/// start (and then cached, group by group).
pub(crate) async fn answers(
    ctx: &Context,
    asking: &Asking<'_>,
    example_id: &ExampleId,
    state: &Value,
    gate: &dyn Gate,
) -> Result<Answered> {
    let keys = keys(asking, example_id, state);
    let found = look_up(ctx, keys.clone()).await?;
    let mut answers: std::collections::HashMap<String, crate::wire::Answer> =
        std::collections::HashMap::with_capacity(asking.questions.len());
    let mut usage = Usage::default();
    let mut missing: Vec<(&Group, String)> = Vec::new();
    for ((group, key), cached) in asking.groups.iter().zip(keys).zip(found) {
        let hit = cached.and_then(|c| {
            let read = serde_json::from_value::<Answers>(c.answers).ok()?;
            Some((read, c.input_tokens, c.output_tokens))
        });
        match hit {
            Some((hit, input_tokens, output_tokens)) => {
                answers.extend(hit);
                usage.input_tokens += input_tokens;
                usage.output_tokens += output_tokens;
            }
            None => missing.push((group, key)),
        }
    }
    let cached = missing.is_empty();
    if !cached {
        let output = decide_groups(asking, &missing, example_id, state, gate).await?;
        usage.input_tokens += output.usage.input_tokens;
        usage.output_tokens += output.usage.output_tokens;
        store_groups(ctx, asking, missing, &output).await;
        answers.extend(output.answers);
    }
    // In the questions' order, as one call would have answered them.
    let answers = asking
        .questions
        .keys()
        .filter_map(|id| answers.remove_entry(id))
        .collect();
    Ok(Answered {
        answers,
        usage,
        cached,
    })
}

/// Whether every answer of `asking` about one example's state is in the cache: what
/// [`answers`] would answer without an engine call.
pub(crate) async fn is_cached(
    ctx: &Context,
    asking: &Asking<'_>,
    example_id: &ExampleId,
    state: &Value,
) -> Result<bool> {
    let found = look_up(ctx, keys(asking, example_id, state)).await?;
    Ok(found.iter().all(Option::is_some))
}

/// The cache keys of every group's answers about one example's state.
fn keys(asking: &Asking<'_>, example_id: &ExampleId, state: &Value) -> Vec<String> {
    // Hashed once for every group's key.
    let state_hash = canonical_hash(state);
    asking
        .groups
        .iter()
        .map(|group| group_key(asking, group, example_id, &state_hash))
        .collect()
}

/// What the cache holds under each key.
async fn look_up(ctx: &Context, keys: Vec<String>) -> Result<Vec<Option<CachedAnswers>>> {
    let ctx = ctx.clone();
    blocking(move || {
        let store = ctx.store()?;
        keys.iter()
            .map(|key| Ok(store.cached_answers(key)?))
            .collect::<Result<Vec<_>>>()
    })
    .await
}

/// The cache key of one group's answers about one example. The questions whose exemplars
/// include this example are asked without it: the key names them, so a hit costs no
/// rewriting of large aligned questions.
fn group_key(
    asking: &Asking<'_>,
    group: &Group,
    example_id: &ExampleId,
    state_hash: &str,
) -> String {
    let own: Vec<&String> = group
        .indices
        .iter()
        .filter_map(|&i| asking.questions.get_index(i))
        .filter(|(_, q)| aligned::has_exemplar(q, example_id.as_str()))
        .map(|(id, _)| id)
        .collect();
    let questions_key = if own.is_empty() {
        group.hash.clone()
    } else {
        let ids = serde_json::to_string(&own).unwrap_or_default();
        format!("{} without {:?} in {ids}", group.hash, example_id.as_str())
    };
    cache_key(asking.engine, asking.base, &questions_key, state_hash)
}

/// One engine call for the questions of the `missing` groups (in request order), an aligned
/// question without the example as its own exemplar.
async fn decide_groups(
    asking: &Asking<'_>,
    missing: &[(&Group, String)],
    example_id: &ExampleId,
    state: &Value,
    gate: &dyn Gate,
) -> Result<crate::engine::EngineOutput> {
    let mut indices: Vec<usize> = missing
        .iter()
        .flat_map(|(group, _)| group.indices.iter().copied())
        .collect();
    indices.sort_unstable();
    let mut questions = if indices.len() == asking.questions.len() {
        asking.questions.clone()
    } else {
        subset(asking.questions, &indices)
    };
    let own: Vec<String> = questions
        .iter()
        .filter(|(_, q)| aligned::has_exemplar(q, example_id.as_str()))
        .map(|(id, _)| id.clone())
        .collect();
    for id in own {
        if let Some(without) = aligned::without_exemplar(&questions[&id], example_id.as_str()) {
            questions.insert(id, without);
        }
    }
    let _entered = gate.enter().await?;
    asking
        .engine
        .decide(EngineRequest {
            model: asking.base,
            state,
            questions: &questions,
            heads: asking.heads,
            // What the model reads of a long example, as a caller opting into
            // truncation would: the key does not name it, so it is always so.
            truncate: true,
        })
        .await
}

/// Cache each computed group's answers under its key. The call's usage is recorded with
/// the first group, so the entries of a state add up to what computing them cost. A cache
/// that cannot be written only costs time next run.
async fn store_groups(
    ctx: &Context,
    asking: &Asking<'_>,
    missing: Vec<(&Group, String)>,
    output: &crate::engine::EngineOutput,
) {
    let mut entries = Vec::with_capacity(missing.len());
    for (k, (group, key)) in missing.into_iter().enumerate() {
        let answers: Answers = group
            .indices
            .iter()
            .filter_map(|&i| asking.questions.get_index(i))
            .filter_map(|(id, _)| Some((id.clone(), output.answers.get(id)?.clone())))
            .collect();
        let Ok(answers) = serde_json::to_value(&answers) else {
            continue;
        };
        let first = k == 0;
        entries.push((
            key,
            CachedAnswers {
                answers,
                input_tokens: if first { output.usage.input_tokens } else { 0 },
                output_tokens: if first { output.usage.output_tokens } else { 0 },
            },
        ));
    }
    let ctx = ctx.clone();
    let written = blocking(move || {
        let store = ctx.store()?;
        for (key, entry) in &entries {
            store.cache_answers(key, entry)?;
        }
        Ok(())
    })
    .await;
    if let Err(error) = written {
        tracing::warn!(%error, "caching answers failed");
    }
}

/// What an engine's answers depend on: the engine (and this arbiter's version of it), the
/// base model it was asked as, the questions and the state (its [`canonical_hash`]).
fn cache_key(engine: &dyn Engine, base: &str, questions_key: &str, state_hash: &str) -> String {
    let mut hasher = Sha256::new();
    for part in [
        env!("CARGO_PKG_VERSION"),
        &engine.describe(),
        base,
        questions_key,
        state_hash,
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hex::encode(hasher.finalize())
}

//! Engines compute answers: the built-in embedding engine, or a remote decision model (a
//! System One server, or a chat model with logprobs).
//!
//! [`Engine`] is the seam: `core` asks an engine for the answers to a batch of questions
//! about one state and gets them back with token usage, whatever computes them. HTTP
//! client types stay inside this module ([`upstream`]).

pub mod builtin;
pub mod chat_logprobs;
pub mod headed;
pub mod progress;
pub mod registry;
pub mod systemone;
pub mod upstream;

use crate::config::{EngineKind, EngineSettings};
use crate::error::Result;
use crate::wire::{Answers, Questions, Usage};
use serde_json::Value;
use std::sync::Arc;

pub use registry::{Configured, Engines};

/// The engine a configured remote engine is.
pub fn remote(settings: &EngineSettings) -> Result<Arc<dyn Engine>> {
    Ok(match settings.kind {
        EngineKind::Systemone => Arc::new(systemone::SystemOneEngine::new(settings)?),
        EngineKind::ChatLogprobs => Arc::new(chat_logprobs::ChatLogprobsEngine::new(settings)?),
    })
}

/// The span of one engine pass (every question about one state), with the `gen_ai` semantic
/// conventions' attributes: `gen_ai.operation.name` (`decide` for the built-in engine and
/// a System One server, `chat` for a chat model), `gen_ai.system` (`arbiter` for the
/// built-in engine, the configured engine's name for a remote one), `gen_ai.request.model`
/// and, once answered, `gen_ai.usage.input_tokens`/`output_tokens` ([`record_usage`]).
/// `trace`: exported with traces, never a log line's prefix unless `ARBITER_LOG=trace`.
pub fn pass_span(operation: &str, system: &str, request: &EngineRequest<'_>) -> tracing::Span {
    tracing::trace_span!(
        "engine",
        otel.name = %format_args!("{operation} {}", request.model),
        gen_ai.operation.name = operation,
        gen_ai.system = system,
        gen_ai.request.model = request.model,
        questions = request.questions.len(),
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
    )
}

/// A remote engine's `pass` inside its [`pass_span`], the tokens it used recorded there.
pub async fn traced_pass(
    span: tracing::Span,
    pass: impl std::future::Future<Output = Result<EngineOutput>>,
) -> Result<EngineOutput> {
    let output = tracing::Instrument::instrument(pass, span.clone()).await;
    record_usage(&span, &output);
    output
}

/// Record on a [`pass_span`] the tokens its pass used.
pub fn record_usage(span: &tracing::Span, output: &Result<EngineOutput>) {
    if let Ok(output) = output {
        span.record("gen_ai.usage.input_tokens", output.usage.input_tokens);
        span.record("gen_ai.usage.output_tokens", output.usage.output_tokens);
    }
}

/// One decision as an engine sees it.
#[derive(Debug, Clone, Copy)]
pub struct EngineRequest<'a> {
    /// The base model name the caller asked for. A remote engine sends its configured
    /// model instead; the chat engine lets a `-reasoning` name think first.
    pub model: &'a str,
    pub state: &'a Value,
    /// Already validated; at least one question.
    pub questions: &'a Questions,
    /// The learned heads of some of them (a checkpoint's; [`learned::NONE`] for a base
    /// model): the built-in engine answers those questions with them, a remote engine has
    /// none to read.
    ///
    /// [`learned::NONE`]: crate::engine::builtin::learned::NONE
    pub heads: &'a crate::engine::builtin::learned::Heads,
    /// Read only the first [`Engine::state_budget`] tokens of a longer state instead of
    /// refusing it (`state_too_large`).
    pub truncate: bool,
}

/// What an engine returns: one answer per question, in question order.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineOutput {
    pub answers: Answers,
    pub usage: Usage,
}

/// Something that answers questions about a state.
///
/// Implementations must answer every question with its own ID and type. A question's answer
/// may depend on others of the batch only as [`Engine::answered_together`] says.
#[async_trait::async_trait]
pub trait Engine: Send + Sync {
    /// A short description for `arbiter models`, e.g. `built-in (MiniLM-L3, first window)`.
    fn describe(&self) -> String;

    /// When the model this engine answers with was released, `YYYY-MM-DD`: the built-in
    /// engine's [`builtin::RELEASE_DATE`], a remote engine's `release_date` in
    /// `config.yaml`; `None` when a remote engine's configuration does not say (nothing
    /// is guessed).
    fn release_date(&self) -> Option<&str>;

    /// How many decisions this engine should be given at once: the cores for a local
    /// engine, the in-flight limit (requests at once) for a remote one.
    fn max_in_flight(&self) -> usize {
        std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
    }

    /// The most state tokens this base model reads, if it has a limit: a longer state is
    /// refused with `state_too_large`, or, with `truncate`, read up to it.
    fn state_budget(&self) -> Option<usize> {
        None
    }

    /// Refuse now a state this model would refuse for its length (`state_too_large`),
    /// by a cheap lower bound on its tokens, so that it is refused before it waits for a
    /// slot or costs a tokenization. `model` is the name the error gives.
    fn check_state(&self, _model: &str, _state: &serde_json::Value, _truncate: bool) -> Result<()> {
        Ok(())
    }

    /// Answer every question. A remote engine fails with `upstream_unavailable` (it could
    /// not be reached in time), `upstream_failed` (it answered an error status) or
    /// `validation_error` located in `provider_response` (its answer failed validation);
    /// never with a panic, whatever it sent.
    async fn decide(&self, request: EngineRequest<'_>) -> Result<EngineOutput>;

    /// The questions of `questions` (by index) whose answers may depend on one another, as
    /// groups that cover every index once, each in request order: asked alone (with only
    /// the other members of its group, in the same order), a group is answered exactly as
    /// within the whole batch. Answers are cached per group, so editing one question
    /// decides only its group again. The default, for an engine that does not say, is one
    /// group of all (a remote model may read the questions together). May embed text:
    /// call it off the async workers.
    fn answered_together(&self, questions: &Questions) -> Result<Vec<Vec<usize>>> {
        Ok(if questions.is_empty() {
            Vec::new()
        } else {
            vec![(0..questions.len()).collect()]
        })
    }

    /// The built-in engine behind this one, if it is one: alignments fit its features.
    fn as_builtin(&self) -> Option<&builtin::BuiltinEngine> {
        None
    }

    /// For a remote engine that takes learned heads ([`headed::Headed`]): its name in
    /// `config.yaml` and the built-in engine whose features the heads read, with its
    /// answers as their prior. `None` for the built-in engine (its heads read its own
    /// zero-shot answers) and a bare remote one.
    fn heads_over(&self) -> Option<(&str, &builtin::BuiltinEngine)> {
        None
    }
}

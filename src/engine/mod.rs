//! Engines compute answers: the built-in embedding engine, or a remote decision model.
//!
//! [`Engine`] is the seam: `core` asks an engine for the answers to a batch of questions
//! about one state and gets them back with token usage, whatever computes them.

pub mod builtin;
pub mod registry;

use crate::error::Result;
use crate::wire::{Answers, Questions, Usage};
use serde_json::Value;

pub use registry::Engines;

/// One decision as an engine sees it.
#[derive(Debug, Clone, Copy)]
pub struct EngineRequest<'a> {
    /// The base model name the caller asked for (a remote engine may map it).
    pub model: &'a str,
    pub state: &'a Value,
    /// Already validated; at least one question.
    pub questions: &'a Questions,
}

/// What an engine returns: one answer per question, in question order.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineOutput {
    pub answers: Answers,
    pub usage: Usage,
}

/// Something that answers questions about a state.
///
/// Implementations must answer every question with its own ID and type, and must not let
/// one question's answer depend on the others in the batch.
#[async_trait::async_trait]
pub trait Engine: Send + Sync {
    /// A short description for `arbiter models`, e.g. `built-in (MiniLM-L3, first window)`.
    fn describe(&self) -> String;

    /// How many decisions this engine should be given at once: the cores for a local
    /// engine, the in-flight limit for a remote one.
    fn max_in_flight(&self) -> usize {
        std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
    }

    async fn decide(&self, request: EngineRequest<'_>) -> Result<EngineOutput>;

    /// The built-in engine behind this one, if it is one: alignments fit its features.
    fn as_builtin(&self) -> Option<&builtin::BuiltinEngine> {
        None
    }
}

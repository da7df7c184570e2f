//! What the operations of core are asked with: the requests of [`super::access`] and of
//! [`super::service::Service`], shared by every adapter (the command line on a local home,
//! the server, the client of a server). A leaf: it names types, and calls nothing.

use crate::ids::{ExampleId, ModelRef};
use crate::store::{Chosen, ExampleFilter};
use crate::wire::align::{AlignmentRequest, EvaluationRequest};
use crate::wire::jobs::{JobKind, JobStatus};
use std::io::BufRead;

/// An input file (or stdin), read as it is sent or staged.
pub type Input = Box<dyn BufRead + Send>;

/// What a job to create does.
pub enum JobRequest {
    /// Decisions over many states ([`super::batch`]).
    Batch {
        /// Its revision, questions, capture and working copy's questions
        /// ([`super::working`]), as a request body has them: one type for the command line,
        /// the client and the route.
        members: crate::wire::jobs::BatchMembers,
        items: BatchItems,
    },
    /// Better questions from the annotated examples ([`super::align`]).
    Alignment(AlignmentRequest),
    /// A checkpoint's figures over the annotated examples ([`super::eval`]).
    Evaluation(EvaluationRequest),
}

impl JobRequest {
    /// The kind of job this creates.
    pub fn kind(&self) -> JobKind {
        match self {
            Self::Batch { .. } => JobKind::Batch,
            Self::Evaluation(_) => JobKind::Evaluation,
            Self::Alignment(_) => JobKind::Alignment,
        }
    }
}

/// Where a batch's states come from.
pub enum BatchItems {
    /// As a request body gives them: its items, or the model's stored examples.
    Given(crate::wire::jobs::BatchItems),
    /// A request body's items as the server reads them, each a compact line (the body
    /// never a tree whole); staged as given items are.
    Compact(crate::wire::lines::CompactLines),
    /// JSON Lines of `{example_id?, state}`; blank lines are skipped and each line is
    /// checked when its turn comes.
    Lines(Input),
}

/// Who annotates: on a local home, a name (the command line's `--annotator`, else the
/// user's); a server always records its token's name, and refuses a name given here.
pub type Annotator = Option<String>;

/// The annotator a local home records when none is named.
pub const LOCAL_ANNOTATOR: &str = "local";

/// Who works on a local home: the user's name (`$USER`, else `$USERNAME`) if it is a valid
/// name, else [`LOCAL_ANNOTATOR`]. An annotation's annotator and a promotion's actor; a server
/// records its token's name instead.
pub fn local_user() -> String {
    ["USER", "USERNAME"]
        .into_iter()
        .filter_map(|var| std::env::var(var).ok())
        .find(|name| crate::wire::examples::check_annotator(name).is_ok())
        .unwrap_or_else(|| LOCAL_ANNOTATOR.to_owned())
}

/// Examples to ingest ([`super::service::ModelService::ingest`]).
pub struct IngestRequest {
    pub input: Input,
    /// All or nothing: one bad line and none is written.
    pub atomic: bool,
    /// Whose the annotations that name no annotator are.
    pub annotator: Annotator,
}

/// One annotator's answer to one question of one example ([`super::service::ModelService::annotate`]).
pub struct AnnotateRequest<'a> {
    pub example_id: &'a ExampleId,
    pub question_id: String,
    pub answer: serde_json::Value,
    pub reasoning: Option<String>,
    pub annotator: Annotator,
}

/// Which checkpoints [`super::service::ModelService::log`] lists: newest first, from `revision` (else the
/// default branch).
#[derive(Debug, Clone, Copy)]
pub struct LogQuery<'a> {
    pub revision: Option<&'a str>,
    pub limit: usize,
}

/// Which page of examples [`super::service::ModelService::list_examples`] returns: in example ID order, after
/// `after`.
#[derive(Debug, Clone, Copy)]
pub struct ExamplesQuery<'a> {
    pub filter: &'a ExampleFilter,
    pub after: Option<&'a str>,
    pub limit: usize,
}

/// Which jobs [`super::service::Service::list_jobs`] lists: of one model or all, of one status or all.
#[derive(Debug, Clone, Copy)]
pub struct JobsQuery<'a> {
    pub model: Option<&'a ModelRef>,
    pub status: Option<JobStatus>,
    /// At most this many (at least one).
    pub limit: usize,
}

/// The next example to claim for an annotator ([`super::service::ModelService::claim_next`]).
pub struct ClaimNext<'a> {
    /// How the candidates are ranked (`examples next`'s query; its `n` is not used).
    pub query: &'a crate::wire::to_annotate::ToAnnotateQuery,
    /// Examples the annotator passed over: not offered again.
    pub skip: &'a [ExampleId],
    /// Which examples may be offered at all (and are counted as left): all, or some, less
    /// a held-out set.
    pub chosen: Chosen<'a>,
    /// Who claims it (see [`Annotator`]).
    pub annotator: Annotator,
    /// When the ranking stops deciding: the candidates whose answers are cached, and those
    /// decided by then, are ranked; the rest wait for a later ranking (the web app's page,
    /// which must be ready in a moment, however cold the cache). `None`: every candidate.
    pub deadline: Option<std::time::Instant>,
}

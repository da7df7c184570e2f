//! What `models import`, `models push` and `models pull` report (`--json`): the refs that
//! moved, and what the labels file added to the store.

use crate::ids::ModelId;
use serde::{Deserialize, Serialize};

/// Where a model repository carries its labels: the annotated examples, as
/// `examples export --annotated` writes them (JSON Lines in the ingest format, sorted by
/// example ID), at the root of its tree.
pub const LABELS_FILE: &str = "examples/annotated.jsonl";

/// What kind of ref moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RefKind {
    Branch,
    Tag,
    /// `refs/arbiter/model-id`: the model's identity, a root commit whose message is the
    /// `modelId`.
    ModelId,
}

impl RefKind {
    /// Its name, as serialized (derived).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One ref that moved: created (`old` null), or moved from `old` to `new`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefMove {
    pub kind: RefKind,
    /// The branch or tag name (`model-id` for the model's identity).
    pub name: String,
    /// The full commit SHA it was at; null when it was made.
    pub old: Option<String>,
    /// The full commit SHA it is at now.
    pub new: String,
}

/// What the default branch's labels file (`examples/annotated.jsonl`) added to the store:
/// examples not there yet, and annotations of annotators who had not answered that question
/// of that example. Ingesting it again adds nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelsIngested {
    /// Examples added.
    pub created: u64,
    /// Examples that were there already (their state left as it was).
    pub existing: u64,
    /// Annotations added.
    pub annotations: u64,
}

/// What a model's travel did: `models import` (every ref made), `models push` (the URL's
/// refs moved) or `models pull` (this home's refs moved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Travelled {
    /// The model's path here.
    pub model: String,
    pub model_id: ModelId,
    /// The git repository it travelled to or from (a URL, or an absolute path).
    pub url: String,
    /// The model's default branch here.
    pub default_branch: String,
    /// The refs moved, branches then tags (each sorted by name), then the model id.
    pub moved: Vec<RefMove>,
    /// Import and pull: what the default branch's labels file added; absent when it has
    /// none (and for push).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<LabelsIngested>,
}

//! A model registry's record: what changed between two revisions (`models diff`), and who
//! moved the default branch or a tag, when, and on what evidence (`models history`).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::align::Estimate;
use super::decision::Revision;

/// What changed from one revision to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelDiff {
    pub model: String,
    pub from: Revision,
    pub to: Revision,
    /// `model.yaml`, field by field.
    pub model_yaml: Vec<Change>,
    /// `questions.yaml`, question by question (the user's file).
    pub questions: Vec<FileDiff>,
    /// The learned files `aligned/<id>.yaml`, question by question.
    pub learned: Vec<FileDiff>,
    /// The learned heads an alignment wrote (`learned/manifest.yaml` and each head's
    /// tensors), question by question: what chose it, its learner and features, the
    /// examples it was fitted on, each candidate's out-of-fold figures and its file's
    /// SHA-256 (a changed file with nothing else changed is a head fitted again alike).
    #[serde(default)]
    pub heads: Vec<FileDiff>,
    /// The fine-tuned encoder (`learned/encoder.safetensors`), field by field.
    #[serde(default)]
    pub encoder: Vec<Change>,
}

impl ModelDiff {
    /// Nothing differs.
    pub fn is_empty(&self) -> bool {
        self.model_yaml.is_empty()
            && self.questions.is_empty()
            && self.learned.is_empty()
            && self.heads.is_empty()
            && self.encoder.is_empty()
    }
}

/// One question's part of a file, added, removed or changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    pub id: String,
    pub status: DiffStatus,
    /// Field by field; for an added or removed question, its whole value at the root.
    pub changes: Vec<Change>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DiffStatus {
    Added,
    Removed,
    Changed,
}

/// One value that differs: at `path` (keys, and indexes of lists of mappings), `from` (absent
/// when added) and `to` (absent when removed). A list of plain values differs as a whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub path: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub from: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub to: Option<Value>,
}

/// What a registry event did.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    strum::Display,
    strum::EnumString,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum RegistryAction {
    /// The default branch fast-forwarded (`models promote`).
    Promote,
    /// A tag created or moved (`models tag`, `--force`).
    Tag,
    /// Something deleted: `examples/<id>` (`examples delete`, its state and all recorded
    /// of it; `to` is empty).
    Delete,
}

/// One promotion or tag move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegistryEvent {
    pub action: RegistryAction,
    /// The branch or tag that moved.
    #[serde(rename = "ref")]
    pub ref_name: String,
    /// The commit it pointed at before; null for a tag created.
    #[schema(required = true)]
    pub from: Option<String>,
    /// The commit it points at now; empty for a deletion.
    pub to: String,
    /// The token's name over HTTP; the local user on a home.
    pub actor: String,
    #[schema(value_type = String, format = DateTime)]
    pub at: super::time::Recorded,
    /// The evaluation the move relied on: the one named, else the latest completed
    /// evaluation of `to`; null when there was none.
    #[schema(required = true)]
    pub evaluation: Option<EvaluationSummary>,
}

/// The figures of an evaluation, as a registry event keeps them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EvaluationSummary {
    #[schema(value_type = String)]
    pub job_id: super::ids::JobId,
    /// The commit evaluated.
    pub commit: String,
    /// The baseline's commit, when it had one.
    #[schema(required = true)]
    pub baseline: Option<String>,
    /// Per question: accuracy with its 95% interval, and examples scored.
    #[schema(value_type = Object)]
    pub questions: IndexMap<String, QuestionSummary>,
    /// The example-weighted mean over the questions.
    pub overall: QuestionSummary,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuestionSummary {
    pub examples: u64,
    pub accuracy: f64,
    /// The accuracy's 95% bootstrap interval `[low, high]` (none for `overall`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<[f64; 2]>,
    /// The change in accuracy from the baseline, with its interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<Estimate>,
}

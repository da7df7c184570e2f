//! `GET /v1/models`: base models and repository models.

use super::validate::{self, Refusal, Rules, fields};
use super::validate::{Loc, Validated};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// The body of `GET /v1/models`: a `models` array whose entries have a `name`, as System One
/// clients expect, with Arbiter's resource fields beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ModelList {
    pub models: Vec<ModelEntry>,
}

/// `base`: a named engine; `repository`: a versioned `<owner>/<model>` repository model.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum ModelKind {
    Base,
    Repository,
}

impl ModelKind {
    /// Its name, as serialized (derived).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One model. Base models carry `engine`; repository models carry the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelEntry {
    /// The name to pass as `model` in a decision: a base model name or `<owner>/<model>`.
    pub name: String,
    pub kind: ModelKind,
    /// The engine behind a base model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub engine: Option<String>,
    /// The repository model's `modelId`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = super::ids::ModelId, required = false)]
    pub model_id: Option<super::ids::ModelId>,
    /// The repository path `<owner>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub path: Option<String>,
    /// The root (base) model of a repository model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub base: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub default_branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, format = DateTime, required = false)]
    pub created_at: Option<super::time::Committed>,
    /// The checkpoint ID (commit SHA) at the default branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub latest_checkpoint: Option<String>,
    /// What the model is, for people; null where there is nothing to say.
    #[serde(default)]
    #[schema(required = true, nullable = true)]
    pub description: Option<String>,
    /// When the model was released (`YYYY-MM-DD`), as System One clients read it under this
    /// name. A base model on the built-in engine: the date of the engine's current version.
    /// A base model routed to a remote engine: the engine's `release_date` in `config.yaml`,
    /// null when that is not given (the one case of null; `arbiter serve` warns of it). A
    /// repository model: the date (UTC) of its latest checkpoint, the commit at its default
    /// branch.
    #[serde(default, rename = "release_date")]
    #[schema(required = true, nullable = true, format = Date)]
    pub release_date: Option<String>,
}

impl ModelEntry {
    /// A base model; what its engine is also describes the model.
    pub fn base(name: &str, engine: String, release_date: Option<String>) -> Self {
        Self {
            description: Some(engine.clone()),
            name: name.to_owned(),
            kind: ModelKind::Base,
            engine: Some(engine),
            model_id: None,
            path: None,
            base: None,
            default_branch: None,
            created_at: None,
            latest_checkpoint: None,
            release_date,
        }
    }
}

/// A branch or tag and the commit it points to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RefInfo {
    pub name: String,
    pub commit: String,
}

/// One repository model, as `GET /v1/models/{modelId}` and `arbiter models show` report it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelDetail {
    pub model_id: super::ids::ModelId,
    /// `<owner>/<model>`.
    pub path: String,
    /// The root (base) model.
    pub base: String,
    pub default_branch: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: super::time::Committed,
    pub latest_checkpoint: super::decision::Checkpoint,
    pub branches: Vec<RefInfo>,
    pub tags: Vec<RefInfo>,
    pub capture: CapturePolicy,
    /// Question IDs at the default branch, in file order.
    pub questions: Vec<String>,
}

/// Whether and how often decisions are recorded.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CapturePolicy {
    pub enabled: bool,
    /// Share of examples recorded, 0 to 1 (deterministic in the example ID).
    #[schema(minimum = 0, maximum = 1)]
    pub sample_rate: f64,
    /// Days an unannotated example is kept after it was recorded; older ones are deleted
    /// with all that is recorded of them (absent: kept until deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 36500, required = false)]
    pub retain_days: Option<u32>,
}

impl Default for CapturePolicy {
    fn default() -> Self {
        Self {
            enabled: true,
            sample_rate: 1.0,
            retain_days: None,
        }
    }
}

/// The body of `POST /v1/models/{modelId}/promote`, as [`PromoteRequest::read`] reads it.
/// Other members are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(
    description = "The body of `POST /v1/models/{modelId}/promote`. Other members are ignored."
)]
pub struct PromoteRequest {
    /// The branch, tag or commit SHA to fast-forward the default branch to.
    #[serde(deserialize_with = "revision")]
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub revision: String,
    /// The evaluation job this promotion relies on (recorded in the model's history); it must
    /// be a completed evaluation of this model at the revision's commit. Default: the latest
    /// completed evaluation of that commit, if any.
    #[serde(
        default,
        deserialize_with = "evaluation",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(min_length = 1, value_type = String, required = false)]
    pub evaluation: Option<String>,
}

/// What a missing (or null) `revision` is told.
const REVISION_REQUIRED: &str = "revision (a branch, tag or commit SHA) is required";

impl Rules for PromoteRequest {
    fn required() -> &'static [&'static str] {
        &["revision"]
    }

    fn requirement(_member: &str) -> Option<&'static str> {
        Some(REVISION_REQUIRED)
    }
}

impl PromoteRequest {
    /// Read a request body, reporting every problem at once.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &Loc::body())
    }
}

/// The revision to promote: required, and null is as good as absent.
fn revision<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    fields::revision(deserializer)?
        .ok_or_else(|| Refusal::whole(REVISION_REQUIRED, "missing").raise())
}

/// An evaluation job's ID, when given: a non-empty string (not null).
fn evaluation<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let id = String::deserialize(deserializer)?;
    if id.is_empty() {
        return Err(Refusal::whole("evaluation is an evaluation job's ID", "empty").raise());
    }
    Ok(Some(id))
}

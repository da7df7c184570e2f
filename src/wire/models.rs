//! `GET /v1/models`: base models and repository models.

use serde::{Deserialize, Serialize};

/// The body of `GET /v1/models`: a `models` array whose entries have a `name`, as System One
/// clients expect, with Arbiter's resource fields beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelList {
    pub models: Vec<ModelEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    Base,
    Repository,
}

/// One model. Base models carry `engine`; repository models carry the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelEntry {
    pub name: String,
    pub kind: ModelKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest_checkpoint: Option<String>,
}

impl ModelEntry {
    pub fn base(name: &str, engine: String) -> Self {
        Self {
            name: name.to_owned(),
            kind: ModelKind::Base,
            engine: Some(engine),
            model_id: None,
            path: None,
            base: None,
            default_branch: None,
            created_at: None,
            latest_checkpoint: None,
        }
    }
}

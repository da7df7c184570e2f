//! `arbiter engines`: the configured remote engines, and what checking each one found.

use super::validate::FieldError;
use super::{Answers, Usage};
use serde::{Deserialize, Serialize};

/// `arbiter engines list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineList {
    pub engines: Vec<EngineInfo>,
}

/// One configured engine. The API key itself is never shown: only the variable it is read
/// from and whether that is set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineInfo {
    pub name: String,
    /// `systemone` or `chat-logprobs`.
    pub kind: String,
    pub url: String,
    /// The model name sent upstream.
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// Whether `api_key_env` is set (false when no variable is named).
    pub api_key_set: bool,
    pub max_in_flight: usize,
    pub timeout_secs: f64,
    pub retries: u32,
    /// Base models routed to this engine.
    pub models: Vec<String>,
}

/// `arbiter engines check`: one tiny decision per engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineChecks {
    /// Whether every engine checked answered with a valid response.
    pub ok: bool,
    pub engines: Vec<EngineCheck>,
}

/// What one engine did with the check's decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineCheck {
    pub name: String,
    pub kind: String,
    pub url: String,
    pub model: String,
    /// Reachable, and its answers validated.
    pub ok: bool,
    /// From sending the decision to its validated answers or its error, retries included.
    pub latency_ms: f64,
    /// The problem code when not ok: `upstream_unavailable` (unreachable or timed out),
    /// `upstream_failed` (an error status), `validation_error` (an invalid response).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Where an invalid response went wrong (`provider_response...`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<FieldError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Answers>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

//! `POST /v1/decision` request and response bodies.

use super::answer::Answers;
use super::question::Questions;
use super::validate::{self, Faults, Rules, fields};
use super::validate::{Loc, Validated};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Base model names (the spec's list, in display order).
pub const BASE_MODELS: [&str; 6] = [
    "mo",
    "mo-reasoning",
    "service/mo",
    "service/mo-reasoning",
    "jev-latest",
    "jev-1.13.0",
];

/// The members only a repository model takes: with a base model each is refused.
pub const REPOSITORY_ONLY: [&str; 3] = ["example_id", "revision", "capture"];

/// What [`DecisionRequest::check_base_model_fields`] demands, as JSON Schema for the
/// `DecisionRequest` schema: when `model` is a base model, `questions` is required and the
/// [`REPOSITORY_ONLY`] members are absent (or null; `capture` may also be false, which asks
/// for nothing). One `allOf` member holding the `if`/`then`, so the schema carries it under
/// one key.
pub fn base_model_rule() -> (&'static str, Value) {
    let absent: Map<String, Value> = REPOSITORY_ONLY
        .iter()
        .map(|&name| {
            let allowed = if name == "capture" {
                serde_json::json!({"enum": [null, false]})
            } else {
                serde_json::json!({"type": "null"})
            };
            (name.to_owned(), allowed)
        })
        .collect();
    (
        "allOf",
        serde_json::json!([{
            "if": {"properties": {"model": {"enum": BASE_MODELS}}, "required": ["model"]},
            "then": {"required": ["questions"], "properties": absent},
        }]),
    )
}

/// A decision request: what [`DecisionRequest::read`] produces from a body, what a client
/// serializes, and what the server's document shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(
    description = "The body of `POST /v1/decision` (and `/v1/systemone`). Members not listed are ignored."
)]
pub struct DecisionRequest {
    /// The state to evaluate: any JSON value. Images inside message arrays use image blocks
    /// (`{"type": "image_url", "image_url": {"url": "..."}}`).
    #[serde(deserialize_with = "fields::state")]
    pub state: Value,
    /// A base model name (`mo`, `mo-reasoning`, `service/mo`, `service/mo-reasoning`,
    /// `jev-latest`, `jev-1.13.0`) or an accessible repository path `<owner>/<model>`.
    #[serde(deserialize_with = "fields::non_empty")]
    #[schema(min_length = 1, examples("jev-latest", "acme/support-triage"))]
    pub model: String,
    /// Question ID (any string, even "") → question, at least one. Required with a base
    /// model; with a repository model the saved questions are loaded, and these override
    /// saved ones with the same ID and add new IDs for this call only.
    #[serde(
        default,
        deserialize_with = "super::question::optional_questions",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = crate::wire::question::QuestionsSchema, required = false)]
    pub questions: Option<Questions>,
    /// Groups the decision under an example the caller identifies (repository models
    /// only); when omitted it is derived from the canonical state.
    #[serde(
        default,
        deserialize_with = "fields::example_id",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub example_id: Option<String>,
    /// Branch, tag, full or unique short commit SHA (repository models only).
    #[serde(
        default,
        deserialize_with = "fields::revision",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub revision: Option<String>,
    /// `false` skips recording. A base model records nothing: it takes `false`, and refuses
    /// `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<bool>,
    /// `true`: read only the first tokens of a state longer than the base model reads
    /// (`usage.input_tokens` says what was read); otherwise such a state is refused with
    /// 422 `state_too_large`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncate: Option<bool>,
}

impl Rules for DecisionRequest {
    fn required() -> &'static [&'static str] {
        &["state", "model"]
    }

    fn requirement(member: &str) -> Option<&'static str> {
        match member {
            "state" => Some("state is required (any JSON value)"),
            "model" => {
                Some("model is required: a base model name or a repository path <owner>/<model>")
            }
            _ => None,
        }
    }
}

impl DecisionRequest {
    /// Read a request body, reporting every problem at once. Members the contract does not
    /// define are ignored, so clients that send more keep working.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &Loc::body())
    }

    /// Reject the members that only repository models take. `capture: false` is accepted:
    /// it asks for nothing a base model would do (nothing is ever recorded), so a script can
    /// always pass it, whatever the model.
    pub fn check_base_model_fields(&self) -> Validated<()> {
        let root = Loc::body();
        let mut faults = Faults::default();
        let present = [
            self.example_id.is_some(),
            self.revision.is_some(),
            self.capture == Some(true),
        ];
        for (name, present) in REPOSITORY_ONLY.into_iter().zip(present) {
            if present {
                faults.add(
                    root.key(name),
                    format!("{name} applies only to repository models (<owner>/<model>), not to base model `{}`", self.model),
                    "repository_only",
                );
            }
        }
        if self.questions.is_none() {
            faults.add(
                root.key("questions"),
                format!("questions are required with base model `{}`", self.model),
                "missing",
            );
        }
        faults.into_result()
    }
}

/// Token usage of one decision.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Self) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// How a revision was named.
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
pub enum RevisionKind {
    Branch,
    Tag,
    Commit,
}

/// A commit SHA as people read it: its first 12 characters (all of it when shorter). It
/// may come from a server, so it is cut at a character, never inside one.
pub fn short_commit(commit: &str) -> &str {
    commit
        .char_indices()
        .nth(12)
        .map_or(commit, |(end, _)| &commit[..end])
}

impl RevisionKind {
    /// Its name, as serialized (derived).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// The revision a repository-model decision resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Revision {
    /// The revision as requested (or the default branch).
    pub name: String,
    pub kind: RevisionKind,
    /// The full commit SHA it resolved to.
    pub commit: String,
}

/// A checkpoint: one commit of a repository model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    /// The commit SHA.
    pub checkpoint_id: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: super::time::Committed,
    /// The commit message.
    pub message: String,
}

/// The example a decision was recorded under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExampleRef {
    #[schema(value_type = String)]
    pub example_id: crate::ids::ExampleId,
    /// True when this decision made a new example.
    pub created: bool,
}

/// The recorded decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecisionRef {
    pub decision_id: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: super::time::Recorded,
}

/// The success body of `POST /v1/decision`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DecisionResponse {
    /// The model as supplied in the request.
    pub model: String,
    /// Question ID → answer: exactly one per requested question, of the question's type.
    #[schema(value_type = HashMap<String, crate::wire::answer::Answer>)]
    pub answers: Answers,
    pub usage: Usage,
    /// The resolved revision (repository models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Revision, required = false)]
    pub revision: Option<Revision>,
    /// The checkpoint used (repository models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Checkpoint, required = false)]
    pub checkpoint: Option<Checkpoint>,
    /// Whether this call was recorded (repository models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = bool, required = false)]
    pub recorded: Option<bool>,
    /// The example the decision was recorded under (when recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = ExampleRef, required = false)]
    pub example: Option<ExampleRef>,
    /// The recorded decision (when recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = DecisionRef, required = false)]
    pub decision: Option<DecisionRef>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Invalid;
    use serde_json::json;

    #[test]
    fn a_short_commit_is_cut_at_a_character() {
        assert_eq!(short_commit("0123456789abcdef"), "0123456789ab");
        assert_eq!(short_commit("abc"), "abc");
        assert_eq!(short_commit(""), "");
        // Twelve characters, not twelve bytes: a server's odd answer does not panic.
        assert_eq!(short_commit("ééééééééééééé"), "éééééééééééé");
    }

    #[test]
    fn requires_state_and_model() {
        let Err(Invalid(errors)) = DecisionRequest::read(&json!({"questions": {}})) else {
            panic!()
        };
        let located: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            located,
            vec![
                "state: state is required (any JSON value)",
                "model: model is required: a base model name or a repository path <owner>/<model>",
                "questions: at least one question is required",
            ]
        );
    }

    #[test]
    fn state_may_be_any_value_and_extra_members_are_ignored() {
        for state in [json!(null), json!(3), json!("text"), json!([1, {"a": 2}])] {
            let req =
                DecisionRequest::read(&json!({"state": state, "model": "mo", "extra": 1})).unwrap();
            assert_eq!(req.state, state);
        }
    }

    #[test]
    fn request_round_trips() {
        let body = json!({"state": {"a": 1}, "model": "acme/x", "questions": {"q": {"type": "noul"}},
            "example_id": "e1", "revision": "main", "capture": false});
        assert_eq!(
            serde_json::to_value(DecisionRequest::read(&body).unwrap()).unwrap(),
            body
        );
    }

    #[test]
    fn base_models_reject_repository_members() {
        let req =
            DecisionRequest::read(&json!({"state": 1, "model": "mo", "revision": "v1"})).unwrap();
        let err = req.check_base_model_fields().unwrap_err();
        assert_eq!(err.0.len(), 2);
    }
}

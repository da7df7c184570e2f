//! The next example to annotate, claimed for its annotator (`arbiter annotate`, `POST
//! /v1/models/{modelId}/annotation-claims`): the request's body beside the query string of
//! `examples-to-annotate`, and the answer.

use super::Loc;
use super::answer::Answer;
use super::decision::Revision;
use super::to_annotate::{Learning, Why};
use super::validate::{self, Faults, Rules, Validated};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most examples one request may pass over (`skip`).
pub const MAX_SKIP: usize = 10_000;
/// The most examples one request may choose (`ids`) or hold out (`exclude`), each.
pub const MAX_CHOSEN: usize = 100_000;

/// `POST …/annotation-claims`: what the annotator passed over already, and which examples
/// may be offered at all.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimBody {
    /// Example IDs not to offer again: those this annotator skipped (at most 10000).
    #[serde(default)]
    #[schema(max_items = 10_000)]
    pub skip: Vec<String>,
    /// Only these examples are offered, ranked and counted (at most 100000 IDs); an ID
    /// that names no example of the model is refused, each at its index. Absent: every
    /// example.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_items = 100_000, required = false)]
    pub ids: Option<Vec<String>>,
    /// Examples never offered, ranked nor counted: a held-out set (at most 100000 IDs; an
    /// ID that names no example is ignored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 100_000, required = false)]
    pub exclude: Vec<String>,
}

impl Rules for ClaimBody {
    fn check(&self, at: &Loc, faults: &mut Faults) {
        if self.skip.len() > MAX_SKIP {
            faults.add(
                at.key("skip"),
                format!("skip holds at most {MAX_SKIP} example IDs"),
                "too_long",
            );
        }
        let ids = self.ids.as_ref().map_or(0, Vec::len);
        for (name, len) in [("ids", ids), ("exclude", self.exclude.len())] {
            if len > MAX_CHOSEN {
                faults.add(
                    at.key(name),
                    format!("{name} holds at most {MAX_CHOSEN} example IDs"),
                    "too_long",
                );
            }
        }
    }
}

impl ClaimBody {
    /// Read a request body, reporting every problem at once.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &Loc::body())
    }
}

/// The next example for an annotator, and how much is left.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NextToAnnotate {
    /// The checkpoint the candidates were decided at.
    pub revision: Revision,
    /// The questions considered.
    pub questions: Vec<String>,
    /// Examples not yet annotated for at least one of `questions`, in all.
    pub unannotated: u64,
    /// Examples other annotators hold now (passed by unless drawn for the audit).
    pub claimed_by_others: u64,
    /// Per question with a learning curve at the revision (`align --curve`): whether more
    /// annotations still pay.
    #[schema(value_type = Object)]
    pub learning: IndexMap<String, Learning>,
    /// The example to annotate now; null when none is left for this annotator.
    #[schema(required = true)]
    pub example: Option<ClaimedExample>,
}

/// An example to annotate, claimed for its annotator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimedExample {
    #[schema(value_type = String)]
    pub example_id: crate::ids::ExampleId,
    /// `uncertain`: held for this annotator until `expiresAt` (or released), so no other
    /// annotator is offered it meanwhile; `audit`: drawn at random and not held, since
    /// another annotator answering it too is how agreement is measured.
    pub why: Why,
    /// Who holds it: the token's name (locally, the annotator).
    pub annotator: String,
    /// When the claim lapses unless taken again; null for an `audit` example.
    #[schema(value_type = Option<String>, required = true, format = DateTime)]
    pub expires_at: Option<super::time::Recorded>,
    /// The model's answer to each question the example is not yet annotated for, in
    /// question order.
    #[schema(value_type = Object)]
    pub answers: IndexMap<String, Answer>,
    /// The state, as stored.
    pub state: Value,
}

//! How far a model's annotators agree, per question (`examples agreement`,
//! `GET /v1/models/{modelId}/annotation-agreement`).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// The agreement of the annotators of each question at the model's default branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgreementReport {
    /// The model's path.
    pub model: String,
    /// Question ID → agreement, in the order of the questions.
    pub questions: IndexMap<String, QuestionAgreement>,
}

/// How far the annotators of one question agree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuestionAgreement {
    /// Everyone who annotated the question, with how many examples each, most first.
    pub annotators: Vec<AnnotatorCount>,
    /// Examples annotated for the question.
    pub examples: u64,
    /// Examples annotated for it by two annotators or more: the ones agreement is measured on.
    pub shared_examples: u64,
    /// `cohen` when exactly two annotators answered the shared examples, `fleiss` when more
    /// did; null when no kappa could be computed (see `reason`).
    #[schema(required = true)]
    pub method: Option<KappaMethod>,
    /// The share of pairs of annotators who gave an example the same answer (averaged per
    /// example); null without shared examples.
    #[schema(required = true)]
    pub observed_agreement: Option<f64>,
    /// The agreement expected by chance from how often each answer was given.
    #[schema(required = true)]
    pub expected_agreement: Option<f64>,
    /// (observed − expected) / (1 − expected): 1 is full agreement, 0 what chance gives.
    #[schema(required = true)]
    pub kappa: Option<f64>,
    /// Why `kappa` is null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub reason: Option<String>,
}

/// One annotator of a question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnnotatorCount {
    pub annotator: String,
    /// Examples they annotated for the question.
    pub examples: u64,
}

/// Which kappa was computed.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema, strum::Display,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum KappaMethod {
    /// Cohen's kappa: two annotators, over the examples both answered.
    Cohen,
    /// Fleiss' kappa for a varying number of annotators per example, over the examples with
    /// two or more.
    Fleiss,
}

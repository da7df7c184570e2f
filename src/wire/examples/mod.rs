//! Examples: ingest and annotation reports, pages of examples.

use super::validate::json_type;
use super::validate::{self, Refusal, Rules, fields};
use super::validate::{Invalid, Loc, Segment, Validated};
use crate::limits::{self, MAX_ANNOTATOR_CHARS, MAX_REASONING_CHARS};
use indexmap::IndexMap;
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// One example to ingest (a JSON Lines line or a JSON array's element), as `export` writes
/// it: what [`IngestExample::read`] reads, and what the server's document shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IngestExample {
    /// The example's ID [default: derived from the canonical state].
    #[serde(
        default,
        deserialize_with = "fields::example_id",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub example_id: Option<String>,
    /// The state: any JSON value.
    #[serde(deserialize_with = "fields::state")]
    pub state: Value,
    /// Question ID → ground truth, each checked against the question at the default branch:
    /// one annotation, or several annotators' (as `export` writes a question with more
    /// than one).
    #[serde(default, deserialize_with = "fields::or_default")]
    #[schema(nullable = true, required = false)]
    pub annotations: IndexMap<String, IngestAnnotations>,
}

impl Rules for IngestExample {
    fn required() -> &'static [&'static str] {
        &["state"]
    }
}

impl IngestExample {
    /// Read one example (a line, or an array's element), every fault located from its root.
    /// Whether each answer fits its question is the caller's to check.
    pub fn read(value: &Value) -> Validated<Self> {
        read_line(value, "an example")
    }
}

/// Read one line of JSON Lines (or an element of a JSON array), `what` by name, as a `T`:
/// every fault at once, each located from the line's root (`annotations.q[1].annotator`).
fn read_line<T: DeserializeOwned + Rules>(value: &Value, what: &str) -> Validated<T> {
    if !value.is_object() {
        return Err(Invalid::one(
            Loc::default(),
            format!("{what} must be an object, not {}", json_type(value)),
            "object_expected",
        ));
    }
    validate::read(value, &Loc::default())
}

/// The faults of a line as the one reason a report gives: each `loc: msg`, joined by `; `.
pub fn reason(invalid: &Invalid) -> String {
    let texts: Vec<String> = invalid.0.iter().map(ToString::to_string).collect();
    texts.join("; ")
}

/// What is wrong with `name` as an annotator's name, and its `type` code.
fn annotator_fault(name: &str) -> Option<(String, &'static str)> {
    if super::validate::is_blank(name) {
        return Some(("an annotator's name may not be empty".into(), "empty"));
    }
    let chars = name.chars().count();
    if chars > MAX_ANNOTATOR_CHARS {
        return Some((
            format!(
                "an annotator's name is {chars} characters; the limit is {MAX_ANNOTATOR_CHARS}"
            ),
            "too_long",
        ));
    }
    if name.chars().any(char::is_control) {
        return Some((
            "an annotator's name may not contain control characters".into(),
            "control_character",
        ));
    }
    None
}

/// Whether `name` may name an annotator: not blank, at most [`MAX_ANNOTATOR_CHARS`]
/// characters, no control characters (it is shown in tables).
pub fn check_annotator(name: &str) -> Result<(), String> {
    annotator_fault(name).map_or(Ok(()), |(msg, _)| Err(msg))
}

/// The optional `annotator` member: absent (or null), or a name [`check_annotator`] takes.
fn annotator<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let name = Option::<String>::deserialize(deserializer)?;
    if let Some((msg, kind)) = name.as_deref().and_then(annotator_fault) {
        return Err(Refusal::whole(msg, kind).raise());
    }
    Ok(name)
}

/// The optional `reasoning` member: absent (or null), or a text within
/// [`MAX_REASONING_CHARS`] and without NUL.
fn reasoning<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    if let Some((fault, kind)) = text
        .as_deref()
        .and_then(|text| limits::text_fault(text, MAX_REASONING_CHARS))
    {
        return Err(Refusal::of(fault, kind).raise());
    }
    Ok(text)
}

/// A text the store keeps as it is: any string without NUL.
fn stored_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let text = String::deserialize(deserializer)?;
    if let Some((fault, kind)) = limits::text_fault(&text, usize::MAX) {
        return Err(Refusal::of(fault, kind).raise());
    }
    Ok(text)
}

/// One question's ground truth in an ingest line: one annotation, or a list of several
/// annotators' (each annotator at most once).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum IngestAnnotations {
    One(IngestAnnotation),
    Many(Vec<IngestAnnotation>),
}

impl IngestAnnotations {
    /// The annotations, in the order given.
    pub fn into_vec(self) -> Vec<IngestAnnotation> {
        match self {
            Self::One(one) => vec![one],
            Self::Many(many) => many,
        }
    }
}

impl<'de> Deserialize<'de> for IngestAnnotations {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IngestAnnotationsVisitor)
    }
}

struct IngestAnnotationsVisitor;

impl<'de> Visitor<'de> for IngestAnnotationsVisitor {
    type Value = IngestAnnotations;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object {answer, reasoning?, annotator?} or a list of them")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        IngestAnnotation::deserialize(MapAccessDeserializer::new(map)).map(IngestAnnotations::One)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut many: Vec<IngestAnnotation> = Vec::new();
        while let Some(annotation) = items.next_element::<IngestAnnotation>()? {
            if let Some(name) = &annotation.annotator
                && many.iter().any(|a| a.annotator.as_ref() == Some(name))
            {
                return Err(Refusal::whole(
                    format!("`{name}` answers twice; an annotator has one answer"),
                    "duplicate_annotator",
                )
                .under(&Segment::Key("annotator".into()))
                .under(&Segment::Index(many.len()))
                .raise());
            }
            many.push(annotation);
        }
        if many.is_empty() {
            return Err(Refusal::whole(
                "an empty list; give at least one annotation, or none at all",
                "empty",
            )
            .raise());
        }
        Ok(IngestAnnotations::Many(many))
    }
}

/// One annotation in an ingest line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct IngestAnnotation {
    /// `noul`: `true`, `false` or a probability from 0 to 1; `choice`: an option key;
    /// `score`: a level index (an integer from 0 to N−1).
    pub answer: Value,
    /// Why this is the answer.
    #[serde(
        default,
        deserialize_with = "reasoning",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(max_length = 16384, pattern = "^[^\\u0000]*$")]
    pub reasoning: Option<String>,
    /// Who gave it [default: the caller: `--annotator`, the local user, or the token's name].
    #[serde(
        default,
        deserialize_with = "annotator",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(min_length = 1, max_length = 128)]
    pub annotator: Option<String>,
}

/// Ground truth for one question, as a client writes it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct AnnotationInput {
    /// `noul`: `true`, `false` or a probability from 0 to 1; `choice`: an option key;
    /// `score`: a level index (an integer from 0 to N−1).
    pub answer: Value,
    /// Why this is the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 16384, pattern = "^[^\\u0000]*$")]
    pub reasoning: Option<String>,
}

/// One line of a bulk annotation (`POST /v1/models/{modelId}/annotations`): ground truth
/// for one question of one stored example.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct AnnotationLine {
    #[schema(value_type = String, min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub example_id: crate::ids::ExampleId,
    /// The question ID.
    pub question: String,
    #[serde(flatten)]
    pub annotation: AnnotationInput,
    /// Who gave it [default: the caller: `--annotator`, the local user, or the token's name].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 128)]
    pub annotator: Option<String>,
}

/// An [`AnnotationLine`]'s members as a line writes them: read member by member, so each
/// fault is located where it is (serde's `flatten` would read the annotation's members
/// apart from the reader that locates them).
#[derive(Deserialize)]
struct LineMembers {
    #[serde(deserialize_with = "stored_text")]
    example_id: String,
    #[serde(deserialize_with = "stored_text")]
    question: String,
    answer: Value,
    #[serde(default, deserialize_with = "reasoning")]
    reasoning: Option<String>,
    #[serde(default, deserialize_with = "annotator")]
    annotator: Option<String>,
}

impl<'de> Deserialize<'de> for AnnotationLine {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let line = LineMembers::deserialize(deserializer)?;
        Ok(Self {
            example_id: line.example_id.into(),
            question: line.question,
            annotation: AnnotationInput {
                answer: line.answer,
                reasoning: line.reasoning,
            },
            annotator: line.annotator,
        })
    }
}

impl Rules for AnnotationLine {
    fn required() -> &'static [&'static str] {
        &["example_id", "question", "answer"]
    }

    fn requirement(member: &str) -> Option<&'static str> {
        match member {
            "example_id" => Some("example_id is required (a string)"),
            "question" => Some("question is required (a question ID)"),
            _ => None,
        }
    }
}

impl AnnotationLine {
    /// Read one line, every fault located from its root. Whether the answer fits its
    /// question is the caller's to check.
    pub fn read(value: &Value) -> Validated<Self> {
        read_line(value, "an annotation line")
    }
}

/// The body of `PATCH …/examples/{exampleId}/annotations`: question ID (any string, even
/// "") → annotation; all are checked before any is written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct AnnotationsPatch {
    #[serde(flatten)]
    pub annotations: IndexMap<String, AnnotationInput>,
}

impl Rules for AnnotationsPatch {}

impl AnnotationsPatch {
    /// Read the body, every fault at once, each at `["body", question, …]`.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &Loc::body())
    }
}

/// One annotation of a patch: an [`AnnotationInput`], and no annotator.
#[derive(Deserialize)]
struct PatchMembers {
    answer: Value,
    #[serde(default, deserialize_with = "reasoning")]
    reasoning: Option<String>,
    /// Said rather than ignored: whoever reads the body back would expect it kept.
    #[serde(default, rename = "annotator", deserialize_with = "no_annotator")]
    _annotator: (),
}

/// An annotator named in a patch: refused, whatever its value.
fn no_annotator<'de, D: Deserializer<'de>>(_deserializer: D) -> Result<(), D::Error> {
    Err(Refusal::whole(
        "the annotator is the token's name; it cannot be given here (an ingest or a bulk \
         annotation line may name its own)",
        "not_allowed",
    )
    .raise())
}

impl<'de> Deserialize<'de> for AnnotationsPatch {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(PatchVisitor)
    }
}

struct PatchVisitor;

impl<'de> Visitor<'de> for PatchVisitor {
    type Value = AnnotationsPatch;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of question ID to {answer, reasoning?}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // A model has at most this many questions: a patch naming more cannot be right,
        // and is refused in one fault rather than one per question.
        if let Some(refusal) = map
            .size_hint()
            .and_then(|count| fields::too_many(count, limits::MAX_QUESTIONS, "questions"))
        {
            return Err(refusal.raise());
        }
        let mut annotations = IndexMap::with_capacity(map.size_hint().unwrap_or(0));
        while let Some((question_id, members)) = map.next_entry::<String, PatchMembers>()? {
            let input = AnnotationInput {
                answer: members.answer,
                reasoning: members.reasoning,
            };
            annotations.insert(question_id, input);
        }
        Ok(AnnotationsPatch { annotations })
    }
}

/// An example with its annotations, keyed (and thus sorted) by question ID.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Example {
    #[schema(value_type = String)]
    pub example_id: crate::ids::ExampleId,
    /// The state, as ingested or first decided on: any JSON value.
    pub state: Value,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: crate::wire::time::Recorded,
    /// Question ID → ground truth.
    #[serde(default)]
    pub annotations: BTreeMap<String, Annotation>,
}

/// An answer as a filter types it (`answer=true`, `answer=2`, `answer=refund`): JSON when
/// it reads as a boolean or a number, else an option's key.
pub fn typed_answer(text: &str) -> Value {
    match serde_json::from_str::<Value>(text.trim()) {
        Ok(value @ (Value::Bool(_) | Value::Number(_))) => value,
        _ => Value::String(text.to_owned()),
    }
}

/// An answer as a filter is written: an option's key as it is, else its JSON.
pub fn answer_text(answer: &Value) -> String {
    match answer {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The ground truth of one question about one example: the answer most annotators gave
/// (a tie goes to the latest), with that answer's latest reasoning, time and annotator;
/// and every annotator's answer in `votes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Annotation {
    /// noul: `true`, `false` or a probability; choice: an option key; score: a level index.
    pub answer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub reasoning: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub annotated_at: crate::wire::time::Recorded,
    /// Who gave this answer (`unknown` for annotations written before annotators were
    /// recorded).
    #[serde(default)]
    #[schema(required = true)]
    pub annotator: String,
    /// Every annotator's answer, oldest first.
    #[serde(default)]
    #[schema(required = true)]
    pub votes: Vec<Vote>,
}

/// One annotator's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Vote {
    pub annotator: String,
    pub answer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub reasoning: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub annotated_at: crate::wire::time::Recorded,
}

/// One captured decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub decision_id: String,
    #[schema(value_type = String)]
    pub example_id: crate::ids::ExampleId,
    /// The checkpoint ID (commit SHA) decided at.
    pub checkpoint: String,
    pub revision_name: String,
    /// `branch`, `tag` or `commit`.
    pub revision_kind: String,
    /// The questions asked (question ID → question).
    pub questions: Value,
    /// The answers given (question ID → answer).
    pub answers: Value,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The `x-request-id` of the decision request.
    pub request_id: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: crate::wire::time::Recorded,
}

/// An example together with every decision taken on it (oldest first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExampleDetail {
    #[serde(flatten)]
    pub example: Example,
    pub decisions: Vec<Decision>,
}

/// One input line (or array element, 1-based) that was not ingested, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RejectedLine {
    #[schema(minimum = 1)]
    pub line: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub example_id: Option<String>,
    pub reason: String,
}

/// What an ingest or bulk annotation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IngestReport {
    /// Whether the valid items were written (false with `--atomic` when any line was bad).
    pub committed: bool,
    /// Examples inserted.
    pub created: u64,
    /// Examples that already existed (their state was left untouched).
    pub existing: u64,
    /// Annotations inserted or replaced.
    pub annotations: u64,
    /// The lines that were not ingested, and why.
    pub rejected: Vec<RejectedLine>,
}

/// A page of examples; pass `nextCursor` as `after` for the next one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExamplePage {
    /// Examples in example ID order.
    pub examples: Vec<Example>,
    /// The cursor of the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

#[cfg(test)]
mod tests;

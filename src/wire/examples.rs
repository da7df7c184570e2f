//! Examples: ingest and annotation reports, pages of examples.

use super::problem::{FieldError, Loc};
use super::question::json_type;
use crate::limits::{self, MAX_ANNOTATOR_CHARS, MAX_EXAMPLE_ID_CHARS, MAX_REASONING_CHARS};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One example to ingest (a JSON Lines line or a JSON array's element), as `export` writes
/// it: what [`IngestExample::from_value`] reads, and what the server's document shows.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IngestExample {
    /// The example's ID [default: derived from the canonical state].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub example_id: Option<String>,
    /// The state: any JSON value.
    pub state: Value,
    /// Question ID → ground truth, each checked against the question at the default branch:
    /// one annotation, or several annotators' (as `export` writes a question with more
    /// than one).
    #[serde(default)]
    #[schema(nullable = true, required = false)]
    pub annotations: IndexMap<String, IngestAnnotations>,
}

/// Whether `name` may name an annotator: not blank, at most [`MAX_ANNOTATOR_CHARS`]
/// characters, no control characters (it is shown in tables).
pub fn check_annotator(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("an annotator's name may not be empty".into());
    }
    let chars = name.chars().count();
    if chars > MAX_ANNOTATOR_CHARS {
        return Err(format!(
            "an annotator's name is {chars} characters; the limit is {MAX_ANNOTATOR_CHARS}"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("an annotator's name may not contain control characters".into());
    }
    Ok(())
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

    /// Read one annotation or a list of them; the reason starts with the member at fault
    /// (`: …`, `[1].annotator: …`), to follow the question's own location.
    fn from_value(value: &Value) -> Result<Self, String> {
        let Value::Array(items) = value else {
            return IngestAnnotation::from_value(value).map(Self::One);
        };
        if items.is_empty() {
            return Err(": an empty list; give at least one annotation, or none at all".into());
        }
        let mut many: Vec<IngestAnnotation> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let annotation =
                IngestAnnotation::from_value(item).map_err(|e| format!("[{index}]{e}"))?;
            if let Some(name) = &annotation.annotator
                && many.iter().any(|a| a.annotator.as_ref() == Some(name))
            {
                return Err(format!(
                    "[{index}].annotator: `{name}` answers twice; an annotator has one answer"
                ));
            }
            many.push(annotation);
        }
        Ok(Self::Many(many))
    }
}

/// One annotation in an ingest line.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct IngestAnnotation {
    /// `noul`: `true`, `false` or a probability from 0 to 1; `choice`: an option key;
    /// `score`: a level index (an integer from 0 to N−1).
    pub answer: Value,
    /// Why this is the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 16384, pattern = "^[^\\u0000]*$")]
    pub reasoning: Option<String>,
    /// Who gave it [default: the caller: `--annotator`, the local user, or the token's name].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 128)]
    pub annotator: Option<String>,
}

impl IngestAnnotation {
    fn from_value(value: &Value) -> Result<Self, String> {
        let input = AnnotationInput::from_value(value)?;
        let annotator = annotator_member(value).map_err(|e| format!(".annotator: {e}"))?;
        Ok(Self {
            answer: input.answer,
            reasoning: input.reasoning,
            annotator,
        })
    }
}

/// The optional `annotator` member of an object: absent (or null), or a valid name.
fn annotator_member(value: &Value) -> Result<Option<String>, String> {
    match value.get("annotator") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(name)) => check_annotator(name).map(|()| Some(name.clone())),
        Some(other) => Err(format!("must be a string, not {}", json_type(other))),
    }
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

impl IngestExample {
    /// Read one example; the reason names the member at fault. Whether each answer fits
    /// its question is the caller's to check.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        let Value::Object(object) = value else {
            return Err(format!(
                "an example must be an object, not {}",
                json_type(value)
            ));
        };
        if let Some(key) = object
            .keys()
            .find(|k| !matches!(k.as_str(), "example_id" | "state" | "annotations"))
        {
            return Err(format!(
                "unknown member `{key}` (an example has example_id, state, annotations)"
            ));
        }
        let state = object.get("state").ok_or("state is required")?.clone();
        if let Some(error) = limits::state(&state, &Loc::default()) {
            return Err(error.msg);
        }
        let example_id = match object.get("example_id") {
            None | Some(Value::Null) => None,
            Some(Value::String(id)) if id.is_empty() => {
                return Err("example_id may not be empty".into());
            }
            Some(Value::String(id)) if id.contains('\0') => {
                return Err(
                    "example_id contains a NUL character (U+0000), which is never stored".into(),
                );
            }
            Some(Value::String(id)) if id.chars().count() > MAX_EXAMPLE_ID_CHARS => {
                return Err(format!(
                    "example_id is {} characters; the limit is {MAX_EXAMPLE_ID_CHARS}",
                    id.chars().count()
                ));
            }
            Some(Value::String(id)) => Some(id.clone()),
            Some(other) => {
                return Err(format!(
                    "example_id must be a string, not {}",
                    json_type(other)
                ));
            }
        };
        let annotations = match object.get("annotations") {
            None | Some(Value::Null) => IndexMap::new(),
            Some(Value::Object(map)) => map
                .iter()
                .map(|(question_id, body)| {
                    IngestAnnotations::from_value(body)
                        .map(|annotations| (question_id.clone(), annotations))
                        .map_err(|e| format!("annotations.{question_id}{e}"))
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(format!(
                    "annotations must be an object of question ID to {{answer, reasoning?, \
                     annotator?}} (or a list of them), not {}",
                    json_type(other)
                ));
            }
        };
        Ok(Self {
            example_id,
            state,
            annotations,
        })
    }
}

/// One line of a bulk annotation (`POST /v1/models/{modelId}/annotations`): ground truth
/// for one question of one stored example.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct AnnotationLine {
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub example_id: String,
    /// The question ID.
    pub question: String,
    #[serde(flatten)]
    pub annotation: AnnotationInput,
    /// Who gave it [default: the caller: `--annotator`, the local user, or the token's name].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 128)]
    pub annotator: Option<String>,
}

impl AnnotationLine {
    /// Read one line; the reason names the member at fault.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        let example_id = value
            .get("example_id")
            .and_then(Value::as_str)
            .ok_or("example_id is required (a string)")?;
        let question = value
            .get("question")
            .and_then(Value::as_str)
            .ok_or("question is required (a question ID)")?;
        for (member, text) in [("example_id", example_id), ("question", question)] {
            if let Some(error) = limits::stored(text, &Loc::default(), member) {
                return Err(error.msg);
            }
        }
        if value.get("answer").is_none() {
            return Err("answer is required".into());
        }
        let annotation =
            AnnotationInput::from_value(value).map_err(|e| format!("annotations.{question}{e}"))?;
        let annotator = annotator_member(value).map_err(|e| format!("annotator: {e}"))?;
        Ok(Self {
            example_id: example_id.to_owned(),
            question: question.to_owned(),
            annotation,
            annotator,
        })
    }
}

/// The body of `PATCH …/examples/{exampleId}/annotations`: question ID (any string, even
/// "") → annotation; all are checked before any is written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct AnnotationsPatch {
    #[serde(flatten)]
    pub annotations: IndexMap<String, AnnotationInput>,
}

impl AnnotationsPatch {
    /// Read the body, pushing every fault onto `errors` (each at `["body", question, …]`),
    /// and return the annotations that read, so the caller can check their answers and
    /// still report every problem at once.
    pub fn read(body: &Value, errors: &mut Vec<FieldError>) -> Self {
        let Value::Object(map) = body else {
            errors.push(FieldError::new(
                Loc::body(),
                "expected an object of question ID to {answer, reasoning?}",
                "object_expected",
            ));
            return Self::default();
        };
        // A model has at most this many questions: a patch naming more cannot be right,
        // and is refused in one problem rather than one per question.
        if let Some(error) =
            limits::count(map.len(), limits::MAX_QUESTIONS, &Loc::body(), "questions")
        {
            errors.push(error);
            return Self::default();
        }
        let mut annotations = IndexMap::with_capacity(map.len());
        for (question_id, annotation) in map {
            let loc = Loc::body().key(question_id);
            let Value::Object(annotation) = annotation else {
                errors.push(FieldError::new(
                    loc,
                    "an annotation is an object {answer, reasoning?}",
                    "object_expected",
                ));
                continue;
            };
            // Said rather than ignored: whoever reads the body back would expect it kept.
            if annotation.contains_key("annotator") {
                errors.push(FieldError::new(
                    loc.key("annotator"),
                    "the annotator is the token's name; it cannot be given here (an ingest \
                     or a bulk annotation line may name its own)",
                    "not_allowed",
                ));
            }
            let reasoning = match annotation.get("reasoning") {
                None | Some(Value::Null) => None,
                Some(Value::String(text))
                    if limits::text(text, MAX_REASONING_CHARS, &loc, "").is_some() =>
                {
                    let loc = loc.key("reasoning");
                    errors.extend(limits::text(text, MAX_REASONING_CHARS, &loc, "reasoning"));
                    None
                }
                Some(Value::String(text)) => Some(text.clone()),
                Some(other) => {
                    errors.push(FieldError::new(
                        loc.key("reasoning"),
                        format!("reasoning must be a string, not {}", json_type(other)),
                        "type",
                    ));
                    None
                }
            };
            let Some(answer) = annotation.get("answer") else {
                errors.push(FieldError::new(
                    loc.key("answer"),
                    "answer is required",
                    "missing",
                ));
                continue;
            };
            let input = AnnotationInput {
                answer: answer.clone(),
                reasoning,
            };
            annotations.insert(question_id.clone(), input);
        }
        Self { annotations }
    }
}

impl AnnotationInput {
    /// Read `{answer, reasoning?}`; the reason starts with the member at fault (`: …` for
    /// the whole, `.reasoning: …`), to follow the annotation's own location.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        let Value::Object(body) = value else {
            return Err(": must be an object {answer, reasoning?}".into());
        };
        let answer = body.get("answer").ok_or(": answer is required")?.clone();
        let reasoning = match body.get("reasoning") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) if text.contains('\0') => {
                return Err(
                    ".reasoning: contains a NUL character (U+0000), which is never stored".into(),
                );
            }
            Some(Value::String(text)) if text.chars().count() > MAX_REASONING_CHARS => {
                return Err(format!(
                    ".reasoning: {} characters; the limit is {MAX_REASONING_CHARS}",
                    text.chars().count()
                ));
            }
            Some(Value::String(text)) => Some(text.clone()),
            Some(other) => {
                return Err(format!(
                    ".reasoning: must be a string, not {}",
                    json_type(other)
                ));
            }
        };
        Ok(Self { answer, reasoning })
    }
}

/// An example with its annotations, keyed (and thus sorted) by question ID.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Example {
    pub example_id: String,
    /// The state, as ingested or first decided on: any JSON value.
    pub state: Value,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// Question ID → ground truth.
    #[serde(default)]
    pub annotations: BTreeMap<String, Annotation>,
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
    #[schema(format = DateTime)]
    pub annotated_at: String,
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
    #[schema(format = DateTime)]
    pub annotated_at: String,
}

/// One captured decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub decision_id: String,
    pub example_id: String,
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
    #[schema(format = DateTime)]
    pub created_at: String,
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

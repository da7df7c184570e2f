//! The aligned-question format: what the built-in engine reads in an aligned question's
//! `instructions`. [`AlignedInstructions`] is its one definition. `arbiter align` writes
//! it, without `task`, as the question's learned file `aligned/<id>.yaml`
//! ([`AlignedInstructions::read_learned`]); loading a checkpoint puts the question's own
//! instructions in as `task`. (An alignment of before learned files wrote all of it into
//! `questions.yaml`, as below; that is still read.)
//!
//! ```yaml
//! instructions:
//!   task: What does the customer mainly want?     # the instructions as they were (any JSON)
//!   examples:                                     # exemplars: annotated states and their answers
//!     - {example_id: s-0001, answer: shipping, text: "..."}   # or the whole `state: {...}`
//!   cues:                                         # phrases that tell outcomes apart
//!     refund: [money back, return the payment]
//!   arbiter_alignment:                            # how to combine them (the calibration)
//!     version: 1
//!     method: ...                                 # the candidate that was chosen
//!     seed: 3
//!     weights: {similarity: 21.3, nearest: 9.1, top3: 4.2, top10: 2.0, cue: 0.5, level_distance: 1.1}
//!     bias: {refund: 0.12, billing: -0.3, ...}
//!     abstain: {below: 0.91, target_error: 0.05, coverage: 0.7}   # optional: x_abstain below it
//! ```
//!
//! `weights` names the [`FEATURE_NAMES`]; a feature without a weight does not count.
//! Reading never stops at the first problem: every one is reported, located in its file
//! (`["aligned/<id>.yaml", "arbiter_alignment", "weights", …]`),
//! because a hand edit of a checkpoint is refused at commit with all of them at once.
//! Members this version does not know are ignored, as they always were.

use super::{answer_outcome, outcome_keys};
use crate::wire::QuestionKind;
use crate::wire::validate::UNKNOWN_MEMBER;
use crate::wire::validate::json_type;
use crate::wire::validate::{FieldError, Loc};
use indexmap::IndexMap;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

pub use crate::wire::question::ALIGNMENT_KEY;
/// The alignment format this engine reads and alignment writes.
pub const VERSION: u64 = 1;
/// Features per outcome.
pub const FEATURES: usize = 6;
/// The features of an outcome, by their names in `weights`, in feature order:
///
/// - `similarity`: the outcome's zero-shot similarity, as the question with `task` as its
///   instructions would have it; for a noul, the true − false gap on the true side (so the
///   calibration is Platt scaling of that gap plus the neighbours);
/// - `nearest`, `top3`, `top10`: the similarity of the state to the outcome's exemplars:
///   the nearest, and the mean of the 3 and of the 10 nearest;
/// - `cue`: the similarity to the outcome's cue text;
/// - `level_distance`: for a score, minus the distance of this level from the
///   similarity-weighted mean level of the 10 nearest exemplars (0 for other kinds).
///
/// An outcome's probability is the softmax of `weights · features + bias`
/// ([`super::features`], [`super::probabilities`]).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "similarity",
    "nearest",
    "top3",
    "top10",
    "cue",
    "level_distance",
];

/// An aligned question's `instructions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlignedInstructions {
    /// The instructions the question had before alignment (absent when it had none).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub task: Option<Value>,
    /// The exemplars, in the order the alignment chose them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<ExemplarEntry>,
    /// Per outcome key, its cue phrases (outcomes without cues are left out).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub cues: IndexMap<String, Vec<String>>,
    pub arbiter_alignment: Calibration,
}

/// One exemplar: an annotated example's answer, with its state or (as `arbiter align`
/// writes it) only the text the encoder reads of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExemplarEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example_id: Option<String>,
    /// The annotated answer: it names one outcome ([`answer_outcome`]).
    pub answer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// The state's rendered text as far as the encoder reads it (its first window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The whole state (a hand-written exemplar, or an alignment of version 1's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
}

/// The `arbiter_alignment` block: how the features are combined.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub version: u64,
    /// The candidate the alignment chose (for people; the engine does not read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// The seed the alignment ran with (for people; the engine does not read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Per feature name ([`FEATURE_NAMES`]).
    pub weights: IndexMap<String, f64>,
    /// Per outcome key; a missing outcome has bias 0.
    #[serde(default)]
    pub bias: IndexMap<String, f64>,
    /// What the alignment was fitted on and judged by (for `eval`; the engine does not
    /// read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitted: Option<Fitted>,
    /// Selective prediction: answers less confident than this carry `x_abstain: true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstain: Option<Abstain>,
}

/// When an answer is better left to a person: its most likely outcome's probability is
/// below `below`, the threshold that kept the held-out error at `target_error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Abstain {
    /// A probability, 0 to 1.
    pub below: f64,
    /// The error rate the threshold was chosen for, on the held-out examples (for people).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_error: Option<f64>,
    /// The share of held-out examples it answered (for people).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<f64>,
}

impl Abstain {
    /// The abstain rule of an aligned question's `instructions`, read on its own (a
    /// decision does not parse the exemplars for it); `None` when there is none or it is
    /// malformed (a checkpoint is checked at commit).
    pub fn of(instructions: Option<&Value>) -> Option<Self> {
        let rule = instructions?.get(ALIGNMENT_KEY)?.get("abstain")?;
        Self::deserialize(rule)
            .ok()
            .filter(|rule| (0.0..=1.0).contains(&rule.below))
    }
}

/// The split an alignment made of a question's annotated examples.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fitted {
    /// Annotated examples it was fitted on (exemplars, cues, calibration, the choice).
    pub examples: u64,
    /// Annotated examples it held out and was judged by.
    pub held_out: u64,
    /// The fitted examples' record in the store: the SHA-256 of the question ID and the
    /// sorted example IDs, first 32 hex digits.
    pub id: String,
}

/// `task: null` is kept as given (it was the question's instructions), not read as absent.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl AlignedInstructions {
    /// Whether `instructions` carries an alignment (it may still be malformed).
    pub fn is_aligned(instructions: Option<&Value>) -> bool {
        matches!(instructions, Some(Value::Object(o)) if o.contains_key(ALIGNMENT_KEY))
    }

    /// Read the alignment of a question of `kind` from its `instructions` (`loc` is the
    /// question's location); `Ok(None)` when it has none. Every problem is reported.
    pub fn read(
        instructions: Option<&Value>,
        kind: &QuestionKind,
        loc: &Loc,
    ) -> Result<Option<Self>, Vec<FieldError>> {
        let Some(Value::Object(members)) = instructions else {
            return Ok(None);
        };
        if !members.contains_key(ALIGNMENT_KEY) {
            return Ok(None);
        }
        let loc = loc.key("instructions");
        let mut errors = Vec::new();
        // serde stops at the first problem; reading member by member (each with its own
        // type's `Deserialize`) goes on, leaving out what is malformed, so the checks
        // below still see the rest.
        let read = Self::read_members(members, &loc, &mut errors);
        if let Some(read) = &read {
            read.check(kind, &loc, &mut errors);
        }
        match read {
            Some(read) if errors.is_empty() => Ok(Some(read)),
            _ => Err(errors),
        }
    }

    /// Read a learned file (`aligned/<id>.yaml`: these instructions without `task`, which
    /// stays in `questions.yaml`) for a question of `kind`; `loc` is the file's location.
    /// Every problem is reported.
    pub fn read_learned(
        value: &Value,
        kind: &QuestionKind,
        loc: &Loc,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let Some(members) = object(value, loc, &mut errors) else {
            return Err(errors);
        };
        for key in members.keys() {
            if !matches!(key.as_str(), "examples" | "cues" | ALIGNMENT_KEY) {
                errors.push(FieldError::new(
                    loc.key(key),
                    format!(
                        "unknown member `{key}` (a learned file has examples, cues, \
                         {ALIGNMENT_KEY}; the task stays in questions.yaml)"
                    ),
                    UNKNOWN_MEMBER,
                ));
            }
        }
        if !members.contains_key(ALIGNMENT_KEY) {
            errors.push(FieldError::new(
                loc.key(ALIGNMENT_KEY),
                "is required",
                "missing",
            ));
            return Err(errors);
        }
        let read = Self::read_members(members, loc, &mut errors);
        if let Some(read) = &read {
            read.check(kind, loc, &mut errors);
        }
        match read {
            Some(read) if errors.is_empty() => Ok(read),
            _ => Err(errors),
        }
    }

    /// The learned file's form: everything but `task`.
    pub fn to_learned_value(&self) -> Value {
        let mut value = self.to_value();
        if let Value::Object(members) = &mut value {
            members.shift_remove("task");
        }
        value
    }

    /// The text of question `id`'s learned file (`aligned/<id>.yaml`): the calibration
    /// first, then cues, then exemplars, under a header that says what the file is.
    pub fn file_text(&self, id: &str) -> String {
        let value = self.to_learned_value();
        let mut ordered = serde_json::Map::new();
        for key in [ALIGNMENT_KEY, "cues", "examples"] {
            if let Some(member) = value.get(key) {
                ordered.insert(key.to_owned(), member.clone());
            }
        }
        let body = serde_yaml::to_string(&Value::Object(ordered)).unwrap_or_default();
        format!(
            "# What `arbiter align` learned for question `{id}`. The engine reads it beside\n\
             # questions.yaml, which alignment leaves as it is.\n{body}"
        )
    }

    /// Whether aligned `instructions` list `example_id` among their exemplars (read in
    /// place: this is asked once per example and question when a checkpoint is scored).
    pub fn has_exemplar(instructions: Option<&Value>, example_id: &str) -> bool {
        Self::is_aligned(instructions)
            && matches!(instructions.and_then(|i| i.get("examples")), Some(Value::Array(list))
                if list.iter().any(|e| e.get("example_id").and_then(Value::as_str) == Some(example_id)))
    }

    /// Leave the exemplar `example_id` out of `instructions`, the rest as it was.
    pub fn remove_exemplar(instructions: &mut Value, example_id: &str) {
        if let Some(Value::Array(list)) = instructions.get_mut("examples") {
            list.retain(|e| e.get("example_id").and_then(Value::as_str) != Some(example_id));
        }
    }

    /// The instructions as JSON, as they are written into `questions.yaml`.
    pub fn to_value(&self) -> Value {
        // Only string keys and finite numbers: serializing cannot fail.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn read_members(
        members: &Map<String, Value>,
        loc: &Loc,
        errors: &mut Vec<FieldError>,
    ) -> Option<Self> {
        let block_loc = loc.key(ALIGNMENT_KEY);
        let block = object(members.get(ALIGNMENT_KEY)?, &block_loc, errors)?;
        Some(Self {
            task: members.get("task").cloned(),
            examples: read_examples(members.get("examples"), &loc.key("examples"), errors),
            cues: read_map(
                members.get("cues"),
                &loc.key("cues"),
                errors,
                ("must be an array of phrases (strings)", "array_expected"),
            ),
            arbiter_alignment: read_calibration(block, &block_loc, errors),
        })
    }

    /// What the types cannot say: the version, the feature names, the outcomes named.
    fn check(&self, kind: &QuestionKind, loc: &Loc, errors: &mut Vec<FieldError>) {
        let keys = outcome_keys(kind);
        let block = &self.arbiter_alignment;
        let block_loc = loc.key(ALIGNMENT_KEY);
        if block.version != VERSION {
            errors.push(version_error(&block_loc, &block.version.to_string()));
        }
        for (name, weight) in &block.weights {
            let at = block_loc.key("weights").key(name);
            if !FEATURE_NAMES.contains(&name.as_str()) {
                errors.push(FieldError::new(
                    at,
                    format!("unknown feature (known: {})", FEATURE_NAMES.join(", ")),
                    "unknown_feature",
                ));
            } else if !weight.is_finite() {
                errors.push(number_error(at));
            }
        }
        if let Some(abstain) = &block.abstain
            && !(0.0..=1.0).contains(&abstain.below)
        {
            errors.push(FieldError::new(
                block_loc.key("abstain").key("below"),
                "must be a probability from 0 to 1",
                "out_of_range",
            ));
        }
        for (key, bias) in &block.bias {
            let at = block_loc.key("bias").key(key);
            if !keys.contains(key) {
                errors.push(unknown_outcome(at));
            } else if !bias.is_finite() {
                errors.push(number_error(at));
            }
        }
        for (i, exemplar) in self.examples.iter().enumerate() {
            if answer_outcome(kind, &exemplar.answer).is_none() {
                errors.push(answer_error(loc.key("examples").index(i).key("answer")));
            }
        }
        for key in self.cues.keys().filter(|key| !keys.contains(key)) {
            errors.push(unknown_outcome(loc.key("cues").key(key)));
        }
    }
}

fn read_calibration(
    block: &Map<String, Value>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Calibration {
    let version = if let Some(value) = block.get("version") {
        u64::deserialize(value).unwrap_or_else(|_| {
            errors.push(version_error(loc, &value.to_string()));
            // Reported: the check need not say it again.
            VERSION
        })
    } else {
        errors.push(version_error(loc, "a missing one"));
        VERSION
    };
    let weights_loc = loc.key("weights");
    if !block.contains_key("weights") {
        errors.push(FieldError::new(
            weights_loc.clone(),
            "is required",
            "missing",
        ));
    }
    let number = ("must be a finite number", "number_expected");
    Calibration {
        version,
        method: read_optional(block, "method", loc, errors),
        seed: read_optional(block, "seed", loc, errors),
        fitted: read_optional(block, "fitted", loc, errors),
        abstain: read_optional(block, "abstain", loc, errors),
        weights: read_map(block.get("weights"), &weights_loc, errors, number),
        bias: read_map(block.get("bias"), &loc.key("bias"), errors, number),
    }
}

/// An optional member of `T`; a malformed one is reported and left out.
fn read_optional<T: DeserializeOwned>(
    members: &Map<String, Value>,
    key: &str,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<T> {
    let value = members.get(key)?;
    match T::deserialize(value) {
        Ok(read) => Some(read),
        Err(e) => {
            errors.push(FieldError::new(loc.key(key), e.to_string(), "invalid"));
            None
        }
    }
}

/// A map of `T` by key; each malformed entry is reported (`problem`: message and kind) and
/// left out.
fn read_map<T: DeserializeOwned>(
    value: Option<&Value>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
    problem: (&str, &str),
) -> IndexMap<String, T> {
    let Some(map) = value.and_then(|v| object(v, loc, errors)) else {
        return IndexMap::new();
    };
    map.iter()
        .filter_map(|(key, v)| {
            if let Ok(read) = T::deserialize(v) {
                Some((key.clone(), read))
            } else {
                errors.push(FieldError::new(loc.key(key), problem.0, problem.1));
                None
            }
        })
        .collect()
}

fn read_examples(
    value: Option<&Value>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Vec<ExemplarEntry> {
    let Some(value) = value else {
        return Vec::new();
    };
    let Value::Array(items) = value else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("must be an array of examples, not {}", json_type(value)),
            "array_expected",
        ));
        return Vec::new();
    };
    let mut examples = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = loc.index(i);
        let Some(members) = object(item, &at, errors) else {
            continue;
        };
        // The required members, each at its own location (serde would name the item).
        let mut complete = true;
        if !members.contains_key("state") && !members.contains_key("text") {
            errors.push(FieldError::new(
                at.key("text"),
                "is required (or the whole `state`)",
                "missing",
            ));
            complete = false;
        }
        if !members.contains_key("answer") {
            errors.push(answer_error(at.key("answer")));
            complete = false;
        }
        if !complete {
            continue;
        }
        match ExemplarEntry::deserialize(item) {
            Ok(example) => examples.push(example),
            Err(e) => errors.push(FieldError::new(at, e.to_string(), "invalid")),
        }
    }
    examples
}

fn object<'a>(
    value: &'a Value,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<&'a Map<String, Value>> {
    if let Value::Object(map) = value {
        Some(map)
    } else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("must be an object, not {}", json_type(value)),
            "object_expected",
        ));
        None
    }
}

fn version_error(block_loc: &Loc, found: &str) -> FieldError {
    FieldError::new(
        block_loc.key("version"),
        format!("this arbiter reads alignment version {VERSION}, not {found}"),
        "alignment_version",
    )
}

fn number_error(loc: Loc) -> FieldError {
    FieldError::new(loc, "must be a finite number", "number_expected")
}

fn unknown_outcome(loc: Loc) -> FieldError {
    FieldError::new(loc, "not an outcome of this question", "unknown_outcome")
}

fn answer_error(loc: Loc) -> FieldError {
    FieldError::new(
        loc,
        "must name an outcome of this question",
        "invalid_answer",
    )
}

#[cfg(test)]
mod tests;

//! A checkpoint's files: `model.yaml` (root model + capture policy) and `questions.yaml`,
//! parsed and validated with every problem located in its file.

use crate::engine::builtin::aligned::{AlignedInstructions, outcome_keys};
use crate::engine::builtin::learned::Heads;
use crate::error::Error;
use crate::ids::{ExampleId, ModelPath};
use crate::wire::Questions;
pub use crate::wire::models::CapturePolicy;
use crate::wire::question::{parse_questions, questions_to_value};
use crate::wire::validate::UNKNOWN_MEMBER;
use crate::wire::validate::json_type;
use crate::wire::validate::{FieldError, Loc, Segment};
use crate::wire::value::parse_yaml;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `model.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelSpec {
    /// The root model: a base model name.
    pub base: String,
    #[serde(default)]
    pub capture: CapturePolicy,
}

impl ModelSpec {
    /// The `model.yaml` text for this spec.
    pub fn to_yaml(&self) -> String {
        let mut yaml = format!(
            "base: {}\ncapture:\n  enabled: {}\n  sample_rate: {}\n",
            serde_json::Value::from(self.base.as_str()),
            self.capture.enabled,
            self.capture.sample_rate
        );
        if let Some(days) = self.capture.retain_days {
            yaml = format!("{yaml}  retain_days: {days}\n");
        }
        yaml
    }
}

/// A committed file's YAML, with the location of its root for the problems found in it.
fn parse_file(file: &str, text: &str) -> std::result::Result<(Loc, Value), Vec<FieldError>> {
    let root = file_loc(file);
    match parse_yaml(text) {
        Ok(value) => Ok((root, value)),
        Err(e) => Err(vec![FieldError::new(
            root,
            format!("not valid YAML: {e}"),
            "yaml",
        )]),
    }
}

fn file_loc(file: &str) -> Loc {
    Loc(vec![Segment::Key(file.to_owned())])
}

/// Parse `model.yaml`; `is_base` says whether a name is a base model this process knows.
pub fn parse_model_yaml(
    text: &str,
    is_base: &dyn Fn(&str) -> bool,
) -> std::result::Result<ModelSpec, Vec<FieldError>> {
    let (root, value) = parse_file("model.yaml", text)?;
    let Value::Object(object) = &value else {
        return Err(vec![FieldError::new(
            root,
            format!("must be a mapping, not {}", json_type(&value)),
            "object_expected",
        )]);
    };
    let mut errors = Vec::new();
    for key in object
        .keys()
        .filter(|k| !matches!(k.as_str(), "base" | "capture"))
    {
        errors.push(FieldError::new(
            root.key(key),
            format!("unknown member `{key}` (model.yaml has base, capture)"),
            UNKNOWN_MEMBER,
        ));
    }
    let base = match object.get("base") {
        Some(Value::String(base)) if is_base(base) => Some(base.clone()),
        Some(Value::String(base)) => {
            errors.push(FieldError::new(
                root.key("base"),
                format!("`{base}` is not a base model (see `arbiter models`)"),
                "unknown_base",
            ));
            None
        }
        Some(other) => {
            errors.push(FieldError::new(
                root.key("base"),
                format!("base must be a string, not {}", json_type(other)),
                "string_expected",
            ));
            None
        }
        None => {
            errors.push(FieldError::new(
                root.key("base"),
                "base is required: the base model name",
                "missing",
            ));
            None
        }
    };
    let capture = parse_capture(object.get("capture"), &root.key("capture"), &mut errors);
    match base {
        Some(base) if errors.is_empty() => Ok(ModelSpec { base, capture }),
        _ => Err(errors),
    }
}

/// A hundred years: past that, leave `retain_days` out.
const MAX_RETAIN_DAYS: u64 = 36_500;

fn parse_capture(value: Option<&Value>, loc: &Loc, errors: &mut Vec<FieldError>) -> CapturePolicy {
    let mut policy = CapturePolicy::default();
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return policy;
    };
    let Value::Object(object) = value else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("capture must be a mapping, not {}", json_type(value)),
            "object_expected",
        ));
        return policy;
    };
    for (key, member) in object {
        match (key.as_str(), member) {
            ("enabled", Value::Bool(b)) => policy.enabled = *b,
            ("sample_rate", Value::Number(n))
                if n.as_f64().is_some_and(|r| (0.0..=1.0).contains(&r)) =>
            {
                policy.sample_rate = n.as_f64().unwrap_or(1.0);
            }
            ("retain_days", Value::Number(n))
                if n.as_u64()
                    .is_some_and(|days| (1..=MAX_RETAIN_DAYS).contains(&days)) =>
            {
                policy.retain_days = n.as_u64().and_then(|days| u32::try_from(days).ok());
            }
            ("retain_days", _) => errors.push(FieldError::new(
                loc.key(key),
                format!("retain_days must be a whole number of days from 1 to {MAX_RETAIN_DAYS}"),
                "out_of_range",
            )),
            ("enabled", other) => errors.push(FieldError::new(
                loc.key(key),
                format!("enabled must be a boolean, not {}", json_type(other)),
                "bool_expected",
            )),
            ("sample_rate", _) => errors.push(FieldError::new(
                loc.key(key),
                "sample_rate must be a number from 0 to 1",
                "out_of_range",
            )),
            _ => errors.push(FieldError::new(
                loc.key(key),
                format!("unknown member `{key}` (capture has enabled, sample_rate, retain_days)"),
                UNKNOWN_MEMBER,
            )),
        }
    }
    policy
}

/// Parse `questions.yaml`: a map of question ID to question; an empty file or `{}` means
/// no saved questions (callers then supply their own).
pub fn parse_questions_yaml(text: &str) -> std::result::Result<Questions, Vec<FieldError>> {
    let (root, value) = parse_file("questions.yaml", text)?;
    if value.is_null() || value.as_object().is_some_and(serde_json::Map::is_empty) {
        return Ok(Questions::new());
    }
    let mut errors = Vec::new();
    let questions = parse_questions(&value, &root, &mut errors);
    // An aligned question's alignment block is checked here, so a hand edit that breaks it
    // is refused at commit, located in the file, instead of failing decisions later.
    for (id, question) in &questions {
        if let Err(found) = crate::engine::builtin::aligned::parse(question, &root.key(id)) {
            errors.extend(found);
        }
        errors.extend(demonstrations_checked(question, &root.key(id)));
    }
    if errors.is_empty() {
        Ok(questions)
    } else {
        Err(errors)
    }
}

/// A checkpoint's questions and the heads alignment fitted for some of them.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointQuestions {
    pub questions: Questions,
    pub heads: Heads,
}

/// A checkpoint's questions: `questions.yaml` with each question's learned file
/// (`aligned/<id>.yaml`, written by `arbiter align`) applied to it, as the engines read
/// them: the question's instructions become its `task` beside what was learned; and the
/// learned heads of `learned/`. Every problem is reported, located in its file. A learned
/// file whose question is gone is not read.
pub fn parse_questions_files(
    questions_yaml: &str,
    aligned: &[(String, String)],
    learned: &[(String, Vec<u8>)],
) -> std::result::Result<CheckpointQuestions, Vec<FieldError>> {
    let mut questions = parse_questions_yaml(questions_yaml)?;
    let mut errors = Vec::new();
    // Learned parameters first. A question that has them may have an `aligned/` file too,
    // only to correct the zero-shot answer its head reads as its prior: no exemplar, no cue.
    let outcomes_of =
        |id: &str| -> Option<Vec<String>> { questions.get(id).map(|q| outcome_keys(&q.kind)) };
    let heads = crate::engine::builtin::learned::file::read(learned, &outcomes_of).unwrap_or_else(
        |found| {
            errors.extend(found);
            Heads::default()
        },
    );
    for (id, text) in aligned {
        let Some(question) = questions.get_mut(id) else {
            continue;
        };
        let file = format!("{}/{id}.yaml", crate::repo::ALIGNED_DIR);
        let (loc, value) = match parse_file(&file, text) {
            Ok(parsed) => parsed,
            Err(found) => {
                errors.extend(found);
                continue;
            }
        };
        if crate::engine::builtin::aligned::is_aligned(question) {
            errors.push(FieldError::new(
                loc,
                format!("question `{id}` is aligned in questions.yaml already"),
                "aligned_twice",
            ));
            continue;
        }
        match AlignedInstructions::read_learned(&value, &question.kind, &loc) {
            Ok(learned)
                if heads.get(id).is_some()
                    && (!learned.examples.is_empty() || !learned.cues.is_empty()) =>
            {
                errors.push(FieldError::new(
                    loc,
                    format!(
                        "question `{id}` has learned parameters in learned/ already: beside \
                         them its aligned file may only correct the zero-shot answer, with no \
                         examples or cues"
                    ),
                    "aligned_twice",
                ));
            }
            Ok(mut learned) => {
                learned.task = question.instructions.take();
                question.instructions = Some(learned.to_value());
            }
            Err(found) => errors.extend(found),
        }
    }
    if errors.is_empty() {
        Ok(CheckpointQuestions { questions, heads })
    } else {
        Err(errors)
    }
}

/// The `questions.yaml` text for a question map (JSON is YAML, and keeps every form exact).
/// The faults of a question's demonstrations, each answer among them naming one of its
/// outcomes.
fn demonstrations_checked(question: &crate::wire::Question, loc: &Loc) -> Vec<FieldError> {
    use crate::wire::question::demonstrations::{self, DEMONSTRATIONS};
    let mut errors = demonstrations::check(question, loc);
    if !errors.is_empty() {
        return errors;
    }
    let keys = crate::engine::builtin::aligned::outcome_keys(&question.kind);
    for (i, demonstration) in question.demonstrations().iter().enumerate() {
        if crate::engine::builtin::aligned::answer_outcome(&question.kind, &demonstration.answer)
            .is_none()
        {
            errors.push(FieldError::new(
                loc.key("instructions")
                    .key(DEMONSTRATIONS)
                    .index(i)
                    .key("answer"),
                format!("must name one of the outcomes ({})", keys.join(", ")),
                "unknown_outcome",
            ));
        }
    }
    errors
}

pub fn questions_to_yaml(questions: &Questions) -> String {
    let mut text = serde_json::to_string_pretty(&questions_to_value(questions)).unwrap_or_default();
    text.push('\n');
    text
}

/// Validation problems in files about to be committed.
pub fn invalid_files(errors: Vec<FieldError>) -> Error {
    Error::Validation(errors)
}

/// Validation problems in files already committed at `commit`.
pub fn invalid_checkpoint(model: &ModelPath, commit: &str, errors: Vec<FieldError>) -> Error {
    let summary = errors.first().map(ToString::to_string).unwrap_or_default();
    Error::InvalidCheckpoint {
        detail: format!(
            "checkpoint {} of {model} is not a valid model: {summary}",
            &commit[..commit.len().min(12)]
        ),
        details: errors,
    }
}

/// Whether an example is recorded at `rate`: the same example is always in or always out.
pub fn sampled(example_id: &ExampleId, rate: f64) -> bool {
    use sha2::{Digest, Sha256};
    if rate >= 1.0 {
        return true;
    }
    let digest = Sha256::digest(example_id.as_str().as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(bytes) as f64 / 18_446_744_073_709_551_616.0) < rate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(name: &str) -> bool {
        name == "jev-latest"
    }

    #[test]
    fn model_yaml_round_trips_and_defaults() {
        let spec = parse_model_yaml("base: jev-latest\n", &known).unwrap();
        assert_eq!(
            spec.capture,
            CapturePolicy {
                enabled: true,
                sample_rate: 1.0,
                retain_days: None,
            }
        );
        let custom = ModelSpec {
            base: "jev-latest".into(),
            capture: CapturePolicy {
                enabled: false,
                sample_rate: 0.25,
                retain_days: Some(30),
            },
        };
        assert_eq!(parse_model_yaml(&custom.to_yaml(), &known).unwrap(), custom);
    }

    #[test]
    fn model_yaml_errors_are_located() {
        let errors = parse_model_yaml(
            "base: gpt\ncapture: {enabled: 1, sample_rate: 2, retain_days: 0}\nextra: 1\n",
            &known,
        )
        .unwrap_err();
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            vec![
                "model.yaml.extra: unknown member `extra` (model.yaml has base, capture)",
                "model.yaml.base: `gpt` is not a base model (see `arbiter models`)",
                "model.yaml.capture.enabled: enabled must be a boolean, not a number",
                "model.yaml.capture.sample_rate: sample_rate must be a number from 0 to 1",
                "model.yaml.capture.retain_days: retain_days must be a whole number of days \
                 from 1 to 36500",
            ]
        );
        assert_eq!(
            parse_model_yaml("- a\n", &known).unwrap_err()[0].kind,
            "object_expected"
        );
        assert_eq!(
            parse_model_yaml("base: [", &known).unwrap_err()[0].kind,
            "yaml"
        );
    }

    #[test]
    fn questions_yaml_may_be_empty_but_not_invalid() {
        assert!(parse_questions_yaml("").unwrap().is_empty());
        assert!(parse_questions_yaml("{}").unwrap().is_empty());
        let errors =
            parse_questions_yaml("q:\n  type: score\n  criteria: [a, null]\n").unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "questions.yaml.q.criteria[1]: a score level may not be null"
        );
        let questions = parse_questions_yaml("q: {type: noul}\n").unwrap();
        assert_eq!(
            parse_questions_yaml(&questions_to_yaml(&questions)).unwrap(),
            questions
        );
    }

    #[test]
    fn a_learned_file_joins_its_question_and_its_problems_are_located_in_it() {
        let questions = "# mine\nq: {type: noul, instructions: Is it urgent?}\nr: {type: noul}\n";
        let learned = "arbiter_alignment: {version: 1, weights: {similarity: 3.5}}\n\
                       cues: {'true': [asap]}\n\
                       examples: [{example_id: e1, answer: true, text: now please}]\n";
        let parsed = parse_questions_files(
            questions,
            &[
                ("q".to_owned(), learned.to_owned()),
                ("gone".to_owned(), "not: read".to_owned()),
            ],
            &[],
        )
        .unwrap()
        .questions;
        let instructions = parsed["q"].instructions.as_ref().unwrap();
        assert_eq!(instructions["task"], "Is it urgent?");
        assert_eq!(instructions["cues"]["true"][0], "asap");
        assert_eq!(instructions["examples"][0]["text"], "now please");
        assert!(crate::engine::builtin::aligned::is_aligned(&parsed["q"]));
        assert_eq!(parsed["r"].instructions, None);

        let shown = |aligned: &[(&str, &str)]| -> Vec<String> {
            let aligned: Vec<(String, String)> = aligned
                .iter()
                .map(|(q, t)| ((*q).to_owned(), (*t).to_owned()))
                .collect();
            parse_questions_files(questions, &aligned, &[])
                .unwrap_err()
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        assert_eq!(
            shown(&[(
                "q",
                "task: x\narbiter_alignment: {version: 2, weights: {speed: 1}}\nexamples: [{answer: maybe}]\n"
            )]),
            [
                "aligned/q.yaml.task: unknown member `task` (a learned file has examples, cues, arbiter_alignment; the task stays in questions.yaml)",
                "aligned/q.yaml.examples[0].text: is required (or the whole `state`)",
                "aligned/q.yaml.arbiter_alignment.version: this arbiter reads alignment version 1, not 2",
                "aligned/q.yaml.arbiter_alignment.weights.speed: unknown feature (known: similarity, nearest, top3, top10, cue, level_distance)",
            ]
        );
        assert_eq!(
            shown(&[("r", "[")])[0],
            "aligned/r.yaml: not valid YAML: did not find expected node content at line 2 column 1, while parsing a flow node"
        );
        assert_eq!(
            shown(&[("r", "cues: {}\n")]),
            ["aligned/r.yaml.arbiter_alignment: is required"]
        );
    }

    #[test]
    fn a_head_sits_beside_a_correction_of_its_prior_but_not_beside_exemplars() {
        use crate::engine::builtin::learned::file::{VERSION, test_files, test_head};
        let questions = "q: {type: noul, instructions: Is it urgent?}\n";
        let learned = test_files(&test_head(), VERSION);
        let aligned = |text: &str| vec![("q".to_owned(), text.to_owned())];
        let correction =
            "arbiter_alignment: {version: 1, weights: {similarity: 3.5}, bias: {'true': -0.2}}\n";
        let parsed = parse_questions_files(questions, &aligned(correction), &learned).unwrap();
        assert!(parsed.heads.get("q").is_some());
        let instructions = parsed.questions["q"].instructions.as_ref().unwrap();
        assert_eq!(instructions["task"], "Is it urgent?");
        assert_eq!(
            instructions["arbiter_alignment"]["bias"]["true"],
            serde_json::json!(-0.2)
        );
        let exemplars = "arbiter_alignment: {version: 1, weights: {similarity: 3.5}}\n\
                         examples: [{example_id: e1, answer: true, text: now please}]\n";
        let errors = parse_questions_files(questions, &aligned(exemplars), &learned).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].kind, "aligned_twice");
        assert_eq!(errors[0].loc.to_string(), "aligned/q.yaml");
    }

    #[test]
    fn sampling_is_deterministic_and_close_to_the_rate() {
        let ids: Vec<ExampleId> = (0..10_000)
            .map(|i| ExampleId::from(format!("ex_{i}")))
            .collect();
        let kept = ids.iter().filter(|id| sampled(id, 0.3)).count();
        assert!((2_800..3_200).contains(&kept), "{kept}");
        assert!(ids.iter().all(|id| sampled(id, 0.3) == sampled(id, 0.3)));
        assert!(ids.iter().all(|id| sampled(id, 1.0)));
        assert!(!ids.iter().any(|id| sampled(id, 0.0)));
    }
}

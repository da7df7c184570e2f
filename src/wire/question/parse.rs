//! Reading questions from JSON, every fault at its location in one pass.

use super::{Question, QuestionKind, Questions, json_type};
use crate::limits;
use crate::wire::problem::{FieldError, Loc};
use serde_json::Value;

/// Parse a question map at `loc`, pushing every problem found onto `errors`.
/// Returns the questions that parsed, so callers can still report all errors at once.
pub fn parse_questions(value: &Value, loc: &Loc, errors: &mut Vec<FieldError>) -> Questions {
    let Value::Object(map) = value else {
        errors.push(FieldError::new(
            loc.clone(),
            format!(
                "questions must be an object of question ID to question, not {}",
                json_type(value)
            ),
            "object_expected",
        ));
        return Questions::new();
    };
    if map.is_empty() {
        errors.push(FieldError::new(
            loc.clone(),
            "at least one question is required",
            "empty_questions",
        ));
    }
    if let Some(error) = limits::count(map.len(), limits::MAX_QUESTIONS, loc, "questions") {
        // Past the count, each question is not read: the one fault is the count.
        errors.push(error);
        return Questions::new();
    }
    let mut questions = Questions::with_capacity(map.len());
    for (id, value) in map {
        if let Some(error) = limits::text(
            id,
            limits::MAX_QUESTION_ID_CHARS,
            &loc.key(id),
            "the question ID",
        ) {
            errors.push(error);
            continue;
        }
        if let Some(question) = parse_question(value, &loc.key(id), errors) {
            questions.insert(id.clone(), question);
        }
    }
    questions
}

/// Parse one question object at `loc`.
pub fn parse_question(value: &Value, loc: &Loc, errors: &mut Vec<FieldError>) -> Option<Question> {
    let Value::Object(object) = value else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("a question must be an object, not {}", json_type(value)),
            "object_expected",
        ));
        return None;
    };
    let before = errors.len();
    for key in object.keys() {
        if !matches!(key.as_str(), "type" | "instructions" | "criteria") {
            errors.push(FieldError::new(
                loc.key(key),
                format!("unknown member `{key}` (a question has type, instructions, criteria)"),
                "unknown_member",
            ));
        }
    }
    if let Some(error) = object
        .get("instructions")
        .and_then(|instructions| instructions_limit(instructions, &loc.key("instructions")))
    {
        errors.push(error);
    }
    let criteria = object.get("criteria");
    let criteria_loc = loc.key("criteria");
    let kind = match object.get("type") {
        None => {
            errors.push(FieldError::new(
                loc.key("type"),
                "type is required: one of noul, choice, score",
                "missing",
            ));
            None
        }
        Some(Value::String(t)) if t == "noul" => Some(parse_noul(criteria, &criteria_loc, errors)),
        Some(Value::String(t)) if t == "choice" => parse_choice(criteria, &criteria_loc, errors),
        Some(Value::String(t)) if t == "score" => parse_score(criteria, &criteria_loc, errors),
        Some(other) => {
            errors.push(FieldError::new(
                loc.key("type"),
                format!("unknown question type {other}: expected noul, choice or score"),
                "unknown_type",
            ));
            None
        }
    };
    let kind = kind.filter(|_| errors.len() == before)?;
    Some(Question {
        instructions: object.get("instructions").cloned(),
        kind,
        learned: None,
    })
}

fn parse_noul(criteria: Option<&Value>, loc: &Loc, errors: &mut Vec<FieldError>) -> QuestionKind {
    let (mut when_true, mut when_false) = (Value::Null, Value::Null);
    match criteria {
        None | Some(Value::Null) => {}
        Some(Value::Object(members)) => {
            for (key, description) in members {
                let slot = match key.as_str() {
                    "true" => &mut when_true,
                    "false" => &mut when_false,
                    _ => {
                        errors.push(FieldError::new(
                            loc.key(key),
                            format!(
                                "unknown member `{key}`: noul criteria have only `true` and `false`"
                            ),
                            "unknown_member",
                        ));
                        continue;
                    }
                };
                if check_description(description, &loc.key(key), true, errors) {
                    *slot = description.clone();
                }
            }
        }
        Some(other) => errors.push(FieldError::new(
            loc.clone(),
            format!(
                "noul criteria must be null or an object with `true` and `false`, not {}",
                json_type(other)
            ),
            "object_expected",
        )),
    }
    QuestionKind::Noul {
        when_true,
        when_false,
    }
}

fn parse_choice(
    criteria: Option<&Value>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<QuestionKind> {
    let Some(Value::Object(members)) = criteria else {
        errors.push(FieldError::new(
            loc.clone(),
            match criteria {
                None => "choice criteria are required: an object of option key to description"
                    .to_owned(),
                Some(other) => format!(
                    "choice criteria must be an object of option key to description, not {}",
                    json_type(other)
                ),
            },
            if criteria.is_none() {
                "missing"
            } else {
                "object_expected"
            },
        ));
        return None;
    };
    if let Some(error) = limits::count(members.len(), limits::MAX_OPTIONS, loc, "options") {
        errors.push(error);
        return None;
    }
    let mut options = Vec::with_capacity(members.len());
    for (key, description) in members {
        if key.is_empty() {
            errors.push(FieldError::new(
                loc.key(key),
                "an option key may not be empty",
                "empty_option_key",
            ));
        }
        if let Some(error) = limits::text(
            key,
            limits::MAX_OPTION_KEY_CHARS,
            &loc.key(key),
            "the option key",
        ) {
            errors.push(error);
        }
        check_description(description, &loc.key(key), true, errors);
        options.push((key.clone(), description.clone()));
    }
    Some(QuestionKind::Choice { options })
}

fn parse_score(
    criteria: Option<&Value>,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<QuestionKind> {
    let Some(Value::Array(levels)) = criteria else {
        errors.push(FieldError::new(
            loc.clone(),
            match criteria {
                None => {
                    "score criteria are required: an array of rubric level descriptions".to_owned()
                }
                Some(other) => format!(
                    "score criteria must be an array of rubric level descriptions, not {}",
                    json_type(other)
                ),
            },
            if criteria.is_none() {
                "missing"
            } else {
                "array_expected"
            },
        ));
        return None;
    };
    if levels.is_empty() {
        errors.push(FieldError::new(
            loc.clone(),
            "a score needs at least one level",
            "empty_levels",
        ));
    }
    if let Some(error) = limits::count(levels.len(), limits::MAX_OPTIONS, loc, "levels") {
        errors.push(error);
        return None;
    }
    for (i, level) in levels.iter().enumerate() {
        if level.is_null() {
            errors.push(FieldError::new(
                loc.index(i),
                "a score level may not be null",
                "null_level",
            ));
        } else {
            check_description(level, &loc.index(i), false, errors);
        }
    }
    Some(QuestionKind::Score {
        levels: levels.clone(),
    })
}

/// Instructions past the limit on a question's text. An aligned question's instructions
/// (what `arbiter align` wrote into `questions.yaml` before learned files, or what a client
/// sends back of it) are measured by their `task`, the instructions as written: the rest
/// is the alignment's, exemplars included, and checked as such.
fn instructions_limit(instructions: &Value, loc: &Loc) -> Option<FieldError> {
    use super::ALIGNMENT_KEY;
    match instructions {
        Value::Object(members) if members.contains_key(ALIGNMENT_KEY) => members
            .get("task")
            .and_then(|task| limits::question_text(task, &loc.key("task"), "the task")),
        other => limits::question_text(other, loc, "instructions"),
    }
}

/// A description is a string, an object or an array (null where `nullable`), within the
/// limit on a question's text.
fn check_description(
    value: &Value,
    loc: &Loc,
    nullable: bool,
    errors: &mut Vec<FieldError>,
) -> bool {
    match value {
        Value::String(_) | Value::Object(_) | Value::Array(_) => {
            match limits::question_text(value, loc, "the description") {
                Some(error) => {
                    errors.push(error);
                    false
                }
                None => true,
            }
        }
        Value::Null if nullable => true,
        other => {
            errors.push(FieldError::new(
                loc.clone(),
                format!(
                    "a description must be a string, object or array{}, not {}",
                    if nullable { " (or null)" } else { "" },
                    json_type(other)
                ),
                "description_type",
            ));
            false
        }
    }
}

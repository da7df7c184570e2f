//! Question objects: `{type, instructions?, criteria?}` keyed by any string ID.
//!
//! Parsing collects every problem in one pass, each at its location, so a caller fixes a
//! question file in one round trip instead of one error at a time.

use super::problem::{FieldError, Loc};
use crate::limits;
use indexmap::IndexMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// Question ID → question, in request order (the order decides choice ties and output order).
pub type Questions = IndexMap<String, Question>;

/// One question. `instructions` is `None` when absent; any JSON value (null included) otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub instructions: Option<Value>,
    pub kind: QuestionKind,
    /// What an alignment learned for it, when it comes from a checkpoint that has learned
    /// parameters for it (`learned/`); never from a request. Not part of its JSON.
    pub learned: Option<std::sync::Arc<crate::learned::Learned>>,
}

/// The typed part of a question. Descriptions keep their JSON form (string, object, array).
#[derive(Debug, Clone, PartialEq)]
pub enum QuestionKind {
    /// Probability that a statement holds; each description may be null.
    Noul { when_true: Value, when_false: Value },
    /// Named options, in order; a description may be null. No minimum count.
    Choice { options: Vec<(String, Value)> },
    /// Rubric levels 0..N-1, N ≥ 1, none null.
    Score { levels: Vec<Value> },
}

impl QuestionKind {
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Noul { .. } => "noul",
            Self::Choice { .. } => "choice",
            Self::Score { .. } => "score",
        }
    }
}

impl Question {
    /// The instructions unless absent or null.
    pub fn instructions(&self) -> Option<&Value> {
        self.instructions.as_ref().filter(|v| !v.is_null())
    }

    /// The canonical JSON object of this question.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl Serialize for Question {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        QuestionDoc::from(self).serialize(serializer)
    }
}

/// A question as it is written: what clients send, what the server's document shows
/// (`Question`) and what a [`Question`] serializes as. The server reads a body with
/// [`parse_question`], which reports every fault at once; a test checks that it accepts
/// exactly what this schema does.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(
    as = Question,
    description = "A typed question, under a caller-chosen ID (any string, even \"\").",
    examples(
        json!({"type": "noul", "instructions": "Is the customer angry?"}),
        json!({"type": "choice", "criteria": {"refund": "Wants a refund.", "other": null}}),
        json!({"type": "score", "criteria": ["calm", "annoyed", {"text": "furious"}]})
    )
)]
pub enum QuestionDoc {
    Noul(NoulQuestion),
    Choice(ChoiceQuestion),
    Score(ScoreQuestion),
}

/// The probability that a statement holds.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoulQuestion {
    #[serde(rename = "type")]
    pub kind: NoulType,
    /// Any JSON value, null included.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false, schema_with = instructions)]
    pub instructions: Option<Value>,
    /// What makes the statement true or false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria: Option<NoulCriteria>,
}

/// One of named options, in order; no minimum number of options.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChoiceQuestion {
    #[serde(rename = "type")]
    pub kind: ChoiceType,
    /// Any JSON value, null included.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false, schema_with = instructions)]
    pub instructions: Option<Value>,
    /// Option key (not empty) → description or null.
    #[schema(schema_with = choice_criteria)]
    pub criteria: IndexMap<OptionKey, OptionDescription>,
}

/// A level on a rubric: N levels span 0 to N−1.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreQuestion {
    #[serde(rename = "type")]
    pub kind: ScoreType,
    /// Any JSON value, null included.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false, schema_with = instructions)]
    pub instructions: Option<Value>,
    /// The rubric's level descriptions, in order; none null.
    #[schema(min_items = 1, max_items = 256)]
    pub criteria: Vec<Description>,
}

/// The `type` of a noul question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum NoulType {
    Noul,
}

/// The `type` of a choice question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChoiceType {
    Choice,
}

/// The `type` of a score question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ScoreType {
    Score,
}

/// A question map as it is written: question ID (any string, even "") → question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuestionsDoc {
    #[serde(flatten)]
    pub questions: IndexMap<String, QuestionDoc>,
}

// Written out, not derived: a map's count and its keys' length cannot be said with the
// derive's attributes. The figures are the limits' ([`crate::limits`]).
impl utoipa::PartialSchema for QuestionsDoc {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "Question ID (any string, even \"\") → question; at least one.",
            ))
            .property_names(Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .max_length(Some(crate::limits::MAX_QUESTION_ID_CHARS))
                    .pattern(Some(crate::limits::NO_NUL)),
            ))
            .additional_properties(Some(utoipa::openapi::Ref::from_schema_name(
                <QuestionDoc as utoipa::ToSchema>::name(),
            )))
            .min_properties(Some(1))
            .max_properties(Some(crate::limits::MAX_QUESTIONS))
            .into()
    }
}

impl utoipa::ToSchema for QuestionsDoc {
    fn name() -> std::borrow::Cow<'static, str> {
        "Questions".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema as _;
        schemas.push((QuestionDoc::name().into_owned(), QuestionDoc::schema()));
        QuestionDoc::schemas(schemas);
        // What a choice's criteria refer to (their schema is written out: [`choice_criteria`]).
        schemas.push((
            OptionDescription::name().into_owned(),
            OptionDescription::schema(),
        ));
        OptionDescription::schemas(schemas);
    }
}

/// Any JSON value: the schema without a type.
fn any_value() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
        .build()
}

/// The schema of a question's instructions: any JSON value, a string at most
/// [`crate::limits::MAX_TEXT_CHARS`] characters long.
fn instructions() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
        .description(Some("Any JSON value, null included."))
        .max_length(Some(crate::limits::MAX_TEXT_CHARS))
        .build()
}

/// The schema of a choice's criteria: option key → description or null, at most
/// [`crate::limits::MAX_OPTIONS`] of them.
fn choice_criteria() -> utoipa::openapi::schema::Object {
    use utoipa::PartialSchema as _;
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("Option key (not empty) → description or null."))
        .property_names(Some(OptionKey::schema()))
        .additional_properties(Some(utoipa::openapi::Ref::from_schema_name(
            <OptionDescription as utoipa::ToSchema>::name(),
        )))
        .max_properties(Some(crate::limits::MAX_OPTIONS))
        .build()
}

/// A noul's criteria: what the true and the false side mean.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoulCriteria {
    #[serde(rename = "true", skip_serializing_if = "Option::is_none")]
    pub when_true: Option<Description>,
    #[serde(rename = "false", skip_serializing_if = "Option::is_none")]
    pub when_false: Option<Description>,
}

/// A choice's option key: any non-empty string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct OptionKey(pub String);

// A map key's schema is its `propertyNames`; utoipa derives no constraint on a newtype's
// field, so the key's one rule is stated here.
impl utoipa::PartialSchema for OptionKey {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .min_length(Some(1))
            .max_length(Some(crate::limits::MAX_OPTION_KEY_CHARS))
            .pattern(Some(crate::limits::NO_NUL))
            .into()
    }
}

impl utoipa::ToSchema for OptionKey {}

/// A choice option's description, or null.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum OptionDescription {
    Described(Description),
    Null,
}

/// What an outcome means: a string, an object or an array.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Description {
    Text(String),
    Object(Map<String, Value>),
    List(Vec<Value>),
}

// Written out, not derived: the string's length is the limit's ([`crate::limits`]).
impl utoipa::PartialSchema for Description {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .max_length(Some(crate::limits::MAX_TEXT_CHARS)),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .additional_properties(Some(
                        ObjectBuilder::new()
                            .schema_type(utoipa::openapi::schema::SchemaType::AnyValue),
                    ))
                    .property_names(Some(ObjectBuilder::new().schema_type(Type::String))),
            )
            .item(ArrayBuilder::new().items(any_value()))
            .description(Some(
                "What an outcome means: a string, an object or an array.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Description {}

impl Description {
    /// A description from its JSON form; `None` for null. Parsing admits only strings,
    /// objects and arrays; anything else is kept as its JSON text.
    fn of(value: &Value) -> Option<Self> {
        match value {
            Value::Null => None,
            Value::String(text) => Some(Self::Text(text.clone())),
            Value::Object(members) => Some(Self::Object(members.clone())),
            Value::Array(items) => Some(Self::List(items.clone())),
            other => Some(Self::Text(other.to_string())),
        }
    }
}

impl From<&Question> for QuestionDoc {
    fn from(question: &Question) -> Self {
        let instructions = question.instructions.clone();
        match &question.kind {
            QuestionKind::Noul {
                when_true,
                when_false,
            } => Self::Noul(NoulQuestion {
                kind: NoulType::Noul,
                instructions,
                criteria: (!when_true.is_null() || !when_false.is_null()).then(|| NoulCriteria {
                    when_true: Description::of(when_true),
                    when_false: Description::of(when_false),
                }),
            }),
            QuestionKind::Choice { options } => Self::Choice(ChoiceQuestion {
                kind: ChoiceType::Choice,
                instructions,
                criteria: options
                    .iter()
                    .map(|(key, description)| {
                        let description = Description::of(description)
                            .map_or(OptionDescription::Null, OptionDescription::Described);
                        (OptionKey(key.clone()), description)
                    })
                    .collect(),
            }),
            QuestionKind::Score { levels } => Self::Score(ScoreQuestion {
                kind: ScoreType::Score,
                instructions,
                criteria: levels
                    .iter()
                    .map(|level| Description::of(level).unwrap_or(Description::Text(String::new())))
                    .collect(),
            }),
        }
    }
}

/// Serialize a question map (the order is kept).
pub fn questions_to_value(questions: &Questions) -> Value {
    Value::Object(
        questions
            .iter()
            .map(|(id, q)| (id.clone(), q.to_value()))
            .collect(),
    )
}

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
    use crate::engine::builtin::aligned::ALIGNMENT_KEY;
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

/// The JSON type of a value, for messages.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(value: &Value) -> (Questions, Vec<FieldError>) {
        let mut errors = Vec::new();
        let questions = parse_questions(value, &Loc::body().key("questions"), &mut errors);
        (questions, errors)
    }

    #[test]
    fn accepts_every_valid_shape() {
        let (questions, errors) = parse(&json!({
            "": {"type": "noul"},
            "n2": {"type": "noul", "criteria": null, "instructions": null},
            "n3": {"type": "noul", "criteria": {"true": {"a": [1]}, "false": null}},
            "c0": {"type": "choice", "criteria": {}},
            "c1": {"type": "choice", "criteria": {"a": null, "b": ["x", {"y": 1}]}, "instructions": 7},
            "s1": {"type": "score", "criteria": ["low", {"level": "mid"}, ["high"]]}
        }));
        assert_eq!(errors, vec![]);
        assert_eq!(questions.len(), 6);
        assert_eq!(questions.get_index(0).unwrap().0, "");
        assert_eq!(questions["n2"].instructions, Some(Value::Null));
        assert_eq!(questions["n2"].instructions(), None);
    }

    #[test]
    fn reports_every_problem_with_its_location() {
        let (_, errors) = parse(&json!({
            "urgency": {"type": "score", "criteria": ["a", "b", null]},
            "intent": {"type": "choice", "criteria": {"": "empty", "ok": 3}},
            "x": {"type": "maybe"},
            "y": "not an object",
            "z": {"type": "score", "criteria": []},
            "w": {"type": "choice"}
        }));
        let located: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            located,
            vec![
                "questions.urgency.criteria[2]: a score level may not be null",
                r#"questions.intent.criteria[""]: an option key may not be empty"#,
                "questions.intent.criteria.ok: a description must be a string, object or array (or null), not a number",
                r#"questions.x.type: unknown question type "maybe": expected noul, choice or score"#,
                "questions.y: a question must be an object, not a string",
                "questions.z.criteria: a score needs at least one level",
                "questions.w.criteria: choice criteria are required: an object of option key to description",
            ]
        );
    }

    /// Each text and count past its limit is refused at its location, naming the limit; an
    /// aligned question's instructions are measured by their `task`.
    #[test]
    fn each_limit_is_refused_at_its_location() {
        use crate::limits::{
            MAX_OPTION_KEY_CHARS, MAX_OPTIONS, MAX_QUESTION_ID_CHARS, MAX_QUESTIONS, MAX_TEXT_CHARS,
        };
        let long = "x".repeat(MAX_TEXT_CHARS + 1);
        let mut body = json!({
            "n": {"type": "noul", "instructions": long, "criteria": {"true": {"k": [long]}}},
            "c": {"type": "choice", "criteria": {"k".repeat(MAX_OPTION_KEY_CHARS + 1): null}},
            "many": {"type": "choice", "criteria": (0..=MAX_OPTIONS)
                .map(|i| (i.to_string(), Value::Null))
                .collect::<Map<_, _>>()},
            "s": {"type": "score", "criteria": vec!["x"; MAX_OPTIONS + 1]},
            "aligned": {"type": "noul", "instructions": {
                "task": "Is it urgent?", "examples": [{"text": long}], "arbiter_alignment": {}
            }},
            "aligned_long": {"type": "noul", "instructions": {"task": long, "arbiter_alignment": {}}},
        });
        body["i".repeat(MAX_QUESTION_ID_CHARS + 1)] = json!({"type": "noul"});
        let (_, errors) = parse(&body);
        let found: Vec<(String, &str)> = errors
            .iter()
            .map(|e| (e.loc.to_string(), e.kind.as_str()))
            .collect();
        let id = "i".repeat(MAX_QUESTION_ID_CHARS + 1);
        let key = "k".repeat(MAX_OPTION_KEY_CHARS + 1);
        assert_eq!(
            found,
            vec![
                ("questions.n.instructions".to_owned(), "too_long"),
                ("questions.n.criteria.true".to_owned(), "too_long"),
                (format!("questions.c.criteria.{key}"), "too_long"),
                ("questions.many.criteria".to_owned(), "too_many"),
                ("questions.s.criteria".to_owned(), "too_many"),
                (
                    "questions.aligned_long.instructions.task".to_owned(),
                    "too_long"
                ),
                (format!("questions.{id}"), "too_long"),
            ]
        );
        assert_eq!(
            errors[0].msg,
            format!(
                "instructions is {} characters; the limit is {MAX_TEXT_CHARS}",
                MAX_TEXT_CHARS + 1
            )
        );
        assert!(errors[1].msg.contains("at least"), "{}", errors[1].msg);
        let many: Map<String, Value> = (0..=MAX_QUESTIONS)
            .map(|i| (i.to_string(), json!({"type": "noul"})))
            .collect();
        let (questions, errors) = parse(&Value::Object(many));
        assert!(questions.is_empty());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].msg, "257 questions; the limit is 256");
    }

    #[test]
    fn empty_map_and_non_object_are_rejected() {
        assert_eq!(parse(&json!({})).1[0].kind, "empty_questions");
        assert_eq!(parse(&json!([])).1[0].kind, "object_expected");
    }

    #[test]
    fn round_trips_through_json() {
        let source = json!({
            "n": {"type": "noul", "instructions": "Is it urgent?", "criteria": {"true": "yes"}},
            "c": {"type": "choice", "criteria": {"b": null, "a": "first"}},
            "s": {"type": "score", "criteria": ["0", {"k": "v"}]}
        });
        let (questions, errors) = parse(&source);
        assert!(errors.is_empty());
        assert_eq!(questions_to_value(&questions), source);
    }
}

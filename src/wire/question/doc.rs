//! A question as it is written ([`QuestionDoc`]): what clients send, what a [`Question`]
//! serializes as, and the `OpenAPI` schema the server's document shows for it.

use super::{Question, QuestionKind};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};

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

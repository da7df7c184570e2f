//! A question as the API document shows it, and as it is written back out.
//!
//! A question is read by its own `Deserialize` ([`super::read`]), which follows rules a
//! derive cannot say (the criteria's shape depends on the type), so its schema is written
//! here once, with the limits' figures; a contract test checks that the reader accepts
//! exactly what it describes.

use super::{Question, QuestionKind};
use crate::limits::{
    MAX_OPTION_KEY_CHARS, MAX_OPTIONS, MAX_QUESTION_ID_CHARS, MAX_QUESTIONS, MAX_TEXT_CHARS, NO_NUL,
};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Value, json};
use std::borrow::Cow;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, Object, ObjectBuilder, OneOfBuilder, Schema, SchemaType,
    Type,
};
use utoipa::openapi::{Ref, RefOr};

/// The name of a question map's schema: what `questions` members refer to
/// (`#[schema(value_type = QuestionsSchema)]`). Never built; a question map is a
/// [`super::Questions`].
pub enum QuestionsSchema {}

fn reference(name: &str) -> Ref {
    Ref::from_schema_name(name)
}

fn any_value() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(SchemaType::AnyValue)
}

fn null() -> Object {
    ObjectBuilder::new().schema_type(Type::Null).build()
}

/// A question of one type: `{type, instructions?, criteria}`, nothing else.
fn question(kind: &str, description: &str, criteria: impl Into<RefOr<Schema>>) -> RefOr<Schema> {
    let instructions = ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some("Any JSON value, null included."))
        .max_length(Some(MAX_TEXT_CHARS));
    let mut object = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(description))
        .required("type");
    if kind != "noul" {
        object = object.required("criteria");
    }
    object
        .property("type", reference(&type_name(kind)))
        .property("instructions", instructions)
        .property("criteria", criteria)
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)))
        .into()
}

/// `NoulType` for `noul`.
fn type_name(kind: &str) -> String {
    format!("{}{}Type", kind[..1].to_uppercase(), &kind[1..])
}

fn type_schema(kind: &str) -> (String, RefOr<Schema>) {
    let schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(format!("The `type` of a {kind} question.")))
        .enum_values(Some([kind]))
        .into();
    (type_name(kind), schema)
}

/// The schemas a question refers to, by name.
fn parts() -> Vec<(String, RefOr<Schema>)> {
    let mut parts = questions_of_each_type();
    parts.extend(descriptions());
    parts.extend(["noul", "choice", "score"].map(type_schema));
    parts
}

/// `NoulQuestion`, `ChoiceQuestion` and `ScoreQuestion`.
fn questions_of_each_type() -> Vec<(String, RefOr<Schema>)> {
    let mut noul_criteria = reference("NoulCriteria");
    "What makes the statement true or false.".clone_into(&mut noul_criteria.description);
    let noul = question(
        "noul",
        "The probability that a statement holds.",
        OneOfBuilder::new().item(noul_criteria).item(null()),
    );
    let option_key = ObjectBuilder::new()
        .schema_type(Type::String)
        .max_length(Some(MAX_OPTION_KEY_CHARS))
        .min_length(Some(1))
        .pattern(Some(NO_NUL));
    let choice = question(
        "choice",
        "One of named options, in order; no minimum number of options.",
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("Option key (not empty) → description or null."))
            .additional_properties(Some(reference("OptionDescription")))
            .property_names(Some(option_key))
            .max_properties(Some(MAX_OPTIONS)),
    );
    let score = question(
        "score",
        "A level on a rubric: N levels span 0 to N−1.",
        ArrayBuilder::new()
            .items(reference("Description"))
            .description(Some(
                "The rubric's level descriptions, in order; none null.",
            ))
            .max_items(Some(MAX_OPTIONS))
            .min_items(Some(1)),
    );
    vec![
        ("NoulQuestion".to_owned(), noul),
        ("ChoiceQuestion".to_owned(), choice),
        ("ScoreQuestion".to_owned(), score),
    ]
}

/// What criteria describe outcomes with: `NoulCriteria`, `OptionDescription`, `Description`.
fn descriptions() -> Vec<(String, RefOr<Schema>)> {
    let described_or_null = || {
        OneOfBuilder::new()
            .item(reference("Description"))
            .item(null())
    };
    let noul_sides = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "A noul's criteria: what the true and the false side mean.",
        ))
        .property("true", described_or_null())
        .property("false", described_or_null())
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)));
    let option_description = OneOfBuilder::new()
        .item(reference("Description"))
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Null)
                .default(Some(Value::Null)),
        )
        .description(Some("A choice option's description, or null."));
    let description = OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(MAX_TEXT_CHARS)),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Object)
                .additional_properties(Some(any_value()))
                .property_names(Some(ObjectBuilder::new().schema_type(Type::String))),
        )
        .item(ArrayBuilder::new().items(any_value()))
        .description(Some(
            "What an outcome means: a string, an object or an array.",
        ));
    vec![
        ("NoulCriteria".to_owned(), noul_sides.into()),
        ("OptionDescription".to_owned(), option_description.into()),
        ("Description".to_owned(), description.into()),
    ]
}

impl utoipa::PartialSchema for Question {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(reference("NoulQuestion"))
            .item(reference("ChoiceQuestion"))
            .item(reference("ScoreQuestion"))
            .description(Some(
                "A typed question, under a caller-chosen ID (any string, even \"\").",
            ))
            .examples([
                json!({"type": "noul", "instructions": "Is the customer angry?"}),
                json!({"type": "choice", "criteria": {"refund": "Wants a refund.", "other": null}}),
                json!({"type": "score", "criteria": ["calm", "annoyed", {"text": "furious"}]}),
            ])
            .into()
    }
}

impl utoipa::ToSchema for Question {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.extend(parts());
    }
}

impl utoipa::PartialSchema for QuestionsSchema {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "Question ID (any string, even \"\") → question; at least one.",
            ))
            .additional_properties(Some(reference("Question")))
            .property_names(Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .max_length(Some(MAX_QUESTION_ID_CHARS))
                    .pattern(Some(NO_NUL)),
            ))
            .max_properties(Some(MAX_QUESTIONS))
            .min_properties(Some(1))
            .into()
    }
}

impl utoipa::ToSchema for QuestionsSchema {
    fn name() -> Cow<'static, str> {
        "Questions".into()
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        use utoipa::PartialSchema as _;
        schemas.push(("Question".to_owned(), Question::schema()));
        <Question as utoipa::ToSchema>::schemas(schemas);
    }
}

impl Serialize for Question {
    /// `{type, instructions?, criteria?}`: a noul's criteria only when one side is
    /// described, with its null side left out.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", self.kind.type_name())?;
        if let Some(instructions) = &self.instructions {
            map.serialize_entry("instructions", instructions)?;
        }
        match &self.kind {
            QuestionKind::Noul {
                when_true,
                when_false,
            } => {
                let sides = [("true", when_true), ("false", when_false)];
                if sides.iter().any(|(_, side)| !side.is_null()) {
                    let described = sides.into_iter().filter(|(_, side)| !side.is_null());
                    map.serialize_entry("criteria", &Entries(described))?;
                }
            }
            QuestionKind::Choice { options } => {
                let options = options.iter().map(|(key, text)| (key.as_str(), text));
                map.serialize_entry("criteria", &Entries(options))?;
            }
            QuestionKind::Score { levels } => map.serialize_entry("criteria", levels)?,
        }
        map.end()
    }
}

/// Key → value pairs written as a JSON object, in order.
struct Entries<I>(I);

impl<'a, I: Iterator<Item = (&'a str, &'a Value)> + Clone> Serialize for Entries<I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.clone())
    }
}

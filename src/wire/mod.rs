//! The serde types of the contract (requests, questions, answers, problems) and their
//! validation. Shared by the CLI (`--json` output), the server and the HTTP client, so the
//! bytes on the wire are written in exactly one place.

pub mod agreement;
pub mod align;
pub mod claims;
/// The identifiers of the domain, shared with the layers below.
pub use crate::ids;
pub mod answer;
pub mod decision;
pub mod engines;
pub mod examples;
pub mod gates;
pub mod jobs;
pub mod lines;
pub mod models;
pub mod outcomes;
pub mod paths;
pub mod problem;
pub mod problem_code;
pub mod question;
pub mod registry;
pub mod time;
pub mod to_annotate;
pub mod travel;
pub mod validate;
pub mod value;

#[cfg(test)]
mod contract_tests;

pub use answer::{Answer, Answers};
pub use decision::{DecisionRequest, DecisionResponse, Usage};
pub use problem::Problem;
pub use problem_code::ProblemCode;
pub use question::{Question, QuestionKind, Questions};
pub use validate::{FieldError, Invalid, Loc, Validated};

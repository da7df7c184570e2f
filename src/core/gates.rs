//! A checkpoint's `gates.yaml` (per-question gates of an evaluation): read, and checked
//! against the questions it names, at commit and when an evaluation is created, so a
//! gate on a question the model does not have is refused, located, before anything runs.
//! Judging the figures against them is the evaluation's caller's (`arbiter eval`).

use crate::error::{Error, Result};
use crate::wire::Questions;
use crate::wire::gates::{GATES_FILE, Gates};
use crate::wire::validate::{FieldError, Loc, Segment};

/// The problems of `gates.yaml` text beside `questions`: its own, then each gate on a
/// question `questions` does not have.
pub(crate) fn check_file(text: &str, questions: &Questions) -> Vec<FieldError> {
    match Gates::from_yaml(GATES_FILE, text) {
        Ok(gates) => gates.unknown_questions(&file_loc(), |id| questions.contains_key(id)),
        Err(found) => found,
    }
}

/// The gates of a committed `gates.yaml` (none when it is empty), checked against its
/// checkpoint's `questions`: the problems found, located in the file, otherwise.
pub(crate) fn committed(
    text: &str,
    questions: &Questions,
) -> std::result::Result<Option<Gates>, Vec<FieldError>> {
    let gates = Gates::from_yaml(GATES_FILE, text)?;
    let unknown = gates.unknown_questions(&file_loc(), |id| questions.contains_key(id));
    if !unknown.is_empty() {
        return Err(unknown);
    }
    Ok((!gates.0.is_empty()).then_some(gates))
}

/// A request's `gates`, checked against the questions evaluated (`questions`).
pub(crate) fn requested(gates: Gates, questions: &Questions) -> Result<Option<Gates>> {
    let at = Loc::body().key("gates");
    let unknown = gates.unknown_questions(&at, |id| questions.contains_key(id));
    if !unknown.is_empty() {
        return Err(Error::Validation(unknown));
    }
    Ok((!gates.0.is_empty()).then_some(gates))
}

fn file_loc() -> Loc {
    Loc(vec![Segment::Key(GATES_FILE.to_owned())])
}

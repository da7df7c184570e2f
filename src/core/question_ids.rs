//! The questions a job works on: the IDs it was given, checked against its checkpoint.

use super::models::Loaded;
use crate::error::{Error, Result};

/// What a job's question IDs are for: where a questions file goes instead, when one is
/// given as an ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QuestionsFor {
    Align,
    Evaluate,
}

impl QuestionsFor {
    /// The verb, as the errors say it.
    fn verb(self) -> &'static str {
        match self {
            Self::Align => "align",
            Self::Evaluate => "evaluate",
        }
    }

    /// What to do with a questions file given where a question ID goes.
    fn instead_of_a_file(self) -> &'static str {
        match self {
            Self::Evaluate => {
                "a working copy of the questions file is evaluated with --questions-file \
                 (over HTTP, `working_questions`)"
            }
            Self::Align => {
                "these are the questions committed at the revision: commit the file first \
                 (arbiter models commit)"
            }
        }
    }
}

/// What to say when a question ID looks like a questions file: here questions are IDs
/// (`decide` and `batch` take a file where these take IDs).
fn file_hint(id: &str, purpose: QuestionsFor) -> String {
    let looks_like_a_file = matches!(
        std::path::Path::new(id)
            .extension()
            .and_then(|e| e.to_str()),
        Some("yaml" | "yml" | "json")
    );
    if !looks_like_a_file {
        return String::new();
    }
    format!(
        "; `{id}` looks like a file, but questions here are question IDs: {}",
        purpose.instead_of_a_file()
    )
}

/// The question IDs a job works on: `ids` (each a question of the checkpoint, else a
/// validation error at `body.questions[i]`; repeats once), or every saved question. At
/// least one: `purpose` says for what.
pub(crate) fn question_ids(
    loaded: &Loaded,
    ids: Option<&[String]>,
    purpose: QuestionsFor,
) -> Result<Vec<String>> {
    let selected: Vec<String> = match ids {
        Some(ids) => {
            let missing: Vec<_> = ids
                .iter()
                .enumerate()
                .filter(|(_, id)| !loaded.questions.contains_key(*id))
                .map(|(i, id)| {
                    crate::wire::FieldError::new(
                        crate::wire::Loc::body().key("questions").index(i),
                        format!(
                            "{} has no question `{id}` at {}{}",
                            loaded.path,
                            loaded.revision.name,
                            file_hint(id, purpose)
                        ),
                        "unknown_question",
                    )
                })
                .collect();
            if !missing.is_empty() {
                return Err(Error::Validation(missing));
            }
            let mut unique: Vec<String> = Vec::new();
            for id in ids {
                if !unique.contains(id) {
                    unique.push(id.clone());
                }
            }
            unique
        }
        None => loaded.questions.keys().cloned().collect(),
    };
    if selected.is_empty() {
        return Err(Error::invalid(
            crate::wire::Loc::body().key("questions"),
            format!(
                "{} has no saved questions at {} to {}",
                loaded.path,
                loaded.revision.name,
                purpose.verb()
            ),
            "missing",
        ));
    }
    Ok(selected)
}

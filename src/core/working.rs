//! A working copy: a questions document that is not committed, asked as if it were the
//! `questions.yaml` of a revision's checkpoint. The revision's `model.yaml` and its learned
//! parameters (`aligned/` files, `learned/` heads) are kept for every question whose
//! definition is the revision's, dropped for a question whose definition changed, and a
//! question the revision does not have (new, or renamed) is asked zero-shot.
//!
//! The one place a working copy is built, for `eval`, `batch` and `examples next` alike.
//! It never writes: nothing is committed, and the checkpoint it returns keeps the
//! revision's commit only to read examples' fits against; callers label what they compute
//! from it as a working copy (answers are cached by the questions' content, never by
//! commit, so nothing is cached under a revision it is not).

use super::Context;
use super::model_files::parse_questions_yaml;
use super::models::{Loaded, open_by_id};
use crate::error::{Error, Result};
use crate::wire::align::{QuestionOrigin, WorkingCopy};
use crate::wire::question::{questions_to_value, read_questions};
use crate::wire::validate::Loc;
use crate::wire::{FieldError, Questions};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where a request carries a working copy's questions (faults are located under it).
pub const MEMBER: &str = "working_questions";

/// How each question of `draft` relates to the revision's `committed` questions (as its
/// `questions.yaml` defines them, before any learned file is applied).
pub(crate) fn origins(
    committed: &Questions,
    draft: &Questions,
) -> IndexMap<String, QuestionOrigin> {
    draft
        .iter()
        .map(|(id, question)| {
            let origin = match committed.get(id) {
                Some(before) if same_definition(before, question) => QuestionOrigin::Unchanged,
                Some(_) => QuestionOrigin::Changed,
                None => QuestionOrigin::New,
            };
            (id.clone(), origin)
        })
        .collect()
}

/// Whether two questions ask the same: their type, instructions and criteria.
fn same_definition(a: &crate::wire::Question, b: &crate::wire::Question) -> bool {
    a.kind == b.kind && a.instructions == b.instructions
}

/// The questions a working copy asks: the revision's (`aligned/` files applied) for an
/// unchanged question, the draft's for any other; in the draft's order, and only the
/// draft's. Only an unchanged question keeps its learned head ([`apply`]).
pub(crate) fn merge(
    at_revision: &Questions,
    draft: &Questions,
    origins: &IndexMap<String, QuestionOrigin>,
) -> Questions {
    draft
        .iter()
        .map(|(id, question)| {
            let kept = (origins.get(id) == Some(&QuestionOrigin::Unchanged))
                .then(|| at_revision.get(id))
                .flatten();
            (id.clone(), kept.unwrap_or(question).clone())
        })
        .collect()
}

/// An aligned block a draft question carries inline, checked as `questions.yaml` is at
/// commit, located at `at.<id>`.
fn check_aligned(draft: &Questions, at: &Loc) -> Result<()> {
    let mut errors: Vec<FieldError> = Vec::new();
    for (id, question) in draft {
        if let Err(found) = crate::engine::builtin::aligned::parse(question, &at.key(id)) {
            errors.extend(found);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Validation(errors))
    }
}

/// The working copy of `loaded` (a revision's checkpoint) with `draft` as its questions,
/// and what it says about each question. Reads the revision's `questions.yaml` (blocking).
pub fn apply(
    ctx: &Context,
    mut loaded: Loaded,
    draft: &Questions,
) -> Result<(Loaded, WorkingCopy)> {
    check_aligned(draft, &Loc::body().key(MEMBER))?;
    let files = open_by_id(ctx, &loaded.model_id)?.read(&loaded.revision.commit)?;
    let committed = parse_questions_yaml(&files.questions_yaml).map_err(|errors| {
        super::model_files::invalid_checkpoint(&loaded.path, &loaded.revision.commit, errors)
    })?;
    let origins = origins(&committed, draft);
    loaded.questions = merge(&loaded.questions, draft, &origins);
    // A head answers only the question it was fitted for, as the checkpoint words it.
    loaded.heads = std::mem::take(&mut loaded.heads)
        .only(|id| origins.get(id) == Some(&QuestionOrigin::Unchanged));
    let working = WorkingCopy {
        of: loaded.revision.name.clone(),
        questions: origins,
    };
    Ok((loaded, working))
}

/// A working copy's answers are not the revision's: they are never recorded (captured
/// under its commit), and its questions are the whole document, not overrides of saved
/// ones. An error at the member given beside it (`capture`, `questions`).
pub(crate) fn refuse_beside(capture: bool, questions: bool) -> Result<()> {
    let beside = |member: &str, why: &str| {
        Error::invalid(
            Loc::body().key(member),
            format!("not with {MEMBER}: {why}"),
            "conflict",
        )
    };
    if capture {
        return Err(beside(
            "capture",
            "a working copy's answers are not the commit's, so they are not recorded",
        ));
    }
    if questions {
        return Err(beside(
            "questions",
            "the working copy's questions are all the questions asked",
        ));
    }
    Ok(())
}

/// A working copy as a job stores it: the questions document as the request gave it, and
/// what it says of each question; the job builds the working copy again when it runs.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stored {
    questions: Value,
    copy: WorkingCopy,
}

impl Stored {
    /// [`apply`] `draft` to `loaded`, and what a job stores to do it again.
    pub(crate) fn apply_new(
        ctx: &Context,
        loaded: Loaded,
        draft: &Questions,
    ) -> Result<(Loaded, Self)> {
        let (loaded, copy) = apply(ctx, loaded, draft)?;
        let questions = questions_to_value(draft);
        Ok((loaded, Self { questions, copy }))
    }

    /// What the working copy says of each question.
    pub(crate) fn copy(&self) -> &WorkingCopy {
        &self.copy
    }

    /// The working copy of a checkpoint loaded at the job's revision.
    pub(crate) async fn apply(&self, ctx: &Context, loaded: Loaded) -> Result<Loaded> {
        let draft = read_questions(&self.questions, &Loc::body().key(MEMBER))
            .map_err(|_| Error::bug("a stored working copy's questions are unreadable"))?;
        let ctx = ctx.clone();
        super::blocking(move || apply(&ctx, loaded, &draft).map(|(loaded, _)| loaded)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model_files::parse_questions_files;

    const COMMITTED: &str = "q: {type: noul, instructions: Is it urgent?}\n\
                             r: {type: noul, instructions: Is it polite?}\n\
                             s: {type: noul}\n";

    #[test]
    fn a_question_is_unchanged_changed_or_new_by_its_definition() {
        let committed = parse_questions_yaml(COMMITTED).unwrap();
        let draft = parse_questions_yaml(
            "# reordered, reworded, renamed\n\
             t: {type: noul}\n\
             r: {type: noul, instructions: Is it rude?}\n\
             q: {instructions: Is it urgent?, type: noul}\n",
        )
        .unwrap();
        let found = origins(&committed, &draft);
        assert_eq!(
            found.into_iter().collect::<Vec<_>>(),
            [
                ("t".to_owned(), QuestionOrigin::New),
                ("r".to_owned(), QuestionOrigin::Changed),
                ("q".to_owned(), QuestionOrigin::Unchanged),
            ]
        );
        let criteria = parse_questions_yaml(
            "q: {type: noul, instructions: Is it urgent?, criteria: {true: now}}\n",
        )
        .unwrap();
        assert_eq!(origins(&committed, &criteria)["q"], QuestionOrigin::Changed);
    }

    #[test]
    fn an_unchanged_question_keeps_what_was_learned_and_a_changed_one_does_not() {
        let learned_file = "arbiter_alignment: {version: 1, weights: {similarity: 3.5}}\n\
                            cues: {'true': [asap]}\n";
        let aligned = [
            ("q".to_owned(), learned_file.to_owned()),
            ("r".to_owned(), learned_file.to_owned()),
        ];
        let at_revision = parse_questions_files(COMMITTED, &aligned, &[])
            .unwrap()
            .questions;
        let committed = parse_questions_yaml(COMMITTED).unwrap();
        let draft = parse_questions_yaml(
            "q: {type: noul, instructions: Is it urgent?}\nr: {type: noul, instructions: Is it rude?}\n",
        )
        .unwrap();
        let merged = merge(&at_revision, &draft, &origins(&committed, &draft));
        assert_eq!(
            merged.keys().collect::<Vec<_>>(),
            ["q", "r"],
            "only the draft's"
        );
        assert_eq!(merged["q"], at_revision["q"]);
        assert!(crate::engine::builtin::aligned::is_aligned(&merged["q"]));
        assert_eq!(merged["r"], draft["r"]);
        assert!(!crate::engine::builtin::aligned::is_aligned(&merged["r"]));
    }
}

//! `models diff`: what changed between two revisions, read from the files themselves:
//! `model.yaml` field by field, `questions.yaml` question by question, and each question's
//! learned file. Values are compared as data (YAML parsed), so re-indenting or a comment
//! is not a change.

use serde_json::Value;

use super::Context;
use super::model_files::{invalid_checkpoint, parse_model_yaml, parse_questions_files};
use super::models::{open, to_wire_revision};
use crate::engine::builtin::learned;
use crate::error::Result;
use crate::ids::ModelRef;
use crate::wire::registry::{Change, DiffStatus, FileDiff, ModelDiff};
use crate::wire::validate::{FieldError, Loc, Segment};
use crate::wire::value::parse_yaml;

/// What changed in `model` from revision `from` to revision `to`.
pub fn diff(ctx: &Context, model: &ModelRef, from: &str, to: &str) -> Result<ModelDiff> {
    let repo = open(ctx, model)?;
    let (from, to) = (repo.resolve(Some(from))?, repo.resolve(Some(to))?);
    let (before, after) = (repo.read(&from.commit)?, repo.read(&to.commit)?);
    // A file pushed with plain git may be anything: files that do not form a valid model
    // (not YAML, past a limit, not questions) are the checkpoint's fault, 422
    // `invalid_checkpoint` located in the file as a decision at that revision answers,
    // never a 500 (nor a diff of what no decision would read).
    let path = repo.path();
    for (files, commit) in [(&before, &from.commit), (&after, &to.commit)] {
        parse_model_yaml(&files.model_yaml, &|name| ctx.is_base_model(name))
            .map_err(|errors| invalid_checkpoint(path, commit, errors))?;
        parse_questions_files(&files.questions_yaml, &files.aligned, &files.learned)
            .map_err(|errors| invalid_checkpoint(path, commit, errors))?;
    }
    let parse = |file: &str, text: &str, commit: &str| -> Result<Value> {
        if text.trim().is_empty() {
            return Ok(Value::Object(serde_json::Map::new()));
        }
        parse_yaml(text).map_err(|e| {
            let loc = Loc(vec![Segment::Key(file.to_owned())]);
            let error = FieldError::new(loc, format!("not valid YAML: {e}"), "yaml");
            invalid_checkpoint(path, commit, vec![error])
        })
    };
    let model_yaml = changes(
        &parse("model.yaml", &before.model_yaml, &from.commit)?,
        &parse("model.yaml", &after.model_yaml, &to.commit)?,
    );
    let questions = by_id(
        &entries(parse(
            "questions.yaml",
            &before.questions_yaml,
            &from.commit,
        )?),
        &entries(parse("questions.yaml", &after.questions_yaml, &to.commit)?),
    );
    let learned_files =
        |files: &[(String, String)], commit: &str| -> Result<Vec<(String, Value)>> {
            files
                .iter()
                .map(|(id, text)| {
                    Ok((
                        id.clone(),
                        parse(&format!("aligned/{id}.yaml"), text, commit)?,
                    ))
                })
                .collect()
        };
    let learned = by_id(
        &learned_files(&before.aligned, &from.commit)?,
        &learned_files(&after.aligned, &to.commit)?,
    );
    let (heads_before, encoder_before) = learned::file::compared(&before.learned);
    let (heads_after, encoder_after) = learned::file::compared(&after.learned);
    Ok(ModelDiff {
        model: repo.path().to_string(),
        from: to_wire_revision(from),
        to: to_wire_revision(to),
        model_yaml,
        questions,
        learned,
        heads: by_id(&heads_before, &heads_after),
        encoder: {
            let mut out = Vec::new();
            walk(
                &mut Vec::new(),
                encoder_before.as_ref(),
                encoder_after.as_ref(),
                &mut out,
            );
            out
        },
    })
}

/// The top-level entries of a mapping, in file order (anything else: none).
fn entries(value: Value) -> Vec<(String, Value)> {
    match value {
        Value::Object(map) => map.into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Entry by entry: removed and changed ones in `before`'s order, then added ones in
/// `after`'s.
fn by_id(before: &[(String, Value)], after: &[(String, Value)]) -> Vec<FileDiff> {
    let find = |entries: &[(String, Value)], id: &str| {
        entries
            .iter()
            .find(|(other, _)| other == id)
            .map(|(_, v)| v.clone())
    };
    let mut diffs = Vec::new();
    for (id, old) in before {
        match find(after, id) {
            None => diffs.push(FileDiff {
                id: id.clone(),
                status: DiffStatus::Removed,
                changes: vec![Change {
                    path: Vec::new(),
                    from: Some(old.clone()),
                    to: None,
                }],
            }),
            Some(new) => {
                let changes = changes(old, &new);
                if !changes.is_empty() {
                    diffs.push(FileDiff {
                        id: id.clone(),
                        status: DiffStatus::Changed,
                        changes,
                    });
                }
            }
        }
    }
    for (id, new) in after {
        if find(before, id).is_none() {
            diffs.push(FileDiff {
                id: id.clone(),
                status: DiffStatus::Added,
                changes: vec![Change {
                    path: Vec::new(),
                    from: None,
                    to: Some(new.clone()),
                }],
            });
        }
    }
    diffs
}

/// Every leaf that differs between `before` and `after`.
fn changes(before: &Value, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    walk(&mut Vec::new(), Some(before), Some(after), &mut out);
    out
}

/// Lists longer than this (fitted example IDs, vectors) change as one value: item by item
/// they would be a page of lines nobody reads.
const ITEM_BY_ITEM: usize = 32;

/// Mappings are compared key by key (a choice's options), short lists item by item (a
/// score's levels, an exemplar), an item past the end of the other list being added or
/// removed; any other difference is one change of the value.
fn walk(
    path: &mut Vec<String>,
    before: Option<&Value>,
    after: Option<&Value>,
    out: &mut Vec<Change>,
) {
    match (before, after) {
        (None, None) => {}
        (Some(a), Some(b)) if a == b => {}
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            for (key, old) in a {
                path.push(key.clone());
                walk(path, Some(old), b.get(key), out);
                path.pop();
            }
            for (key, new) in b.iter().filter(|(key, _)| !a.contains_key(*key)) {
                path.push(key.clone());
                walk(path, None, Some(new), out);
                path.pop();
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) if a.len().max(b.len()) <= ITEM_BY_ITEM => {
            for index in 0..a.len().max(b.len()) {
                path.push(index.to_string());
                walk(path, a.get(index), b.get(index), out);
                path.pop();
            }
        }
        (from, to) => out.push(Change {
            path: path.clone(),
            from: from.cloned(),
            to: to.cloned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn paths(changes: &[Change]) -> Vec<String> {
        changes.iter().map(|c| c.path.join(".")).collect()
    }

    #[test]
    fn leaves_that_differ_are_each_a_change() {
        let before = json!({"base": "mo", "capture": {"enabled": true, "sample_rate": 1.0}});
        let after = json!({"base": "jev-latest", "capture": {"enabled": true}, "new": 1});
        let found = changes(&before, &after);
        assert_eq!(paths(&found), ["base", "capture.sample_rate", "new"]);
        assert_eq!(
            (&found[1].from, &found[1].to),
            (&Some(json!(1.0)), &None),
            "a removed key has no `to`"
        );
        assert!(changes(&before, &before).is_empty());
    }

    #[test]
    fn short_lists_are_compared_item_by_item_and_long_ones_whole() {
        let before = json!({"exemplars": [{"id": "a", "answer": 1}, {"id": "b", "answer": 2}],
                            "levels": ["low", "high"]});
        let after = json!({"exemplars": [{"id": "a", "answer": 1}, {"id": "b", "answer": 3}],
                           "levels": ["low", "mid", "high"]});
        // A score's levels level by level: the one that changed, the one added.
        let found = changes(&before, &after);
        assert_eq!(
            paths(&found),
            ["exemplars.1.answer", "levels.1", "levels.2"]
        );
        assert_eq!(
            (&found[2].from, &found[2].to),
            (&None, &Some(json!("high")))
        );
        // An item past the end of the shorter list is removed (or added).
        let shrunk = json!({"exemplars": [{"id": "a", "answer": 1}], "levels": ["low", "high"]});
        assert_eq!(paths(&changes(&before, &shrunk)), ["exemplars.1"]);
        // A long list is one change, whatever it holds.
        let ids =
            |n: usize| json!({"fitted": (0..n).map(|i| format!("ex_{i}")).collect::<Vec<_>>()});
        assert_eq!(
            paths(&changes(&ids(ITEM_BY_ITEM + 1), &ids(ITEM_BY_ITEM + 2))),
            ["fitted"]
        );
    }

    #[test]
    fn questions_are_added_removed_or_changed() {
        let before = entries(
            json!({"keep": {"type": "noul"}, "edit": {"type": "noul", "instruction": "a"},
                                    "gone": {"type": "noul"}}),
        );
        let after = entries(
            json!({"keep": {"type": "noul"}, "edit": {"type": "noul", "instruction": "b"},
                                   "fresh": {"type": "choice"}}),
        );
        let diffs = by_id(&before, &after);
        let summary: Vec<_> = diffs.iter().map(|d| (d.id.as_str(), d.status)).collect();
        assert_eq!(
            summary,
            [
                ("edit", DiffStatus::Changed),
                ("gone", DiffStatus::Removed),
                ("fresh", DiffStatus::Added)
            ]
        );
        assert_eq!(paths(&diffs[0].changes), ["instruction"]);
        assert_eq!(diffs[2].changes[0].to, Some(json!({"type": "choice"})));
    }
}

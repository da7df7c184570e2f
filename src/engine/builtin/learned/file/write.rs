//! Writing a checkpoint's `learned/` directory, and reading it as `models diff` compares
//! two: the other half of [`super::read`], so the format is kept in one place.

use super::{Entry, FORMAT, MANIFEST, Manifest, POOLED_TUNED, TunedEntry, VERSION, manifest};
use indexmap::IndexMap;
use serde_json::Value;

/// A new `learned/` directory (name inside it → bytes), sorted by name, its manifest's
/// questions by ID: the base checkpoint's heads `kept` (their tensors copied from `base`,
/// its files) and the heads `fitted` now (entry and tensors); the fine-tune `tuned` (its
/// delta's bytes and record), or else the base's, when a kept head still reads it. Empty
/// when no head is left. `encoder` is the encoder the heads read.
pub fn write(
    encoder: String,
    base: &[(String, Vec<u8>)],
    kept: &[(String, &Entry)],
    fitted: &[(&String, &Entry, &[u8])],
    tuned: Option<(&[u8], TunedEntry)>,
) -> Vec<(String, Vec<u8>)> {
    let mut manifest_out = Manifest {
        format: FORMAT.to_owned(),
        version: VERSION,
        encoder,
        tuned: None,
        questions: IndexMap::new(),
    };
    let mut dir: Vec<(String, Vec<u8>)> = Vec::new();
    for (id, entry) in kept {
        if let Some((_, bytes)) = base.iter().find(|(name, _)| *name == entry.file) {
            dir.push((entry.file.clone(), bytes.clone()));
            manifest_out.questions.insert(id.clone(), (*entry).clone());
        }
    }
    // The fine-tune the heads read: this alignment's, or the base's that a kept head still
    // reads (an alignment never tunes while one does).
    if let Some((bytes, entry)) = tuned {
        dir.push((entry.file.clone(), bytes.to_vec()));
        manifest_out.tuned = Some(entry);
    } else if manifest_out
        .questions
        .values()
        .any(|entry| entry.features.embedding == POOLED_TUNED)
        && let Ok(Some(base_manifest)) = manifest(base)
        && let Some(entry) = base_manifest.tuned
        && let Some((_, bytes)) = base.iter().find(|(name, _)| *name == entry.file)
    {
        dir.push((entry.file.clone(), bytes.clone()));
        manifest_out.tuned = Some(entry);
    }
    for (id, entry, tensors) in fitted {
        dir.push((entry.file.clone(), tensors.to_vec()));
        manifest_out
            .questions
            .insert((*id).clone(), (*entry).clone());
    }
    if manifest_out.questions.is_empty() {
        return Vec::new();
    }
    manifest_out.questions.sort_keys();
    dir.push((
        MANIFEST.to_owned(),
        super::manifest_yaml(&manifest_out).into_bytes(),
    ));
    dir.sort();
    dir
}

/// The learned heads of a checkpoint's `learned/` files, question by question, as a diff
/// compares them, and its fine-tuned encoder's record, if any. The files were checked
/// with the checkpoint (by [`super::read`]), so a manifest that does not read is
/// not one this checkpoint has.
pub fn compared(files: &[(String, Vec<u8>)]) -> (Vec<(String, Value)>, Option<Value>) {
    let Ok(Some(manifest)) = manifest(files) else {
        return (Vec::new(), None);
    };
    let heads = manifest
        .questions
        .iter()
        .map(|(question, entry)| {
            let head = serde_json::json!({
                "chosen": entry.chosen.as_deref().unwrap_or("head"),
                "learner": entry.learner,
                "features": entry.features.embedding,
                "examples": entry.fitted.len(),
                "outOfFold": entry.candidates.as_ref().map(|candidates| {
                    candidates
                        .iter()
                        .map(|(name, point)| {
                            (
                                name.clone(),
                                serde_json::json!({
                                    "accuracy": point.accuracy,
                                    "logLoss": point.log_loss,
                                }),
                            )
                        })
                        .collect::<serde_json::Map<_, _>>()
                }),
                "sha256": entry.sha256,
            });
            (question.clone(), head)
        })
        .collect();
    let encoder = manifest.tuned.as_ref().map(|tuned| {
        serde_json::json!({
            "file": tuned.file,
            "sha256": tuned.sha256,
            "rank": tuned.rank,
            "examples": tuned.examples,
            "steps": tuned.steps,
        })
    });
    (heads, encoder)
}

//! What an alignment commits: the learned files on `alignments/<jobId>`, the commit
//! message, and the result the job reports.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The record of a split's fitted examples: SHA-256 over the question ID and the sorted
/// example IDs, 32 hex digits.
pub(super) fn fit_id(question: &str, sorted_ids: &[ExampleId]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(question.as_bytes());
    for id in sorted_ids {
        hasher.update([0]);
        hasher.update(id.as_str().as_bytes());
    }
    hex::encode(&hasher.finalize()[..16])
}

/// Commit what the questions learned (when any passed) and say how it went.
pub(super) fn finish(
    ctx: &Context,
    loaded: &Loaded,
    job_id: &JobId,
    stored: &AlignmentSpec,
    outcome: Outcome,
) -> Result<AlignmentResult> {
    let mut result = AlignmentResult {
        improved: !outcome.learned.is_empty(),
        base_checkpoint: loaded.revision.commit.clone(),
        branch: None,
        checkpoint: None,
        seed: stored.seed,
        questions: outcome.reports,
        tuning: None,
        engine_calls: outcome.calls,
    };
    let (tuning, delta) = outcome.tuning.map_or((None, None), |(r, d)| (Some(r), d));
    result.tuning = tuning;
    if outcome.learned.is_empty() {
        return Ok(result);
    }
    // The fitted examples are recorded before the checkpoint that names them exists.
    let store = ctx.store()?;
    for learned in outcome.learned.values() {
        if let Some(fit_id) = &learned.fit_id {
            store.record_fitted(fit_id, &learned.fitted)?;
        }
    }
    let files: Vec<(String, String)> = outcome
        .learned
        .iter()
        .filter_map(|(id, learned)| Some((id.clone(), learned.file.clone()?)))
        .collect();
    let repo = models::open_by_id(ctx, &loaded.model_id)?;
    let base = repo.read(&loaded.revision.commit)?;
    let heads: Vec<(&String, &LearnedHead)> = outcome
        .learned
        .iter()
        .filter_map(|(id, learned)| Some((id, learned.head.as_ref()?)))
        .collect();
    // Questions whose instructions change (`--instructions`): what the base learned of them
    // read the old ones, so it goes.
    let rewritten: Vec<(String, Value)> = outcome
        .learned
        .iter()
        .filter_map(|(id, learned)| Some((id.clone(), learned.instructions.clone()?)))
        .collect();
    let rewritten_ids: Vec<String> = rewritten.iter().map(|(id, _)| id.clone()).collect();
    let tuned = match (&delta, &result.tuning) {
        (Some(delta), Some(report)) => Some((delta.to_bytes()?, report)),
        _ => None,
    };
    let learned_dir = learned_dir(
        ctx,
        loaded,
        &base.learned,
        (&heads, tuned.as_ref().map(|(b, r)| (b.as_slice(), *r))),
        (&files, &rewritten_ids),
    );
    // A question with a head has no other alignment than the correction of its prior: an
    // `aligned/` file of the base it does not write again goes.
    let unaligned: Vec<String> = heads
        .iter()
        .map(|(id, _)| (*id).clone())
        .chain(rewritten_ids.iter().cloned())
        .filter(|id| base.aligned.iter().any(|(other, _)| other == id))
        .filter(|id| !files.iter().any(|(other, _)| other == id))
        .collect();
    let realigned: Vec<(String, String)> = outcome
        .learned
        .keys()
        .map(|id| (id.clone(), String::new()))
        .collect();
    let branch = format!("alignments/{job_id}");
    let mut request = CommitRequest {
        model: loaded.path.clone().into(),
        branch: Some(branch.clone()),
        start: Some(loaded.revision.commit.clone()),
        questions_yaml: None,
        model_yaml: None,
        gates_yaml: None,
        aligned: files,
        unaligned,
        learned: learned_dir,
        message: commit_message(loaded, job_id, &result),
    };
    let checkpoint = commit_once(ctx, loaded, &repo, &mut request, (&realigned, &rewritten))?;
    warm_encoder(ctx, loaded, outcome.learned);
    result.branch = Some(branch);
    result.checkpoint = Some(checkpoint);
    Ok(result)
}

/// The questions re-aligned from an inline alignment, and those given new instructions.
type Rewrites<'a> = (&'a [(String, String)], &'a [(String, Value)]);

/// Commit `request` on its branch, once: a run that died after committing finds its branch
/// already there, with the same files, and the same checkpoint is its result.
fn commit_once(
    ctx: &Context,
    loaded: &Loaded,
    repo: &crate::repo::ModelRepo,
    request: &mut CommitRequest,
    (realigned, rewritten): Rewrites<'_>,
) -> Result<crate::wire::decision::Checkpoint> {
    let branch = request.branch.clone().unwrap_or_default();
    let Ok(found) = models::load(ctx, &loaded.model_id.into(), Some(&branch)) else {
        request.questions_yaml = questions_file(repo, loaded, realigned, rewritten)?;
        return models::commit(ctx, request);
    };
    let there = repo.read(&found.revision.commit)?;
    let same_learned = request
        .learned
        .as_ref()
        .is_none_or(|dir| *dir == there.learned);
    let same_files = request
        .aligned
        .iter()
        .all(|file| there.aligned.contains(file));
    if !same_files || !same_learned {
        return Err(Error::Conflict {
            code: crate::error::ConflictCode::AlreadyExists,
            detail: format!("branch {branch} exists with other learned files"),
        });
    }
    Ok(found.checkpoint)
}

/// The first decisions at the new checkpoint need not embed its exemplars again.
fn warm_encoder(ctx: &Context, loaded: &Loaded, learned: IndexMap<String, Learned>) {
    if let Some(engine) = ctx
        .engines()
        .get(&loaded.spec.base)
        .and_then(|e| e.as_builtin())
    {
        let documents = learned
            .into_values()
            .flat_map(|learned| learned.documents)
            .collect();
        engine.embedder().remember_documents(documents);
    }
}

/// A fine-tune to commit: its delta file's bytes, and what the alignment reported of it.
pub(super) type TunedFile<'a> = (&'a [u8], &'a crate::wire::align::TuningReport);

/// The new checkpoint's `learned/` ([`crate::engine::builtin::learned::file::write`]):
/// the base's heads of questions not aligned now, and the new `heads`; `None` when neither
/// changes it. A question corrected without annotations now (`files`) loses its head.
pub(super) fn learned_dir(
    ctx: &Context,
    loaded: &Loaded,
    base: &[(String, Vec<u8>)],
    (heads, tuned): (&[(&String, &LearnedHead)], Option<TunedFile<'_>>),
    (files, rewritten): (&[(String, String)], &[String]),
) -> Option<crate::repo::LearnedFiles> {
    use crate::engine::builtin::learned::file;
    let replaced = |id: &str| {
        heads.iter().any(|(other, _)| *other == id)
            || files.iter().any(|(other, _)| other == id)
            || rewritten.iter().any(|other| other == id)
    };
    let kept: Vec<(String, &file::Entry)> = loaded
        .questions
        .keys()
        .filter_map(|id| Some((id.clone(), &loaded.heads.get(id)?.entry)))
        .filter(|(id, _)| !replaced(id))
        .collect();
    let dropped = loaded.heads.iter().any(|(id, _)| replaced(id));
    if heads.is_empty() && !dropped {
        return None;
    }
    let encoder = ctx
        .engines()
        .get(&loaded.spec.base)
        .and_then(|e| super::features(e.as_ref()).ok())
        .map(BuiltinEngine::head_encoder)
        .unwrap_or_default();
    let tuned = tuned.map(|(bytes, report)| {
        let entry = file::TunedEntry {
            file: file::TUNED_FILE.to_owned(),
            sha256: file::sha256(bytes),
            layer: crate::engine::builtin::tuned::LAYER,
            rank: crate::engine::builtin::tuned::RANK,
            examples: usize::try_from(report.examples).unwrap_or(usize::MAX),
            steps: usize::try_from(report.steps).unwrap_or(usize::MAX),
        };
        (bytes, entry)
    });
    let fitted: Vec<(&String, &file::Entry, &[u8])> = heads
        .iter()
        .map(|(id, head)| (*id, &head.entry, head.tensors.as_slice()))
        .collect();
    Some(file::write(encoder, base, &kept, &fitted, tuned))
}

/// The new checkpoint's `questions.yaml`, when it changes: the questions of `rewritten`
/// with their new instructions, and those of an alignment of before learned files (which
/// kept its alignment inside `questions.yaml`) re-aligned now with their instructions back
/// as they were (their `task`), so the new learned file is their only alignment. The
/// user's file is edited in place, every comment kept. `None` when no question changes
/// (then `questions.yaml` is left exactly as it is).
pub(super) fn questions_file(
    repo: &crate::repo::ModelRepo,
    loaded: &Loaded,
    files: &[(String, String)],
    rewritten: &[(String, Value)],
) -> Result<Option<String>> {
    let raw = repo.read(&loaded.revision.commit)?.questions_yaml;
    let mut questions =
        super::super::model_files::parse_questions_yaml(&raw).map_err(|errors| {
            super::super::model_files::invalid_checkpoint(
                &loaded.path,
                &loaded.revision.commit,
                errors,
            )
        })?;
    let mut restored: Vec<(String, Option<Value>)> = Vec::new();
    for (id, _) in files {
        if let Some(question) = questions.get_mut(id)
            && aligned::is_aligned(question)
            && let Some(Value::Object(mut members)) = question.instructions.take()
        {
            question.instructions = members.remove("task");
            restored.push((id.clone(), question.instructions.clone()));
        }
    }
    for (id, instructions) in rewritten {
        if let Some(question) = questions.get_mut(id) {
            question.instructions = Some(instructions.clone());
            restored.retain(|(other, _)| other != id);
            restored.push((id.clone(), Some(instructions.clone())));
        }
    }
    if restored.is_empty() {
        return Ok(None);
    }
    // The user's file with only those instructions changed, its comments kept; written
    // whole only when it cannot be edited in place.
    let edits: Vec<(&str, Option<&Value>)> = restored
        .iter()
        .map(|(id, instructions)| (id.as_str(), instructions.as_ref()))
        .collect();
    Ok(Some(
        crate::wire::question::yaml_edit::with_instructions(&raw, &edits)
            .unwrap_or_else(|| questions_to_yaml(&questions)),
    ))
}

pub(super) fn commit_message(loaded: &Loaded, job_id: &JobId, result: &AlignmentResult) -> String {
    let improved: Vec<&str> = result
        .questions
        .iter()
        .filter(|(_, r)| r.improved)
        .map(|(id, _)| id.as_str())
        .collect();
    let mut message = format!(
        "Align {} (job {job_id})\n\nPer question (zero-shot -> aligned, out of fold or on the held-out examples):\n",
        improved.join(", ")
    );
    for (id, report) in &result.questions {
        let _ = match (&report.before, &report.after, report.improved) {
            (Some(before), Some(after), true) => writeln!(
                message,
                "  {id}: {} {:.4} -> {:.4}, accuracy {:.3} -> {:.3}, ECE {:.3} -> {:.3}; {} ({} fitted, {} held out)",
                before.metric,
                before.loss,
                after.loss,
                before.accuracy,
                after.accuracy,
                before.ece,
                after.ece,
                report.candidate.as_deref().unwrap_or("-"),
                report.fitted,
                report.held_out
            ),
            (_, _, true) => writeln!(
                message,
                "  {id}: {} on {} captured states, without annotations",
                report.candidate.as_deref().unwrap_or("-"),
                report.states.unwrap_or_default()
            ),
            _ => writeln!(
                message,
                "  {id}: unchanged ({})",
                report.reason.as_deref().unwrap_or("not improved")
            ),
        };
    }
    let _ = writeln!(
        message,
        "\nBase checkpoint {}, seed {}.",
        loaded.revision.commit, result.seed
    );
    message
}

/// `questions.yaml` as YAML (block style), so a diff shows what alignment changed.
fn questions_to_yaml(questions: &Questions) -> String {
    let value = crate::wire::question::questions_to_value(questions);
    serde_yaml::to_string(&value)
        .unwrap_or_else(|_| super::super::model_files::questions_to_yaml(questions))
}

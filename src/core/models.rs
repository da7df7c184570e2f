//! Model discovery and repository models: create, show, commit, tag, log, and loading a
//! checkpoint for a decision.

use super::Context;
use super::model_files::{
    CapturePolicy, ModelSpec, invalid_checkpoint, invalid_files, parse_model_yaml,
    parse_questions_files,
};
use super::parsed_checkpoints::ParsedCheckpoint;
use crate::engine::builtin::learned::Heads;
use crate::error::{Error, Result};
use crate::ids::{ModelId, ModelRef};
use crate::repo::{self, Files, ModelPath, ModelRepo, Resolved};
use crate::store::NewRegistryEvent;
use crate::wire::Questions;
use crate::wire::decision::{Checkpoint, Revision};
use crate::wire::models::{ModelDetail, ModelEntry, ModelKind, ModelList, RefInfo};
use crate::wire::registry::RegistryAction;
use crate::wire::time::Committed;
use crate::wire::validate::FieldError;
use std::sync::Arc;

/// Base models with their engines, then the repository models (sorted by path).
pub fn list(ctx: &Context) -> Result<ModelList> {
    let mut models: Vec<ModelEntry> = ctx
        .engines()
        .list()
        .into_iter()
        .map(|(name, engine)| {
            let released = engine.release_date().map(str::to_owned);
            ModelEntry::base(name, engine.describe(), released)
        })
        .collect();
    for repo in ctx.repos().list()? {
        // One broken repository (say, its default branch deleted) must not hide the others.
        match entry(ctx, &repo) {
            Ok(entry) => models.push(entry),
            Err(error) => {
                tracing::warn!(%error, model = %repo.path(), "skipping an unreadable model");
            }
        }
    }
    Ok(ModelList { models })
}

fn entry(ctx: &Context, repo: &ModelRepo) -> Result<ModelEntry> {
    let head = repo.resolve(None)?;
    let base = read_spec(ctx, repo, &head.commit).map(|s| s.base).ok();
    // A repository model is released by each checkpoint at its default branch.
    let released = repo.checkpoint(&head.commit)?.created_at;
    Ok(ModelEntry {
        name: repo.path().to_string(),
        kind: ModelKind::Repository,
        engine: None,
        model_id: Some(repo.model_id()),
        path: Some(repo.path().to_string()),
        base,
        default_branch: Some(repo.default_branch()?),
        created_at: Some(Committed(repo.created_at()?)),
        latest_checkpoint: Some(head.commit),
        description: None,
        release_date: Some(released.format("%Y-%m-%d").to_string()),
    })
}

/// What `models create` needs.
#[derive(Debug, Clone)]
pub struct CreateModel {
    pub path: ModelPath,
    pub base: String,
    /// `questions.yaml` text; `None` creates a model without saved questions.
    pub questions_yaml: Option<String>,
    /// `gates.yaml` text (per-question gates of `arbiter eval`), checked against the
    /// questions as a commit's is; `None` creates a model without gates.
    pub gates_yaml: Option<String>,
    pub capture: CapturePolicy,
    pub message: Option<String>,
}

/// Create a repository model; the files are validated before anything is written.
pub fn create(ctx: &Context, request: &CreateModel) -> Result<ModelDetail> {
    let path = &request.path;
    let spec = ModelSpec {
        base: request.base.clone(),
        capture: request.capture,
    };
    let model_yaml = spec.to_yaml();
    let questions_yaml = request
        .questions_yaml
        .clone()
        .unwrap_or_else(|| "{}\n".to_owned());
    // Every problem of every file at once, as a commit reports them.
    let mut errors = model_problems(ctx, &model_yaml);
    errors.extend(questions_problems(
        &questions_yaml,
        &[],
        &[],
        request.gates_yaml.as_deref(),
    ));
    if !errors.is_empty() {
        return Err(invalid_files(errors));
    }
    let message = request
        .message
        .clone()
        .unwrap_or_else(|| format!("Create {path}"));
    let repo = ctx.repos().create(
        path,
        &Files {
            model_yaml,
            questions_yaml,
            aligned: Vec::new(),
            learned: Vec::new(),
        },
        request.gates_yaml.as_deref(),
        &message,
    )?;
    detail(ctx, &repo)
}

/// `models show`: branches, tags, capture policy and question IDs.
pub fn show(ctx: &Context, model: &ModelRef) -> Result<ModelDetail> {
    detail(ctx, &open(ctx, model)?)
}

fn detail(ctx: &Context, repo: &ModelRepo) -> Result<ModelDetail> {
    let head = repo.resolve(None)?;
    let loaded = load_resolved(ctx, repo, head)?;
    let refs = |pairs: Vec<(String, String)>| {
        pairs
            .into_iter()
            .map(|(name, commit)| RefInfo { name, commit })
            .collect()
    };
    Ok(ModelDetail {
        model_id: repo.model_id(),
        path: repo.path().to_string(),
        base: loaded.spec.base,
        default_branch: repo.default_branch()?,
        created_at: Committed(repo.created_at()?),
        latest_checkpoint: loaded.checkpoint,
        branches: refs(repo.branches()?),
        tags: refs(repo.tags()?),
        capture: loaded.spec.capture,
        questions: loaded.questions.keys().cloned().collect(),
    })
}

/// What `models commit` needs: new file contents (None keeps the parent's).
#[derive(Debug, Clone)]
pub struct CommitRequest {
    pub model: ModelRef,
    /// The branch to commit on [default: the default branch]; created from `start` if new.
    pub branch: Option<String>,
    pub start: Option<String>,
    pub questions_yaml: Option<String>,
    pub model_yaml: Option<String>,
    /// New `gates.yaml` (per-question gates of `arbiter eval`), checked against the
    /// questions the commit will have.
    pub gates_yaml: Option<String>,
    /// Question ID → its new learned file `aligned/<id>.yaml` (the others stay).
    pub aligned: Vec<(String, String)>,
    /// Questions whose `aligned/<id>.yaml` goes.
    pub unaligned: Vec<String>,
    /// The whole new `learned/` directory, by file name (`None`: the parent's stays).
    pub learned: Option<crate::repo::LearnedFiles>,
    pub message: String,
}

impl CommitRequest {
    /// A commit of `model` on its default branch that changes nothing yet: set the files
    /// it changes.
    pub fn new(model: ModelRef, message: impl Into<String>) -> Self {
        Self {
            model,
            branch: None,
            start: None,
            questions_yaml: None,
            model_yaml: None,
            gates_yaml: None,
            aligned: Vec::new(),
            unaligned: Vec::new(),
            learned: None,
            message: message.into(),
        }
    }
}

/// Commit a new checkpoint. The checkpoint it makes is validated first (the new files with
/// the parent's others), so an invalid model is never committed.
pub fn commit(ctx: &Context, request: &CommitRequest) -> Result<Checkpoint> {
    let repo = open(ctx, &request.model)?;
    let branch = match &request.branch {
        Some(branch) => branch.clone(),
        None => repo.default_branch()?,
    };
    // Every problem of every file at once.
    let mut errors = request
        .model_yaml
        .as_deref()
        .map(|text| model_problems(ctx, text))
        .unwrap_or_default();
    if request.questions_yaml.is_some()
        || request.gates_yaml.is_some()
        || !request.aligned.is_empty()
        || !request.unaligned.is_empty()
        || request.learned.is_some()
    {
        // The parent the commit will have: the branch's tip, else where it starts.
        let parent = match repo.resolve(Some(&branch)) {
            Ok(tip) => tip,
            Err(_) => repo.resolve(request.start.as_deref())?,
        };
        let files = repo.read(&parent.commit)?;
        let questions = request
            .questions_yaml
            .as_deref()
            .unwrap_or(&files.questions_yaml);
        let mut aligned = files.aligned;
        for (id, text) in &request.aligned {
            aligned.retain(|(other, _)| other != id);
            aligned.push((id.clone(), text.clone()));
        }
        aligned.retain(|(id, _)| !request.unaligned.contains(id));
        let learned = request.learned.as_deref().unwrap_or(&files.learned);
        // The gates, new or the parent's, must name questions the commit has (an
        // alignment, which changes neither, does not read them).
        let gates = match (&request.gates_yaml, &request.questions_yaml) {
            (Some(text), _) => Some(text.clone()),
            (None, Some(_)) => repo.read_gates(&parent.commit)?,
            (None, None) => None,
        };
        errors.extend(questions_problems(
            questions,
            &aligned,
            learned,
            gates.as_deref(),
        ));
    }
    if !errors.is_empty() {
        return Err(invalid_files(errors));
    }
    let checkpoint = repo.commit_files(
        &branch,
        request.start.as_deref(),
        repo::FileChange {
            model_yaml: request.model_yaml.as_deref(),
            questions_yaml: request.questions_yaml.as_deref(),
            gates_yaml: request.gates_yaml.as_deref(),
            aligned: &request.aligned,
            unaligned: &request.unaligned,
            learned: request.learned.as_deref(),
        },
        &request.message,
    )?;
    Ok(to_wire_checkpoint(&checkpoint))
}

/// Tag a revision (with `force`, move an existing tag), recorded in the model's history as
/// `actor`'s with the latest evaluation of the commit, unless the tag was there already.
pub fn tag(
    ctx: &Context,
    model: &ModelRef,
    name: &str,
    revision: &str,
    force: bool,
    actor: &str,
) -> Result<Revision> {
    let repo = open(ctx, model)?;
    let (tagged, before) = repo.set_tag(name, revision, force)?;
    if before.as_deref() != Some(tagged.commit.as_str()) {
        let model_id = repo.model_id();
        let evaluation = super::registry::relied_on(ctx, &model_id, &tagged.commit, None)?;
        super::registry::record(
            ctx,
            &model_id,
            &NewRegistryEvent {
                action: RegistryAction::Tag,
                ref_name: name,
                from: before.as_deref(),
                to: &tagged.commit,
                actor,
                evaluation: evaluation.as_ref(),
            },
        )?;
    }
    Ok(to_wire_revision(tagged))
}

/// Checkpoints of a revision, newest first.
pub fn log(
    ctx: &Context,
    model: &ModelRef,
    revision: Option<&str>,
    limit: usize,
) -> Result<Vec<Checkpoint>> {
    let repo = open(ctx, model)?;
    Ok(repo
        .log(revision, limit)?
        .iter()
        .map(to_wire_checkpoint)
        .collect())
}

/// Move the default branch to `revision` if that is a fast-forward, and record the move in
/// the model's history as `actor`'s, with the evaluation it relies on: `evaluation` (a job
/// that must have evaluated that commit; checked before anything moves), else the latest
/// evaluation of the commit. A promotion to where the branch already is records nothing.
/// The branch moves first and the record follows; a failed record is reported as an error
/// with the branch moved.
pub fn promote(
    ctx: &Context,
    model: &ModelRef,
    revision: &str,
    evaluation: Option<&str>,
    actor: &str,
) -> Result<Checkpoint> {
    let repo = open(ctx, model)?;
    let branch = repo.default_branch()?;
    let target = repo.resolve(Some(revision))?.commit;
    let model_id = repo.model_id();
    let relied_on = super::registry::relied_on(ctx, &model_id, &target, evaluation)?;
    let (from, checkpoint) = repo.fast_forward(&branch, &target)?;
    if from != checkpoint.id {
        super::registry::record(
            ctx,
            &model_id,
            &NewRegistryEvent {
                action: RegistryAction::Promote,
                ref_name: &branch,
                from: Some(&from),
                to: &checkpoint.id,
                actor,
                evaluation: relied_on.as_ref(),
            },
        )?;
    }
    Ok(to_wire_checkpoint(&checkpoint))
}

/// A model at a revision, ready to answer.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub model_id: ModelId,
    pub path: ModelPath,
    pub spec: ModelSpec,
    pub questions: Questions,
    /// The heads alignment fitted for some of its questions.
    pub heads: Heads,
    pub revision: Revision,
    pub checkpoint: Checkpoint,
}

impl Loaded {
    /// The engine its base model routes to. Every configured base has one, so a missing one
    /// is this server's fault, not the caller's.
    pub fn engine(&self, ctx: &Context) -> Result<Arc<dyn crate::engine::Engine>> {
        ctx.engines()
            .get(&self.spec.base)
            .cloned()
            .ok_or_else(|| Error::bug(format!("base model `{}` has no engine", self.spec.base)))
    }
}

/// A job's model at the commit it was pinned to when created, reported as the revision
/// it was asked by.
pub(crate) async fn load_pinned(
    ctx: &Context,
    model_id: &ModelId,
    revision: &Revision,
) -> Result<Loaded> {
    let (ctx, model, commit) = (
        ctx.clone(),
        ModelRef::Id(*model_id),
        revision.commit.clone(),
    );
    let mut loaded = super::blocking(move || load(&ctx, &model, Some(&commit))).await?;
    loaded.revision = revision.clone();
    Ok(loaded)
}

/// The repository model `text` names: its path (`owner/model`) or its `modelId` (a UUID:
/// it has no `/`, so the two never collide). Anything else is not found, with "did you
/// mean" when it is a likely typo of one of `base_models`. What an adapter calls on a name
/// it was given, so core works with [`ModelRef`]s only.
pub fn named<'n>(text: &str, base_models: impl IntoIterator<Item = &'n str>) -> Result<ModelRef> {
    text.parse().map_err(|_| unknown_name(text, base_models))
}

/// [`named`] among this home's base models.
pub fn named_here(ctx: &Context, text: &str) -> Result<ModelRef> {
    named(text, ctx.engines().list().into_iter().map(|(name, _)| name))
}

/// A name that is no repository path: not found, with the base model it is closest to when
/// it is a likely typo of one (as cargo's "did you mean"). Only base models are suggested:
/// they are public, while naming a repository model could reveal one a token cannot see.
fn unknown_name<'n>(model: &str, base_models: impl IntoIterator<Item = &'n str>) -> Error {
    let closest = base_models
        .into_iter()
        .map(|name| (strsim::levenshtein(model, name), name))
        .min();
    match closest {
        Some((0, name)) => Error::BaseModelNamed(name.to_owned()),
        Some((distance, name)) if distance <= (model.chars().count() / 3).max(1) => {
            Error::ModelMisspelled {
                model: model.to_owned(),
                suggestion: name.to_owned(),
            }
        }
        _ => Error::ModelNotFound(model.to_owned()),
    }
}

/// Delete `model`: its data in the store (examples with all recorded of them, jobs,
/// history), then its repository (here, and on a `file://` remote). Refused, deleting
/// nothing, while a job of it is queued or running, and when its repository is on an ssh
/// or https remote (the git host's to delete).
pub fn delete(ctx: &Context, model: &ModelRef) -> Result<()> {
    let repo = open(ctx, model)?;
    let path = repo.path().clone();
    ctx.repos().check_deletable(&path)?;
    if let Err(jobs) = ctx.store()?.delete_model_data(&repo.model_id())? {
        return Err(Error::Conflict {
            code: crate::error::ConflictCode::Conflict,
            detail: format!(
                "{path} has jobs queued or running ({}): cancel them (arbiter jobs cancel ID) \
                 or let them finish, then delete it",
                jobs.join(", ")
            ),
        });
    }
    drop(repo);
    ctx.repos().delete(&path)?;
    tracing::info!(model = %path, "model deleted");
    Ok(())
}

/// Delete `branch` of `model` (never its default branch), recorded in its history under
/// `actor` with the commit it pointed at, so it can be made again.
pub fn delete_branch(ctx: &Context, model: &ModelRef, branch: &str, actor: &str) -> Result<()> {
    let repo = open(ctx, model)?;
    let tip = repo.delete_branch(branch)?;
    let ref_name = format!("branches/{branch}");
    super::registry::record(
        ctx,
        &repo.model_id(),
        &NewRegistryEvent {
            action: RegistryAction::Delete,
            ref_name: &ref_name,
            from: Some(&tip),
            to: "",
            actor,
            evaluation: None,
        },
    )?;
    Ok(())
}

/// Open a model by path or by `modelId`.
pub fn open(ctx: &Context, model: &ModelRef) -> Result<ModelRepo> {
    match model {
        ModelRef::Path(path) => Ok(ctx.repos().open(path)?),
        ModelRef::Id(id) => open_by_id(ctx, id),
    }
}

/// Open a model by `modelId`.
pub fn open_by_id(ctx: &Context, model_id: &ModelId) -> Result<ModelRepo> {
    Ok(ctx.repos().find_by_id(*model_id)?)
}

/// Load the model at `revision` (default: its default branch).
pub fn load(ctx: &Context, model: &ModelRef, revision: Option<&str>) -> Result<Loaded> {
    let repo = open(ctx, model)?;
    let resolved = repo.resolve(revision)?;
    load_resolved(ctx, &repo, resolved)
}

fn load_resolved(ctx: &Context, repo: &ModelRepo, resolved: Resolved) -> Result<Loaded> {
    let parsed = ctx
        .parsed_checkpoints()
        .get_or_read(repo.model_id(), &resolved.commit, || {
            read_checkpoint(ctx, repo, &resolved.commit)
        })?;
    Ok(Loaded {
        model_id: repo.model_id(),
        path: repo.path().clone(),
        spec: parsed.spec.clone(),
        questions: parsed.questions.clone(),
        heads: parsed.heads.clone(),
        revision: to_wire_revision(resolved),
        checkpoint: parsed.checkpoint.clone(),
    })
}

/// Read and parse what `commit` of `repo` holds: an invalid model is `InvalidCheckpoint`,
/// located.
pub(super) fn read_checkpoint(
    ctx: &Context,
    repo: &ModelRepo,
    commit: &str,
) -> Result<ParsedCheckpoint> {
    let files = repo.read(commit)?;
    let model = repo.path();
    let spec = parse_model_yaml(&files.model_yaml, &|name| ctx.is_base_model(name))
        .map_err(|errors| invalid_checkpoint(model, commit, errors))?;
    let parsed = parse_questions_files(&files.questions_yaml, &files.aligned, &files.learned)
        .map_err(|errors| invalid_checkpoint(model, commit, errors))?;
    Ok(ParsedCheckpoint {
        spec,
        questions: parsed.questions,
        heads: parsed.heads,
        checkpoint: to_wire_checkpoint(&repo.checkpoint(commit)?),
    })
}

fn read_spec(ctx: &Context, repo: &ModelRepo, commit: &str) -> Result<ModelSpec> {
    let files = repo.read(commit)?;
    parse_model_yaml(&files.model_yaml, &|name| ctx.is_base_model(name))
        .map_err(|errors| invalid_checkpoint(repo.path(), commit, errors))
}

/// The problems of a `model.yaml` a checkpoint will have.
fn model_problems(ctx: &Context, model_yaml: &str) -> Vec<FieldError> {
    parse_model_yaml(model_yaml, &|name| ctx.is_base_model(name))
        .err()
        .unwrap_or_default()
}

/// The problems of the questions a checkpoint will have (its `questions.yaml` with its
/// learned files), then of its `gates.yaml`, if it will have one: each gate must name one
/// of those questions. A model's creation and a commit check their files with it alike.
fn questions_problems(
    questions_yaml: &str,
    aligned: &[(String, String)],
    learned: &[(String, Vec<u8>)],
    gates_yaml: Option<&str>,
) -> Vec<FieldError> {
    match parse_questions_files(questions_yaml, aligned, learned) {
        Ok(parsed) => gates_yaml
            .map(|gates| super::gates::check_file(gates, &parsed.questions))
            .unwrap_or_default(),
        Err(found) => found,
    }
}

fn to_wire_checkpoint(checkpoint: &repo::Checkpoint) -> Checkpoint {
    Checkpoint {
        checkpoint_id: checkpoint.id.clone(),
        created_at: Committed(checkpoint.created_at),
        message: checkpoint.message.trim_end().to_owned(),
    }
}

pub(crate) fn to_wire_revision(resolved: Resolved) -> Revision {
    Revision {
        name: resolved.name,
        kind: resolved.kind,
        commit: resolved.commit,
    }
}

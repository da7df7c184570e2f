//! A model travels with its labels: `models import` brings a model repository in from a
//! git URL or path, `models push` sends a model's branches and tags to one, and `models
//! pull` fast-forwards from one. A model repository may carry its labels, the annotated
//! examples, as `examples/annotated.jsonl` at its root (what `examples export --annotated`
//! writes); an import and a pull take its examples and annotations into the store.
//!
//! Each operation decides everything before it changes anything: an import whose
//! repository is no model, or whose labels file has a bad line, leaves nothing (no
//! repository, no example); a pull whose new default branch is no model, or whose labels
//! are bad, moves nothing. Local homes only (the CLI's `models` commands without routes).

pub mod labels;

use super::Context;
use super::models::{self, read_checkpoint};
use crate::error::{ConflictCode, Error, Result};
use crate::ids::{ModelPath, ModelRef};
use crate::repo::{ModelRepo, RepoError, upstream_url};
use crate::store::IngestItem;
use crate::wire::travel::{LABELS_FILE, LabelsIngested, Travelled};

/// What `models import` needs.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// The git repository, as the user named it: a URL, or a path to a bare repository or
    /// a clone.
    pub source: String,
    /// The model's path here ([`derived_path`] when the user names none).
    pub path: ModelPath,
    /// Whose the labels file's annotations that name no annotator are.
    pub annotator: String,
}

/// Brings the model in the repository at `request.source` into this home as
/// `request.path`: every branch and tag, its HEAD branch the default, its published model
/// id kept (else a new one), the source remembered as its upstream; with a shared remote,
/// published there as a new model is. The default branch must hold a model this home can
/// run (`model.yaml` and `questions.yaml` valid: else `InvalidCheckpoint`), and its
/// labels file, if any, must be valid against its questions (else a `Validation` error
/// with every bad line): then its examples and annotations are ingested. Anything refused
/// leaves nothing behind. A path taken, or a model id this home has under another path, is
/// a conflict.
pub fn import(ctx: &Context, request: &ImportRequest) -> Result<Travelled> {
    let url = upstream_url(&request.source)?;
    let incoming = ctx
        .repos()
        .fetch_incoming(&request.path, &url)
        .map_err(|e| match e {
            RepoError::AlreadyExists(path) => Error::Conflict {
                code: ConflictCode::AlreadyExists,
                detail: format!(
                    "model {path} already exists in this home: import under another path \
                     (--as OWNER/MODEL)"
                ),
            },
            other => other.into(),
        })?;
    let model = incoming.model();
    if let Ok(existing) = ctx.repos().find_by_id(model.model_id()) {
        return Err(Error::Conflict {
            code: ConflictCode::AlreadyExists,
            detail: format!(
                "{url} holds model {}, which is {} in this home: pull into it instead \
                 (arbiter models pull {} {url})",
                model.model_id(),
                existing.path(),
                existing.path()
            ),
        });
    }
    let commit = model.resolve(None)?.commit;
    let items = read_labels(ctx, model, &commit, &request.annotator)?;
    let moved = incoming.moved().to_vec();
    let placed = incoming.place()?;
    let labels = match items {
        Some(items) => match ctx
            .store()
            .and_then(|s| Ok(s.ingest_new(&placed.model_id(), &items)?))
        {
            Ok(counts) => Some(counts),
            Err(error) => {
                // All or nothing: the repository goes with the examples it could not bring.
                drop(placed);
                if let Err(undo) = ctx.repos().delete(&request.path) {
                    tracing::warn!(%undo, model = %request.path, "removing a failed import");
                }
                return Err(error);
            }
        },
        None => None,
    };
    tracing::info!(model = %request.path, %url, "model imported");
    report(&placed, url, moved, labels)
}

/// Sends every branch and tag of `model`, and its id, to `url` (else its upstream),
/// which must be a git repository (an empty one will do): refused whole, nothing sent,
/// when that would lose commits there (a branch ours does not descend from, a tag
/// elsewhere) unless `force`; always when it holds another model. The URL becomes the
/// upstream when the model has none.
pub fn push(ctx: &Context, model: &ModelRef, url: Option<&str>, force: bool) -> Result<Travelled> {
    let repo = models::open(ctx, model)?;
    let url = upstream_of(&repo, url, "push")?;
    let moved = ctx.repos().push_upstream(&repo, &url, force)?;
    report(&repo, url, moved, None)
}

/// Fast-forwards `model`'s branches from `url` (else its upstream), adds its tags, and
/// ingests the labels file at the default branch's new tip: new examples and new
/// annotations only, so pulling again adds nothing. Refused, nothing moved, when a branch
/// has diverged or a tag moved there, when the new tip is no valid model, or when its
/// labels file has a bad line. The URL becomes the upstream when the model has none.
pub fn pull(
    ctx: &Context,
    model: &ModelRef,
    url: Option<&str>,
    annotator: &str,
) -> Result<Travelled> {
    let repo = models::open(ctx, model)?;
    let url = upstream_of(&repo, url, "pull")?;
    let pull = ctx.repos().fetch_upstream(&repo, &url)?;
    let tip = pull.default_tip()?;
    let items = read_labels(ctx, &repo, &tip, annotator)?;
    let moved = pull.apply()?;
    let labels = match items {
        Some(items) => Some(ctx.store()?.ingest_new(&repo.model_id(), &items)?),
        None => None,
    };
    report(&repo, url, moved, labels)
}

/// The path a model imported from `source` gets when the user names none: the last two
/// components of its URL or path, `.git` dropped (`…/acme/support.git` → `acme/support`;
/// a clone's `…/acme/support/.git` too). `None` when they make no model path.
pub fn derived_path(source: &str) -> Option<ModelPath> {
    let text = source.trim();
    let path = match url::Url::parse(text) {
        Ok(url) if text.contains("://") => url.path().to_owned(),
        _ => match text.split_once(':') {
            // scp-like `host:path`, unless it is a path that is there.
            Some((host, rest))
                if !host.is_empty()
                    && !host.contains('/')
                    && !std::path::Path::new(text).exists() =>
            {
                rest.to_owned()
            }
            _ => text.to_owned(),
        },
    };
    let mut parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.last() == Some(&".git") {
        parts.pop();
    }
    let name = parts.pop()?;
    let owner = parts.pop()?;
    let name = name.strip_suffix(".git").unwrap_or(name);
    ModelPath::parse(&format!("{owner}/{name}")).ok()
}

/// `url` as the upstream libgit2 reaches, else the one `repo` remembers.
fn upstream_of(repo: &ModelRepo, url: Option<&str>, verb: &'static str) -> Result<String> {
    match url {
        Some(text) => Ok(upstream_url(text)?),
        None => repo.upstream()?.ok_or_else(|| {
            Error::from(RepoError::NoUpstream {
                model: repo.path().to_string(),
                verb,
            })
        }),
    }
}

/// The labels file at `commit` of `repo` as store items, checked against the model there
/// (which must be valid); `None` when it carries none.
fn read_labels(
    ctx: &Context,
    repo: &ModelRepo,
    commit: &str,
    annotator: &str,
) -> Result<Option<Vec<IngestItem>>> {
    let parsed = read_checkpoint(ctx, repo, commit)?;
    let Some(text) = repo.read_path(commit, LABELS_FILE)? else {
        return Ok(None);
    };
    labels::items(&text, LABELS_FILE, &parsed.questions, annotator).map(Some)
}

fn report(
    repo: &ModelRepo,
    url: String,
    moved: Vec<crate::wire::travel::RefMove>,
    labels: Option<crate::store::IngestCounts>,
) -> Result<Travelled> {
    Ok(Travelled {
        model: repo.path().to_string(),
        model_id: repo.model_id(),
        url,
        default_branch: repo.default_branch()?,
        moved,
        labels: labels.map(|counts| LabelsIngested {
            created: counts.created,
            existing: counts.existing,
            annotations: counts.annotations,
        }),
    })
}

#[cfg(test)]
mod tests;

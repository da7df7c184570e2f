//! A push: every branch and tag of a model, and its id, to its upstream.

use std::collections::HashMap;

use git2::{ErrorCode, Oid};

use super::{Planned, ScratchRefs, also_refused, model_id_at, refs_under, upstream_failure};
use crate::repo::error::RepoError;
use crate::repo::model::ModelRepo;
use crate::repo::remote::{MODEL_ID_REF, fetch_url, list_url, push_url};
use crate::repo::repos::Repos;
use crate::repo::staging::model_id_marker;
use crate::wire::travel::{RefKind, RefMove};

/// A ref to push, and whether the push replaces what is there (`+`).
type Send = (Planned, bool);

impl Repos {
    /// Pushes every branch and tag of `model`, and its id (`refs/arbiter/model-id`, made
    /// here when it has none), to the repository at `url`, which must exist (an empty one
    /// will do). Refused, nothing pushed, when the upstream has a branch ours does not
    /// descend from (a non-fast-forward: its commits would be lost) or a tag elsewhere,
    /// unless `force`, which replaces them; and always when it publishes another model's
    /// id. Branches and tags only the upstream has stay. `url` is remembered as the
    /// upstream when the model has none. The refs it moved there.
    pub fn push_upstream(
        &self,
        model: &ModelRepo,
        url: &str,
        force: bool,
    ) -> Result<Vec<RefMove>, RepoError> {
        model.refresh();
        let marker = model_id_marker(&model.repo, model.path())?;
        let theirs: HashMap<String, Oid> = list_url(url, &self.credentials)
            .map_err(|e| upstream_failure(url, "listing the refs of", &e))?
            .into_iter()
            .collect();
        // Another marker may still publish our id (made twice); another id is another model.
        if theirs.get(MODEL_ID_REF).is_some_and(|id| *id != marker) {
            let id = self.model_id_there(model, url)?;
            if id != model.model_id().to_string() {
                return Err(RepoError::OtherModel {
                    model: model.path().to_string(),
                    url: url.to_owned(),
                    ours: model.model_id().to_string(),
                    theirs: id,
                });
            }
        }
        let sends = plan(model, url, &theirs, marker, force)?;
        self.send(model, url, &sends)?;
        adopt_head(url, &model.default_branch()?);
        model.remember_upstream(url)?;
        Ok(sends.iter().map(|(p, _)| p.to_move(&model.repo)).collect())
    }

    /// Pushes `sends` in one push; a move another push made meanwhile is refused by
    /// libgit2 (the specs without `+` are fast-forwards of what was listed).
    fn send(&self, model: &ModelRepo, url: &str, sends: &[Send]) -> Result<(), RepoError> {
        if sends.is_empty() {
            return Ok(());
        }
        let specs: Vec<String> = sends
            .iter()
            .map(|(p, forced)| {
                let plus = if *forced { "+" } else { "" };
                format!("{plus}{0}:{0}", p.refname)
            })
            .collect();
        let specs: Vec<&str> = specs.iter().map(String::as_str).collect();
        let refusals = push_url(&model.repo, url, &specs, &self.credentials).map_err(|e| {
            if e.code() == ErrorCode::NotFastForward {
                RepoError::Diverged {
                    url: url.to_owned(),
                    what: "another push moved a branch there meanwhile".to_owned(),
                    advice: format!(
                        "nothing was pushed: pull (arbiter models pull {}) and push again",
                        model.path()
                    ),
                }
            } else {
                upstream_failure(url, "pushing to", &e)
            }
        })?;
        if refusals.is_empty() {
            return Ok(());
        }
        let said: Vec<String> = refusals
            .iter()
            .map(|(name, why)| format!("{name}: {why}"))
            .collect();
        Err(RepoError::UpstreamUnavailable {
            url: url.to_owned(),
            reason: format!("it refused the push ({})", said.join("; ")),
        })
    }

    /// The model id the repository at `url` publishes, its marker fetched aside for the
    /// reading.
    fn model_id_there(&self, model: &ModelRepo, url: &str) -> Result<String, RepoError> {
        let scratch = ScratchRefs::new(&model.repo);
        let into = format!("+{MODEL_ID_REF}:{}model-id", scratch.prefix);
        fetch_url(&model.repo, url, &[into.as_str()], &self.credentials)
            .map_err(|e| upstream_failure(url, "fetching the model id of", &e))?;
        Ok(model_id_at(&model.repo, &format!("{}model-id", scratch.prefix)).unwrap_or_default())
    }
}

/// Points the HEAD of the repository at `url` at `branch` when its HEAD names no branch
/// that is there (an empty repository, `git init --bare`'s `master`) and `branch` now is,
/// so a clone of it checks the model out, as a git host makes the first branch pushed its
/// default. Only a repository on this machine (a path, a `file://` URL): a host's HEAD is
/// the host's. Best effort: a HEAD that cannot be read or set is left as it is.
fn adopt_head(url: &str, branch: &str) {
    let dir = match url::Url::parse(url) {
        Ok(parsed) if parsed.scheme() == "file" => parsed.to_file_path().ok(),
        Ok(_) => None,
        Err(_) => Some(std::path::PathBuf::from(url)).filter(|p| p.is_absolute()),
    };
    let Some(repo) = dir.and_then(|dir| git2::Repository::open(dir).ok()) else {
        return;
    };
    let wanted = format!("refs/heads/{branch}");
    if matches!(repo.head(), Err(e) if e.code() == ErrorCode::UnbornBranch)
        && repo.find_reference(&wanted).is_ok()
        && let Err(error) = repo.set_head(&wanted)
    {
        tracing::warn!(%error, url, "setting the pushed repository's HEAD");
    }
}

/// What a push of `model` sends to `url`, which has `theirs`: each branch and tag that is
/// not there as it is here, and the model id `marker` when it has none. A branch there
/// that ours does not descend from, or a tag elsewhere, is refused (all of them, said at
/// once) unless `force`.
fn plan(
    model: &ModelRepo,
    url: &str,
    theirs: &HashMap<String, Oid>,
    marker: Oid,
    force: bool,
) -> Result<Vec<Send>, RepoError> {
    let repo = &model.repo;
    let mut ours = Vec::new();
    for (kind, prefix) in [
        (RefKind::Branch, "refs/heads/"),
        (RefKind::Tag, "refs/tags/"),
    ] {
        for (name, new) in refs_under(repo, prefix)? {
            let refname = format!("{prefix}{name}");
            let old = theirs.get(&refname).copied();
            ours.push(Planned {
                kind,
                name,
                refname,
                old,
                new,
            });
        }
    }
    if !theirs.contains_key(MODEL_ID_REF) {
        ours.push(Planned {
            kind: RefKind::ModelId,
            name: "model-id".to_owned(),
            refname: MODEL_ID_REF.to_owned(),
            old: None,
            new: marker,
        });
    }
    let mut sends = Vec::new();
    let mut refused = Vec::new();
    for planned in ours {
        match planned.old {
            Some(old) if old == planned.new => {}
            // Theirs must be in ours: a commit we do not have is one a push would lose.
            Some(old)
                if planned.kind == RefKind::Branch
                    && repo.graph_descendant_of(planned.new, old).unwrap_or(false) =>
            {
                sends.push((planned, false));
            }
            Some(_) if !force => refused.push(planned),
            Some(_) => sends.push((planned, true)),
            None => sends.push((planned, false)),
        }
    }
    let Some(first) = refused.first() else {
        return Ok(sends);
    };
    let path = model.path();
    let what = match first.kind {
        RefKind::Tag => format!("its {} is at another commit", first.what()),
        _ => format!(
            "its {} is not an ancestor of {path}'s (it has commits {path} has not)",
            first.what()
        ),
    };
    Err(RepoError::Diverged {
        url: url.to_owned(),
        what: what + &also_refused(&refused),
        advice: format!(
            "nothing was pushed: pull first (arbiter models pull {path} {url}), or replace \
             them with --force"
        ),
    })
}

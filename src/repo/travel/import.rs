//! An import: a model repository cloned from its upstream into a staging directory, read
//! there like any model, and moved into the root only once the caller has checked it.

use std::path::PathBuf;
use std::sync::Arc;

use git2::ConfigLevel;
use uuid::Uuid;

use super::{Planned, model_id_at, refs_under, set_upstream, upstream_failure};
use crate::ids::{ModelId, ModelPath};
use crate::repo::error::RepoError;
use crate::repo::model::{MODEL_ID_KEY, ModelRepo};
use crate::repo::remote::{MODEL_ID_REF, Remote, fetch_url};
use crate::repo::repos::Repos;
use crate::repo::staging::{Staging, init_bare, publish};
use crate::wire::travel::{RefKind, RefMove};

/// What an import fetches: every branch and tag, and the model id.
const IMPORT_REFSPECS: [&str; 3] = [
    "+refs/heads/*:refs/heads/*",
    "+refs/tags/*:refs/tags/*",
    "+refs/arbiter/model-id:refs/arbiter/model-id",
];

/// A model repository cloned from its upstream, not in the root yet: read it with
/// [`Self::model`], then [`Self::place`] it, or drop it and nothing is left.
pub struct Incoming {
    model: ModelRepo,
    staging: Staging,
    root: PathBuf,
    remote: Option<Arc<Remote>>,
    moved: Vec<RefMove>,
}

impl Repos {
    /// Clones the repository at `url` ([`super::upstream_url`]) for the model `path`: every
    /// branch and tag, into a staging directory beside its place. The default branch is
    /// the upstream's HEAD branch (else `main`, else its only branch); the model id is the
    /// one it publishes (`refs/arbiter/model-id`), else a new one; `url` is remembered as
    /// its upstream. `AlreadyExists` when `path` is a model here (or on the shared
    /// remote); `NotAModel` when the upstream has no branch to be the default.
    pub fn fetch_incoming(&self, path: &ModelPath, url: &str) -> Result<Incoming, RepoError> {
        match self.open(path) {
            Ok(_) => return Err(RepoError::AlreadyExists(path.to_string())),
            Err(RepoError::ModelNotFound(_)) => {}
            Err(e) => return Err(e),
        }
        let staging = Staging::beside(&self.root, path)?;
        let context = |doing: &str| format!("{doing} {path} from {url}");
        let repo = init_bare(&staging.0).map_err(|e| RepoError::git(context("importing"), &e))?;
        let head = fetch_url(&repo, url, &IMPORT_REFSPECS, &self.credentials)
            .map_err(|e| upstream_failure(url, "fetching", &e))?;
        let branches = refs_under(&repo, "refs/heads/")?;
        let default = head
            .filter(|b| branches.contains_key(b))
            .or_else(|| branches.contains_key("main").then(|| "main".to_owned()))
            .or_else(|| (branches.len() == 1).then(|| branches.keys().next().cloned())?)
            .ok_or_else(|| RepoError::NotAModel {
                url: url.to_owned(),
                reason: if branches.is_empty() {
                    "it has no branch".to_owned()
                } else {
                    "its HEAD names none of its branches, and none is `main`".to_owned()
                },
            })?;
        repo.set_head(&format!("refs/heads/{default}"))
            .map_err(|e| RepoError::git(context("importing"), &e))?;
        let model_id = match model_id_at(&repo, MODEL_ID_REF) {
            Some(text) => text.parse::<ModelId>().map_err(|e| RepoError::NotAModel {
                url: url.to_owned(),
                reason: format!("its refs/arbiter/model-id holds no model id: {}", e.reason),
            })?,
            None => ModelId::from(Uuid::new_v4()),
        };
        repo.config()
            .and_then(|c| c.open_level(ConfigLevel::Local))
            .and_then(|mut c| c.set_str(MODEL_ID_KEY, &model_id.to_string()))
            .and_then(|()| set_upstream(&repo, url))
            .map_err(|e| RepoError::git(context("importing"), &e))?;
        let mut moved = Vec::new();
        for (kind, prefix) in [
            (RefKind::Branch, "refs/heads/"),
            (RefKind::Tag, "refs/tags/"),
        ] {
            for (name, new) in refs_under(&repo, prefix)? {
                let refname = format!("{prefix}{name}");
                let planned = Planned {
                    kind,
                    name,
                    refname,
                    old: None,
                    new,
                };
                moved.push(planned.to_move(&repo));
            }
        }
        if let Ok(marker) = repo.refname_to_id(MODEL_ID_REF) {
            moved.push(RefMove {
                kind: RefKind::ModelId,
                name: "model-id".to_owned(),
                old: None,
                new: marker.to_string(),
            });
        }
        drop(repo);
        let model = ModelRepo::open_dir(path.clone(), &staging.0)?;
        Ok(Incoming {
            model,
            staging,
            root: self.root.clone(),
            remote: self.remote.clone(),
            moved,
        })
    }
}

impl Incoming {
    /// The model as cloned, to be read before it is placed.
    #[must_use]
    pub fn model(&self) -> &ModelRepo {
        &self.model
    }

    /// Every ref the import makes.
    #[must_use]
    pub fn moved(&self) -> &[RefMove] {
        &self.moved
    }

    /// Moves the model into the root (published to the shared remote first, when there is
    /// one, as a model made here is): from now on it is opened like any other. Another
    /// maker of the same path first is `AlreadyExists`, and nothing of this one is left.
    pub fn place(self) -> Result<ModelRepo, RepoError> {
        let Incoming {
            model,
            staging,
            root,
            remote,
            ..
        } = self;
        let path = model.path().clone();
        if let Some(remote) = &remote {
            publish(remote, &path, &model.repo)?;
        }
        drop(model);
        staging.move_into_place(&root, &path)?;
        Ok(ModelRepo::open_dir(path.clone(), &path.git_dir(&root))?.with_remote(remote))
    }
}

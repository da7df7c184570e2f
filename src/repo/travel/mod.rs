//! A model's travels between this root and a git repository elsewhere (its *upstream*: a
//! URL or a path): [`Repos::fetch_incoming`] clones one in (an import),
//! [`Repos::push_upstream`] sends every branch and tag there, and
//! [`Repos::fetch_upstream`] fast-forwards this root's branches from there (a pull). A
//! repository remembers its upstream in its config (`arbiter.upstream`).
//!
//! The transport is [`super::remote`]'s (its credentials callback, and the fetch, push and
//! listing of a URL), so an upstream is reached as the shared remote is. Which refs move is
//! decided here, in full, before any moves: a refused ref moves nothing. A model's identity
//! travels as the shared remote publishes it, `refs/arbiter/model-id`.
//!
//! [`Repos::fetch_incoming`]: super::Repos::fetch_incoming
//! [`Repos::push_upstream`]: super::Repos::push_upstream
//! [`Repos::fetch_upstream`]: super::Repos::fetch_upstream

mod import;
mod pull;
mod push;
#[cfg(test)]
mod tests;

pub use import::Incoming;
pub use pull::Pull;

use std::collections::BTreeMap;
use std::path::Path;

use git2::{ConfigLevel, ErrorCode, Oid, Repository};

use super::error::RepoError;
use super::model::ModelRepo;
use super::remote::{is_transport, looks_missing};
use crate::wire::travel::{RefKind, RefMove};

/// Config key holding a model's upstream.
const UPSTREAM_KEY: &str = "arbiter.upstream";
/// Where a pull (or a push reading the upstream's model id) fetches to, under a prefix of
/// its own ([`ScratchRefs`]): never listed, never fetched by a mirror.
const SCRATCH_PREFIX: &str = "refs/arbiter-travel/";

/// `text` as the upstream libgit2 reaches: a `file://`, `ssh://`, `https://` or `http://`
/// URL (without a password: secrets come from the environment), an scp-like
/// `user@host:path`, or a path to a repository (a bare one, or a working copy's), made
/// absolute so that it means the same from any directory once remembered. A path that is
/// not there is `UpstreamNotFound`.
pub fn upstream_url(text: &str) -> Result<String, RepoError> {
    let invalid = |reason: &str| RepoError::InvalidUrl {
        url: text.to_owned(),
        reason: reason.to_owned(),
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(invalid("it is empty"));
    }
    if trimmed.contains("://") {
        let url = url::Url::parse(trimmed).map_err(|e| invalid(&e.to_string()))?;
        if url.password().is_some() {
            let mut shown = url.clone();
            let _ = shown.set_password(None);
            return Err(RepoError::InvalidUrl {
                url: shown.to_string(),
                reason: "a password in the URL is not kept: set ARBITER_REPOS_USERNAME and \
                         ARBITER_REPOS_PASSWORD instead"
                    .to_owned(),
            });
        }
        match url.scheme() {
            "file" if url.to_file_path().is_err() => {
                return Err(invalid("a file:// URL names an absolute path and no host"));
            }
            "file" | "ssh" | "https" | "http" => {}
            other => {
                return Err(invalid(&format!(
                    "the scheme must be file, ssh, https or http, not {other}"
                )));
            }
        }
        return Ok(trimmed.trim_end_matches('/').to_owned());
    }
    let path = Path::new(trimmed);
    if !path.exists() && is_scp_like(trimmed) {
        return Ok(trimmed.to_owned());
    }
    let absolute = path
        .canonicalize()
        .map_err(|e| RepoError::UpstreamNotFound {
            url: trimmed.to_owned(),
            reason: e.to_string(),
        })?;
    absolute
        .to_str()
        .map(str::to_owned)
        .ok_or_else(|| invalid("the path is not UTF-8"))
}

/// `host:path` or `user@host:path`, as git reads it: a `:` before any `/`.
fn is_scp_like(text: &str) -> bool {
    text.split_once(':')
        .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// A failure to reach or read the upstream at `url` while `doing`, said as such; a fault of
/// the local repository as a git error.
fn upstream_failure(url: &str, doing: &str, e: &git2::Error) -> RepoError {
    if !is_transport(e) {
        return RepoError::git(format!("{doing} {url}"), e);
    }
    if looks_missing(e.message()) {
        RepoError::UpstreamNotFound {
            url: url.to_owned(),
            reason: e.message().to_owned(),
        }
    } else {
        RepoError::UpstreamUnavailable {
            url: url.to_owned(),
            reason: format!("{doing}: {}", e.message()),
        }
    }
}

/// The refs under `prefix` by their names after it, each at its target (an annotated tag
/// at its tag object). Symbolic refs are left out.
fn refs_under(repo: &Repository, prefix: &str) -> Result<BTreeMap<String, Oid>, RepoError> {
    let err = |e: git2::Error| RepoError::git("listing refs", &e);
    let mut out = BTreeMap::new();
    for reference in repo.references_glob(&format!("{prefix}*")).map_err(err)? {
        let reference = reference.map_err(err)?;
        if let (Ok(name), Some(target)) = (reference.name(), reference.target())
            && let Some(short) = name.strip_prefix(prefix)
        {
            out.insert(short.to_owned(), target);
        }
    }
    Ok(out)
}

/// The model id a `refs/arbiter/model-id` marker at `refname` publishes: its commit's
/// message. `None` when there is no such ref.
fn model_id_at(repo: &Repository, refname: &str) -> Option<String> {
    let commit = repo.find_reference(refname).ok()?.peel_to_commit().ok()?;
    Some(commit.message().unwrap_or_default().trim().to_owned())
}

/// `oid` as a move shows it: the commit it is, or names (an annotated tag's).
fn shown(repo: &Repository, oid: Oid) -> String {
    repo.find_object(oid, None)
        .and_then(|o| o.peel_to_commit())
        .map_or(oid, |c| c.id())
        .to_string()
}

/// One planned ref move: `refname` from `old` (None: it is made) to `new`.
#[derive(Debug, Clone)]
struct Planned {
    kind: RefKind,
    name: String,
    refname: String,
    old: Option<Oid>,
    new: Oid,
}

impl Planned {
    fn to_move(&self, repo: &Repository) -> RefMove {
        RefMove {
            kind: self.kind,
            name: self.name.clone(),
            old: self.old.map(|old| shown(repo, old)),
            new: shown(repo, self.new),
        }
    }

    /// The ref in words (branch, tag or model id, and its name), for messages.
    fn what(&self) -> String {
        match self.kind {
            RefKind::Branch => format!("branch `{}`", self.name),
            RefKind::Tag => format!("tag `{}`", self.name),
            RefKind::ModelId => "the model id (refs/arbiter/model-id)".to_owned(),
        }
    }
}

/// "; refused too: " and the refused after the first, or nothing when there is one.
fn also_refused(refused: &[Planned]) -> String {
    if refused.len() < 2 {
        return String::new();
    }
    let others: Vec<String> = refused[1..].iter().map(Planned::what).collect();
    format!("; refused too: {}", others.join(", "))
}

/// Refs made under a scratch prefix, deleted on drop (their objects stay).
struct ScratchRefs<'r> {
    repo: &'r Repository,
    prefix: String,
}

impl<'r> ScratchRefs<'r> {
    /// A new prefix under [`SCRATCH_PREFIX`], none of its refs made yet.
    fn new(repo: &'r Repository) -> Self {
        Self {
            repo,
            prefix: format!("{SCRATCH_PREFIX}{}/", uuid::Uuid::new_v4()),
        }
    }
}

impl Drop for ScratchRefs<'_> {
    fn drop(&mut self) {
        let Ok(refs) = self.repo.references_glob(&format!("{}*", self.prefix)) else {
            return;
        };
        for mut reference in refs.flatten() {
            let _ = reference.delete();
        }
    }
}

impl ModelRepo {
    /// The repository this model travels to and from by default (`arbiter.upstream`), if
    /// it remembers one.
    pub fn upstream(&self) -> Result<Option<String>, RepoError> {
        let config = self
            .repo
            .config()
            .and_then(|c| c.open_level(ConfigLevel::Local))
            .map_err(self.git_err("reading the config"))?;
        match config.get_string(UPSTREAM_KEY) {
            Ok(url) => Ok(Some(url)),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
            Err(e) => Err(self.git_err("reading the upstream")(e)),
        }
    }

    /// Remembers `url` as the upstream, unless the model has one.
    fn remember_upstream(&self, url: &str) -> Result<(), RepoError> {
        if self.upstream()?.is_some() {
            return Ok(());
        }
        set_upstream(&self.repo, url).map_err(self.git_err("remembering the upstream"))
    }
}

fn set_upstream(repo: &Repository, url: &str) -> Result<(), git2::Error> {
    repo.config()?
        .open_level(ConfigLevel::Local)?
        .set_str(UPSTREAM_KEY, url)
}

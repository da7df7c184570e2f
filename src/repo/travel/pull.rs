//! A pull: a model's upstream's branches and tags fetched aside, checked, and only then
//! moved into the model.

use super::{Planned, ScratchRefs, also_refused, model_id_at, refs_under, upstream_failure};
use crate::repo::error::RepoError;
use crate::repo::model::ModelRepo;
use crate::repo::remote::fetch_url;
use crate::repo::repos::Repos;
use crate::wire::travel::{RefKind, RefMove};

/// What a pull moves, fetched and checked, not moved yet: [`Self::apply`] moves it, and a
/// pull dropped moves nothing.
pub struct Pull<'r> {
    model: &'r ModelRepo,
    url: String,
    planned: Vec<Planned>,
    /// Holds the fetched commits until the refs move.
    _fetched: ScratchRefs<'r>,
}

impl Repos {
    /// Fetches the branches and tags of the repository at `url` into `model`, aside, and
    /// plans what a pull moves: each branch ours is an ancestor of (or that we lack) is
    /// fast-forwarded (or made), each tag we lack is made; a branch we are ahead on stays.
    /// Refused, nothing moved, when a branch has diverged (each side has commits the other
    /// has not) or a tag is elsewhere, and when the upstream publishes another model's id.
    /// Branches and tags only we have stay.
    pub fn fetch_upstream<'r>(
        &self,
        model: &'r ModelRepo,
        url: &str,
    ) -> Result<Pull<'r>, RepoError> {
        // With a shared remote, plan on what it has: the moves are made there.
        model.sync_for_write()?;
        let repo = &model.repo;
        let fetched = ScratchRefs::new(repo);
        let prefix = fetched.prefix.clone();
        let specs = [
            format!("+refs/heads/*:{prefix}heads/*"),
            format!("+refs/tags/*:{prefix}tags/*"),
            format!("+refs/arbiter/model-id:{prefix}model-id"),
        ];
        let specs: Vec<&str> = specs.iter().map(String::as_str).collect();
        fetch_url(repo, url, &specs, &self.credentials)
            .map_err(|e| upstream_failure(url, "fetching", &e))?;
        if let Some(theirs) = model_id_at(repo, &format!("{prefix}model-id"))
            && theirs != model.model_id().to_string()
        {
            return Err(RepoError::OtherModel {
                model: model.path().to_string(),
                url: url.to_owned(),
                ours: model.model_id().to_string(),
                theirs,
            });
        }
        let mut planned = Vec::new();
        let mut refused = Vec::new();
        for (kind, prefix_there, prefix_here) in [
            (RefKind::Branch, "heads/", "refs/heads/"),
            (RefKind::Tag, "tags/", "refs/tags/"),
        ] {
            let ours = refs_under(repo, prefix_here)?;
            for (name, new) in refs_under(repo, &format!("{prefix}{prefix_there}"))? {
                let old = ours.get(&name).copied();
                let step = Planned {
                    kind,
                    refname: format!("{prefix_here}{name}"),
                    name,
                    old,
                    new,
                };
                let Some(old) = old else {
                    planned.push(step);
                    continue;
                };
                let descends = |a, b| repo.graph_descendant_of(a, b).unwrap_or(false);
                if old == new || (kind == RefKind::Branch && descends(old, new)) {
                    // Already there, or ahead: nothing to take.
                } else if kind == RefKind::Branch && descends(new, old) {
                    planned.push(step);
                } else {
                    refused.push(step);
                }
            }
        }
        if let Some(first) = refused.first() {
            let what = match first.kind {
                RefKind::Tag => format!("its {} is at another commit than ours", first.what()),
                _ => format!(
                    "{} has diverged: {} and {url} each have commits the other has not",
                    first.what(),
                    model.path()
                ),
            } + &also_refused(&refused);
            return Err(RepoError::Diverged {
                url: url.to_owned(),
                what,
                advice: "nothing was moved: merge the two in a clone and push the merge there \
                         (then pull again)"
                    .to_owned(),
            });
        }
        Ok(Pull {
            model,
            url: url.to_owned(),
            planned,
            _fetched: fetched,
        })
    }
}

impl Pull<'_> {
    /// The refs the pull moves.
    #[must_use]
    pub fn moves(&self) -> Vec<RefMove> {
        self.planned
            .iter()
            .map(|p| p.to_move(&self.model.repo))
            .collect()
    }

    /// The commit the model's default branch is at once the pull is applied.
    pub fn default_tip(&self) -> Result<String, RepoError> {
        let branch = self.model.default_branch()?;
        match self
            .planned
            .iter()
            .find(|p| p.kind == RefKind::Branch && p.name == branch)
        {
            Some(step) => Ok(step.new.to_string()),
            None => Ok(self.model.resolve(Some(&branch))?.commit),
        }
    }

    /// Moves the refs, each a compare-and-swap on what was planned (on the shared remote
    /// first, when there is one), and remembers the upstream when the model has none. A
    /// ref another writer moved meanwhile is a `Conflict` (the ones before it stay moved).
    pub fn apply(self) -> Result<Vec<RefMove>, RepoError> {
        let moves = self.moves();
        for step in &self.planned {
            self.model.swap_ref(
                &step.refname,
                &step.name,
                &step.what(),
                step.old,
                step.new,
                &format!("arbiter: pull {}", self.url),
            )?;
        }
        self.model.remember_upstream(&self.url)?;
        Ok(moves)
    }
}

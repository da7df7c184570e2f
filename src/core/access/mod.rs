//! The operations of core as a caller ([`Principal`]) may run them: a token on the server,
//! the owner on a local home ([`Principal::owner`]). Every adapter comes in here, by one
//! door, a [`Session`] (the context and the caller): the server's handlers, and the command
//! line's [`super::service::Local`]; each only maps the result, and holds no rule of its
//! own.
//!
//! A model's operations are the methods of [`OnModel`], made from the [`Permitted`] proof
//! that [`Session::permit`] made. Each names what it needs of its caller once, as a
//! [`Need`] (the token's scopes and a role on the model); the adapter checks that need
//! where it first knows the model (a handler before it reads the body), and the operation
//! takes the proof only for its own need.
//!
//! An invisible model or job answers exactly like a missing one (by the ID asked for),
//! so a token cannot learn what exists beyond what it may see. The operations are async:
//! the store and repository work runs on the blocking pool inside them, once, here.

use super::Context;
use super::tokens::{Principal, Role, Scope};
use crate::error::{Error, Result};
use crate::ids::{ModelId, ModelRef};
use crate::wire::jobs::JobKind;
use std::collections::HashMap;

mod jobs;
mod model;
mod session;

pub use jobs::{JobListing, cancel_job, job_results_page};
pub use model::{ModelService, OnModel};
pub use session::{Scoped, Session};

/// `modelId` → path of every repository model.
pub fn model_paths(ctx: &Context) -> Result<HashMap<ModelId, String>> {
    Ok(ctx
        .repos()
        .list()?
        .into_iter()
        .map(|repo| (repo.model_id(), repo.path().to_string()))
        .collect())
}

/// The scope a job of `kind` is created, read and cancelled under: an evaluation is a batch
/// of decisions.
pub const fn scope_of(kind: JobKind) -> Scope {
    scopes_of(kind)[0]
}

/// [`scope_of`] as the one-scope list a [`Need`] holds.
const fn scopes_of(kind: JobKind) -> &'static [Scope] {
    match kind {
        JobKind::Batch | JobKind::Evaluation => &[Scope::Batches],
        JobKind::Alignment => &[Scope::Alignments],
    }
}

/// What an operation on a model needs of its caller: every one of `scopes` on its token,
/// and `role` or more on the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    /// The operation, as a bug in the caller names it.
    pub what: &'static str,
    pub scopes: &'static [Scope],
    pub role: Role,
}

impl Need {
    /// What the owner of a local home holds on every model: every scope, `admin`.
    pub const OWNER: Self = Self::new(
        "the owner's work",
        <Scope as strum::VariantArray>::VARIANTS,
        Role::Admin,
    );

    const fn new(what: &'static str, scopes: &'static [Scope], role: Role) -> Self {
        Self { what, scopes, role }
    }

    /// Whether a proof checked for `self` serves an operation that needs `other`.
    fn covers(&self, other: &Self) -> bool {
        self.role >= other.role && other.scopes.iter().all(|s| self.scopes.contains(s))
    }

    /// What creating a job of `kind` needs: deciding is reading the model (a batch, whose
    /// captures follow the policy the model's writers set; an evaluation); an alignment
    /// commits to it.
    pub const fn to_create(kind: JobKind) -> Self {
        let (what, role) = match kind {
            JobKind::Batch => ("creating a batch", Role::Reader),
            JobKind::Evaluation => ("creating an evaluation", Role::Reader),
            JobKind::Alignment => ("creating an alignment", Role::Writer),
        };
        Self::new(what, scopes_of(kind), role)
    }

    /// What listing a model's jobs of `kind` needs: their kind's scope, reading the model.
    pub const fn to_list(kind: JobKind) -> Self {
        Self::new("listing jobs", scopes_of(kind), Role::Reader)
    }
}

// What each operation on a model needs (the HTTP routes' scopes and roles, which the
// OpenAPI document states).
pub const SHOW_MODEL: Need = Need::new("showing a model", &[Scope::ModelsRead], Role::Reader);
pub const LOG: Need = Need::new("listing checkpoints", &[Scope::ModelsRead], Role::Reader);
pub const HISTORY: Need = Need::new("the model's history", &[Scope::ModelsRead], Role::Reader);
pub const DIFF: Need = Need::new("comparing revisions", &[Scope::ModelsRead], Role::Reader);
pub const DELETE_BRANCH: Need = Need::new("deleting a branch", &[Scope::Alignments], Role::Writer);
pub const PROMOTE: Need = Need::new("promoting", &[Scope::Alignments], Role::Writer);
/// Planning an alignment is what creating one needs: whoever may run it may cost it.
pub const PLAN_ALIGNMENT: Need = Need::to_create(crate::wire::jobs::JobKind::Alignment);
/// A model's jobs of any kind the caller's scopes let it see (`GET /v1/jobs?model=`).
pub const LIST_JOBS: Need = Need::new("listing jobs", &[], Role::Reader);
pub const LIST_EXAMPLES: Need = Need::new("listing examples", &[Scope::ExamplesRead], Role::Reader);
pub const SHOW_EXAMPLE: Need =
    Need::new("showing an example", &[Scope::ExamplesRead], Role::Reader);
pub const RESOLVE_EXAMPLE: Need =
    Need::new("finding an example", &[Scope::ExamplesRead], Role::Reader);
pub const EXPORT_EXAMPLES: Need =
    Need::new("exporting examples", &[Scope::ExamplesRead], Role::Reader);
pub const ANNOTATION_AGREEMENT: Need =
    Need::new("annotator agreement", &[Scope::ExamplesRead], Role::Reader);
/// Ranking asks the model for its answers: a decision's scope too.
pub const EXAMPLES_TO_ANNOTATE: Need = Need::new(
    "examples to annotate",
    &[Scope::ExamplesRead, Scope::Decisions],
    Role::Reader,
);
/// Finding the examples the model answers otherwise than their annotation decides them.
pub const DISAGREEMENTS: Need = Need::new(
    "examples the model disagrees with",
    &[Scope::ExamplesRead, Scope::Decisions],
    Role::Reader,
);
pub const CLAIM_NEXT: Need = Need::new(
    "claiming an example",
    &[Scope::ExamplesWrite, Scope::Decisions],
    Role::Writer,
);
pub const RELEASE_CLAIM: Need =
    Need::new("releasing a claim", &[Scope::ExamplesWrite], Role::Writer);
pub const INGEST: Need = Need::new("ingesting examples", &[Scope::ExamplesWrite], Role::Writer);
pub const ANNOTATE: Need = Need::new("annotating", &[Scope::ExamplesWrite], Role::Writer);
pub const UNANNOTATE: Need = Need::new(
    "deleting an annotation",
    &[Scope::ExamplesWrite],
    Role::Writer,
);
pub const DELETE_EXAMPLES: Need =
    Need::new("deleting examples", &[Scope::ExamplesWrite], Role::Admin);

/// Open `model` for `principal` with at least `role` and return it by its path (a
/// `modelId` resolved): invisible models are not found. For work already on the blocking
/// pool; else [`Session::permit`].
pub fn authorize(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    role: Role,
) -> Result<ModelRef> {
    let repo = super::models::open(ctx, model)?;
    let path = repo.path();
    // An invisible model answers exactly like a missing one: by the ID asked for, never its path.
    principal
        .require_role(&path.to_string(), role)
        .map_err(|error| match error {
            Error::ModelNotFound(_) => Error::ModelNotFound(model.to_string()),
            other => other,
        })?;
    Ok(ModelRef::Path(path.clone()))
}

/// A repository model found for a principal who holds a [`Need`] on it: the proof that the
/// check was made, so an operation handed one neither resolves the model's name nor checks
/// again. Only [`Scoped::permit`] makes one.
#[derive(Debug, Clone)]
pub struct Permitted {
    /// By its path (a `modelId` resolved).
    model: ModelRef,
    /// What it was checked for.
    need: Need,
    /// Who: the principal's name, recorded as the actor of what it writes.
    actor: String,
}

impl Permitted {
    /// The model, by its path (`<owner>/<model>`).
    pub fn model(&self) -> &ModelRef {
        &self.model
    }

    /// The model, for an operation that needs `need`: a proof checked for less is a bug in
    /// its caller, not a refusal of the user.
    fn model_for(&self, need: Need) -> Result<ModelRef> {
        if self.need.covers(&need) {
            Ok(self.model.clone())
        } else {
            Err(Error::bug(format!(
                "{} on a permission checked for {}",
                need.what, self.need.what
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_serves_its_need_and_the_needs_below_it_only() {
        let proof = |need| Permitted {
            model: "acme/support".parse().unwrap(),
            need,
            actor: "ci".into(),
        };
        let model = proof(Need::OWNER).model_for(DELETE_EXAMPLES).unwrap();
        assert_eq!(model.to_string(), "acme/support");
        // A writer's proof serves a reader's operation of the same scope, not an admin's.
        assert!(
            proof(ANNOTATE).model_for(RESOLVE_EXAMPLE).is_err(),
            "another scope"
        );
        assert!(proof(CLAIM_NEXT).model_for(RELEASE_CLAIM).is_ok());
        assert!(proof(ANNOTATE).model_for(DELETE_EXAMPLES).is_err());
        let error = proof(Need::to_create(JobKind::Batch))
            .model_for(Need::to_create(JobKind::Alignment))
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("creating an alignment on a permission checked for creating a batch"),
            "{error}"
        );
        // Listing a model's jobs of one kind serves listing them all.
        assert!(
            proof(Need::to_list(JobKind::Alignment))
                .model_for(LIST_JOBS)
                .is_ok()
        );
    }
}

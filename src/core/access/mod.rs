//! The operations of core as a caller ([`Principal`]) may run them: a token on the server,
//! the owner on a local home ([`Principal::owner`]). Every adapter comes in here: the
//! server's handlers, and the command line's [`super::service::Local`]; each only maps the
//! result, and holds no rule of its own.
//!
//! A model's operations take the [`Permitted`] proof that [`permit`] made: the caller's
//! role on the model is checked once, where the adapter first knows the model (a handler
//! before it reads the body), and each operation says which role it needs of the proof.
//!
//! An invisible model or job answers exactly like a missing one (by the ID asked for),
//! so a token cannot learn what exists beyond what it may see. The operations are async:
//! the store and repository work runs on the blocking pool inside them, once, here.

use super::requests::LogQuery;
use super::tokens::{Principal, Role, Scope};
use super::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::{ModelId, ModelRef};
use crate::wire::decision::Checkpoint;
use crate::wire::jobs::JobKind;
use crate::wire::models::{ModelDetail, ModelKind, ModelList};
use crate::wire::registry::{ModelDiff, RegistryEvent};
use crate::wire::{DecisionRequest, DecisionResponse};
use std::collections::HashMap;

mod examples;
mod jobs;

pub use examples::{
    annotate, annotate_example, annotate_lines, annotation_agreement, claim_next, delete_examples,
    examples_to_annotate, export_examples, ingest, list_examples, release_claim, resolve_example,
    show_example, unannotate,
};
pub use jobs::{
    JobListing, cancel_job, cancel_visible_job, create_job, job_results_page, job_under,
    visible_job, visible_jobs,
};

/// `modelId` → path of every repository model.
pub fn model_paths(ctx: &Context) -> Result<HashMap<ModelId, String>> {
    Ok(ctx
        .repos()
        .list()?
        .into_iter()
        .map(|repo| (repo.model_id(), repo.path().to_string()))
        .collect())
}

/// The scope a job of `kind` is read and cancelled under: an evaluation is a batch of
/// decisions.
pub const fn scope_of(kind: JobKind) -> Scope {
    match kind {
        JobKind::Batch | JobKind::Evaluation => Scope::Batches,
        JobKind::Alignment => Scope::Alignments,
    }
}

/// The role on the model that creating a job of `kind` needs: deciding is reading the model
/// (a batch, whose captures follow the policy the model's writers set; an evaluation); an
/// alignment commits to it.
pub const fn role_of(kind: JobKind) -> Role {
    match kind {
        JobKind::Batch | JobKind::Evaluation => Role::Reader,
        JobKind::Alignment => Role::Writer,
    }
}

/// Open `model` for `principal` with at least `role` and return it by its path (a
/// `modelId` resolved): invisible models are not found. For work already on the blocking
/// pool; else [`permit`].
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

/// A repository model found for a principal with at least a role on it: the proof that
/// the check was made, so an operation handed one neither resolves the model's name nor
/// checks again. Only [`permit`] makes one.
#[derive(Debug, Clone)]
pub struct Permitted {
    /// By its path (a `modelId` resolved).
    model: ModelRef,
    role: Role,
    /// Who: the principal's name, recorded as the actor of what it writes.
    actor: String,
}

impl Permitted {
    /// Whether it was checked for `role` or more.
    pub fn allows(&self, role: Role) -> bool {
        self.role >= role
    }

    /// The model, for `what`, an operation that needs `role`: a proof made for less is a
    /// bug in its caller, not a refusal of the user.
    fn model_for(self, role: Role, what: &str) -> Result<ModelRef> {
        if self.allows(role) {
            Ok(self.model)
        } else {
            Err(Error::bug(format!(
                "{what} on a permission for a lesser role than {role}"
            )))
        }
    }
}

/// Check `principal`'s `role` on `model` once ([`authorize`], off the async runtime), for
/// the operations that take the proof.
pub async fn permit(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    role: Role,
) -> Result<Permitted> {
    let actor = principal.name.clone();
    let (ctx, principal, model) = (ctx.clone(), principal.clone(), model.clone());
    let model = blocking(move || authorize(&ctx, &principal, &model, role)).await?;
    Ok(Permitted { model, role, actor })
}

// ---------------------------------------------------------------------------------------
// Operations as a caller may run them: a decision checks its caller here; a model's
// operation takes the proof and names the role it needs of it; each runs its store and
// repository work on the blocking pool.
// ---------------------------------------------------------------------------------------

/// Whether `principal` may ask `request`: of a base model, anyone who may decide; of a
/// repository model, a reader of it (an invisible one is not found, by the name asked for).
/// The server checks it before it reads the request's key; [`decide`] checks it here.
pub fn may_decide(ctx: &Context, principal: &Principal, request: &DecisionRequest) -> Result<()> {
    if ctx.is_base_model(&request.model) {
        Ok(())
    } else {
        principal.require_role(&request.model, Role::Reader)
    }
}

/// Answer `request` as `principal` may ask it ([`may_decide`]); `request_id` is recorded
/// with a captured decision.
pub async fn decide(
    ctx: &Context,
    principal: &Principal,
    request: &DecisionRequest,
    request_id: &str,
) -> Result<DecisionResponse> {
    may_decide(ctx, principal, request)?;
    super::decide::decide(ctx, request, request_id).await
}

/// Base models, and the repository models `principal` has a role on.
pub async fn list_models(ctx: &Context, principal: &Principal) -> Result<ModelList> {
    let (ctx, principal) = (ctx.clone(), principal.clone());
    blocking(move || {
        let mut list = super::models::list(&ctx)?;
        list.models
            .retain(|m| m.kind == ModelKind::Base || principal.role_on(&m.name).is_some());
        Ok(list)
    })
    .await
}

/// The model's branches, tags, capture policy and question IDs (role `reader`).
pub async fn show_model(ctx: &Context, permitted: Permitted) -> Result<ModelDetail> {
    on_model(
        ctx,
        permitted,
        Role::Reader,
        "showing a model",
        super::models::show,
    )
    .await
}

/// Checkpoints of a revision, newest first (role `reader`).
pub async fn log(
    ctx: &Context,
    permitted: Permitted,
    query: LogQuery<'_>,
) -> Result<Vec<Checkpoint>> {
    let (revision, limit) = (query.revision.map(str::to_owned), query.limit);
    on_model(
        ctx,
        permitted,
        Role::Reader,
        "listing checkpoints",
        move |ctx, path| super::models::log(ctx, path, revision.as_deref(), limit),
    )
    .await
}

/// Delete a branch of the model, never its default one (role `writer`), recorded as the
/// caller's.
pub async fn delete_branch(ctx: &Context, permitted: Permitted, branch: &str) -> Result<()> {
    let (branch, actor) = (branch.to_owned(), permitted.actor.clone());
    on_model(
        ctx,
        permitted,
        Role::Writer,
        "deleting a branch",
        move |ctx, path| super::models::delete_branch(ctx, path, &branch, &actor),
    )
    .await
}

/// Fast-forward the model's default branch to `revision` (role `writer`), recorded as the
/// caller's.
pub async fn promote(
    ctx: &Context,
    permitted: Permitted,
    revision: &str,
    evaluation: Option<&str>,
) -> Result<Checkpoint> {
    let (revision, evaluation) = (revision.to_owned(), evaluation.map(str::to_owned));
    let actor = permitted.actor.clone();
    on_model(
        ctx,
        permitted,
        Role::Writer,
        "promoting",
        move |ctx, path| {
            super::models::promote(ctx, path, &revision, evaluation.as_deref(), &actor)
        },
    )
    .await
}

/// The model's registry history, newest first (role `reader`).
pub async fn history(
    ctx: &Context,
    permitted: Permitted,
    limit: usize,
) -> Result<Vec<RegistryEvent>> {
    on_model(
        ctx,
        permitted,
        Role::Reader,
        "the model's history",
        move |ctx, path| {
            let model_id = super::models::open(ctx, path)?.model_id();
            super::registry::history(ctx, &model_id, limit)
        },
    )
    .await
}

/// What changed in the model between two revisions (role `reader`).
pub async fn diff(ctx: &Context, permitted: Permitted, from: &str, to: &str) -> Result<ModelDiff> {
    let (from, to) = (from.to_owned(), to.to_owned());
    on_model(
        ctx,
        permitted,
        Role::Reader,
        "comparing revisions",
        move |ctx, path| super::diff::diff(ctx, path, &from, &to),
    )
    .await
}

/// `work` on the model `permitted` names, for `what`, an operation that needs `role` of
/// it ([`Permitted::model_for`]), on the blocking pool.
async fn on_model<T: Send + 'static>(
    ctx: &Context,
    permitted: Permitted,
    role: Role,
    what: &str,
    work: impl FnOnce(&Context, &ModelRef) -> Result<T> + Send + 'static,
) -> Result<T> {
    let path = permitted.model_for(role, what)?;
    let ctx = ctx.clone();
    blocking(move || work(&ctx, &path)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_serves_its_role_and_the_roles_below_it_only() {
        let proof = |role| Permitted {
            model: "acme/support".parse().unwrap(),
            role,
            actor: "ci".into(),
        };
        let model = proof(Role::Writer)
            .model_for(role_of(JobKind::Batch), "batch")
            .unwrap();
        assert_eq!(model.to_string(), "acme/support");
        assert!(
            proof(Role::Writer)
                .model_for(Role::Writer, "alignment")
                .is_ok()
        );
        let error = proof(Role::Reader)
            .model_for(role_of(JobKind::Alignment), "alignment")
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("alignment on a permission for a lesser role than writer"),
            "{error}"
        );
    }
}

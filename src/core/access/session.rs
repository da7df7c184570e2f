//! The door every adapter comes in by: a [`Session`] is the context and the caller, and the
//! operations that are not one model's (deciding, listing models, finding jobs, and the
//! check that opens a model's [`super::OnModel`]) are its methods. The server makes one per
//! request from the token it authenticated; the command line's `Local` makes the owner's.

use super::{Need, Permitted, authorize};
use crate::core::tokens::{Principal, Role};
use crate::core::{Context, blocking};
use crate::error::Result;
use crate::ids::ModelRef;
use crate::wire::models::{ModelKind, ModelList};
use crate::wire::{DecisionRequest, DecisionResponse};

/// A caller inside the door: what it runs against, and who it is.
#[derive(Clone, Copy)]
pub struct Session<'a> {
    pub(super) ctx: &'a Context,
    pub(super) principal: &'a Principal,
}

/// A caller whose token holds a [`Need`]'s scopes, checked before anything of the model is
/// read, let alone its name ([`Session::scoped`]); [`Scoped::permit`] checks the role.
pub struct Scoped<'a> {
    session: Session<'a>,
    need: Need,
}

impl<'a> Session<'a> {
    pub fn new(ctx: &'a Context, principal: &'a Principal) -> Self {
        Self { ctx, principal }
    }

    /// The caller, once its token is found to hold every scope `need` names.
    pub fn scoped(self, need: Need) -> Result<Scoped<'a>> {
        for scope in need.scopes {
            self.principal.require_scope(*scope)?;
        }
        Ok(Scoped {
            session: self,
            need,
        })
    }

    /// The proof that the caller holds `need` on `model`: its scopes, then its role.
    pub async fn permit(self, need: Need, model: &ModelRef) -> Result<Permitted> {
        self.scoped(need)?.permit(model).await
    }

    /// Whether the caller may ask `request`: of a base model, anyone who may decide; of a
    /// repository model, a reader of it (an invisible one is not found, by the name asked
    /// for). The server checks it before it reads the request's key; [`Self::decide`]
    /// checks it itself.
    pub fn may_decide(self, request: &DecisionRequest) -> Result<()> {
        if self.ctx.is_base_model(&request.model) {
            Ok(())
        } else {
            self.principal.require_role(&request.model, Role::Reader)
        }
    }

    /// Answer `request` as the caller may ask it ([`Self::may_decide`]); `request_id` is
    /// recorded with a captured decision.
    pub async fn decide(
        self,
        request: &DecisionRequest,
        request_id: &str,
    ) -> Result<DecisionResponse> {
        self.may_decide(request)?;
        crate::core::decide::decide(self.ctx, request, request_id).await
    }

    /// Base models, and the repository models the caller has a role on (scope
    /// `models:read`).
    pub async fn list_models(self) -> Result<ModelList> {
        self.principal
            .require_scope(crate::core::tokens::Scope::ModelsRead)?;
        self.on_pool(|ctx, principal| {
            let mut list = crate::core::models::list(ctx)?;
            list.models
                .retain(|m| m.kind == ModelKind::Base || principal.role_on(&m.name).is_some());
            Ok(list)
        })
        .await
    }

    /// `work` as the caller, on the blocking pool: store and repository work never holds
    /// up the async runtime.
    pub(super) async fn on_pool<T: Send + 'static>(
        self,
        work: impl FnOnce(&Context, &Principal) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let (ctx, principal) = (self.ctx.clone(), self.principal.clone());
        blocking(move || work(&ctx, &principal)).await
    }
}

impl Scoped<'_> {
    /// Check the role the caller needs on `model`, once ([`authorize`], off the async
    /// runtime), for the operations that take the proof.
    pub async fn permit(self, model: &ModelRef) -> Result<Permitted> {
        let Scoped { session, need } = self;
        let model = model.clone();
        let model = session
            .on_pool(move |ctx, principal| authorize(ctx, principal, &model, need.role))
            .await?;
        let actor = session.principal.name.clone();
        Ok(Permitted { model, need, actor })
    }
}

//! What `/healthz` reports about the parts a replica shares with others: the store (the
//! home's SQLite file, or the shared PostgreSQL database) and the git remote of the model
//! repositories.

use serde::Serialize;

use super::Context;
use crate::repo::RemoteHealth;

/// One shared part, as checked now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Component {
    pub status: ComponentStatus,
    /// `sqlite` or `postgresql` for the store; the remote's scheme (`file`, `ssh`, `https`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Why it is not `ok` (never a secret).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ComponentStatus {
    /// It answered.
    Ok,
    /// It did not answer.
    Unreachable,
    /// Nothing of this kind is configured (a remote, on a single machine).
    NotConfigured,
    /// It could not be asked (an ssh or https remote, before this replica knows a model).
    Unknown,
}

impl Component {
    /// Unreachable, for a reason the check itself gives (it failed, or took too long).
    pub fn unreachable(detail: String) -> Self {
        Self::new(ComponentStatus::Unreachable, None, Some(detail))
    }

    fn new(status: ComponentStatus, kind: Option<&str>, detail: Option<String>) -> Self {
        Self {
            status,
            kind: kind.map(str::to_owned),
            detail,
        }
    }
}

/// Whether the store answers a trivial query now. Blocks.
pub fn store(ctx: &Context) -> Component {
    let kind = if ctx.settings().database.url.is_some() {
        "postgresql"
    } else {
        "sqlite"
    };
    match ctx
        .store()
        .and_then(|store| store.check().map_err(Into::into))
    {
        Ok(()) => Component::new(ComponentStatus::Ok, Some(kind), None),
        Err(e) => Component::new(
            ComponentStatus::Unreachable,
            Some(kind),
            Some(e.to_string()),
        ),
    }
}

/// Whether the model repositories' git remote answers now. Blocks for as long as it takes.
pub fn remote(ctx: &Context) -> Component {
    let kind = ctx
        .settings()
        .repos
        .remote
        .as_ref()
        .and_then(|remote| remote.url.split("://").next().map(str::to_owned));
    let (status, detail) = match ctx.repos().check_remote() {
        RemoteHealth::NotConfigured => (ComponentStatus::NotConfigured, None),
        RemoteHealth::Reachable => (ComponentStatus::Ok, None),
        RemoteHealth::Unreachable(reason) => (ComponentStatus::Unreachable, Some(reason)),
        RemoteHealth::Unknown(reason) => (ComponentStatus::Unknown, Some(reason)),
    };
    Component::new(status, kind.as_deref(), detail)
}

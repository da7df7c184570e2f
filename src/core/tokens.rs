//! API tokens and what they allow: scopes for operations, roles on model paths.
//!
//! A token reads `arb_<tokenId>_<secret>`. Only the SHA-256 of the secret is stored; the
//! stored hash is found by the public token ID and compared in constant time.

use super::Context;
use crate::error::{Error, Result};
use crate::ids::TokenId;
use crate::store::TokenRecord;
use sha2::{Digest, Sha256};
use strum::VariantArray;
use subtle::ConstantTimeEq;

/// An operation a token may be allowed; its names (`Display`, `FromStr`) are derived.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
pub enum Scope {
    #[strum(serialize = "decisions")]
    Decisions,
    #[strum(serialize = "models:read")]
    ModelsRead,
    #[strum(serialize = "examples:read")]
    ExamplesRead,
    #[strum(serialize = "examples:write")]
    ExamplesWrite,
    #[strum(serialize = "batches")]
    Batches,
    #[strum(serialize = "alignments")]
    Alignments,
}

impl Scope {
    /// Every scope's name, in the order they are documented.
    pub fn names() -> impl Iterator<Item = &'static str> {
        <Self as VariantArray>::VARIANTS
            .iter()
            .map(|&scope| <&'static str>::from(scope))
    }
}

/// Roles on model paths, weakest first; names derived, lowercase.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "lowercase")]
pub enum Role {
    Reader,
    Writer,
    Admin,
}

/// What `tokens create` needs.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub name: String,
    pub scopes: Vec<String>,
    /// `pattern=role`, e.g. `acme/*=reader`.
    pub roles: Vec<String>,
}

/// Create a token; returns the record and the secret, which is never shown again.
pub fn create(ctx: &Context, request: &NewToken) -> Result<(TokenRecord, String)> {
    if crate::wire::validate::is_blank(&request.name) {
        return Err(Error::BadRequest("a token needs a name".into()));
    }
    for scope in &request.scopes {
        if scope.parse::<Scope>().is_err() {
            return Err(Error::BadRequest(format!(
                "unknown scope `{scope}`; scopes are {}",
                Scope::names().collect::<Vec<_>>().join(", ")
            )));
        }
    }
    for role in &request.roles {
        parse_role(role)?;
    }
    let token_id = TokenId::random();
    let secret = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    let record = TokenRecord {
        token_id: token_id.clone(),
        name: request.name.clone(),
        secret_hash: hash(&secret),
        scopes: request.scopes.clone(),
        roles: request.roles.clone(),
        created_at: crate::wire::time::Recorded::now(),
        revoked_at: None,
    };
    ctx.store()?.insert_token(&record)?;
    Ok((record, format!("arb_{token_id}_{secret}")))
}

pub fn list(ctx: &Context) -> Result<Vec<TokenRecord>> {
    Ok(ctx.store()?.list_tokens()?)
}

/// Revoke by name (idempotent); returns whether it was live until now.
pub fn revoke(ctx: &Context, name: &str) -> Result<bool> {
    Ok(ctx.store()?.revoke_token(name)?)
}

/// The SHA-256 of a secret, in hex: what the store keeps of it.
pub(crate) fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

fn parse_role(entry: &str) -> Result<(String, Role)> {
    let (pattern, role) = entry.rsplit_once('=').ok_or_else(|| {
        Error::BadRequest(format!(
            "role `{entry}` must read PATTERN=ROLE, e.g. acme/*=reader"
        ))
    })?;
    let role = role.parse::<Role>().map_err(|_| {
        Error::BadRequest(format!(
            "unknown role `{role}` in `{entry}`; roles are reader, writer, admin"
        ))
    })?;
    if pattern.is_empty() {
        return Err(Error::BadRequest(format!(
            "role `{entry}` has an empty pattern"
        )));
    }
    Ok((pattern.to_owned(), role))
}

/// The caller behind a valid, unrevoked token.
#[derive(Debug, Clone)]
pub struct Principal {
    pub token_id: TokenId,
    pub name: String,
    scopes: Vec<Scope>,
    roles: Vec<(String, Role)>,
    /// The owner of a local home ([`Principal::owner`]).
    owner: bool,
}

/// Who presents `bearer`, or `Unauthorized` for a malformed, unknown or revoked token. The
/// store is read on the blocking pool.
pub async fn authenticate(ctx: &Context, bearer: &str) -> Result<Principal> {
    let (ctx, bearer) = (ctx.clone(), bearer.to_owned());
    super::blocking(move || principal_of(&ctx, &bearer)).await
}

fn principal_of(ctx: &Context, bearer: &str) -> Result<Principal> {
    let unauthorized = || Error::Unauthorized("the bearer token is invalid or revoked".into());
    let (token_id, secret) = bearer
        .strip_prefix("arb_")
        .and_then(|rest| rest.split_once('_'))
        .ok_or_else(unauthorized)?;
    let token_id: TokenId = token_id.parse().map_err(|_| unauthorized())?;
    let record = ctx
        .store()?
        .get_token(&token_id)?
        .ok_or_else(unauthorized)?;
    let matches: bool = hash(secret)
        .as_bytes()
        .ct_eq(record.secret_hash.as_bytes())
        .into();
    if !matches {
        return Err(unauthorized());
    }
    live_principal(record).ok_or_else(unauthorized)
}

/// Who holds the token `token_id` now, or `None` when it is gone or revoked: a web app
/// session opened with a token lasts no longer than the token.
pub(crate) fn principal_by_id(ctx: &Context, token_id: &TokenId) -> Result<Option<Principal>> {
    Ok(ctx.store()?.get_token(token_id)?.and_then(live_principal))
}

/// The principal of a token's record, unless it is revoked.
fn live_principal(record: TokenRecord) -> Option<Principal> {
    if record.revoked_at.is_some() {
        return None;
    }
    let roles = record
        .roles
        .iter()
        .filter_map(|r| parse_role(r).ok())
        .collect();
    Some(Principal {
        token_id: record.token_id,
        name: record.name,
        // A stored name that is no scope (written by hand, say) allows nothing.
        scopes: record
            .scopes
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect(),
        roles,
        owner: false,
    })
}

impl Principal {
    /// Whoever runs the command line on a local home, by `name`: every scope, `admin` on
    /// every model, and every job in sight (even one whose model is gone). Presents no token:
    /// its token ID is [`TokenId::nobody`], which names no token arbiter issues.
    pub fn owner(name: String) -> Self {
        Self {
            token_id: TokenId::nobody(),
            name,
            scopes: Scope::VARIANTS.to_vec(),
            roles: vec![("*".into(), Role::Admin)],
            owner: true,
        }
    }

    /// Whether this is the owner of a local home ([`Principal::owner`]).
    pub fn is_owner(&self) -> bool {
        self.owner
    }

    /// Whether the token carries `scope`.
    pub fn has_scope(&self, scope: Scope) -> bool {
        self.scopes.contains(&scope)
    }

    /// 403 unless the token carries `scope`.
    pub fn require_scope(&self, scope: Scope) -> Result<()> {
        if self.has_scope(scope) {
            Ok(())
        } else {
            Err(Error::Forbidden(format!(
                "token `{}` lacks the scope `{scope}`",
                self.name
            )))
        }
    }

    /// The strongest role this token has on a model path.
    pub fn role_on(&self, path: &str) -> Option<Role> {
        self.roles
            .iter()
            .filter(|(pattern, _)| glob(pattern, path))
            .map(|(_, role)| *role)
            .max()
    }

    /// 404 `model_not_found` when the token cannot see the model at all (exactly as if it
    /// did not exist); 403 when it sees it with a weaker role than `needed`.
    pub fn require_role(&self, path: &str, needed: Role) -> Result<()> {
        match self.role_on(path) {
            None => Err(Error::ModelNotFound(path.to_owned())),
            Some(role) if role >= needed => Ok(()),
            Some(role) => Err(Error::Forbidden(format!(
                "token `{}` is {} on {path}; this needs {}",
                self.name, role, needed
            ))),
        }
    }
}

/// `*` matches any run of characters (slashes included); everything else matches itself.
fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((prefix, rest)) => {
            let Some(tail) = text.strip_prefix(prefix) else {
                return false;
            };
            (0..=tail.len())
                .filter(|i| tail.is_char_boundary(*i))
                .any(|i| glob(rest, &tail[i..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("acme/*", "acme/support"));
        assert!(!glob("acme/*", "other/support"));
        assert!(glob("*", "a/b"));
        assert!(glob("*/support", "acme/support"));
        assert!(glob("acme/support", "acme/support"));
        assert!(!glob("acme/support", "acme/support2"));
    }

    #[test]
    fn the_owner_of_a_home_holds_every_scope_and_role() {
        let owner = Principal::owner("ada".into());
        assert!(owner.is_owner());
        assert_eq!(owner.token_id, TokenId::nobody());
        for scope in Scope::VARIANTS {
            assert!(owner.has_scope(*scope), "{scope}");
        }
        assert!(owner.require_role("any/model", Role::Admin).is_ok());
        assert_ne!(TokenId::random(), TokenId::nobody());
    }

    #[test]
    fn roles_rank_and_hide() {
        let principal = Principal {
            token_id: TokenId::random(),
            name: "ci".into(),
            scopes: vec![Scope::Decisions],
            roles: vec![
                ("acme/*".into(), Role::Reader),
                ("acme/support".into(), Role::Writer),
            ],
            owner: false,
        };
        assert_eq!(principal.role_on("acme/support"), Some(Role::Writer));
        assert!(principal.require_role("acme/other", Role::Reader).is_ok());
        assert_eq!(
            principal
                .require_role("acme/other", Role::Writer)
                .unwrap_err()
                .status(),
            403
        );
        assert_eq!(
            principal
                .require_role("else/x", Role::Reader)
                .unwrap_err()
                .code(),
            "model_not_found"
        );
        assert!(principal.require_scope(Scope::Decisions).is_ok());
        assert_eq!(
            principal
                .require_scope(Scope::Batches)
                .unwrap_err()
                .status(),
            403
        );
    }

    #[test]
    fn tokens_authenticate_until_revoked() {
        let (_dir, ctx) = crate::core::test_support::home();
        let (record, secret) = create(
            &ctx,
            &NewToken {
                name: "ci".into(),
                scopes: vec!["decisions".into()],
                roles: vec!["acme/*=reader".into()],
            },
        )
        .unwrap();
        assert_eq!(
            principal_of(&ctx, &secret).unwrap().token_id,
            record.token_id
        );
        assert!(principal_of(&ctx, &format!("{secret}x")).is_err());
        assert!(principal_of(&ctx, "arb_nope_secret").is_err());
        assert!(principal_of(&ctx, "garbage").is_err());
        assert!(revoke(&ctx, "ci").unwrap());
        assert_eq!(principal_of(&ctx, &secret).unwrap_err().status(), 401);
        assert!(
            create(
                &ctx,
                &NewToken {
                    name: "x".into(),
                    scopes: vec!["nope".into()],
                    roles: vec![]
                }
            )
            .is_err()
        );
        assert!(
            create(
                &ctx,
                &NewToken {
                    name: "y".into(),
                    scopes: vec![],
                    roles: vec!["acme/*=owner".into()]
                }
            )
            .is_err()
        );
    }
}

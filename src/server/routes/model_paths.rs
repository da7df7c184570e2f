//! A model path written plainly in a URL: `/v1/models/acme/support/examples` is answered as
//! `/v1/models/acme%2Fsupport/examples`. Only a request no route took is retried so (the
//! router's fallback), so no route that matches today changes meaning; and only when the
//! segment after `/v1/models/` cannot name a model by itself (a `modelId` is a UUID, an
//! encoded path holds `%2F`), since a model path is always `<owner>/<model>`.

use crate::error::Error;
use crate::ids::ModelId;
use axum::Router;
use axum::extract::Request;
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;

const MODELS: &str = "/v1/models/";

/// The fallback: retry `request` on `routes` with its model path encoded, or answer 404.
pub(super) async fn retry_encoded(routes: Router, mut request: Request) -> Response {
    match encoded(request.uri()) {
        Some(uri) => {
            *request.uri_mut() = uri;
            match routes.oneshot(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            }
        }
        None => no_such_route(request.uri()).into_response(),
    }
}

/// 404 for a path no route takes; under `/v1/models/` it says how to name a model.
pub(super) fn no_such_route(uri: &Uri) -> super::ApiError {
    let detail = if uri.path().starts_with(MODELS) {
        "no such route; name a model in a URL by its modelId, or by its path <owner>/<model> \
         (acme/support or acme%2Fsupport): /v1/models/{model}/examples, …"
    } else {
        "no such route"
    };
    super::ApiError(Error::NotFound(detail.to_owned()))
}

/// `/v1/models/<owner>/<model>[/rest][?query]` with the `/` between owner and model
/// encoded, when `<owner>` alone cannot name a model; `None` otherwise.
fn encoded(uri: &Uri) -> Option<Uri> {
    let rest = uri.path().strip_prefix(MODELS)?;
    let (owner, after) = rest.split_once('/')?;
    let (model, tail) = after.find('/').map_or((after, ""), |i| after.split_at(i));
    let alone = owner.parse::<ModelId>().is_ok() || owner.to_ascii_lowercase().contains("%2f");
    if owner.is_empty() || model.is_empty() || alone {
        return None;
    }
    let query = uri.query().map(|q| format!("?{q}")).unwrap_or_default();
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(
        format!("{MODELS}{owner}%2F{model}{tail}{query}")
            .parse()
            .ok()?,
    );
    Uri::from_parts(parts).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(uri: &str) -> Option<String> {
        encoded(&uri.parse().unwrap()).map(|uri| uri.to_string())
    }

    #[test]
    fn an_unencoded_model_path_is_encoded() {
        assert_eq!(
            rewrite("/v1/models/acme/support").as_deref(),
            Some("/v1/models/acme%2Fsupport")
        );
        assert_eq!(
            rewrite("/v1/models/acme/support/examples/ex_1/annotations?limit=5").as_deref(),
            Some("/v1/models/acme%2Fsupport/examples/ex_1/annotations?limit=5")
        );
    }

    #[test]
    fn what_already_names_a_model_is_left_alone() {
        let id = "0e7d7c1e-8f2a-4d59-9a55-5b0a2a6f9d11";
        for uri in [
            format!("/v1/models/{id}/examples"),
            "/v1/models/acme%2Fsupport/examples".to_owned(),
            "/v1/models/acme%2fsupport/examples".to_owned(),
            "/v1/models/acme".to_owned(),
            "/v1/models/acme/".to_owned(),
            "/v1/models//support".to_owned(),
            "/v1/jobs/acme/support".to_owned(),
        ] {
            assert_eq!(rewrite(&uri), None, "{uri}");
        }
    }
}

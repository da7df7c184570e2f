//! Request bodies: the content type is checked (415), the size bounded (413: at once when
//! the declared length is past the limit), the pace bounded (408: a body that stalls
//! past `server.body_timeout`, or arrives slower than `server.body_min_rate`), and the
//! JSON parsed (400 when malformed), each failure a problem document.

use super::AppState;
use super::error::ApiError;
use crate::error::Error;
use crate::wire::Loc;
use crate::wire::validate::json::{self, JsonError};
use axum::extract::Request;
use axum::http::header;
use bytes::{Bytes, BytesMut};
use futures_util::StreamExt;
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

/// A JSON request body, parsed into a value for validation by `wire`.
pub(crate) struct JsonBody(pub(crate) Value);

/// A raw body with its media type (for NDJSON uploads).
pub(crate) struct RawBody {
    pub(crate) media_type: String,
    pub(crate) bytes: Bytes,
}

fn media_type(request: &Request) -> String {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// A body is read as sent: one with a content coding (`gzip`, `br`, …) is refused with 415,
/// as RFC 9110 asks, instead of being parsed as if it were JSON and refused as malformed.
fn refuse_content_coding(request: &Request) -> Result<(), ApiError> {
    let codings: Vec<&str> = request
        .headers()
        .get_all(header::CONTENT_ENCODING)
        .iter()
        .flat_map(|v| v.to_str().unwrap_or("?").split(','))
        .map(str::trim)
        .filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("identity"))
        .collect();
    if codings.is_empty() {
        return Ok(());
    }
    Err(ApiError(Error::UnsupportedMediaType(format!(
        "send the body uncompressed: Content-Encoding `{}` is not accepted",
        codings.join(", ")
    ))))
}

pub(crate) fn is_json(media_type: &str) -> bool {
    media_type == "application/json"
        || (media_type.starts_with("application/") && media_type.ends_with("+json"))
}

/// A body past the limit is answered 413 at once, and what the client still sends is read
/// and thrown away in the background, up to this much and for this long, so a client that
/// is still writing reads its 413 (a lingering close) instead of a reset.
const DRAIN_BYTES: usize = 64 << 20;
const DRAIN_TIME: Duration = Duration::from_secs(5);

/// How long a request body may stall, and how fast it must keep arriving
/// (`server.body_timeout`, `server.body_min_rate`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyPace {
    pub(crate) timeout: Duration,
    /// Bytes a second, on average, past the first `timeout`; 0: none.
    pub(crate) min_rate: u64,
}

impl BodyPace {
    /// When the next bytes must have arrived: `timeout` after the last ones, and no later
    /// than the minimum rate allows for what has arrived.
    fn deadline(self, started: Instant, last: Instant, received: usize) -> Instant {
        let stall = last + self.timeout;
        if self.min_rate == 0 {
            return stall;
        }
        let earned = Duration::from_secs_f64(received as f64 / self.min_rate as f64);
        stall.min(started + self.timeout + earned)
    }
}

async fn read(request: Request, state: &AppState) -> Result<Bytes, ApiError> {
    let bytes = read_within(request, state.max_body_bytes, state.body_pace).await?;
    state.large_bodies.note(bytes.len());
    Ok(bytes)
}

pub(crate) async fn read_within(
    request: Request,
    limit: usize,
    pace: BodyPace,
) -> Result<Bytes, ApiError> {
    let too_large = || ApiError(Error::PayloadTooLarge { limit });
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    let mut stream = request.into_body().into_data_stream();
    if declared.is_some_and(|n| n > limit) {
        // Refused before any of it is read: the length says enough.
        tokio::spawn(drain(stream));
        return Err(too_large());
    }
    let mut bytes = BytesMut::with_capacity(declared.unwrap_or(0).min(limit));
    let started = Instant::now();
    let mut last = started;
    loop {
        let deadline = pace.deadline(started, last, bytes.len());
        let Ok(chunk) = tokio::time::timeout_at(deadline, stream.next()).await else {
            return Err(ApiError(Error::RequestTimeout(format!(
                "the body arrived too slowly: {} bytes in {:.1} s (a body may stall {} s \
                 at most and must then keep arriving at {} bytes a second: \
                 server.body_timeout, server.body_min_rate)",
                bytes.len(),
                started.elapsed().as_secs_f64(),
                pace.timeout.as_secs_f64(),
                pace.min_rate,
            ))));
        };
        match chunk {
            None => break,
            Some(Ok(data)) => {
                last = Instant::now();
                if bytes.len().saturating_add(data.len()) > limit {
                    tokio::spawn(drain(stream));
                    return Err(too_large());
                }
                bytes.extend_from_slice(&data);
            }
            Some(Err(e)) => {
                return Err(ApiError(Error::BadRequest(format!(
                    "the body could not be read: {e}"
                ))));
            }
        }
    }
    Ok(bytes.freeze())
}

/// Read what is left of a refused body and throw it away, bounded in bytes and time; past
/// either, the connection goes.
async fn drain(mut stream: axum::body::BodyDataStream) {
    let deadline = Instant::now() + DRAIN_TIME;
    let mut seen = 0usize;
    while seen <= DRAIN_BYTES {
        match tokio::time::timeout_at(deadline, stream.next()).await {
            Ok(Some(Ok(data))) => seen = seen.saturating_add(data.len()),
            _ => return,
        }
    }
}

/// The body as one JSON value: 400 when it is not JSON or nests past the limit (the
/// README's contract for both: the parser's verdict, located by line and column), 422 at a
/// key repeated in one object.
pub(crate) fn parse_json(bytes: &[u8]) -> Result<Value, ApiError> {
    json::from_slice(bytes, &Loc::body()).map_err(json_problem)
}

/// [`parse_json`], the body's top-level array member `key` handed to `each` an element at
/// a time and read empty ([`json::from_slice_streaming`]).
pub(crate) fn parse_json_streaming(
    bytes: &[u8],
    key: &str,
    each: &mut dyn FnMut(Value),
) -> Result<Value, ApiError> {
    json::from_slice_streaming(bytes, &Loc::body(), key, each).map_err(json_problem)
}

fn json_problem(error: JsonError) -> ApiError {
    match error {
        JsonError::Syntax(e) => ApiError(Error::BadRequest(format!(
            "the body is not valid JSON: {e}"
        ))),
        JsonError::TooDeep(error) => ApiError(Error::BadRequest(format!(
            "the body is refused: {}",
            error.msg
        ))),
        JsonError::DuplicateKey(error) => ApiError(Error::Validation(vec![error])),
    }
}

/// A model route's model, what the route's operation needs of the token checked
/// ([`AppState::authorize`]). A model
/// route's body is read only with one ([`JsonBody::read`], [`RawBody::read`]): no route
/// reads a body, let alone parses it, for a token that may not act on its model, which
/// learns nothing of how its request would be read (404 or 403 first, whatever its body,
/// content type or headers).
pub(crate) struct Authorized(crate::core::access::Permitted);

impl Authorized {
    /// The model's path, `<owner>/<model>`.
    pub(crate) fn path(&self) -> String {
        self.0.model().to_string()
    }

    /// The proof of the check, for the operation, which takes it instead of checking again.
    pub(crate) fn into_permitted(self) -> crate::core::access::Permitted {
        self.0
    }

    /// The model's operations, for the caller checked ([`crate::core::access::OnModel`]).
    pub(crate) fn on(self, ctx: &crate::core::Context) -> crate::core::access::OnModel<'_> {
        crate::core::access::OnModel::new(ctx, self.0)
    }
}

impl AppState {
    /// `principal` at core's door ([`crate::core::access::Session`]).
    pub(crate) fn session<'a>(
        &'a self,
        principal: &'a crate::core::tokens::Principal,
    ) -> crate::core::access::Session<'a> {
        crate::core::access::Session::new(&self.ctx, principal)
    }

    /// The repository model a route's `{modelId}` names, once `principal` is found to hold
    /// what the route's operation needs: a scope the token lacks is 403 before the ID is
    /// read; then an invisible model is not found (404), and a visible one without the role
    /// is 403.
    pub(crate) async fn authorize(
        &self,
        principal: &crate::core::tokens::Principal,
        model_id: &str,
        need: crate::core::access::Need,
    ) -> Result<Authorized, ApiError> {
        let scoped = self.session(principal).scoped(need)?;
        let model = self.model(model_id)?;
        let permitted = scoped.permit(&model).await?;
        Ok(Authorized(permitted))
    }
}

impl JsonBody {
    /// The body of a request on `_model`, read once the token's role on it is checked.
    pub(crate) async fn read(
        request: Request,
        state: &AppState,
        _model: &Authorized,
    ) -> Result<Self, ApiError> {
        Self::read_naming_its_model(request, state).await
    }

    /// The body of a request whose model the body names (`/v1/decision`): what it may
    /// see is known only once it is read. Its scope is checked first all the same.
    pub(crate) async fn read_naming_its_model(
        request: Request,
        state: &AppState,
    ) -> Result<Self, ApiError> {
        refuse_content_coding(&request)?;
        let media_type = media_type(&request);
        if !is_json(&media_type) {
            return Err(ApiError(Error::UnsupportedMediaType(format!(
                "send the body as application/json, not {}",
                if media_type.is_empty() {
                    "without a Content-Type"
                } else {
                    &media_type
                }
            ))));
        }
        let bytes = read(request, state).await?;
        Ok(Self(parse_json(&bytes)?))
    }
}

impl RawBody {
    /// The body (JSON or JSON Lines) of a request on `_model`, read once the token's role
    /// on it is checked.
    pub(crate) async fn read(
        request: Request,
        state: &AppState,
        _model: &Authorized,
    ) -> Result<Self, ApiError> {
        refuse_content_coding(&request)?;
        let media_type = media_type(&request);
        if !is_json(&media_type)
            && media_type != "application/x-ndjson"
            && media_type != "application/jsonl"
        {
            return Err(ApiError(Error::UnsupportedMediaType(format!(
                "send application/json (an array) or application/x-ndjson, not {}",
                if media_type.is_empty() {
                    "a body without a Content-Type"
                } else {
                    &media_type
                }
            ))));
        }
        let bytes = read(request, state).await?;
        Ok(Self { media_type, bytes })
    }
}

/// `Query<T>` whose rejection is a 422 problem located at the query string.
pub(crate) struct AppQuery<T>(pub(crate) T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S>
    for AppQuery<T>
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        // One rule on every store: a NUL is refused before any parameter is read; so is a
        // revision past its limit, as in a body.
        for (name, value) in url::form_urlencoded::parse(parts.uri.query().unwrap_or("").as_bytes())
        {
            let loc = crate::wire::Loc::query().key(&name);
            let what = format!("`{name}`");
            let checked = if crate::limits::REVISION_PARAMETERS.contains(&name.as_ref()) {
                crate::wire::validate::fields::text(
                    &value,
                    crate::limits::MAX_REVISION_CHARS,
                    &loc,
                    &what,
                )
            } else {
                crate::wire::validate::fields::stored(&value, &loc, &what)
            };
            if let Some(error) =
                crate::wire::validate::fields::stored(&name, &loc, "the parameter's name")
                    .or(checked)
            {
                return Err(ApiError(Error::Validation(vec![error])));
            }
        }
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| Self(q.0))
            .map_err(|rejection| {
                ApiError(Error::invalid(
                    crate::wire::Loc::query(),
                    rejection.body_text(),
                    "query",
                ))
            })
    }
}

/// [`AppQuery`] on a model route: read with the request's other parts, but what is wrong
/// with it is told only to a token with its role on the model ([`ModelQuery::read`]), as
/// a body is read only then.
pub(crate) struct ModelQuery<T>(Result<T, ApiError>);

impl<T> ModelQuery<T> {
    pub(crate) fn read(self, _model: &Authorized) -> Result<T, ApiError> {
        self.0
    }
}

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S>
    for ModelQuery<T>
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Self(
            AppQuery::<T>::from_request_parts(parts, state)
                .await
                .map(|AppQuery(query)| query),
        ))
    }
}

/// `Path<T>` whose rejection is a 404 problem: a path that cannot be decoded names nothing.
/// A segment holding a NUL is a 422 located at it (`["path", name]`): one rule on every
/// store, which never holds one.
pub(crate) struct AppPath<T>(pub(crate) T);

impl<T: serde::de::DeserializeOwned + Send, S: Send + Sync> axum::extract::FromRequestParts<S>
    for AppPath<T>
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        if let Ok(raw) = axum::extract::RawPathParams::from_request_parts(parts, state).await {
            for (name, value) in &raw {
                let loc = crate::wire::Loc(vec![
                    crate::wire::validate::Segment::Key("path".into()),
                    crate::wire::validate::Segment::Key(name.into()),
                ]);
                if let Some(error) =
                    crate::wire::validate::fields::stored(value, &loc, &format!("`{name}`"))
                {
                    return Err(ApiError(Error::Validation(vec![error])));
                }
            }
        }
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Self(p.0))
            .map_err(|rejection| ApiError(Error::NotFound(rejection.body_text())))
    }
}

use crate::limits::{DEFAULT_LISTING, MAX_LISTING as MAX_LIMIT};

/// `limit` of a listing: 1 to [`MAX_LIMIT`], [`DEFAULT_LISTING`] when absent. Anything else is refused at
/// `["query", "limit"]`, never clamped: the document declares the range.
pub(crate) fn page_limit(limit: Option<usize>) -> crate::error::Result<usize> {
    match limit {
        None => Ok(DEFAULT_LISTING),
        Some(limit @ 1..=MAX_LIMIT) => Ok(limit),
        Some(other) => Err(Error::invalid(
            crate::wire::Loc::query().key("limit"),
            format!("limit must be from 1 to {MAX_LIMIT}, not {other}"),
            "range",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_out_of_range_is_refused_at_its_location_not_clamped() {
        assert_eq!(page_limit(None).unwrap(), 50);
        assert_eq!(page_limit(Some(1)).unwrap(), 1);
        assert_eq!(page_limit(Some(MAX_LIMIT)).unwrap(), MAX_LIMIT);
        for bad in [0, MAX_LIMIT + 1] {
            let Err(Error::Validation(errors)) = page_limit(Some(bad)) else {
                panic!("limit={bad} was accepted");
            };
            let loc = serde_json::to_value(&errors[0]).unwrap()["loc"].clone();
            assert_eq!(loc, serde_json::json!(["query", "limit"]), "limit={bad}");
        }
    }
}

//! Accepting and serving connections, with limits on slow and greedy clients
//! (`server.header_timeout`, `idle_timeout`, `max_connections`,
//! `max_connections_per_address`; bodies are paced where they are read,
//! [`super::extract`]).
//!
//! hyper bounds none of this by itself unless given a timer, and its one timeout starts
//! whenever it waits for a request head, so a kept-alive connection and a head trickling
//! in a byte at a time would share it. Here each connection is watched instead
//! ([`phase`]):
//! - its first request's head must arrive whole within `header_timeout` of its start of
//!   service, and a kept-alive connection's next one within `header_timeout` of its first
//!   byte;
//! - a kept-alive connection with no request in progress is closed `idle_timeout` after its
//!   start or its last answer to a request with a valid token, whichever is later: a
//!   request without one (`/healthz`, a bad token) does not keep it open;
//! - one whose client stops reading its answer (nothing written for `idle_timeout`) is let
//!   go too;
//! - while a request is in progress (its body read, its answer computed), these do not
//!   count.
//!
//! No one can hoard connections ([`registry`]): one client address holds at most
//! `max_connections_per_address` (its next is answered 503 `overloaded` and closed, at
//! once); at most `max_connections` are served at once, and when all are, a newcomer takes
//! the place of the idlest one (one that never answered a request with a valid token
//! first), or, if none is idle, waits until one closes. Only one newcomer waits so, the
//! next in the listen backlog: a flood of slow clients costs a bounded number of sockets
//! and tasks, each let go within its timeout.

mod phase;
mod registry;

use super::auth::Authenticated;
use super::listener::{ClientAddr, Connection, ProblemListener};
use crate::config::server::ConnectionLimits;
use crate::wire::ProblemCode;
use axum::Router;
use axum::extract::ConnectInfo;
use axum::serve::Listener as _;
use futures_util::future::Either;
use phase::{Cut, InProgress, Watch, Watched};
use registry::{Registry, Serving};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError, watch};
use tower::ServiceExt as _;

/// Headers in one request head, at most ([`crate::limits::MAX_HEADERS`]).
const MAX_HEADERS: usize = crate::limits::MAX_HEADERS;

/// Connections refused for their address's share that are still being answered, at most;
/// past them, one is closed unanswered. Each takes a second at most
/// ([`Connection::refuse`]), so a flood of them costs a bounded number of sockets too.
const MAX_REFUSING: usize = 64;

/// What a client refused for its address's share is told to wait, in seconds.
const REFUSED_RETRY_AFTER_SECS: u64 = 1;

/// Serve `router` on `listener` until `shutdown` resolves; then stop accepting, let each
/// connection finish the request it is serving, and return when all are closed.
pub(crate) async fn serve(
    mut listener: ProblemListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections.get()));
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let registry = Arc::new(Registry::new(limits.max_connections_per_address));
    let (stop_tx, stop_rx) = watch::channel(false);
    // Each connection holds a receiver: when all are dropped, all connections are closed.
    let (closed_tx, closed_rx) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (io, peer) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let Some(admitted) = registry.admit(peer.ip()) else {
            refuse(io, &limits, &refusing);
            continue;
        };
        let permit = tokio::select! {
            permit = room(&permits, &registry) => permit,
            () = &mut shutdown => break,
        };
        let serving = admitted.serve();
        let (router, stop, closed) = (router.clone(), stop_rx.clone(), closed_rx.clone());
        tokio::spawn(async move {
            serve_connection(io, peer, router, limits, &serving, stop).await;
            drop((serving, permit, closed));
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(closed_rx);
    closed_tx.closed().await;
}

/// A place among the `max_connections`: at once if one is free; else, as soon as the
/// idlest connection has given way ([`Registry::give_way`]) or, while none is idle, one
/// closes.
async fn room(permits: &Arc<Semaphore>, registry: &Registry) -> OwnedSemaphorePermit {
    loop {
        let answered = registry.answered();
        let mut answered = std::pin::pin!(answered);
        answered.as_mut().enable();
        match permits.clone().try_acquire_owned() {
            Ok(permit) => return permit,
            // The semaphore is never closed.
            Err(TryAcquireError::Closed) => return std::future::pending().await,
            Err(TryAcquireError::NoPermits) => {}
        }
        registry.give_way();
        tokio::select! {
            Ok(permit) = permits.clone().acquire_owned() => return permit,
            () = answered => {}
        }
    }
}

/// Answer a connection past its address's share 503 `overloaded` and close it, off the
/// accept loop and without a place among the `max_connections`.
fn refuse(io: Connection, limits: &ConnectionLimits, refusing: &Arc<Semaphore>) {
    let Ok(slot) = refusing.clone().try_acquire_owned() else {
        return;
    };
    let detail = format!(
        "this address holds {} connections already, its share of the server's \
         (server.max_connections_per_address, of {}): send more requests over the \
         connections it holds, or close one",
        limits.max_connections_per_address, limits.max_connections
    );
    tokio::spawn(async move {
        io.refuse(ProblemCode::Overloaded, &detail, REFUSED_RETRY_AFTER_SECS)
            .await;
        drop(slot);
    });
}

/// The bytes of `request`'s head as it was sent: its request line and each header line.
fn head_bytes<B>(request: &hyper::Request<B>) -> usize {
    let line = request.method().as_str().len() + request.uri().to_string().len() + 12;
    let headers: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    line + headers + 2
}

/// hyper's own answer to a head past its limit, bodiless and without a request ID: the
/// listener writes the `headers_too_large` problem in its place
/// ([`super::listener`]), as for a head hyper refused itself, and the connection closes.
fn head_too_large() -> axum::response::Response {
    let mut response = axum::response::Response::new(axum::body::Body::empty());
    *response.status_mut() = axum::http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE;
    response.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    response
}

/// The answer to `request`, on the connection from `peer` that `watch` watches.
fn answer(
    router: &Router,
    peer: SocketAddr,
    watch: &Arc<Watch>,
    request: hyper::Request<hyper::body::Incoming>,
) -> impl Future<Output = Result<axum::response::Response, Infallible>> + Send + use<> {
    // hyper bounds its read buffer, not the head: a head that arrived in one read with its
    // body is parsed whatever its size. The limit is kept here, by the same answer hyper
    // gives (which the listener turns into the problem).
    if head_bytes(&request) > crate::limits::MAX_HEAD_BYTES {
        return Either::Left(std::future::ready(Ok(head_too_large())));
    }
    let mut request = request.map(axum::body::Body::new);
    request
        .extensions_mut()
        .insert(ConnectInfo(ClientAddr(peer)));
    let in_progress = InProgress::begin(watch.clone());
    let answer = router.clone().oneshot(request);
    Either::Right(async move {
        let response = answer.await;
        let authenticated = response
            .as_ref()
            .is_ok_and(|response| response.extensions().get::<Authenticated>().is_some());
        in_progress.answered(authenticated);
        response
    })
}

async fn serve_connection(
    io: Connection,
    peer: SocketAddr,
    router: Router,
    limits: ConnectionLimits,
    serving: &Serving,
    mut stop: watch::Receiver<bool>,
) {
    let watched = serving.watch.clone();
    let io = hyper_util::rt::TokioIo::new(Watched {
        inner: io,
        watch: watched.clone(),
    });
    let requests = watched.clone();
    let service =
        hyper::service::service_fn(move |request| answer(&router, peer, &requests, request));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .max_headers(MAX_HEADERS)
        .max_buf_size(crate::limits::MAX_HEAD_BYTES);
    let connection = builder.serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    let mut closing = false;
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(error) = served {
                    tracing::debug!(%peer, %error, "connection ended");
                }
                return;
            }
            _ = stop.wait_for(|stop| *stop), if !closing => {
                // hyper lets an idle connection go at once and one answering after its
                // answer, but waits for a head that has begun (or a client that never
                // sent one): those are let go now.
                if watched.awaiting_head() {
                    return;
                }
                closing = true;
                watched.closing();
                connection.as_mut().graceful_shutdown();
            }
            () = watched.asked_to_give_way(), if !closing => {
                tracing::debug!(%peer, "idle connection closed to make room for a newcomer");
                // One that never sent a byte has nothing to answer; one whose next head
                // has just begun is answered first.
                if watched.silent() {
                    return;
                }
                closing = true;
                watched.closing();
                connection.as_mut().graceful_shutdown();
            }
            cut = watched.expired(&limits) => match cut {
                Cut::Head => {
                    tracing::warn!(
                        %peer,
                        timeout_s = limits.header_timeout.as_secs_f64(),
                        "connection closed: its request head did not arrive within \
                         server.header_timeout"
                    );
                    return;
                }
                Cut::Idle => {
                    tracing::debug!(%peer, "idle connection closed");
                    closing = true;
                    watched.closing();
                    connection.as_mut().graceful_shutdown();
                }
                Cut::Stalled => {
                    tracing::debug!(%peer, "connection closed: its client stopped reading");
                    return;
                }
            }
        }
    }
}

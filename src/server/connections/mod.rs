//! Accepting and serving connections, with limits on slow and greedy clients
//! (`server.header_timeout`, `idle_timeout`, `max_connections`; bodies are paced where they
//! are read, [`super::extract`]).
//!
//! hyper bounds none of this by itself unless given a timer, and its one timeout starts
//! whenever it waits for a request head, so a kept-alive connection and a head trickling
//! in a byte at a time would share it. Here each connection is watched instead:
//! - its first request's head must arrive whole within `header_timeout` of the accept, and
//!   a kept-alive connection's next one within `header_timeout` of its first byte;
//! - a kept-alive connection with no request in progress, and nothing written for
//!   `idle_timeout`, is closed (a response its client does not read counts as nothing
//!   written, so a client that stops reading is let go too);
//! - while a request is in progress (its body read, its answer computed), these do not
//!   count.
//!
//! At most `max_connections` are served at once: the next is not accepted until one
//! closes (it waits in the listen backlog), so a flood of slow clients costs a bounded
//! number of sockets and tasks, each let go within its timeout.

use super::listener::{ClientAddr, ProblemListener};
use crate::config::server::ConnectionLimits;
use axum::Router;
use axum::extract::ConnectInfo;
use axum::serve::Listener as _;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{Notify, Semaphore, watch};
use tokio::time::Instant;
use tower::ServiceExt as _;

/// Headers in one request head, at most ([`crate::limits::MAX_HEADERS`]).
const MAX_HEADERS: usize = crate::limits::MAX_HEADERS;

/// Serve `router` on `listener` until `shutdown` resolves; then stop accepting, let each
/// connection finish the request it is serving, and return when all are closed.
pub(crate) async fn serve(
    mut listener: ProblemListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections.get()));
    let (stop_tx, stop_rx) = watch::channel(false);
    // Each connection holds a receiver: when all are dropped, all connections are closed.
    let (closed_tx, closed_rx) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (io, peer) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (router, stop, closed) = (router.clone(), stop_rx.clone(), closed_rx.clone());
        tokio::spawn(async move {
            serve_connection(io, peer, router, limits, stop).await;
            drop((permit, closed));
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(closed_rx);
    closed_tx.closed().await;
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

/// Why a connection was let go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// A request head did not arrive whole within `header_timeout`.
    Head,
    /// Nothing in progress and nothing written for `idle_timeout`.
    Idle,
}

async fn serve_connection(
    io: super::listener::Connection,
    peer: SocketAddr,
    router: Router,
    limits: ConnectionLimits,
    mut stop: watch::Receiver<bool>,
) {
    let watched = Arc::new(Watch::new());
    let io = hyper_util::rt::TokioIo::new(Watched {
        inner: io,
        watch: watched.clone(),
    });
    let requests = watched.clone();
    let service =
        hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
            // hyper bounds its read buffer, not the head: a head that arrived in one read
            // with its body is parsed whatever its size. The limit is kept here, by the
            // same answer hyper gives (which the listener turns into the problem).
            if head_bytes(&request) > crate::limits::MAX_HEAD_BYTES {
                return futures_util::future::Either::Left(std::future::ready(
                    Ok(head_too_large()),
                ));
            }
            let mut request = request.map(axum::body::Body::new);
            request
                .extensions_mut()
                .insert(ConnectInfo(ClientAddr(peer)));
            let in_progress = InProgress::begin(requests.clone());
            let answer = router.clone().oneshot(request);
            futures_util::future::Either::Right(async move {
                let response = answer.await;
                drop(in_progress);
                response
            })
        });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .max_headers(MAX_HEADERS)
        .max_buf_size(crate::limits::MAX_HEAD_BYTES);
    let connection = builder.serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    let mut stopping = false;
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(error) = served {
                    tracing::debug!(%peer, %error, "connection ended");
                }
                return;
            }
            _ = stop.wait_for(|stop| *stop), if !stopping => {
                // hyper lets an idle connection go at once and one answering after its
                // answer, but waits for a head that has begun (or a client that never
                // sent one): those are let go now.
                if watched.awaiting_head() {
                    return;
                }
                stopping = true;
                connection.as_mut().graceful_shutdown();
            }
            cut = watched.expired(&limits) => {
                match cut {
                    Cut::Head => tracing::warn!(
                        %peer,
                        timeout_s = limits.header_timeout.as_secs_f64(),
                        "connection closed: its request head did not arrive within \
                         server.header_timeout"
                    ),
                    Cut::Idle => tracing::debug!(%peer, "idle connection closed"),
                }
                return;
            }
        }
    }
}

/// What a connection is doing, for its timeouts.
struct Phase {
    /// Requests being answered (their bodies read, their answers computed).
    in_progress: usize,
    /// When the head now arriving began: the accept, or the first byte after the last
    /// answer. `None` when no head is arriving.
    head_since: Option<Instant>,
    /// When something last happened: an answer ended, or bytes were written.
    active_at: Instant,
}

/// A connection's [`Phase`], shared by its IO, its service and its watchdog.
struct Watch {
    phase: Mutex<Phase>,
    changed: Notify,
}

impl Watch {
    fn new() -> Self {
        let now = Instant::now();
        Self {
            phase: Mutex::new(Phase {
                in_progress: 0,
                head_since: Some(now),
                active_at: now,
            }),
            changed: Notify::new(),
        }
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        // Every update leaves a consistent phase: a panic elsewhere cannot break one.
        self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes arrived: with nothing in progress, a request head has begun.
    fn read(&self) {
        let mut phase = self.phase();
        if phase.in_progress == 0 && phase.head_since.is_none() {
            phase.head_since = Some(Instant::now());
            drop(phase);
            self.changed.notify_one();
        }
    }

    /// Whether the connection waits for a request head (a new one, or one begun), with
    /// nothing in progress.
    fn awaiting_head(&self) -> bool {
        let phase = self.phase();
        phase.in_progress == 0 && phase.head_since.is_some()
    }

    /// Bytes were written: the connection is in use.
    fn wrote(&self) {
        self.phase().active_at = Instant::now();
    }

    /// Resolves when the connection is to be let go, and why.
    async fn expired(&self, limits: &ConnectionLimits) -> Cut {
        loop {
            let changed = self.changed.notified();
            let mut changed = std::pin::pin!(changed);
            changed.as_mut().enable();
            let deadline = {
                let phase = self.phase();
                (phase.in_progress == 0).then(|| match phase.head_since {
                    Some(since) => (since + limits.header_timeout, Cut::Head),
                    None => (phase.active_at + limits.idle_timeout, Cut::Idle),
                })
            };
            match deadline {
                None => changed.await,
                Some((at, cut)) if Instant::now() >= at => return cut,
                Some((at, _)) => {
                    tokio::select! {
                        () = changed => {}
                        () = tokio::time::sleep_until(at) => {}
                    }
                }
            }
        }
    }
}

/// A request being answered, from its head to its answer (dropped unfinished when the
/// connection goes).
struct InProgress(Arc<Watch>);

impl InProgress {
    fn begin(watch: Arc<Watch>) -> Self {
        {
            let mut phase = watch.phase();
            phase.in_progress += 1;
            phase.head_since = None;
        }
        watch.changed.notify_one();
        Self(watch)
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        {
            let mut phase = self.0.phase();
            phase.in_progress = phase.in_progress.saturating_sub(1);
            phase.active_at = Instant::now();
        }
        self.0.changed.notify_one();
    }
}

/// A connection's IO, reporting what passes through it to its [`Watch`].
struct Watched {
    inner: super::listener::Connection,
    watch: Arc<Watch>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.watch.read();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.watch.wrote();
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

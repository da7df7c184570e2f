//! What one connection is doing ([`Phase`]), as its IO, its service and its watchdog see
//! it: when its timeouts fall due ([`Watch::expired`]), and whether it is idle enough to
//! give way to a newcomer ([`Watch::idle`]).
//!
//! Two clocks count its idleness. `renewed_at` moves only with an answer to a request
//! that carried a valid token (and the bytes of that answer), so a client without one
//! cannot keep a connection open past `idle_timeout` by asking for `/healthz`; `wrote_at`
//! moves with every answer and every byte written, so a client that stops reading is let
//! go, whoever it is.

use crate::config::server::ConnectionLimits;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

/// Why a connection is to be let go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cut {
    /// A request head did not arrive whole within `header_timeout`: closed at once.
    Head,
    /// Nothing renewed it for `idle_timeout`: closed once its answer is written.
    Idle,
    /// Nothing written for `idle_timeout` (its client stopped reading): closed at once.
    Stalled,
}

/// What a connection is doing, for its timeouts.
struct Phase {
    /// Requests being answered (their bodies read, their answers computed).
    in_progress: usize,
    /// When the head now awaited began to count: the start of service, or the first byte
    /// after the last answer. `None` when no head is awaited.
    head_since: Option<Instant>,
    /// Bytes of the awaited head have arrived (a new connection's first head has not
    /// begun until its first byte).
    head_begun: bool,
    /// The start of service, or the last answer to a request with a valid token (or a
    /// byte of one written).
    renewed_at: Instant,
    /// The last answer, or the last byte written.
    wrote_at: Instant,
    /// Which of its answers were to a request with a valid token.
    tokens: Tokens,
    /// Whether it is on its way out.
    leaving: Leaving,
}

/// Which of a connection's answers were to a request with a valid token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tokens {
    /// None.
    Never,
    /// An earlier one, not the last: when one must give way, a connection that never had
    /// one goes first.
    Before,
    /// The last one: the bytes of its answer renew the connection too.
    Last,
}

/// Whether a connection is on its way out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leaving {
    No,
    /// Asked to give way to a newcomer, closing once its answer is written (if any).
    GivingWay,
    /// Closing once its answer is written: stopping, or idle.
    Closing,
}

/// How idle a connection is, when it may give way: the one least worth keeping is the
/// least of these (never authenticated before authenticated, then renewed longest ago).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Idle {
    pub(super) authenticated: bool,
    pub(super) renewed_at: Instant,
}

/// A connection's [`Phase`], shared by its IO, its service and its watchdog.
pub(super) struct Watch {
    phase: Mutex<Phase>,
    changed: Notify,
    give_way: Notify,
    /// Told when an answer ends (shared by every connection): one may now give way.
    answered: Arc<Notify>,
}

impl Watch {
    pub(super) fn new(answered: Arc<Notify>) -> Self {
        let now = Instant::now();
        Self {
            phase: Mutex::new(Phase {
                in_progress: 0,
                head_since: Some(now),
                head_begun: false,
                renewed_at: now,
                wrote_at: now,
                tokens: Tokens::Never,
                leaving: Leaving::No,
            }),
            changed: Notify::new(),
            give_way: Notify::new(),
            answered,
        }
    }

    fn phase(&self) -> MutexGuard<'_, Phase> {
        // Every update leaves a consistent phase: a panic elsewhere cannot break one.
        self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes arrived: with nothing in progress, a request head has begun.
    fn read(&self) {
        let mut phase = self.phase();
        if phase.in_progress == 0 {
            phase.head_begun = true;
            if phase.head_since.is_none() {
                phase.head_since = Some(Instant::now());
                drop(phase);
                self.changed.notify_one();
            }
        }
    }

    /// Bytes were written: the connection is in use, and renewed if its answer is to a
    /// request with a valid token.
    fn wrote(&self) {
        let mut phase = self.phase();
        let now = Instant::now();
        phase.wrote_at = now;
        if phase.tokens == Tokens::Last {
            phase.renewed_at = now;
        }
    }

    /// Whether the connection waits for a request head (a new one, or one begun), with
    /// nothing in progress.
    pub(super) fn awaiting_head(&self) -> bool {
        let phase = self.phase();
        phase.in_progress == 0 && phase.head_since.is_some()
    }

    /// Whether the connection has been sent nothing since its start of service.
    pub(super) fn silent(&self) -> bool {
        let phase = self.phase();
        phase.in_progress == 0 && phase.head_since.is_some() && !phase.head_begun
    }

    /// The connection is closing once its answer is written: it is no longer let go
    /// for being idle, nor asked to give way.
    pub(super) fn closing(&self) {
        let mut phase = self.phase();
        if phase.leaving == Leaving::No {
            phase.leaving = Leaving::Closing;
        }
        drop(phase);
        self.changed.notify_one();
    }

    /// How idle it is, if it may give way: nothing in progress, no head begun, not
    /// closing already.
    pub(super) fn idle(&self) -> Option<Idle> {
        let phase = self.phase();
        let idle = phase.in_progress == 0 && !phase.head_begun && phase.leaving == Leaving::No;
        idle.then_some(Idle {
            authenticated: phase.tokens != Tokens::Never,
            renewed_at: phase.renewed_at,
        })
    }

    /// Whether it was asked to give way.
    pub(super) fn giving_way(&self) -> bool {
        self.phase().leaving == Leaving::GivingWay
    }

    /// Ask it to give way: its watchdog closes it ([`Self::asked_to_give_way`]).
    pub(super) fn ask_to_give_way(&self) {
        self.phase().leaving = Leaving::GivingWay;
        self.give_way.notify_one();
    }

    /// Resolves when the connection was asked to give way.
    pub(super) async fn asked_to_give_way(&self) {
        self.give_way.notified().await;
    }

    /// When the connection is to be let go as it is now, and why; `None` while a request
    /// is in progress.
    fn deadline(&self, limits: &ConnectionLimits) -> Option<(Instant, Cut)> {
        let phase = self.phase();
        (phase.in_progress == 0).then(|| match phase.head_since {
            Some(since) => (since + limits.header_timeout, Cut::Head),
            // Renewed no later than written: idle first, then stalled once closing.
            None if phase.leaving != Leaving::No => {
                (phase.wrote_at + limits.idle_timeout, Cut::Stalled)
            }
            None => (phase.renewed_at + limits.idle_timeout, Cut::Idle),
        })
    }

    /// Resolves when the connection is to be let go, and why.
    pub(super) async fn expired(&self, limits: &ConnectionLimits) -> Cut {
        loop {
            let changed = self.changed.notified();
            let mut changed = std::pin::pin!(changed);
            changed.as_mut().enable();
            match self.deadline(limits) {
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
pub(super) struct InProgress {
    watch: Arc<Watch>,
    authenticated: bool,
}

impl InProgress {
    pub(super) fn begin(watch: Arc<Watch>) -> Self {
        {
            let mut phase = watch.phase();
            phase.in_progress += 1;
            phase.head_since = None;
            phase.head_begun = false;
        }
        watch.changed.notify_one();
        Self {
            watch,
            authenticated: false,
        }
    }

    /// The answer is ready; `authenticated`: to a request with a valid token.
    pub(super) fn answered(mut self, authenticated: bool) {
        self.authenticated = authenticated;
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        let idle = {
            let mut phase = self.watch.phase();
            let now = Instant::now();
            phase.in_progress = phase.in_progress.saturating_sub(1);
            phase.wrote_at = now;
            if self.authenticated {
                phase.renewed_at = now;
                phase.tokens = Tokens::Last;
            } else if phase.tokens == Tokens::Last {
                phase.tokens = Tokens::Before;
            }
            phase.in_progress == 0
        };
        self.watch.changed.notify_one();
        if idle {
            self.watch.answered.notify_waiters();
        }
    }
}

/// A connection's IO, reporting what passes through it to its [`Watch`].
pub(super) struct Watched {
    pub(super) inner: crate::server::listener::Connection,
    pub(super) watch: Arc<Watch>,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Let the clock move on, so that what happens next happens later.
    fn tick() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }

    /// A request read and answered, a tick later.
    fn answer(watch: &Arc<Watch>, authenticated: bool) {
        tick();
        watch.read();
        InProgress::begin(watch.clone()).answered(authenticated);
    }

    #[test]
    fn only_an_answer_to_a_request_with_a_token_renews_a_connection() {
        let limits = ConnectionLimits::default();
        let watch = Arc::new(Watch::new(Arc::new(Notify::new())));
        let start = watch.phase().renewed_at;
        assert_eq!(
            watch.deadline(&limits),
            Some((start + limits.header_timeout, Cut::Head)),
            "its first head is awaited"
        );
        let in_progress = InProgress::begin(watch.clone());
        assert_eq!(
            watch.deadline(&limits),
            None,
            "no clock runs while answering"
        );
        tick();
        in_progress.answered(false);
        watch.wrote();
        assert_eq!(
            watch.deadline(&limits),
            Some((start + limits.idle_timeout, Cut::Idle)),
            "neither the answer nor its bytes renewed it"
        );
        assert!(watch.phase().wrote_at > start);

        answer(&watch, true);
        let renewed = watch.phase().renewed_at;
        assert!(renewed > start);
        tick();
        watch.wrote();
        let written = watch.phase().renewed_at;
        assert!(
            written > renewed,
            "the bytes of an answer with a token renew it"
        );
        answer(&watch, false);
        watch.wrote();
        assert_eq!(
            watch.deadline(&limits),
            Some((written + limits.idle_timeout, Cut::Idle)),
            "a later answer without one did not"
        );

        watch.closing();
        let wrote_at = watch.phase().wrote_at;
        assert_eq!(
            watch.deadline(&limits),
            Some((wrote_at + limits.idle_timeout, Cut::Stalled)),
            "closing, it is let go only if its client stops reading"
        );
    }

    #[test]
    fn a_connection_is_idle_with_nothing_in_progress_and_no_head_begun() {
        let watch = Arc::new(Watch::new(Arc::new(Notify::new())));
        let start = watch.phase().renewed_at;
        assert!(watch.silent());
        tick();
        let never = Idle {
            authenticated: false,
            renewed_at: start,
        };
        assert_eq!(
            watch.idle(),
            Some(never),
            "a new connection that sent nothing"
        );
        watch.read();
        assert!(!watch.silent());
        assert_eq!(watch.idle(), None, "its head has begun");
        let in_progress = InProgress::begin(watch.clone());
        assert_eq!(watch.idle(), None, "answering");
        in_progress.answered(false);
        assert_eq!(watch.idle(), Some(never), "the answer did not renew it");
        answer(&watch, true);
        answer(&watch, false);
        let idle = watch.idle().unwrap();
        assert!(
            idle.authenticated && idle > never,
            "kept before one that never had a token"
        );
        watch.ask_to_give_way();
        assert!(watch.giving_way());
        assert_eq!(watch.idle(), None, "giving way already");
        watch.closing();
        assert!(watch.giving_way(), "still giving way while it closes");
    }
}

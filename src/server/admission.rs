//! Bounded decision work: at most `server.max_concurrent_decisions` decisions compute at
//! once and at most `server.decision_queue` wait for a slot; one more is refused at once
//! with 503 `overloaded` (and `Retry-After`), so the memory and the latency of a server
//! stay bounded however many clients call it at once.

use crate::error::Error;
use futures_util::future::BoxFuture;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tokio::sync::{Semaphore, SemaphorePermit};

pub(crate) struct Admission {
    slots: Semaphore,
    /// The slots there are: those not available are computing.
    slot_count: usize,
    /// Slots plus queue: the decisions admitted at most, computing or waiting.
    capacity: usize,
    admitted: AtomicUsize,
    /// Decisions admitted since the server started: the trimmer's sign of activity.
    started: AtomicU64,
}

/// A decision's slot, held while it computes; its place is given back when dropped.
pub(crate) struct Slot<'a> {
    _permit: SemaphorePermit<'a>,
    _place: Place<'a>,
}

/// A place among the admitted decisions, given back when dropped (also when the decision's
/// client goes away while it waits).
struct Place<'a>(&'a AtomicUsize);

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How long a refused client is told to wait before retrying.
const RETRY_AFTER_SECS: u64 = 1;

impl Admission {
    pub(crate) fn new(slots: usize, queue: usize) -> Self {
        Self {
            slots: Semaphore::new(slots),
            slot_count: slots,
            capacity: slots.saturating_add(queue),
            admitted: AtomicUsize::new(0),
            started: AtomicU64::new(0),
        }
    }

    /// Decisions admitted so far, and whether none is admitted now.
    pub(crate) fn activity(&self) -> (u64, bool) {
        (
            self.started.load(Ordering::Acquire),
            self.admitted.load(Ordering::Acquire) == 0,
        )
    }

    /// The decisions admitted now (computing or waiting for a slot), and the most there
    /// may be: what `GET /healthz` reports.
    pub(crate) fn load(&self) -> (usize, usize) {
        (self.admitted.load(Ordering::Acquire), self.capacity)
    }

    /// Decisions computing now, and waiting for a slot now: what `/metrics` reports.
    pub(crate) fn occupancy(&self) -> (usize, usize) {
        let computing = self
            .slot_count
            .saturating_sub(self.slots.available_permits());
        let admitted = self.admitted.load(Ordering::Acquire);
        (computing, admitted.saturating_sub(computing))
    }

    /// A slot, once one is free; `overloaded` at once when the queue is full.
    pub(crate) async fn admit(&self) -> Result<Slot<'_>, Error> {
        if self.admitted.fetch_add(1, Ordering::AcqRel) >= self.capacity {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            crate::telemetry::metrics::overloaded();
            return Err(Error::Overloaded {
                retry_after_secs: RETRY_AFTER_SECS,
            });
        }
        self.started.fetch_add(1, Ordering::AcqRel);
        let place = Place(&self.admitted);
        let permit = self
            .slots
            .acquire()
            .await
            .map_err(|e| Error::internal("the decision slots", e))?;
        Ok(Slot {
            _permit: permit,
            _place: place,
        })
    }
}

/// The decision slots as the side work of one request sees them (`examples next` deciding
/// its candidates): one engine call at a time, each admitted as a decision is. So such a
/// request holds at most one place, as a decision does, and is never refused for its own
/// calls.
pub(crate) struct OneAtATime<'a> {
    admission: &'a Admission,
    turn: tokio::sync::Mutex<()>,
}

impl<'a> OneAtATime<'a> {
    pub(crate) fn new(admission: &'a Admission) -> Self {
        Self {
            admission,
            turn: tokio::sync::Mutex::new(()),
        }
    }
}

impl crate::core::answer_cache::Gate for OneAtATime<'_> {
    fn enter(&self) -> BoxFuture<'_, Result<Box<dyn Send + '_>, Error>> {
        Box::pin(async move {
            let turn = self.turn.lock().await;
            let slot = self.admission.admit().await?;
            Ok(Box::new((turn, slot)) as Box<dyn Send + '_>)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn one_computes_one_waits_the_next_is_refused_and_places_come_back() {
        let admission = Admission::new(1, 1);
        let computing = admission.admit().await.unwrap();
        let waiting = admission.admit();
        tokio::pin!(waiting);
        // It waits for the slot...
        assert!(
            tokio::time::timeout(Duration::from_millis(50), &mut waiting)
                .await
                .is_err()
        );
        // ...while a third is refused at once.
        let refused = admission.admit().await.err().unwrap();
        assert_eq!(refused.code(), "overloaded");
        assert_eq!(refused.status(), 503);
        drop(computing);
        let second = waiting.await.unwrap();
        // One computing, none waiting: there is room for one to wait again.
        let queued = admission.admit();
        tokio::pin!(queued);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), &mut queued)
                .await
                .is_err()
        );
        drop(second);
        drop(queued.await.unwrap());
        assert_eq!(admission.admitted.load(Ordering::Acquire), 0);
    }

    /// One request's own calls wait their turn, holding one place: with one slot and no
    /// queue, the second call is not refused but runs after the first.
    #[tokio::test]
    async fn one_request_takes_one_place_at_a_time() {
        use crate::core::answer_cache::Gate as _;
        let admission = Admission::new(1, 0);
        let gate = OneAtATime::new(&admission);
        let first = gate.enter().await.unwrap();
        let second = gate.enter();
        tokio::pin!(second);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), &mut second)
                .await
                .is_err()
        );
        assert_eq!(admission.admitted.load(Ordering::Acquire), 1);
        // Another request's decision is refused meanwhile: the slot is taken.
        assert_eq!(admission.admit().await.err().unwrap().code(), "overloaded");
        drop(first);
        drop(second.await.unwrap());
        assert_eq!(admission.admitted.load(Ordering::Acquire), 0);
    }

    /// A waiting decision whose client goes away gives its place back.
    #[tokio::test]
    async fn an_abandoned_wait_gives_its_place_back() {
        let admission = Admission::new(1, 1);
        let computing = admission.admit().await.unwrap();
        {
            let waiting = admission.admit();
            tokio::pin!(waiting);
            let _ = tokio::time::timeout(Duration::from_millis(20), &mut waiting).await;
        }
        assert_eq!(admission.admitted.load(Ordering::Acquire), 1);
        drop(computing);
        assert_eq!(admission.admitted.load(Ordering::Acquire), 0);
    }
}

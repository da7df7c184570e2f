//! The connections being served, so that none can be hoarded: each client address (IP,
//! whatever the port) holds at most its share of them ([`Registry::admit`]), and when all
//! are taken the idlest one gives way to a newcomer ([`Registry::give_way`]).

use super::phase::{Idle, Watch};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::Notify;
use tokio::sync::futures::Notified;

/// The connections admitted, by address, and those being served.
pub(super) struct Registry {
    /// Connections one address may hold (`server.max_connections_per_address`).
    share: NonZeroUsize,
    live: Mutex<Live>,
    /// Told when a connection's answer ends: it may now give way.
    answered: Arc<Notify>,
}

#[derive(Default)]
struct Live {
    /// Connections admitted (served, or waiting to be), per address.
    per_address: HashMap<IpAddr, usize>,
    /// Connections being served, by a number of their own.
    serving: HashMap<u64, Arc<Watch>>,
    next: u64,
}

impl Registry {
    pub(super) fn new(share: NonZeroUsize) -> Self {
        Self {
            share,
            live: Mutex::new(Live::default()),
            answered: Arc::new(Notify::new()),
        }
    }

    fn live(&self) -> MutexGuard<'_, Live> {
        // Every update leaves the maps consistent: a panic elsewhere cannot break them.
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A connection from `address`, counted against its share until dropped; `None` when
    /// the address holds its share already.
    pub(super) fn admit(self: &Arc<Self>, address: IpAddr) -> Option<Admitted> {
        let mut live = self.live();
        let held = live.per_address.entry(address).or_default();
        if *held >= self.share.get() {
            return None;
        }
        *held += 1;
        Some(Admitted {
            registry: self.clone(),
            address,
        })
    }

    /// Resolves when a connection's answer ends (enable it before [`Self::give_way`] so
    /// that none is missed).
    pub(super) fn answered(&self) -> Notified<'_> {
        self.answered.notified()
    }

    /// Make room for a newcomer: ask the idlest connection to give way, preferring one
    /// that never answered a request with a valid token. Whether one is giving way (asked
    /// now, or before and not gone yet); `false` when none is idle.
    pub(super) fn give_way(&self) -> bool {
        let live = self.live();
        if live.serving.values().any(|watch| watch.giving_way()) {
            return true;
        }
        let idlest = idlest(live.serving.values().map(|watch| (watch, watch.idle())));
        if let Some(watch) = idlest {
            watch.ask_to_give_way();
        }
        idlest.is_some()
    }
}

/// Of `connections`, the one whose [`Idle`] is least; none when none is idle.
fn idlest<T>(connections: impl Iterator<Item = (T, Option<Idle>)>) -> Option<T> {
    connections
        .filter_map(|(connection, idle)| Some((connection, idle?)))
        .min_by_key(|(_, idle)| *idle)
        .map(|(connection, _)| connection)
}

/// A connection counted against its address's share.
pub(super) struct Admitted {
    registry: Arc<Registry>,
    address: IpAddr,
}

impl Admitted {
    /// It is served from now on: watched, and one that may give way.
    pub(super) fn serve(self) -> Serving {
        let watch = Arc::new(Watch::new(self.registry.answered.clone()));
        let id = {
            let mut live = self.registry.live();
            let id = live.next;
            live.next += 1;
            live.serving.insert(id, watch.clone());
            id
        };
        Serving {
            admitted: self,
            id,
            watch,
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut live = self.registry.live();
        if let Some(held) = live.per_address.get_mut(&self.address) {
            *held -= 1;
            if *held == 0 {
                live.per_address.remove(&self.address);
            }
        }
    }
}

/// A connection being served, until dropped.
pub(super) struct Serving {
    admitted: Admitted,
    id: u64,
    pub(super) watch: Arc<Watch>,
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.admitted.registry.live().serving.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::time::Instant;

    fn registry(share: usize) -> Arc<Registry> {
        Arc::new(Registry::new(NonZeroUsize::new(share).unwrap()))
    }

    #[test]
    fn an_address_holds_its_share_and_no_more_whatever_the_others_hold() {
        let registry = registry(2);
        let (a, b) = ("127.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap());
        let first = registry.admit(a).unwrap();
        let second = registry.admit(a).unwrap().serve();
        assert!(registry.admit(a).is_none(), "past its share");
        let others: Vec<_> = (0..2).map(|_| registry.admit(b).unwrap()).collect();
        drop(second);
        let third = registry.admit(a).expect("room again once one closed");
        assert!(registry.admit(a).is_none());
        drop((first, third, others));
        assert!(registry.live().per_address.is_empty());
        assert!(registry.live().serving.is_empty());
    }

    #[test]
    fn the_idlest_never_authenticated_connection_gives_way_first() {
        let now = Instant::now();
        let idle = |authenticated, ago| {
            Some(Idle {
                authenticated,
                renewed_at: now - Duration::from_secs(ago),
            })
        };
        let connections = [
            ("answering", None),
            ("authenticated, idle longest", idle(true, 50)),
            ("never authenticated, idle 10 s", idle(false, 10)),
            ("never authenticated, idle 20 s", idle(false, 20)),
        ];
        assert_eq!(
            idlest(connections.into_iter()),
            Some("never authenticated, idle 20 s")
        );
        assert_eq!(
            idlest(connections.into_iter().take(2)),
            Some("authenticated, idle longest"),
            "an authenticated one, when no other is idle"
        );
        assert_eq!(idlest(connections.into_iter().take(1)), None);
    }

    #[tokio::test]
    async fn one_connection_gives_way_at_a_time_and_only_an_idle_one() {
        let registry = registry(4);
        let address = "127.0.0.1".parse().unwrap();
        let busy = registry.admit(address).unwrap().serve();
        let _answering = super::super::phase::InProgress::begin(busy.watch.clone());
        assert!(!registry.give_way(), "nothing idle");
        let idle = registry.admit(address).unwrap().serve();
        assert!(registry.give_way());
        assert!(idle.watch.giving_way() && !busy.watch.giving_way());
        idle.watch.asked_to_give_way().await;
        let other = registry.admit(address).unwrap().serve();
        assert!(registry.give_way(), "one is giving way already");
        assert!(!other.watch.giving_way(), "and no second one is asked");
        drop(idle);
        assert!(registry.give_way());
        assert!(other.watch.giving_way());
    }
}

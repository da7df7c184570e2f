//! Process leases in the store: how replicas that share a database tell a claim someone
//! still works on (an idempotency key in progress) from one left by a replica that died.
//! A live process renews its row; a row past `expires_at` belongs to a process that
//! stopped renewing. Times are the store's RFC 3339 UTC text, which compares in time
//! order; replicas' clocks are assumed to agree to well within a lease (NTP).

use super::sql::{SqlContext, params};
use super::{Store, StoreError, expiry};

impl Store {
    /// Take lease `id` (or extend it) until `ttl` from now; expired leases of others are
    /// swept on the way, so the table stays small.
    pub fn renew_lease(&self, id: &str, ttl: std::time::Duration) -> Result<(), StoreError> {
        let until = expiry(ttl);
        self.write("renew lease", |tx| {
            tx.execute(
                "DELETE FROM leases WHERE expires_at < ?1",
                params![super::now()],
            )
            .ctx("sweep expired leases")?;
            tx.execute(
                "INSERT INTO leases (lease_id, expires_at) VALUES (?1, ?2)
                 ON CONFLICT (lease_id) DO UPDATE SET expires_at = excluded.expires_at",
                params![id, until],
            )
            .ctx("renew lease")?;
            Ok(())
        })
    }

    /// Whether lease `id` is held and not expired.
    pub fn lease_alive(&self, id: &str) -> Result<bool, StoreError> {
        let mut conn = self.conn()?;
        conn.db()
            .query_opt(
                "SELECT 1 FROM leases WHERE lease_id = ?1 AND expires_at >= ?2",
                params![id, super::now()],
                |_| Ok(()),
            )
            .map(|found| found.is_some())
            .ctx("read lease")
    }

    /// Give lease `id` up (the process ends cleanly).
    pub fn drop_lease(&self, id: &str) -> Result<(), StoreError> {
        self.write("drop lease", |tx| {
            tx.execute("DELETE FROM leases WHERE lease_id = ?1", params![id])
                .ctx("drop lease")?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::test_support::{on_postgres, store};

    #[test]
    fn a_lease_lives_while_renewed_and_dies_when_it_expires_or_is_dropped() {
        let store = store();
        store.renew_lease("a", Duration::from_mins(1)).unwrap();
        store.renew_lease("b", Duration::from_millis(1)).unwrap();
        assert!(store.lease_alive("a").unwrap());
        assert!(!store.lease_alive("never-taken").unwrap());
        std::thread::sleep(Duration::from_millis(20));
        assert!(!store.lease_alive("b").unwrap(), "expired");
        // Renewing brings an expired lease back (its process was only slow).
        store.renew_lease("b", Duration::from_mins(1)).unwrap();
        assert!(store.lease_alive("b").unwrap());
        store.drop_lease("a").unwrap();
        assert!(!store.lease_alive("a").unwrap());
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(a_lease_lives_while_renewed_and_dies_when_it_expires_or_is_dropped);
    }
}

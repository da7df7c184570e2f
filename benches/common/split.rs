//! How the learning benches split a labelled set, by SHA-256 of (seed, salt, example ID):
//! the pool annotations are drawn from and the fresh half never annotated; for development
//! runs, the pool split again; and the order examples are drawn from it in.

use sha2::{Digest, Sha256};

fn key(seed: u64, salt: &str, id: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(seed.to_le_bytes());
    hasher.update(salt.as_bytes());
    hasher.update(id.as_bytes());
    hasher.finalize().into()
}

/// `(pool, fresh)` of `rows` for `seed`; with `dev`, the pool alone split into
/// `(drawn from, scored on)`, so that development never sees the fresh half. The first
/// part is in draw order.
pub(crate) fn split<T>(
    rows: impl IntoIterator<Item = T>,
    seed: u64,
    dev: bool,
    id: impl Fn(&T) -> &str,
) -> (Vec<T>, Vec<T>) {
    let halves = |rows: Vec<T>, salt: &str| -> (Vec<T>, Vec<T>) {
        rows.into_iter()
            .partition(|r| key(seed, salt, id(r))[0].is_multiple_of(2))
    };
    let (pool, fresh) = halves(rows.into_iter().collect(), "split");
    let (mut drawn, scored) = if dev {
        halves(pool, "dev")
    } else {
        (pool, fresh)
    };
    drawn.sort_by_cached_key(|r| key(seed, "draw", id(r)));
    (drawn, scored)
}

use std::sync::Arc;

use serde_json::json;

use super::test_support::{MODEL, decision, file_store};
use super::*;

fn user_version(path: &Path) -> i64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}

#[test]
fn store_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();
    assert_send_sync::<Arc<Store>>();
}

#[test]
fn open_twice_is_idempotent_and_uses_wal() {
    let (dir, store) = file_store();
    let path = dir.path().join("arbiter.db");
    let state = json!({ "a": 1 });
    store
        .record_decision(&decision(&"e1".into(), &state, &json!({})))
        .unwrap();
    drop(store);
    let again = Store::open(&path).unwrap();
    assert_eq!(
        again
            .count_examples(&MODEL, &ExampleFilter::default())
            .unwrap(),
        1
    );
    assert_eq!(user_version(&path), SCHEMA_VERSION);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn newer_schema_is_refused() {
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join("future.db");
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 999)
        .unwrap();
    let err = Store::open(&path).unwrap_err();
    assert_eq!(
        err,
        StoreError::TooNew {
            found: 999,
            supported: SCHEMA_VERSION
        }
    );
    assert_eq!(user_version(&path), 999, "refusal must not touch the file");
}

#[test]
fn pooled_connections_have_pragmas() {
    let (_dir, store) = file_store();
    // Hold two so the second is freshly opened by the pool.
    let a = store.conn().unwrap();
    let b = store.conn().unwrap();
    for c in [&a, &b] {
        let Conn::Sqlite(c) = c else {
            panic!("a file store runs on SQLite")
        };
        let fk: i64 = c
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        let sync: i64 = c
            .pragma_query_value(None, "synchronous", |r| r.get(0))
            .unwrap();
        assert_eq!((fk, sync), (1, 1));
    }
}

/// Four "processes" (independent `Store`s on one file) racing on
/// overlapping example ids.
#[test]
fn concurrent_stores_on_one_file() {
    const THREADS: usize = 4;
    const CALLS: usize = 200;
    const DISTINCT: usize = 50;
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join("shared.db");
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let store = Store::open(&path).unwrap();
                let mut created = 0;
                for i in 0..CALLS {
                    let id = format!("ex-{:03}", (i * 7 + t) % DISTINCT);
                    let state = json!({ "thread": t, "i": i });
                    let rec = store
                        .record_decision(&decision(&id.as_str().into(), &state, &json!({})))
                        .unwrap();
                    created += usize::from(rec.example_created);
                }
                created
            })
        })
        .collect();
    let created: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    let store = Store::open(&path).unwrap();
    assert_eq!(created, DISTINCT);
    assert_eq!(
        store
            .count_examples(&MODEL, &ExampleFilter::default())
            .unwrap(),
        DISTINCT as u64
    );
    let decisions: i64 = store
        .conn()
        .unwrap()
        .db()
        .query_value("SELECT count(*) FROM decisions", &[])
        .unwrap();
    assert_eq!(usize::try_from(decisions).unwrap(), THREADS * CALLS);
}

#[test]
fn in_memory_store_is_shared_across_threads() {
    let store = Arc::new(Store::open_in_memory().unwrap());
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                for i in 0..25 {
                    let id = format!("m-{t}-{i}");
                    let state = json!(i);
                    store
                        .record_decision(&decision(&id.as_str().into(), &state, &json!({})))
                        .unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(
        store
            .count_examples(&MODEL, &ExampleFilter::default())
            .unwrap(),
        100
    );
}

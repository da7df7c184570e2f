//! Helpers shared by the test modules of this directory.

use std::cell::Cell;
use std::ops::Deref;

use serde_json::{Value, json};
use tempfile::TempDir;

use super::{NewDecision, Store};
use crate::ids::ExampleId;

thread_local! {
    /// Whether the running test is on PostgreSQL ([`on_postgres!`]).
    static ON_POSTGRES: Cell<bool> = const { Cell::new(false) };
}

/// A store for one test, and the directory it lives in (SQLite).
pub(crate) struct TestStore {
    store: Store,
    _dir: Option<TempDir>,
}

impl Deref for TestStore {
    type Target = Store;
    fn deref(&self) -> &Store {
        &self.store
    }
}

/// A fresh store on the backend the running test is on: a SQLite file, or a new
/// PostgreSQL database inside [`on_postgres!`].
pub(crate) fn store() -> TestStore {
    if ON_POSTGRES.get() {
        let url = arbiter_testing::postgres::database().expect("checked by on_postgres!");
        TestStore {
            store: Store::connect(&url).expect("connect to the test database"),
            _dir: None,
        }
    } else {
        let (dir, store) = file_store();
        TestStore {
            store,
            _dir: Some(dir),
        }
    }
}

/// Runs `test` with [`store`] giving PostgreSQL stores; false (having said how to run
/// it) when PostgreSQL is not installed.
pub(crate) fn run_on_postgres(name: &str, test: fn()) -> bool {
    if arbiter_testing::postgres::server().is_none() {
        return false;
    }
    #[allow(clippy::print_stderr)] // which test a failure below belongs to
    {
        eprintln!("on PostgreSQL: {name}");
    }
    ON_POSTGRES.set(true);
    test();
    ON_POSTGRES.set(false);
    true
}

/// `on_postgres!(test_a, test_b)`: the same tests again, each on a fresh PostgreSQL
/// database (skipped, saying how to run them, when PostgreSQL is not installed).
macro_rules! on_postgres {
    ($($test:ident),+ $(,)?) => {
        $(
            if !$crate::store::test_support::run_on_postgres(stringify!($test), $test) {
                return;
            }
        )+
    };
}
pub(crate) use on_postgres;

pub(crate) static MODEL: std::sync::LazyLock<crate::ids::ModelId> =
    std::sync::LazyLock::new(|| {
        "0f8fad5b-d9cb-469f-a165-70867728950e"
            .parse()
            .expect("a model ID")
    });

/// A file-backed store in a fresh temp dir (keep the dir alive).
pub(crate) fn file_store() -> (TempDir, Store) {
    let dir = TempDir::new().expect("temp dir");
    let store = Store::open(&dir.path().join("arbiter.db")).expect("open store");
    (dir, store)
}

pub(crate) fn decision<'a>(
    example_id: &'a ExampleId,
    state: &'a Value,
    answers: &'a Value,
) -> NewDecision<'a> {
    static QUESTIONS: std::sync::LazyLock<Value> =
        std::sync::LazyLock::new(|| json!([{ "id": "q1", "text": "Is it?" }]));
    NewDecision {
        decision_id: None,
        model_id: &MODEL,
        example_id,
        state,
        checkpoint: "0123456789abcdef0123456789abcdef01234567",
        revision_name: "main",
        revision_kind: "branch",
        questions: &QUESTIONS,
        answers,
        input_tokens: 120,
        output_tokens: 7,
        request_id: "req_1",
    }
}

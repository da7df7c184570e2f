//! Examples: streaming ingest, lookup, filtered listing with keyset
//! pagination, streaming iteration and counting.

use crate::ids::ExampleId;
use crate::ids::ModelId;
use std::collections::BTreeMap;

use super::error::parse_json;
use super::sql::{Db, Row, SqlContext, Value as SqlValue, dynamic, params};
use super::{
    Example, ExampleDetail, ExampleFilter, IngestCounts, IngestItem, Store, StoreError,
    annotations, decisions, example_rows, now, write_tx,
};

/// Items per ingest transaction: large enough to amortise the commit, small
/// enough that other writers are not locked out for long.
const INGEST_BATCH: usize = 2_000;

/// Page size used by [`Store::for_each_example`].
const STREAM_PAGE: usize = 1_000;

/// Correlated "this example has an annotation" subquery (left open for extra conditions).
const HAS_ANNOTATION: &str = "EXISTS (SELECT 1 FROM annotations a \
     WHERE a.model_id = e.model_id AND a.example_id = e.example_id";

impl Store {
    /// Streams `items` into the store: inserts each example if absent (an
    /// existing one keeps its state and counts as `existing`) and upserts its
    /// annotations.
    ///
    /// With `atomic = false` items are written in transactions of 2,000 and
    /// `on_batch` gets the running totals after each commit; each batch is read
    /// from `items` *before* its transaction starts, so a slow source never holds
    /// the write lock. With `atomic = true` everything is one transaction,
    /// committed (and reported to `on_batch`) only at the end.
    ///
    /// # Errors
    /// The first error yielded by `items` or raised by SQLite. The transaction in
    /// progress is rolled back: with `atomic = true` nothing is written, otherwise
    /// the batches already reported to `on_batch` stay.
    pub fn ingest(
        &self,
        model_id: &ModelId,
        items: &mut dyn Iterator<Item = Result<IngestItem, StoreError>>,
        atomic: bool,
        on_batch: &mut dyn FnMut(&IngestCounts),
    ) -> Result<IngestCounts, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        let mut conn = self.conn()?;
        let mut counts = IngestCounts::default();
        if atomic {
            write_tx(&mut conn, "ingest (atomic)", |tx| {
                loop {
                    let batch = next_batch(items)?;
                    if batch.is_empty() {
                        return Ok(());
                    }
                    write_items(tx, model_id, &batch, &mut counts)?;
                }
            })?;
            on_batch(&counts);
            return Ok(counts);
        }
        loop {
            let batch = next_batch(items)?;
            if batch.is_empty() {
                return Ok(counts);
            }
            write_tx(&mut conn, "ingest batch", |tx| {
                write_items(tx, model_id, &batch, &mut counts)
            })?;
            on_batch(&counts);
        }
    }

    /// One example with its annotations and decisions, read from one snapshot.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure, [`StoreError::Corrupt`] if a
    /// stored JSON column does not parse.
    pub fn get_example(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
    ) -> Result<Option<ExampleDetail>, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        self.read("get example", |tx| {
            let Some(example) = load_one(tx, model_id, example_id)? else {
                return Ok(None);
            };
            let mut page = [example];
            annotations::fill(tx, model_id, &mut page)?;
            let [example] = page;
            let decisions = decisions::load(tx, model_id, example_id)?;
            Ok(Some(ExampleDetail { example, decisions }))
        })
    }

    /// Up to `limit` matching examples with `example_id > after`, ordered by
    /// `example_id`, annotations included. Pass the last id of a page as `after`
    /// to get the next one.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure, [`StoreError::Corrupt`] if a
    /// stored JSON column does not parse.
    pub fn list_examples(
        &self,
        model_id: &ModelId,
        filter: &ExampleFilter,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Example>, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        self.read("list examples", |tx| {
            list_page(tx, model_id, filter, after, limit)
        })
    }

    /// Calls `f` on every matching example in `example_id` order, one page at a
    /// time, so memory stays bounded. No connection is held while `f` runs (it
    /// may use the store); pages are separate snapshots, so concurrent writes
    /// may or may not be seen, but no example is visited twice.
    ///
    /// # Errors
    /// The first error from the store or from `f`, which stops the iteration.
    pub fn for_each_example(
        &self,
        model_id: &ModelId,
        filter: &ExampleFilter,
        f: &mut dyn FnMut(Example) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut after: Option<String> = None;
        loop {
            let page = self.list_examples(model_id, filter, after.as_deref(), STREAM_PAGE)?;
            let last_page = page.len() < STREAM_PAGE;
            after = page.last().map(|e| e.example_id.to_string());
            page.into_iter().try_for_each(&mut *f)?;
            if last_page {
                return Ok(());
            }
        }
    }

    /// Number of matching examples.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn count_examples(
        &self,
        model_id: &ModelId,
        filter: &ExampleFilter,
    ) -> Result<u64, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        let (where_sql, args) = filter_clause(model_id, filter);
        let sql = format!("SELECT count(*) FROM examples e WHERE {where_sql}");
        let mut conn = self.conn()?;
        let count: i64 = conn
            .db()
            .query_value(&sql, &dynamic(&args))
            .ctx("count examples")?;
        Ok(u64::try_from(count).unwrap_or_default())
    }
}

/// Pulls up to one batch from the source (stopping at its first error).
fn next_batch(
    items: &mut dyn Iterator<Item = Result<IngestItem, StoreError>>,
) -> Result<Vec<IngestItem>, StoreError> {
    items.take(INGEST_BATCH).collect()
}

fn write_items(
    conn: &mut Db<'_>,
    model_id: &str,
    batch: &[IngestItem],
    counts: &mut IngestCounts,
) -> Result<(), StoreError> {
    let at = now();
    for item in batch {
        if example_rows::insert_if_absent(conn, model_id, &item.example_id, &item.state, at)? {
            counts.created += 1;
        } else {
            counts.existing += 1;
        }
        for a in &item.annotations {
            annotations::upsert(conn, model_id, &item.example_id, a, at)?;
            counts.annotations += 1;
        }
    }
    Ok(())
}

fn load_one(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
) -> Result<Option<Example>, StoreError> {
    let raw = conn
        .query_opt(
            "SELECT example_id, state, created_at FROM examples
             WHERE model_id = ?1 AND example_id = ?2",
            params![model_id, example_id],
            raw_example,
        )
        .ctx("get example")?;
    raw.map(parse_example).transpose()
}

fn list_page(
    conn: &mut Db<'_>,
    model_id: &str,
    filter: &ExampleFilter,
    after: Option<&str>,
    limit: usize,
) -> Result<Vec<Example>, StoreError> {
    let (where_sql, mut args) = filter_clause(model_id, filter);
    let mut sql =
        format!("SELECT e.example_id, e.state, e.created_at FROM examples e WHERE {where_sql}");
    if let Some(after) = after {
        sql.push_str(" AND e.example_id > ?");
        args.push(SqlValue::Text(after.to_owned()));
    }
    sql.push_str(" ORDER BY e.example_id LIMIT ?");
    args.push(SqlValue::Integer(i64::try_from(limit).unwrap_or(i64::MAX)));
    let raw = conn
        .query_map(&sql, &dynamic(&args), raw_example)
        .ctx("list examples")?;
    let mut page = raw
        .into_iter()
        .map(parse_example)
        .collect::<Result<Vec<_>, _>>()?;
    annotations::fill(conn, model_id, &mut page)?;
    Ok(page)
}

/// WHERE clause over `examples e` for a filter, with its positional arguments.
/// Each filter shape yields a fixed SQL string, so statements stay cached.
fn filter_clause(model_id: &str, filter: &ExampleFilter) -> (String, Vec<SqlValue>) {
    let mut sql = String::from("e.model_id = ?");
    let mut args = vec![SqlValue::Text(model_id.to_owned())];
    match filter.annotated {
        Some(true) => sql.extend([" AND ", HAS_ANNOTATION, ")"]),
        Some(false) => sql.extend([" AND NOT ", HAS_ANNOTATION, ")"]),
        None => {}
    }
    if let Some(question) = &filter.question {
        sql.extend([" AND ", HAS_ANNOTATION, " AND a.question_id = ?)"]);
        args.push(SqlValue::Text(question.clone()));
    }
    (sql, args)
}

type RawExample = (String, String, crate::wire::time::Recorded);

fn raw_example(r: &Row) -> Result<RawExample, super::sql::DbError> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
}

fn parse_example((example_id, state, created_at): RawExample) -> Result<Example, StoreError> {
    let state = parse_json(&state, || format!("state of example {example_id:?}"))?;
    Ok(Example {
        example_id: example_id.into(),
        state,
        created_at,
        annotations: BTreeMap::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use serde_json::{Value, json};

    use super::super::NewAnnotation;
    use super::super::test_support::{MODEL, decision, file_store};
    use super::*;

    fn ann(q: &str, answer: Value) -> NewAnnotation {
        NewAnnotation {
            question_id: q.into(),
            answer,
            reasoning: None,
            annotator: "ann".into(),
        }
    }

    /// Examples `ex-00000`.. ; every 3rd annotated for "q1", every 5th for "q2".
    fn items(n: usize) -> impl Iterator<Item = Result<IngestItem, StoreError>> {
        (0..n).map(|i| {
            let mut annotations = Vec::new();
            if i % 3 == 0 {
                annotations.push(ann("q1", json!(i)));
            }
            if i % 5 == 0 {
                annotations.push(ann("q2", json!({ "i": i })));
            }
            Ok(IngestItem {
                example_id: format!("ex-{i:05}").into(),
                state: json!({ "i": i }),
                annotations,
            })
        })
    }

    fn all() -> ExampleFilter {
        ExampleFilter::default()
    }

    fn ingest(
        store: &Store,
        it: &mut dyn Iterator<Item = Result<IngestItem, StoreError>>,
        atomic: bool,
    ) -> Result<IngestCounts, StoreError> {
        store.ingest(&MODEL, it, atomic, &mut |_| {})
    }

    #[test]
    fn ingest_counts_batches_and_reingest() {
        let store = store();
        let mut reports = Vec::new();
        let counts = store
            .ingest(&MODEL, &mut items(4_500), false, &mut |c| reports.push(*c))
            .unwrap();
        let annotations = (0..4_500u64).filter(|i| i % 3 == 0).count()
            + (0..4_500u64).filter(|i| i % 5 == 0).count();
        assert_eq!(
            counts,
            IngestCounts {
                created: 4_500,
                existing: 0,
                annotations: annotations as u64
            }
        );
        let created: Vec<_> = reports.iter().map(|c| c.created).collect();
        assert_eq!(created, [2_000, 4_000, 4_500]);
        assert_eq!(reports.last(), Some(&counts));

        // Re-ingest with changed states and answers: no duplicates, state kept, answers replaced.
        let mut changed = (0..4_500).map(|i| {
            Ok(IngestItem {
                example_id: format!("ex-{i:05}").into(),
                state: json!("changed"),
                annotations: vec![ann("q1", json!("new"))],
            })
        });
        let again = ingest(&store, &mut changed, false).unwrap();
        assert_eq!(
            again,
            IngestCounts {
                created: 0,
                existing: 4_500,
                annotations: 4_500
            }
        );
        assert_eq!(store.count_examples(&MODEL, &all()).unwrap(), 4_500);
        let e = store
            .get_example(&MODEL, &"ex-00005".into())
            .unwrap()
            .unwrap()
            .example;
        assert_eq!(e.state, json!({ "i": 5 }));
        assert_eq!(e.annotations["q1"].answer, json!("new"));
        assert_eq!(
            e.annotations["q2"].answer,
            json!({ "i": 5 }),
            "other questions untouched"
        );
    }

    /// The source fails after 2,500 good items.
    fn failing_items() -> impl Iterator<Item = Result<IngestItem, StoreError>> {
        let boom = StoreError::Corrupt {
            what: "input line 2501".into(),
            reason: "bad JSON".into(),
        };
        items(2_500)
            .chain(std::iter::once(Err(boom)))
            .chain(items(10))
    }

    #[test]
    fn atomic_ingest_rolls_back_everything() {
        let store = store();
        let mut called = false;
        let err = store
            .ingest(&MODEL, &mut failing_items(), true, &mut |_| called = true)
            .unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }));
        assert!(!called);
        assert_eq!(store.count_examples(&MODEL, &all()).unwrap(), 0);
        let annotated = ExampleFilter {
            annotated: Some(true),
            question: None,
        };
        assert_eq!(store.count_examples(&MODEL, &annotated).unwrap(), 0);
    }

    #[test]
    fn non_atomic_ingest_keeps_committed_batches() {
        let store = store();
        let mut reports = 0;
        assert!(
            store
                .ingest(&MODEL, &mut failing_items(), false, &mut |_| reports += 1)
                .is_err()
        );
        assert_eq!(reports, 1);
        assert_eq!(store.count_examples(&MODEL, &all()).unwrap(), 2_000);
    }

    // Long: one store walked through each filter and then a whole cursor pagination, each
    // step reading what the one before left.
    #[test]
    fn list_filters_and_cursor_pagination() {
        let store = store();
        ingest(&store, &mut items(250), false).unwrap();
        let q1 = ExampleFilter {
            annotated: None,
            question: Some("q1".into()),
        };
        let annotated = ExampleFilter {
            annotated: Some(true),
            question: None,
        };
        let bare = ExampleFilter {
            annotated: Some(false),
            question: None,
        };
        let both = ExampleFilter {
            annotated: Some(true),
            question: Some("q2".into()),
        };
        let expect = |pred: &dyn Fn(usize) -> bool| {
            (0..250)
                .filter(|&i| pred(i))
                .map(|i| format!("ex-{i:05}"))
                .collect::<Vec<_>>()
        };

        for (filter, want) in [
            (all(), expect(&|_| true)),
            (q1.clone(), expect(&|i| i % 3 == 0)),
            (annotated, expect(&|i| i % 3 == 0 || i % 5 == 0)),
            (bare, expect(&|i| i % 3 != 0 && i % 5 != 0)),
            (both, expect(&|i| i % 5 == 0)),
        ] {
            let mut got = Vec::new();
            let mut after: Option<String> = None;
            loop {
                let page = store
                    .list_examples(&MODEL, &filter, after.as_deref(), 30)
                    .unwrap();
                assert!(page.len() <= 30);
                after = page.last().map(|e| e.example_id.to_string());
                let done = page.len() < 30;
                got.extend(page.into_iter().map(|e| e.example_id.into_string()));
                if done {
                    break;
                }
            }
            assert!(want.len() > 30, "more than one page");
            assert_eq!(got, want, "{filter:?}");
            assert_eq!(
                store.count_examples(&MODEL, &filter).unwrap(),
                want.len() as u64
            );
        }

        let page = store
            .list_examples(&MODEL, &q1, Some("ex-00010"), 2)
            .unwrap();
        assert_eq!(page[0].example_id, "ex-00012");
        assert_eq!(page[0].annotations["q1"].answer, json!(12));
        assert_eq!(page[1].example_id, "ex-00015");
        assert_eq!(
            page[1].annotations.len(),
            2,
            "all annotations, not just the filtered question"
        );
        assert!(
            store
                .list_examples(
                    &crate::ids::ModelId::from(uuid::Uuid::nil()),
                    &all(),
                    None,
                    10
                )
                .unwrap()
                .is_empty()
        );
        assert!(
            store
                .list_examples(&MODEL, &all(), None, 0)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn for_each_streams_all_in_order() {
        let store = store();
        ingest(&store, &mut items(2_500), false).unwrap();
        let mut seen = Vec::new();
        let mut annotated = 0;
        store
            .for_each_example(&MODEL, &all(), &mut |e| {
                annotated += usize::from(!e.annotations.is_empty());
                seen.push(e.example_id);
                Ok(())
            })
            .unwrap();
        assert_eq!(seen.len(), 2_500);
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            annotated,
            (0..2_500).filter(|i| i % 3 == 0 || i % 5 == 0).count()
        );

        // The callback may use the store (no connection held), and its error stops the walk.
        let mem = Store::open_in_memory().unwrap();
        ingest(&mem, &mut items(5), false).unwrap();
        let mut visits = 0;
        let err = mem
            .for_each_example(&MODEL, &all(), &mut |e| {
                visits += 1;
                mem.get_example(&MODEL, &e.example_id.as_str().into())?;
                Err(StoreError::ExampleNotFound("stop".into()))
            })
            .unwrap_err();
        assert_eq!(
            (visits, err),
            (1, StoreError::ExampleNotFound("stop".into()))
        );
    }

    #[test]
    fn corrupt_json_is_reported() {
        let (dir, store) = file_store();
        let state = json!({});
        store
            .record_decision(&decision(&"e1".into(), &state, &state))
            .unwrap();
        let raw = rusqlite::Connection::open(dir.path().join("arbiter.db")).unwrap();
        raw.execute("UPDATE examples SET state = '{not json'", [])
            .unwrap();
        let err = store.get_example(&MODEL, &"e1".into()).unwrap_err();
        assert!(
            matches!(&err, StoreError::Corrupt { what, .. } if what.contains("e1")),
            "{err}"
        );
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(
            ingest_counts_batches_and_reingest,
            atomic_ingest_rolls_back_everything,
            non_atomic_ingest_keeps_committed_batches,
            list_filters_and_cursor_pagination,
            for_each_streams_all_in_order
        );
    }
}

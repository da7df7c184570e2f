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
        sql.extend([" AND ", HAS_ANNOTATION, " AND a.question_id = ?"]);
        args.push(SqlValue::Text(question.clone()));
        if let Some(answer) = &filter.answer {
            sql.push_str(" AND a.answer = ?");
            args.push(SqlValue::Text(answer.to_string()));
        }
        sql.push(')');
    }
    if let Some(text) = &filter.text {
        // LIKE with its wildcards escaped, on both sides lowered: the same on SQLite (whose
        // LIKE ignores ASCII case) and PostgreSQL (whose LIKE does not).
        sql.push_str(r" AND lower(e.state) LIKE ? ESCAPE '\'");
        let escaped = text
            .to_lowercase()
            .replace('\\', r"\\")
            .replace('%', r"\%")
            .replace('_', r"\_");
        args.push(SqlValue::Text(format!("%{escaped}%")));
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
mod tests;

//! Caches that only save time: engine answers (of evaluations and `examples next`) and the
//! built-in engine's embeddings. Losing them costs a recomputation, never a result.

use serde_json::Value;

use super::error::parse_json;
use super::sql::{SqlContext, params};
use super::{Store, StoreError, now};

/// Answers as cached: the answers object and the tokens they cost.
#[derive(Debug, Clone, PartialEq)]
pub struct CachedAnswers {
    pub answers: Value,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Store {
    /// The answers cached under `key`, if any.
    pub fn cached_answers(&self, key: &str) -> Result<Option<CachedAnswers>, StoreError> {
        let mut conn = self.conn()?;
        let row: Option<(String, i64, i64)> = conn
            .db()
            .query_opt(
                "SELECT answers, input_tokens, output_tokens FROM answer_cache WHERE key = ?1",
                params![key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .ctx("read cached answers")?;
        row.map(|(answers, input, output)| {
            Ok(CachedAnswers {
                answers: parse_json(&answers, || format!("cached answers {key}"))?,
                input_tokens: u64::try_from(input).unwrap_or(0),
                output_tokens: u64::try_from(output).unwrap_or(0),
            })
        })
        .transpose()
    }

    /// Cache answers under `key` (the first write wins; the same key means the same answers).
    pub fn cache_answers(&self, key: &str, cached: &CachedAnswers) -> Result<(), StoreError> {
        self.write("cache answers", |tx| {
            tx.execute(
                "INSERT INTO answer_cache (key, answers, input_tokens, output_tokens, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
                params![
                    key,
                    cached.answers.to_string(),
                    i64::try_from(cached.input_tokens).unwrap_or(i64::MAX),
                    i64::try_from(cached.output_tokens).unwrap_or(i64::MAX),
                    now()
                ],
            )
            .ctx("cache answers")?;
            Ok(())
        })
    }

    /// The embedding stored under `key`: its token count and vector.
    pub fn load_embedding(&self, key: &[u8; 32]) -> Result<Option<(u64, Vec<f32>)>, StoreError> {
        let mut conn = self.conn()?;
        let row: Option<(i64, Vec<u8>)> = conn
            .db()
            .query_opt(
                "SELECT tokens, vector FROM embeddings WHERE key = ?1",
                params![&key[..]],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .ctx("read embedding")?;
        Ok(row.and_then(|(tokens, bytes)| {
            // A vector of the wrong length is treated as missing and recomputed.
            (bytes.len() % 4 == 0).then(|| {
                let vector = bytes
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                (u64::try_from(tokens).unwrap_or(0), vector)
            })
        }))
    }

    /// Store embeddings, in one transaction.
    pub fn save_embeddings(&self, entries: &[([u8; 32], u64, &[f32])]) -> Result<(), StoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        self.write("save embeddings", |tx| {
            for (key, tokens, vector) in entries {
                let bytes: Vec<u8> = vector.iter().flat_map(|v| v.to_le_bytes()).collect();
                tx.execute(
                    "INSERT INTO embeddings (key, tokens, vector) VALUES (?1, ?2, ?3)
                     ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, vector = excluded.vector",
                    params![&key[..], i64::try_from(*tokens).unwrap_or(0), bytes],
                )
                .ctx("save embedding")?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_are_cached_once_by_key() {
        let store = store();
        assert_eq!(store.cached_answers("k").unwrap(), None);
        let first = CachedAnswers {
            answers: json!({"q": {"type": "noul", "noul": 0.25}}),
            input_tokens: 12,
            output_tokens: 0,
        };
        store.cache_answers("k", &first).unwrap();
        let other = CachedAnswers {
            answers: json!({}),
            ..first.clone()
        };
        store.cache_answers("k", &other).unwrap();
        assert_eq!(store.cached_answers("k").unwrap(), Some(first));
    }

    #[test]
    fn embeddings_round_trip_exactly() {
        let store = store();
        let key = [7u8; 32];
        assert_eq!(store.load_embedding(&key).unwrap(), None);
        let vector = vec![0.1f32, -2.5, f32::MIN_POSITIVE, 1.0 / 3.0];
        store.save_embeddings(&[(key, 9, &vector)]).unwrap();
        assert_eq!(store.load_embedding(&key).unwrap(), Some((9, vector)));
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(
            answers_are_cached_once_by_key,
            embeddings_round_trip_exactly
        );
    }
}

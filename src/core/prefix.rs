//! An ID given on the command line by a unique prefix, one rule for jobs and examples: at
//! least [`MIN_PREFIX`] characters, and one ID that starts with them. What each kind of ID
//! may look like, and how its candidates are found, is its own module's
//! ([`super::jobs::resolve_id`], [`super::examples::resolve_id`]).

use crate::error::{Error, Result};
use std::fmt::Display;

/// The fewest characters of an ID a prefix may give.
pub const MIN_PREFIX: usize = 4;

/// How many IDs an ambiguous prefix names in its error: ask for this many candidates.
pub const CANDIDATES: usize = 5;

/// `text` as a prefix of a `what` ID (`job`, `example`): refused as too short under
/// [`MIN_PREFIX`] characters (it may well start an ID: "not found" would be wrong).
pub fn long_enough<'a>(what: &str, text: &'a str) -> Result<&'a str> {
    if text.chars().count() < MIN_PREFIX {
        Err(Error::BadRequest(format!(
            "{what} ID prefix `{text}` is too short: give at least {MIN_PREFIX} characters of the ID"
        )))
    } else {
        Ok(text)
    }
}

/// The one of `candidates` whose ID (as printed) starts with `prefix` (others are ignored):
/// `none()` when none does, an error naming them when several do.
pub fn unique<T: Display + PartialEq>(
    what: &str,
    prefix: &str,
    candidates: impl IntoIterator<Item = T>,
    none: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let mut matching: Vec<T> = candidates
        .into_iter()
        .filter(|id| id.to_string().starts_with(prefix))
        .collect();
    matching.dedup();
    if matching.len() > 1 {
        return Err(Error::NotFound(format!(
            "{what} ID prefix `{prefix}` is ambiguous: it starts {}{}; give more of the ID",
            matching
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            if matching.len() >= CANDIDATES {
                " and more"
            } else {
                ""
            }
        )));
    }
    matching.pop().map_or_else(none, Ok)
}

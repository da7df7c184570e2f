//! An ID given on the command line by a unique prefix, one rule for jobs and examples: at
//! least [`MIN_PREFIX`] characters, and one ID that starts with them. What each kind of ID
//! may look like, and how its candidates are found, is its own module's
//! ([`super::jobs::resolve_id`], [`super::examples::resolve_id`]).

use crate::error::{Error, Result};
use std::fmt::Display;

/// The fewest characters of an ID a prefix may give (git's).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_is_counted_in_characters_and_must_start_one_id() {
        // Four bytes, two characters: too short.
        let short = long_enough("example", "éé").unwrap_err().to_string();
        assert!(
            short.contains("example ID prefix `éé` is too short"),
            "{short}"
        );
        assert_eq!(long_enough("example", "éééé").unwrap(), "éééé");
        let none = || Err(Error::NotFound("none".into()));
        let ids = || ["abcd1", "abce2", "abcd3"].map(String::from);
        assert_eq!(unique("example", "abce", ids(), none).unwrap(), "abce2");
        let ambiguous = unique("example", "abcd", ids(), none)
            .unwrap_err()
            .to_string();
        assert!(
            ambiguous.contains("example ID prefix `abcd` is ambiguous: it starts abcd1, abcd3;"),
            "{ambiguous}"
        );
        assert!(unique("example", "abcf", ids(), none).is_err());
    }
}

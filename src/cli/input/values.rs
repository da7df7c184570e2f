//! Value parsers for flags whose values have a range: a value outside it is refused by clap,
//! like a malformed one, so both are usage errors (exit 2), never clamped into range.

use crate::limits::MAX_LISTING;
use clap::builder::RangedU64ValueParser;
use std::ops::RangeBounds;

/// `-n`/`--limit` of every listing command: 1 to [`MAX_LISTING`], the range the server's
/// listing routes take, so a value is refused alike (exit 2) in local and client mode.
pub(crate) fn listing_limit() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::<usize>::new().range(1..=MAX_LISTING as u64)
}

/// A number from 0 to 1.
pub(crate) fn fraction(text: &str) -> Result<f64, String> {
    number_in(text, &(0.0..=1.0), "from 0 to 1")
}

/// A number in `range`, which `within` describes for the message ("from 0 to 1").
/// `NaN` is in no range.
pub(crate) fn number_in(
    text: &str,
    range: &impl RangeBounds<f64>,
    within: &str,
) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if range.contains(&value) => Ok(value),
        Ok(_) => Err(format!("`{text}` is not {within}")),
        Err(_) => Err(format!("`{text}` is not a number ({within})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fraction_is_from_0_to_1_inclusive() {
        assert_eq!(fraction("0"), Ok(0.0));
        assert_eq!(fraction(" 1 "), Ok(1.0));
        for bad in ["1.5", "-0.1", "NaN", "inf", "abc", ""] {
            assert!(fraction(bad).is_err(), "{bad}");
        }
        assert_eq!(fraction("2").unwrap_err(), "`2` is not from 0 to 1");
    }

    #[test]
    fn a_half_open_range_excludes_its_end() {
        assert!(number_in("1", &(0.0..1.0), "below 1").is_err());
        assert_eq!(number_in("0.5", &(0.0..1.0), "below 1"), Ok(0.5));
    }
}

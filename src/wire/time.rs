//! How the contract writes a moment the store recorded: RFC 3339, UTC, to the millisecond
//! (`2026-12-06T08:08:56.123Z`). Written in one place, so that what is stored, what a job
//! reports and what is parsed back agree to the character.

use chrono::{DateTime, SecondsFormat, Utc};

/// `at` as the contract writes it.
#[must_use]
pub fn format(at: &DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A moment written as [`format`] writes it (or any RFC 3339 time), in UTC.
///
/// # Errors
/// When `text` is no RFC 3339 time.
pub fn parse(text: &str) -> Result<DateTime<Utc>, chrono::ParseError> {
    DateTime::parse_from_rfc3339(text).map(|at| at.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_is_written_to_the_millisecond_and_read_back_the_same() {
        let at = parse("2026-12-06T08:08:56.123Z").unwrap();
        assert_eq!(format(&at), "2026-12-06T08:08:56.123Z");
        assert_eq!(
            format(&parse("2026-12-06T09:08:56+01:00").unwrap()),
            "2026-12-06T08:08:56.000Z"
        );
        assert!(parse("yesterday").is_err());
    }
}

//! How the contract writes a moment: RFC 3339 in UTC. A moment the store recorded
//! ([`Recorded`]) is written to the millisecond (`2026-12-06T08:08:56.123Z`); a commit's time
//! ([`Committed`]) to the second, all git keeps (`2026-12-06T08:08:56Z`). Each type carries
//! its precision, so a time is written one way wherever it goes, and a reader gets a time,
//! not text to parse again.

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};

/// A moment in UTC that writes itself to the wire at one precision.
macro_rules! moment {
    ($(#[$doc:meta])* $name:ident, $precision:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub DateTime<Utc>);

        impl $name {
            /// The moment itself.
            #[must_use]
            pub const fn at(self) -> DateTime<Utc> {
                self.0
            }
        }

        impl From<DateTime<Utc>> for $name {
            fn from(at: DateTime<Utc>) -> Self {
                Self(at)
            }
        }

        impl From<$name> for DateTime<Utc> {
            fn from(at: $name) -> Self {
                at.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0.to_rfc3339_opts($precision, true))
            }
        }

        impl std::str::FromStr for $name {
            type Err = chrono::ParseError;

            /// Any RFC 3339 time, in UTC.
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                DateTime::parse_from_rfc3339(text).map(|at| Self(at.with_timezone(&Utc)))
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(|_| {
                    serde::de::Error::invalid_value(
                        serde::de::Unexpected::Str(&text),
                        &"an RFC 3339 time",
                    )
                })
            }
        }
    };
}

moment!(
    /// A moment the store recorded (a job's, an example's, an annotation's, a decision's, a
    /// token's, a claim's): written to the millisecond.
    Recorded,
    SecondsFormat::Millis
);

moment!(
    /// A commit's time (a checkpoint's, a model's creation): git keeps seconds, so it is
    /// written to the second.
    Committed,
    SecondsFormat::Secs
);

impl Recorded {
    /// Now, as the store records it: to the millisecond, so that what is written and what
    /// is read back are the same moment.
    #[must_use]
    pub fn now() -> Self {
        Self(Utc::now().trunc_subsecs(3))
    }

    /// `delta` after this moment (before it, when negative); the last moment a time holds
    /// when that is past it.
    #[must_use]
    pub fn plus(self, delta: chrono::TimeDelta) -> Self {
        Self(
            self.0
                .checked_add_signed(delta)
                .unwrap_or(DateTime::<Utc>::MAX_UTC),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_is_written_to_the_millisecond_and_read_back_the_same() {
        let at: Recorded = "2026-12-06T08:08:56.123Z".parse().unwrap();
        assert_eq!(at.to_string(), "2026-12-06T08:08:56.123Z");
        assert_eq!(
            "2026-12-06T09:08:56+01:00"
                .parse::<Recorded>()
                .unwrap()
                .to_string(),
            "2026-12-06T08:08:56.000Z"
        );
        assert!("yesterday".parse::<Recorded>().is_err());
    }

    #[test]
    fn each_kind_of_moment_writes_its_own_precision_and_reads_any_offset() {
        let recorded: Recorded = serde_json::from_str(r#""2026-12-06T09:08:56.5+01:00""#).unwrap();
        assert_eq!(
            serde_json::to_string(&recorded).unwrap(),
            r#""2026-12-06T08:08:56.500Z""#
        );
        let committed: Committed = serde_json::from_str(r#""2026-12-06T08:08:56Z""#).unwrap();
        assert_eq!(committed.to_string(), "2026-12-06T08:08:56Z");
        assert_eq!(
            recorded.at(),
            committed.at() + chrono::Duration::milliseconds(500)
        );
        let error = serde_json::from_str::<Recorded>(r#""yesterday""#).unwrap_err();
        assert!(error.to_string().contains("an RFC 3339 time"), "{error}");
    }

    #[test]
    fn now_is_what_reads_back() {
        let now = Recorded::now();
        assert_eq!(now.to_string().parse::<Recorded>().unwrap(), now);
    }
}

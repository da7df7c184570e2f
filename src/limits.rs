//! The limits on what arbiter reads, in one place: validation enforces these constants and
//! `docs/src/limits.md` states them. A value past a limit is refused with a located problem
//! naming the limit, never truncated quietly and never left to fail later.

/// Arrays and objects nest at most this deep in any JSON or YAML document arbiter reads (a
/// request body, a JSON Lines line, a file named on the command line, a committed file):
/// `[[1]]` nests 2 deep. Checked in one pass before the document is parsed, so a document
/// nested 100,000 deep costs microseconds, not the seconds a YAML parser spends on it; one
/// below the recursion limit (128) of `serde_json`, so that limit is never what refuses.
pub const MAX_NESTING: usize = 127;

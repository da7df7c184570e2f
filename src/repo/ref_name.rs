//! Which names a branch or tag can have: git's own rules, plus the lengths
//! libgit2 and the filesystem can hold. One place, so that creating, deleting
//! and resolving a ref agree on which names exist at all.

use git2::Reference;

/// libgit2 normalizes a full ref name into a buffer of this many bytes
/// (`GIT_REFNAME_MAX`); a longer name fails every lookup with a git error.
const FULL_NAME_MAX: usize = 1024;

/// A loose ref is a file; one path component longer than this is refused
/// by common filesystems (`NAME_MAX` is 255 bytes), so stay below it.
const COMPONENT_MAX: usize = 200;

/// Why `prefix + name` cannot be a ref, or `None` when it can.
pub(super) fn problem(prefix: &str, name: &str) -> Option<String> {
    let full = format!("{prefix}{name}");
    if full.len() >= FULL_NAME_MAX {
        Some(format!(
            "longer than git can store ({} bytes at most)",
            FULL_NAME_MAX - 1 - prefix.len()
        ))
    } else if name.split('/').any(|c| c.len() > COMPONENT_MAX) {
        Some(format!(
            "a part between slashes is longer than {COMPONENT_MAX} bytes"
        ))
    } else if Reference::is_valid_name(&full) {
        None
    } else {
        Some("not a valid git ref name".to_owned())
    }
}

/// Whether `prefix + name` can be a ref.
pub(super) fn is_valid(prefix: &str, name: &str) -> bool {
    problem(prefix, name).is_none()
}

/// Whether a ref of this full name (`refs/heads/x`) can exist: a lookup of
/// one that cannot is "not there", never a git error from libgit2.
pub(super) fn can_exist(full: &str) -> bool {
    is_valid("", full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_rules_hold() {
        assert!(is_valid("refs/heads/", "main"));
        assert!(is_valid("refs/heads/", "feature/x-1"));
        assert!(!is_valid("refs/heads/", "a..b"));
        assert!(!is_valid("refs/heads/", "trailing/"));
        assert!(!is_valid("refs/tags/", "has space"));
    }

    #[test]
    fn names_past_what_libgit2_can_normalize_are_refused() {
        // 4-byte characters: a few hundred of them pass git's syntax rules
        // but overflow libgit2's 1024-byte buffer on lookup.
        let long = "\u{911d8}".repeat(300);
        assert!(Reference::is_valid_name(&format!("refs/heads/{long}")));
        let why = problem("refs/heads/", &long).unwrap();
        assert!(why.contains("1012 bytes at most"), "{why}");
        let just_fits = format!("{}/bbbbbbb", vec!["a".repeat(200); 5].join("/"));
        assert_eq!(just_fits.len(), 1012);
        assert!(is_valid("refs/heads/", &just_fits));
        assert!(!is_valid("refs/heads/", &format!("{just_fits}c")));
    }

    #[test]
    fn an_over_long_component_is_refused() {
        assert!(is_valid("refs/tags/", &"a".repeat(200)));
        assert!(
            problem("refs/tags/", &"a".repeat(201))
                .unwrap()
                .contains("200 bytes")
        );
    }
}

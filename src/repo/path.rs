//! `ModelPath`: the validated `<owner>/<model>` name of a model, and where
//! its bare repository lives below the repositories root.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::error::RepoError;

/// Longest allowed owner or model name, in bytes (all ASCII).
const MAX_PART_LEN: usize = 64;

/// A validated `<owner>/<model>` path. Ordering is by owner, then model.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModelPath {
    owner: String,
    name: String,
}

impl ModelPath {
    /// Parses `owner/model`. Both parts must match
    /// `[A-Za-z0-9][A-Za-z0-9._-]{0,63}`, must not end with `.git` and must
    /// not contain `..`; these rules keep every path a single, safe
    /// directory level on disk.
    pub fn parse(s: &str) -> Result<Self, RepoError> {
        let invalid = |reason: String| RepoError::InvalidPath {
            path: s.to_owned(),
            reason,
        };
        let mut parts = s.split('/');
        let (Some(owner), Some(name), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(invalid(
                "expected exactly one `/` between owner and model".into(),
            ));
        };
        check_part("owner", owner).map_err(&invalid)?;
        check_part("model name", name).map_err(&invalid)?;
        Ok(ModelPath {
            owner: owner.to_owned(),
            name: name.to_owned(),
        })
    }

    #[must_use]
    pub fn owner(&self) -> &str {
        &self.owner
    }

    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `<root>/<owner>/<model>.git`.
    pub(super) fn git_dir(&self, root: &Path) -> PathBuf {
        root.join(&self.owner).join(format!("{}.git", self.name))
    }
}

/// Checks one path component; the error is the reason only.
fn check_part(what: &str, part: &str) -> Result<(), String> {
    let Some(first) = part.chars().next() else {
        return Err(format!("the {what} is empty"));
    };
    if part.len() > MAX_PART_LEN {
        return Err(format!(
            "the {what} is longer than {MAX_PART_LEN} characters"
        ));
    }
    if !first.is_ascii_alphanumeric() {
        return Err(format!("the {what} must start with a letter or digit"));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if let Some(bad) = part.chars().find(|&c| !allowed(c)) {
        return Err(format!(
            "the {what} contains {bad:?}; only letters, digits, `.`, `_` and `-` are allowed"
        ));
    }
    if part.contains("..") {
        return Err(format!("the {what} must not contain `..`"));
    }
    // A `.git` suffix would make `x` and `x.git` map to confusing directories.
    if part.to_ascii_lowercase().ends_with(".git") {
        return Err(format!("the {what} must not end with `.git`"));
    }
    Ok(())
}

impl fmt::Display for ModelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.owner, self.name)
    }
}

impl FromStr for ModelPath {
    type Err = RepoError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ModelPath::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_good_paths() {
        for good in ["acme/support", "a/b", "A1/x.y_z-0", "0/9", "acme/v1.2"] {
            let p = ModelPath::parse(good).unwrap_or_else(|e| panic!("{good}: {e}"));
            assert_eq!(p.to_string(), good);
        }
        let p = ModelPath::parse("acme/support").unwrap();
        assert_eq!((p.owner(), p.name()), ("acme", "support"));
        let max = format!("{}/{}", "a".repeat(64), "b".repeat(64));
        assert!(ModelPath::parse(&max).is_ok());
    }

    #[test]
    fn rejects_bad_paths() {
        let long = format!("acme/{}", "b".repeat(65));
        let bad = [
            "",
            "/",
            "acme",
            "acme/",
            "/support",
            "a/b/c",
            "acme//x",
            ".acme/x",
            "acme/.x",
            "-acme/x",
            "acme/_x",
            "acme/x.git",
            "acme/x.GIT",
            "x.git/y",
            "acme/a..b",
            "acme/..",
            "../x",
            "acme/x y",
            "acme/ü",
            "acme\\x",
            "acme/x\0",
            "acme/x/",
            long.as_str(),
        ];
        for b in bad {
            match ModelPath::parse(b) {
                Err(RepoError::InvalidPath { path, reason }) => {
                    assert_eq!(path, b);
                    assert!(!reason.is_empty());
                }
                other => panic!("{b:?} should be invalid, got {other:?}"),
            }
        }
    }

    #[test]
    fn git_dir_is_owner_then_model_dot_git() {
        let p: ModelPath = "acme/support".parse().unwrap();
        assert_eq!(
            p.git_dir(Path::new("/r")),
            PathBuf::from("/r/acme/support.git")
        );
    }
}

//! Revision resolution: turning what a user typed (branch, tag, full or
//! abbreviated commit id) into a commit, deliberately without `revparse`
//! so that no git revision expression (`HEAD~1`, `@{-1}`, `:/text`) is
//! ever interpreted.

use std::collections::BTreeSet;

use git2::{Commit, ErrorCode, ObjectType, Oid, Reference};

use super::error::RepoError;
use super::model::ModelRepo;

/// Shortest abbreviated commit id accepted, as in git.
const MIN_SHORT_ID: usize = 4;
/// Length of a full (SHA-1) commit id in hex.
const FULL_ID: usize = 40;

/// What kind of name a revision was resolved through: the wire's type, one definition.
pub use crate::wire::decision::RevisionKind;

/// A revision resolved to a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The revision as the caller wrote it, or the default branch name.
    pub name: String,
    pub kind: RevisionKind,
    /// Full 40-hex commit id.
    pub commit: String,
}

/// Outcome of looking up an abbreviated id among the repository's objects.
enum Prefix {
    Commit(Oid),
    None,
    NotCommit(ObjectType),
    Ambiguous(usize),
}

impl ModelRepo {
    /// Resolves `revision` (None = default branch) by trying, in order: a
    /// branch, a tag (peeled), a full commit id, a unique abbreviated
    /// commit id of at least 4 hex digits.
    ///
    /// With a remote, the mirror is fetched first (at most once a second),
    /// except for a full commit id the mirror already has: a commit never
    /// changes, and one once fetched is never pruned. A full commit id the
    /// mirror lacks is fetched for at once, throttle or not: a job pinned to a
    /// commit made on another replica must find it.
    pub fn resolve(&self, revision: Option<&str>) -> Result<Resolved, RepoError> {
        if let Some(remote) = &self.remote {
            match full_id(revision) {
                Some(oid) if matches!(self.object_kind(oid), Ok(Ok(()))) => {}
                Some(_) => {
                    remote.mark_stale(&self.path);
                    self.refresh();
                }
                None => self.refresh(),
            }
        }
        let (name, kind, oid) = self.resolve_parts(revision)?;
        Ok(Resolved {
            name,
            kind,
            commit: oid.to_string(),
        })
    }

    /// `resolve` for internal callers that want the commit as an `Oid`.
    pub(super) fn resolve_oid(&self, revision: Option<&str>) -> Result<Oid, RepoError> {
        Ok(self.resolve_parts(revision)?.2)
    }

    fn resolve_parts(
        &self,
        revision: Option<&str>,
    ) -> Result<(String, RevisionKind, Oid), RepoError> {
        let Some(rev) = revision else {
            let branch = self.default_branch()?;
            return match self.branch_tip(&branch)? {
                Some(oid) => Ok((branch, RevisionKind::Branch, oid)),
                None => Err(self.not_found(&branch, "the default branch has no commits".into())),
            };
        };
        match self.lookup(rev)? {
            Ok((kind, oid)) => Ok((rev.to_owned(), kind, oid)),
            Err(reason) => Err(self.not_found(rev, reason)),
        }
    }

    pub(super) fn not_found(&self, revision: &str, reason: String) -> RepoError {
        RepoError::RevisionNotFound {
            model: self.path.to_string(),
            revision: revision.to_owned(),
            reason,
        }
    }

    /// The inner `Err` is a user-facing reason; the outer one a git failure.
    fn lookup(&self, rev: &str) -> Result<Result<(RevisionKind, Oid), String>, RepoError> {
        for (prefix, kind) in [
            ("refs/heads/", RevisionKind::Branch),
            ("refs/tags/", RevisionKind::Tag),
        ] {
            if let Some(reference) = self.find_ref(&format!("{prefix}{rev}"))? {
                return Ok(peel(&reference, kind));
            }
        }
        if !rev.bytes().all(|b| b.is_ascii_hexdigit()) || rev.is_empty() {
            return Ok(Err(format!("no branch, tag or commit named `{rev}`")));
        }
        if rev.len() == FULL_ID {
            let oid = Oid::from_str(rev).map_err(self.git_err("parsing a commit id"))?;
            return Ok(self.object_kind(oid)?.map(|()| (RevisionKind::Commit, oid)));
        }
        if !(MIN_SHORT_ID..FULL_ID).contains(&rev.len()) {
            return Ok(Err(format!(
                "no branch or tag named `{rev}`, and a commit id needs {MIN_SHORT_ID} to {FULL_ID} hex digits"
            )));
        }
        Ok(match self.lookup_prefix(rev)? {
            Prefix::Commit(oid) => Ok((RevisionKind::Commit, oid)),
            Prefix::None => Err(format!("no branch, tag or commit named `{rev}`")),
            Prefix::NotCommit(kind) => Err(format!("`{rev}` is a {kind}, not a commit")),
            Prefix::Ambiguous(n) => Err(format!("ambiguous: matches {n} commits")),
        })
    }

    /// `Ok(())` if `oid` names an existing commit; else a reason.
    fn object_kind(&self, oid: Oid) -> Result<Result<(), String>, RepoError> {
        let odb = self
            .repo
            .odb()
            .map_err(self.git_err("opening the object database"))?;
        match odb.read_header(oid) {
            Ok((_, ObjectType::Commit)) => Ok(Ok(())),
            Ok((_, kind)) => Ok(Err(format!("`{oid}` is a {kind}, not a commit"))),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(Err(format!("no commit `{oid}`"))),
            Err(e) => Err(self.git_err("reading an object")(e)),
        }
    }

    /// Finds the commit an abbreviated id names. Only commits count, so a
    /// prefix shared by one commit and some blobs still resolves.
    fn lookup_prefix(&self, prefix: &str) -> Result<Prefix, RepoError> {
        let odb = self
            .repo
            .odb()
            .map_err(self.git_err("opening the object database"))?;
        let short = Oid::from_str(prefix).map_err(self.git_err("parsing a commit id"))?;
        match odb.exists_prefix(short, prefix.len()) {
            Ok(oid) => return self.classify(&odb, &[oid]),
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(Prefix::None),
            Err(e) if e.code() == ErrorCode::Ambiguous => {}
            Err(e) => return Err(self.git_err("looking up a commit id")(e)),
        }
        // Several objects match: scan them all to count just the commits.
        let wanted = prefix.to_ascii_lowercase();
        let mut matches = BTreeSet::new();
        odb.foreach(|oid| {
            if oid.to_string().starts_with(&wanted) {
                matches.insert(*oid);
            }
            true
        })
        .map_err(self.git_err("scanning the object database"))?;
        self.classify(&odb, &matches.into_iter().collect::<Vec<_>>())
    }

    fn classify(&self, odb: &git2::Odb<'_>, oids: &[Oid]) -> Result<Prefix, RepoError> {
        let mut commits = Vec::new();
        let mut other = None;
        for &oid in oids {
            let (_, kind) = odb
                .read_header(oid)
                .map_err(self.git_err("reading an object"))?;
            if kind == ObjectType::Commit {
                commits.push(oid);
            } else {
                other = Some(kind);
            }
        }
        Ok(match (commits.as_slice(), other) {
            ([one], _) => Prefix::Commit(*one),
            ([], Some(kind)) => Prefix::NotCommit(kind),
            ([], None) => Prefix::None,
            (many, _) => Prefix::Ambiguous(many.len()),
        })
    }

    /// The commit with full id `id`. Only full 40-hex ids are accepted:
    /// callers resolve user input first.
    pub(super) fn find_commit(&self, id: &str) -> Result<Commit<'_>, RepoError> {
        let valid = id.len() == FULL_ID && id.bytes().all(|b| b.is_ascii_hexdigit());
        let oid = Oid::from_str(id).ok().filter(|_| valid);
        let Some(oid) = oid else {
            return Err(self.not_found(id, "not a full 40-hex commit id".into()));
        };
        if let Err(reason) = self.object_kind(oid)? {
            return Err(self.not_found(id, reason));
        }
        self.repo
            .find_commit(oid)
            .map_err(self.git_err("reading a commit"))
    }
}

/// `revision` as a full commit id, if it is one.
fn full_id(revision: Option<&str>) -> Option<Oid> {
    let rev =
        revision.filter(|r| r.len() == FULL_ID && r.bytes().all(|b| b.is_ascii_hexdigit()))?;
    Oid::from_str(rev).ok()
}

fn peel(reference: &Reference<'_>, kind: RevisionKind) -> Result<(RevisionKind, Oid), String> {
    let name = String::from_utf8_lossy(reference.shorthand_bytes());
    reference
        .peel_to_commit()
        .map(|c| (kind, c.id()))
        .map_err(|_| format!("`{name}` does not point to a commit"))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::test_support::{setup, sig};
    use super::*;

    fn not_found_reason(model: &ModelRepo, rev: &str) -> String {
        match model.resolve(Some(rev)) {
            Err(RepoError::RevisionNotFound {
                revision, reason, ..
            }) => {
                assert_eq!(revision, rev);
                reason
            }
            other => panic!("{rev:?}: expected RevisionNotFound, got {other:?}"),
        }
    }

    #[test]
    fn default_revision_is_main() {
        let (_dir, _repos, model) = setup();
        let r = model.resolve(None).unwrap();
        assert_eq!((r.name.as_str(), r.kind), ("main", RevisionKind::Branch));
        assert_eq!(r.commit.len(), 40);
    }

    #[test]
    fn resolves_branch_before_tag_and_tags_both_kinds() {
        let (_dir, _repos, model) = setup();
        let root = model.resolve(None).unwrap().commit;
        let second = model
            .commit("main", None, None, Some("q: 2\n"), "two")
            .unwrap();
        model.tag("light", &root).unwrap();
        let target = model
            .repo
            .find_object(Oid::from_str(&root).unwrap(), None)
            .unwrap();
        model
            .repo
            .tag("annotated", &target, &sig(), "an annotated tag", false)
            .unwrap();
        // A tag named like a branch: the branch wins.
        model.tag("main", &root).unwrap();

        let r = model.resolve(Some("main")).unwrap();
        assert_eq!(
            (r.kind, r.commit),
            (RevisionKind::Branch, second.id.clone())
        );
        for tag in ["light", "annotated"] {
            let r = model.resolve(Some(tag)).unwrap();
            assert_eq!((r.name.as_str(), r.kind), (tag, RevisionKind::Tag));
            assert_eq!(r.commit, root);
        }
    }

    #[test]
    fn resolves_full_and_short_ids() {
        let (_dir, _repos, model) = setup();
        let id = model.resolve(None).unwrap().commit;
        for rev in [
            id.as_str(),
            &id[..4],
            &id[..7],
            &id[..39],
            &id.to_uppercase()[..10],
        ] {
            let r = model.resolve(Some(rev)).unwrap();
            assert_eq!(
                (r.name.as_str(), r.kind, r.commit.as_str()),
                (rev, RevisionKind::Commit, id.as_str())
            );
        }
        assert!(not_found_reason(&model, &id[..3]).contains("4 to 40 hex digits"));
        let tree = model.find_commit(&id).unwrap().tree_id().to_string();
        assert!(not_found_reason(&model, &tree).contains("is a tree, not a commit"));
        assert!(not_found_reason(&model, &tree[..8]).contains("is a tree, not a commit"));
        assert!(not_found_reason(&model, &"0".repeat(40)).starts_with("no commit"));
    }

    #[test]
    fn ambiguous_short_id_is_reported_with_its_count() {
        let (_dir, _repos, model) = setup();
        // Commit until two commits share a 4-hex prefix (birthday bound:
        // a few hundred commits); objects of other kinds may share it too.
        let mut seen: HashMap<String, String> = HashMap::new();
        let (first, second) = (0..20_000)
            .find_map(|i| {
                let c = model
                    .commit("main", None, None, Some(&format!("q: {i}\n")), "n")
                    .unwrap();
                let previous = seen.insert(c.id[..4].to_owned(), c.id.clone());
                previous.map(|p| (p, c.id))
            })
            .expect("a 4-hex prefix collision");
        let reason = not_found_reason(&model, &first[..4]);
        assert_eq!(reason, "ambiguous: matches 2 commits");
        // A longer prefix that tells them apart resolves again.
        let n = (0..40)
            .find(|&i| first.as_bytes()[i] != second.as_bytes()[i])
            .unwrap()
            + 1;
        assert_eq!(
            model.resolve(Some(&second[..n.max(4)])).unwrap().commit,
            second
        );
    }

    #[test]
    fn short_id_shared_with_a_blob_still_names_the_commit() {
        let (_dir, _repos, model) = setup();
        let id = model.resolve(None).unwrap().commit;
        // Hash blob contents in memory until one shares the commit's prefix.
        let data = (0..10_000_000)
            .map(|i| format!("blob {i}"))
            .find(|d| {
                Oid::hash_object(ObjectType::Blob, d.as_bytes())
                    .unwrap()
                    .to_string()[..4]
                    == id[..4]
            })
            .unwrap();
        let blob = model.repo.blob(data.as_bytes()).unwrap().to_string();
        assert_eq!(model.resolve(Some(&id[..4])).unwrap().commit, id);
        // Six digits tell the blob apart from the commit (almost surely).
        if blob[..6] != id[..6] {
            assert!(not_found_reason(&model, &blob[..6]).contains("is a blob"));
        }
    }

    #[test]
    fn unknown_and_hostile_revisions_are_not_found() {
        let (_dir, _repos, model) = setup();
        model
            .commit("feature/a", None, None, Some("q: a\n"), "a")
            .unwrap();
        let id = model.resolve(None).unwrap().commit;
        let long_x = "x".repeat(10_000);
        let long_hex = "a".repeat(10_000);
        let long_component = format!("main/{}", "y".repeat(300));
        let hostile = [
            "",
            " ",
            "v9",
            "..",
            ".",
            "/",
            "//",
            "main/",
            "/main",
            "main/x",
            "feature",
            "HEAD",
            "HEAD~1",
            "HEAD^",
            "main~1",
            "main^{tree}",
            "@",
            "@{-1}",
            "main@{0}",
            ":/msg",
            "main..feature/a",
            "main...x",
            "-",
            "--all",
            "*",
            "?",
            "[",
            "\\",
            "main.lock",
            "refs/heads/main",
            "heads/main",
            "\0",
            "main\0",
            "a\nb",
            "ü",
            "💥",
            "\u{202e}main",
            "~",
            "^",
            "abc",
            "abcdefg\0",
            &long_x,
            &long_hex,
            &long_component,
            &format!("{id}0"),
            &format!("{id}~1"),
            &format!("{}g", &id[..6]),
        ];
        for rev in hostile {
            let reason = not_found_reason(&model, rev);
            assert!(!reason.is_empty());
        }
        assert_eq!(
            not_found_reason(&model, "v9"),
            "no branch, tag or commit named `v9`"
        );
    }

    #[test]
    fn find_commit_wants_a_full_id() {
        let (_dir, _repos, model) = setup();
        let id = model.resolve(None).unwrap().commit;
        assert!(model.find_commit(&id).is_ok());
        for bad in [&id[..10], "main", "", &"f".repeat(40)] {
            assert!(matches!(
                model.find_commit(bad),
                Err(RepoError::RevisionNotFound { .. })
            ));
        }
    }
}

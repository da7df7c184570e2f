//! The identifiers of the domain, each its own type: `ModelPath` (`<owner>/<model>`),
//! `ModelId`, `JobId`, `ExampleId`, `TokenId`, and `ModelRef` ("a path or a modelId", what
//! routes and the command line accept).
//!
//! A leaf: nothing else in the crate is used here, so `repo`, `store`, `core` and `wire`
//! can all carry these types. Each one (de)serializes as the same JSON string it always
//! was, prints with `Display` and parses with `FromStr` (usable as a clap value parser).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A string that is not a valid identifier of its kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {kind} {value:?}: {reason}")]
pub struct InvalidId {
    /// What was being parsed: `model path`, `modelId`, `jobId`, `tokenId`.
    pub kind: &'static str,
    /// The text as given.
    pub value: String,
    /// Why it was refused.
    pub reason: String,
}

impl InvalidId {
    fn new(kind: &'static str, value: &str, reason: impl Into<String>) -> Self {
        Self {
            kind,
            value: value.to_owned(),
            reason: reason.into(),
        }
    }
}

/// Longest allowed owner or model name, in bytes (all ASCII).
const MAX_PART_LEN: usize = 64;

/// A validated `<owner>/<model>` path. Ordering is by owner, then model.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ModelPath {
    owner: String,
    name: String,
}

impl ModelPath {
    /// Parses `owner/model`. Both parts must match
    /// `[A-Za-z0-9][A-Za-z0-9._-]{0,63}`, must not end with `.git` and must
    /// not contain `..`; these rules keep every path a single, safe
    /// directory level on disk.
    pub fn parse(s: &str) -> Result<Self, InvalidId> {
        let invalid = |reason: String| InvalidId::new("model path", s, reason);
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

    /// `<root>/<owner>/<model>.git`: where the bare repository lives.
    #[must_use]
    pub fn git_dir(&self, root: &Path) -> PathBuf {
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
    type Err = InvalidId;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ModelPath::parse(s)
    }
}

/// A string in the contract, as it is written.
impl utoipa::PartialSchema for ModelPath {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .examples(["acme/support"])
            .into()
    }
}

impl utoipa::ToSchema for ModelPath {}

impl TryFrom<String> for ModelPath {
    type Error = InvalidId;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        ModelPath::parse(&s)
    }
}

impl From<ModelPath> for String {
    fn from(path: ModelPath) -> Self {
        path.to_string()
    }
}

/// Declares a UUID identifier: serialized as the hyphenated lowercase string.
macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            Serialize, Deserialize, utoipa::ToSchema,
        )]
        #[serde(transparent)]
        pub struct $name(Uuid);

        impl $name {
            #[must_use]
            pub fn as_uuid(&self) -> Uuid {
                self.0
            }
        }

        impl From<Uuid> for $name {
            fn from(id: Uuid) -> Self {
                Self(id)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.hyphenated().fmt(f)
            }
        }
    };
}

uuid_id!(
    /// The `modelId` of a repository model: assigned at creation, never changed.
    ModelId
);

impl FromStr for ModelId {
    type Err = InvalidId;

    /// Any form a UUID may be written in (hyphenated, simple, braced, URN), as ever.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uuid::parse_str(s)
            .map(Self)
            .map_err(|e| InvalidId::new("modelId", s, e.to_string()))
    }
}

uuid_id!(
    /// The `jobId` of a batch, an alignment or an evaluation.
    JobId
);

impl JobId {
    /// A fresh random ID.
    #[must_use]
    pub fn new_v4() -> Self {
        Self(Uuid::new_v4())
    }
}

impl FromStr for JobId {
    type Err = InvalidId;

    /// Only the hyphenated lowercase form that job IDs are handed out in: a job is found
    /// by the exact text of its ID, nothing looser.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let id = Uuid::try_parse(s).map_err(|e| InvalidId::new("jobId", s, e.to_string()))?;
        if id.hyphenated().to_string() != s {
            return Err(InvalidId::new(
                "jobId",
                s,
                "expected the hyphenated lowercase form",
            ));
        }
        Ok(Self(id))
    }
}

/// A job as a person names it: its whole ID, or the start of one, which the jobs there are
/// resolve (`arbiter jobs poll 3f2a9c`, as git takes a commit's prefix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobRef {
    Id(JobId),
    Prefix(String),
}

impl From<&str> for JobRef {
    fn from(text: &str) -> Self {
        text.parse()
            .map_or_else(|_| Self::Prefix(text.to_owned()), Self::Id)
    }
}

impl From<JobId> for JobRef {
    fn from(id: JobId) -> Self {
        Self::Id(id)
    }
}

impl fmt::Display for JobRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Id(id) => id.fmt(f),
            Self::Prefix(text) => f.write_str(text),
        }
    }
}

/// Declares an identifier that is a string on the wire.
macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord,
            Serialize, Deserialize, utoipa::ToSchema,
        )]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            #[must_use]
            pub fn as_str(&self) -> &str {
                &self.0
            }

            #[must_use]
            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

string_id!(
    /// The ID of a stored example: a caller's `example_id` as given, or `ex_` + 32 hex
    /// digits of the state's canonical hash. Any string; its limits are the request's.
    ExampleId
);

impl From<String> for ExampleId {
    fn from(id: String) -> Self {
        Self(id)
    }
}

impl From<&str> for ExampleId {
    fn from(id: &str) -> Self {
        Self(id.to_owned())
    }
}

impl FromStr for ExampleId {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self(s.to_owned()))
    }
}

string_id!(
    /// The public ID of an API token (`arb_<tokenId>_<secret>`): 12 lowercase hex digits.
    TokenId
);

/// Length of a token ID, in hex digits.
const TOKEN_ID_LEN: usize = 12;

impl TokenId {
    /// The ID of no token: all zeros, which `tokens create` never gives (it refuses to
    /// draw it), so a local home's owner, who presents none, is never mistaken for one.
    #[must_use]
    pub fn nobody() -> Self {
        Self("0".repeat(TOKEN_ID_LEN))
    }

    /// A fresh random ID.
    #[must_use]
    pub fn random() -> Self {
        loop {
            let id = Self(Uuid::new_v4().simple().to_string()[..TOKEN_ID_LEN].to_owned());
            if id != Self::nobody() {
                return id;
            }
        }
    }
}

impl FromStr for TokenId {
    type Err = InvalidId;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        if s.len() == TOKEN_ID_LEN && s.chars().all(hex) {
            Ok(Self(s.to_owned()))
        } else {
            Err(InvalidId::new(
                "tokenId",
                s,
                format!("expected {TOKEN_ID_LEN} lowercase hex digits"),
            ))
        }
    }
}

/// A repository model as routes and the command line name it: by path (`owner/model`) or
/// by `modelId`. A path has a `/` and a UUID never does, so the two never collide.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ModelRef {
    Path(ModelPath),
    Id(ModelId),
}

impl FromStr for ModelRef {
    type Err = InvalidId;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.contains('/') {
            ModelPath::parse(s).map(Self::Path)
        } else {
            s.parse().map(Self::Id)
        }
    }
}

impl fmt::Display for ModelRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Path(path) => path.fmt(f),
            Self::Id(id) => id.fmt(f),
        }
    }
}

impl From<ModelPath> for ModelRef {
    fn from(path: ModelPath) -> Self {
        Self::Path(path)
    }
}

impl From<ModelId> for ModelRef {
    fn from(id: ModelId) -> Self {
        Self::Id(id)
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
                Err(InvalidId {
                    kind,
                    value,
                    reason,
                }) => {
                    assert_eq!((kind, value.as_str()), ("model path", b));
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

    #[test]
    fn ids_are_the_same_json_strings_as_before() {
        let text = "0b7f5a4e-3c1d-4b8e-9f2a-6d5c4b3a2910";
        let model: ModelId = text.parse().unwrap();
        let job: JobId = text.parse().unwrap();
        let path: ModelPath = "acme/support".parse().unwrap();
        let example = ExampleId::from("ex_1");
        let token: TokenId = "0123456789ab".parse().unwrap();
        for (json, back) in [
            (serde_json::to_string(&model).unwrap(), text),
            (serde_json::to_string(&job).unwrap(), text),
            (serde_json::to_string(&path).unwrap(), "acme/support"),
            (serde_json::to_string(&example).unwrap(), "ex_1"),
            (serde_json::to_string(&token).unwrap(), "0123456789ab"),
        ] {
            assert_eq!(json, format!("\"{back}\""));
        }
        assert_eq!(
            serde_json::from_str::<ModelPath>("\"acme/support\"").unwrap(),
            path
        );
        assert!(serde_json::from_str::<ModelPath>("\"acme\"").is_err());
        assert_eq!(model.to_string(), text);
    }

    #[test]
    fn job_ids_are_exact_and_model_ids_are_any_uuid_form() {
        let simple = "0b7f5a4e3c1d4b8e9f2a6d5c4b3a2910";
        assert!(simple.parse::<ModelId>().is_ok());
        assert!(simple.parse::<JobId>().is_err());
        assert!(
            "0B7F5A4E-3C1D-4B8E-9F2A-6D5C4B3A2910"
                .parse::<JobId>()
                .is_err()
        );
        assert!("j1".parse::<JobId>().is_err());
        let fresh = JobId::new_v4();
        assert_eq!(fresh.to_string().parse::<JobId>().unwrap(), fresh);
    }

    #[test]
    fn token_ids_are_twelve_lowercase_hex_digits() {
        let fresh = TokenId::random();
        assert_eq!(fresh.as_str().parse::<TokenId>().unwrap(), fresh);
        for bad in ["", "nope", "0123456789AB", "0123456789abc", "../etc/pass"] {
            assert!(bad.parse::<TokenId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_model_ref_is_a_path_when_it_has_a_slash() {
        let id = "0b7f5a4e-3c1d-4b8e-9f2a-6d5c4b3a2910";
        assert!(matches!(id.parse::<ModelRef>(), Ok(ModelRef::Id(_))));
        assert!(matches!(
            "acme/support".parse::<ModelRef>(),
            Ok(ModelRef::Path(_))
        ));
        assert!("acme".parse::<ModelRef>().is_err());
        assert!("acme/x/y".parse::<ModelRef>().is_err());
        assert_eq!(id.parse::<ModelRef>().unwrap().to_string(), id);
    }
}

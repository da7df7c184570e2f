//! `repos:` resolved: the git remote the model repositories are shared through, and the
//! credentials for git remotes (that one, and those `models import`, `push` and `pull`
//! reach), which come from the environment only (never from the URL or the file).

use super::ApiKey;
use super::file::ReposConfig;
use super::{ConfigError, Result};
use crate::wire::validate::{FieldError, Loc, Segment};
use std::path::PathBuf;

/// The environment variable naming the remote; it wins over `repos.remote`.
pub const REMOTE_ENV: &str = "ARBITER_REPOS_REMOTE";

/// `repos:`, resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReposSettings {
    /// None: the repositories live in the home only, as on a single machine.
    pub remote: Option<RemoteSettings>,
    /// What the environment gives to sign in to a git remote: the shared one's (a copy is
    /// in `remote`), and a model's upstream (`models import`, `push`, `pull`).
    pub credentials: GitCredentials,
}

/// A validated remote and the credentials the environment gives for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteSettings {
    /// The base URL without a trailing `/`: `file:///srv/arbiter-repos`,
    /// `ssh://git@host/arbiter`, `https://git.example/arbiter`.
    pub url: String,
    pub credentials: GitCredentials,
}

/// Credentials for git remotes, from the environment only; none set: ssh asks the
/// ssh-agent, and https goes without.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitCredentials {
    /// `ARBITER_REPOS_USERNAME`: the https user, or the ssh user when the URL names none.
    pub username: Option<String>,
    /// `ARBITER_REPOS_PASSWORD`: the https password or token.
    pub password: Option<ApiKey>,
    /// `ARBITER_REPOS_SSH_KEY`: a private key file for ssh; without it, ssh-agent.
    pub ssh_key: Option<PathBuf>,
}

impl RemoteSettings {
    /// For a `file://` remote, the directory holding `<owner>/<model>.git`.
    pub fn local_dir(&self) -> Option<PathBuf> {
        let url = url::Url::parse(&self.url).ok()?;
        (url.scheme() == "file")
            .then(|| url.to_file_path().ok())
            .flatten()
    }
}

/// `written` with the environment: `ARBITER_REPOS_REMOTE` (else `repos.remote`) and the
/// credentials. A bad `repos.remote` is pushed to `errors` (located in the file); a bad
/// environment variable is an error of its own, since it is not in the file.
pub(super) fn resolve(
    written: &ReposConfig,
    env: &dyn Fn(&str) -> Option<String>,
    errors: &mut Vec<FieldError>,
) -> Result<ReposSettings> {
    let set = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let credentials = GitCredentials {
        username: set("ARBITER_REPOS_USERNAME"),
        password: set("ARBITER_REPOS_PASSWORD").map(ApiKey::new),
        ssh_key: set("ARBITER_REPOS_SSH_KEY").map(PathBuf::from),
    };
    let none = || ReposSettings {
        remote: None,
        credentials: credentials.clone(),
    };
    let url = if let Some(text) = set(REMOTE_ENV) {
        remote_url(text.trim())
            .map_err(|msg| ConfigError::Invalid(format!("{REMOTE_ENV}: {msg}")))?
    } else if let Some(text) = &written.remote {
        match remote_url(text.trim()) {
            Ok(url) => url,
            Err(msg) => {
                let loc = Loc(vec![Segment::Key("repos".into())]).key("remote");
                errors.push(FieldError::new(loc, msg, "bad_url"));
                return Ok(none());
            }
        }
    } else {
        return Ok(none());
    };
    Ok(ReposSettings {
        remote: Some(RemoteSettings {
            url,
            credentials: credentials.clone(),
        }),
        credentials,
    })
}

/// A `file://`, `ssh://` or `https://` base URL, returned without a trailing `/`. A
/// password in it is refused (and never echoed): secrets come from the environment.
fn remote_url(text: &str) -> std::result::Result<String, String> {
    let url = url::Url::parse(text).map_err(|e| {
        format!("`{text}` is not a URL ({e}); write ssh://user@host/path, not user@host:path")
    })?;
    if url.password().is_some() {
        return Err(
            "a password in the URL is not read: set ARBITER_REPOS_USERNAME and \
             ARBITER_REPOS_PASSWORD (https) or ARBITER_REPOS_SSH_KEY or an ssh-agent (ssh)"
                .to_owned(),
        );
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!("`{text}` may not have a query or fragment"));
    }
    match url.scheme() {
        "file" => {
            if url
                .host_str()
                .is_some_and(|h| !h.is_empty() && h != "localhost")
            {
                return Err(format!("`{text}`: a file:// URL names no host"));
            }
            if url.to_file_path().is_err() {
                return Err(format!("`{text}` is not an absolute path"));
            }
        }
        "ssh" | "https" => {
            if url.host_str().is_none_or(str::is_empty) {
                return Err(format!("`{text}` has no host"));
            }
        }
        other => {
            return Err(format!(
                "`{text}`: the scheme must be file, ssh or https, not {other}"
            ));
        }
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    fn resolve_in(file: &str, vars: &[(&str, &str)]) -> Result<Settings> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.yaml"), file).unwrap();
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Settings::resolve_with(Some(dir.path().to_owned()), &move |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn no_remote_by_default() {
        assert_eq!(resolve_in("", &[]).unwrap().repos, ReposSettings::default());
        // Credentials serve a model's upstream without a shared remote too.
        let repos = resolve_in("", &[("ARBITER_REPOS_USERNAME", "bot")])
            .unwrap()
            .repos;
        assert_eq!(repos.remote, None);
        assert_eq!(repos.credentials.username.as_deref(), Some("bot"));
    }

    #[test]
    fn the_file_names_a_remote_and_the_environment_wins() {
        let file = "repos:\n  remote: file:///srv/arbiter-repos/\n";
        let remote = resolve_in(file, &[]).unwrap().repos.remote.unwrap();
        assert_eq!(remote.url, "file:///srv/arbiter-repos");
        assert_eq!(
            remote.local_dir(),
            Some(PathBuf::from("/srv/arbiter-repos"))
        );
        let remote = resolve_in(
            file,
            &[
                (REMOTE_ENV, "https://git.example/arbiter"),
                ("ARBITER_REPOS_USERNAME", "bot"),
                ("ARBITER_REPOS_PASSWORD", "s3cret"),
            ],
        )
        .unwrap()
        .repos
        .remote
        .unwrap();
        assert_eq!(remote.url, "https://git.example/arbiter");
        assert_eq!(remote.credentials.username.as_deref(), Some("bot"));
        assert_eq!(
            remote.credentials.password.as_ref().map(ApiKey::expose),
            Some("s3cret")
        );
        assert_eq!(remote.local_dir(), None);
        let remote = resolve_in(
            "",
            &[
                (REMOTE_ENV, "ssh://git@host/arbiter"),
                ("ARBITER_REPOS_SSH_KEY", "/k/id"),
            ],
        )
        .unwrap()
        .repos
        .remote
        .unwrap();
        assert_eq!(remote.credentials.ssh_key, Some(PathBuf::from("/k/id")));
    }

    #[test]
    fn bad_remotes_are_refused_without_echoing_a_password() {
        let err = resolve_in("", &[(REMOTE_ENV, "https://bot:hunter2@git.example/a")])
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("ARBITER_REPOS_REMOTE: a password in the URL is not read"),
            "{err}"
        );
        assert!(!err.contains("hunter2"), "{err}");
        for (bad, says) in [
            ("git@host:arbiter", "write ssh://"),
            ("http://host/a", "must be file, ssh or https"),
            ("file://host/srv", "names no host"),
            ("https://h/a?x=1", "query"),
        ] {
            let err = resolve_in("", &[(REMOTE_ENV, bad)])
                .unwrap_err()
                .to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
        let err = resolve_in("repos:\n  remote: ftp://h/a\n", &[])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("config.yaml: repos.remote: `ftp://h/a`"),
            "{err}"
        );
        let err = resolve_in("repos:\n  remot: file:///a\n", &[])
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `remot`"), "{err}");
    }
}

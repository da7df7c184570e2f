//! A model repository checked out anywhere, run on as if a home held it: an ephemeral home
//! (a temporary directory, removed when dropped) with the checkout staged as its one model
//! and the checkout's labels file ingested. `eval`, `decide` and `batch` take a CI runner's
//! checkout this way, with no home and no server; the user's own home is never written.

use std::path::{Path, PathBuf};

use crate::config::{DatabaseSettings, ReposSettings, Settings};
use crate::core::Context;
use crate::core::models;
use crate::core::requests::local_user;
use crate::core::travel::labels;
use crate::error::Error;
use crate::ids::{ModelPath, ModelRef};
/// What is asked of a checkout: its work tree or a revision, and a baseline.
pub use crate::repo::Wanted;
use crate::repo::{Checkout, RepoError, Staged};
use crate::wire::travel::LABELS_FILE;
use crate::wire::validate::FieldError;

/// Which labels a checkout's run reads.
#[derive(Debug, Clone)]
pub enum Labels {
    /// None: decisions need no labels.
    None,
    /// The checkout's own [`LABELS_FILE`], which must exist.
    Checkout,
    /// A file named by the user.
    File(PathBuf),
}

/// Why a checkout cannot be run on. The first two are the user's to fix in what they
/// named (a usage error); the rest are any operation's errors.
#[derive(Debug)]
pub enum CheckoutError {
    /// The directory is not a model repository's root.
    NotAModel(String),
    /// The labels file is missing or has bad lines (each located: its line and field).
    Labels {
        file: PathBuf,
        reason: String,
        details: Vec<FieldError>,
    },
    Other(Error),
}

impl From<Error> for CheckoutError {
    fn from(error: Error) -> Self {
        Self::Other(error)
    }
}

impl From<RepoError> for CheckoutError {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::NotACheckout { .. } => Self::NotAModel(error.to_string()),
            other => Self::Other(other.into()),
        }
    }
}

/// The ephemeral home and the checkout in it.
pub struct CheckoutHome {
    ctx: Context,
    model: ModelPath,
    staged: Staged,
    /// Removed with `self`.
    _dir: tempfile::TempDir,
}

impl CheckoutHome {
    /// Stages the checkout at `dir` in a new ephemeral home that has `settings`' engines
    /// (the user's `config.yaml`) but none of its data: no shared database, no shared
    /// remote. With `labels`, they are ingested, all or none.
    pub fn open(
        settings: &Settings,
        dir: &Path,
        wanted: Wanted<'_>,
        labels: &Labels,
    ) -> std::result::Result<Self, CheckoutError> {
        let checkout = Checkout::open(dir)?;
        let labels_file = match labels {
            Labels::None => None,
            Labels::Checkout => Some(dir.join(LABELS_FILE)),
            Labels::File(file) => Some(file.clone()),
        };
        let temp = tempfile::Builder::new()
            .prefix("arbiter-checkout-")
            .tempdir()
            .map_err(|e| Error::internal("creating a temporary home for the checkout", e))?;
        let settings = Settings {
            home: temp.path().to_path_buf(),
            repos: ReposSettings::default(),
            database: DatabaseSettings::default(),
            ..settings.clone()
        };
        let model = model_path(dir);
        let staged = checkout.stage(&settings.repos_dir(), &model, wanted)?;
        let ctx = Context::new(settings)?;
        if let Some(file) = labels_file {
            ingest_labels(&ctx, &model, &file)?;
        }
        Ok(Self {
            ctx,
            model,
            staged,
            _dir: temp,
        })
    }

    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// The name the checkout has in the ephemeral home.
    pub fn model(&self) -> &ModelPath {
        &self.model
    }

    /// The revisions to ask for, and what is evaluated.
    pub fn staged(&self) -> &Staged {
        &self.staged
    }
}

/// `checkout/<directory name>`, the name made valid (`model` when nothing of it is).
fn model_path(dir: &Path) -> ModelPath {
    let base = std::fs::canonicalize(dir)
        .ok()
        .and_then(|dir| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let name: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    ModelPath::parse(&format!("checkout/{}", name.trim_matches('-')))
        .or_else(|_| ModelPath::parse("checkout/model"))
        .expect("a valid model path")
}

/// Every line of `file` into the ephemeral store, or none when one is bad.
fn ingest_labels(
    ctx: &Context,
    model: &ModelPath,
    file: &Path,
) -> std::result::Result<(), CheckoutError> {
    let labels_error = |reason: String, details: Vec<FieldError>| CheckoutError::Labels {
        file: file.to_path_buf(),
        reason,
        details,
    };
    let text = std::fs::read_to_string(file).map_err(|e| {
        let reason = if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "no such file (a model repository keeps its annotated examples in \
                 {LABELS_FILE}: write it with `arbiter examples export MODEL --annotated \
                 --output {LABELS_FILE}`, or name a file with --labels)"
            )
        } else {
            e.to_string()
        };
        labels_error(reason, Vec::new())
    })?;
    let loaded = models::load(ctx, &ModelRef::Path(model.clone()), None)?;
    let name = file.display().to_string();
    let items = match labels::items(&text, &name, &loaded.questions, &local_user()) {
        Ok(items) => items,
        Err(Error::Validation(details)) => {
            let count = details.len();
            let reason = format!(
                "{count} bad line{}; nothing was read",
                if count == 1 { "" } else { "s" }
            );
            return Err(labels_error(reason, details));
        }
        Err(other) => return Err(other.into()),
    };
    ctx.store()?
        .ingest_new(&loaded.model_id, &items)
        .map_err(Error::from)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::model_path;
    use std::path::Path;

    #[test]
    fn a_checkout_is_named_after_its_directory_made_valid() {
        let dir = tempfile::tempdir().unwrap();
        for (name, path) in [
            ("support", "checkout/support"),
            ("My Model (v2)", "checkout/My-Model--v2"),
            ("_", "checkout/model"),
        ] {
            let sub = dir.path().join(name);
            std::fs::create_dir_all(&sub).unwrap();
            assert_eq!(model_path(&sub).to_string(), path, "{name}");
        }
        assert_eq!(model_path(Path::new("/")).to_string(), "checkout/model");
    }
}

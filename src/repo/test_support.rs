//! Shared fixtures for this module's unit tests.

use git2::{Signature, Time};
use tempfile::TempDir;

use super::checkpoint::Files;
use super::model::ModelRepo;
use super::repos::Repos;
use crate::ids::ModelPath;

pub(super) fn files(model_yaml: &str, questions_yaml: &str) -> Files {
    Files {
        model_yaml: model_yaml.to_owned(),
        questions_yaml: questions_yaml.to_owned(),
        aligned: Vec::new(),
    }
}

/// A fresh root with model `acme/support` holding one commit ("initial").
/// Keep the `TempDir` alive for as long as the repositories are used.
pub(super) fn setup() -> (TempDir, Repos, ModelRepo) {
    let dir = TempDir::new().expect("temp dir");
    let repos = Repos::new(dir.path().join("repos"));
    let path = ModelPath::parse("acme/support").expect("valid path");
    let model = repos
        .create(&path, &files("model: 1\n", "questions: 1\n"), "initial")
        .expect("create model");
    (dir, repos, model)
}

/// A fixed signature for objects tests write directly through git2.
pub(super) fn sig() -> Signature<'static> {
    Signature::new("test", "test@localhost", &Time::new(1_700_000_000, 0)).expect("signature")
}

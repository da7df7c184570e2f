//! For tests of `core` and what is built on it: a home with a model in it.

use super::Context;
use super::model_files::CapturePolicy;
use super::models::{CreateModel, create};
use crate::wire::models::ModelDetail;

/// The one question of [`home_with_model`]'s model.
pub(crate) const QUESTIONS: &str =
    "refund:\n  type: noul\n  instructions: The customer asks for a refund.\n";

/// A context on the home at `path`, as a process started with `--home path` has.
pub(crate) fn context_at(path: &std::path::Path) -> Context {
    Context::new(crate::config::Settings::resolve(Some(path.to_owned())).unwrap()).unwrap()
}

/// A new, empty home (kept while the directory lives) and a context on it.
pub(crate) fn home() -> (tempfile::TempDir, Context) {
    let home = tempfile::tempdir().unwrap();
    let ctx = context_at(home.path());
    (home, ctx)
}

/// A new home (kept while the directory lives) with the model `acme/support` on `mo`: one
/// noul question, `refund` ([`QUESTIONS`]), capturing as `capture` says.
pub(crate) fn home_with_model(capture: CapturePolicy) -> (tempfile::TempDir, Context, ModelDetail) {
    let (home, ctx) = home();
    let model = create(
        &ctx,
        &CreateModel {
            path: "acme/support".parse().unwrap(),
            base: "mo".into(),
            questions_yaml: Some(QUESTIONS.into()),
            gates_yaml: None,
            capture,
            message: None,
        },
    )
    .unwrap();
    (home, ctx, model)
}

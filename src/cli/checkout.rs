//! A model argument that names a directory: a model repository's checkout (a clone, a CI
//! runner's checkout, its work tree), run on in an ephemeral home
//! ([`crate::core::checkout_home`]) instead of `ARBITER_HOME` or a server. What `eval`,
//! `decide` and `batch` do on it is what they do on a home's model.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use super::GlobalArgs;
use super::commands::batch::{self, BatchArgs};
use super::commands::decide::{self, DecideArgs};
use super::commands::eval::{self, EvalArgs};
use super::commands::jobs;
use super::output::{Printer, UsageError};
use crate::config::Settings;
use crate::core::checkout_home::{CheckoutError, CheckoutHome, Labels, Wanted};
use crate::core::service::Local;
use crate::error::Error;
use crate::wire::validate::{FieldError, Loc, Segment};

/// Whether the model argument `arg` names a checkout rather than a model: it is written as
/// a path (`.`, `..`, or starting with `./`, `../` or `/`), or it is a directory holding
/// `model.yaml`.
pub(crate) fn names_checkout(arg: &str) -> bool {
    matches!(arg, "." | "..")
        || ["./", "../", "/"].iter().any(|p| arg.starts_with(p))
        || Path::new(arg).join("model.yaml").is_file()
}

/// The checkout at `dir` in its ephemeral home, and the service that runs on it: jobs run
/// in this process (a background worker would outlive the home).
pub(crate) fn open(
    global: &GlobalArgs,
    dir: &str,
    wanted: Wanted<'_>,
    labels: &Labels,
    printer: &Printer,
) -> anyhow::Result<(CheckoutHome, Local)> {
    if let Some(server) = global.server() {
        return Err(UsageError::new(format!(
            "{dir} is a model repository's checkout, run here, not on a server (--server \
             {server}): drop --server, or unset ARBITER_SERVER"
        ))
        .into());
    }
    let settings = Settings::resolve(global.home())?;
    let home =
        CheckoutHome::open(&settings, Path::new(dir), wanted, labels).map_err(checkout_error)?;
    printer.status(&format!("{dir}: {}", home.staged().described));
    let local = Local::new(home.context().clone(), Arc::new(in_process_worker));
    Ok((home, local))
}

/// `eval` on the checkout `args.model`: its labels file (or `--labels`), its work tree (or
/// `--revision`), compared with `--baseline`, all read as git reads them in the checkout.
pub(crate) async fn eval(
    global: &GlobalArgs,
    mut args: EvalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let labels = args.labels.take().map_or(Labels::Checkout, Labels::File);
    let wanted = Wanted {
        revision: args.revision.as_deref(),
        baseline: args.baseline.as_deref(),
    };
    let (home, local) = open(global, &args.model, wanted, &labels, printer)?;
    args.model = home.model().to_string();
    args.revision.clone_from(&home.staged().revision);
    args.baseline.clone_from(&home.staged().baseline);
    finished(&home, eval::run(&local, args, printer).await).await
}

/// `decide` on the checkout `dir` (its work tree, or `--revision`).
pub(crate) async fn decide(
    global: &GlobalArgs,
    dir: &str,
    mut args: DecideArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let wanted = Wanted {
        revision: args.revision.as_deref(),
        baseline: None,
    };
    let (home, local) = open(global, dir, wanted, &Labels::None, printer)?;
    args.model = Some(home.model().to_string());
    args.revision.clone_from(&home.staged().revision);
    finished(&home, decide::run(&local, args, printer).await).await
}

/// `batch` on the checkout `args.model` (its work tree, or `--revision`); `--examples`
/// reads its labels file.
pub(crate) async fn batch(
    global: &GlobalArgs,
    mut args: BatchArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    if args.detach {
        return Err(UsageError::new(format!(
            "--detach: a job on {} (a checkout) runs in this process, in a home that is              gone when it ends; run it without --detach",
            args.model
        ))
        .into());
    }
    let wanted = Wanted {
        revision: args.revision.as_deref(),
        baseline: None,
    };
    // `--examples annotated` runs over the checkout's labels file.
    let labels = if args.examples.is_some() {
        Labels::Checkout
    } else {
        Labels::None
    };
    let (home, local) = open(global, &args.model, wanted, &labels, printer)?;
    args.model = home.model().to_string();
    args.revision.clone_from(&home.staged().revision);
    finished(&home, batch::run(&local, args, printer).await).await
}

/// What a command on the checkout came to, once what it started in the background has
/// ended: its home is removed next.
async fn finished(
    home: &CheckoutHome,
    outcome: anyhow::Result<ExitCode>,
) -> anyhow::Result<ExitCode> {
    home.context().background().wait().await;
    outcome
}

/// Runs a job on a task of this process's runtime.
fn in_process_worker(
    ctx: &crate::core::Context,
    job_id: &crate::ids::JobId,
) -> crate::error::Result<()> {
    let handle = tokio::runtime::Handle::try_current()
        .map_err(|e| Error::internal("running a job in this process", e))?;
    let (ctx, job_id) = (ctx.clone(), job_id.to_string());
    handle.spawn(async move {
        if let Err(error) = jobs::worker(&ctx, &job_id).await {
            tracing::error!(job = job_id, error = %format!("{error:#}"), "the job failed");
        }
    });
    Ok(())
}

/// What the user must fix in what they named is a usage error (exit 2), each bad line of a
/// labels file with its number and field path.
fn checkout_error(error: CheckoutError) -> anyhow::Error {
    match error {
        CheckoutError::NotAModel(message) => {
            let at = FieldError::new(
                Loc(vec![Segment::Key("model".into())]),
                &message,
                "not_a_model",
            );
            UsageError::located(message, vec![at]).into()
        }
        // Each bad line located at `<file>:<line>`, its reason naming the field.
        CheckoutError::Labels {
            file,
            reason,
            mut details,
        } => {
            let name = file.display().to_string();
            if details.is_empty() {
                let loc = Loc(vec![Segment::Key(name.clone())]);
                details.push(FieldError::new(loc, &reason, "unreadable_file"));
            }
            UsageError::located(format!("{name}: {reason}"), details).into()
        }
        CheckoutError::Other(error) => error.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::names_checkout;

    #[test]
    fn a_model_argument_written_as_a_path_names_a_checkout() {
        for path in [".", "..", "./support", "../models/support", "/srv/support"] {
            assert!(names_checkout(path), "{path}");
        }
        for model in ["acme/support", "mo", "jev-latest", "acme/.support"] {
            assert!(!names_checkout(model), "{model}");
        }
    }
}

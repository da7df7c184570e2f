//! `arbiter models import`, `models push` and `models pull`: a model between this home and
//! a git repository elsewhere, with its labels (`examples/annotated.jsonl`).

use crate::cli::commands::models::short;
use crate::cli::output::table::{Column, Table};
use crate::cli::output::{Printer, UsageError};
use crate::core::service::local_user;
use crate::core::travel::{self, ImportRequest};
use crate::core::{self, Context};
use crate::error::Error;
use crate::ids::ModelPath;
use crate::wire::examples::check_annotator;
use crate::wire::travel::{RefKind, Travelled};
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "The repository's default branch must hold a model (model.yaml and questions.yaml); its examples/annotated.jsonl, when it has one, is ingested (examples export --annotated writes it). A bad file imports nothing.\n\nExamples:\n  arbiter models import file:///srv/git/acme/support.git\n  arbiter models import ../support-model --as acme/support\n  arbiter models import https://git.example/acme/support.git"
)]
pub struct ModelsImportArgs {
    /// The git repository holding the model: a URL (file://, ssh://, https://) or a path to a bare repository or a clone; remembered as its upstream (models push, models pull)
    pub source: String,
    /// The model's path here, <owner>/<model> [default: the source's last two components, .git dropped]
    #[arg(long = "as", value_name = "OWNER/MODEL", value_parser = model_path)]
    pub as_path: Option<ModelPath>,
    #[command(flatten)]
    pub annotator: LabelsAnnotator,
}

/// Whose the labels file's annotations are when a line names no annotator.
#[derive(Debug, Clone, Args)]
pub struct LabelsAnnotator {
    /// Whose the labels file's annotations that name no annotator are [default: $USER or $USERNAME, else local]
    #[arg(long, value_name = "NAME", value_parser = annotator)]
    pub annotator: Option<String>,
}

impl LabelsAnnotator {
    fn resolve(self) -> String {
        self.annotator.unwrap_or_else(local_user)
    }
}

fn annotator(name: &str) -> std::result::Result<String, String> {
    check_annotator(name).map(|()| name.to_owned())
}

#[derive(Debug, Args)]
#[command(
    after_help = "The repository must exist (git init --bare makes an empty one). Branches and tags only it has stay.\n\nExamples:\n  arbiter models push acme/support file:///srv/git/acme/support.git\n  arbiter models push acme/support"
)]
pub struct ModelsPushArgs {
    /// The model path, <owner>/<model>, or its modelId
    pub model: String,
    /// The git repository to push to (a URL or a path) [default: the model's upstream]; remembered when the model has none
    pub url: Option<String>,
    /// Replace what the repository has where a push would lose its commits (a branch ours does not descend from, a tag elsewhere)
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "A branch that has diverged (each side with commits of its own) is refused, and nothing moves; a branch this home is ahead on stays. Then the default branch's examples/annotated.jsonl is ingested: only examples and annotations not here yet.\n\nExamples:\n  arbiter models pull acme/support\n  arbiter models pull acme/support file:///srv/git/acme/support.git"
)]
pub struct ModelsPullArgs {
    /// The model path, <owner>/<model>, or its modelId
    pub model: String,
    /// The git repository to pull from (a URL or a path) [default: the model's upstream]; remembered when the model has none
    pub url: Option<String>,
    #[command(flatten)]
    pub annotator: LabelsAnnotator,
}

fn model_path(text: &str) -> std::result::Result<ModelPath, String> {
    ModelPath::parse(text).map_err(|e| e.reason)
}

/// `models import`: a repository that holds no model, or a name that cannot be derived,
/// is a usage error (exit 2), located.
pub(super) fn import(ctx: &Context, args: ModelsImportArgs, printer: &Printer) -> Result<ExitCode> {
    let Some(path) = args.as_path.or_else(|| travel::derived_path(&args.source)) else {
        return Err(UsageError::new(format!(
            "cannot name the model from `{}`: its last two components are no <owner>/<model>; \
             name it with --as OWNER/MODEL",
            args.source
        ))
        .into());
    };
    let request = ImportRequest {
        source: args.source.clone(),
        path,
        annotator: args.annotator.resolve(),
    };
    let travelled = match travel::import(ctx, &request) {
        Ok(travelled) => travelled,
        Err(Error::InvalidCheckpoint { detail, details }) => {
            return Err(UsageError::located(
                format!("{} holds no model to import: {detail}", args.source),
                details,
            )
            .into());
        }
        Err(error @ Error::Validation(_)) => {
            let context = format!("{}: nothing imported", args.source);
            return Err(anyhow::Error::from(error).context(context));
        }
        Err(other) => return Err(other.into()),
    };
    printer.status(&format!(
        "imported {} ({}) from {}",
        travelled.model, travelled.model_id, travelled.url
    ));
    print(&travelled, printer)
}

pub(super) fn push(ctx: &Context, args: &ModelsPushArgs, printer: &Printer) -> Result<ExitCode> {
    let model = core::models::named_here(ctx, &args.model)?;
    let travelled = travel::push(ctx, &model, args.url.as_deref(), args.force)?;
    printer.status(&format!("pushed {} to {}", travelled.model, travelled.url));
    print(&travelled, printer)
}

pub(super) fn pull(ctx: &Context, args: ModelsPullArgs, printer: &Printer) -> Result<ExitCode> {
    let model = core::models::named_here(ctx, &args.model)?;
    let annotator = args.annotator.resolve();
    let travelled = match travel::pull(ctx, &model, args.url.as_deref(), &annotator) {
        Ok(travelled) => travelled,
        Err(error @ Error::Validation(_)) => {
            let context = format!("pulling {}: nothing moved", args.model);
            return Err(anyhow::Error::from(error).context(context));
        }
        Err(other) => return Err(other.into()),
    };
    printer.status(&format!(
        "pulled {} from {}",
        travelled.model, travelled.url
    ));
    print(&travelled, printer)
}

/// What moved (ref, from, to) as a table, and what the labels file added; JSON whole.
fn print(travelled: &Travelled, printer: &Printer) -> Result<ExitCode> {
    if printer.wants_json() {
        printer.json(travelled)?;
        return Ok(ExitCode::SUCCESS);
    }
    if travelled.moved.is_empty() {
        printer.line("no branch or tag moved: both sides are level")?;
    } else {
        let mut table = Table::new(vec![
            Column::whole("Ref").always(),
            Column::whole("From").always(),
            Column::whole("To").always(),
        ]);
        for moved in &travelled.moved {
            let name = match moved.kind {
                RefKind::Branch => format!("branch {}", moved.name),
                RefKind::Tag => format!("tag {}", moved.name),
                RefKind::ModelId => "model id".to_owned(),
            };
            table.row(vec![
                name,
                moved.old.as_deref().map_or("-", short).to_owned(),
                short(&moved.new).to_owned(),
            ]);
        }
        printer.table(&table)?;
    }
    if let Some(labels) = &travelled.labels {
        printer.line(&format!(
            "labels ({}): {} new and {} existing examples, {} annotations added",
            crate::wire::travel::LABELS_FILE,
            labels.created,
            labels.existing,
            labels.annotations
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

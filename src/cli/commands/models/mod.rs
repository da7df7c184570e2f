//! `arbiter models`: list models; create, show, commit, tag, log and promote repository models;
//! import, push and pull them (`travel.rs`).

mod registry;
mod travel;

use crate::cli::Target;
use crate::cli::input::read_text;
use crate::cli::input::values;
use crate::cli::output::table::{Column, Table};
use crate::cli::output::{Printer, UsageError};
use crate::core::model_files::CapturePolicy;
use crate::core::models::{CommitRequest, CreateModel};
use crate::core::service::{LogQuery, Service, local_user};
use crate::core::{self, Context};
use crate::ids::ModelPath;
use crate::wire::decision::Checkpoint;
use anyhow::Result;
use clap::{Args, Subcommand};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter models\n  arbiter models create acme/support --base jev-latest --questions questions.yaml\n  arbiter models promote acme/support v2"
)]
pub struct ModelsArgs {
    #[command(subcommand)]
    pub command: Option<ModelsCommand>,
}

#[derive(Debug, Subcommand)]
pub enum ModelsCommand {
    /// List base models and repository models (the default)
    List,
    /// Create a repository model <owner>/<model>
    Create(ModelsCreateArgs),
    /// Show a repository model: branches, tags, capture policy, question IDs
    Show(ModelsShowArgs),
    /// Commit a new checkpoint (new questions, model.yaml or gates.yaml) on a branch
    Commit(ModelsCommitArgs),
    /// Tag a revision
    Tag(ModelsTagArgs),
    /// List the checkpoints of a revision, newest first
    Log(ModelsLogArgs),
    /// Fast-forward the default branch to a revision
    Promote(ModelsPromoteArgs),
    /// What changed between two revisions: model.yaml, questions, learned files
    Diff(ModelsDiffArgs),
    /// Promotions and tag moves: who, when, from and to, on what evaluation
    History(ModelsHistoryArgs),
    /// Delete a branch (never the default branch), e.g. an alignment's not promoted
    DeleteBranch(ModelsDeleteBranchArgs),
    /// Delete a repository model: its repository, examples, decisions, annotations, jobs and history
    Delete(ModelsDeleteArgs),
    /// Bring a model in from a git repository (a URL or a path), with its labels
    Import(travel::ModelsImportArgs),
    /// Push a model's branches and tags to a git repository (its upstream by default)
    Push(travel::ModelsPushArgs),
    /// Fast-forward a model from a git repository (its upstream by default) and ingest its labels
    Pull(travel::ModelsPullArgs),
}

#[derive(Debug, Args)]
pub struct ModelsCreateArgs {
    /// The model path, <owner>/<model>
    pub path: String,
    /// The root model: a base model name
    #[arg(long, default_value = "jev-latest")]
    pub base: String,
    /// Saved questions: a YAML or JSON file of question ID -> question
    #[arg(long, short, value_name = "FILE")]
    pub questions: Option<PathBuf>,
    /// A gates.yaml to commit with the model: each question's gates, read by `arbiter eval` (see its --gates); checked against the questions
    #[arg(long, value_name = "FILE")]
    pub gates: Option<PathBuf>,
    /// Record decisions as examples (capture.enabled in model.yaml)
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub capture: bool,
    /// Share of examples recorded, 0 to 1 (deterministic per example)
    #[arg(long, default_value_t = 1.0, value_name = "RATE", value_parser = values::fraction)]
    pub sample_rate: f64,
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// Delete unannotated examples this many days after they were recorded (capture.retain_days) [default: kept]
    #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(1..=36_500))]
    pub retain_days: Option<u32>,
    /// The first checkpoint's message
    #[arg(long, short)]
    pub message: Option<String>,
}

#[derive(Debug, Args)]
pub struct ModelsShowArgs {
    /// The model path, <owner>/<model>, or its modelId
    pub model: String,
}

#[derive(Debug, Args)]
pub struct ModelsCommitArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// New questions.yaml (YAML or JSON; - for stdin)
    #[arg(
        long,
        short,
        value_name = "FILE",
        required_unless_present_any = ["model_file", "gates"]
    )]
    pub questions: Option<PathBuf>,
    /// New model.yaml
    #[arg(long = "model-file", value_name = "FILE")]
    pub model_file: Option<PathBuf>,
    /// New gates.yaml: each question's gates, read by `arbiter eval` at this checkpoint (see its --gates); checked against the questions
    #[arg(long, value_name = "FILE")]
    pub gates: Option<PathBuf>,
    /// The branch to commit on [default: the default branch]; created if new
    #[arg(long, short)]
    pub branch: Option<String>,
    /// Where a new branch starts [default: the default branch]
    #[arg(long, value_name = "REV")]
    pub from: Option<String>,
    /// The checkpoint message
    #[arg(long, short)]
    pub message: String,
}

#[derive(Debug, Args)]
pub struct ModelsTagArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// The tag name
    pub name: String,
    /// The revision to tag [default: the default branch]
    #[arg(long, short, value_name = "REV")]
    pub revision: Option<String>,
    /// Move the tag if it exists (as `git tag -f`); the move is recorded in the history
    #[arg(long, short)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ModelsLogArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// Branch, tag or commit [default: the default branch]
    #[arg(long, short, value_name = "REV")]
    pub revision: Option<String>,
    /// At most this many checkpoints (1 to 1000)
    #[arg(long, short = 'n', default_value_t = 50,
          value_parser = values::listing_limit())]
    pub limit: usize,
}

#[derive(Debug, Args)]
pub struct ModelsPromoteArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// The revision to move the default branch to (must be a fast-forward)
    pub revision: String,
    /// The evaluation job this promotion relies on, recorded in the history [default: the
    /// latest completed evaluation of the revision's commit]
    #[arg(long, value_name = "JOB")]
    pub evaluation: Option<String>,
}

#[derive(Debug, Args)]
pub struct ModelsDiffArgs {
    /// The model path, <owner>/<model>, or its modelId
    pub model: String,
    /// The revision to compare from (branch, tag or commit)
    pub from: String,
    /// The revision to compare to
    pub to: String,
    /// Also evaluate both on the same annotated examples (`to` against the baseline `from`)
    #[arg(long)]
    pub eval: bool,
    /// With --eval: cancel the evaluation on Ctrl-C without asking
    #[arg(long, requires = "eval")]
    pub cancel_on_interrupt: bool,
}

#[derive(Debug, Args)]
pub struct ModelsHistoryArgs {
    /// The model path, <owner>/<model>, or its modelId
    pub model: String,
    /// At most this many events (1 to 1000)
    #[arg(long, short = 'n', default_value_t = 50,
          value_parser = values::listing_limit())]
    pub limit: usize,
}

/// `list`, `show`, `log`, `promote`, `diff`, `history` and `delete-branch` run wherever the
/// service is; `create`, `commit`, `tag`, `delete`, `import`, `push` and `pull` have no HTTP
/// route and run only on a local home.
pub(crate) async fn run(target: &Target, args: ModelsArgs, printer: &Printer) -> Result<ExitCode> {
    let service = target.service();
    match args.command.unwrap_or(ModelsCommand::List) {
        ModelsCommand::List => list(service, printer).await,
        ModelsCommand::Create(args) => create(target.local("models create")?, args, printer),
        ModelsCommand::Show(args) => show(service, &args, printer).await,
        ModelsCommand::Commit(args) => commit(target.local("models commit")?, args, printer),
        ModelsCommand::Tag(args) => tag(target.local("models tag")?, &args, printer),
        ModelsCommand::Log(args) => log(service, &args, printer).await,
        ModelsCommand::Promote(args) => promote(service, &args, printer).await,
        ModelsCommand::Diff(args) => registry::diff(service, &args, printer).await,
        ModelsCommand::History(args) => registry::history(service, &args, printer).await,
        ModelsCommand::DeleteBranch(args) => delete_branch(service, &args, printer).await,
        ModelsCommand::Delete(args) => delete(target.local("models delete")?, &args, printer),
        ModelsCommand::Import(args) => {
            travel::import(target.local("models import")?, args, printer)
        }
        ModelsCommand::Push(args) => travel::push(target.local("models push")?, &args, printer),
        ModelsCommand::Pull(args) => travel::pull(target.local("models pull")?, args, printer),
    }
}

async fn list(service: &dyn Service, printer: &Printer) -> Result<ExitCode> {
    let list = service.list_models().await?;
    if printer.wants_json() {
        printer.json(&list)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(vec![
        Column::whole("Model").always(),
        Column::whole("Kind").priority(4),
        Column::text("Engine / Base").priority(3),
        Column::whole("Model ID").priority(1),
        Column::whole("Default Branch").priority(2),
        Column::whole("Latest Checkpoint").priority(3),
    ]);
    for model in &list.models {
        table.row(vec![
            model.name.clone(),
            model.kind.as_str().to_owned(),
            model
                .engine
                .clone()
                .or_else(|| model.base.clone())
                .unwrap_or_default(),
            model.model_id.map(|id| id.to_string()).unwrap_or_default(),
            model.default_branch.clone().unwrap_or_default(),
            model
                .latest_checkpoint
                .as_deref()
                .map(short)
                .unwrap_or_default()
                .to_owned(),
        ]);
    }
    printer.table(&table)?;
    Ok(ExitCode::SUCCESS)
}

fn create(ctx: &Context, args: ModelsCreateArgs, printer: &Printer) -> Result<ExitCode> {
    let questions_yaml = args.questions.as_deref().map(read_text).transpose()?;
    let gates_yaml = args.gates.as_deref().map(read_text).transpose()?;
    let path = ModelPath::parse(&args.path)?;
    let detail = core::models::create(
        ctx,
        &CreateModel {
            path,
            base: args.base,
            questions_yaml,
            gates_yaml,
            capture: CapturePolicy {
                enabled: args.capture,
                sample_rate: args.sample_rate,
                retain_days: args.retain_days,
            },
            message: args.message,
        },
    )?;
    printer.status(&format!(
        "created {} ({}) at {}",
        detail.path,
        detail.model_id,
        short(&detail.latest_checkpoint.checkpoint_id)
    ));
    show_detail(&detail, printer)
}

async fn show(service: &dyn Service, args: &ModelsShowArgs, printer: &Printer) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    show_detail(&service.model(&model).await?.show().await?, printer)
}

fn show_detail(detail: &crate::wire::models::ModelDetail, printer: &Printer) -> Result<ExitCode> {
    if printer.wants_json() {
        printer.json(detail)?;
        return Ok(ExitCode::SUCCESS);
    }
    let refs = |refs: &[crate::wire::models::RefInfo]| {
        refs.iter()
            .map(|r| format!("{} {}", r.name, short(&r.commit)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Field and value, no header row.
    let mut table = Table::new(vec![Column::whole("").always(), Column::text("").always()]);
    table.row(vec!["path".to_owned(), detail.path.clone()]);
    table.row(vec!["modelId".to_owned(), detail.model_id.to_string()]);
    table.row(vec!["base".to_owned(), detail.base.clone()]);
    table.row(vec![
        "default branch".to_owned(),
        detail.default_branch.clone(),
    ]);
    table.row(vec![
        "latest checkpoint".to_owned(),
        format!(
            "{} {}",
            short(&detail.latest_checkpoint.checkpoint_id),
            detail.latest_checkpoint.message
        ),
    ]);
    table.row(vec!["branches".to_owned(), refs(&detail.branches)]);
    table.row(vec!["tags".to_owned(), refs(&detail.tags)]);
    table.row(vec![
        "capture".to_owned(),
        format!(
            "{} at sample rate {}",
            if detail.capture.enabled {
                "enabled"
            } else {
                "disabled"
            },
            detail.capture.sample_rate
        ),
    ]);
    table.row(vec![
        "questions".to_owned(),
        detail
            .questions
            .iter()
            .map(|q| format!("{q:?}"))
            .collect::<Vec<_>>()
            .join(", "),
    ]);
    printer.table(&table)?;
    Ok(ExitCode::SUCCESS)
}

fn commit(ctx: &Context, args: ModelsCommitArgs, printer: &Printer) -> Result<ExitCode> {
    let checkpoint = core::models::commit(
        ctx,
        &CommitRequest {
            branch: args.branch,
            start: args.from,
            questions_yaml: args.questions.as_deref().map(read_text).transpose()?,
            model_yaml: args.model_file.as_deref().map(read_text).transpose()?,
            gates_yaml: args.gates.as_deref().map(read_text).transpose()?,
            aligned: Vec::new(),
            unaligned: Vec::new(),
            learned: None,
            message: args.message,
            // Named last, as before: a file that cannot be read is refused first.
            model: core::models::named_here(ctx, &args.model)?,
        },
    )?;
    print_checkpoints(std::slice::from_ref(&checkpoint), printer)
}

fn tag(ctx: &Context, args: &ModelsTagArgs, printer: &Printer) -> Result<ExitCode> {
    let model = core::models::named_here(ctx, &args.model)?;
    let default_branch;
    let revision = if let Some(revision) = &args.revision {
        revision.as_str()
    } else {
        default_branch = core::models::show(ctx, &model)?.default_branch;
        &default_branch
    };
    let tagged = core::models::tag(ctx, &model, &args.name, revision, args.force, &local_user())?;
    if printer.wants_json() {
        printer.json(&tagged)?;
    } else {
        printer.line(&format!(
            "tagged {} at {}",
            args.name,
            short(&tagged.commit)
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn log(service: &dyn Service, args: &ModelsLogArgs, printer: &Printer) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    print_checkpoints(
        &service
            .model(&model)
            .await?
            .log(LogQuery {
                revision: args.revision.as_deref(),
                limit: args.limit,
            })
            .await?,
        printer,
    )
}

async fn promote(
    service: &dyn Service,
    args: &ModelsPromoteArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    let checkpoint = service
        .model(&model)
        .await?
        .promote(&args.revision, args.evaluation.as_deref())
        .await?;
    print_checkpoints(std::slice::from_ref(&checkpoint), printer)
}

fn print_checkpoints(checkpoints: &[Checkpoint], printer: &Printer) -> Result<ExitCode> {
    if printer.wants_json() {
        printer.json(checkpoints)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(vec![
        Column::whole("Checkpoint").always(),
        Column::time("Created").priority(2),
        Column::text("Message").priority(3),
    ]);
    for checkpoint in checkpoints {
        table.row(vec![
            short(&checkpoint.checkpoint_id).to_owned(),
            crate::cli::output::table::timestamp(checkpoint.created_at),
            checkpoint
                .message
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned(),
        ]);
    }
    printer.table(&table)?;
    Ok(ExitCode::SUCCESS)
}

/// The first 12 hex digits of a commit.
pub(super) fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter models delete-branch acme/support alignments/0b1c2d3e"
)]
pub struct ModelsDeleteBranchArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// The branch to delete; the commit it pointed at is kept in the history (models history)
    pub branch: String,
}

/// `models delete-branch`: as `git branch -D`, saying where the branch pointed.
async fn delete_branch(
    service: &dyn Service,
    args: &ModelsDeleteBranchArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    service
        .model(&model)
        .await?
        .delete_branch(&args.branch)
        .await?;
    printer.status(&format!("deleted branch {} of {}", args.branch, args.model));
    if printer.wants_json() {
        printer.json(&serde_json::json!({ "deleted": args.branch }))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter models delete acme/old-support\n  arbiter models delete acme/old-support --yes"
)]
pub struct ModelsDeleteArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// Delete without asking (without a terminal to ask on, --yes is required)
    #[arg(long)]
    pub yes: bool,
}

/// `models delete`: asked on the terminal (the path typed back), or `--yes`.
fn delete(ctx: &Context, args: &ModelsDeleteArgs, printer: &Printer) -> Result<ExitCode> {
    let model = core::models::named_here(ctx, &args.model)?;
    // Found before anything is asked: a typo is not found, not a question.
    core::models::open(ctx, &model)?;
    if !args.yes {
        let Some(tty) = crate::cli::input::interrupt::terminal().filter(|_| printer.interactive())
        else {
            return Err(UsageError::new(format!(
                "deleting {} cannot be undone: pass --yes (no terminal to ask on)",
                args.model
            ))
            .into());
        };
        let mut stderr = std::io::stderr();
        let _ = write!(
            stderr,
            "delete {0} with its repository, examples, decisions, annotations, jobs and \
             history? This cannot be undone. Type {0} to confirm: ",
            args.model
        );
        let _ = stderr.flush();
        let mut answer = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(tty), &mut answer)?;
        if answer.trim() != args.model {
            printer.status("not deleted");
            return Ok(ExitCode::from(1));
        }
    }
    core::models::delete(ctx, &model)?;
    printer.status(&format!("deleted {}", args.model));
    if printer.wants_json() {
        printer.json(&serde_json::json!({ "deleted": args.model }))?;
    }
    Ok(ExitCode::SUCCESS)
}

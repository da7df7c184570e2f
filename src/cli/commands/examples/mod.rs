//! `arbiter examples`: ingest, annotate, list, show and export a model's examples, measure
//! how far their annotators agree, and pick which to annotate next (`to_annotate.rs`).

mod choice;
mod delete;
mod to_annotate;

pub(crate) use choice::ChoiceArgs;

use crate::cli::Target;
use crate::cli::commands::examples::to_annotate::ExamplesNextArgs;
use crate::cli::input::read_json_value_arg;
use crate::cli::input::values;
use crate::cli::output::table::{Column, Table};
use crate::cli::output::{Printer, UsageError, prob};
use crate::core::service::{
    AnnotateRequest, Annotator, ExamplesQuery, IngestRequest, Input, Service, local_user,
};
use crate::store::ExampleFilter;
use crate::wire::agreement::AgreementReport;
use crate::wire::examples::{Annotation, IngestReport, check_annotator};
use anyhow::{Context as _, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter examples ingest acme/support --file examples.jsonl\n  arbiter examples annotate acme/support EXAMPLE_ID --question urgency --answer 3\n  arbiter examples next acme/support -n 20"
)]
pub struct ExamplesArgs {
    #[command(subcommand)]
    pub command: ExamplesCommand,
}

#[derive(Debug, Subcommand)]
pub enum ExamplesCommand {
    /// Ingest examples in bulk from JSON Lines or a JSON array
    Ingest(ExamplesIngestArgs),
    /// Annotate an example with ground truth, or many from a JSON Lines file
    Annotate(ExamplesAnnotateArgs),
    /// List examples (paged, filtered)
    List(ExamplesListArgs),
    /// Show one example with its annotations and decisions
    Show(ExamplesShowArgs),
    /// Delete examples with everything recorded of them (role admin)
    Delete(delete::ExamplesDeleteArgs),
    /// Write every example as JSON Lines, in the ingest format
    Export(ExamplesExportArgs),
    /// How far annotators agree, per question: Cohen's kappa for two, Fleiss' for more
    Agreement(ExamplesAgreementArgs),
    /// Which examples to annotate next: unannotated ones the model is least sure of, with a random audit share
    Next(ExamplesNextArgs),
}

#[derive(Debug, Args)]
pub struct ExamplesIngestArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// Lines of {example_id?, state, annotations?}, or one JSON array of them (- for stdin)
    #[arg(long, short, value_name = "FILE")]
    pub file: PathBuf,
    /// Write nothing if any line is invalid
    #[arg(long)]
    pub atomic: bool,
    #[command(flatten)]
    pub annotator: AnnotatorArg,
}

/// Who annotates, on a local home.
#[derive(Debug, Clone, Args)]
pub struct AnnotatorArg {
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// Who annotates, for annotations that name no annotator [default: $USER or $USERNAME, else local]; not with --server, where the token's name is recorded
    #[arg(long, value_name = "NAME", value_parser = parse_annotator)]
    pub annotator: Option<String>,
}

fn parse_annotator(name: &str) -> std::result::Result<String, String> {
    check_annotator(name).map(|()| name.to_owned())
}

impl AnnotatorArg {
    /// The annotator to send: locally the name given, else the user's; against a server
    /// none (it records its token's name), and a name given is a usage error.
    pub(crate) fn resolve(&self, target: &Target) -> Result<Annotator> {
        match (&self.annotator, target.is_remote()) {
            (Some(_), true) => Err(UsageError::new(
                "--annotator names the annotator on a local home; a server records the \
                 token's name (drop --annotator, or name annotators in the lines of a file)"
                    .to_owned(),
            )
            .into()),
            (None, true) => Ok(None),
            (Some(name), false) => Ok(Some(name.clone())),
            (None, false) => Ok(Some(local_user())),
        }
    }
}

#[derive(Debug, Args)]
pub struct ExamplesAnnotateArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// The example to annotate: its ID, or a prefix of at least 4 characters that starts no other ID
    #[arg(required_unless_present_any = ["file", "interactive"], requires_all = ["question", "answer"])]
    pub example_id: Option<String>,
    /// The question ID
    #[arg(long)]
    pub question: Option<String>,
    /// The ground truth: true/false or yes/no (noul), an option key (choice), a level index (score)
    #[arg(long)]
    pub answer: Option<String>,
    /// Why this is the answer
    #[arg(long)]
    pub reasoning: Option<String>,
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// Lines of {example_id, question, answer, reasoning?, annotator?} (- for stdin)
    #[arg(long, short, value_name = "FILE", conflicts_with = "example_id")]
    pub file: Option<PathBuf>,
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// Annotate in a keystroke, as arbiter annotate does (with --question: only that question)
    #[arg(long, short = 'i', conflicts_with_all = ["example_id", "file", "answer", "reasoning"])]
    pub interactive: bool,
    // With --interactive: which examples may be shown (as `arbiter annotate` takes them).
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub annotator: AnnotatorArg,
}

#[derive(Debug, Args)]
pub struct ExamplesListArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// Only examples with at least one annotation
    #[arg(long, conflicts_with = "unannotated")]
    pub annotated: bool,
    /// Only examples without annotations
    #[arg(long)]
    pub unannotated: bool,
    /// Only examples annotated for this question
    #[arg(long)]
    pub question: Option<String>,
    /// With --question: only examples whose ground truth for it is this answer (true, a level 2, an option refund)
    #[arg(long, requires = "question")]
    pub answer: Option<String>,
    /// Only examples whose state contains this text (letter case aside)
    #[arg(long)]
    pub text: Option<String>,
    /// Start after this example ID (the nextCursor of a previous page)
    #[arg(long, value_name = "ID")]
    pub after: Option<String>,
    /// At most this many examples (1 to 1000)
    #[arg(long, short = 'n', default_value_t = 50,
          value_parser = values::listing_limit())]
    pub limit: usize,
}

#[derive(Debug, Args)]
pub struct ExamplesShowArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// The example ID, or a prefix of at least 4 characters that starts no other ID
    pub example_id: String,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Lines are sorted by example ID; each line's keys are example_id, state, annotations, its annotations sorted by question ID, and a question's annotators oldest first: the same examples export the same bytes.\n\nThe labels file a model repository carries is examples/annotated.jsonl at its root (models import and models pull ingest it):\n  arbiter examples export acme/support --annotated --output support-model/examples/annotated.jsonl"
)]
pub struct ExamplesExportArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// Only annotated examples (the labels file: examples/annotated.jsonl in a model repository)
    #[arg(long)]
    pub annotated: bool,
    /// Write to FILE (its missing directories made) once the whole export is in hand, instead of stdout: an export that fails neither creates nor changes FILE
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExamplesAgreementArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// Only this question [default: every question at the default branch]
    #[arg(long)]
    pub question: Option<String>,
}

pub(crate) async fn run(
    target: &Target,
    args: ExamplesArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let service = target.service();
    match args.command {
        ExamplesCommand::Ingest(args) => ingest(target, &args, printer).await,
        ExamplesCommand::Annotate(args) => annotate(target, args, printer).await,
        ExamplesCommand::List(args) => list(service, args, printer).await,
        ExamplesCommand::Show(args) => show(service, &args, printer).await,
        ExamplesCommand::Delete(args) => delete::delete(service, &args, printer).await,
        ExamplesCommand::Export(args) => export(service, &args).await,
        ExamplesCommand::Agreement(args) => agreement(service, &args, printer).await,
        ExamplesCommand::Next(args) => to_annotate::next(service, args, printer).await,
    }
}

/// A reader for `path` (or stdin), counting bytes into a progress bar on a terminal (in
/// client mode, the bytes read to be sent).
fn open_input(path: &Path, printer: &Printer, bar: &ProgressBar) -> Result<Input> {
    if path == Path::new("-") {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    if printer.interactive() {
        bar.set_length(file.metadata().map_or(0, |m| m.len()));
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {bytes}/{total_bytes} {wide_bar} {msg} ({eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        return Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            bar.wrap_read(file),
        )));
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

fn progress_bar(printer: &Printer) -> ProgressBar {
    if printer.interactive() {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    }
}

async fn ingest(target: &Target, args: &ExamplesIngestArgs, printer: &Printer) -> Result<ExitCode> {
    let annotator = args.annotator.resolve(target)?;
    let bar = progress_bar(printer);
    let input = open_input(&args.file, printer, &bar)?;
    let model = target.service().model_named(&args.model).await?;
    let report = target
        .service()
        .model(&model)
        .await?
        .ingest(
            IngestRequest {
                input,
                atomic: args.atomic,
                annotator,
            },
            &|counts| {
                bar.set_message(format!(
                    "{} new, {} existing",
                    counts.created, counts.existing
                ));
            },
        )
        .await?;
    bar.finish_and_clear();
    print_report(&report, "ingested", printer)
}

async fn annotate(
    target: &Target,
    args: ExamplesAnnotateArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    if args.choice.given() {
        return Err(UsageError::new("--ids and --exclude choose what --interactive shows").into());
    }
    let annotator = args.annotator.resolve(target)?;
    let service = target.service();
    if let Some(path) = &args.file {
        let bar = progress_bar(printer);
        let input = open_input(path, printer, &bar)?;
        let model = service.model_named(&args.model).await?;
        let report = service
            .model(&model)
            .await?
            .annotate_lines(annotator, input)
            .await?;
        bar.finish_and_clear();
        return print_report(&report, "annotated", printer);
    }
    let (Some(example_id), Some(question), Some(answer)) =
        (args.example_id, args.question, args.answer)
    else {
        anyhow::bail!("give an example ID with --question and --answer, or --file");
    };
    let model = service.model_named(&args.model).await?;
    let model = service.model(&model).await?;
    let example_id = model.resolve_example(&example_id).await?;
    let annotation = model
        .annotate(AnnotateRequest {
            example_id: &example_id,
            question_id: question.clone(),
            answer: read_json_value_arg(&answer),
            reasoning: args.reasoning,
            annotator,
        })
        .await?;
    if printer.wants_json() {
        printer.json(&annotation)?;
    } else {
        printer.line(&annotated_line(example_id.as_str(), &question, &annotation))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `annotate` did, in words: the answer written (the latest vote) and, when other
/// annotators answered too, the ground truth their majority makes.
pub(crate) fn annotated_line(example_id: &str, question: &str, annotation: &Annotation) -> String {
    let Some(mine) = annotation.votes.last() else {
        return format!("annotated {example_id}: {question} = {}", annotation.answer);
    };
    let mut line = format!(
        "annotated {example_id}: {question} = {} by {}",
        mine.answer, mine.annotator
    );
    if annotation.votes.len() > 1 {
        let agreeing = agreeing(annotation);
        let _ = write!(
            line,
            "; ground truth {} ({agreeing} of {} annotators)",
            annotation.answer,
            annotation.votes.len()
        );
    }
    line
}

/// How many annotators gave the resolved answer.
fn agreeing(annotation: &Annotation) -> usize {
    let resolved = crate::wire::value::canonical_json(&annotation.answer);
    annotation
        .votes
        .iter()
        .filter(|v| crate::wire::value::canonical_json(&v.answer) == resolved)
        .count()
}

/// A summary on stdout (JSON when piped); exit 1 when any line was rejected.
fn print_report(report: &IngestReport, verb: &str, printer: &Printer) -> Result<ExitCode> {
    if printer.wants_json() {
        printer.json(report)?;
    } else {
        let written = if report.committed {
            ""
        } else {
            " (nothing written: --atomic and some lines are invalid)"
        };
        if verb == "ingested" {
            printer.line(&format!(
                "ingested {} new and {} existing examples, {} annotations; {} lines rejected{written}",
                report.created, report.existing, report.annotations, report.rejected.len()
            ))?;
        } else {
            printer.line(&format!(
                "annotated {}; {} lines rejected",
                report.annotations,
                report.rejected.len()
            ))?;
        }
        for rejected in &report.rejected {
            printer.line(&format!("  line {}: {}", rejected.line, rejected.reason))?;
        }
    }
    Ok(if report.rejected.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

async fn list(
    service: &dyn Service,
    args: ExamplesListArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let annotated = if args.annotated {
        Some(true)
    } else if args.unannotated {
        Some(false)
    } else {
        None
    };
    let filter = ExampleFilter {
        annotated,
        question: args.question,
        answer: args
            .answer
            .as_deref()
            .map(crate::wire::examples::typed_answer),
        text: args.text,
    };
    let model = service.model_named(&args.model).await?;
    let page = service
        .model(&model)
        .await?
        .list_examples(ExamplesQuery {
            filter: &filter,
            after: args.after.as_deref(),
            limit: args.limit,
        })
        .await?;
    if printer.wants_json() {
        printer.json(&page)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(vec![
        Column::whole("Example").always(),
        Column::time("Created").priority(2),
        Column::text("Annotations").priority(4),
        Column::text("State").priority(3),
    ]);
    for example in &page.examples {
        let annotations = example
            .annotations
            .iter()
            .map(|(q, a)| match a.votes.len() {
                0 | 1 => format!("{q}={}", a.answer),
                votes => format!("{q}={} ({}/{votes})", a.answer, agreeing(a)),
            })
            .collect::<Vec<_>>()
            .join(" ");
        // Even a wide terminal shows only the start of a state (`examples show` has it all).
        let state = console::truncate_str(&example.state.to_string(), 60, "…").into_owned();
        table.row(vec![
            example.example_id.to_string(),
            crate::cli::output::table::timestamp(example.created_at),
            annotations,
            state,
        ]);
    }
    printer.table(&table)?;
    if let Some(cursor) = &page.next_cursor {
        printer.status(&format!("more: --after {cursor}"));
    }
    Ok(ExitCode::SUCCESS)
}

async fn show(
    service: &dyn Service,
    args: &ExamplesShowArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    let model = service.model(&model).await?;
    let example_id = model.resolve_example(&args.example_id).await?;
    let detail = model.show_example(&example_id).await?;
    // An example is a document: JSON on a terminal too, pretty-printed.
    printer.json(&detail)?;
    Ok(ExitCode::SUCCESS)
}

async fn export(service: &dyn Service, args: &ExamplesExportArgs) -> Result<ExitCode> {
    let filter = ExampleFilter {
        annotated: args.annotated.then_some(true),
        question: None,
        ..Default::default()
    };
    let model = service.model_named(&args.model).await?;
    // To a file, the lines are kept until the last one is written: a user's path is only
    // created (or emptied) once there is a whole export to put in it.
    let mut buffered = Vec::new();
    let mut stdout = std::io::BufWriter::new(std::io::stdout());
    let sink: &mut (dyn Write + Send) = if args.output.is_some() {
        &mut buffered
    } else {
        &mut stdout
    };
    let mut io_error = None;
    let result = service
        .model(&model)
        .await?
        .export_examples(&filter, &mut |line| {
            serde_json::to_writer(&mut *sink, line)
                .map_err(std::io::Error::from)
                .and_then(|()| sink.write_all(b"\n"))
                .map_err(|e| {
                    let message = e.to_string();
                    io_error = Some(e);
                    crate::error::Error::bug(message)
                })
        })
        .await;
    if let Some(error) = io_error {
        return Err(error.into());
    }
    result?;
    sink.flush()?;
    if let Some(path) = &args.output {
        if let Some(parent) = path.parent() {
            crate::cli::file_modes::create_output_dir(parent)?;
        }
        crate::cli::file_modes::write_output_file(path, &buffered)?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn agreement(
    service: &dyn Service,
    args: &ExamplesAgreementArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    let report = service
        .model(&model)
        .await?
        .annotation_agreement(args.question.as_deref())
        .await?;
    if printer.wants_json() {
        printer.json(&report)?;
    } else {
        printer.table(&agreement_table(&report))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One row per question; a question without a kappa says why in the last column.
fn agreement_table(report: &AgreementReport) -> Table {
    let mut table = Table::new(vec![
        Column::whole("Question").always(),
        Column::text("Annotators").priority(2),
        Column::number("Shared").priority(3),
        Column::number("Agreed").priority(4),
        Column::text("Kappa").always(),
    ]);
    for (question, figures) in &report.questions {
        let annotators = figures
            .annotators
            .iter()
            .map(|a| format!("{} {}", a.annotator, a.examples))
            .collect::<Vec<_>>()
            .join(", ");
        let kappa = match (figures.kappa, figures.method, &figures.reason) {
            (Some(kappa), Some(method), _) => format!("{} {method}", prob(kappa)),
            (_, _, Some(reason)) => format!("- {reason}"),
            _ => "-".to_owned(),
        };
        table.row(vec![
            question.clone(),
            annotators,
            figures.shared_examples.to_string(),
            figures
                .observed_agreement
                .map_or_else(|| "-".to_owned(), prob),
            kappa,
        ]);
    }
    table
}

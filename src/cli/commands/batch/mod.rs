//! `arbiter batch`: one checkpoint of a repository model over many states, as a job that
//! runs here (progress on a terminal, results as they finish) or, with `--detach`, in a
//! background worker process. With `--server`, the job runs on the server: it is followed
//! with the same progress bar and its results are printed once it ends.

mod base;

use crate::cli::commands::jobs::{
    FailedItems, Followed, detach, finish_status, follow, left_running, note_replayed,
};
use crate::cli::input::{read_questions_file, read_yaml};
use crate::cli::output::Printer;
use crate::cli::output::failures::Failures;
use crate::cli::output::progress::JobBar;
use crate::core::jobs::Observer;
use crate::core::service::{BatchItems, Input, JobRequest, Service};
use crate::error::Error;
use crate::wire::jobs::{BatchItems as Given, BatchMembers, ExampleSet, JobStatus, Progress};
use crate::wire::question::parse_questions;
use crate::wire::{Loc, Questions};
use anyhow::{Context as _, Result};
use clap::{Args, ValueEnum};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter batch acme/support --input states.jsonl --output answers.jsonl\n  arbiter batch acme/support --examples annotated --revision v2 > answers.jsonl\n  arbiter batch acme/support --input states.jsonl --detach"
)]
pub struct BatchArgs {
    /// The model path, <owner>/<model>, or a base model (with --questions; nothing recorded), or a model repository's checkout (a directory: ., ./path or /path), run on here with no home: its work tree (or --revision); --examples reads its examples/annotated.jsonl
    pub model: String,
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// JSON Lines of {example_id?, state} (- for stdin); blank lines are skipped
    #[arg(long, short, value_name = "FILE", required_unless_present = "examples")]
    pub input: Option<PathBuf>,
    /// Run over the model's stored examples instead of an input file
    #[arg(long, value_enum, conflicts_with = "input")]
    pub examples: Option<ExampleSetArg>,
    /// Branch, tag or commit SHA [default: the default branch]; pinned to its commit for the whole job
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,
    /// Questions: a YAML or JSON file of question ID -> question (override saved ones)
    #[arg(long, short, value_name = "FILE")]
    pub questions: Option<PathBuf>,
    /// Record each decision, as the model's capture policy allows
    #[arg(long)]
    pub capture: bool,
    /// A questions file not committed (YAML or JSON), asked as a working copy on top of --revision: a question unchanged from the revision's keeps its learned parameters, a changed or new one is zero-shot. Nothing is committed or recorded
    #[arg(long, value_name = "FILE", conflicts_with_all = ["questions", "capture"])]
    pub questions_file: Option<PathBuf>,
    /// Write the results (JSON Lines, in input order) to FILE instead of stdout
    #[arg(long, short, value_name = "FILE", conflicts_with = "detach")]
    pub output: Option<PathBuf>,
    /// Print the job ID (the job with --json) and return at once; the job runs in a background process (or on the server)
    #[arg(long)]
    pub detach: bool,
    /// With --server, when not on a terminal: cancel the server's job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)
    #[arg(long)]
    pub cancel_on_interrupt: bool,
    /// How many items may fail before the exit code is 1, a count (5) or a share of the items (2%)
    #[arg(
        long,
        value_name = "N|P%",
        default_value = "0",
        conflicts_with = "detach"
    )]
    pub max_failed_items: FailedItems,
}

/// `--examples`: which stored examples.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExampleSetArg {
    All,
    Annotated,
}

/// The states to decide: a set of stored examples, or the lines of `--input`.
fn items_of(args: &BatchArgs) -> Result<BatchItems> {
    Ok(match (&args.input, args.examples) {
        (_, Some(ExampleSetArg::All)) => BatchItems::Given(Given::Examples(ExampleSet::All)),
        (_, Some(ExampleSetArg::Annotated)) => {
            BatchItems::Given(Given::Examples(ExampleSet::Annotated))
        }
        (Some(path), None) => BatchItems::Lines(open_input(path)?),
        (None, None) => return Err(Error::BadRequest("give --input or --examples".into()).into()),
    })
}

pub(crate) async fn run(
    service: &dyn Service,
    args: BatchArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = match service.model_named(&args.model).await {
        Err(Error::BaseModelNamed(name)) => return base::run(service, args, name, printer).await,
        named => named?,
    };
    let questions = args.questions.as_deref().map(read_questions).transpose()?;
    let working_questions = read_questions_file(args.questions_file.as_deref())?;
    let items = items_of(&args)?;
    let created = service
        .create_job(
            &model,
            JobRequest::Batch {
                members: BatchMembers {
                    revision: args.revision.clone(),
                    questions,
                    capture: args.capture,
                    working_questions,
                },
                items,
            },
        )
        .await?;
    note_replayed(&created, printer);
    let job = created.job;
    note_working_copy(&args, printer);
    if args.detach {
        let queued = format!("{} items", job.progress.total);
        return detach(service, &job, printer, &queued).await;
    }

    let sink: Box<dyn Write + Send> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            crate::cli::file_modes::create_output_file(path)?,
        )),
        None => Box::new(std::io::stdout()),
    };
    let observer = Foreground {
        bar: JobBar::new(printer, job.progress.total, job.kind),
        sink: Mutex::new(Sink {
            out: sink,
            error: None,
            failures: Failures::default(),
        }),
    };
    let followed = follow(
        service,
        &job,
        &observer,
        &observer.bar,
        printer,
        args.cancel_on_interrupt,
    )
    .await;
    observer.bar.finish();
    let mut sink = observer
        .sink
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    sink.out.flush().context("writing the results")?;
    if let Some(error) = sink.error {
        return Err(error).context("writing the results");
    }
    let (job, interrupted) = match followed? {
        Followed::Ended { job, interrupted } => (job, interrupted),
        Followed::Left(job) => return Ok(left_running(&job, printer)),
    };
    if args.output.is_some() && printer.wants_json() {
        printer.json(&job)?;
    }
    sink.failures.report(&job, printer);
    if interrupted && job.status == JobStatus::Cancelled {
        printer.status(&format!(
            "cancelled after {} of {} items; the results so far: arbiter jobs results {}",
            job.progress.done, job.progress.total, job.job_id
        ));
        return Ok(ExitCode::from(130));
    }
    Ok(finish_status(&job, args.max_failed_items, printer))
}

/// With `--questions-file`: the answers are a working copy's, said so on stderr.
fn note_working_copy(args: &BatchArgs, printer: &Printer) {
    if let Some(file) = &args.questions_file {
        printer.status(&format!(
            "answering as a working copy of {} ({}): not committed, not recorded",
            args.revision.as_deref().unwrap_or("the default branch"),
            file.display()
        ));
    }
}

/// Results to the output as they finish, progress to the bar.
struct Foreground {
    bar: JobBar,
    sink: Mutex<Sink>,
}

struct Sink {
    out: Box<dyn Write + Send>,
    /// The first write error (a closed pipe, a full disk): reported at the end.
    error: Option<std::io::Error>,
    failures: Failures,
}

impl Observer for Foreground {
    fn progress(&self, progress: Progress) {
        self.bar.set(progress);
    }

    fn line(&self, line: &[u8]) {
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if sink.error.is_none()
            && let Err(error) = sink.out.write_all(line)
        {
            sink.error = Some(error);
        }
        sink.failures.note(line);
    }

    fn wants_lines(&self) -> bool {
        true
    }
}

fn open_input(path: &Path) -> crate::error::Result<Input> {
    if path == Path::new("-") {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| Error::BadRequest(format!("reading {}: {e}", path.display())))?;
    Ok(Box::new(BufReader::with_capacity(256 * 1024, file)))
}

fn read_questions(path: &Path) -> Result<Questions> {
    let value = read_yaml(path)?;
    let mut errors = Vec::new();
    let questions = parse_questions(&value, &Loc::body().key("questions"), &mut errors);
    if errors.is_empty() {
        Ok(questions)
    } else {
        Err(Error::Validation(errors)).with_context(|| format!("{}", path.display()))
    }
}

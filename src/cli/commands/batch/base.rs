//! `arbiter batch` over a base model ([`crate::core::base_batch`]): no job, no store;
//! each line a decision of `--questions`, the results in input order as a job's, the same
//! progress bar, failure report and exit codes. Locally and in client mode alike (there,
//! one `POST /v1/decision` per item).

use super::{BatchArgs, open_input, read_questions};
use crate::cli::output::failures::Failures;
use crate::cli::output::progress::JobBar;
use crate::cli::output::{Printer, UsageError};
use crate::core::base_batch::{self as base, BaseBatch};
use crate::core::service::Service;
use crate::error::Error;
use crate::wire::Loc;
use crate::wire::jobs::Progress;
use anyhow::{Context as _, Result};
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

/// Decisions asked at once: enough to keep a server's (or this machine's) cores busy.
const AT_ONCE: usize = 8;

pub(super) async fn run(
    service: &dyn Service,
    args: BatchArgs,
    model: String,
    printer: &Printer,
) -> Result<ExitCode> {
    refuse_repository_flags(&args, &model)?;
    let Some(questions_file) = &args.questions else {
        let why = format!("`{model}` is a base model, with no saved questions");
        return Err(missing("--questions FILE", &why).into());
    };
    let questions = read_questions(questions_file)?;
    let Some(input_path) = &args.input else {
        return Err(missing("--input FILE", "the states, JSON Lines (- for stdin)").into());
    };
    let total = count_items(input_path);
    let input = open_input(input_path)?;
    let mut out: Box<dyn Write + Send> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            crate::cli::file_modes::create_output_file(path)?,
        )),
        None => Box::new(std::io::stdout()),
    };
    let bar = JobBar::new(
        printer,
        total.unwrap_or(0),
        crate::wire::jobs::JobKind::Batch,
    );
    let mut failures = Failures::default();
    let mut written = Ok(());
    let mut progress = Progress::default();
    let batch = BaseBatch {
        model: model.clone(),
        questions,
        input,
        at_once: AT_ONCE,
    };
    let ran = base::run(service, batch, &mut |line, failed| {
        if written.is_ok() {
            written = out.write_all(line);
        }
        failures.note(line);
        progress.done += 1;
        progress.failed += u64::from(failed);
        progress.total = total.unwrap_or(progress.done).max(progress.done);
        bar.set(progress);
    })
    .await;
    bar.finish();
    written
        .and_then(|()| out.flush())
        .context("writing the results")?;
    let tally = ran?;
    if tally.done == 0 {
        return Err(Error::invalid(Loc::body().key("items"), "input has no items", "empty").into());
    }
    failures.report_to(printer, "the results' lines with an `error`");
    let failed = if tally.failed > 0 {
        format!(" ({} failed)", tally.failed)
    } else {
        String::new()
    };
    printer.status(&format!(
        "completed: {} items{failed}, base model {model}, nothing recorded",
        tally.done
    ));
    if args.max_failed_items.allows(tally.failed, tally.done) {
        return Ok(ExitCode::SUCCESS);
    }
    printer.status(&format!(
        "error: {} of {} items failed, more than the {} allowed (--max-failed-items)",
        tally.failed, tally.done, args.max_failed_items
    ));
    Ok(ExitCode::from(1))
}

/// What only a repository model has: stored examples, revisions, capture, working copies,
/// a job to detach from. A usage error (exit 2) naming each flag given.
fn refuse_repository_flags(args: &BatchArgs, model: &str) -> Result<(), UsageError> {
    let given = [
        ("--examples", args.examples.is_some(), "stored examples"),
        ("--revision", args.revision.is_some(), "revisions"),
        ("--capture", args.capture, "examples to record into"),
        (
            "--questions-file",
            args.questions_file.is_some(),
            "committed questions",
        ),
        ("--detach", args.detach, "job to leave running"),
    ];
    let given: Vec<_> = given.into_iter().filter(|(_, set, _)| *set).collect();
    if given.is_empty() {
        return Ok(());
    }
    let flags: Vec<&str> = given.iter().map(|(flag, ..)| *flag).collect();
    let lacks: Vec<&str> = given.iter().map(|(.., what)| *what).collect();
    Err(UsageError::new(format!(
        "`{model}` is a base model, with no {}: {} need a repository model <owner>/<model>",
        lacks.join(", "),
        flags.join(", ")
    )))
}

fn missing(flag: &str, what: &str) -> UsageError {
    UsageError::new(format!("{flag} is required: {what}"))
}

/// The items of an input file, for the progress bar (none for stdin: read once only).
fn count_items(path: &Path) -> Option<u64> {
    if path == Path::new("-") {
        return None;
    }
    let file = std::io::BufReader::new(std::fs::File::open(path).ok()?);
    let mut count = 0;
    for line in file.split(b'\n') {
        if !line.ok()?.trim_ascii().is_empty() {
            count += 1;
        }
    }
    Some(count)
}

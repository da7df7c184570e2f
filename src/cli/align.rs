//! `arbiter align`: better questions from a repository model's annotated examples, as a job
//! that runs here (progress on a terminal) or, with `--detach`, in a background worker.

use super::jobs::{JobBar, finish_status, run_here, spawn_worker};
use super::output::Printer;
use crate::core::align::NewAlignment;
use crate::core::jobs::Observer;
use crate::core::{self, Context};
use crate::wire::align::{AlignmentRequest, AlignmentResult, DEFAULT_MARGIN, DEFAULT_MAX_EXAMPLES};
use crate::wire::jobs::{Job, JobStatus, Progress};
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct AlignArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// The checkpoint to improve: branch, tag or commit SHA [default: the default branch]
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,
    /// Only these questions (comma-separated IDs) [default: every saved question]
    #[arg(long, short, value_name = "IDS", value_delimiter = ',')]
    pub questions: Option<Vec<String>>,
    /// Seed of the folds, draws and bootstrap: the same examples, seed and checkpoint give the same result
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The held-out gain a question needs, relative to its current loss (0.02: 2% lower)
    #[arg(long, default_value_t = DEFAULT_MARGIN, value_name = "FRACTION")]
    pub margin: f64,
    /// Annotated examples used per question, at most (a seeded sample)
    #[arg(long, default_value_t = DEFAULT_MAX_EXAMPLES, value_name = "N")]
    pub max_examples: usize,
    /// Print the job ID (the job with --json) and return at once; the job runs in a background process
    #[arg(long)]
    pub detach: bool,
}

pub(crate) async fn run(ctx: &Context, args: AlignArgs, printer: &Printer) -> Result<ExitCode> {
    let request = AlignmentRequest::from_value(&serde_json::json!({
        "revision": args.revision,
        "questions": args.questions,
        "seed": args.seed,
        "margin": args.margin,
        "max_examples": args.max_examples,
    }))?;
    let (job, lock) = {
        let (ctx, model) = (ctx.clone(), args.model.clone());
        core::blocking(move || {
            core::align::create(
                &ctx,
                NewAlignment {
                    model: &model,
                    request,
                },
                None,
            )
        })
        .await?
    };
    if args.detach {
        drop(lock);
        spawn_worker(ctx, &job.job_id)?;
        if printer.json_flag() {
            printer.json(&job)?;
        } else {
            printer.line(&job.job_id)?;
            printer.status(&format!(
                "alignment queued; follow with `arbiter jobs poll {} --wait`",
                job.job_id
            ));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let watcher = Watcher {
        bar: JobBar::new(printer, 0),
    };
    let (job, interrupted) = run_here(ctx, lock, &watcher, &watcher.bar).await?;
    watcher.bar.finish();
    if interrupted && job.status == JobStatus::Cancelled {
        printer.status(&format!("alignment {} cancelled", job.job_id));
        return Ok(ExitCode::from(130));
    }
    print_alignment(&job, &args.model, printer)?;
    if job.status == JobStatus::Completed {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(finish_status(&job, printer))
    }
}

/// Progress only: an alignment writes no result lines.
struct Watcher {
    bar: JobBar,
}

impl Observer for Watcher {
    fn progress(&self, progress: Progress) {
        self.bar.set(progress);
    }
}

/// A finished alignment: JSON (the job) when piped, else a table of the figures.
pub(crate) fn print_alignment(job: &Job, model: &str, printer: &Printer) -> Result<()> {
    if printer.wants_json() {
        printer.json(job)?;
        return Ok(());
    }
    let Some(result) = job
        .result
        .clone()
        .and_then(|r| serde_json::from_value::<AlignmentResult>(r).ok())
    else {
        return Ok(());
    };
    let mut table = printer.new_table(&[
        "QUESTION", "EXAMPLES", "METRIC", "BEFORE", "AFTER", "ACCURACY", "ECE", "RESULT",
    ]);
    for (id, report) in &result.questions {
        let (metric, before, after, accuracy, ece) = match (&report.before, &report.after) {
            (Some(b), Some(a)) => (
                b.metric.clone(),
                format!("{:.4}", b.loss),
                format!("{:.4}", a.loss),
                format!("{:.3} → {:.3}", b.accuracy, a.accuracy),
                format!("{:.3} → {:.3}", b.ece, a.ece),
            ),
            _ => ("-".into(), "-".into(), "-".into(), "-".into(), "-".into()),
        };
        let outcome = if report.improved {
            format!("improved: {}", report.candidate.as_deref().unwrap_or("-"))
        } else {
            format!("unchanged: {}", report.reason.as_deref().unwrap_or("-"))
        };
        table.add_row(vec![
            id.clone(),
            report.examples.to_string(),
            metric,
            before,
            after,
            accuracy,
            ece,
            outcome,
        ]);
    }
    printer.line(&table.to_string())?;
    match (&result.branch, &result.checkpoint) {
        (Some(branch), Some(checkpoint)) => printer.status(&format!(
            "new checkpoint {} on {branch} (parent {}); figures are held-out (nested cross-validation)\n\
             compare: arbiter eval {model} --revision {branch} --baseline {}\n\
             promote: arbiter models promote {model} {branch}",
            &checkpoint.checkpoint_id[..12.min(checkpoint.checkpoint_id.len())],
            &result.base_checkpoint[..12.min(result.base_checkpoint.len())],
            &result.base_checkpoint[..12.min(result.base_checkpoint.len())],
        )),
        _ => printer.status("no question improved on held-out examples: nothing committed"),
    }
    Ok(())
}

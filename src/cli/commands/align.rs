//! `arbiter align`: better questions from a repository model's annotated examples, as a job
//! that runs here (progress on a terminal) or, with `--detach`, in a background worker.

use crate::cli::commands::jobs::{
    FailedItems, Followed, detach, finish_status, left_running, note_replayed, watch,
};
use crate::cli::input::values;
use crate::cli::output::Printer;
use crate::cli::output::table::{Column, Table};
use crate::core::service::{JobRequest, Service};
use crate::wire::align::{
    AlignmentPlan, AlignmentRequest, AlignmentResult, Curve, DEFAULT_FOLDS, DEFAULT_HOLDOUT,
    DEFAULT_MARGIN, DEFAULT_MAX_EXAMPLES, EngineCalls, FOLDS_RANGE, HOLDOUT_RANGE, MAX_WHOLE,
    MIN_EXAMPLES,
};
use crate::wire::decision::short_commit;
use crate::wire::jobs::{Job, JobResult, JobStatus};
use anyhow::Result;
use clap::Args;
use clap::builder::RangedU64ValueParser;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter align acme/support --revision main --curve\n  arbiter align acme/support --dry-run\n  arbiter align acme/support --budget 200 --detach"
)]
#[allow(clippy::struct_excessive_bools)] // flags, each its own
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
    #[arg(long, default_value_t = 0, value_parser = RangedU64ValueParser::<u64>::new().range(0..=MAX_WHOLE))]
    pub seed: u64,
    /// A gate for the cautious, off at 0: a question then changes only when its held-out loss beats zero-shot's by this share (0.02: 2% lower) beyond chance. At 0 each question keeps what scores best out of fold
    #[arg(long, default_value_t = DEFAULT_MARGIN, value_name = "FRACTION", value_parser = margin)]
    pub margin: f64,
    /// Annotated examples used per question, at most (a seeded sample)
    #[arg(long, default_value_t = DEFAULT_MAX_EXAMPLES, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(MIN_EXAMPLES as u64..=MAX_WHOLE))]
    pub max_examples: usize,
    /// The share of each question's annotated examples held out: never fitted on; the gate and the figures are on them. 0 (the default): every example is fitted, and the gate and the figures are out of fold
    #[arg(long, default_value_t = DEFAULT_HOLDOUT, value_name = "FRACTION", value_parser = holdout)]
    pub holdout: f64,
    /// Folds of the seeded cross-validation (stratified from 100 examples on) that chooses each head's strength and gives the figures
    #[arg(long, default_value_t = DEFAULT_FOLDS, value_name = "K",
          value_parser = RangedU64ValueParser::<usize>::new().range(*FOLDS_RANGE.start() as u64..=*FOLDS_RANGE.end() as u64))]
    pub folds: usize,
    /// Also measure each question's learning curve: out-of-fold accuracy and log loss at 8, 16, 32, … annotated examples, against zero-shot and the majority answer
    #[arg(long)]
    pub curve: bool,
    /// Correct each choice and score question without annotations instead: remove each outcome's average pull over the model's captured states (at most --max-examples); nouls are left as they are
    #[arg(long)]
    pub unsupervised: bool,
    /// Do not fine-tune the encoder. By default an alignment on `mo` with 16 annotated states or more also fine-tunes its top layer on pairs of them (`SetFit`), kept where cross-validation says the questions' choices do better on it, for two to six times the time
    #[arg(long, overrides_with = "tune")]
    pub no_tune: bool,
    /// Fine-tune the encoder (the default; what --no-tune turns off)
    #[arg(long, overrides_with = "no_tune", hide = true)]
    pub tune: bool,
    /// The most calls to a remote engine it may make (one per annotated example whose answers are not cached). Past it the alignment stops and commits nothing; the answers it got stay cached, so running it again asks only the rest
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<u64>::new().range(1..=MAX_WHOLE))]
    pub budget: Option<u64>,
    /// Improve each question's instructions instead of fitting heads: demonstrations chosen from its annotated examples (the best of 8 seeded sets by accuracy through the engine on the examples each leaves out), written into its instructions in questions.yaml, your text and comments kept
    #[arg(long, conflicts_with = "unsupervised")]
    pub instructions: bool,
    /// Print what the alignment would ask of the engine (the calls to a remote engine, and the answers already cached) and stop there: nothing is asked, nothing runs
    #[arg(long, conflicts_with_all = ["detach", "cancel_on_interrupt"])]
    pub dry_run: bool,
    /// Print the job ID (the job with --json) and return at once; the job runs in a background process (or on the server)
    #[arg(long)]
    pub detach: bool,
    /// With --server, when not on a terminal: cancel the server's job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)
    #[arg(long)]
    pub cancel_on_interrupt: bool,
}

/// `--margin`: the ranges are the request's (`AlignmentRequest`), refused here as usage errors.
fn margin(text: &str) -> Result<f64, String> {
    values::number_in(text, &(0.0..1.0), "from 0 up to 1 (a relative gain)")
}

/// `--holdout`.
fn holdout(text: &str) -> Result<f64, String> {
    let within = format!(
        "from {} (none) to {}",
        HOLDOUT_RANGE.start(),
        HOLDOUT_RANGE.end()
    );
    values::number_in(text, &HOLDOUT_RANGE, &within)
}

pub(crate) async fn run(
    service: &dyn Service,
    args: AlignArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let request = AlignmentRequest {
        revision: args.revision,
        questions: args.questions,
        seed: args.seed,
        margin: args.margin,
        max_examples: args.max_examples,
        holdout: args.holdout,
        folds: args.folds,
        curve: args.curve,
        unsupervised: args.unsupervised,
        tune: !args.no_tune,
        budget: args.budget,
        instructions: args.instructions,
    }
    .checked()
    .map_err(crate::error::Error::from)?;
    let model = service.model_named(&args.model).await?;
    // What it will ask of a remote engine, said before it is spent.
    let plan = service
        .model(&model)
        .await?
        .plan_alignment(&request)
        .await?;
    if args.dry_run {
        return print_plan(&plan, &args.model, printer);
    }
    if let Some(calls) = &plan.engine_calls {
        printer.status(&calls_in_words(calls, "will make"));
    }
    let created = service
        .create_job(&model, JobRequest::Alignment(request))
        .await?;
    note_replayed(&created, printer);
    let job = created.job;
    if args.detach {
        return detach(service, &job, printer, "alignment").await;
    }
    let followed = watch(service, &job, printer, args.cancel_on_interrupt).await;
    let (job, interrupted) = match followed? {
        Followed::Ended { job, interrupted } => (job, interrupted),
        Followed::Left(job) => return Ok(left_running(&job, printer)),
    };
    if interrupted && job.status == JobStatus::Cancelled {
        printer.status(&format!("alignment {} cancelled", job.job_id));
        return Ok(ExitCode::from(130));
    }
    print_alignment(&job, &args.model, printer)?;
    if job.status == JobStatus::Completed {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(finish_status(&job, FailedItems::NONE, printer))
    }
}

/// `--dry-run`: the plan, as JSON when piped, else in words.
fn print_plan(plan: &AlignmentPlan, model: &str, printer: &Printer) -> Result<ExitCode> {
    if printer.wants_json() {
        printer.json(plan)?;
    } else {
        printer.line(&match &plan.engine_calls {
            Some(calls) => format!(
                "aligning {model} at {} {}",
                short_commit(&plan.base_checkpoint),
                calls_in_words(calls, "would make")
            ),
            None => format!(
                "aligning {model} at {} would make no remote engine call: its base model is \
                 answered here by the {}",
                short_commit(&plan.base_checkpoint),
                plan.engine
            ),
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `64 calls to engine `gpu` (12 of 76 answers cached)`, after `verb`.
fn calls_in_words(calls: &EngineCalls, verb: &str) -> String {
    format!(
        "{verb} {} call{} to engine `{}` ({} of {} answers cached)",
        calls.calls,
        if calls.calls == 1 { "" } else { "s" },
        calls.engine,
        calls.cached,
        calls.answers
    )
}

/// A finished alignment: JSON (the job) when piped, else a table of the figures.
pub(crate) fn print_alignment(job: &Job, model: &str, printer: &Printer) -> Result<()> {
    if printer.wants_json() {
        printer.json(job)?;
        return Ok(());
    }
    let Some(JobResult::Alignment(result)) = &job.result else {
        return Ok(());
    };
    printer.table(&alignment_table(result))?;
    // What became of each question, whole, below the table (a cell was cut to
    // "improved: multino…" on a narrow terminal).
    for (id, report) in &result.questions {
        let candidate = report.candidate.as_deref().unwrap_or("-");
        printer.wrapped(&match (report.improved, report.states) {
            // The candidate names the captured states it was corrected on.
            (true, Some(_)) => format!("{id} corrected: {candidate}"),
            (true, None) => format!("{id} improved: {candidate}"),
            (false, _) => format!(
                "{id} unchanged: {}",
                report.reason.as_deref().unwrap_or("no reason recorded")
            ),
        })?;
    }
    if let Some(calls) = &result.engine_calls {
        printer.wrapped(&calls_in_words(calls, "made"))?;
    }
    if let Some(tuning) = &result.tuning {
        printer.wrapped(&if tuning.steps == 0 {
            format!("encoder not fine-tuned: {}", tuning.reason)
        } else {
            format!(
                "fine-tuned encoder ({} states, {} steps): {}",
                tuning.examples, tuning.steps, tuning.reason
            )
        })?;
    }
    for (id, report) in &result.questions {
        if let Some(curve) = &report.curve {
            print_curve(id, curve, printer)?;
        }
    }
    let on = if result.questions.values().any(|q| q.held_out > 0) {
        "the held-out examples, which eval scores by default"
    } else {
        "every fitted example out of fold (answered by a head fitted without it), as eval \
         reports them"
    };
    match (&result.branch, &result.checkpoint) {
        (Some(branch), Some(checkpoint)) => printer.status(&format!(
            "new checkpoint {} on {branch} (parent {})\n\
             figures are on {on}\n\
             compare: arbiter eval {model} --revision {branch} --baseline {}\n\
             promote: arbiter models promote {model} {branch}",
            short_commit(&checkpoint.checkpoint_id),
            short_commit(&result.base_checkpoint),
            short_commit(&result.base_checkpoint),
        )),
        _ => printer.status(&format!("no question improved on {on}: nothing committed")),
    }
    Ok(())
}

/// One row per question: its figures before and after, and what became of it.
fn alignment_table(result: &AlignmentResult) -> Table {
    let mut table = Table::new(vec![
        Column::whole("Question").always(),
        Column::number("Fitted").priority(2),
        Column::number("Held Out").priority(3),
        Column::whole("Metric").priority(2),
        Column::number("Before").priority(4),
        Column::number("After").priority(5),
        Column::number("Accuracy").priority(4),
        Column::number("ECE").priority(3),
        Column::text("Result").priority(6),
    ]);
    for (id, report) in &result.questions {
        let (metric, before, after, accuracy, ece) = match (&report.before, &report.after) {
            (Some(b), Some(a)) => (
                b.metric.clone(),
                format!("{:.3}", b.loss),
                format!("{:.3}", a.loss),
                format!("{:.3} → {:.3}", b.accuracy, a.accuracy),
                format!("{:.3} → {:.3}", b.ece, a.ece),
            ),
            _ => ("-".into(), "-".into(), "-".into(), "-".into(), "-".into()),
        };
        // The candidate and the reason go below the table, where no width cuts them.
        let outcome = match (report.improved, report.states) {
            (true, Some(_)) => "corrected",
            (true, None) => "improved",
            (false, _) => "unchanged",
        }
        .to_owned();
        table.row(vec![
            id.clone(),
            report.fitted.to_string(),
            report.held_out.to_string(),
            metric,
            before,
            after,
            accuracy,
            ece,
            outcome,
        ]);
    }
    table
}

/// Width of a curve's bars, in characters, for accuracy 1.
const BAR: usize = 40;

/// A question's learning curve: a table of its points, each with a bar of its accuracy
/// (`┆` marks zero-shot's), then the reference lines.
fn print_curve(id: &str, curve: &Curve, printer: &Printer) -> Result<()> {
    let mut table = Table::new(vec![
        Column::number("Annotated").always(),
        Column::number("Accuracy").always(),
        Column::number("95% Interval").priority(4),
        Column::number("Log Loss").priority(3),
        Column::text("").priority(2),
    ]);
    let at = |accuracy: f64| ((accuracy.clamp(0.0, 1.0) * BAR as f64).round()) as usize;
    let mark = at(curve.zero_shot.accuracy);
    for point in &curve.points {
        let filled = at(point.accuracy);
        let mut bar: String = "█".repeat(filled);
        if mark > filled {
            bar.push_str(&" ".repeat(mark - filled - 1));
            bar.push('┆');
        }
        table.row(vec![
            point.examples.to_string(),
            format!("{:.3}", point.accuracy),
            point.interval.map_or_else(
                || "-".to_owned(),
                |[low, high]| format!("{low:.3}–{high:.3}"),
            ),
            format!("{:.3}", point.log_loss),
            bar,
        ]);
    }
    printer.status(&format!(
        "\nlearning curve of {id} (out of fold): zero-shot {:.3} (┆), majority {:.3}",
        curve.zero_shot.accuracy, curve.majority.accuracy
    ));
    printer.table(&table)?;
    if let Some(words) = curve_in_words(curve) {
        printer.wrapped(&words)?;
    }
    Ok(())
}

/// What a curve says of more labels, in words: still rising (and about how many more the
/// next step takes: as many again as it has), or flat.
fn curve_in_words(curve: &Curve) -> Option<String> {
    let learning = crate::wire::to_annotate::Learning::of(&curve.points)?;
    let n = learning.examples;
    Some(if learning.rising {
        format!(
            "still rising: {:+.1} points of accuracy per doubling of the labels; the next \
             step takes about {n} more (to {})",
            learning.gain * 100.0,
            n * 2
        )
    } else {
        format!(
            "flat at {n} labels ({:+.1} points over the last doubling): more labels of the \
             same kind are unlikely to move it much",
            learning.gain * 100.0
        )
    })
}

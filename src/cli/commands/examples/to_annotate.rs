//! `arbiter examples next`: which examples to annotate next, as a table on a terminal (JSON
//! when piped), ranked by the model's uncertainty with a random audit share.

use crate::cli::input::{read_questions_file, values};
use crate::cli::output::table::{Column, Table};
use crate::cli::output::{Printer, score_cell};
use crate::core::service::Service;
use crate::wire::answer::Answer;
use crate::wire::to_annotate::{
    DEFAULT_AUDIT, DEFAULT_N, DEFAULT_POOL, MAX_N, MAX_POOL, MAX_SEED, ToAnnotate, ToAnnotateQuery,
    Why,
};
use anyhow::Result;
use clap::Args;
use clap::builder::RangedU64ValueParser;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ExamplesNextArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// Only examples not yet annotated for this question [default: missing any question, each ranked by its least certain]
    #[arg(long)]
    pub question: Option<String>,
    /// How many examples to pick (1 to 1000)
    #[arg(long = "count", short = 'n', value_name = "N", default_value_t = DEFAULT_N,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_N as u64))]
    pub n: usize,
    /// The checkpoint to decide at: branch, tag or commit SHA [default: the default branch]
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,
    /// The share of the picks drawn at random from the other candidates, to keep the annotated examples a fair sample (0 to 1)
    #[arg(long, default_value_t = DEFAULT_AUDIT, value_name = "FRACTION", value_parser = values::fraction)]
    pub audit: f64,
    /// Seed of the audit draw: the same candidates and seed draw the same examples
    #[arg(long, default_value_t = 0,
          value_parser = RangedU64ValueParser::<u64>::new().range(0..=MAX_SEED))]
    pub seed: u64,
    /// Candidates to decide and rank, at most: the most recently created unannotated examples (1 to 5000)
    #[arg(long, default_value_t = DEFAULT_POOL,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_POOL as u64))]
    pub pool: usize,
    /// A questions file not committed (YAML or JSON), deciding the candidates as a working copy on top of --revision: a question unchanged from the revision's keeps its learned parameters, a changed or new one is zero-shot
    #[arg(long, value_name = "FILE")]
    pub questions_file: Option<PathBuf>,
}

pub(crate) async fn next(
    service: &dyn Service,
    args: ExamplesNextArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let working = read_questions_file(args.questions_file.as_deref())?;
    let query = ToAnnotateQuery {
        question: args.question,
        n: args.n,
        revision: args.revision,
        audit: args.audit,
        seed: args.seed,
        pool: args.pool,
    };
    let model = service.model_named(&args.model).await?;
    let picked = service
        .model(&model)
        .await?
        .examples_to_annotate(&query, working.as_ref())
        .await?;
    if printer.wants_json() {
        printer.json(&picked)?;
    } else {
        print_table(&picked, args.questions_file.as_deref(), printer)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(picked: &ToAnnotate, file: Option<&Path>, printer: &Printer) -> Result<()> {
    if picked.examples.is_empty() {
        printer.line("no examples to annotate")?;
    } else {
        let mut table = Table::new(vec![
            Column::whole("Example").always(),
            Column::whole("Question").priority(5),
            Column::whole("Why").priority(3),
            Column::number("Margin").priority(4),
            Column::text("Guess").priority(2),
        ]);
        for item in &picked.examples {
            let question = if item.question.is_empty() {
                "\"\"".to_owned()
            } else {
                item.question.clone()
            };
            table.row(vec![
                item.example_id.to_string(),
                question,
                item.why.as_str().to_owned(),
                format!("{:.3}", item.margin),
                predicted(&item.answer),
            ]);
        }
        printer.table(&table)?;
    }
    let revision = &picked.revision;
    let mut counts = format!(
        "{} unannotated, {} scored, {} cached",
        picked.unannotated, picked.scored, picked.cached,
    );
    if picked.failed > 0 {
        let _ = write!(counts, ", {} failed", picked.failed);
    }
    let audited = picked
        .examples
        .iter()
        .filter(|item| item.why == Why::Audit)
        .count();
    // A working copy's guesses are labelled so: they are not the commit's.
    let name = match (&picked.working_copy, file) {
        (Some(working), Some(file)) => {
            format!("working copy of {} ({})", working.of, file.display())
        }
        (Some(working), None) => format!("working copy of {}", working.of),
        (None, _) => revision.name.clone(),
    };
    printer.footer(&[
        format!(
            "{name} ({})",
            &revision.commit[..revision.commit.len().min(12)]
        ),
        counts,
        format!("{audited} audit (seed {})", picked.seed),
    ]);
    if let Some(line) = learning_line(picked) {
        printer.status(&line);
    }
    Ok(())
}

/// What the recorded learning curves say, when one has flattened: its questions are asked
/// about only where no question still learning is open.
fn learning_line(picked: &ToAnnotate) -> Option<String> {
    if picked.learning.values().all(|l| l.rising) {
        return None;
    }
    let each: Vec<String> = picked
        .learning
        .iter()
        .map(|(id, l)| {
            format!(
                "{id} {} ({:+.1} points per doubling at {})",
                if l.rising { "rising" } else { "flat" },
                100.0 * l.gain,
                l.examples
            )
        })
        .collect();
    Some(format!(
        "learning curves: {} · flat ones come after",
        each.join(", ")
    ))
}

/// The answer as it would be annotated ([`Answer::most_likely`]): noul `true`/`false`, the
/// option key; a score as every table shows it, its most likely level with its probability
/// beside its expected level. (A noul's or a choice's probability is left to the margin, to
/// keep the table narrow.)
fn predicted(answer: &Answer) -> String {
    if let Some(cell) = score_cell(answer) {
        return cell;
    }
    match (answer, answer.most_likely()) {
        (Answer::Noul { .. }, Some((outcome, _))) => (outcome == 0).to_string(),
        (Answer::Choice { probabilities, .. }, Some((option, _))) => probabilities
            .get_index(option)
            .map_or_else(String::new, |(key, _)| key.clone()),
        _ => "(no options)".to_owned(),
    }
}

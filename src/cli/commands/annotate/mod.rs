//! `arbiter annotate <model>` (also `arbiter examples annotate <model> --interactive`):
//! annotation in a keystroke. Examples come in `examples next` order, each claimed for the
//! annotator while it is shown ([`crate::core::claims`]); per question the model's guess is
//! shown with its probabilities, and every answer is written the moment it is given.
//!
//! The pieces: the key handling as a state machine with no terminal (`flow.rs`), the
//! full-screen view on a terminal (`screen.rs`, ratatui on crossterm), and line mode when
//! stdout is not a terminal (`line.rs`). This module carries out what the flow asks for,
//! through the [`Service`](crate::core::service::Service), locally or against a server alike.

mod flow;
mod line;
mod screen;
mod state;

use crate::cli::Target;
use crate::cli::commands::examples::{AnnotatorArg, ChoiceArgs, annotated_line};
use crate::cli::input::values;
use crate::cli::output::Printer;
use crate::cli::output::ranking::ranking;
use crate::core::service::{AnnotateRequest, Annotator, ClaimNext, ModelService};
use crate::error::Error;
use crate::ids::ExampleId;
use crate::store::Chosen;
use crate::wire::agreement::AgreementReport;
use crate::wire::to_annotate::{DEFAULT_AUDIT, DEFAULT_POOL, MAX_POOL, MAX_SEED, ToAnnotateQuery};
use anyhow::Result;
use clap::Args;
use clap::builder::RangedU64ValueParser;
use flow::{Effect, Flow, Outcome};
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Keys: Enter or a accepts the model's guess; 1-9 pick an option (0-9 a score's level); y/n answer a noul; s skips the question, S the rest of the example; u undoes the last answer; r adds a reason to the next answer; q or Ctrl-C quits. Every answer is written at once.\n\nWhen stdout is not a terminal, one question is asked per line and one answer read per line of stdin, with the same keys (r TEXT for a reason; an empty line accepts).\n\nExamples:\n  arbiter annotate acme/support\n  arbiter annotate acme/support --question intent --audit 0\n  arbiter annotate acme/support --exclude held-out.txt\n  arbiter annotate acme/support --ids ex_1,ex_2"
)]
pub struct AnnotateArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    #[command(flatten)]
    pub order: OrderArgs,
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub annotator: AnnotatorArg,
}

/// Which examples, in which order: as `examples next` ranks them.
#[derive(Debug, Args)]
pub struct OrderArgs {
    /// Only examples not yet annotated for this question, and only it asked [default: every question the example is not annotated for]
    #[arg(long)]
    pub question: Option<String>,
    /// The checkpoint whose guesses are shown and whose uncertainty orders the examples: branch, tag or commit SHA [default: the default branch]
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,
    /// The share of examples drawn at random instead of by uncertainty (0 to 1); these are not held for one annotator, so that several answer them and their agreement is measured
    #[arg(long, default_value_t = DEFAULT_AUDIT, value_name = "FRACTION", value_parser = values::fraction)]
    pub audit: f64,
    /// Seed of the audit draw
    #[arg(long, default_value_t = 0,
          value_parser = RangedU64ValueParser::<u64>::new().range(0..=MAX_SEED))]
    pub seed: u64,
    /// Candidates to decide and rank, at most: the most recently created unannotated examples (1 to 5000)
    #[arg(long, default_value_t = DEFAULT_POOL,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_POOL as u64))]
    pub pool: usize,
}

impl OrderArgs {
    /// The defaults, asking only `question` when given.
    pub(crate) fn only(question: Option<String>) -> Self {
        Self {
            question,
            revision: None,
            audit: DEFAULT_AUDIT,
            seed: 0,
            pool: DEFAULT_POOL,
        }
    }

    fn query(&self) -> ToAnnotateQuery {
        ToAnnotateQuery {
            question: self.question.clone(),
            revision: self.revision.clone(),
            audit: self.audit,
            seed: self.seed,
            pool: self.pool,
            ..ToAnnotateQuery::default()
        }
    }
}

pub(crate) async fn run(
    target: &Target,
    args: AnnotateArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let annotator = args.annotator.resolve(target)?;
    let service = target.service();
    let model = service.model_named(&args.model).await?;
    let mut session = Session {
        model: service.model(&model).await?,
        path: args.model.clone(),
        query: args.order.query(),
        only: args.choice.ids.clone(),
        except: args.choice.excluded()?,
        annotator,
        agreement: String::new(),
    };
    // The first example is claimed before the screen opens: a model that cannot be
    // annotated is an error on stderr, with its exit code.
    let on_screen = std::io::stdout().is_terminal();
    let (mut flow, first) = Flow::start();
    // The first time, every candidate is decided: seconds to minutes on a large pool.
    let outcome = ranking(printer, session.perform(&flow, &first)).await?;
    flow.done(&first, outcome);
    if on_screen {
        screen::run(&mut session, &mut flow).await?;
        printer.status(&summary(&flow));
    } else {
        line::run(&mut session, &mut flow).await?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What the flow did, in one line.
fn summary(flow: &Flow) -> String {
    format!(
        "answered {}, skipped {}; {} examples left to annotate",
        flow.answered, flow.skipped, flow.progress.left
    )
}

/// The flow's effects carried out on one model through the service.
pub(crate) struct Session<'a> {
    model: Box<dyn ModelService + 'a>,
    /// The model as named on the command line.
    path: String,
    query: ToAnnotateQuery,
    /// `--ids`: only these examples.
    only: Option<Vec<String>>,
    /// `--exclude`: never these.
    except: Vec<String>,
    annotator: Annotator,
    /// How far annotators agree so far, in a few words (read after each example).
    agreement: String,
}

impl Session<'_> {
    /// Carry `effect` out; the flow hears how it went.
    async fn perform(&mut self, flow: &Flow, effect: &Effect) -> crate::error::Result<Outcome> {
        match effect {
            Effect::Write {
                example_id,
                question,
                answer,
                reasoning,
            } => {
                let annotation = self
                    .model
                    .annotate(AnnotateRequest {
                        example_id: &ExampleId::from(example_id.as_str()),
                        question_id: question.clone(),
                        answer: answer.clone(),
                        reasoning: reasoning.clone(),
                        annotator: self.annotator.clone(),
                    })
                    .await?;
                Ok(Outcome::Written(annotated_line(
                    example_id.as_str(),
                    question,
                    &annotation,
                )))
            }
            Effect::Undo {
                example_id,
                question,
                release,
            } => {
                if let Some(id) = release {
                    self.release(id).await?;
                }
                let id = ExampleId::from(example_id.as_str());
                self.model
                    .unannotate(&id, question, self.annotator.clone())
                    .await?;
                Ok(Outcome::Undone)
            }
            Effect::Next { release } => {
                if let Some(id) = release {
                    self.release(id).await?;
                }
                let next = self
                    .model
                    .claim_next(ClaimNext {
                        query: &self.query,
                        skip: &flow.seen,
                        chosen: Chosen {
                            only: self.only.as_deref(),
                            except: &self.except,
                        },
                        annotator: self.annotator.clone(),
                        deadline: None,
                    })
                    .await?;
                self.agreement = match self.model.annotation_agreement(None).await {
                    Ok(report) => agreement(&report),
                    Err(_) => "agreement unknown".to_owned(),
                };
                Ok(Outcome::Next(Box::new(next)))
            }
            Effect::Quit { release } => {
                if let Some(id) = release {
                    self.release(id).await?;
                }
                Ok(Outcome::Quit)
            }
        }
    }

    async fn release(&self, example_id: &ExampleId) -> crate::error::Result<()> {
        self.model
            .release_claim(example_id, self.annotator.clone())
            .await
    }

    /// Carry `effect` out, and whatever the flow asks for next, until it asks for nothing
    /// or one fails (its reason is then the flow's message).
    async fn drive(&mut self, flow: &mut Flow, effect: Effect) {
        let mut next = Some(effect);
        while let Some(effect) = next.take() {
            match self.perform(flow, &effect).await {
                Ok(outcome) => next = flow.done(&effect, outcome),
                Err(error) => flow.failed(&effect, &reason(&error)),
            }
        }
    }
}

/// An error in one line, with each located detail (a refused answer says why).
fn reason(error: &Error) -> String {
    let mut text = error.to_string();
    for detail in error.details() {
        if !text.contains(&detail.msg) {
            text.push_str(": ");
            text.push_str(&detail.msg);
        }
    }
    text
}

/// The agreement so far, in a few words: the mean kappa over the questions that have one.
fn agreement(report: &AgreementReport) -> String {
    let kappas: Vec<f64> = report.questions.values().filter_map(|q| q.kappa).collect();
    if kappas.is_empty() {
        let shared: u64 = report.questions.values().map(|q| q.shared_examples).sum();
        return if shared == 0 {
            "agreement: no example shared yet".to_owned()
        } else {
            "agreement: not measurable yet".to_owned()
        };
    }
    #[allow(clippy::cast_precision_loss)] // a handful of questions
    let mean = kappas.iter().sum::<f64>() / kappas.len() as f64;
    format!("agreement κ {mean:.2}")
}

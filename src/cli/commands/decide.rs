//! `arbiter decide`: answer questions about a state.

use crate::cli::input::{read_json, read_yaml};
use crate::cli::output::reading;
use crate::cli::output::table::{Column, Table};
use crate::cli::output::{Printer, prob, score_cell};
use crate::core::service::Service;
use crate::wire::{Answer, DecisionRequest, DecisionResponse};
use anyhow::{Result, bail};
use clap::Args;
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter decide --model jev-latest --questions questions.yaml --state state.json\n  arbiter decide --model acme/support --revision v1 --state - --no-capture < state.json\n  arbiter decide --request request.json --json"
)]
pub struct DecideArgs {
    /// A base model name (mo, mo-reasoning, jev-latest, ...), a repository model <owner>/<model>, or a model repository's checkout (a directory: ., ./path or /path), run on here with no home: its work tree (or --revision)
    #[arg(long, short, required_unless_present = "request")]
    pub model: Option<String>,
    /// The state to evaluate: a JSON file, or - for stdin
    #[arg(long, short, value_name = "FILE", required_unless_present = "request")]
    pub state: Option<PathBuf>,
    /// Questions: a YAML or JSON file of question ID -> question (override saved ones of a repository model)
    #[arg(long, short, value_name = "FILE")]
    pub questions: Option<PathBuf>,
    /// A whole POST /v1/decision body (JSON file or -); the other options override its fields
    #[arg(long, short, value_name = "FILE")]
    pub request: Option<PathBuf>,
    /// Branch, tag or commit SHA of a repository model [default: its default branch]
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,
    /// Record the decision under this example ID [default: derived from the state]
    #[arg(long, value_name = "ID")]
    pub example_id: Option<String>,
    /// Do not record the example and decision
    #[arg(long)]
    pub no_capture: bool,
    /// Read only the first tokens of a state longer than the model reads, instead of
    /// refusing it (`state_too_large`)
    #[arg(long)]
    pub truncate: bool,
}

pub(crate) async fn run(
    service: &dyn Service,
    args: DecideArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let request =
        DecisionRequest::read(&request_body(&args)?).map_err(crate::error::Error::from)?;
    let response = reading::decide(service, &request, printer).await?;
    if printer.wants_json() {
        printer.json(&response)?;
    } else {
        print_table(&response, printer)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The request body: `--request` if given, with each option overriding its member.
fn request_body(args: &DecideArgs) -> Result<Value> {
    let stdin_users = [&args.state, &args.questions, &args.request]
        .iter()
        .filter(|p| p.as_deref() == Some(std::path::Path::new("-")))
        .count();
    if stdin_users > 1 {
        bail!("only one of --state, --questions and --request can read stdin (-)");
    }
    let mut body = match &args.request {
        Some(path) => match read_json(path)? {
            Value::Object(object) => object,
            _ => bail!("{}: a request must be a JSON object", path.display()),
        },
        None => Map::new(),
    };
    if let Some(model) = &args.model {
        body.insert("model".into(), Value::String(model.clone()));
    }
    if let Some(path) = &args.state {
        body.insert("state".into(), read_json(path)?);
    }
    if let Some(path) = &args.questions {
        body.insert("questions".into(), read_yaml(path)?);
    }
    if let Some(revision) = &args.revision {
        body.insert("revision".into(), Value::String(revision.clone()));
    }
    if let Some(id) = &args.example_id {
        body.insert("example_id".into(), Value::String(id.clone()));
    }
    if args.no_capture {
        body.insert("capture".into(), Value::Bool(false));
    }
    if args.truncate {
        body.insert("truncate".into(), Value::Bool(true));
    }
    Ok(Value::Object(body))
}

fn print_table(response: &DecisionResponse, printer: &Printer) -> Result<()> {
    let mut table = Table::new(vec![
        Column::whole("Question").always(),
        Column::whole("Type").priority(2),
        Column::text("Answer").priority(5),
        Column::number("Confidence").priority(4),
        Column::text("Probabilities").priority(3),
    ]);
    for (id, answer) in &response.answers {
        let (shown, confidence, probabilities) = describe(answer);
        let id = if id.is_empty() {
            "\"\"".to_owned()
        } else {
            id.clone()
        };
        table.row(vec![
            id,
            answer.type_name().to_owned(),
            shown,
            confidence,
            probabilities,
        ]);
    }
    printer.table(&table)?;
    let mut model = format!("model {}", response.model);
    if let (Some(revision), Some(checkpoint)) = (&response.revision, &response.checkpoint) {
        let _ = write!(
            model,
            " @ {} ({})",
            revision.name,
            &checkpoint.checkpoint_id[..checkpoint.checkpoint_id.len().min(12)]
        );
    }
    let mut footer = vec![
        model,
        format!("{} input tokens", response.usage.input_tokens),
    ];
    match (&response.recorded, &response.example) {
        (Some(true), Some(example)) => {
            footer.push(format!("recorded under {}", example.example_id));
        }
        (Some(false), _) => footer.push("not recorded".to_owned()),
        _ => {}
    }
    printer.footer(&footer);
    Ok(())
}

/// The answer, its confidence and its top probabilities, as table cells.
fn describe(answer: &Answer) -> (String, String, String) {
    match answer {
        // Beside the word, the probability of what it says (it showed P(true) beside
        // `false`, which read as a confident false).
        Answer::Noul { noul, .. } => (
            if *noul >= 0.5 {
                format!("true ({})", prob(*noul))
            } else {
                format!("false ({})", prob(1.0 - noul))
            },
            prob((2.0 * noul - 1.0).abs()),
            format!("true {}  false {}", prob(*noul), prob(1.0 - noul)),
        ),
        Answer::Choice {
            choice,
            probabilities,
            confidence,
            ..
        } => (
            choice.clone().unwrap_or_else(|| "(no options)".into()),
            confidence_cell(*confidence),
            top(probabilities.iter().map(|(k, p)| (k.as_str(), *p))),
        ),
        Answer::Score {
            probabilities,
            confidence,
            ..
        } => (
            score_cell(answer).unwrap_or_default(),
            confidence_cell(*confidence),
            top(probabilities.iter().map(|(k, p)| (k.as_str(), *p))),
        ),
    }
}

/// A choice's or score's confidence; none at all is said in words, since `0.000` read as a
/// figure that failed to compute: the probabilities are spread so that no option or level
/// stands out from the rest (a score's often are, out of the box).
fn confidence_cell(confidence: f64) -> String {
    if confidence < 0.0005 {
        "0 (spread)".to_owned()
    } else {
        prob(confidence)
    }
}

fn top<'a>(probabilities: impl Iterator<Item = (&'a str, f64)>) -> String {
    let mut sorted: Vec<(&str, f64)> = probabilities.collect();
    // Stable sort keeps option order among equal probabilities.
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
    sorted
        .iter()
        .take(3)
        .map(|(k, p)| format!("{k} {}", prob(*p)))
        .collect::<Vec<_>>()
        .join("  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_noul_shows_the_probability_of_the_word_it_shows() {
        let noul = |p: f64| Answer::Noul {
            noul: p,
            x_option_mass: None,
            x_abstain: None,
        };
        // It showed `false (0.384)`: P(true) beside the word false.
        assert_eq!(describe(&noul(0.384)).0, "false (0.616)");
        assert_eq!(describe(&noul(0.612)).0, "true (0.612)");
        assert_eq!(describe(&noul(0.5)).0, "true (0.500)");
        assert_eq!(describe(&noul(0.384)).2, "true 0.384  false 0.616");
    }

    #[test]
    fn no_confidence_at_all_is_said_in_words() {
        let answer: Answer = serde_json::from_value(serde_json::json!({
            "type": "score", "score": 1.0, "legend": {"0": "low", "1": "mid", "2": "high"},
            "probabilities": {"0": 0.34, "1": 0.33, "2": 0.33}, "confidence": 0.0
        }))
        .unwrap();
        assert_eq!(describe(&answer).1, "0 (spread)");
        assert_eq!(confidence_cell(0.0004), "0 (spread)");
        assert_eq!(confidence_cell(0.42), "0.420");
    }
}

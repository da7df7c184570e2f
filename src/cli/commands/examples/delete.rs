//! `arbiter examples delete`: forget examples, with everything recorded of them.

use crate::cli::output::Printer;
use crate::core::service::Service;
use crate::ids::ExampleId;
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter examples delete acme/support ticket-4711\n  arbiter examples list acme/support --json | jq -r '.examples[].example_id' | xargs arbiter examples delete acme/support"
)]
pub struct ExamplesDeleteArgs {
    /// The model path, <owner>/<model>
    pub model: String,
    /// Whole example IDs (no prefixes): each is deleted with its decisions, annotations and its state in the model's jobs' inputs; all or none
    #[arg(required = true, value_name = "EXAMPLE_ID")]
    pub example_ids: Vec<String>,
}

pub(super) async fn delete(
    service: &dyn Service,
    args: &ExamplesDeleteArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let model = service.model_named(&args.model).await?;
    let ids: Vec<ExampleId> = args
        .example_ids
        .iter()
        .map(|id| ExampleId::from(id.as_str()))
        .collect();
    service.model(&model).await?.delete_examples(&ids).await?;
    for id in &args.example_ids {
        printer.status(&format!("deleted example {id} of {}", args.model));
    }
    if printer.wants_json() {
        printer.json(&serde_json::json!({ "deleted": args.example_ids }))?;
    }
    Ok(ExitCode::SUCCESS)
}

//! `arbiter engines`: list the remote engines of config.yaml, and check that they answer.

use crate::cli::output::table::{Column, Table};
use crate::cli::output::{Printer, prob};
use crate::core::{self, Context};
use crate::wire::Answer;
use crate::wire::engines::EngineCheck;
use anyhow::Result;
use clap::{Args, Subcommand};
use std::fmt::Write as _;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct EnginesArgs {
    #[command(subcommand)]
    pub command: Option<EnginesCommand>,
}

#[derive(Debug, Subcommand)]
pub enum EnginesCommand {
    /// List the engines of config.yaml and the base models routed to each (the default)
    List,
    /// Call each engine once with a tiny decision: reachability, latency, valid answers.
    /// Exits 1 when any engine fails
    Check(EnginesCheckArgs),
}

#[derive(Debug, Args)]
pub struct EnginesCheckArgs {
    /// Check only these engines [default: every configured engine]
    #[arg(value_name = "ENGINE")]
    pub names: Vec<String>,
}

pub(crate) async fn run(ctx: &Context, args: EnginesArgs, printer: &Printer) -> Result<ExitCode> {
    match args.command.unwrap_or(EnginesCommand::List) {
        EnginesCommand::List => list(ctx, printer),
        EnginesCommand::Check(args) => check(ctx, &args, printer).await,
    }
}

fn list(ctx: &Context, printer: &Printer) -> Result<ExitCode> {
    let list = core::engines::list(ctx);
    if printer.wants_json() {
        printer.json(&list)?;
        return Ok(ExitCode::SUCCESS);
    }
    if list.engines.is_empty() {
        printer.status(&format!(
            "no engines configured in {}; every base model uses the built-in engine",
            ctx.settings().home.join("config.yaml").display()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(vec![
        Column::whole("Engine").always(),
        Column::whole("Kind").priority(4),
        Column::text("Model").priority(3),
        Column::text("URL").priority(2),
        Column::whole("API Key").priority(5),
        Column::number("In Flight").priority(1),
        Column::text("Base Models").priority(3),
    ]);
    for engine in &list.engines {
        let key = match (&engine.api_key_env, engine.api_key_set) {
            (Some(var), true) => format!("{var} (set)"),
            (Some(var), false) => format!("{var} (NOT SET)"),
            (None, _) => "-".to_owned(),
        };
        table.row(vec![
            engine.name.clone(),
            engine.kind.clone(),
            engine.model.clone(),
            engine.url.clone(),
            key,
            engine.max_in_flight.to_string(),
            engine.models.join(", "),
        ]);
    }
    printer.table(&table)?;
    Ok(ExitCode::SUCCESS)
}

async fn check(ctx: &Context, args: &EnginesCheckArgs, printer: &Printer) -> Result<ExitCode> {
    let checks = core::engines::check(ctx, &args.names).await?;
    if printer.wants_json() {
        printer.json(&checks)?;
    } else if checks.engines.is_empty() {
        printer.status("no engines configured in config.yaml: nothing to check");
    } else {
        let mut table = Table::new(vec![
            Column::whole("Engine").always(),
            Column::whole("Kind").priority(2),
            Column::text("URL").priority(3),
            Column::whole("Result").priority(6),
            Column::number("Latency").priority(4),
            Column::text("Detail").priority(5),
        ]);
        for engine in &checks.engines {
            table.row(vec![
                engine.name.clone(),
                engine.kind.clone(),
                engine.url.clone(),
                if engine.ok {
                    "ok".to_owned()
                } else {
                    engine.code.clone().unwrap_or_default()
                },
                format!("{:.0} ms", engine.latency_ms),
                detail(engine),
            ]);
        }
        printer.table(&table)?;
    }
    Ok(if checks.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The answer for a passing engine, what went wrong otherwise.
fn detail(engine: &EngineCheck) -> String {
    if let Some(detail) = &engine.detail {
        let mut text = detail.clone();
        for located in &engine.details {
            let _ = write!(text, "\n{located}");
        }
        return text;
    }
    match engine.answers.as_ref().and_then(|a| a.values().next()) {
        Some(Answer::Choice {
            choice: Some(choice),
            probabilities,
            ..
        }) => format!(
            "answered {choice} ({})",
            prob(probabilities.get(choice).copied().unwrap_or_default())
        ),
        _ => "answered".to_owned(),
    }
}

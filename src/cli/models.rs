//! `arbiter models`: the models this home can answer with.

use super::output::Printer;
use crate::core::{self, Context};
use clap::Args;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ModelsArgs {}

pub(crate) fn run(
    ctx: &Context,
    _args: &ModelsArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let list = core::models::list(ctx)?;
    if printer.wants_json() {
        printer.json(&list)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = printer.new_table(&["Model", "Kind", "Engine"]);
    for model in &list.models {
        table.add_row(vec![
            model.name.clone(),
            serde_json::to_value(model.kind)?
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            model.engine.clone().unwrap_or_default(),
        ]);
    }
    printer.line(&table.to_string())?;
    Ok(ExitCode::SUCCESS)
}

//! `arbiter tokens`: create, list and revoke the server's API tokens.

use crate::cli::output::Printer;
use crate::cli::output::table::{Column, Table, timestamp};
use crate::core::tokens::{NewToken, Scope};
use crate::core::{self, Context};
use anyhow::Result;
use clap::{Args, Subcommand};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct TokensArgs {
    #[command(subcommand)]
    pub command: TokensCommand,
}

#[derive(Debug, Subcommand)]
pub enum TokensCommand {
    /// Create a token; its secret is printed once and never stored
    Create(TokensCreateArgs),
    /// List tokens (never their secrets)
    List,
    /// Revoke a token by name (idempotent)
    Revoke(TokensRevokeArgs),
}

#[derive(Debug, Args)]
pub struct TokensCreateArgs {
    /// A unique name, e.g. ci
    #[arg(long)]
    pub name: String,
    /// A scope (repeatable): decisions, models:read, examples:read, examples:write, batches, alignments
    #[arg(long = "scope", value_name = "SCOPE", value_parser = clap::builder::PossibleValuesParser::new(Scope::names()))]
    pub scopes: Vec<String>,
    /// A role on model paths (repeatable): PATTERN=reader|writer|admin, e.g. 'acme/*=reader'
    #[arg(long = "role", value_name = "PATTERN=ROLE")]
    pub roles: Vec<String>,
}

#[derive(Debug, Args)]
pub struct TokensRevokeArgs {
    /// The token's name
    pub name: String,
}

pub(crate) fn run(ctx: &Context, args: TokensArgs, printer: &Printer) -> Result<ExitCode> {
    match args.command {
        TokensCommand::Create(args) => {
            // Repository models are reached only through roles: a token without one is
            // refused (404) on every one of them, which is rarely what was meant.
            let reaches_no_model = args.roles.is_empty();
            let (record, secret) = core::tokens::create(
                ctx,
                &NewToken {
                    name: args.name,
                    scopes: args.scopes,
                    roles: args.roles,
                },
            )?;
            if printer.wants_json() {
                let mut value = serde_json::to_value(&record)?;
                value["token"] = serde_json::Value::String(secret);
                printer.json(&value)?;
            } else {
                printer.line(&secret)?;
                printer.status(&format!(
                    "created token `{}`; the secret above is shown only once",
                    record.name
                ));
            }
            if reaches_no_model {
                printer.status(&format!(
                    "warning: `{}` has no --role, so it reaches no repository model (only base \
                     models); give one, e.g. --role 'acme/*=reader'",
                    record.name
                ));
            }
        }
        TokensCommand::List => {
            let tokens = core::tokens::list(ctx)?;
            if printer.wants_json() {
                printer.json(&tokens)?;
            } else {
                let mut table = Table::new(vec![
                    Column::whole("Name").always(),
                    Column::whole("Token ID").priority(5),
                    Column::text("Scopes").priority(4),
                    Column::text("Roles").priority(3),
                    Column::time("Created").priority(1),
                    Column::time("Revoked").priority(2),
                ]);
                for token in &tokens {
                    table.row(vec![
                        token.name.clone(),
                        token.token_id.to_string(),
                        token.scopes.join(" "),
                        token.roles.join(" "),
                        timestamp(token.created_at),
                        token.revoked_at.map(timestamp).unwrap_or_default(),
                    ]);
                }
                printer.table(&table)?;
            }
        }
        TokensCommand::Revoke(args) => {
            let was_live = core::tokens::revoke(ctx, &args.name)?;
            printer.status(&if was_live {
                format!("revoked `{}`", args.name)
            } else {
                format!("`{}` was already revoked", args.name)
            });
        }
    }
    Ok(ExitCode::SUCCESS)
}

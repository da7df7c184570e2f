//! `arbiter completions`, `arbiter man` and the hidden `arbiter openapi`: generated files,
//! committed under `completions/`, `man/` and as `openapi.json` (a test fails when they are
//! stale).

mod man_page;

use crate::cli::Cli;
use crate::cli::output::Printer;
use anyhow::{Context as _, Result};
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to print a completion script for
    #[arg(required_unless_present = "dir")]
    pub shell: Option<Shell>,
    /// Write scripts for every supported shell into this directory instead
    #[arg(long, value_name = "DIR", conflicts_with = "shell")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The directory to write arbiter.1 and one page per subcommand into
    #[arg(long, value_name = "DIR", default_value = "man")]
    pub dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct OpenapiArgs {
    /// The file to write the document to
    #[arg(long, value_name = "FILE", default_value = "openapi.json")]
    pub out: PathBuf,
}

/// The committed scripts: each shell's file name as its package would install it.
const SCRIPTS: [(Shell, &str); 4] = [
    (Shell::Bash, "arbiter.bash"),
    (Shell::Zsh, "_arbiter"),
    (Shell::Fish, "arbiter.fish"),
    (Shell::PowerShell, "_arbiter.ps1"),
];

/// The scripts register dynamic completion ([`crate::cli::complete`]): the shell asks
/// `arbiter` itself, so models, revisions, jobs and questions complete from the home or the
/// server.
pub(crate) fn completions(args: &CompletionsArgs, printer: &Printer) -> Result<ExitCode> {
    if let Some(dir) = &args.dir {
        crate::cli::file_modes::create_output_dir(dir)?;
        for (shell, name) in SCRIPTS {
            let path = dir.join(name);
            let mut script = Vec::new();
            crate::cli::complete::registration(shell, &mut script)?;
            crate::cli::file_modes::write_output_file(&path, &script)?;
        }
        printer.status(&format!(
            "wrote completions for bash, zsh, fish, powershell to {}",
            dir.display()
        ));
    } else if let Some(shell) = args.shell {
        let mut script = Vec::new();
        crate::cli::complete::registration(shell, &mut script)?;
        std::io::stdout().write_all(&script)?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn man(args: &ManArgs, printer: &Printer) -> Result<ExitCode> {
    crate::cli::file_modes::create_output_dir(&args.dir)?;
    let pages = man_page::write_all(Cli::command(), &args.dir)
        .with_context(|| format!("writing man pages to {}", args.dir.display()))?;
    printer.status(&format!(
        "wrote {} man pages to {}",
        pages.len(),
        args.dir.display()
    ));
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn openapi(args: &OpenapiArgs, printer: &Printer) -> Result<ExitCode> {
    let mut document = crate::server::openapi_json();
    document.push('\n');
    crate::cli::file_modes::write_output_file(&args.out, document.as_bytes())?;
    printer.status(&format!(
        "wrote the OpenAPI document to {}",
        args.out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

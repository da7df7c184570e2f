//! The `arbiter` binary: parse the command line, run it, exit with its status.

use std::process::ExitCode;

fn main() -> ExitCode {
    arbiter::cli::file_modes::enter();
    // A shell asking for completions (`COMPLETE=bash arbiter …`) is answered here.
    arbiter::cli::complete::enter();
    let cli = match arbiter::cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let runtime = match arbiter::runtime::build() {
        Ok(runtime) => runtime,
        Err(error) => {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("error: cannot start the async runtime: {error}");
            }
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(arbiter::cli::run(cli))
}

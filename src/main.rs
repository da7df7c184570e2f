//! The `arbiter` binary: parse the command line, run it, exit with its status.

use std::process::ExitCode;

// mimalloc keeps the pages it frees for the next allocation of their size; the system
// allocator handed each large tensor's pages back and faulted them in again, which was a
// quarter of an alignment's CPU time (in the kernel, zeroing pages).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

//! The `shinpan` command line: parses arguments, runs the subcommand, maps the result to an
//! exit code — 0 all passed, 1 something failed, 2 the tool could not do its job, 3 (`trace`)
//! less was checked than the log holds. Everything
//! else is in `cli/`.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::{Finished, Usage};

fn main() -> ExitCode {
    let parsed = cli::args::Cli::parse();
    match cli::run(parsed) {
        Ok(Finished::AllPassed) => ExitCode::SUCCESS,
        Ok(Finished::SomethingFailed) => ExitCode::FAILURE,
        Ok(Finished::Incomplete) => ExitCode::from(3),
        Err(Usage(message)) => {
            let _ = writeln!(std::io::stderr(), "shinpan: {message}");
            ExitCode::from(2)
        }
    }
}

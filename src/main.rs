//! The `shinpan` command line: parses arguments, runs the subcommand, maps the result to an
//! exit code — 0 all passed, 1 something failed, 2 the tool could not do its job, 3 `trace`
//! checked less than the log holds (or `tap` could not write its whole log), 128 + the signal
//! when SIGINT, SIGTERM or SIGHUP interrupted the run. Everything else is in `cli/`.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use shinpan::harness::interrupt;

use cli::{Finished, Usage};

/// mimalloc, not the system's allocator: loading a library of recorded matches makes and drops
/// millions of small values, each case's read on one thread and dropped on another, and with
/// glibc's allocator that took a sixth of the instructions of the load and more of its time
/// (`benches/library.rs`, which loads with this allocator too).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let parsed = cli::args::Cli::parse();
    let finished = cli::run(parsed);
    // The run ended what it started: its guard (if any) has nothing left to do.
    interrupt::release();
    if let Err(Usage(message)) = &finished {
        let _ = writeln!(std::io::stderr(), "shinpan: {message}");
    }
    // Whatever the run made of it, an interrupted run says so by its status.
    if let Some(signal) = interrupt::received() {
        let _ = writeln!(
            std::io::stderr(),
            "shinpan: interrupted by {}; every program it started was stopped",
            interrupt::name(signal)
        );
        return ExitCode::from(128 + signal as u8);
    }
    match finished {
        Ok(Finished::AllPassed) => ExitCode::SUCCESS,
        Ok(Finished::SomethingFailed) => ExitCode::FAILURE,
        Ok(Finished::Incomplete) => ExitCode::from(3),
        Err(Usage(_)) => ExitCode::from(2),
    }
}

//! The bodies of the subcommands: what they print, their progress on a terminal, the files they
//! read and write. Arguments are parsed in [`args`]; the result maps to an exit code in
//! `main.rs`. Library code does the work and prints nothing; this is where printing happens.
//! The subcommands that run programs (`check`, `diff`, `bot`, `play`) first
//! [`stop_on_interrupt`]; interrupted, they print what they have, marked as interrupted.
//!
//! Output goes through [`out`]: a closed stdout pipe (`shinpan check | head`) ends the printing
//! quietly and the run keeps the exit code it would have had; any other write error is a
//! failure of the tool. Progress goes through [`progress`], which never fails.

mod arena;
pub mod args;
pub mod bot;
mod cases_out;
pub mod check;
pub mod diff;
mod files;
pub mod html;
pub mod listing;
pub mod merge;
pub mod play;
mod replay;
pub mod trace;

use std::io::{ErrorKind, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use shinpan::games;
use shinpan::seam::DynGame;

use args::{Cli, Command};

/// The tool could not do its job: exit 2 with this message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

/// What a subcommand found, when it could do its job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    /// Exit 0.
    AllPassed,
    /// Exit 1.
    SomethingFailed,
    /// Exit 3: less was checked than there was to check (`trace` of a log cut short, with no
    /// `end` record, or no such match; `tap` that could not write its whole log; `check` whose
    /// every case was unsupported; `report merge` of fewer shards than the run had).
    Incomplete,
}

impl Finished {
    pub fn passed_if(passed: bool) -> Finished {
        if passed {
            Finished::AllPassed
        } else {
            Finished::SomethingFailed
        }
    }
}

/// The exit of a command whose result is a `check` report (`check`, `report merge`, `report
/// --html`): what the report says of its run.
pub fn finished(verdict: shinpan::report::check::RunVerdict) -> Finished {
    use shinpan::report::check::RunVerdict;
    match verdict {
        RunVerdict::Passed => Finished::AllPassed,
        RunVerdict::Failed => Finished::SomethingFailed,
        RunVerdict::Incomplete => Finished::Incomplete,
    }
}

pub fn run(cli: Cli) -> Result<Finished, Usage> {
    match cli.command {
        Command::Games(args) => listing::games(args),
        Command::Check(args) => check::run(args),
        Command::Coverage(args) => listing::coverage(args),
        Command::Diff(args) => diff::run(args),
        Command::Schema(args) => listing::schema(args),
        Command::Bot(args) => bot::run(args),
        Command::Play(args) => play::run(args),
        Command::Tap(args) => trace::tap(args),
        Command::TapExec(args) => trace::tap_exec(args),
        Command::Guard(args) => trace::guard(args),
        Command::Trace(args) => trace::run(args),
        Command::Report(args::ReportArgs {
            command: Some(args::ReportCommand::Merge(args)),
            ..
        }) => merge::run(args),
        Command::Report(args) => html::run(args),
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP stop every program the run started
/// ([`shinpan::harness::interrupt`]); `main` then exits with 128 + the signal.
pub fn stop_on_interrupt() -> Result<(), Usage> {
    shinpan::harness::interrupt::install(Some(Path::new(SELF)))
        .map_err(|e| Usage(format!("cannot handle signals: {e}")))
}

/// This very program, as the helper of guards and taps (whatever has become of its file since
/// it started).
pub const SELF: &str = "/proc/self/exe";

/// The game with this id, or a usage error naming the id.
pub fn game_by_id(id: &str) -> Result<&'static dyn DynGame, Usage> {
    games::by_id(id).ok_or_else(|| {
        let ids: Vec<&str> = games::all().iter().map(|g| g.info().id).collect();
        Usage(format!("no game `{id}`; the games are {}", ids.join(", ")))
    })
}

/// Set once stdout's reader has gone away: nothing more is printed.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to stdout. A reader that has gone away is not an error; any other failure to
/// write is.
pub fn out(text: &str) -> Result<(), Usage> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(Usage(format!("cannot write to stdout: {e}"))),
    }
}

/// Writes a progress note to stderr when it is a terminal; never fails.
pub fn progress(text: &str) {
    let mut stderr = std::io::stderr();
    if stderr.is_terminal() {
        let _ = stderr
            .write_all(text.as_bytes())
            .and_then(|()| stderr.flush());
    }
}

/// Writes a warning to stderr; never fails.
pub fn warn(text: &str) {
    let _ = writeln!(std::io::stderr(), "shinpan: warning: {text}");
}

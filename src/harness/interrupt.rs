//! Ending shinpan on SIGINT, SIGTERM or SIGHUP (a terminal's Ctrl-C, `timeout`, CI cancelling
//! a job, a closed terminal) without leaving anything behind. The programs shinpan runs are in
//! process groups of their own, so the terminal's signal does not reach them, and nothing would
//! stop them if shinpan simply died. `check`, `diff`, `bot` and `play` [`install`] a handler
//! that, at the first of these signals:
//!
//! 1. notes the signal, so that no new program is started ([`start_group`] refuses) and the
//!    run's loops stop at their next step ([`received`]);
//! 2. ends every process group started and not yet finished (SIGTERM, [`GRACE`], SIGKILL), then
//!    kills whatever still carries one of this process's lineage marks: descendants that moved
//!    to a session of their own ([`reaper::sweep_all`]);
//! 3. leaves the main thread to write what it has, marked as interrupted, and to exit with
//!    128 + the signal. If it has not within [`DEADLINE`], or a second signal comes, the handler
//!    exits itself with that status.
//!
//! SIGKILL reaches no handler: for it, the run has a [`Guard`] that kills every process
//! carrying one of the run's marks once the run is gone.
//!
//! [`received`] is polled by the loops, not a cancellation: a step under way ends on its own
//! (its programs are dead, so it ends at once).

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::guard::{Guard, Marks};
use super::reaper;

/// Between the SIGTERM and the SIGKILL sent to the groups of an interrupted run.
pub const GRACE: Duration = Duration::from_millis(500);

/// How long the main thread has, once everything is stopped, to write its report and exit.
pub const DEADLINE: Duration = Duration::from_secs(5);

/// The signal received (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The process groups started and not yet finished. Held while a program is started, so that
/// a program is either refused or known to the handler, never missed.
static GROUPS: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

fn groups() -> MutexGuard<'static, Option<HashSet<i32>>> {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The signal that interrupted the run, if one did.
pub fn received() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// `SIGTERM`, `SIGINT`, `SIGHUP` (the signals handled), or the number.
pub fn name(signal: i32) -> String {
    match signal {
        SIGINT => "SIGINT".into(),
        SIGTERM => "SIGTERM".into(),
        SIGHUP => "SIGHUP".into(),
        other => format!("signal {other}"),
    }
}

/// `interrupted by SIGTERM`, when the run was.
pub fn reason() -> Option<String> {
    received().map(|signal| format!("interrupted by {}", name(signal)))
}

/// Starts a program in a new process group (`spawn`, whose group `pgid` names) unless the run
/// was interrupted, and remembers the group until [`group_ended`].
pub fn start_group<T>(
    spawn: impl FnOnce() -> std::io::Result<T>,
    pgid: impl FnOnce(&T) -> u32,
) -> std::io::Result<T> {
    let mut groups = groups();
    if let Some(why) = reason() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            format!("{why}: no new program is started"),
        ));
    }
    let started = spawn()?;
    groups
        .get_or_insert_with(HashSet::new)
        .insert(pgid(&started) as i32);
    Ok(started)
}

/// Forgets a group its owner has ended.
pub fn group_ended(pgid: u32) {
    if let Some(groups) = groups().as_mut() {
        groups.remove(&(pgid as i32));
    }
}

/// The guard of the run, for the one end no handler sees.
static GUARD: Mutex<Option<Guard>> = Mutex::new(None);

/// Handles SIGINT, SIGTERM and SIGHUP for the rest of the run (see the module's doc). With a
/// `helper` (shinpan itself), also starts a [`Guard`] for SIGKILL, which no handler sees: when
/// this process dies, the guard kills whatever carries one of its marks. [`release`] it at
/// the end of the run.
pub fn install(helper: Option<&Path>) -> std::io::Result<()> {
    if let Some(helper) = helper {
        let guard = Guard::start(
            helper,
            None,
            &Marks::AllOf(std::process::id()),
            Duration::ZERO,
        )?;
        *GUARD.lock().unwrap_or_else(|e| e.into_inner()) = Some(guard);
    }
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            stop_everything(signal);
            let until = Instant::now() + DEADLINE;
            while Instant::now() < until {
                if signals.pending().next().is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            // The main thread is stuck, or the user insists: what could be stopped is.
            stop_everything(signal);
            eprintln!(
                "shinpan: interrupted by {}; every program it started was stopped",
                name(signal)
            );
            std::process::exit(128 + signal);
        })?;
    Ok(())
}

/// Lets the run's guard go: the run ended and ended what it started.
pub fn release() {
    let guard = GUARD.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(guard) = guard {
        guard.release();
    }
}

/// Notes `signal`, then ends every group still running and every marked descendant.
fn stop_everything(signal: i32) {
    let running: Vec<i32> = {
        let groups = groups();
        SIGNAL.store(signal, Ordering::SeqCst);
        groups.iter().flatten().copied().collect()
    };
    reaper::end_groups(&running, GRACE);
    reaper::sweep_all();
}

//! `shinpan tap`: a transparent proxy between a real engine and a real bot. The engine starts
//! `shinpan tap --log FILE -- BOT…` as if it were the bot; tap starts the bot, forwards every byte
//! both ways unchanged and at once, and appends every chunk it forwarded to a JSON-lines log
//! (`conformance/TRACES.md`), flushed record by record, so that a log is whole up to the moment
//! the engine kills the tap. The bot's exit status (or its death by a signal) is passed through,
//! and a signal the engine sends the tap (SIGTERM, SIGINT, SIGHUP) is passed on to the bot's
//! group, then SIGKILL after a grace if the bot outlives it.
//!
//! Nothing the bot starts outlives the match ([`bot`]): not when the bot exits, not when the
//! engine kills the tap. A log is one match: a log that already holds records is refused
//! unless `--append`, and then the new `start` record begins a new match. A log that cannot be
//! written ([`record`]) does not stop the match; tap then exits with [`LOG_INCOMPLETE`].
//!
//! Forwarding comes first and logging second, in the same thread, so the bot never waits on
//! the log. The log is game-agnostic: `trace` frames the chunks into prompts and replies.

pub mod bot;
pub mod record;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{ChildStdin, ChildStdout, ExitStatus};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use serde_json::json;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

use super::log::{now_us, LOG_FORMAT};
use super::reaper::LeftBehind;
use bot::Bot;
use record::{Log, Utf8Chunks};

/// tap's exit status when its log is incomplete (a write failed): the same as `trace`'s for
/// a log with no `end` record.
pub const LOG_INCOMPLETE: u8 = 3;

/// How to run a tap.
#[derive(Debug, Clone)]
pub struct TapOptions {
    pub log: PathBuf,
    /// The engine's player number, written into every record.
    pub player: Option<usize>,
    /// Add a match to a log that already holds records (else such a log is refused).
    pub append: bool,
    /// A program offering `tap-exec` and `tap-guard` (shinpan itself), through which the bot
    /// dies with the tap whatever ends the tap ([`bot`]).
    pub helper: Option<PathBuf>,
    /// From the signal passed on (or the bot's exit, for what it left) to SIGKILL.
    pub grace: Duration,
}

/// How the bot ended, to pass through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TapEnd {
    Exited(i32),
    Signalled(i32),
}

/// A tapped match: how the bot ended, and what the log lacks.
#[derive(Debug, Clone)]
pub struct Tapped {
    pub end: TapEnd,
    /// The log's first write error: the log is incomplete.
    pub log_failure: Option<String>,
    /// Processes the bot left running when it exited, killed by the tap.
    pub left_behind: Vec<LeftBehind>,
}

/// Runs the bot `argv` behind the tap (see the module's doc) and returns how it ended. An
/// error: the log cannot be opened or is refused, or the bot cannot start (then the log says
/// so in a `cannot-start` record).
pub fn tap(options: &TapOptions, argv: &[String]) -> std::io::Result<Tapped> {
    let log = Log::open(&options.log, options.append, options.player)?;
    log.record(json!({"trace": LOG_FORMAT, "event": "start", "command": argv}));
    let mut bot = match Bot::start(argv, options.helper.as_deref(), options.grace) {
        Ok(bot) => bot,
        Err(e) => {
            // No `end` record: the log holds no match, and trace says why.
            log.record(json!({"event": "cannot-start", "why": e.to_string()}));
            return Err(e);
        }
    };
    let signals = pass_on_signals(&log, bot.pid(), options.grace)?;
    let (to_bot, from_bot) = bot.pipes().ok_or_else(missing)?;
    forward_prompts(&log, to_bot);
    let replies = forward_replies(&log, from_bot);

    let status = bot.wait()?;
    // The match is over for this bot: what it left goes with it. Then what it printed last,
    // still in the pipe, is read to its end.
    let left_behind = bot.end_rest(options.grace);
    let until = Instant::now() + Duration::from_secs(1);
    while !replies.is_finished() && Instant::now() < until {
        thread::sleep(Duration::from_millis(5));
    }
    let end = end_of(status);
    log.record(end_record(end, &left_behind));
    bot.release_guard();
    signals.close();
    Ok(Tapped {
        end,
        log_failure: log.failure(),
        left_behind,
    })
}

/// Passes the engine's signals (SIGTERM, SIGINT, SIGHUP) on to the bot's group `pgid`, each
/// logged, then SIGKILL when the bot outlives one by `grace`; the bot's exit decides the tap's.
/// The handle stops it.
fn pass_on_signals(log: &Log, pgid: i32, grace: Duration) -> std::io::Result<Handle> {
    let mut signals = Signals::new([SIGTERM, SIGINT, SIGHUP])?;
    let handle = signals.handle();
    let signal_log = log.clone();
    thread::spawn(move || {
        for signal in signals.forever() {
            signal_log.record(json!({"event": "signal", "signal": signal}));
            let Ok(signal) = Signal::try_from(signal) else {
                continue;
            };
            let log = signal_log.clone();
            thread::spawn(move || {
                if bot::signal_group(pgid, signal, grace) {
                    log.record(json!({"event": "killed", "signal": 9,
                                      "why": format!("the bot outlived {signal} by {} ms",
                                                     grace.as_millis())}));
                }
            });
        }
    });
    Ok(handle)
}

/// Forwards the engine's prompts (the tap's input) to the bot in a thread of their own, each
/// chunk logged; when the engine closes the input, so is the bot's.
fn forward_prompts(log: &Log, mut to_bot: ChildStdin) {
    let prompt_log = log.clone();
    thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut text = Utf8Chunks::default();
        forward(&mut stdin, &mut to_bot, |chunk, read_at| {
            prompt_log.record_at(text.record("prompt", chunk), read_at);
        });
        if let Some(rest) = text.finish("prompt") {
            prompt_log.record(rest);
        }
        prompt_log.record(json!({"event": "input-closed"}));
        // Dropping `to_bot` closes the bot's input.
    });
}

/// Forwards the bot's replies to the engine (the tap's output) in a thread of their own, each
/// chunk logged, until the bot's output closes.
fn forward_replies(log: &Log, mut from_bot: ChildStdout) -> JoinHandle<()> {
    let reply_log = log.clone();
    thread::spawn(move || {
        let mut stdout = std::io::stdout().lock();
        let mut text = Utf8Chunks::default();
        forward(&mut from_bot, &mut stdout, |chunk, read_at| {
            reply_log.record_at(text.record("reply", chunk), read_at);
        });
        if let Some(rest) = text.finish("reply") {
            reply_log.record(rest);
        }
    })
}

/// The `end` record: how the bot ended, and the processes it left running.
fn end_record(end: TapEnd, left_behind: &[LeftBehind]) -> serde_json::Value {
    let mut record = match end {
        TapEnd::Exited(code) => json!({"event": "end", "status": code}),
        TapEnd::Signalled(signal) => json!({"event": "end", "signal": signal}),
    };
    if !left_behind.is_empty() {
        let who: Vec<String> = left_behind
            .iter()
            .map(|p| format!("{} `{}`", p.pid, p.command))
            .collect();
        record["left_behind"] = who.into();
    }
    record
}

fn missing() -> std::io::Error {
    std::io::Error::other("a standard stream of the bot is missing")
}

fn end_of(status: ExitStatus) -> TapEnd {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => TapEnd::Exited(code),
        (None, Some(signal)) => TapEnd::Signalled(signal),
        (None, None) => TapEnd::Exited(1),
    }
}

/// Copies `from` to `to` chunk by chunk, each written and flushed before `seen` logs it with
/// the time it was read.
fn forward(from: &mut impl Read, to: &mut impl Write, mut seen: impl FnMut(&[u8], u64)) {
    let mut buf = [0u8; 65536];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        let read_at = now_us();
        let forwarded = to.write_all(&buf[..n]).and_then(|()| to.flush());
        seen(&buf[..n], read_at);
        if forwarded.is_err() {
            return;
        }
    }
}

/// Ends this process the way the bot ended: its exit status, or the same signal.
pub fn exit_like(end: TapEnd) -> ! {
    match end {
        TapEnd::Exited(code) => std::process::exit(code),
        TapEnd::Signalled(signal) => {
            let _ = std::io::stdout().flush();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            // A signal whose default action does not end the process: end as a shell would.
            std::process::exit(128 + signal)
        }
    }
}

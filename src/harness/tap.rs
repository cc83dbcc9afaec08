//! `shinpan tap`: a transparent proxy between a real engine and a real bot. The engine starts
//! `shinpan tap --log FILE -- BOT…` as if it were the bot; tap starts the bot, forwards every byte
//! both ways unchanged and at once, and appends every chunk it forwarded to a JSON-lines log
//! (`conformance/TRACES.md`), flushed record by record, so that a log is whole up to the moment
//! the engine kills the tap. The bot's exit status (or its death by a signal) is passed through,
//! and a signal the engine sends the tap (SIGTERM, SIGINT, SIGHUP) is passed on to the bot.
//!
//! Forwarding comes first and logging second, in the same thread, so the bot never waits on
//! the log. The log is game-agnostic: `trace` frames the chunks into prompts and replies.

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use serde_json::{json, Value};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::trace::log::{now_us, record_line, LOG_FORMAT};

/// How the bot ended, to pass through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TapEnd {
    Exited(i32),
    Signalled(i32),
}

/// A log file written one flushed record at a time, shared by the forwarding threads.
#[derive(Clone)]
struct Log {
    file: Arc<Mutex<File>>,
    player: Option<usize>,
}

impl Log {
    fn record(&self, record: Value) {
        self.record_at(record, now_us());
    }

    /// A record of something that happened at `t_us` (a chunk's read time: records of the two
    /// directions may reach the file out of order, their times never are).
    fn record_at(&self, mut record: Value, t_us: u64) {
        if let Value::Object(map) = &mut record {
            map.insert("t_us".into(), t_us.into());
            if let Some(player) = self.player {
                map.insert("player".into(), player.into());
            }
        }
        let line = record_line(&record);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // One write per record: a kill leaves at most a torn last line.
        let _ = file.write_all(line.as_bytes());
    }
}

/// Runs the bot `argv` behind the tap, logging to `log` (appended), and returns how it ended.
pub fn tap(log_path: &Path, player: Option<usize>, argv: &[String]) -> std::io::Result<TapEnd> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path)?;
    let log = Log {
        file: Arc::new(Mutex::new(file)),
        player,
    };
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no bot command"))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot start `{program}`: {e}")))?;
    log.record(json!({"trace": LOG_FORMAT, "event": "start", "command": argv}));
    let pid = Pid::from_raw(child.id() as i32);

    // The engine's signals go on to the bot; its exit decides ours.
    let mut signals = Signals::new([SIGTERM, SIGINT, SIGHUP])?;
    let handle = signals.handle();
    let signal_log = log.clone();
    thread::spawn(move || {
        for signal in signals.forever() {
            signal_log.record(json!({"event": "signal", "signal": signal}));
            if let Ok(signal) = Signal::try_from(signal) {
                let _ = kill(pid, signal);
            }
        }
    });

    let mut to_bot = child.stdin.take().ok_or_else(missing)?;
    let mut from_bot = child.stdout.take().ok_or_else(missing)?;
    let prompt_log = log.clone();
    thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut text = Utf8Chunks::default();
        forward(&mut stdin, &mut to_bot, |chunk, read_at| {
            prompt_log.record_at(text.record("prompt", chunk), read_at);
        });
        prompt_log.record(json!({"event": "input-closed"}));
        // Dropping `to_bot` closes the bot's input.
    });
    let reply_log = log.clone();
    let replies = thread::spawn(move || {
        let mut stdout = std::io::stdout().lock();
        let mut text = Utf8Chunks::default();
        forward(&mut from_bot, &mut stdout, |chunk, read_at| {
            reply_log.record_at(text.record("reply", chunk), read_at);
        });
    });

    let status = child.wait()?;
    // What the bot printed last is still on its way; a process it left holding its output is
    // not waited for.
    let until = Instant::now() + Duration::from_secs(1);
    while !replies.is_finished() && Instant::now() < until {
        thread::sleep(Duration::from_millis(5));
    }
    let end = end_of(status);
    log.record(match end {
        TapEnd::Exited(code) => json!({"event": "end", "status": code}),
        TapEnd::Signalled(signal) => json!({"event": "end", "signal": signal}),
    });
    handle.close();
    Ok(end)
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
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let read_at = now_us();
        let forwarded = to.write_all(&buf[..n]).and_then(|()| to.flush());
        seen(&buf[..n], read_at);
        if forwarded.is_err() {
            return;
        }
    }
}

/// Turns byte chunks into log records: text when it is UTF-8 (a character split between two
/// chunks is held back for the next), hex when it is not.
#[derive(Default)]
struct Utf8Chunks {
    carry: Vec<u8>,
}

impl Utf8Chunks {
    fn record(&mut self, event: &str, chunk: &[u8]) -> Value {
        self.carry.extend_from_slice(chunk);
        let bytes = std::mem::take(&mut self.carry);
        match std::str::from_utf8(&bytes) {
            Ok(text) => json!({"event": event, "text": text}),
            Err(e) if e.error_len().is_none() => {
                // Cut inside a character: log what is whole, keep the rest.
                let (whole, rest) = bytes.split_at(e.valid_up_to());
                self.carry = rest.to_vec();
                json!({"event": event, "text": String::from_utf8_lossy(whole)})
            }
            Err(_) => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                json!({"event": event, "hex": hex})
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_across_chunks_is_logged_whole() {
        let mut chunks = Utf8Chunks::default();
        let word = "太郎".as_bytes();
        let first = chunks.record("reply", &word[..2]);
        assert_eq!(first["text"], "");
        let second = chunks.record("reply", &word[2..]);
        assert_eq!(second["text"], "太郎");
        let binary = chunks.record("reply", &[0xff, 0x00]);
        assert_eq!(binary["hex"], "ff00");
    }
}

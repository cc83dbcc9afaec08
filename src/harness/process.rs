//! A child program driven over its standard streams, as contest engines drive bots: the bot
//! checker, `play` and external engine adapters all run their children through this.
//!
//! Whatever the child does, the harness neither hangs nor grows without bound:
//! - the child runs in its own process group, and every end (a deadline, a flood, the end of a
//!   run, a drop) sends SIGTERM to the whole group, waits a grace period, then SIGKILL, then reaps;
//! - prompts are written by a writer thread, so a child that never reads cannot block us;
//! - output is read by reader threads into bounded channels, with a cap on a line and on a reply;
//!   stderr is kept only as a bounded tail;
//! - a grandchild that keeps the output pipe open after the child exits is detected and reported;
//! - an interrupted run ([`super::interrupt`]) starts no new child and ends the
//!   groups of those running.
//!
//! It knows nothing of games: a reply's end is found by a closure the caller passes in.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use process_wrap::std::{ChildWrapper, CommandWrap, ProcessGroup};

use super::interrupt;
use super::reaper::{self, LeftBehind};
use crate::seam::Frame;

/// POSIX signal numbers (the same on every Unix shinpan runs on).
const SIGTERM: i32 = 15;
const SIGKILL: i32 = 9;

/// Prompts queued for the writer thread before [`Child::send`] reports that the child is not
/// reading.
const STDIN_QUEUE: usize = 64;
/// How often a read that waits checks whether the program has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// Output lines read ahead of the harness; a child printing more waits on its full pipe.
const STDOUT_QUEUE: usize = 256;

/// Bounds on what is kept of a child's output.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest accepted output line, in bytes (without its line break).
    pub max_line_bytes: usize,
    /// Most bytes accepted for one reply, all its lines together.
    pub max_reply_bytes: usize,
    /// How much of the end of stderr is kept.
    pub stderr_tail_bytes: usize,
    /// Between SIGTERM and SIGKILL.
    pub grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line_bytes: 64 * 1024,
            max_reply_bytes: 1024 * 1024,
            stderr_tail_bytes: 4096,
            grace: Duration::from_millis(200),
        }
    }
}

/// Why no reply could be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadFailure {
    #[error("no complete reply within {} ms", .0.as_millis())]
    Deadline(Duration),
    #[error("the program exited, but a process it started holds its output open")]
    ExitedPipeHeld,
    #[error("the output ended (the program exited or closed stdout) before a complete reply")]
    Eof,
    #[error("an output line is longer than {0} bytes")]
    LineTooLong(usize),
    #[error("the reply is longer than {0} bytes")]
    ReplyTooLong(usize),
    #[error("the output is not text (invalid UTF-8)")]
    NotText,
    #[error("the reply can never be complete: {0}")]
    Malformed(String),
}

/// Why a prompt could not be sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendFailure {
    #[error("the program does not read its input (its input pipe is full)")]
    NotReading,
    #[error("the program's input is closed")]
    Closed,
}

/// A complete reply and the time from the last send to the arrival of its last line (measured
/// when the line came out of the pipe, not when the harness got round to reading it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyRead {
    pub lines: Vec<String>,
    pub elapsed: Duration,
}

/// How a child ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// The exit status, when the child could be reaped.
    pub status: Option<ExitStatus>,
    /// Whether the harness had to signal it (it did not exit by itself after its input closed).
    pub killed: bool,
    /// Whether it outlived SIGTERM and had to be killed with SIGKILL.
    pub ignored_sigterm: bool,
    /// Whether something outlived the child while holding its output pipe open.
    pub pipe_held_by_descendant: bool,
    /// Processes it started that were still alive when it was finished (in a new session, out
    /// of its group's reach), killed by the [`super::reaper`].
    pub left_behind: Vec<LeftBehind>,
}

impl Ended {
    /// How the program ended, in words: `exited with status 3`, `died by signal 11, SIGSEGV`,
    /// `was killed by shinpan (15, SIGTERM)`.
    pub fn describe(&self) -> String {
        let mut text = match (self.status, self.ignored_sigterm, self.killed) {
            (_, true, _) => "ignored SIGTERM and was killed by shinpan (9, SIGKILL)".to_string(),
            (Some(status), false, killed) => match (status.code(), status.signal()) {
                (Some(code), _) => format!("exited with status {code}"),
                (None, Some(signal)) if killed => {
                    format!("was killed by shinpan ({})", signal_name(signal))
                }
                (None, Some(signal)) => format!("died by signal {}", signal_name(signal)),
                (None, None) => format!("ended ({status})"),
            },
            (None, false, true) => "was killed by shinpan".to_string(),
            // Its status went with its process group's.
            (None, false, false) => "exited".to_string(),
        };
        if self.pipe_held_by_descendant {
            text.push_str("; a process it started kept its stdout open and was killed");
        }
        if !self.left_behind.is_empty() {
            let who: Vec<String> = self
                .left_behind
                .iter()
                .map(|p| format!("{} `{}`", p.pid, p.command))
                .collect();
            text.push_str(&format!(
                "; {} process(es) it started outlived it and were killed by shinpan: {}",
                who.len(),
                who.join(", ")
            ));
        }
        text
    }

    /// Whether it ended badly in a way that is the program's fault however it exited: it left
    /// processes behind, or something it started held its output open.
    pub fn left_a_mess(&self) -> bool {
        self.pipe_held_by_descendant || !self.left_behind.is_empty()
    }

    /// Whether the program died of a signal nobody sent it (a crash: SIGSEGV, SIGABRT, ...).
    pub fn crashed_by_signal(&self) -> bool {
        !self.killed && self.status.and_then(|s| s.signal()).is_some()
    }

    /// Whether the program ended in error by itself: a status other than 0 (a shell reports an
    /// abort as 134) or a signal nobody sent it.
    pub fn ended_in_error(&self) -> bool {
        self.crashed_by_signal()
            || (!self.killed && self.status.and_then(|s| s.code()).is_some_and(|c| c != 0))
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => return format!("{signal}"),
    };
    format!("{signal}, {name}")
}

enum Output {
    /// A line, when the reader saw its line break, and whether more output came with it in the
    /// same read (the program printed past the line at once).
    Line(Vec<u8>, Instant, bool),
    /// A line past the cap, its first [`SHOWN_BYTES`] bytes.
    TooLong(Vec<u8>),
    Eof,
}

/// How much of what came instead of a reply is kept to be shown (issue 40, item 17).
pub const SHOWN_BYTES: usize = 2048;

/// What the last read of a reply got when it did not make a reply: the lines read and the line
/// that failed (one that is not text, or the head of an overlong one), at most
/// [`SHOWN_BYTES`] of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    /// The first bytes of what came.
    pub bytes: Vec<u8>,
    /// How many bytes came, when more than those kept (an overlong line counts its head).
    pub came: usize,
    /// The cap an overlong last line passed, if it did.
    pub line_over: Option<usize>,
}

impl Unfinished {
    /// What came, for people: text as it is, a byte that is not UTF-8 or a control character
    /// (but a line break or a tab) as `\xNN`, a backslash as `\\`; then a line saying what was
    /// cut.
    pub fn shown(&self) -> String {
        let mut out = String::new();
        for chunk in self.bytes.utf8_chunks() {
            for c in chunk.valid().chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' | '\t' => out.push(c),
                    c if c.is_control() && (c as u32) < 0x100 => {
                        out.push_str(&format!("\\x{:02x}", c as u32));
                    }
                    c => out.push(c),
                }
            }
            for b in chunk.invalid() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
        if let Some(cap) = self.line_over {
            out.push_str(&format!(
                "\n[cut: the last line is longer than {cap} bytes; {} bytes shown in all]",
                self.bytes.len()
            ));
        } else if self.came > self.bytes.len() {
            out.push_str(&format!(
                "\n[cut: the first {} of {} bytes shown]",
                self.bytes.len(),
                self.came
            ));
        }
        out
    }
}

/// A line that ended a read: one that is not text, or the head of one over the cap.
enum BadLine {
    NotText(Vec<u8>),
    TooLong(Vec<u8>),
}

/// A running child program.
pub struct Child {
    child: Box<dyn ChildWrapper>,
    /// The mark its descendants carry (see [`reaper`](super::reaper)).
    lineage: String,
    /// Whether the last line read came with more output in the same read.
    last_line_followed: bool,
    stdin: Option<SyncSender<Vec<u8>>>,
    stdin_broken: Arc<Mutex<bool>>,
    stdout: Receiver<Output>,
    stdout_ended: bool,
    stderr_tail: Arc<Mutex<VecDeque<u8>>>,
    /// The thread that reads stderr into the tail: done when stderr closes.
    stderr_reader: thread::JoinHandle<()>,
    limits: Limits,
    sent_at: Instant,
    ended: Option<Ended>,
    /// The line that ended the last read, if one did.
    bad_line: Option<BadLine>,
    /// What the last [`Child::read_reply`] got, when it was no reply.
    unfinished: Option<Unfinished>,
}

impl Child {
    /// Starts `argv[0]` with arguments `argv[1..]` in a new process group.
    pub fn spawn(argv: &[String], limits: Limits) -> std::io::Result<Child> {
        let (program, args) = argv.split_first().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty command")
        })?;
        reaper::adopt_orphans();
        let lineage = reaper::new_lineage();
        let mut command = CommandWrap::with_new(program, |c| {
            c.args(args)
                .env(reaper::LINEAGE_VAR, reaper::lineage_value(&lineage))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
        });
        command.wrap(ProcessGroup::leader());
        // An interrupted run starts nothing more; a started group is known to the handler.
        let mut child = interrupt::start_group(|| command.spawn(), |child| child.id())?;
        reaper::register(child.id());
        let missing = || std::io::Error::other("a standard stream of the child is missing");
        let stdin = child.stdin().take().ok_or_else(missing)?;
        let stdout = child.stdout().take().ok_or_else(missing)?;
        let stderr = child.stderr().take().ok_or_else(missing)?;

        let stdin_broken = Arc::new(Mutex::new(false));
        let (to_stdin, from_harness) = mpsc::sync_channel::<Vec<u8>>(STDIN_QUEUE);
        let broken = Arc::clone(&stdin_broken);
        thread::spawn(move || write_stdin(stdin, from_harness, broken));

        let (to_harness, from_stdout) = mpsc::sync_channel(STDOUT_QUEUE);
        let max_line = limits.max_line_bytes;
        thread::spawn(move || read_stdout(stdout, to_harness, max_line));

        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let keep = limits.stderr_tail_bytes;
        let stderr_reader = thread::spawn(move || read_stderr(stderr, tail, keep));

        Ok(Child {
            child,
            lineage,
            last_line_followed: false,
            stdin: Some(to_stdin),
            stdin_broken,
            stdout: from_stdout,
            stdout_ended: false,
            stderr_tail,
            stderr_reader,
            limits,
            sent_at: Instant::now(),
            ended: None,
            bad_line: None,
            unfinished: None,
        })
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Queues `bytes` for the child's input without waiting for the child to read them.
    pub fn send(&mut self, bytes: &[u8]) -> Result<(), SendFailure> {
        let stdin = self.stdin.as_ref().ok_or(SendFailure::Closed)?;
        if *self.stdin_broken.lock().unwrap_or_else(|e| e.into_inner()) {
            return Err(SendFailure::Closed);
        }
        let result = match stdin.try_send(bytes.to_vec()) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(SendFailure::NotReading),
            Err(TrySendError::Disconnected(_)) => Err(SendFailure::Closed),
        };
        self.sent_at = Instant::now();
        result
    }

    /// Starts the reply clock without sending anything (for a program that speaks first).
    pub fn mark_sent(&mut self) {
        self.sent_at = Instant::now();
    }

    /// Closes the child's input (it reads end of file once what was queued is written).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until `frame` says they make a whole reply ([`Frame::Complete`]), or
    /// `deadline` passes. [`Frame::NeedMore`] asks for another line; [`Frame::Malformed`] says
    /// the lines can never make a reply.
    pub fn read_reply(
        &mut self,
        deadline: Instant,
        mut frame: impl FnMut(&[&str]) -> Frame,
    ) -> Result<ReplyRead, ReadFailure> {
        self.bad_line = None;
        self.unfinished = None;
        let mut lines: Vec<String> = Vec::new();
        let mut bytes = 0;
        let failure = loop {
            let (line, arrived) = match self.next_line(deadline) {
                Ok(read) => read,
                Err(failure) => break failure,
            };
            lines.push(line);
            if arrived > deadline {
                break ReadFailure::Deadline(arrived - self.sent_at);
            }
            bytes += lines.last().map_or(0, String::len) + 1;
            if bytes > self.limits.max_reply_bytes {
                break ReadFailure::ReplyTooLong(self.limits.max_reply_bytes);
            }
            let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
            match frame(&refs) {
                Frame::Complete => {
                    return Ok(ReplyRead {
                        lines,
                        elapsed: arrived.saturating_duration_since(self.sent_at),
                    })
                }
                Frame::NeedMore => {}
                Frame::Malformed(why) => break ReadFailure::Malformed(why),
            }
        };
        self.unfinished = self.unfinished_of(&lines);
        Err(failure)
    }

    /// What came of the reply whose read just failed (the lines read, then the line that ended
    /// the read, if one did): nothing when nothing came.
    fn unfinished_of(&mut self, lines: &[String]) -> Option<Unfinished> {
        let mut came: Vec<u8> = lines.join("\n").into_bytes();
        let mut line_over = None;
        if let Some(bad) = self.bad_line.take() {
            if !lines.is_empty() {
                came.push(b'\n');
            }
            let line = match bad {
                BadLine::NotText(line) => line,
                BadLine::TooLong(head) => {
                    line_over = Some(self.limits.max_line_bytes);
                    head
                }
            };
            came.extend_from_slice(&line);
        }
        if came.is_empty() {
            return None;
        }
        let total = came.len();
        came.truncate(SHOWN_BYTES);
        Some(Unfinished {
            bytes: came,
            came: total,
            line_over,
        })
    }

    /// What the last [`Child::read_reply`] got when it failed: the lines that came and the
    /// line that ended it, at most [`SHOWN_BYTES`]; `None` when it read a reply or nothing.
    pub fn unfinished(&self) -> Option<&Unfinished> {
        self.unfinished.as_ref()
    }

    /// One output line, without its line break (and without a CR before it, which stays part
    /// of the line so that strict grammars can see it).
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadFailure> {
        self.next_line(deadline).map(|(line, _)| line)
    }

    fn next_line(&mut self, deadline: Instant) -> Result<(String, Instant), ReadFailure> {
        if self.stdout_ended {
            return Err(ReadFailure::Eof);
        }
        // Wait in slices, so that a program that exited while something it started holds its
        // output open is noticed at once, not at the deadline.
        let mut exited_at: Option<Instant> = None;
        let received = loop {
            let now = Instant::now();
            let slice = deadline.saturating_duration_since(now).min(EXIT_POLL);
            match self.stdout.recv_timeout(slice) {
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                    match exited_at {
                        None if !self.leader_alive() => exited_at = Some(Instant::now()),
                        // What it printed before exiting has had its time to arrive.
                        Some(at) if at.elapsed() >= self.limits.grace => {
                            return Err(ReadFailure::ExitedPipeHeld);
                        }
                        _ => {}
                    }
                }
                other => break other,
            }
        };
        match received {
            Ok(Output::Line(bytes, arrived, followed)) => {
                self.last_line_followed = followed;
                String::from_utf8(bytes)
                    .map(|line| (line, arrived))
                    .map_err(|e| {
                        self.bad_line = Some(BadLine::NotText(e.into_bytes()));
                        ReadFailure::NotText
                    })
            }
            Ok(Output::TooLong(head)) => {
                self.bad_line = Some(BadLine::TooLong(head));
                Err(ReadFailure::LineTooLong(self.limits.max_line_bytes))
            }
            Ok(Output::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.stdout_ended = true;
                Err(ReadFailure::Eof)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadFailure::Deadline(self.sent_at.elapsed())),
        }
    }

    /// Whether output already followed the last line read: the program printed past it in
    /// one go (extra lines after a reply that need not have arrived yet).
    pub fn printed_past_last_line(&self) -> bool {
        self.last_line_followed
    }

    /// Output lines already printed but not asked for (a reply followed by extra lines). What
    /// came in the same read as the last line read was printed already, even where the reader
    /// has not handed it over yet (a busy machine): it is waited for, up to the grace period.
    pub fn unsolicited_lines(&mut self) -> usize {
        let mut count = 0;
        let mut same_read = self.last_line_followed;
        while count < STDOUT_QUEUE {
            let next = if same_read {
                self.stdout
                    .recv_timeout(self.limits.grace)
                    .map_err(|e| match e {
                        RecvTimeoutError::Timeout => TryRecvError::Empty,
                        RecvTimeoutError::Disconnected => TryRecvError::Disconnected,
                    })
            } else {
                self.stdout.try_recv()
            };
            match next {
                Ok(Output::Line(_, _, followed)) => {
                    count += 1;
                    same_read = followed;
                }
                Ok(Output::TooLong(_)) => {
                    count += 1;
                    same_read = false;
                }
                Ok(Output::Eof) | Err(TryRecvError::Disconnected) => {
                    self.stdout_ended = true;
                    break;
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        count
    }

    /// The last bytes the child wrote to stderr, as text. Once the program has exited, what it
    /// wrote last may still be in the pipe: this waits for stderr to close, for up to the grace
    /// period (a descendant may hold it open), so that a message printed just before the exit
    /// (`double free detected`) is never missed.
    pub fn stderr_tail(&self) -> String {
        if !self.stderr_reader.is_finished() && !self.leader_alive() {
            let until = Instant::now() + self.limits.grace;
            while !self.stderr_reader.is_finished() && Instant::now() < until {
                thread::sleep(Duration::from_millis(2));
            }
        }
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = tail.iter().copied().collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Whether the child has exited (without waiting).
    pub fn has_exited(&mut self) -> bool {
        // An error here means the group's leader was reaped while other members live on.
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Ends the child: closes its input, gives it the grace period to exit, then SIGTERM and
    /// SIGKILL to its whole group, and reaps it. Idempotent.
    pub fn finish(&mut self) -> Ended {
        if let Some(ended) = &self.ended {
            return ended.clone();
        }
        self.close_stdin();
        let grace = self.limits.grace;
        let mut killed = false;
        let mut ignored_sigterm = false;
        let mut status = self.wait_for_exit(grace);
        if status.is_none() && self.leader_alive() {
            killed = true;
            let _ = self.child.signal(SIGTERM);
            status = self.wait_for_exit(grace);
            if status.is_none() && self.leader_alive() {
                // The program itself outlived SIGTERM: it, not a descendant, holds on.
                ignored_sigterm = true;
                let _ = self.child.signal(SIGKILL);
                let _ = self.child.start_kill();
                status = self.wait_for_exit(grace);
            }
        }
        // The program is gone; its output pipe should close with it. If it stays open, a
        // descendant holds it.
        let pipe_held_by_descendant = !self.stdout_closes_within(grace);
        if pipe_held_by_descendant {
            let _ = self.child.signal(SIGKILL);
        }
        if status.is_some() {
            reaper::forget(self.child.id());
        }
        let left_behind = reaper::sweep(&self.lineage);
        interrupt::group_ended(self.child.id());
        let ended = Ended {
            status,
            killed,
            ignored_sigterm,
            pipe_held_by_descendant,
            left_behind,
        };
        self.ended = Some(ended.clone());
        ended
    }

    /// Whether the program itself (the group's leader) still runs: not gone, not a zombie.
    fn leader_alive(&self) -> bool {
        std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .ok()
            .and_then(|stat| {
                let state = stat
                    .rsplit_once(')')?
                    .1
                    .split_whitespace()
                    .next()?
                    .to_string();
                Some(state != "Z")
            })
            .unwrap_or(false)
    }

    /// Waits until the program exits, for up to `limit` of the time it could run (see
    /// [`GraceClock`]); at most [`GRACE_STRETCH`] times `limit` of wall time.
    fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let clock = GraceClock::start(self.child.id());
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) => {}
                // The leader was reaped by the group wait while other members live on.
                Err(_) => return None,
            }
            if clock.past(limit) {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Drains stdout until it closes, for up to `limit`; whatever it held is discarded.
    fn stdout_closes_within(&mut self, limit: Duration) -> bool {
        if self.stdout_ended {
            return true;
        }
        let until = Instant::now() + limit;
        loop {
            let wait = until.saturating_duration_since(Instant::now());
            match self.stdout.recv_timeout(wait) {
                Ok(Output::Line(..) | Output::TooLong(_)) => {}
                Ok(Output::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.stdout_ended = true;
                    return true;
                }
                Err(RecvTimeoutError::Timeout) => return false,
            }
        }
    }
}

/// A grace period ends after at most this many times its length of wall time, however busy
/// the machine.
pub const GRACE_STRETCH: u32 = 25;

/// Time a program had to exit: the wall time since the start, less the time it spent ready to
/// run but waiting for a CPU (`/proc/PID/schedstat`, its second field). On a machine busy
/// with other work, a program that needs 50 ms of CPU to exit may not get them within a grace
/// period of 200 ms of wall time; it is not its fault, and it must not be judged as a program
/// that does not exit. Where the kernel does not say, the wall time alone counts.
struct GraceClock {
    pid: u32,
    started: Instant,
    waited_at_start: Option<u64>,
}

impl GraceClock {
    fn start(pid: u32) -> GraceClock {
        GraceClock {
            pid,
            started: Instant::now(),
            waited_at_start: runqueue_wait_ns(pid),
        }
    }

    /// Whether the program has had `limit` of time it could run, or the wall clock is past
    /// [`GRACE_STRETCH`] times `limit`.
    fn past(&self, limit: Duration) -> bool {
        let wall = self.started.elapsed();
        if wall >= limit * GRACE_STRETCH {
            return true;
        }
        let waited = match (self.waited_at_start, runqueue_wait_ns(self.pid)) {
            (Some(start), Some(now)) => Duration::from_nanos(now.saturating_sub(start)),
            _ => Duration::ZERO,
        };
        wall.saturating_sub(waited) >= limit
    }
}

/// Nanoseconds the process `pid` has spent waiting on a run queue, if the kernel says.
fn runqueue_wait_ns(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/schedstat")).ok()?;
    stat.split_whitespace().nth(1)?.parse().ok()
}

impl Drop for Child {
    fn drop(&mut self) {
        self.finish();
    }
}

fn write_stdin(
    mut stdin: std::process::ChildStdin,
    prompts: Receiver<Vec<u8>>,
    broken: Arc<Mutex<bool>>,
) {
    for prompt in prompts {
        if stdin
            .write_all(&prompt)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            *broken.lock().unwrap_or_else(|e| e.into_inner()) = true;
            return;
        }
    }
}

fn read_stdout(
    mut stdout: std::process::ChildStdout,
    to_harness: SyncSender<Output>,
    max_line: usize,
) {
    let mut buf = [0u8; 8192];
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for (i, &b) in buf[..n].iter().enumerate() {
            if b == b'\n' {
                let followed = i + 1 < n;
                // An overlong line was reported when it crossed the limit.
                if !std::mem::take(&mut too_long)
                    && to_harness
                        .send(Output::Line(
                            std::mem::take(&mut line),
                            Instant::now(),
                            followed,
                        ))
                        .is_err()
                {
                    return;
                }
            } else if line.len() < max_line {
                line.push(b);
            } else if !too_long {
                // Report the overlong line at once rather than when (if ever) it ends.
                too_long = true;
                let head = line[..line.len().min(SHOWN_BYTES)].to_vec();
                line.clear();
                if to_harness.send(Output::TooLong(head)).is_err() {
                    return;
                }
            }
        }
    }
    // A last line without a line break still counts as a line.
    if !line.is_empty() && !too_long {
        let _ = to_harness.send(Output::Line(line, Instant::now(), false));
    }
    let _ = to_harness.send(Output::Eof);
}

fn read_stderr(mut stderr: std::process::ChildStderr, tail: Arc<Mutex<VecDeque<u8>>>, keep: usize) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = stderr.read(&mut buf) {
        if n == 0 {
            break;
        }
        let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.extend(&buf[..n]);
        let excess = tail.len().saturating_sub(keep);
        tail.drain(..excess);
    }
}

//! A bot program spoken to through a game's protocol: the handshake, prompts and framed replies
//! under the game's time limits. The bot checker and `play` both drive bots through this; it
//! knows games only through the seam ([`Handshake`], [`TimeLimits`], a frame closure).
//!
//! It keeps the exact bytes written to the bot (the *transcript*), so that whatever broke a bot
//! can be replayed with `bot < transcript`.

use std::time::{Duration, Instant};

use crate::harness::process::{Child, Ended, Limits, ReadFailure, SendFailure, Unfinished};
use crate::seam::{Frame, Handshake, TimeLimits};

/// The per-turn limit when a game's document sets none.
pub const DEFAULT_TURN_MS: u64 = 10_000;

/// The command line's overrides of a game's limits (milliseconds).
#[derive(Debug, Clone, Copy, Default)]
pub struct LimitOverrides {
    pub handshake_ms: Option<u64>,
    pub turn_ms: Option<u64>,
    pub total_ms: Option<u64>,
}

/// The time a bot has, from the game's limits and the overrides; one per bot per match.
#[derive(Debug, Clone)]
pub struct Clock {
    handshake: Duration,
    first_turn: Duration,
    turn: Duration,
    total_left: Option<Duration>,
    pool_left: Duration,
    replies: usize,
}

impl Clock {
    pub fn new(game: TimeLimits, overrides: LimitOverrides) -> Clock {
        let ms = Duration::from_millis;
        let turn = overrides
            .turn_ms
            .or(game.turn_ms)
            .unwrap_or(DEFAULT_TURN_MS);
        // An override of the turn limit also replaces a special first-turn limit.
        let first_turn = match overrides.turn_ms {
            Some(t) => t,
            None => game.first_turn_ms.unwrap_or(turn),
        };
        Clock {
            handshake: ms(overrides.handshake_ms.or(game.handshake_ms).unwrap_or(turn)),
            first_turn: ms(first_turn),
            turn: ms(turn),
            total_left: overrides.total_ms.or(game.total_ms).map(ms),
            pool_left: ms(game.pool_ms.unwrap_or(0)),
            replies: 0,
        }
    }

    /// The most the next reply may take.
    pub fn allowance(&self) -> Duration {
        let turn = if self.replies == 0 {
            self.first_turn
        } else {
            self.turn
        } + self.pool_left;
        self.total_left.map_or(turn, |total| turn.min(total))
    }

    /// The time for one reply after the first, before any pool (`--turn-ms`, else the game's).
    pub fn turn_limit(&self) -> Duration {
        self.turn
    }

    /// Charges a reply's thinking time.
    pub fn charge(&mut self, elapsed: Duration) {
        let turn = if self.replies == 0 {
            self.first_turn
        } else {
            self.turn
        };
        self.pool_left = self.pool_left.saturating_sub(elapsed.saturating_sub(turn));
        if let Some(total) = &mut self.total_left {
            *total = total.saturating_sub(elapsed);
        }
        self.replies += 1;
    }
}

/// Why a bot gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    #[error("no complete reply within the {} ms allowed (waited {} ms)", .allowed.as_millis(), .waited.as_millis())]
    TimedOut { allowed: Duration, waited: Duration },
    #[error("{0}")]
    Read(#[from] ReadFailure),
    #[error("{0}")]
    Send(#[from] SendFailure),
    #[error(
        "printed {0} line(s) nobody asked for before this prompt (a flood, or replies out of step)"
    )]
    Unsolicited(usize),
    /// The run's own budget ran out first: not the bot's fault.
    #[error("the run's time budget ran out")]
    OverBudget,
}

/// The last prompt sent and what came of it, as a report shows a check that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastExchange {
    pub prompt: String,
    /// The reply, when a whole one was read.
    pub reply: Option<String>,
    /// What came when no whole reply did, escaped and cut ([`Unfinished::shown`]).
    pub came: Option<String>,
}

/// A complete reply: its lines joined by `\n`, and its thinking time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotAnswer {
    pub text: String,
    pub elapsed: Duration,
}

pub struct Session {
    child: Child,
    transcript: Vec<u8>,
    /// Where in the transcript the last prompt starts, and the answer to it, once read.
    last_prompt: usize,
    last_answer: Option<String>,
    /// What came after the last prompt when it made no reply (an overlong line, bytes that are
    /// not text, lines before a time-out).
    last_unfinished: Option<Box<Unfinished>>,
    clock: Clock,
    budget_end: Instant,
    /// When the reply to the prompt last sent is due (see [`Session::send_prompt`]).
    due: Option<Instant>,
}

impl Session {
    /// Starts `argv`; it must end by `budget_end` whatever it does.
    pub fn start(
        argv: &[String],
        limits: Limits,
        clock: Clock,
        budget_end: Instant,
    ) -> std::io::Result<Session> {
        Ok(Session {
            child: Child::spawn(argv, limits)?,
            transcript: Vec::new(),
            last_prompt: 0,
            last_answer: None,
            last_unfinished: None,
            clock,
            budget_end,
            due: None,
        })
    }

    /// Sends the handshake's prompt (if any) and reads the bot's one-line answer.
    pub fn handshake(&mut self, handshake: &Handshake) -> Result<BotAnswer, Failure> {
        if !handshake.prompt.is_empty() {
            self.send(handshake.prompt.as_bytes())?;
        } else {
            // Time from the start of the program.
            self.child.mark_sent();
        }
        let allowance = self.clock.handshake;
        self.read(allowance, |lines: &[&str]| {
            if lines.is_empty() {
                Frame::NeedMore
            } else {
                Frame::Complete
            }
        })
    }

    /// Sends `prompt` and reads the reply `frame` delimits, within the clock's allowance.
    pub fn ask(
        &mut self,
        prompt: &[u8],
        frame: impl FnMut(&[&str]) -> Frame,
    ) -> Result<BotAnswer, Failure> {
        self.send_prompt(prompt)?;
        self.read_answer(frame)
    }

    /// Sends `prompt`; the clock runs from now, so several bots can think at once, each read
    /// later with [`Session::read_answer`].
    pub fn send_prompt(&mut self, prompt: &[u8]) -> Result<(), Failure> {
        self.check_unsolicited()?;
        self.send(prompt)?;
        self.due = Some(Instant::now() + self.clock.allowance());
        Ok(())
    }

    /// Reads the reply to the prompt last sent, by the deadline that prompt set, and charges
    /// its thinking time to the clock.
    pub fn read_answer(
        &mut self,
        frame: impl FnMut(&[&str]) -> Frame,
    ) -> Result<BotAnswer, Failure> {
        let allowance = self.clock.allowance();
        let due = self
            .due
            .take()
            .unwrap_or_else(|| Instant::now() + allowance);
        let answer = self.read_until(due, allowance, frame)?;
        self.clock.charge(answer.elapsed);
        Ok(answer)
    }

    /// Sends `bytes` as they are, then closes the input, and reads what comes back.
    pub fn ask_then_close(
        &mut self,
        bytes: &[u8],
        frame: impl FnMut(&[&str]) -> Frame,
    ) -> Result<BotAnswer, Failure> {
        self.check_unsolicited()?;
        self.send(bytes)?;
        self.child.close_stdin();
        self.read(self.clock.allowance(), frame)
    }

    /// Flood check: output already waiting before a prompt is output nobody asked for.
    fn check_unsolicited(&mut self) -> Result<(), Failure> {
        match self.child.unsolicited_lines() {
            0 => Ok(()),
            n => Err(Failure::Unsolicited(n)),
        }
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        self.last_prompt = self.transcript.len();
        self.last_answer = None;
        self.last_unfinished = None;
        self.transcript.extend_from_slice(bytes);
        self.child.send(bytes).map_err(Failure::from)
    }

    fn read(
        &mut self,
        allowance: Duration,
        frame: impl FnMut(&[&str]) -> Frame,
    ) -> Result<BotAnswer, Failure> {
        self.read_until(Instant::now() + allowance, allowance, frame)
    }

    /// Reads a reply due at `own` (`allowance` after its prompt), or by the end of the budget.
    fn read_until(
        &mut self,
        own: Instant,
        allowance: Duration,
        frame: impl FnMut(&[&str]) -> Frame,
    ) -> Result<BotAnswer, Failure> {
        let deadline = own.min(self.budget_end);
        let read = self.child.read_reply(deadline, frame);
        self.last_unfinished = self.child.unfinished().cloned().map(Box::new);
        match read {
            Ok(reply) => {
                let text = reply.lines.join("\n");
                self.last_answer = Some(text.clone());
                Ok(BotAnswer {
                    text,
                    elapsed: reply.elapsed,
                })
            }
            Err(ReadFailure::Deadline(_)) if deadline < own => Err(Failure::OverBudget),
            Err(ReadFailure::Deadline(waited)) => Err(Failure::TimedOut {
                allowed: allowance,
                waited,
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// Everything written to the bot so far.
    pub fn transcript(&self) -> &[u8] {
        &self.transcript
    }

    /// The last prompt written to the bot (as UTF-8, bytes that are not replaced), and its
    /// answer when one was read, or what came instead: what a report shows of a check that
    /// failed.
    pub fn last_exchange(&self) -> LastExchange {
        let prompt = String::from_utf8_lossy(&self.transcript[self.last_prompt..]).into_owned();
        LastExchange {
            prompt,
            reply: self.last_answer.clone(),
            came: self.last_unfinished.as_deref().map(Unfinished::shown),
        }
    }

    pub fn stderr_tail(&self) -> String {
        self.child.stderr_tail()
    }

    pub fn pgid(&self) -> u32 {
        self.child.id()
    }

    /// Ends the bot (see [`Child::finish`]).
    pub fn finish(&mut self) -> Ended {
        self.child.finish()
    }
}

/// What to report of a bot that ended in error once its input closed (at the end of a match,
/// after the last prompt of a check): how it ended and the end of its stderr. Nothing when it
/// ended well, or was stopped by shinpan (that is judged apart).
pub fn error_at_end(ended: &Ended, stderr_tail: &str) -> Option<String> {
    if !ended.ended_in_error() {
        return None;
    }
    let stderr = stderr_summary(stderr_tail, 2)
        .map(|s| format!("; stderr: {s}"))
        .unwrap_or_default();
    Some(format!(
        "after the end of its input it {}{stderr}",
        ended.describe()
    ))
}

/// The last non-empty lines of a stderr tail, on one line, for a report.
pub fn stderr_summary(tail: &str, lines: usize) -> Option<String> {
    let kept: Vec<&str> = tail
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let start = kept.len().saturating_sub(lines);
    let text = kept[start..].join(" | ");
    let text: String = text.chars().take(300).collect();
    (!text.is_empty()).then_some(text)
}

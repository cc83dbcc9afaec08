//! The bot checker: runs a bot program the way a contest engine would, then the way a broken
//! engine might, and reports what breaks it. Four phases, each a list of checks:
//!
//! 1. `handshake`: the line the game wants first (its name), parsed strictly;
//! 2. `matches`: whole matches on the reference engine against the built-in player, in every
//!    seat, every reply framed, parsed and checked for legality by the engine's step;
//! 3. `extreme`: the game's valid prompts at the extremes of its document ([`Game::edge_cases`]);
//! 4. `malformed`: prompts broken at the text level ([`mutate`]), each followed by end of input.
//!
//! Verdicts follow Autobahn's: `PASS`; `NON-STRICT` (a lenient engine accepts it, the grammar
//! does not); `FAIL` (crash, signal, no reply in time, flood, unparseable or illegal reply), with
//! the exact input that caused it saved for replay; `INFO` (the document leaves the behaviour
//! open, e.g. exiting non-zero on a malformed prompt). A phase stops feeding the bot at its first
//! FAIL; the whole run ends within its budget whatever the bot does. A signal
//! ([`crate::harness::interrupt`]) ends it at once: the check under way and those
//! after it are `INCOMPLETE`.
//!
//! This module holds the options, the report types and the driver (`check_bot`, the budget, the
//! saving of failing inputs); `phases` holds the four phases, `judge` turns what a bot did into a
//! verdict. The report is rendered in `crate::report::bot`.
//!
//! [`Game::edge_cases`]: crate::seam::EdgeCases::edge_cases
//! [`mutate`]: crate::harness::mutate

mod crash;
mod judge;
mod phases;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::harness::interrupt;
use crate::harness::process::Limits;
use crate::harness::session::{Clock, LastExchange, LimitOverrides, Session};
use crate::seam::{DynGame, MatchOptions, ParseVerdict};

use judge::{broke, failed};

/// Time kept back from the budget for ending the last bot.
const BUDGET_MARGIN: Duration = Duration::from_millis(1500);

#[derive(Debug, Clone)]
pub struct BotOptions {
    pub seed: u64,
    /// Matches per seat in the `matches` phase.
    pub matches: usize,
    /// The whole run ends within this.
    pub budget: Duration,
    pub limits: LimitOverrides,
    /// The match options of every match and prompt the checker makes.
    pub match_options: MatchOptions,
    pub process: Limits,
    /// Where inputs that made the bot fail are saved (created on the first save).
    pub save_dir: PathBuf,
    /// What a stack trace after a malformed prompt is.
    pub malformed_crash: MalformedCrash,
    /// The phases to run (the handshake always runs: the others need a bot past it).
    pub phases: Vec<Phase>,
    /// Stop a phase at its first FAIL (the checks left are counted as not run); by default
    /// every check runs, each on a fresh bot, and every failure is reported at once.
    pub fail_fast: bool,
    /// Only the checks of these names (`non-numeric-token`, `seed-1-seat-0`: the names the
    /// report gives), in the phases run; every check when empty. The handshake always runs.
    pub only: Vec<String>,
}

/// The verdict on a bot that dies with an unhandled error (a stack trace on stderr) after a
/// malformed prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MalformedCrash {
    /// A FAIL: a bot must survive what a broken engine could send it.
    #[default]
    Fail,
    /// An INFO, for users who care only about the input a real engine sends. Death by a
    /// signal is still a FAIL.
    Info,
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions {
            seed: 1,
            matches: 1,
            budget: Duration::from_secs(120),
            limits: LimitOverrides::default(),
            match_options: MatchOptions::default(),
            process: Limits::default(),
            save_dir: std::env::temp_dir().join(format!("shinpan-bot-{}", std::process::id())),
            malformed_crash: MalformedCrash::Fail,
            phases: vec![Phase::Matches, Phase::Extreme, Phase::Malformed],
            fail_fast: false,
            only: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Handshake,
    Matches,
    Extreme,
    Malformed,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Handshake => "handshake",
            Phase::Matches => "matches",
            Phase::Extreme => "extreme",
            Phase::Malformed => "malformed",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckVerdict {
    Pass,
    NonStrict,
    Fail,
    Info,
    /// Not run to its end because the run's budget ran out: the run cannot pass.
    Incomplete,
}

impl CheckVerdict {
    pub fn label(self) -> &'static str {
        match self {
            CheckVerdict::Pass => "PASS",
            CheckVerdict::NonStrict => "NON-STRICT",
            CheckVerdict::Fail => "FAIL",
            CheckVerdict::Info => "INFO",
            CheckVerdict::Incomplete => "INCOMPLETE",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub phase: Phase,
    pub name: String,
    pub verdict: CheckVerdict,
    pub detail: String,
    /// The exact bytes the bot was sent, for `bot < file` (FAIL only).
    pub saved: Option<PathBuf>,
    /// The prompt that failed and the bot's reply to it, when one came (FAIL only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_reply: Option<String>,
    /// What came when no whole reply did (an overlong line, output that is not text, lines
    /// before a time-out): bytes that are not UTF-8 and control characters as `\xNN`, cut at
    /// [`crate::harness::process::SHOWN_BYTES`], a last line saying what was cut (FAIL only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_output: Option<String>,
    pub elapsed_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct BotReport {
    pub shinpan_version: String,
    pub game: String,
    pub command: Vec<String>,
    pub seed: u64,
    pub checks: Vec<Check>,
    /// Checks not run after a FAIL in their phase (a phase stops at its first FAIL).
    pub skipped: usize,
    /// Checks not run because the budget ran out: one INCOMPLETE check names them all.
    pub not_run: usize,
    pub elapsed_ms: u64,
    pub save_dir: Option<PathBuf>,
    /// Problems of the run itself (a failing input that could not be saved where asked).
    pub warnings: Vec<String>,
    /// `interrupted by SIGINT` when a signal stopped the run: the check under way and those
    /// after it are `INCOMPLETE`.
    pub interrupted: Option<String>,
}

impl BotReport {
    pub fn count(&self, verdict: CheckVerdict) -> usize {
        self.checks.iter().filter(|c| c.verdict == verdict).count()
    }

    /// Whether the run fails: a check failed, or the budget left checks unrun.
    pub fn failed(&self) -> bool {
        self.count(CheckVerdict::Fail) > 0 || self.count(CheckVerdict::Incomplete) > 0
    }
}

/// The program could not be started at all: the tool cannot do its job.
#[derive(Debug, thiserror::Error)]
#[error("cannot start `{command}`: {reason}")]
pub struct StartError {
    command: String,
    /// Shown in the message, and not also offered as the error's source, so that a printer of
    /// error chains does not print it twice.
    reason: std::io::Error,
}

/// A named check, run later by [`Checker::phase`].
type Run<'a, C> = (String, Box<dyn FnOnce(&mut C) -> Found + 'a>);

/// The checks of one phase that the budget left no time for: how many, and the first's name.
struct NotRun {
    phase: Phase,
    count: usize,
    first: String,
}

/// What one check found, before timing and saving.
struct Found {
    verdict: CheckVerdict,
    detail: String,
    /// The transcript to save on a FAIL.
    input: Option<Vec<u8>>,
    /// The last prompt of the transcript and what came of it.
    exchange: Option<Box<LastExchange>>,
}

impl Found {
    fn new(verdict: CheckVerdict, detail: impl Into<String>) -> Found {
        Found {
            verdict,
            detail: detail.into(),
            input: None,
            exchange: None,
        }
    }
}

struct Checker<'a> {
    game: &'a dyn DynGame,
    argv: &'a [String],
    options: &'a BotOptions,
    budget_end: Instant,
    checks: Vec<Check>,
    skipped: usize,
    /// Per phase, the checks the budget left no time for.
    not_run: Vec<NotRun>,
    /// Where failing inputs went, once one was saved (the fallback when `save_dir` failed).
    saved_in: Option<PathBuf>,
    warnings: Vec<String>,
}

/// Runs the four phases against the program `argv`.
pub fn check_bot(
    game: &dyn DynGame,
    argv: &[String],
    options: &BotOptions,
) -> Result<BotReport, StartError> {
    let started = Instant::now();
    let mut checker = Checker {
        game,
        argv,
        options,
        budget_end: started + options.budget.saturating_sub(BUDGET_MARGIN),
        checks: Vec::new(),
        skipped: 0,
        not_run: Vec::new(),
        saved_in: None,
        warnings: Vec::new(),
    };
    let past_handshake = match checker.handshake_phase() {
        Ok(past) => past,
        // Not the program's doing: the run was interrupted as it started.
        Err(_) if interrupt::received().is_some() => false,
        Err(reason) => {
            return Err(StartError {
                command: argv.join(" "),
                reason,
            })
        }
    };
    if past_handshake {
        let wanted = |phase| options.phases.contains(&phase);
        if wanted(Phase::Matches) {
            checker.matches_phase();
        }
        if wanted(Phase::Extreme) {
            checker.extreme_phase();
        }
        if wanted(Phase::Malformed) {
            checker.malformed_phase();
        }
    }
    let not_run = checker.not_run.iter().map(|n| n.count).sum();
    checker.record_not_run();
    Ok(BotReport {
        shinpan_version: crate::VERSION.to_string(),
        game: game.info().id.to_string(),
        command: argv.to_vec(),
        seed: options.seed,
        skipped: checker.skipped,
        not_run,
        elapsed_ms: started.elapsed().as_millis() as u64,
        save_dir: checker.saved_in.clone(),
        warnings: checker.warnings,
        checks: checker.checks,
        interrupted: interrupt::reason(),
    })
}

fn clock(game: &dyn DynGame, options: &BotOptions) -> Clock {
    Clock::new(game.info().limits, options.limits)
}

impl Checker<'_> {
    /// Runs the `total` checks of one phase, or those `--only` names.
    fn phase<'r>(
        &mut self,
        phase: Phase,
        total: usize,
        runs: impl IntoIterator<Item = Run<'r, Self>>,
    ) {
        let options = self.options;
        if options.only.is_empty() {
            return self.run_phase(phase, total, runs);
        }
        let named: Vec<Run<'r, Self>> = runs
            .into_iter()
            .filter(|(name, _)| options.only.contains(name))
            .collect();
        self.run_phase(phase, named.len(), named);
    }

    /// Runs the `total` checks of one phase in order, each made only when its turn comes, until
    /// the budget ends or a signal stops the run (the rest are counted, not made); with
    /// `--fail-fast`, only up to the first FAIL.
    fn run_phase<'r>(
        &mut self,
        phase: Phase,
        total: usize,
        runs: impl IntoIterator<Item = Run<'r, Self>>,
    ) {
        let mut runs = runs.into_iter().peekable();
        let mut done = 0;
        while let Some((name, run)) = runs.next() {
            if Instant::now() >= self.budget_end || interrupt::reason().is_some() {
                self.not_run.push(NotRun {
                    phase,
                    count: total.saturating_sub(done),
                    first: name,
                });
                return;
            }
            let started = Instant::now();
            let found = run(self);
            let verdict = found.verdict;
            self.record(phase, name, found, started.elapsed());
            match verdict {
                CheckVerdict::Fail if self.options.fail_fast => {
                    self.skipped += total.saturating_sub(done + 1);
                    return;
                }
                // Cut short by the budget: nothing after it can run either.
                CheckVerdict::Incomplete => {
                    if let Some((next, _)) = runs.peek() {
                        self.not_run.push(NotRun {
                            phase,
                            count: total.saturating_sub(done + 1),
                            first: next.clone(),
                        });
                    }
                    return;
                }
                _ => {}
            }
            done += 1;
        }
    }

    /// One INCOMPLETE check for every check the budget left no time for, in all phases: a run
    /// cut short reports what ran and one line for what did not, however many checks that is.
    fn record_not_run(&mut self) {
        let Some(first) = self.not_run.first() else {
            return;
        };
        let phase = first.phase;
        let parts: Vec<String> = self
            .not_run
            .iter()
            .map(|n| format!("{} {} from {}", n.count, n.phase.name(), n.first))
            .collect();
        let count: usize = self.not_run.iter().map(|n| n.count).sum();
        let why = interrupt::reason()
            .unwrap_or_else(|| "the run's time budget (--budget) ran out".to_string());
        self.record(
            phase,
            "not-run".into(),
            Found::new(
                CheckVerdict::Incomplete,
                format!(
                    "{count} check{} not run ({}): {why}",
                    if count == 1 { "" } else { "s" },
                    parts.join(", ")
                ),
            ),
            Duration::ZERO,
        );
    }

    fn record(&mut self, phase: Phase, name: String, found: Found, elapsed: Duration) {
        // What a check met after a signal is the stop (its bot killed), not the bot's doing.
        let found = match interrupt::reason() {
            Some(why) if found.verdict != CheckVerdict::Incomplete => {
                Found::new(CheckVerdict::Incomplete, format!("cut short: {why}"))
            }
            _ => found,
        };
        let index = self.checks.len() + 1;
        let saved = match (&found.input, found.verdict) {
            (Some(input), CheckVerdict::Fail) => {
                self.save(&format!("{index:02}-{}-{name}", phase.name()), input)
            }
            _ => None,
        };
        self.checks.push(Check {
            phase,
            name,
            verdict: found.verdict,
            detail: found.detail,
            saved,
            failed_prompt: found.exchange.as_ref().map(|e| e.prompt.clone()),
            failed_reply: found.exchange.as_ref().and_then(|e| e.reply.clone()),
            failed_output: found.exchange.and_then(|e| e.came),
            elapsed_ms: elapsed.as_millis() as u64,
        });
    }

    /// Saves a failing input as `<stem>.in` in the save directory; when that cannot be
    /// written, in a fresh temporary directory, with a warning in the report either way.
    fn save(&mut self, stem: &str, input: &[u8]) -> Option<PathBuf> {
        let write = |dir: &std::path::Path| {
            let path = dir.join(format!("{stem}.in"));
            std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(&path, input))
                .map(|()| path)
        };
        let wanted = self
            .saved_in
            .clone()
            .unwrap_or(self.options.save_dir.clone());
        match write(&wanted) {
            Ok(path) => {
                self.saved_in = Some(wanted);
                return Some(path);
            }
            Err(e) => self.warnings.push(format!(
                "cannot save the failing input in {}: {e}",
                wanted.display()
            )),
        }
        let fallback =
            std::env::temp_dir().join(format!("shinpan-bot-{}-fallback", std::process::id()));
        match write(&fallback) {
            Ok(path) => {
                self.warnings
                    .push(format!("saved it in {} instead", fallback.display()));
                self.saved_in = Some(fallback);
                Some(path)
            }
            Err(e) => {
                self.warnings.push(format!(
                    "cannot save it in {} either: {e}",
                    fallback.display()
                ));
                None
            }
        }
    }

    /// A fresh bot, past its handshake; on a failure, what to report.
    fn fresh_bot(&self) -> Result<Session, Found> {
        let mut session = Session::start(
            self.argv,
            self.options.process,
            clock(self.game, self.options),
            self.budget_end,
        )
        .map_err(|e| Found::new(CheckVerdict::Fail, format!("cannot start the program: {e}")))?;
        if let Some(handshake) = self.game.info().handshake {
            match session.handshake(&handshake) {
                Ok(answer) => {
                    if let Some(ParseVerdict::Invalid(e)) =
                        self.game.parse(handshake.parse_kind, &answer.text)
                    {
                        return Err(failed(
                            &mut session,
                            format!("handshake: {} `{}`: {e}", handshake.parse_kind, answer.text),
                        ));
                    }
                }
                Err(failure) => return Err(broke(&mut session, "handshake", failure)),
            }
        }
        Ok(session)
    }
}

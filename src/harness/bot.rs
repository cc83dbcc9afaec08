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
//! FAIL; the whole run ends within its budget whatever the bot does.
//!
//! [`Game::edge_cases`]: crate::game::Game::edge_cases
//! [`mutate`]: crate::harness::mutate

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::game::{DynGame, DynMatch, ParseVerdict, Reply, ReplyVerdict};
use crate::harness::mutate;
use crate::harness::process::Limits;
use crate::harness::session::{
    crashed_by_signal, describe_end, stderr_summary, Answer, Clock, Failure, LimitOverrides,
    Session,
};

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
    pub process: Limits,
    /// Where inputs that made the bot fail are saved (created on the first save).
    pub save_dir: PathBuf,
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions {
            seed: 1,
            matches: 1,
            budget: Duration::from_secs(120),
            limits: LimitOverrides::default(),
            process: Limits::default(),
            save_dir: std::env::temp_dir().join(format!("shinpan-bot-{}", std::process::id())),
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
pub enum Verdict {
    Pass,
    NonStrict,
    Fail,
    Info,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::NonStrict => "NON-STRICT",
            Verdict::Fail => "FAIL",
            Verdict::Info => "INFO",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub phase: Phase,
    pub name: String,
    pub verdict: Verdict,
    pub detail: String,
    /// The exact bytes the bot was sent, for `bot < file` (FAIL only).
    pub saved: Option<PathBuf>,
    pub elapsed_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct BotReport {
    pub shinpan_version: String,
    pub game: String,
    pub command: Vec<String>,
    pub seed: u64,
    pub checks: Vec<Check>,
    /// Checks not run: after a FAIL in their phase, or when the budget ran out.
    pub skipped: usize,
    pub elapsed_ms: u64,
    pub save_dir: Option<PathBuf>,
}

impl BotReport {
    pub fn count(&self, verdict: Verdict) -> usize {
        self.checks.iter().filter(|c| c.verdict == verdict).count()
    }

    pub fn failed(&self) -> bool {
        self.count(Verdict::Fail) > 0
    }
}

/// The program could not be started at all: the tool cannot do its job.
#[derive(Debug, thiserror::Error)]
#[error("cannot start `{command}`: {source}")]
pub struct StartError {
    command: String,
    source: std::io::Error,
}

/// A named check, run later by [`Checker::phase`].
type Run<'a, C> = (String, Box<dyn FnOnce(&mut C) -> Found + 'a>);

/// What one check found, before timing and saving.
struct Found {
    verdict: Verdict,
    detail: String,
    /// The transcript to save on a FAIL.
    input: Option<Vec<u8>>,
}

impl Found {
    fn new(verdict: Verdict, detail: impl Into<String>) -> Found {
        Found {
            verdict,
            detail: detail.into(),
            input: None,
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
    saved_any: bool,
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
        saved_any: false,
    };
    let past_handshake = checker.handshake_phase().map_err(|source| StartError {
        command: argv.join(" "),
        source,
    })?;
    if past_handshake {
        checker.matches_phase();
        checker.extreme_phase();
        checker.malformed_phase();
    }
    Ok(BotReport {
        shinpan_version: crate::VERSION.to_string(),
        game: game.info().id.to_string(),
        command: argv.to_vec(),
        seed: options.seed,
        skipped: checker.skipped,
        elapsed_ms: started.elapsed().as_millis() as u64,
        save_dir: checker.saved_any.then(|| options.save_dir.clone()),
        checks: checker.checks,
    })
}

fn clock(game: &dyn DynGame, options: &BotOptions) -> Clock {
    Clock::new(game.limits(), options.limits)
}

impl Checker<'_> {
    /// Runs the checks of one phase in order, stopping at the first FAIL or when the budget ends.
    fn phase(&mut self, phase: Phase, runs: Vec<Run<'_, Self>>) {
        let total = runs.len();
        for (done, (name, run)) in runs.into_iter().enumerate() {
            if Instant::now() >= self.budget_end {
                self.skipped += total - done;
                self.record(
                    phase,
                    "budget".into(),
                    Found::new(Verdict::Info, "the run's time budget ran out"),
                    Duration::ZERO,
                );
                return;
            }
            let started = Instant::now();
            let found = run(self);
            let verdict = found.verdict;
            self.record(phase, name, found, started.elapsed());
            if verdict == Verdict::Fail || Instant::now() >= self.budget_end {
                self.skipped += total - done - 1;
                return;
            }
        }
    }

    fn record(&mut self, phase: Phase, name: String, found: Found, elapsed: Duration) {
        let index = self.checks.len() + 1;
        let saved = match (&found.input, found.verdict) {
            (Some(input), Verdict::Fail) => {
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
            elapsed_ms: elapsed.as_millis() as u64,
        });
    }

    fn save(&mut self, stem: &str, input: &[u8]) -> Option<PathBuf> {
        let dir = &self.options.save_dir;
        let path = dir.join(format!("{stem}.in"));
        let ok = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, input));
        self.saved_any |= ok.is_ok();
        ok.ok().map(|()| path)
    }

    /// A fresh bot, past its handshake; on a failure, what to report.
    fn fresh_bot(&self) -> Result<Session, Found> {
        let mut session = Session::start(
            self.argv,
            self.options.process,
            clock(self.game, self.options),
            self.budget_end,
        )
        .map_err(|e| Found::new(Verdict::Fail, format!("cannot start the program: {e}")))?;
        if let Some(handshake) = self.game.handshake() {
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

    /// Whether the bot got past the handshake; an error when it cannot be started at all.
    fn handshake_phase(&mut self) -> std::io::Result<bool> {
        let started = Instant::now();
        let mut session = Session::start(
            self.argv,
            self.options.process,
            clock(self.game, self.options),
            self.budget_end,
        )?;
        let Some(handshake) = self.game.handshake() else {
            session.finish();
            self.record(
                Phase::Handshake,
                "none".into(),
                Found::new(Verdict::Info, "the game asks for no handshake"),
                Duration::ZERO,
            );
            return Ok(true);
        };
        let kind = handshake.parse_kind;
        let found = match session.handshake(&handshake) {
            Err(failure) => broke(&mut session, kind, failure),
            Ok(answer) => {
                let found = match self.game.parse(kind, &answer.text) {
                    Some(ParseVerdict::Valid { .. }) | None => Found::new(
                        Verdict::Pass,
                        format!(
                            "{kind} `{}` in {} ms",
                            show(&answer.text),
                            answer.elapsed.as_millis()
                        ),
                    ),
                    Some(ParseVerdict::NonStrict(e)) => Found::new(
                        Verdict::NonStrict,
                        format!("{kind} `{}`: {e}", show(&answer.text)),
                    ),
                    Some(ParseVerdict::Invalid(e)) => failed(
                        &mut session,
                        format!("{kind} `{}`: {e}", show(&answer.text)),
                    ),
                };
                let ended = session.finish();
                if ended.pipe_held_by_descendant && found.verdict != Verdict::Fail {
                    failed(
                        &mut session,
                        format!("{}; then it {}", found.detail, describe_end(&ended)),
                    )
                } else {
                    found
                }
            }
        };
        let passed = found.verdict != Verdict::Fail;
        self.record(Phase::Handshake, kind.into(), found, started.elapsed());
        Ok(passed)
    }

    fn matches_phase(&mut self) {
        let players = self.game.info().players;
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for m in 0..self.options.matches as u64 {
            let seed = self.options.seed.wrapping_add(m);
            for seat in 0..players {
                runs.push((
                    format!("seed-{seed}-seat-{seat}"),
                    Box::new(move |c: &mut Self| c.one_match(seed, seat)),
                ));
            }
        }
        self.phase(Phase::Matches, runs);
    }

    fn one_match(&self, seed: u64, seat: usize) -> Found {
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let mut game = self.game.start(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_0000 ^ seat as u64);
        let mut steps = 0;
        let mut slowest = Duration::ZERO;
        let mut non_strict = None;
        while game.outcome().is_none() {
            let awaiting = game.awaiting();
            let mut replies = Vec::with_capacity(awaiting.len());
            for &player in &awaiting {
                if player != seat {
                    replies.push(Reply::text(game.random_reply(player, &mut rng)));
                    continue;
                }
                let prompt = game.prompt(player);
                match session.ask(prompt.as_bytes(), |lines| game.frame(player, lines)) {
                    Ok(answer) => {
                        slowest = slowest.max(answer.elapsed);
                        replies.push(text_reply(&answer));
                    }
                    Err(failure) => return broke(&mut session, &format!("step {steps}"), failure),
                }
            }
            let Some(index) = awaiting.iter().position(|&p| p == seat) else {
                if let Err(e) = game.step(&replies) {
                    return Found::new(Verdict::Info, format!("step {steps}: the engine: {e}"));
                }
                steps += 1;
                continue;
            };
            let bot_text = match &replies[index] {
                Reply::Text { text, .. } => text.clone(),
                _ => String::new(),
            };
            match game.step(&replies).map(|r| r.replies.get(index).cloned()) {
                Err(e) => {
                    return Found::new(Verdict::Info, format!("step {steps}: the engine: {e}"))
                }
                Ok(Some(ReplyVerdict::Rejected(why))) => {
                    return failed(
                        &mut session,
                        format!("step {steps}: illegal reply `{}`: {why}", show(&bot_text)),
                    )
                }
                Ok(Some(ReplyVerdict::TimedOut)) => {
                    return failed(
                        &mut session,
                        format!("step {steps}: the engine's clock ran out (total thinking time)"),
                    )
                }
                Ok(Some(ReplyVerdict::NonStrict(why))) => {
                    non_strict.get_or_insert(format!("step {steps}: `{}`: {why}", show(&bot_text)));
                }
                Ok(_) => {}
            }
            steps += 1;
        }
        let ended = session.finish();
        let outcome = game.outcome().map_or_else(String::new, |o| match o.winner {
            Some(w) if w == seat => format!("won ({})", o.reason),
            Some(_) => format!("lost ({})", o.reason),
            None => format!("draw ({})", o.reason),
        });
        let summary = format!(
            "{steps} steps, {outcome}, slowest reply {} ms",
            slowest.as_millis()
        );
        if ended.pipe_held_by_descendant {
            let mut found = Found::new(
                Verdict::Fail,
                format!("{summary}; then it {}", describe_end(&ended)),
            );
            found.input = Some(session.transcript().to_vec());
            return found;
        }
        match non_strict {
            Some(first) => Found::new(Verdict::NonStrict, format!("{summary}; first: {first}")),
            None => Found::new(Verdict::Pass, summary),
        }
    }

    fn extreme_phase(&mut self) {
        let cases = self.game.edge_cases();
        if cases.is_empty() {
            self.record(
                Phase::Extreme,
                "none".into(),
                Found::new(Verdict::Info, "the game offers no extreme prompts"),
                Duration::ZERO,
            );
            return;
        }
        let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for (i, name) in names.into_iter().enumerate() {
            runs.push((name, Box::new(move |c: &mut Self| c.one_edge(i))));
        }
        self.phase(Phase::Extreme, runs);
    }

    fn one_edge(&self, index: usize) -> Found {
        let Some(case) = self.game.edge_cases().into_iter().nth(index) else {
            return Found::new(Verdict::Info, "no such case");
        };
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let mut worst = Found::new(Verdict::Pass, "");
        let mut answers = Vec::new();
        for (i, state) in case.states.iter().enumerate() {
            if !state.awaiting().contains(&case.seat) {
                continue;
            }
            let prompt = state.prompt(case.seat);
            let answer = match session.ask(prompt.as_bytes(), |l| state.frame(case.seat, l)) {
                Ok(answer) => answer,
                Err(failure) => return broke(&mut session, &format!("prompt {}", i + 1), failure),
            };
            answers.push(format!("`{}`", show(&answer.text)));
            // Legality is judged on the text alone: the deadline judged the time.
            let text = Reply::text(answer.text.clone());
            match judge(state.as_ref(), case.seat, text) {
                ReplyVerdict::Rejected(why) => {
                    return failed(
                        &mut session,
                        format!(
                            "prompt {}: illegal reply `{}`: {why}",
                            i + 1,
                            show(&answer.text)
                        ),
                    )
                }
                ReplyVerdict::NonStrict(why) if worst.verdict == Verdict::Pass => {
                    worst = Found::new(
                        Verdict::NonStrict,
                        format!("prompt {}: `{}`: {why}", i + 1, show(&answer.text)),
                    );
                }
                _ => {}
            }
        }
        session.finish();
        if worst.verdict == Verdict::Pass {
            worst.detail = format!("answered {}", answers.join(", "));
        }
        worst
    }

    fn malformed_phase(&mut self) {
        let base = self.game.start(self.options.seed);
        let Some(&seat) = base.awaiting().first() else {
            return;
        };
        let prompt = base.prompt(seat);
        let mut rng = ChaCha8Rng::seed_from_u64(self.options.seed);
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for mutant in mutate::mutants(&prompt, &mut rng) {
            let seed = self.options.seed;
            runs.push((
                mutant.name.to_string(),
                Box::new(move |c: &mut Self| c.one_mutant(seed, seat, mutant)),
            ));
        }
        self.phase(Phase::Malformed, runs);
    }

    fn one_mutant(&self, seed: u64, seat: usize, mutant: mutate::Mutant) -> Found {
        let state = self.game.start(seed);
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let answer = session.ask_then_close(&mutant.bytes, |l| state.frame(seat, l));
        let note = &mutant.note;
        let mut found = match answer {
            Ok(answer) => {
                let shown = show(&answer.text);
                match judge(state.as_ref(), seat, Reply::text(answer.text)) {
                    ReplyVerdict::Accepted => {
                        Found::new(Verdict::Pass, format!("{note}: answered `{shown}`, a legal reply"))
                    }
                    ReplyVerdict::NonStrict(why) => Found::new(
                        Verdict::NonStrict,
                        format!("{note}: answered `{shown}`: {why}"),
                    ),
                    other => Found::new(
                        Verdict::Info,
                        format!("{note}: answered `{shown}`, which the engine would not play ({other:?}); the document leaves this open"),
                    ),
                }
            }
            Err(Failure::Read(crate::harness::process::ReadFailure::Eof)) => {
                let ended = session.finish();
                let how = describe_end(&ended);
                let stderr = stderr_summary(&session.stderr_tail(), 1)
                    .map(|s| format!("; stderr: {s}"))
                    .unwrap_or_default();
                // Its input is closed: a bot that neither answers nor exits has to be killed.
                if crashed_by_signal(&ended) || ended.pipe_held_by_descendant || ended.killed {
                    let mut found = Found::new(
                        Verdict::Fail,
                        format!("{note}: no reply, and it {how}{stderr}"),
                    );
                    found.input = Some(session.transcript().to_vec());
                    return found;
                }
                Found::new(
                    Verdict::Info,
                    format!("{note}: no reply, it {how}{stderr} (acceptable: the document leaves this open)"),
                )
            }
            Err(failure) => {
                let found = broke(&mut session, note, failure);
                return Found {
                    detail: match found.verdict {
                        Verdict::Fail => {
                            format!("{} (after the prompt and end of input)", found.detail)
                        }
                        _ => found.detail,
                    },
                    ..found
                };
            }
        };
        let ended = session.finish();
        if crashed_by_signal(&ended) || ended.pipe_held_by_descendant {
            found = Found::new(
                Verdict::Fail,
                format!("{}; then it {}", found.detail, describe_end(&ended)),
            );
            found.input = Some(session.transcript().to_vec());
        }
        found
    }
}

/// How the engine takes `reply` from `seat` on a copy of `state` (others play the built-in).
fn judge(state: &dyn DynMatch, seat: usize, reply: Reply) -> ReplyVerdict {
    let mut copy = state.fork();
    let awaiting = copy.awaiting();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let replies: Vec<Reply> = awaiting
        .iter()
        .map(|&p| {
            if p == seat {
                reply.clone()
            } else {
                Reply::text(copy.random_reply(p, &mut rng))
            }
        })
        .collect();
    let index = awaiting.iter().position(|&p| p == seat);
    match (copy.step(&replies), index) {
        (Ok(report), Some(i)) => report
            .replies
            .get(i)
            .cloned()
            .unwrap_or(ReplyVerdict::Accepted),
        (Err(e), _) => ReplyVerdict::Rejected(format!("the engine cannot step: {e}")),
        (Ok(_), None) => ReplyVerdict::Rejected("the seat is not awaited".into()),
    }
}

fn text_reply(answer: &Answer) -> Reply {
    Reply::Text {
        text: answer.text.clone(),
        elapsed_ms: answer.elapsed.as_millis() as u64,
    }
}

/// A FAIL that names the input that caused it.
fn failed(session: &mut Session, detail: String) -> Found {
    session.finish();
    Found {
        verdict: Verdict::Fail,
        detail,
        input: Some(session.transcript().to_vec()),
    }
}

/// The verdict when a session broke: the failure, how the program ended, its stderr.
fn broke(session: &mut Session, when: &str, failure: Failure) -> Found {
    let ended = session.finish();
    if failure == Failure::OverBudget {
        return Found::new(Verdict::Info, format!("{when}: {failure}"));
    }
    let stderr = stderr_summary(&session.stderr_tail(), 2)
        .map(|s| format!("; stderr: {s}"))
        .unwrap_or_default();
    failed(
        session,
        format!(
            "{when}: {failure}; the program {}{stderr}",
            describe_end(&ended)
        ),
    )
}

/// A reply for a report: at most 60 characters, control characters escaped.
fn show(text: &str) -> String {
    let escaped: String = text.escape_debug().collect();
    match escaped.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &escaped[..i]),
        None => escaped,
    }
}

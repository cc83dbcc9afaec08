//! The four phases of the bot checker, in the order they run. The handshake is one check, on
//! its own bot, and decides whether the others run. The other three build their list of checks,
//! each on a fresh bot, and run it through `Checker::phase`, which owns the budget and the stop
//! at the first FAIL under `--fail-fast`.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::crash::stack_trace;
use super::judge::{broke, failed, judge, show};
use super::{clock, CheckVerdict, Checker, Found, MalformedCrash, Phase, Run};
use crate::harness::mutate;
use crate::harness::process::{Ended, ReadFailure};
use crate::harness::referee::{play_step, Seat, StepRecord};
use crate::harness::session::{error_at_end, stderr_summary, BotAnswer, Failure, Session};
use crate::rng::{player_stream, seeded};
use crate::seam::{DynMatch, EdgeCase, ParseVerdict, Reply, ReplyVerdict};

/// What is wrong with how a bot ended after its name and the end of its input, if anything: it
/// ignored SIGTERM, left processes running, or left something holding its output. (A bot whose
/// input closes before its first prompt may wait for it and need stopping.)
fn handshake_teardown_problem(ended: &Ended) -> Option<String> {
    (ended.ignored_sigterm || ended.left_a_mess()).then(|| ended.describe())
}

/// What is wrong with how a bot ended once its input closed after a match or its last prompt,
/// if anything: it did not exit at the end of its input (and had to be stopped), ignored
/// SIGTERM, left processes running, or left something holding its output. One rule with
/// `play`, which reports the same as a fault.
fn teardown_problem(ended: &Ended) -> Option<String> {
    (ended.killed || ended.ignored_sigterm || ended.left_a_mess()).then(|| {
        if ended.killed && !ended.ignored_sigterm {
            format!(
                "did not exit at the end of its input, and {}",
                ended.describe()
            )
        } else {
            ended.describe()
        }
    })
}

/// A check that went well up to the end of the bot's input, with how the bot ended: one that
/// then crashed or exited in error is NON-STRICT (a contest engine has its result already, but
/// the crash is worth knowing), naming its status or signal and the end of its stderr.
fn with_error_at_end(mut found: Found, ended: &Ended, session: &Session) -> Found {
    let Some(problem) = error_at_end(ended, &session.stderr_tail()) else {
        return found;
    };
    if found.verdict == CheckVerdict::Pass {
        found.verdict = CheckVerdict::NonStrict;
    }
    found.detail = format!("{}; {problem}", found.detail);
    found.input = Some(session.transcript().to_vec());
    found.exchange = Some(Box::new(session.last_exchange()));
    found
}

/// The first stream of a seed's generator that varies the prompts sent to a bot (the built-in
/// players use the players' streams, 1 and up; [`player_stream`]); one more for each seat or
/// extreme case.
const VARY_STREAM: u64 = 1000;

/// Why a checked match stopped before its end.
enum Stop {
    /// The bot's session broke (no reply in time, a crash, ...).
    Broke(Failure),
    /// The bot's reply was one the engine refuses.
    Illegal(String),
    /// The engine could not play the step: not the bot's fault.
    Engine(String),
}

/// How a checked match went for the bot, up to its end or the step that stopped it.
#[derive(Default)]
struct MatchPlay {
    /// Steps played to their end.
    steps: usize,
    slowest: Duration,
    /// The first reply the engine took though it was not strictly of the grammar.
    non_strict: Option<String>,
    stop: Option<Stop>,
}

impl MatchPlay {
    /// Takes in what step `self.steps` did to the bot in `seat`: its slowest reply, a broken
    /// session or a refused reply (which stop the match), a non-strict reply.
    fn take_step(&mut self, record: &StepRecord, seat: usize) {
        let steps = self.steps;
        if let Some(i) = record.awaiting.iter().position(|&p| p == seat) {
            let shown = match &record.replies[i] {
                Reply::Text { text, .. } => show(text),
                _ => String::new(),
            };
            self.slowest = self.slowest.max(record.waited[i]);
            self.stop = match (&record.new_faults[i], &record.verdicts[i]) {
                (Some(failure), _) => Some(Stop::Broke(failure.clone())),
                (None, ReplyVerdict::Rejected(why)) => Some(Stop::Illegal(format!(
                    "step {steps}: illegal reply `{shown}`: {why}"
                ))),
                (None, ReplyVerdict::TimedOut) => Some(Stop::Illegal(format!(
                    "step {steps}: the engine's clock ran out (total thinking time)"
                ))),
                (None, ReplyVerdict::NonStrict(why)) => {
                    self.non_strict
                        .get_or_insert(format!("step {steps}: `{shown}`: {why}"));
                    None
                }
                _ => None,
            };
        }
        if self.stop.is_none() {
            self.steps += 1;
        }
    }
}

/// Plays `game` between `seats` until it ends or something stops it ([`Stop`]), the bot in
/// `seat` sent prompts varied by `vary`.
fn play_match(
    game: &mut dyn DynMatch,
    seats: &mut [Seat],
    seat: usize,
    vary: &mut ChaCha8Rng,
) -> MatchPlay {
    let mut play = MatchPlay::default();
    while game.outcome().is_none() && play.stop.is_none() {
        match play_step(game, seats, Some(vary)) {
            Ok(record) => play.take_step(&record, seat),
            Err(e) => {
                play.stop = Some(Stop::Engine(format!(
                    "step {}: the engine: {e}",
                    play.steps
                )));
            }
        }
    }
    play
}

impl Checker<'_> {
    /// Whether the bot got past the handshake; an error when it cannot be started at all.
    pub(super) fn handshake_phase(&mut self) -> std::io::Result<bool> {
        let started = Instant::now();
        let mut session = Session::start(
            self.argv,
            self.options.process,
            clock(self.game, self.options),
            self.budget_end,
        )?;
        let Some(handshake) = self.game.info().handshake else {
            session.finish();
            self.record(
                Phase::Handshake,
                "none".into(),
                Found::new(CheckVerdict::Info, "the game asks for no handshake"),
                Duration::ZERO,
            );
            return Ok(true);
        };
        let kind = handshake.parse_kind;
        let found = match session.handshake(&handshake) {
            Err(failure) => broke(&mut session, kind, failure),
            Ok(answer) => {
                let found = self.judge_handshake(&mut session, kind, &answer);
                // How it ends is judged apart: a bad ending is no reason to skip the phases
                // its name lets run.
                let ended = session.finish();
                if let Some(problem) = handshake_teardown_problem(&ended) {
                    let mut teardown = Found::new(
                        CheckVerdict::Fail,
                        format!("after its {kind} and the end of its input, it {problem}"),
                    );
                    teardown.input = Some(session.transcript().to_vec());
                    teardown.exchange = Some(Box::new(session.last_exchange()));
                    let passed = found.verdict != CheckVerdict::Fail;
                    self.record(Phase::Handshake, kind.into(), found, started.elapsed());
                    self.record(
                        Phase::Handshake,
                        "teardown".into(),
                        teardown,
                        Duration::ZERO,
                    );
                    return Ok(passed);
                }
                if let Some(problem) = error_at_end(&ended, &session.stderr_tail()) {
                    let passed = found.verdict != CheckVerdict::Fail;
                    self.record(Phase::Handshake, kind.into(), found, started.elapsed());
                    self.record(
                        Phase::Handshake,
                        "teardown".into(),
                        Found::new(
                            CheckVerdict::NonStrict,
                            format!("after its {kind}, {problem}"),
                        ),
                        Duration::ZERO,
                    );
                    return Ok(passed);
                }
                found
            }
        };
        let passed = found.verdict != CheckVerdict::Fail;
        self.record(Phase::Handshake, kind.into(), found, started.elapsed());
        Ok(passed)
    }

    /// The bot's handshake answer read by the game's `kind` parser: legal, non-strict, or a
    /// FAIL with the bot's transcript.
    fn judge_handshake(&self, session: &mut Session, kind: &str, answer: &BotAnswer) -> Found {
        match self.game.parse(kind, &answer.text) {
            Some(ParseVerdict::Valid { .. }) | None => Found::new(
                CheckVerdict::Pass,
                format!(
                    "{kind} `{}` in {} ms",
                    show(&answer.text),
                    answer.elapsed.as_millis()
                ),
            ),
            Some(ParseVerdict::NonStrict(e)) => Found::new(
                CheckVerdict::NonStrict,
                format!("{kind} `{}`: {e}", show(&answer.text)),
            ),
            Some(ParseVerdict::Invalid(e)) => {
                failed(session, format!("{kind} `{}`: {e}", show(&answer.text)))
            }
        }
    }

    /// `--matches` per seat, each check made only when its turn comes: nothing is planned per
    /// match before it is played, so a count in the millions costs nothing up front.
    pub(super) fn matches_phase(&mut self) {
        let players = self.game.info().players;
        let first_seed = self.options.seed;
        let total = self.options.matches.saturating_mul(players);
        let runs = (0..self.options.matches as u64).flat_map(move |m| {
            let seed = first_seed.wrapping_add(m);
            (0..players).map(move |seat| -> Run<'static, Self> {
                (
                    format!("seed-{seed}-seat-{seat}"),
                    Box::new(move |c: &mut Self| c.one_match(seed, seat)),
                )
            })
        });
        self.phase(Phase::Matches, total, runs);
    }

    fn one_match(&self, seed: u64, seat: usize) -> Found {
        let session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let mut game = match self.game.start(seed, &self.options.match_options) {
            Ok(game) => game,
            Err(e) => return Found::new(CheckVerdict::Info, format!("the engine: {e}")),
        };
        let mut seats: Vec<Seat> = (0..self.game.info().players)
            .map(|p| Seat::Builtin(seeded(seed, player_stream(p))))
            .collect();
        seats[seat] = Seat::Bot {
            session,
            fault: None,
        };
        // Prompts as another engine may print them (D-codevs4-13: resource cells shuffled).
        let mut vary = seeded(seed, VARY_STREAM + seat as u64);
        let play = play_match(game.as_mut(), &mut seats, seat, &mut vary);
        let Seat::Bot { mut session, .. } = seats.swap_remove(seat) else {
            return Found::new(CheckVerdict::Info, "the bot's seat is empty");
        };
        let steps = play.steps;
        match play.stop {
            Some(Stop::Broke(failure)) => {
                return broke(&mut session, &format!("step {steps}"), failure)
            }
            Some(Stop::Engine(detail)) => return Found::new(CheckVerdict::Info, detail),
            Some(Stop::Illegal(detail)) => return failed(&mut session, detail),
            None => {}
        }
        let ended = session.finish();
        let outcome = game.outcome().map_or_else(String::new, |o| match o.winner {
            Some(w) if w == seat => format!("won ({})", o.reason),
            Some(_) => format!("lost ({})", o.reason),
            None if o.reason == "draw" => "draw".into(),
            None => format!("draw ({})", o.reason),
        });
        let summary = format!(
            "{steps} steps, {outcome}, slowest reply {} ms",
            play.slowest.as_millis()
        );
        if let Some(problem) = teardown_problem(&ended) {
            let mut found = Found::new(CheckVerdict::Fail, format!("{summary}; then it {problem}"));
            found.input = Some(session.transcript().to_vec());
            found.exchange = Some(Box::new(session.last_exchange()));
            return found;
        }
        let found = match play.non_strict {
            Some(first) => Found::new(
                CheckVerdict::NonStrict,
                format!("{summary}; first: {first}"),
            ),
            None => Found::new(CheckVerdict::Pass, summary),
        };
        with_error_at_end(found, &ended, &session)
    }

    pub(super) fn extreme_phase(&mut self) {
        let cases = self.edge_cases();
        if cases.is_empty() {
            self.record(
                Phase::Extreme,
                "none".into(),
                Found::new(CheckVerdict::Info, "the game offers no extreme prompts"),
                Duration::ZERO,
            );
            return;
        }
        let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for (i, name) in names.into_iter().enumerate() {
            runs.push((name, Box::new(move |c: &mut Self| c.one_edge(i))));
        }
        self.phase(Phase::Extreme, runs.len(), runs);
    }

    /// The game's extreme prompts ([`crate::seam::EdgeCases`]); none when it has none.
    fn edge_cases(&self) -> Vec<EdgeCase<Box<dyn DynMatch>>> {
        match self.game.info().capabilities.edge_cases {
            Some(edges) => edges.edge_cases(),
            None => Vec::new(),
        }
    }

    fn one_edge(&self, index: usize) -> Found {
        let Some(case) = self.edge_cases().into_iter().nth(index) else {
            return Found::new(CheckVerdict::Info, "no such case");
        };
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let mut worst = Found::new(CheckVerdict::Pass, "");
        let mut answers = Vec::new();
        let mut vary = seeded(self.options.seed, VARY_STREAM + index as u64);
        for (i, state) in case.states.iter().enumerate() {
            if !state.awaiting().contains(&case.seat) {
                continue;
            }
            let prompt = state.prompt_varied(case.seat, &mut vary);
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
                ReplyVerdict::NonStrict(why) if worst.verdict == CheckVerdict::Pass => {
                    worst = Found::new(
                        CheckVerdict::NonStrict,
                        format!("prompt {}: `{}`: {why}", i + 1, show(&answer.text)),
                    );
                }
                _ => {}
            }
        }
        let ended = session.finish();
        if let Some(problem) = teardown_problem(&ended) {
            let mut found = Found::new(
                CheckVerdict::Fail,
                format!("answered {}; then it {problem}", answers.join(", ")),
            );
            found.input = Some(session.transcript().to_vec());
            found.exchange = Some(Box::new(session.last_exchange()));
            return found;
        }
        if worst.verdict == CheckVerdict::Pass {
            worst.detail = format!("answered {}", answers.join(", "));
        }
        with_error_at_end(worst, &ended, &session)
    }

    pub(super) fn malformed_phase(&mut self) {
        let Ok(base) = self
            .game
            .start(self.options.seed, &self.options.match_options)
        else {
            return;
        };
        let Some(&seat) = base.awaiting().first() else {
            return;
        };
        let prompt = base.prompt(seat);
        let mut rng = seeded(self.options.seed, 0);
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for mutant in mutate::mutants(&prompt, &mut rng) {
            let seed = self.options.seed;
            runs.push((
                mutant.name.to_string(),
                Box::new(move |c: &mut Self| c.one_mutant(seed, seat, mutant)),
            ));
        }
        self.phase(Phase::Malformed, runs.len(), runs);
    }

    fn one_mutant(&self, seed: u64, seat: usize, mutant: mutate::Mutant) -> Found {
        let state = match self.game.start(seed, &self.options.match_options) {
            Ok(state) => state,
            Err(e) => return Found::new(CheckVerdict::Info, format!("the engine: {e}")),
        };
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let answer = session.ask_then_close(&mutant.bytes, |l| state.frame(seat, l));
        let note = &mutant.note;
        let found = match answer {
            Ok(answer) => judge_mutant_answer(state.as_ref(), seat, note, answer.text),
            // No reply is what the document leaves open; whether the bot then ended well is
            // judged below, and a FAIL must not read as acceptable.
            Err(Failure::Read(ReadFailure::Eof)) => {
                Found::new(CheckVerdict::Info, format!("{note}: no reply"))
            }
            Err(failure) => {
                let found = broke(&mut session, note, failure);
                return Found {
                    detail: match found.verdict {
                        CheckVerdict::Fail => {
                            format!("{} (after the prompt and end of input)", found.detail)
                        }
                        _ => found.detail,
                    },
                    ..found
                };
            }
        };
        self.end_after_mutant(found, &mut session)
    }

    /// Its input is closed after a malformed prompt: now the bot must end, and end well. One
    /// that had to be stopped, died by a signal, left a mess, or (unless `--malformed-crash
    /// info`) died with a stack trace fails; else how it ended joins `found`'s detail.
    fn end_after_mutant(&self, found: Found, session: &mut Session) -> Found {
        let ended = session.finish();
        let stderr = session.stderr_tail();
        let how = ended.describe();
        let unhandled = if ended.killed {
            Some(format!(
                "it did not exit at the end of its input, and {how}"
            ))
        } else if ended.crashed_by_signal() || ended.left_a_mess() {
            Some(format!("then it {how}"))
        } else {
            match (stack_trace(&stderr), self.options.malformed_crash) {
                (Some(trace), MalformedCrash::Fail) => Some(format!(
                    "then it {how} with an unhandled error (a {} stack trace: {})",
                    trace.runtime, trace.excerpt
                )),
                _ => None,
            }
        };
        if let Some(why) = unhandled {
            let mut found = Found::new(CheckVerdict::Fail, format!("{}; {why}", found.detail));
            found.input = Some(session.transcript().to_vec());
            found.exchange = Some(Box::new(session.last_exchange()));
            return found;
        }
        let said = stderr_summary(&stderr, 1)
            .map(|s| format!("; stderr: {s}"))
            .unwrap_or_default();
        let open = if found.verdict == CheckVerdict::Info && !found.detail.contains("open") {
            " (the document leaves this open)"
        } else {
            ""
        };
        Found {
            detail: format!("{}; it {how}{said}{open}", found.detail),
            ..found
        }
    }
}

/// A bot's reply to a malformed prompt (described by `note`), judged as the engine would take
/// it from the state the prompt was made from: any reply is open, a legal one passes.
fn judge_mutant_answer(state: &dyn DynMatch, seat: usize, note: &str, text: String) -> Found {
    let shown = show(&text);
    match judge(state, seat, Reply::text(text)) {
        ReplyVerdict::Accepted => Found::new(
            CheckVerdict::Pass,
            format!("{note}: answered `{shown}`, a legal reply"),
        ),
        ReplyVerdict::NonStrict(why) => Found::new(
            CheckVerdict::NonStrict,
            format!("{note}: answered `{shown}`: {why}"),
        ),
        other => Found::new(
            CheckVerdict::Info,
            format!(
                "{note}: answered `{shown}`, which the engine would not play \
                 ({other:?}); the document leaves this open"
            ),
        ),
    }
}

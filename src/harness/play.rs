//! Local matches between bot programs (or the built-in player) on the reference engine, with the
//! game's time limits, as `shinpan play` runs them; every prompt and reply can be logged as JSON
//! lines for replay.
//!
//! A run is a list of [`Round`]s, each one match with a seed, a seating and match options.
//! [`rounds`] makes the plain plan: seeds `seed, seed+1, ...`, the seating rotated every round
//! so that every program plays every seat. [`series_rounds`] makes a game's series (CODE VS
//! 4.0's 41 stages): fixed seats, each match with its own options and what the match before it
//! hands on ([`crate::seam::SeriesPlay::carry`]: CODE VS 4.0's thinking time, one hour for the
//! whole series), ranked by the game's [`SeriesScore`]s. The report says, per match and seat,
//! how many replies the engine ignored as late, so a player that ran out of time shows where. A
//! run interrupted by a signal ([`interrupt`]) stops at once: the match under way is not
//! counted, and its log ends with an `interrupted` record instead of an `end`.

use std::io::Write;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use crate::harness::interrupt;
use crate::harness::log::{now_us, record_line, LOG_FORMAT};
use crate::harness::process::Limits;
use crate::harness::referee::{play_step, Seat, StepRecord};
use crate::harness::seat_failure::failure_of;
pub use crate::harness::seat_failure::{FailureKind, SeatFailure};
use crate::harness::session::{error_at_end, Clock, Failure, LimitOverrides, Session};
use crate::rng::{player_stream, seeded};
use crate::seam::{
    DynGame, DynMatch, MatchOptions, Outcome, PlayError, Reply, ReplyVerdict, Series, SeriesScore,
    StepError,
};

/// Why a run of matches stopped with no result: the tool could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The game cannot start a match with its seed and options.
    #[error(transparent)]
    Start(PlayError),
    /// A contender's program cannot be started.
    #[error("cannot start `{command}`: {source}")]
    Program {
        command: String,
        #[source]
        source: std::io::Error,
    },
    /// The reference engine cannot play a step.
    #[error("the engine: {0}")]
    Engine(#[source] StepError),
    /// The log cannot be written.
    #[error(transparent)]
    Log(#[from] std::io::Error),
}

/// One side of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contender {
    /// The game's built-in random legal player.
    Builtin,
    Program(Vec<String>),
}

impl Contender {
    /// `builtin` (the word alone) is the built-in player; anything else a command line.
    pub fn from_argv(argv: Vec<String>) -> Contender {
        if argv.len() == 1 && argv[0] == "builtin" {
            Contender::Builtin
        } else {
            Contender::Program(argv)
        }
    }

    pub fn label(&self) -> String {
        match self {
            Contender::Builtin => "builtin".into(),
            Contender::Program(argv) => argv.join(" "),
        }
    }
}

/// One match of a run: `seats[s]` is the index of the contender in seat `s`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Round {
    pub seed: u64,
    pub seats: Vec<usize>,
    pub options: MatchOptions,
    /// What the series calls this match (`stage 30`); empty outside a series.
    pub label: String,
    /// Whether the match is one of a series: it starts from what the match before it handed on
    /// (laid over `options` when it is played), and hands on to the next.
    pub in_series: bool,
}

/// `count` rounds from `seed`, the seating rotated by one each round, each made when it is
/// asked for: a count in the billions plans nothing up front.
pub fn rounds(
    seed: u64,
    count: usize,
    players: usize,
    options: &MatchOptions,
) -> impl Iterator<Item = Round> + '_ {
    (0..count).map(move |r| Round {
        seed: seed.wrapping_add(r as u64),
        seats: (0..players).map(|s| (s + r) % players).collect(),
        options: options.clone(),
        label: String::new(),
        in_series: false,
    })
}

/// The matches of `series` from `seed`, every contender in its own seat throughout; the
/// command line's `options` under each match's own.
pub fn series_rounds(
    seed: u64,
    series: &Series,
    players: usize,
    options: &MatchOptions,
) -> Vec<Round> {
    series
        .matches
        .iter()
        .enumerate()
        .map(|(r, m)| Round {
            seed: seed.wrapping_add(r as u64),
            seats: (0..players).collect(),
            options: options.merged(&MatchOptions(m.options.clone())),
            label: m.label.clone(),
            in_series: true,
        })
        .collect()
}

#[derive(Debug, Clone)]
pub struct PlayOptions {
    pub limits: LimitOverrides,
    pub process: Limits,
    /// The series' ranking sentence when the plan is a series: the summary then ranks the
    /// contenders by their summed series scores.
    pub ranking: Option<&'static str>,
}

/// How one match went.
#[derive(Debug, Clone, Serialize)]
pub struct MatchResult {
    pub round: usize,
    pub seed: u64,
    pub label: String,
    /// The contender index in each seat.
    pub seats: Vec<usize>,
    /// The match options it was played with, what the match before it handed on included.
    pub options: MatchOptions,
    pub outcome: Option<Outcome>,
    /// The contender index of the winner, if any.
    pub winner: Option<usize>,
    pub steps: usize,
    /// Thinking time each seat used (time waited, for a reply that never came), in ms.
    pub time_used_ms: Vec<u64>,
    /// What the match is worth to each seat, by the game's series ranking.
    pub scores: Vec<SeriesScore>,
    /// What went wrong with a program, per seat (its first failure and how it ended).
    pub faults: Vec<Option<String>>,
    /// Per seat, a program that played its match out and then crashed or exited in error once
    /// its input closed (NON-STRICT: the result stands).
    pub non_strict: Vec<Option<String>>,
    /// Per seat, the replies the engine ignored as late (verdict `timed-out`): a player that ran
    /// out of its time.
    pub late_replies: Vec<usize>,
    /// Per seat, the step of its first late reply.
    pub first_late_step: Vec<Option<usize>>,
    /// Per seat, its first crash, time-out or illegal reply, if any.
    pub failures: Vec<Option<SeatFailure>>,
    /// Per seat, the longest a reply that came took, in ms, its first reply and the handshake
    /// not counted (they may have limits of their own: CEDEC 2013's name, 5 s to a turn's 1 s).
    pub slowest_reply_ms: Vec<u64>,
    /// In a series, what the match hands to the next one (the game's options); empty otherwise.
    pub carried: MatchOptions,
}

#[cfg(test)]
impl MatchResult {
    /// A two-player match of seed 1 in seats `[0, 1]` that ended after `steps` with `outcome`
    /// (won by the contender `winner`) and nothing else to say of it: what a unit test of a
    /// report changes one field at a time.
    pub(crate) fn ended(outcome: Outcome, winner: Option<usize>, steps: usize) -> MatchResult {
        MatchResult {
            round: 0,
            seed: 1,
            label: String::new(),
            seats: vec![0, 1],
            options: MatchOptions::default(),
            outcome: Some(outcome),
            winner,
            steps,
            time_used_ms: vec![0, 0],
            scores: Vec::new(),
            faults: vec![None, None],
            non_strict: vec![None, None],
            late_replies: vec![0, 0],
            first_late_step: vec![None, None],
            failures: vec![None, None],
            slowest_reply_ms: vec![0, 0],
            carried: MatchOptions::default(),
        }
    }
}

/// A contender's place in a series.
#[derive(Debug, Clone, Serialize)]
pub struct Standing {
    pub contender: usize,
    pub points: i64,
    pub tiebreak: i64,
}

/// Every match of a run and the totals per contender.
#[derive(Debug, Clone, Serialize)]
pub struct PlaySummary {
    pub game: String,
    pub contenders: Vec<String>,
    /// The matches, when kept ([`play`]); empty when each was handed on as it ended
    /// ([`play_each`]).
    pub matches: Vec<MatchResult>,
    /// How many matches were played.
    pub played: usize,
    pub wins: Vec<usize>,
    pub draws: usize,
    /// The series' ranking, best first (only for a series).
    pub ranking: Option<String>,
    pub standings: Vec<Standing>,
    /// Why the run stopped before its last match (`interrupted by SIGTERM during match 2`):
    /// `matches` holds those played to their end.
    pub interrupted: Option<String>,
}

/// Plays `plan` between `contenders` and keeps every match in the summary. `log` receives one
/// JSON line per event; `progress` is told `(round, step)` after every step.
pub fn play(
    game: &dyn DynGame,
    contenders: &[Contender],
    plan: &[Round],
    options: &PlayOptions,
    log: Option<&mut dyn Write>,
    progress: impl FnMut(usize, usize),
) -> Result<PlaySummary, MatchError> {
    let mut matches = Vec::with_capacity(plan.len());
    let mut summary = play_each(
        game,
        contenders,
        plan.iter().cloned(),
        options,
        log,
        progress,
        |m| matches.push(m),
    )?;
    summary.matches = matches;
    Ok(summary)
}

/// Plays the rounds of `plan` one after the other, each made only when its turn comes, and
/// hands each match to `ended` as it ends; the summary keeps the totals, not the matches, so
/// memory does not grow with the number of rounds.
pub fn play_each(
    game: &dyn DynGame,
    contenders: &[Contender],
    plan: impl IntoIterator<Item = Round>,
    options: &PlayOptions,
    mut log: Option<&mut dyn Write>,
    mut progress: impl FnMut(usize, usize),
    mut ended: impl FnMut(MatchResult),
) -> Result<PlaySummary, MatchError> {
    let mut wins = vec![0; contenders.len()];
    let mut draws = 0;
    let mut played = 0;
    let mut interrupted = None;
    // In a series, what the match before hands to the next (CODE VS 4.0's time left).
    let mut carried: Option<MatchOptions> = None;
    let mut standings: Vec<Standing> = (0..contenders.len())
        .map(|contender| Standing {
            contender,
            points: 0,
            tiebreak: 0,
        })
        .collect();
    for (round, mut plan) in plan.into_iter().enumerate() {
        if let Some(why) = interrupt::reason() {
            interrupted = Some(format!("{why} before match {}", round + 1));
            break;
        }
        if let (true, Some(before)) = (plan.in_series, &carried) {
            plan.options = plan.options.merged(before);
        }
        let result = play_one(
            game,
            contenders,
            round,
            &plan,
            options,
            &mut log,
            &mut progress,
        )?;
        let Some(m) = result else {
            let why = interrupt::reason().unwrap_or_default();
            interrupted = Some(format!("{why} during match {} (not counted)", round + 1));
            break;
        };
        played += 1;
        match m.winner {
            Some(w) => wins[w] += 1,
            None => draws += 1,
        }
        for (&contender, score) in m.seats.iter().zip(&m.scores) {
            standings[contender].points += score.points;
            standings[contender].tiebreak += score.tiebreak;
        }
        carried = Some(m.carried.clone());
        ended(m);
    }
    standings.sort_by_key(|s| std::cmp::Reverse((s.points, s.tiebreak)));
    Ok(PlaySummary {
        game: game.info().id.to_string(),
        contenders: contenders.iter().map(Contender::label).collect(),
        matches: Vec::new(),
        played,
        wins,
        draws,
        ranking: options.ranking.map(str::to_string),
        standings: if options.ranking.is_some() {
            standings
        } else {
            Vec::new()
        },
        interrupted,
    })
}

/// Plays one match, the `index`th of a run, logging it to `log`: `None` when a signal
/// interrupted it (the log then ends with an `interrupted` record). What `play --matches` runs
/// on each of its workers.
pub fn play_match(
    game: &dyn DynGame,
    contenders: &[Contender],
    index: usize,
    plan: &Round,
    options: &PlayOptions,
    log: Option<&mut dyn Write>,
) -> Result<Option<MatchResult>, MatchError> {
    let mut log = log;
    play_one(
        game,
        contenders,
        index,
        plan,
        options,
        &mut log,
        &mut |_, _| {},
    )
}

/// A trace-log record of a whole prompt or reply (`conformance/TRACES.md`).
fn record(event: &str, round: usize, player: usize, text: &str) -> serde_json::Value {
    json!({"event": event, "match": round, "player": player, "t_us": now_us(), "text": text})
}

fn record_of(
    event: &str,
    round: usize,
    player: usize,
    text: &str,
    step: usize,
) -> serde_json::Value {
    let mut value = record(event, round, player, text);
    value["step"] = step.into();
    value
}

fn emit(log: &mut Option<&mut dyn Write>, event: serde_json::Value) -> std::io::Result<()> {
    match log {
        Some(out) => out
            .write_all(record_line(&event).as_bytes())
            .and_then(|()| out.flush()),
        None => Ok(()),
    }
}

/// Marks the log of a match cut short by a signal: it gets no `end` record, so `trace` reads it
/// as incomplete.
fn cut_short(
    log: &mut Option<&mut dyn Write>,
    round: usize,
    seats: &mut [Seat],
) -> std::io::Result<()> {
    for seat in seats {
        if let Seat::Bot { session, .. } = seat {
            session.finish();
        }
    }
    let signal = interrupt::received().unwrap_or(0);
    emit(
        log,
        json!({"event": "interrupted", "match": round, "t_us": now_us(), "signal": signal}),
    )
}

/// One match; `None` when a signal interrupted it.
fn play_one(
    game: &dyn DynGame,
    contenders: &[Contender],
    round: usize,
    plan: &Round,
    options: &PlayOptions,
    log: &mut Option<&mut dyn Write>,
    progress: &mut impl FnMut(usize, usize),
) -> Result<Option<MatchResult>, MatchError> {
    let mut state = game
        .start(plan.seed, &plan.options)
        .map_err(MatchError::Start)?;
    emit(
        log,
        json!({"trace": LOG_FORMAT, "event": "start", "match": round, "game": game.info().id,
               "seed": plan.seed, "label": plan.label, "options": plan.options,
               "seats": plan.seats.iter().map(|&c| contenders[c].label()).collect::<Vec<_>>()}),
    )?;
    let Some(mut seats) = take_seats(game, contenders, round, plan, options, log)? else {
        return Ok(None);
    };
    let mut tally = Tally::new(&seats);
    while state.outcome().is_none() {
        if interrupt::received().is_some() {
            cut_short(log, round, &mut seats)?;
            return Ok(None);
        }
        let record = play_step(state.as_mut(), &mut seats, None).map_err(MatchError::Engine)?;
        // The replies of a step cut short by a signal are what the signal did, not the bots.
        if interrupt::received().is_some() {
            cut_short(log, round, &mut seats)?;
            return Ok(None);
        }
        tally.count(&record);
        log_step(log, round, tally.steps, &record)?;
        tally.steps += 1;
        progress(round, tally.steps);
    }
    let non_strict = end_programs(&mut seats, &mut tally.faults);
    let outcome = state.outcome();
    emit(
        log,
        json!({"event": "end", "match": round, "t_us": now_us(), "outcome": outcome,
               "steps": tally.steps}),
    )?;
    Ok(Some(tally.result(
        game,
        round,
        plan,
        state.as_ref(),
        non_strict,
    )))
}

/// Seats the contenders of `plan`: starts every program and takes its handshake. `None` when a
/// signal interrupted it (the log then says so).
fn take_seats(
    game: &dyn DynGame,
    contenders: &[Contender],
    round: usize,
    plan: &Round,
    options: &PlayOptions,
    log: &mut Option<&mut dyn Write>,
) -> Result<Option<Vec<Seat>>, MatchError> {
    let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
    let mut seats: Vec<Seat> = Vec::with_capacity(plan.seats.len());
    for (seat, &c) in plan.seats.iter().enumerate() {
        let Contender::Program(argv) = &contenders[c] else {
            seats.push(Seat::Builtin(seeded(plan.seed, player_stream(seat))));
            continue;
        };
        let clock = Clock::new(game.info().limits, options.limits);
        let started = Session::start(argv, options.process, clock, far);
        if interrupt::received().is_some() {
            cut_short(log, round, &mut seats)?;
            return Ok(None);
        }
        let mut session = started.map_err(|source| MatchError::Program {
            command: argv.join(" "),
            source,
        })?;
        let fault = take_handshake(game, &mut session, log, round, seat)?;
        seats.push(Seat::Bot { session, fault });
    }
    Ok(Some(seats))
}

/// Takes the handshake of the program in `seat`, when the game has one, and logs it; returns
/// the program's failure, if it failed.
fn take_handshake(
    game: &dyn DynGame,
    session: &mut Session,
    log: &mut Option<&mut dyn Write>,
    round: usize,
    seat: usize,
) -> Result<Option<Failure>, MatchError> {
    let Some(handshake) = game.info().handshake else {
        return Ok(None);
    };
    if !handshake.prompt.is_empty() {
        emit(log, record("prompt", round, seat, handshake.prompt))?;
    }
    let answer = session.handshake(&handshake);
    match &answer {
        Ok(a) => emit(log, record("reply", round, seat, &format!("{}\n", a.text)))?,
        Err(e) => emit(
            log,
            json!({"event": "no-reply", "match": round, "player": seat,
                   "t_us": now_us(), "why": e.to_string()}),
        )?,
    }
    Ok(answer.err())
}

/// What a match's steps add up to, per seat.
struct Tally {
    /// Steps played.
    steps: usize,
    /// Thinking time used.
    used: Vec<Duration>,
    /// The first failure (the handshake's, a step's, an illegal reply).
    faults: Vec<Option<String>>,
    /// Replies the engine ignored as late, and the step of the first.
    late_replies: Vec<usize>,
    first_late_step: Vec<Option<usize>>,
    /// The first crash, time-out or illegal reply.
    failures: Vec<Option<SeatFailure>>,
    /// The longest reply that came, after the first; and how many came.
    slowest: Vec<Duration>,
    replies: Vec<usize>,
}

impl Tally {
    /// Nothing played yet; the faults of the handshakes.
    fn new(seats: &[Seat]) -> Tally {
        let players = seats.len();
        Tally {
            steps: 0,
            used: vec![Duration::ZERO; players],
            faults: seats
                .iter()
                .map(|s| s.fault().map(|f| format!("handshake: {f}")))
                .collect(),
            late_replies: vec![0; players],
            first_late_step: vec![None; players],
            failures: seats
                .iter()
                .map(|s| s.fault().map(SeatFailure::of_handshake))
                .collect(),
            slowest: vec![Duration::ZERO; players],
            replies: vec![0; players],
        }
    }

    /// Adds what step `self.steps` did to each awaited seat.
    fn count(&mut self, record: &StepRecord) {
        let steps = self.steps;
        for (i, &seat) in record.awaiting.iter().enumerate() {
            self.used[seat] += record.waited[i];
            if record.verdicts.get(i) == Some(&ReplyVerdict::TimedOut) {
                self.late_replies[seat] += 1;
                self.first_late_step[seat].get_or_insert(steps);
            }
            if let Some(failure) = &record.new_faults[i] {
                self.faults[seat].get_or_insert_with(|| format!("step {steps}: {failure}"));
            }
            // Which reply the engine refused, and why, belongs in the report, not only the log.
            if let (Some(ReplyVerdict::Rejected(why)), Reply::Text { text, .. }) =
                (record.verdicts.get(i), &record.replies[i])
            {
                let shown: String = text.escape_debug().take(60).collect();
                self.faults[seat]
                    .get_or_insert_with(|| format!("step {steps}: illegal reply `{shown}`: {why}"));
            }
            if let Reply::Text { .. } = &record.replies[i] {
                if self.replies[seat] > 0 {
                    self.slowest[seat] = self.slowest[seat].max(record.waited[i]);
                }
                self.replies[seat] += 1;
            }
            if self.failures[seat].is_none() {
                self.failures[seat] = failure_of(record, i, steps);
            }
        }
    }

    /// The result of the match `finished` (the `round`th, played as `plan`).
    fn result(
        self,
        game: &dyn DynGame,
        round: usize,
        plan: &Round,
        finished: &dyn DynMatch,
        non_strict: Vec<Option<String>>,
    ) -> MatchResult {
        let outcome = finished.outcome();
        MatchResult {
            round,
            seed: plan.seed,
            label: plan.label.clone(),
            seats: plan.seats.clone(),
            winner: outcome
                .as_ref()
                .and_then(|o| o.winner)
                .and_then(|w| plan.seats.get(w).copied()),
            outcome,
            steps: self.steps,
            time_used_ms: self.used.iter().map(|d| d.as_millis() as u64).collect(),
            scores: scores(game, finished, plan.seats.len()),
            faults: self.faults,
            non_strict,
            late_replies: self.late_replies,
            first_late_step: self.first_late_step,
            failures: self.failures,
            slowest_reply_ms: self.slowest.iter().map(|d| d.as_millis() as u64).collect(),
            carried: match game.info().capabilities.series {
                Some(series) if plan.in_series => finished
                    .state()
                    .and_then(|state| series.carry(&state))
                    .unwrap_or_default(),
                _ => MatchOptions::default(),
            },
            options: plan.options.clone(),
        }
    }
}

/// Logs the prompt and the reply of each awaited seat of step `step`.
fn log_step(
    log: &mut Option<&mut dyn Write>,
    round: usize,
    step: usize,
    record: &StepRecord,
) -> std::io::Result<()> {
    for (i, &seat) in record.awaiting.iter().enumerate() {
        let mut prompt = record_of("prompt", round, seat, &record.prompts[i], step);
        prompt["t_us"] = record.prompted_us[i].into();
        emit(log, prompt)?;
        let waited_ms = record.waited[i].as_millis() as u64;
        let mut reply = match &record.replies[i] {
            Reply::Text { text, .. } => record_of("reply", round, seat, &format!("{text}\n"), step),
            other => json!({"event": "no-reply", "match": round, "player": seat,
                            "step": step, "reply": other}),
        };
        reply["t_us"] = record.replied_us[i].into();
        reply["waited_ms"] = waited_ms.into();
        reply["verdict"] = json!(record.verdicts.get(i));
        emit(log, reply)?;
    }
    Ok(())
}

/// Ends every program after the match: how one ended joins its fault when it failed or ended
/// badly (killed, leaving processes behind); else an error it printed as its input closed is
/// its NON-STRICT note, per seat.
fn end_programs(seats: &mut [Seat], faults: &mut [Option<String>]) -> Vec<Option<String>> {
    let mut non_strict: Vec<Option<String>> = vec![None; seats.len()];
    for (seat, occupant) in seats.iter_mut().enumerate() {
        if let Seat::Bot { session, .. } = occupant {
            let ended = session.finish();
            if ended.killed || ended.left_a_mess() || faults[seat].is_some() {
                let how = ended.describe();
                faults[seat] = Some(match faults[seat].take() {
                    Some(f) => format!("{f}; the program {how}"),
                    None => format!("after the match the program {how}"),
                });
            } else {
                non_strict[seat] = error_at_end(&ended, &session.stderr_tail());
            }
        }
    }
    non_strict
}

/// What a finished match is worth to each seat: by the document's ranking in a game with a
/// series ([`crate::seam::SeriesPlay::score`]), else one point for a win.
fn scores(game: &dyn DynGame, finished: &dyn DynMatch, players: usize) -> Vec<SeriesScore> {
    let winner = finished.outcome().and_then(|o| o.winner);
    let state = finished.state();
    (0..players)
        .map(|seat| {
            let by_series = game.info().capabilities.series.and_then(|series| {
                let state = state.as_ref().ok()?;
                series.score(state, seat).ok()
            });
            by_series.unwrap_or(SeriesScore {
                points: i64::from(winner == Some(seat)),
                tiebreak: 0,
            })
        })
        .collect()
}

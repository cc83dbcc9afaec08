//! Local matches between bot programs (or the built-in player) on the reference engine, with the
//! game's time limits, as `shinpan play` runs them; every prompt and reply can be logged as JSON
//! lines for replay.
//!
//! A run is a list of [`Round`]s, each one match with a seed and a seating. [`rounds`] makes the
//! plain plan: seeds `seed, seed+1, ...`, the seating rotated every round so that every program
//! plays every seat. A game whose contest scores a *series* (CODE VS 4.0's `--series`) will give
//! its own plan here; the match loop does not change.

use std::io::Write;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::json;

use crate::game::{DynGame, MatchOptions, Outcome, Reply, ReplyVerdict};
use crate::harness::process::Limits;
use crate::harness::session::{describe_end, Clock, Failure, LimitOverrides, Session};

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Round {
    pub seed: u64,
    pub seats: Vec<usize>,
}

/// `count` rounds from `seed`, the seating rotated by one each round.
pub fn rounds(seed: u64, count: usize, players: usize) -> Vec<Round> {
    (0..count)
        .map(|r| Round {
            seed: seed.wrapping_add(r as u64),
            seats: (0..players).map(|s| (s + r) % players).collect(),
        })
        .collect()
}

#[derive(Debug, Clone)]
pub struct PlayOptions {
    pub limits: LimitOverrides,
    /// The match options of every match.
    pub match_options: MatchOptions,
    pub process: Limits,
}

/// How one match went.
#[derive(Debug, Clone, Serialize)]
pub struct MatchResult {
    pub round: usize,
    pub seed: u64,
    /// The contender index in each seat.
    pub seats: Vec<usize>,
    pub outcome: Option<Outcome>,
    /// The contender index of the winner, if any.
    pub winner: Option<usize>,
    pub steps: usize,
    /// Thinking time each seat used, in ms.
    pub time_used_ms: Vec<u64>,
    /// What went wrong with a program, per seat (its first failure and how it ended).
    pub faults: Vec<Option<String>>,
}

/// Every match of a run and the totals per contender.
#[derive(Debug, Clone, Serialize)]
pub struct PlaySummary {
    pub game: String,
    pub contenders: Vec<String>,
    pub matches: Vec<MatchResult>,
    pub wins: Vec<usize>,
    pub draws: usize,
}

impl PlaySummary {
    pub fn human(&self) -> String {
        let mut out = String::new();
        for m in &self.matches {
            let seats: Vec<String> = m
                .seats
                .iter()
                .enumerate()
                .map(|(s, &c)| format!("seat {s}: #{}", c + 1))
                .collect();
            let result = match (&m.outcome, m.winner) {
                (Some(o), Some(w)) => format!("#{} wins ({})", w + 1, o.reason),
                (Some(o), None) => format!("draw ({})", o.reason),
                (None, _) => "unfinished".into(),
            };
            out.push_str(&format!(
                "match {} seed {} [{}]: {result} after {} steps; time used {:?} ms\n",
                m.round + 1,
                m.seed,
                seats.join(", "),
                m.steps,
                m.time_used_ms
            ));
            for (s, fault) in m.faults.iter().enumerate() {
                if let Some(fault) = fault {
                    out.push_str(&format!("    seat {s}: {fault}\n"));
                }
            }
        }
        for (i, c) in self.contenders.iter().enumerate() {
            out.push_str(&format!("#{} {c}: {} wins\n", i + 1, self.wins[i]));
        }
        out.push_str(&format!(
            "{} matches, {} draws\n",
            self.matches.len(),
            self.draws
        ));
        out
    }
}

/// Plays `plan` between `contenders`. `log` receives one JSON line per event; `progress` is told
/// `(round, step)` after every step.
pub fn play(
    game: &dyn DynGame,
    contenders: &[Contender],
    plan: &[Round],
    options: &PlayOptions,
    mut log: Option<&mut dyn Write>,
    mut progress: impl FnMut(usize, usize),
) -> std::io::Result<PlaySummary> {
    let mut matches = Vec::new();
    for (round, plan) in plan.iter().enumerate() {
        let result = play_one(
            game,
            contenders,
            round,
            plan,
            options,
            &mut log,
            &mut progress,
        )?;
        matches.push(result);
    }
    let mut wins = vec![0; contenders.len()];
    let mut draws = 0;
    for m in &matches {
        match m.winner {
            Some(w) => wins[w] += 1,
            None => draws += 1,
        }
    }
    Ok(PlaySummary {
        game: game.info().id.to_string(),
        contenders: contenders.iter().map(Contender::label).collect(),
        matches,
        wins,
        draws,
    })
}

fn emit(log: &mut Option<&mut dyn Write>, event: serde_json::Value) -> std::io::Result<()> {
    match log {
        Some(out) => writeln!(out, "{event}"),
        None => Ok(()),
    }
}

fn play_one(
    game: &dyn DynGame,
    contenders: &[Contender],
    round: usize,
    plan: &Round,
    options: &PlayOptions,
    log: &mut Option<&mut dyn Write>,
    progress: &mut impl FnMut(usize, usize),
) -> std::io::Result<MatchResult> {
    let players = plan.seats.len();
    let mut state = game
        .start(plan.seed, &options.match_options)
        .map_err(std::io::Error::other)?;
    let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
    let mut faults: Vec<Option<String>> = vec![None; players];
    let mut rngs: Vec<ChaCha8Rng> = (0..players)
        .map(|s| ChaCha8Rng::seed_from_u64(plan.seed ^ (s as u64 + 1) << 32))
        .collect();
    emit(
        log,
        json!({"event": "start", "round": round, "seed": plan.seed,
               "seats": plan.seats.iter().map(|&c| contenders[c].label()).collect::<Vec<_>>()}),
    )?;
    // Start every program and take its handshake.
    let mut sessions: Vec<Option<Session>> = Vec::with_capacity(players);
    for (seat, &c) in plan.seats.iter().enumerate() {
        let Contender::Program(argv) = &contenders[c] else {
            sessions.push(None);
            continue;
        };
        let clock = Clock::new(game.limits(), options.limits);
        let mut session = Session::start(argv, options.process, clock, far)?;
        if let Some(handshake) = game.handshake() {
            let answer = session.handshake(&handshake);
            emit(
                log,
                json!({"event": "handshake", "round": round, "seat": seat,
                       "reply": answer.as_ref().ok().map(|a| &a.text),
                       "elapsed_us": answer.as_ref().ok().map(|a| a.elapsed.as_micros() as u64),
                       "error": answer.as_ref().err().map(ToString::to_string)}),
            )?;
            if let Err(failure) = answer {
                faults[seat] = Some(format!("handshake: {failure}"));
            }
        }
        sessions.push(Some(session));
    }
    let mut used = vec![Duration::ZERO; players];
    let mut steps = 0;
    while state.outcome().is_none() {
        let awaiting = state.awaiting();
        let prompts: Vec<String> = awaiting.iter().map(|&p| state.prompt(p)).collect();
        let mut replies = Vec::with_capacity(awaiting.len());
        for (&seat, prompt) in awaiting.iter().zip(&prompts) {
            let reply = match (&mut sessions[seat], &faults[seat]) {
                (None, _) => Reply::text(state.random_reply(seat, &mut rngs[seat])),
                (Some(_), Some(_)) => Reply::Crashed,
                (Some(session), None) => {
                    match session.ask(prompt.as_bytes(), |l| state.frame(seat, l)) {
                        Ok(answer) => {
                            used[seat] += answer.elapsed;
                            Reply::Text {
                                text: answer.text,
                                elapsed_ms: answer.elapsed.as_millis() as u64,
                            }
                        }
                        Err(failure) => {
                            let reply = match failure {
                                Failure::TimedOut { .. } => Reply::TimedOut,
                                _ => Reply::Crashed,
                            };
                            faults[seat] = Some(format!("step {steps}: {failure}"));
                            reply
                        }
                    }
                }
            };
            replies.push(reply);
        }
        let report = state
            .step(&replies)
            .map_err(|e| std::io::Error::other(format!("the engine: {e}")))?;
        for (i, &seat) in awaiting.iter().enumerate() {
            let (reply, elapsed_ms, kind) = match &replies[i] {
                Reply::Text { text, elapsed_ms } => (Some(text.as_str()), *elapsed_ms, "text"),
                Reply::TimedOut => (None, 0, "timed-out"),
                Reply::Crashed => (None, 0, "crashed"),
            };
            emit(
                log,
                json!({"event": "turn", "round": round, "step": steps, "seat": seat,
                       "prompt": prompts[i], "reply": reply, "reply_kind": kind,
                       "elapsed_ms": elapsed_ms,
                       "verdict": report.replies.get(i).unwrap_or(&ReplyVerdict::Accepted)}),
            )?;
        }
        steps += 1;
        progress(round, steps);
    }
    for (seat, session) in sessions.iter_mut().enumerate() {
        if let Some(session) = session {
            let ended = session.finish();
            if ended.killed || ended.pipe_held_by_descendant || faults[seat].is_some() {
                let how = describe_end(&ended);
                let fault = faults[seat].take();
                faults[seat] = Some(match fault {
                    Some(f) => format!("{f}; the program {how}"),
                    None => format!("after the match the program {how}"),
                });
            }
        }
    }
    let outcome = state.outcome();
    emit(
        log,
        json!({"event": "end", "round": round, "outcome": outcome, "steps": steps}),
    )?;
    Ok(MatchResult {
        round,
        seed: plan.seed,
        seats: plan.seats.clone(),
        winner: outcome
            .as_ref()
            .and_then(|o| o.winner)
            .and_then(|w| plan.seats.get(w).copied()),
        outcome,
        steps,
        time_used_ms: used.iter().map(|d| d.as_millis() as u64).collect(),
        faults,
    })
}

//! Random inputs for differential fuzzing: a state from a seeded self-play match, sometimes
//! mutated within the schema, and one to three turns of replies, mostly the built-in players'
//! legal ones, some broken into illegal text, a time-out, a crash or a slow reply.
//!
//! An input is drawn from its stream (a run's number) of the run's seed: the stream draws a step
//! below [`MOST_STEPS`] and a match seed, and the input's state is that self-play match's state
//! at that step (or, where the match ends first after `e` steps, at step `step % e`): early,
//! middle and late states alike, each input from a match of its own. Everything is a function of the seed and the stream: the same
//! seed draws the same inputs in any order. (Drawing ten inputs from one match, for a tenth of
//! the matches played, was tried: a match's states share its history, so states rare in play, a
//! CODE VS Reborn ojama stock of ten or more, came up on fewer inputs, and the planted
//! `ojama-cap-11` of `tests/suite/diff_departures.rs` went unfound in 300 inputs of seed 3; the
//! matches themselves were about a tenth of diff's time.)
//!
//! A mutated state is kept only if the reference engine loads it ([`DynGame::load_state`]) and
//! finds it reachable ([`DynGame::reachable`]: a CODE VS Reborn field holding a pair that sums
//! to 10, say, never occurs in play, and an engine that differs on it departs from nothing), and
//! an input whose turns the reference engine cannot play is dropped; comparing the engines on
//! what is left is the caller's job. The turns are played on the reference engine as they are
//! drawn, and its result comes with the input: the caller need not play them again.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use serde_json::Number;

use super::Input;
use crate::rng::seeded;
use crate::run::StepResponse;
use crate::seam::{DynGame, DynMatch, FuzzHints, MatchOptions, Played, Reply, TimeLimits};

/// States are taken at a step of the match below this.
const MOST_STEPS: usize = 150;

/// Draws the inputs of one seed ([`Draws::input`]).
pub(super) struct Draws<'a> {
    game: &'a dyn DynGame,
    options: &'a MatchOptions,
    seed: u64,
}

impl<'a> Draws<'a> {
    pub fn new(game: &'a dyn DynGame, options: &'a MatchOptions, seed: u64) -> Draws<'a> {
        Draws {
            game,
            options,
            seed,
        }
    }

    /// The input of `stream` and the reference engine's result on it (played as the turns are
    /// drawn): `None` when the reference engine cannot play the one drawn.
    pub fn input(&self, stream: u64) -> Option<(Input, StepResponse)> {
        let mut rng = seeded(self.seed, stream);
        let (match_seed, step) = match_and_step(&mut rng);
        // A step past the match's end is taken within it (more than half of CODE VS Reborn's
        // draws: its matches end in 50-odd steps, and each was a match started for nothing).
        let play =
            crate::selfplay::random_prefix_match_in_play(self.game, match_seed, self.options, step);
        let play = play.ok()?;
        if play.outcome().is_some() {
            return None;
        }
        let state = play.state().ok()?;
        random_input(self.game, play, state, &mut rng)
    }
}

/// The first draws of a stream: the step its state is taken at, and the match's seed.
fn match_and_step(rng: &mut ChaCha8Rng) -> (u64, usize) {
    let step = rng.random_range(0..MOST_STEPS);
    (rng.random(), step)
}

/// An input from the match `play`, whose state is `state`: the state mutated or not, and its
/// turns; with the reference engine's result on it.
fn random_input<'g>(
    game: &'g dyn DynGame,
    play: Box<dyn DynMatch + 'g>,
    mut state: Value,
    rng: &mut ChaCha8Rng,
) -> Option<(Input, StepResponse)> {
    let mut mutated = false;
    if rng.random_bool(0.5) {
        for _ in 0..rng.random_range(1..=3) {
            // Mutated in place and put back if refused: no copy of the whole state (a CODE VS
            // Reborn state holds its 500 packs).
            let Some(undo) = mutate_state(&mut state, game.info().fuzz, rng) else {
                continue;
            };
            // Only a state play can reach: engines may rightly differ on any other.
            match crate::seam::load_state(game, &state) {
                Ok(loaded) if game.info().capabilities.reachable(&loaded).is_ok() => {
                    state = loaded;
                    mutated = true;
                }
                _ => undo.apply(&mut state),
            }
        }
    }
    let turns = match rng.random_range(0..10) {
        0..=6 => 1,
        7 | 8 => 2,
        _ => 3,
    };
    // The turns are played on the reference engine as they are drawn (the next turn's legal
    // replies are the built-in players' on the state the last one left): on the match itself,
    // or from the state it was mutated into.
    let mut play = if mutated {
        game.resume(&state).ok()?
    } else {
        play
    };
    let mut replies_of_turns = Vec::new();
    let mut reports = Vec::new();
    for _ in 0..turns {
        let legal: Vec<String> = play
            .awaiting()
            .into_iter()
            .map(|p| play.random_reply(p, rng))
            .collect();
        if legal.is_empty() {
            break;
        }
        let replies: Vec<Reply> = legal
            .into_iter()
            .map(|r| mutate_reply(r, game.info().fuzz, game.info().limits, rng))
            .collect();
        // As `DynGame::play` does: no turn is played past the end of the match.
        if play.outcome().is_none() {
            reports.push(play.step(&replies).ok()?);
        }
        replies_of_turns.push(replies);
    }
    if replies_of_turns.is_empty() {
        return None;
    }
    // What `DynGame::play` of the input gives, without playing it again.
    let played = Played {
        state: play.state().ok()?,
        prompts: (0..game.info().players).map(|p| play.prompt(p)).collect(),
        unplayed_turns: replies_of_turns.len() - reports.len(),
        reports,
    };
    let input = Input {
        state,
        turns: replies_of_turns,
    };
    let reference = StepResponse::from(played);
    debug_assert!(
        game.play(&input.state, &input.turns)
            .map(StepResponse::from)
            .as_ref()
            == Ok(&reference),
        "the input played as drawn is the input played from its state"
    );
    Some((input, reference))
}

/// Changes one leaf of the state: a number (to one of the game's [`FuzzHints::numbers`], one
/// step up or down, its negation; a float by half a unit), a flag, a string line, a list element.
/// Returns how to put it back, or `None` when nothing was changed.
fn mutate_state(state: &mut Value, hints: FuzzHints, rng: &mut ChaCha8Rng) -> Option<Undo> {
    let mut leaves = Vec::new();
    collect_paths(state, &mut Vec::new(), &mut leaves, 0);
    if leaves.is_empty() {
        return None;
    }
    let path = leaves.swap_remove(rng.random_range(0..leaves.len()));
    let target = at_path(state, &path)?;
    match target {
        Value::Number(n) => {
            let next = mutate_number(n, hints, rng)?;
            let old = std::mem::replace(target, Value::Number(next));
            Some(Undo::Put(path, old))
        }
        Value::Bool(b) => {
            *b = !*b;
            Some(Undo::Put(path, Value::Bool(!*b)))
        }
        Value::String(s) if s.contains('\n') => {
            let mut lines: Vec<&str> = s.lines().collect();
            let i = rng.random_range(0..lines.len());
            if rng.random_bool(0.5) {
                lines.remove(i);
            } else {
                lines.insert(i, lines[i]);
            }
            let next: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let old = std::mem::replace(s, next);
            Some(Undo::Put(path, Value::String(old)))
        }
        Value::Array(list) if !list.is_empty() => {
            let i = rng.random_range(0..list.len());
            let removed = list.remove(i);
            Some(Undo::Insert(path, i, removed))
        }
        _ => None,
    }
}

/// How to put back what [`mutate_state`] changed.
enum Undo {
    /// The value that was at the path.
    Put(Vec<PathStep>, Value),
    /// The element removed from the list at the path, and where it was.
    Insert(Vec<PathStep>, usize, Value),
}

impl Undo {
    fn apply(self, state: &mut Value) {
        match self {
            Undo::Put(path, old) => {
                if let Some(target) = at_path(state, &path) {
                    *target = old;
                }
            }
            Undo::Insert(path, i, removed) => {
                if let Some(Value::Array(list)) = at_path(state, &path) {
                    list.insert(i, removed);
                }
            }
        }
    }
}

fn mutate_number(n: &Number, hints: FuzzHints, rng: &mut ChaCha8Rng) -> Option<Number> {
    if n.is_f64() {
        let x = n.as_f64()?;
        let next = match rng.random_range(0..4) {
            0 => x + 0.5,
            1 => x - 0.5,
            2 => -x,
            _ => x.trunc(),
        };
        return Number::from_f64(next);
    }
    let now = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from))?;
    let next = match rng.random_range(0..4) {
        0 if !hints.numbers.is_empty() => {
            i128::from(hints.numbers[rng.random_range(0..hints.numbers.len())])
        }
        1 => now + 1,
        2 => now - 1,
        _ => -now,
    };
    i64::try_from(next)
        .map(Number::from)
        .ok()
        .or_else(|| u64::try_from(next).map(Number::from).ok())
}

/// Paths (object keys and list indices) of every value in `value`, lists of more than a few
/// elements sampled rather than listed whole.
fn collect_paths(value: &Value, path: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>, depth: u8) {
    if depth > 8 {
        return;
    }
    out.push(path.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.push(PathStep::Key(k.clone()));
                collect_paths(v, path, out, depth + 1);
                path.pop();
            }
        }
        Value::Array(list) => {
            for (i, v) in list.iter().enumerate().take(8) {
                path.push(PathStep::Index(i));
                collect_paths(v, path, out, depth + 1);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Debug, Clone, PartialEq)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at_path<'v>(value: &'v mut Value, path: &[PathStep]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |v, step| match step {
        PathStep::Key(k) => v.get_mut(k.as_str()),
        PathStep::Index(i) => v.get_mut(*i),
    })
}

/// Thinking times worth trying: around each of the game's limits.
fn interesting_elapsed(limits: TimeLimits) -> Vec<u64> {
    let mut out = vec![1, u64::from(u32::MAX)];
    for limit in [
        limits.first_turn_ms,
        limits.turn_ms,
        limits.total_ms,
        limits.pool_ms,
    ]
    .into_iter()
    .flatten()
    {
        out.extend([limit.saturating_sub(1), limit, limit + 1]);
    }
    out
}

/// Mostly the legal reply; sometimes an illegal text, one of the game's replies worth trying,
/// a time-out, a crash or a slow reply.
fn mutate_reply(
    legal: String,
    hints: FuzzHints,
    limits: TimeLimits,
    rng: &mut ChaCha8Rng,
) -> Reply {
    if !rng.random_bool(0.2) {
        return Reply::text(legal);
    }
    let text = match rng.random_range(0..12) {
        0 => return Reply::TimedOut,
        1 => return Reply::Crashed,
        2 => {
            let elapsed_ms = interesting_elapsed(limits);
            return Reply::Text {
                text: legal,
                elapsed_ms: elapsed_ms[rng.random_range(0..elapsed_ms.len())],
            };
        }
        3 => format!(" {legal}"),
        4 => format!("{legal}\r"),
        5 => legal.replacen(' ', "  ", 1),
        6 => format!("0{legal}"),
        7 => String::new(),
        8 if !hints.replies.is_empty() => {
            hints.replies[rng.random_range(0..hints.replies.len())].to_string()
        }
        9 => legal
            .chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    char::from(b'0' + rng.random_range(0..10u8))
                } else {
                    c
                }
            })
            .collect(),
        10 => format!("{legal} {legal}"),
        _ => {
            let junk: String = (0..rng.random_range(1..6))
                .map(|_| char::from(rng.random_range(0x20..0x7fu8)))
                .collect();
            junk
        }
    };
    Reply::text(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `diff` compares the engine with the result that comes with a drawn input, and the
    /// reference's results are compared without reading them back (`reference_result`): in
    /// every game, that result is the input played from its state, and reading its state back
    /// leaves it as it is. The same stream draws the same input again.
    #[test]
    fn a_drawn_input_comes_with_the_reference_result_of_its_state() {
        let options = MatchOptions::default();
        for game in crate::games::all() {
            let draws = Draws::new(game, &options, 5);
            let mut drawn = 0;
            for stream in 0..25 {
                let Some((input, reference)) = draws.input(stream) else {
                    continue;
                };
                drawn += 1;
                let id = game.info().id;
                let played = game
                    .play(&input.state, &input.turns)
                    .map(StepResponse::from);
                assert_eq!(played.as_ref(), Ok(&reference), "{id}, stream {stream}");
                let loaded = crate::run::load_result(game, &reference.state);
                assert_eq!(
                    loaded.as_ref(),
                    Ok(&reference.state),
                    "{id}, stream {stream}"
                );
                let again = draws.input(stream).map(|(input, _)| input);
                assert_eq!(again.as_ref(), Some(&input), "{id}, stream {stream}");
            }
            assert!(drawn >= 5, "{}: {drawn} inputs of 25", game.info().id);
        }
    }
}

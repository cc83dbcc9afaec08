//! Random inputs for differential fuzzing: a state from a seeded self-play match, sometimes
//! mutated within the schema, and one to three turns of replies, mostly the built-in players'
//! legal ones, some broken into illegal text, a time-out, a crash or a slow reply.
//!
//! A mutated state is kept only if the reference engine loads it ([`DynGame::load_state`]) and
//! finds it reachable ([`DynGame::reachable`]: a CODE VS Reborn field holding a pair that sums
//! to 10, say, never occurs in play, and an engine that differs on it departs from nothing), and
//! an input whose turns the reference engine cannot play is dropped; comparing the engines on
//! what is left is the caller's job.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use serde_json::Number;

use super::Input;
use crate::seam::{DynGame, FuzzHints, MatchOptions, Reply, TimeLimits};

pub(super) fn random_input(
    game: &dyn DynGame,
    options: &MatchOptions,
    rng: &mut ChaCha8Rng,
) -> Option<Input> {
    let steps = rng.random_range(0..150);
    let mut state = crate::selfplay::random_prefix(game, rng.random(), options, steps).ok()?;
    if rng.random_bool(0.5) {
        for _ in 0..rng.random_range(1..=3) {
            let mut candidate = state.clone();
            mutate_state(&mut candidate, game.info().fuzz, rng);
            // Only a state play can reach: engines may rightly differ on any other.
            if let Ok(loaded) = crate::seam::load_state(game, &candidate) {
                if game.info().capabilities.reachable(&loaded).is_ok() {
                    state = loaded;
                }
            }
        }
    }
    let turns = match rng.random_range(0..10) {
        0..=6 => 1,
        7 | 8 => 2,
        _ => 3,
    };
    let mut now = state.clone();
    let mut replies_of_turns = Vec::new();
    for _ in 0..turns {
        let play = game.resume(&now).ok()?;
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
        replies_of_turns.push(replies.clone());
        match game.play(&now, &[replies]) {
            Ok(played) => now = played.state,
            Err(_) => return None,
        }
    }
    (!replies_of_turns.is_empty()).then_some(Input {
        state,
        turns: replies_of_turns,
    })
}

/// Changes one leaf of the state: a number (to one of the game's [`FuzzHints::numbers`], one
/// step up or down, its negation; a float by half a unit), a flag, a string line, a list element.
fn mutate_state(state: &mut Value, hints: FuzzHints, rng: &mut ChaCha8Rng) {
    let mut leaves = Vec::new();
    collect_paths(state, &mut Vec::new(), &mut leaves, 0);
    if leaves.is_empty() {
        return;
    }
    let path = &leaves[rng.random_range(0..leaves.len())];
    let Some(target) = at_path(state, path) else {
        return;
    };
    match target {
        Value::Number(n) => {
            if let Some(next) = mutate_number(n, hints, rng) {
                *target = Value::Number(next);
            }
        }
        Value::Bool(b) => *b = !*b,
        Value::String(s) if s.contains('\n') => {
            let mut lines: Vec<&str> = s.lines().collect();
            let i = rng.random_range(0..lines.len());
            if rng.random_bool(0.5) {
                lines.remove(i);
            } else {
                lines.insert(i, lines[i]);
            }
            *s = lines.iter().map(|l| format!("{l}\n")).collect();
        }
        Value::Array(list) if !list.is_empty() => {
            let i = rng.random_range(0..list.len());
            list.remove(i);
        }
        _ => {}
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

//! Random inputs for differential fuzzing: a state from a seeded self-play match, sometimes
//! mutated within the schema, and one to three turns of replies, mostly the built-in players'
//! legal ones, some broken into illegal text, a time-out, a crash or a slow reply.
//!
//! A mutated state is kept only if the reference engine loads it ([`DynGame::load_state`]), and
//! an input whose turns the reference engine cannot play is dropped; comparing the engines on
//! what is left is the caller's job.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::Input;
use crate::game::{DynGame, Reply};

pub(super) fn random_input(game: &dyn DynGame, rng: &mut ChaCha8Rng) -> Option<Input> {
    let steps = rng.random_range(0..150);
    let mut state =
        crate::selfplay::random_prefix(game, rng.random(), &Default::default(), steps).ok()?;
    if rng.random_bool(0.5) {
        for _ in 0..rng.random_range(1..=3) {
            let mut candidate = state.clone();
            mutate_state(&mut candidate, rng);
            if let Ok(loaded) = game.load_state(&candidate) {
                state = loaded;
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
        let replies: Vec<Reply> = legal.into_iter().map(|r| mutate_reply(r, rng)).collect();
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

/// Numbers worth trying: the ends of ranges and thresholds the games use.
const INTERESTING: &[u64] = &[0, 1, 2, 3, 9, 10, 11, 12, 19, 20, 79, 80, 99, 100, 499];

/// Changes one leaf of the state: a number, a flag, a string line, a list element.
fn mutate_state(state: &mut Value, rng: &mut ChaCha8Rng) {
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
            let now = n.as_u64().unwrap_or(0);
            *target = match rng.random_range(0..3) {
                0 => INTERESTING[rng.random_range(0..INTERESTING.len())],
                1 => now.saturating_add(1),
                _ => now.saturating_sub(1),
            }
            .into();
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

/// Mostly the legal reply; sometimes an illegal text, a time-out, a crash or a slow reply.
fn mutate_reply(legal: String, rng: &mut ChaCha8Rng) -> Reply {
    if !rng.random_bool(0.2) {
        return Reply::text(legal);
    }
    let text = match rng.random_range(0..12) {
        0 => return Reply::TimedOut,
        1 => return Reply::Crashed,
        2 => {
            let elapsed_ms = [1, 1000, 179_999, 180_000, 180_001, u64::from(u32::MAX)];
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
        8 => "S".into(),
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

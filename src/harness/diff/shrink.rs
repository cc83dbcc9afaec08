//! Shrinking a departure: smaller inputs are tried, boldest first, and one is kept only while
//! the engines still disagree on it *in the same way* (the same [`Departure`]: the same fields
//! differ) and the reference engine finds its state reachable ([`DynGame::reachable`]). Keeping
//! any disagreement let the shrinker drift from the departure it found to another one, often
//! on a state play never makes.
//!
//! No randomness and no clock here: the candidates of an input are always the same, in the same
//! order, and the only bound is [`DiffConfig::shrink_requests`], so one seed gives one case
//! (or a signal, which ends the shrinking where it is).
//! Then the expectation is cut to what the engine got wrong and the state to what differs from
//! the default.

use serde_json::{json, Map, Value};

use super::{
    compare, differing_part, Comparison, Departure, DiffConfig, Disagreement, Finding, Input,
};
use crate::game::{DynGame, Reply};
use crate::harness::interrupt;
use crate::run::EngineUnderTest;

pub(super) fn shrink(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    config: &DiffConfig,
    run: usize,
    original: Input,
    first: Disagreement,
    departure: Departure,
) -> Finding {
    let original_difference = first.why.clone();
    let default = game.load_state(&json!({})).ok();
    let mut current = original.clone();
    let mut last = first;
    let mut requests = 0;
    let mut steps = 0;
    // Passes over the candidates; after a step the new input's candidates are tried from the
    // same position on, so candidates that failed once are not retried until the next pass.
    loop {
        let mut progressed = false;
        let mut list = candidates(&current, default.as_ref());
        let mut i = 0;
        // A signal ends the shrinking: what it reached before is kept.
        while i < list.len() && requests < config.shrink_requests && interrupt::received().is_none()
        {
            let candidate = list[i].clone();
            i += 1;
            let Ok(state) = game.load_state(&candidate.state) else {
                continue;
            };
            let candidate = Input {
                state,
                turns: candidate.turns,
            };
            if candidate == current
                || game.reachable(&candidate.state).is_err()
                || game.play(&candidate.state, &candidate.turns).is_err()
            {
                continue;
            }
            requests += 1;
            let compared = compare(game, engine, "diff/shrink", &candidate);
            if interrupt::received().is_some() {
                // The engine was stopped under this request: its answer says nothing.
                break;
            }
            if let Comparison::Disagree(d) = compared {
                if Departure::of(&d) != departure {
                    continue;
                }
                current = candidate;
                last = *d;
                steps += 1;
                progressed = true;
                list = candidates(&current, default.as_ref());
                i = i.saturating_sub(1);
            }
        }
        if !progressed || requests >= config.shrink_requests || interrupt::received().is_some() {
            break;
        }
    }
    let reference = last.reference.clone();
    let expectation = match &last.engine {
        Some(engine) => differing_part(&reference, engine).unwrap_or(Value::Null),
        None => {
            let mut whole = reference.clone();
            if let (Value::Object(map), Some(default)) = (&mut whole, &default) {
                map.remove("prompts");
                prune_defaults_map(map, default);
            }
            whole
        }
    };
    let mut expectation = expectation;
    if let Value::Object(map) = &mut expectation {
        // Not part of any state: the case runner reports unplayed turns as an error.
        map.remove("unplayed_turns");
        // Prompts show the state: when the state differs they add only noise.
        if map.keys().any(|k| k != "prompts" && k != "last_replies") {
            map.remove("prompts");
        }
    }
    let mut shrunk = current;
    if let Some(default) = &default {
        let pruned = prune_defaults(&shrunk.state, default);
        if game.load_state(&pruned).ok().as_ref() == Some(&shrunk.state) {
            shrunk.state = pruned;
        }
    }
    Finding {
        run,
        departure,
        clauses: Vec::new(),
        original,
        original_difference,
        shrunk,
        shrink_steps: steps,
        shrink_requests: requests,
        difference: last.why,
        reference,
        expectation,
    }
}

/// Smaller inputs, the boldest first; `default` is the game's default state, which numbers
/// move towards.
fn candidates(input: &Input, default: Option<&Value>) -> Vec<Input> {
    let mut out = Vec::new();
    if input.turns.len() > 1 {
        for skip in [input.turns.len() - 1, 0] {
            let mut turns = input.turns.clone();
            turns.remove(skip);
            out.push(Input {
                state: input.state.clone(),
                turns,
            });
        }
    }
    for (t, turn) in input.turns.iter().enumerate() {
        for (p, reply) in turn.iter().enumerate() {
            if let Reply::Text { text, elapsed_ms } = reply {
                if *elapsed_ms > 0 {
                    let mut turns = input.turns.clone();
                    turns[t][p] = Reply::text(text.clone());
                    out.push(Input {
                        state: input.state.clone(),
                        turns,
                    });
                }
            }
        }
    }
    for state in earlier_turns(&input.state) {
        out.push(Input {
            state,
            turns: input.turns.clone(),
        });
    }
    for fine in [false, true] {
        for state in smaller_values(&input.state, default, fine) {
            out.push(Input {
                state,
                turns: input.turns.clone(),
            });
        }
    }
    out
}

/// The state moved to an earlier turn: a top-level number `n` lowered by `k` together with
/// the first `k` elements of every top-level list longer than `n` removed, for `k` = `n`,
/// `n / 2`, 1. Generic on purpose: a list longer than a counter is what the counter indexes
/// (CODE VS Reborn's `packs[turn]`), and lowering one without the other would change which
/// element the turn plays; a guess that is wrong for some game changes the input, so the
/// departure check throws it away, at the cost of a request. Asking each game instead would
/// need a method on the game seam for what this finds without one.
fn earlier_turns(state: &Value) -> Vec<Value> {
    let Value::Object(map) = state else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in map {
        let Some(n) = value.as_u64().filter(|&n| n > 0) else {
            continue;
        };
        let lists: Vec<&String> = map
            .iter()
            .filter(|(_, v)| v.as_array().is_some_and(|l| l.len() as u64 > n))
            .map(|(k, _)| k)
            .collect();
        if lists.is_empty() {
            continue;
        }
        let mut ks = vec![n, n / 2, 1];
        ks.dedup();
        for k in ks.into_iter().filter(|&k| k > 0) {
            let mut earlier = map.clone();
            earlier.insert(key.clone(), (n - k).into());
            for list in &lists {
                if let Some(Value::Array(items)) = earlier.get_mut(*list) {
                    items.drain(..k as usize);
                }
            }
            out.push(Value::Object(earlier));
        }
    }
    out
}

/// Every value one shrinking step smaller than `value`: removals (keys, list elements, string
/// lines) when not `fine`; plainer characters and numbers nearer their default (`default` is
/// the value at the same place in the default state; zero where there is none) when `fine`.
/// A number moves towards its default and not towards zero, so that a field that does not
/// matter ends at its default and is left out of the case (a stray `time_left_ms: 0`, not
/// the default 180000, used to stay).
fn smaller_values(value: &Value, default: Option<&Value>, fine: bool) -> Vec<Value> {
    let mut out = Vec::new();
    match value {
        Value::Object(map) => {
            for key in map.keys().filter(|_| !fine) {
                let mut without = map.clone();
                without.remove(key);
                out.push(Value::Object(without));
            }
            for (key, v) in map {
                for smaller in smaller_values(v, default.and_then(|d| d.get(key)), fine) {
                    let mut with = map.clone();
                    with.insert(key.clone(), smaller);
                    out.push(Value::Object(with));
                }
            }
        }
        Value::Array(list) => {
            let mut chunk = if fine { 0 } else { list.len().div_ceil(2) };
            while chunk >= 1 {
                for start in (0..list.len()).step_by(chunk) {
                    let mut shorter = list.clone();
                    shorter.drain(start..(start + chunk).min(list.len()));
                    out.push(Value::Array(shorter));
                }
                if chunk == 1 {
                    break;
                }
                chunk = chunk.div_ceil(2).min(chunk - 1);
            }
            for (i, v) in list.iter().enumerate() {
                for smaller in smaller_values(v, default.and_then(|d| d.get(i)), fine) {
                    let mut with = list.clone();
                    with[i] = smaller;
                    out.push(Value::Array(with));
                }
            }
        }
        Value::String(s) => {
            let lines: Vec<&str> = s.split_inclusive('\n').collect();
            if lines.len() > 1 && !fine {
                for i in 0..lines.len() {
                    let mut fewer = lines.clone();
                    fewer.remove(i);
                    out.push(Value::String(fewer.concat()));
                }
            }
            if let Some(common) = most_common_char(s).filter(|_| fine) {
                for (i, c) in s.char_indices().take(400) {
                    if c != common && c != '\n' {
                        let mut plainer = s.clone();
                        plainer.replace_range(i..i + c.len_utf8(), &common.to_string());
                        out.push(Value::String(plainer));
                    }
                }
            }
        }
        Value::Number(n) if fine => match default {
            Some(Value::Number(d)) if d != n => out.extend(nearer(n, d)),
            Some(Value::Number(_)) => {}
            _ => out.extend(nearer_zero(n)),
        },
        Value::Bool(true) if fine => out.push(false.into()),
        _ => {}
    }
    out.dedup();
    out
}

/// Numbers between `n` and zero, boldest first: zero, half, one step closer; an integer stays
/// an integer and keeps its sign, a float also loses its fraction.
fn nearer_zero(n: &serde_json::Number) -> Vec<Value> {
    if let Some(n) = n.as_u64() {
        return [0, n / 2, n.saturating_sub(1)]
            .into_iter()
            .filter(|&m| m < n)
            .map(Value::from)
            .collect();
    }
    if let Some(n) = n.as_i64() {
        return [0, n / 2, n + 1]
            .into_iter()
            .filter(|&m| m.unsigned_abs() < n.unsigned_abs())
            .map(Value::from)
            .collect();
    }
    let Some(x) = n.as_f64() else {
        return Vec::new();
    };
    [0.0, x.trunc(), x / 2.0]
        .into_iter()
        .filter(|m| m.abs() < x.abs())
        .filter_map(serde_json::Number::from_f64)
        .map(Value::Number)
        .collect()
}

/// Whole numbers between `n` and `target` (its default), boldest first: the default, halfway,
/// one step closer. Floats go towards zero as before.
fn nearer(n: &serde_json::Number, target: &serde_json::Number) -> Vec<Value> {
    let (Some(n), Some(t)) = (as_i128(n), as_i128(target)) else {
        return nearer_zero(n);
    };
    let step = if t > n { 1 } else { -1 };
    let mut out: Vec<i128> = vec![t, n + (t - n) / 2, n + step];
    out.dedup();
    out.into_iter()
        .filter(|&m| m != n)
        .filter_map(|m| {
            i64::try_from(m)
                .map(Value::from)
                .ok()
                .or_else(|| u64::try_from(m).ok().map(Value::from))
        })
        .collect()
}

fn as_i128(n: &serde_json::Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn most_common_char(s: &str) -> Option<char> {
    let mut counts = std::collections::BTreeMap::new();
    for c in s.chars().filter(|&c| c != '\n') {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    counts.into_iter().max_by_key(|&(_, n)| n).map(|(c, _)| c)
}

/// `value` without the object keys whose value equals the default's at the same place.
fn prune_defaults(value: &Value, default: &Value) -> Value {
    let mut value = value.clone();
    if let Value::Object(map) = &mut value {
        prune_defaults_map(map, default);
    }
    value
}

fn prune_defaults_map(map: &mut Map<String, Value>, default: &Value) {
    map.retain(|k, v| default.get(k) != Some(v));
    for (k, v) in map.iter_mut() {
        match (v, default.get(k)) {
            (Value::Object(inner), Some(d)) => prune_defaults_map(inner, d),
            (Value::Array(list), Some(Value::Array(d))) => {
                for (item, d) in list.iter_mut().zip(d) {
                    if let Value::Object(inner) = item {
                        prune_defaults_map(inner, d);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_values_remove_halves_lines_and_lower_numbers() {
        let smaller = smaller_values(&json!([1, 2, 3, 4]), None, false);
        assert!(smaller.contains(&json!([3, 4])));
        assert!(smaller.contains(&json!([1, 2, 4])));
        let smaller = smaller_values(&json!([1, 2, 3, 4]), None, true);
        assert!(smaller.contains(&json!([0, 2, 3, 4])));
        let smaller = smaller_values(&json!("a.\n..\n"), None, false);
        assert!(smaller.contains(&json!("..\n")));
        let smaller = smaller_values(&json!("a.\n..\n"), None, true);
        assert!(smaller.contains(&json!("..\n..\n")));
    }

    #[test]
    fn signed_and_float_numbers_shrink_towards_zero() {
        assert_eq!(
            smaller_values(&json!(-7), None, true),
            [json!(0), json!(-3), json!(-6)]
        );
        assert_eq!(
            smaller_values(&json!(2.5), None, true),
            [json!(0.0), json!(2.0), json!(1.25)]
        );
        assert!(smaller_values(&json!(0), None, true).is_empty());
        assert!(smaller_values(&json!(-0.0), None, true).is_empty());
    }

    #[test]
    fn numbers_move_towards_their_default() {
        let default = json!({"time_left_ms": 180000, "score": 0});
        let smaller = smaller_values(
            &json!({"time_left_ms": 17, "score": 4}),
            Some(&default),
            true,
        );
        assert!(smaller.contains(&json!({"time_left_ms": 180000, "score": 4})));
        assert!(smaller.contains(&json!({"time_left_ms": 17, "score": 0})));
        assert!(
            !smaller.iter().any(|v| v["time_left_ms"] == 0),
            "{smaller:?}"
        );
        assert!(smaller_values(&json!(5), Some(&json!(5)), true).is_empty());
    }

    #[test]
    fn a_turn_is_lowered_with_the_list_it_indexes() {
        let state = json!({"turn": 4, "packs": [0, 1, 2, 3, 4, 5], "short": [1]});
        let earlier = earlier_turns(&state);
        assert_eq!(
            earlier[0],
            json!({"turn": 0, "packs": [4, 5], "short": [1]})
        );
        assert_eq!(
            earlier[1],
            json!({"turn": 2, "packs": [2, 3, 4, 5], "short": [1]})
        );
        assert_eq!(
            earlier[2],
            json!({"turn": 3, "packs": [1, 2, 3, 4, 5], "short": [1]})
        );
        assert!(earlier_turns(&json!({"turn": 4, "packs": [1, 2]})).is_empty());
    }

    #[test]
    fn prune_keeps_what_is_not_default() {
        let default = json!({"turn": 0, "players": [{"score": 0, "gauge": 0}]});
        let value = json!({"turn": 0, "players": [{"score": 5, "gauge": 0}]});
        assert_eq!(
            prune_defaults(&value, &default),
            json!({"players": [{"score": 5}]})
        );
    }
}

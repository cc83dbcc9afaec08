//! The smaller inputs shrinking tries, boldest first: fewer turns, replies answered in no time
//! (or in half the time) and written plainly, the state moved to an earlier turn with the list it indexes, then
//! removals (keys, list elements in halves first, lines of text), then simplifications
//! (characters replaced by the text's most common one, numbers moved towards their default).
//!
//! A candidate is an [`Edit`] of the input, made into an input only when it is tried: after
//! each step the shrinker starts on the new input's candidates again, so a list of whole states
//! (thousands of copies of a 500-pack state) would mostly be made and thrown away.

use serde_json::Value;

use super::Input;
use crate::seam::Reply;

/// One smaller input, as an edit of the current one.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Edit {
    /// These turns instead.
    Turns(Vec<Vec<Reply>>),
    /// The top-level counter `key` lowered by `by`, with the first `by` elements of every
    /// top-level list longer than it removed ([`earlier_turns`]).
    Earlier { key: String, by: u64 },
    /// The value at `at` changed.
    At { at: Vec<Step>, change: Change },
}

/// A step of a path into the state.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// What an [`Edit::At`] does to the value it points at.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Change {
    RemoveKey(String),
    /// Removes the list elements `start..end`.
    RemoveRange(usize, usize),
    Replace(Value),
}

/// The candidates of `input`, boldest first; `default` is the game's default state, which
/// numbers move towards.
pub(super) fn candidates(input: &Input, default: Option<&Value>) -> Vec<Edit> {
    let mut out = Vec::new();
    if input.turns.len() > 1 {
        for skip in [input.turns.len() - 1, 0] {
            let mut turns = input.turns.clone();
            turns.remove(skip);
            out.push(Edit::Turns(turns));
        }
    }
    for (t, turn) in input.turns.iter().enumerate() {
        for (p, reply) in turn.iter().enumerate() {
            if let Reply::Text { text, elapsed_ms } = reply {
                // Answered in no time; then plainer spacing; then without one of its lines
                // (an order); then every number 0; then each number lower, written plainly
                // (fewer digits, never zeros in front).
                let mut plainer: Vec<String> = [plain_spacing(text)]
                    .into_iter()
                    .chain(fewer_lines(text))
                    .chain(lower_numbers(text))
                    .filter(|p| p != text)
                    .collect();
                plainer.dedup();
                if *elapsed_ms > 0 {
                    plainer.insert(0, text.clone());
                }
                for text in plainer {
                    let mut turns = input.turns.clone();
                    turns[t][p] = Reply::text(text);
                    out.push(Edit::Turns(turns));
                }
                // The same reply in half the time: a clock's departure shrinks to where it
                // starts (an overrun counted, before the time runs out).
                if *elapsed_ms > 1 {
                    let mut turns = input.turns.clone();
                    turns[t][p] = Reply::Text {
                        text: text.clone(),
                        elapsed_ms: elapsed_ms / 2,
                    };
                    out.push(Edit::Turns(turns));
                }
            }
        }
    }
    out.extend(earlier_turns(&input.state));
    for fine in [false, true] {
        smaller(&input.state, default, fine, &mut Vec::new(), &mut out);
    }
    out
}

/// The input `edit` makes of `input`.
pub(super) fn apply(input: &Input, edit: &Edit) -> Input {
    match edit {
        Edit::Turns(turns) => Input {
            state: input.state.clone(),
            turns: turns.clone(),
        },
        Edit::Earlier { key, by } => {
            let mut state = input.state.clone();
            if let Value::Object(map) = &mut state {
                let n = map.get(key).and_then(Value::as_u64).unwrap_or(0);
                for value in map.values_mut() {
                    if let Value::Array(items) = value {
                        if items.len() as u64 > n {
                            items.drain(..*by as usize);
                        }
                    }
                }
                map.insert(key.clone(), n.saturating_sub(*by).into());
            }
            Input {
                state,
                turns: input.turns.clone(),
            }
        }
        Edit::At { at, change } => Input {
            state: changed(&input.state, at, change),
            turns: input.turns.clone(),
        },
    }
}

/// `value` with `change` made at `at`.
fn changed(value: &Value, at: &[Step], change: &Change) -> Value {
    let mut value = value.clone();
    let target = at.iter().try_fold(&mut value, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    });
    match (target, change) {
        (Some(Value::Object(map)), Change::RemoveKey(key)) => {
            map.remove(key);
        }
        (Some(Value::Array(list)), Change::RemoveRange(start, end)) => {
            list.drain(*start..(*end).min(list.len()));
        }
        (Some(target), Change::Replace(new)) => *target = new.clone(),
        _ => {}
    }
    value
}

/// The text without each of its lines in turn, when it has more than one.
fn fewer_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    if lines.len() < 2 {
        return Vec::new();
    }
    (0..lines.len().min(MOST_EDITS))
        .map(|i| {
            let mut fewer = lines.clone();
            fewer.remove(i);
            fewer.concat()
        })
        .collect()
}

/// The most numbers, or lines, of one reply that get edits of their own.
const MOST_EDITS: usize = 40;

/// The text with every number 0, then each number (a run of digits) in turn 0, halved or
/// without its last digit: lower, and written as a number is, with no zeros in front.
fn lower_numbers(text: &str) -> Vec<String> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    let with = |edits: &[((usize, usize), String)]| {
        let mut out = String::new();
        let mut at = 0;
        for ((s, e), new) in edits {
            out.push_str(&text[at..*s]);
            out.push_str(new);
            at = *e;
        }
        out.push_str(&text[at..]);
        out
    };
    let mut out = vec![with(
        &runs
            .iter()
            .map(|&r| (r, "0".to_string()))
            .collect::<Vec<_>>(),
    )];
    for &(s, e) in runs.iter().take(MOST_EDITS) {
        let digits = &text[s..e];
        let value: Option<u128> = digits.parse().ok();
        let mut lower: Vec<String> = vec!["0".into()];
        if let Some(v) = value {
            lower.push((v / 2).to_string());
        }
        if digits.len() > 1 {
            lower.push(
                digits[..digits.len() - 1]
                    .trim_start_matches('0')
                    .to_string(),
            );
        }
        for new in lower {
            let new = if new.is_empty() { "0".to_string() } else { new };
            if new != digits {
                out.push(with(&[((s, e), new)]));
            }
        }
    }
    out
}

/// A reply's words separated by single spaces, with no blank or CR around: how a reply is
/// written when its spacing does not matter.
fn plain_spacing(text: &str) -> String {
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<&str>>().join(" "))
        .collect::<Vec<String>>()
        .join("\n")
}

/// The state moved to an earlier turn: a top-level number `n` lowered by `k` together with
/// the first `k` elements of every top-level list longer than `n` removed, for `k` = `n`,
/// `n / 2`, 1. Generic on purpose: a list longer than a counter is what the counter indexes
/// (CODE VS Reborn's `packs[turn]`), and lowering one without the other would change which
/// element the turn plays; a guess that is wrong for some game changes the input, so the
/// departure check throws it away, at the cost of a request. Asking each game instead would
/// need a method on the game seam for what this finds without one.
fn earlier_turns(state: &Value) -> Vec<Edit> {
    let Value::Object(map) = state else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in map {
        let Some(n) = value.as_u64().filter(|&n| n > 0) else {
            continue;
        };
        if !map
            .values()
            .any(|v| v.as_array().is_some_and(|l| l.len() as u64 > n))
        {
            continue;
        }
        let mut ks = vec![n, n / 2, 1];
        ks.dedup();
        for by in ks.into_iter().filter(|&k| k > 0) {
            out.push(Edit::Earlier {
                key: key.clone(),
                by,
            });
        }
    }
    out
}

/// Every edit one shrinking step smaller at or under `at` of `value`: removals (keys, list
/// elements, string lines) when not `fine`; plainer characters and numbers nearer their default
/// (`default` is the value at the same place in the default state; zero where there is none)
/// when `fine`. A number moves towards its default and not towards zero, so that a field that
/// does not matter ends at its default and is left out of the case (a stray `time_left_ms: 0`,
/// not the default 180000, used to stay).
fn smaller(
    value: &Value,
    default: Option<&Value>,
    fine: bool,
    at: &mut Vec<Step>,
    out: &mut Vec<Edit>,
) {
    let mut edit = |change: Change, at: &Vec<Step>| {
        out.push(Edit::At {
            at: at.clone(),
            change,
        })
    };
    match value {
        Value::Object(map) => {
            for key in map.keys().filter(|_| !fine) {
                edit(Change::RemoveKey(key.clone()), at);
            }
            for (key, v) in map {
                at.push(Step::Key(key.clone()));
                smaller(v, default.and_then(|d| d.get(key)), fine, at, out);
                at.pop();
            }
        }
        Value::Array(list) => {
            let mut chunk = if fine { 0 } else { list.len().div_ceil(2) };
            while chunk >= 1 {
                for start in (0..list.len()).step_by(chunk) {
                    edit(Change::RemoveRange(start, start + chunk), at);
                }
                if chunk == 1 {
                    break;
                }
                chunk = chunk.div_ceil(2).min(chunk - 1);
            }
            for (i, v) in list.iter().enumerate() {
                at.push(Step::Index(i));
                smaller(v, default.and_then(|d| d.get(i)), fine, at, out);
                at.pop();
            }
        }
        Value::String(s) => {
            let lines: Vec<&str> = s.split_inclusive('\n').collect();
            if lines.len() > 1 && !fine {
                for i in 0..lines.len() {
                    let mut fewer = lines.clone();
                    fewer.remove(i);
                    edit(Change::Replace(Value::String(fewer.concat())), at);
                }
            }
            if let Some(common) = most_common_char(s).filter(|_| fine) {
                for (i, c) in s.char_indices().take(400) {
                    if c != common && c != '\n' {
                        let mut plainer = s.clone();
                        plainer.replace_range(i..i + c.len_utf8(), &common.to_string());
                        edit(Change::Replace(Value::String(plainer)), at);
                    }
                }
            }
        }
        Value::Number(n) if fine => {
            let values = match default {
                Some(Value::Number(d)) if d != n => nearer(n, d),
                Some(Value::Number(_)) => Vec::new(),
                _ => nearer_zero(n),
            };
            for v in values {
                edit(Change::Replace(v), at);
            }
        }
        Value::Bool(true) if fine => edit(Change::Replace(false.into()), at),
        _ => {}
    }
}

/// Numbers between `n` and zero, boldest first: zero, half, one step closer; an integer stays
/// an integer and keeps its sign, a float also loses its fraction.
fn nearer_zero(n: &serde_json::Number) -> Vec<Value> {
    if let Some(n) = n.as_u64() {
        let mut out: Vec<u64> = [0, n / 2, n.saturating_sub(1)]
            .into_iter()
            .filter(|&m| m < n)
            .collect();
        out.dedup();
        return out.into_iter().map(Value::from).collect();
    }
    if let Some(n) = n.as_i64() {
        let mut out: Vec<i64> = [0, n / 2, n + 1]
            .into_iter()
            .filter(|&m| m.unsigned_abs() < n.unsigned_abs())
            .collect();
        out.dedup();
        return out.into_iter().map(Value::from).collect();
    }
    let Some(x) = n.as_f64() else {
        return Vec::new();
    };
    let mut out: Vec<f64> = [0.0, x.trunc(), x / 2.0]
        .into_iter()
        .filter(|m| m.abs() < x.abs())
        .collect();
    out.dedup();
    out.into_iter()
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every value one step smaller than `value`, as the shrinker tries them.
    fn smaller_values(value: &Value, default: Option<&Value>, fine: bool) -> Vec<Value> {
        let mut edits = Vec::new();
        smaller(value, default, fine, &mut Vec::new(), &mut edits);
        let input = Input {
            state: value.clone(),
            turns: Vec::new(),
        };
        let mut out: Vec<Value> = edits.iter().map(|e| apply(&input, e).state).collect();
        out.dedup();
        out
    }

    fn earlier(state: &Value) -> Vec<Value> {
        let input = Input {
            state: state.clone(),
            turns: Vec::new(),
        };
        earlier_turns(state)
            .iter()
            .map(|e| apply(&input, e).state)
            .collect()
    }

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
        let earlier = earlier(&state);
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
    fn replies_are_tried_plainer() {
        let input = Input {
            state: json!({}),
            turns: vec![vec![Reply::text("0  2\r"), Reply::text("7 1")]],
        };
        let tried: Vec<Vec<Vec<Reply>>> = candidates(&input, None)
            .iter()
            .map(|e| apply(&input, e).turns)
            .collect();
        assert!(tried.contains(&vec![vec![Reply::text("0 2"), Reply::text("7 1")]]));
        assert!(tried.contains(&vec![vec![Reply::text("0  0\r"), Reply::text("7 1")]]));
        assert!(tried.contains(&vec![vec![Reply::text("0  2\r"), Reply::text("0 0")]]));
        assert!(tried.contains(&vec![vec![Reply::text("0  2\r"), Reply::text("3 1")]]));
        let slow = Input {
            state: json!({}),
            turns: vec![vec![Reply::Text {
                text: "0 2".into(),
                elapsed_ms: 900,
            }]],
        };
        let tried: Vec<Vec<Vec<Reply>>> = candidates(&slow, None)
            .iter()
            .map(|e| apply(&slow, e).turns)
            .collect();
        assert_eq!(tried[0], [[Reply::text("0 2")]], "in no time first");
        let halved = Reply::Text {
            text: "0 2".into(),
            elapsed_ms: 450,
        };
        assert!(tried.contains(&vec![vec![halved]]), "{tried:?}");
    }

    #[test]
    fn numbers_in_replies_lose_digits_and_never_gain_zeros() {
        let lower = lower_numbers("SPELL WIND 12345 6000");
        assert_eq!(lower[0], "SPELL WIND 0 0");
        assert!(lower.contains(&"SPELL WIND 1234 6000".to_string()));
        assert!(lower.contains(&"SPELL WIND 6172 6000".to_string()));
        assert!(lower.contains(&"SPELL WIND 12345 600".to_string()));
        assert!(lower.iter().all(|l| !l.contains(" 00")), "{lower:?}");
        assert_eq!(
            fewer_lines("2\nmove 1\nmove 2\n"),
            ["move 1\nmove 2\n", "2\nmove 2\n", "2\nmove 1\n"]
        );
    }
}

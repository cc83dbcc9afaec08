//! Differential fuzzing (`shinpan diff`): random inputs are played on the reference engine and on
//! an engine behind an adapter, and the first disagreement is shrunk and written out as a case.
//!
//! An input is a canonical state and one to three turns of replies. States come from seeded
//! matches of the built-in players stopped at a random step, half of them then mutated within the
//! schema (a number set to an interesting value, a list element dropped, a string line dropped);
//! replies are the built-in players' legal ones, some mutated into illegal text, a time-out, a
//! crash or a slow reply. Everything works on the canonical JSON through [`DynGame`], so every
//! game gets it; a candidate state is kept only if the reference engine loads it
//! ([`DynGame::load_state`]) and plays it.
//!
//! Shrinking is generic too: fewer turns, list elements removed (in halves first), keys removed
//! (their default), string lines removed, characters replaced by the string's most common one,
//! numbers lowered; a candidate is kept only while the engines still disagree.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

use crate::case::expect::{to_yaml, unified_diff};
use crate::case::UNCLASSIFIED;
use crate::check::verdict_name;
use crate::game::{DynGame, Played, Reply};
use crate::harness::adapter::Adapter;
use crate::harness::engine::{step, Stepped};

/// How to fuzz.
#[derive(Debug, Clone)]
pub struct DiffConfig {
    pub seed: u64,
    /// Inputs to try before giving up.
    pub runs: usize,
    /// Most adapter requests spent on shrinking one disagreement.
    pub shrink_requests: usize,
    /// Most time spent on shrinking.
    pub shrink_time: Duration,
}

impl Default for DiffConfig {
    fn default() -> Self {
        DiffConfig {
            seed: 0,
            runs: 1000,
            shrink_requests: 3000,
            shrink_time: Duration::from_secs(20),
        }
    }
}

/// One input: a state and the replies of each turn played from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    pub state: Value,
    pub turns: Vec<Vec<Reply>>,
}

/// The result of a fuzzing run.
#[derive(Debug, Clone)]
pub enum DiffOutcome {
    /// No disagreement in `runs` inputs (`unsupported` of them the engine did not implement).
    Agreed {
        runs: usize,
        unsupported: usize,
    },
    Disagreed(Box<Finding>),
}

/// A disagreement, shrunk.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The run (0-based) whose input disagreed first.
    pub run: usize,
    pub original: Input,
    pub shrunk: Input,
    /// Shrinking steps taken and adapter requests spent on them.
    pub shrink_steps: usize,
    pub shrink_requests: usize,
    /// What differs, as a unified diff of the reference against the engine (or the engine's
    /// failure).
    pub difference: String,
    /// The reference engine's result on the shrunk input: state, `prompts` and `last_replies`.
    pub reference: Value,
    /// The part of `reference` the engine got wrong: the case's `then`.
    pub expectation: Value,
}

/// Fuzzes `adapter` against the reference engine of `game`; `progress` is called after each run.
pub fn run(
    game: &dyn DynGame,
    adapter: &mut Adapter,
    config: &DiffConfig,
    mut progress: impl FnMut(usize),
) -> DiffOutcome {
    let mut unsupported = 0;
    for run in 0..config.runs {
        let mut rng = ChaCha8Rng::seed_from_u64(
            config.seed ^ (run as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let Some(input) = random_input(game, &mut rng) else {
            continue;
        };
        let id = format!("diff/{}/{run}", config.seed);
        match compare(game, adapter, &id, &input) {
            Comparison::Agree | Comparison::NotAnInput => {}
            Comparison::Unsupported => unsupported += 1,
            Comparison::Disagree(_) => {
                return DiffOutcome::Disagreed(Box::new(shrink(game, adapter, config, run, input)))
            }
        }
        progress(run + 1);
    }
    DiffOutcome::Agreed {
        runs: config.runs,
        unsupported,
    }
}

enum Comparison {
    Agree,
    /// The reference engine refuses the input: it is not a case.
    NotAnInput,
    Unsupported,
    Disagree(Box<Disagreement>),
}

struct Disagreement {
    reference: Value,
    /// The engine's result in the same shape, or `None` when it failed.
    engine: Option<Value>,
    why: String,
}

/// A result as cases see it: the state with `prompts` and `last_replies` beside it.
fn actual(played: &Played) -> Value {
    let mut value = played.state.clone();
    if let Value::Object(map) = &mut value {
        map.insert("prompts".into(), played.prompts.clone().into());
        let last: Vec<&str> = played
            .reports
            .last()
            .map(|r| r.replies.iter().map(verdict_name).collect())
            .unwrap_or_default();
        map.insert("last_replies".into(), last.into());
        map.insert("unplayed_turns".into(), played.unplayed_turns.into());
    }
    value
}

fn compare(game: &dyn DynGame, adapter: &mut Adapter, id: &str, input: &Input) -> Comparison {
    let Ok(reference) = game.play(&input.state, &input.turns) else {
        return Comparison::NotAnInput;
    };
    let reference = actual(&reference);
    match step(adapter, game, id, &input.state, &input.turns) {
        Stepped::Unsupported(_) => Comparison::Unsupported,
        Stepped::Error(why) => Comparison::Disagree(Box::new(Disagreement {
            reference,
            engine: None,
            why: format!("the engine failed: {why}"),
        })),
        Stepped::Played(played) => {
            let engine = actual(&played);
            if engine == reference {
                return Comparison::Agree;
            }
            let why = match differing_part(&reference, &engine) {
                Some(part) => unified_diff(&to_yaml(&part), &to_yaml(&project(&part, &engine))),
                None => "the results differ".into(),
            };
            Comparison::Disagree(Box::new(Disagreement {
                reference,
                engine: Some(engine),
                why,
            }))
        }
    }
}

/// The parts of `reference` that differ from `other`, shaped for a case's `then`: objects keep
/// only differing keys, equal-length lists keep every element (`{}` for an equal object).
pub fn differing_part(reference: &Value, other: &Value) -> Option<Value> {
    if reference == other {
        return None;
    }
    match (reference, other) {
        (Value::Object(r), Value::Object(o)) => {
            let map: Map<String, Value> = r
                .iter()
                .filter_map(|(k, v)| {
                    let part = match o.get(k) {
                        Some(ov) => differing_part(v, ov)?,
                        None => v.clone(),
                    };
                    Some((k.clone(), part))
                })
                .collect();
            Some(Value::Object(map))
        }
        (Value::Array(r), Value::Array(o)) if r.len() == o.len() => Some(Value::Array(
            r.iter()
                .zip(o)
                .map(|(rv, ov)| match differing_part(rv, ov) {
                    Some(part) => part,
                    None if rv.is_object() => json!({}),
                    None => rv.clone(),
                })
                .collect(),
        )),
        _ => Some(reference.clone()),
    }
}

fn project(shape: &Value, value: &Value) -> Value {
    crate::case::expect::project(shape, value)
}

// --- Random inputs ----------------------------------------------------------------------------

fn random_input(game: &dyn DynGame, rng: &mut ChaCha8Rng) -> Option<Input> {
    let steps = rng.random_range(0..150);
    let mut state = game.selfplay_state(rng.random(), steps);
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
        let legal = game.random_replies(&now, rng).ok()?;
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

// --- Shrinking ----------------------------------------------------------------------------------

fn shrink(
    game: &dyn DynGame,
    adapter: &mut Adapter,
    config: &DiffConfig,
    run: usize,
    original: Input,
) -> Finding {
    let started = Instant::now();
    let mut current = original.clone();
    let mut requests = 0;
    let mut steps = 0;
    let mut last = match compare(game, adapter, "diff/shrink", &current) {
        Comparison::Disagree(d) => d,
        // A flaky engine: report the input as it was.
        _ => Box::new(Disagreement {
            reference: Value::Null,
            engine: None,
            why: "the engine disagreed once, then agreed on the same input".into(),
        }),
    };
    // Passes over the candidates; after a step the new input's candidates are tried from the
    // same position on, so candidates that failed once are not retried until the next pass.
    loop {
        let mut progressed = false;
        let mut list = candidates(&current);
        let mut i = 0;
        while i < list.len() {
            if requests >= config.shrink_requests || started.elapsed() >= config.shrink_time {
                break;
            }
            let candidate = list[i].clone();
            i += 1;
            let Ok(state) = game.load_state(&candidate.state) else {
                continue;
            };
            let candidate = Input {
                state,
                turns: candidate.turns,
            };
            if candidate == current || game.play(&candidate.state, &candidate.turns).is_err() {
                continue;
            }
            requests += 1;
            if let Comparison::Disagree(d) = compare(game, adapter, "diff/shrink", &candidate) {
                current = candidate;
                last = d;
                steps += 1;
                progressed = true;
                list = candidates(&current);
                i = i.saturating_sub(1);
            }
        }
        if !progressed
            || requests >= config.shrink_requests
            || started.elapsed() >= config.shrink_time
        {
            break;
        }
    }
    let default = game.load_state(&json!({})).ok();
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
        original,
        shrunk,
        shrink_steps: steps,
        shrink_requests: requests,
        difference: last.why,
        reference,
        expectation,
    }
}

/// Smaller inputs, the boldest first.
fn candidates(input: &Input) -> Vec<Input> {
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
    for fine in [false, true] {
        for state in smaller_values(&input.state, fine) {
            out.push(Input {
                state,
                turns: input.turns.clone(),
            });
        }
    }
    out
}

/// Every value one shrinking step smaller than `value`: removals (keys, list elements, string
/// lines) when not `fine`; plainer characters and lower numbers when `fine`.
fn smaller_values(value: &Value, fine: bool) -> Vec<Value> {
    let mut out = Vec::new();
    match value {
        Value::Object(map) => {
            for key in map.keys().filter(|_| !fine) {
                let mut without = map.clone();
                without.remove(key);
                out.push(Value::Object(without));
            }
            for (key, v) in map {
                for smaller in smaller_values(v, fine) {
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
                for smaller in smaller_values(v, fine) {
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
        Value::Number(n) if fine => {
            if let Some(n) = n.as_u64().filter(|&n| n > 0) {
                for smaller in [0, n / 2, n - 1] {
                    if smaller < n {
                        out.push(smaller.into());
                    }
                }
            }
        }
        Value::Bool(true) if fine => out.push(false.into()),
        _ => {}
    }
    out.dedup();
    out
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

// --- The case ------------------------------------------------------------------------------------

/// A reply as a case writes it.
fn reply_yaml(reply: &Reply) -> Value {
    match reply {
        Reply::Text {
            text,
            elapsed_ms: 0,
        } => text.clone().into(),
        Reply::Text { text, elapsed_ms } => json!({"text": text, "elapsed_ms": elapsed_ms}),
        Reply::TimedOut => json!({"timed_out": true}),
        Reply::Crashed => json!({"crashed": true}),
    }
}

/// The finding as a ready-to-commit case file: the shrunk input, the reference engine's result
/// as the expectation, `needs-review: true` and `rules: [unclassified]` until someone names the
/// clauses.
pub fn case_file(game: &dyn DynGame, finding: &Finding, command: &str, seed: u64) -> String {
    let id = format!("diff-seed-{seed}-run-{}", finding.run);
    let note = format!(
        "Found by `shinpan diff {} --seed {seed}` against `{command}` on run {}, shrunk in {} \
         steps. The expectation is the reference engine's result on the parts where the engine \
         disagreed; check it against the rule document, name the clauses in `rules:`, then drop \
         `needs-review`.",
        game.info().id,
        finding.run,
        finding.shrink_steps
    );
    let to_yaml_value = |v: &Value| serde_yaml::to_value(v).unwrap_or(serde_yaml::Value::Null);
    let mut case = serde_yaml::Mapping::new();
    case.insert("id".into(), id.into());
    case.insert("rules".into(), vec![UNCLASSIFIED].into());
    case.insert("needs-review".into(), true.into());
    case.insert("note".into(), note.into());
    case.insert("given".into(), to_yaml_value(&finding.shrunk.state));
    let when: Vec<Value> = finding
        .shrunk
        .turns
        .iter()
        .map(|t| Value::Array(t.iter().map(reply_yaml).collect()))
        .collect();
    case.insert("when".into(), to_yaml_value(&Value::Array(when)));
    case.insert("then".into(), to_yaml_value(&finding.expectation));
    let mut file = serde_yaml::Mapping::new();
    file.insert("game".into(), game.info().id.into());
    file.insert(
        "cases".into(),
        serde_yaml::Value::Sequence(vec![serde_yaml::Value::Mapping(case)]),
    );
    let body = serde_yaml::to_string(&file).unwrap_or_default();
    let difference: String = finding
        .difference
        .lines()
        .map(|l| format!("#   {l}\n"))
        .collect();
    format!(
        "# Written by `shinpan diff`. What differed (reference -, engine +):\n{difference}{body}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differing_part_keeps_only_what_differs() {
        let reference = json!({"turn": 1, "players": [{"score": 3, "field": "a"}, {"score": 0}]});
        let other = json!({"turn": 1, "players": [{"score": 2, "field": "a"}, {"score": 0}]});
        assert_eq!(
            differing_part(&reference, &other),
            Some(json!({"players": [{"score": 3}, {}]}))
        );
        assert_eq!(differing_part(&reference, &reference), None);
    }

    #[test]
    fn smaller_values_remove_halves_lines_and_lower_numbers() {
        let smaller = smaller_values(&json!([1, 2, 3, 4]), false);
        assert!(smaller.contains(&json!([3, 4])));
        assert!(smaller.contains(&json!([1, 2, 4])));
        let smaller = smaller_values(&json!([1, 2, 3, 4]), true);
        assert!(smaller.contains(&json!([0, 2, 3, 4])));
        let smaller = smaller_values(&json!("a.\n..\n"), false);
        assert!(smaller.contains(&json!("..\n")));
        let smaller = smaller_values(&json!("a.\n..\n"), true);
        assert!(smaller.contains(&json!("..\n..\n")));
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

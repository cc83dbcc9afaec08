//! The engine under test: the built-in reference engine, or a third-party engine behind an
//! adapter process. Cases are judged the same way for both ([`crate::check::judge_played`],
//! [`crate::check::judge_parse_verdict`]); only how the result is obtained differs.
//!
//! The requests built here are the adapter protocol's `step`, `parse` and `new_match`
//! (`conformance/ADAPTERS.md`); the answers are read back into the harness's own types.

use serde_json::{json, Map, Value};

use crate::case::expect::check_subset;
use crate::case::{Case, CaseBody, Expected, Library};
use crate::check::{judge_parse_verdict, run_case, run_library_with, CaseResult, Verdict};
use crate::game::{DynGame, ParseVerdict, Played, Reply, ReplyVerdict, StepReport};
use crate::harness::adapter::{Adapter, Answer, Failure};
use crate::text::ParseError;

/// What runs the cases.
pub enum Engine {
    Reference,
    Adapter(Box<Adapter>),
}

/// One step request's result from an engine that is not ours.
pub enum Stepped {
    Played(Played),
    Unsupported(String),
    /// The adapter answered `error`, broke the protocol, or sent a state that is not valid.
    Error(String),
}

impl Engine {
    /// `reference`, or the adapter's command and what it says of itself.
    pub fn name(&self) -> String {
        match self {
            Engine::Reference => "reference".into(),
            Engine::Adapter(a) if a.engine.is_empty() => a.command(),
            Engine::Adapter(a) => format!("{} ({})", a.command(), a.engine),
        }
    }

    pub fn run_case(&mut self, game: &dyn DynGame, case: &Case) -> Verdict {
        let adapter = match self {
            Engine::Reference => return run_case(game, case),
            Engine::Adapter(adapter) => adapter,
        };
        let id = game.info().id;
        if !adapter.supports(id) {
            return Verdict::Unsupported(format!("the adapter does not implement `{id}`"));
        }
        match &case.body {
            CaseBody::Step { given, when, then } => {
                match step(adapter, game, &case.name, given, when) {
                    Stepped::Played(played) => crate::check::judge_played(then, when.len(), played),
                    Stepped::Unsupported(why) => Verdict::Unsupported(why),
                    Stepped::Error(why) => Verdict::Error(why),
                }
            }
            CaseBody::Parse {
                kind,
                input,
                expect,
                at,
            } => parse(adapter, game, &case.name, kind, input, *expect, *at),
            CaseBody::Generate {
                seeds,
                options,
                then,
            } => generate(adapter, game, &case.name, *seeds, options, then),
        }
    }
}

/// Sends a `step` request: `turns` played from `state`.
pub fn step(
    adapter: &mut Adapter,
    game: &dyn DynGame,
    id: &str,
    state: &Value,
    turns: &[Vec<Reply>],
) -> Stepped {
    let turns: Vec<Vec<Value>> = turns
        .iter()
        .map(|t| t.iter().map(reply_json).collect())
        .collect();
    let request = fields(json!({
        "kind": "step", "game": game.info().id, "state": state, "turns": turns,
    }));
    let map = match adapter.request(id, request) {
        Ok(Answer::Done(map)) => map,
        Ok(Answer::Unsupported(why)) => return Stepped::Unsupported(why),
        Ok(Answer::Error(why)) => return Stepped::Error(format!("the adapter says: {why}")),
        Err(failure) => return Stepped::Error(restarted(&failure)),
    };
    match read_played(game, &map, turns.len()) {
        Ok(played) => Stepped::Played(played),
        Err(why) => Stepped::Error(format!("the step response {why}")),
    }
}

/// The JSON form of a reply in a request (ADAPTERS.md, "Replies").
pub fn reply_json(reply: &Reply) -> Value {
    match reply {
        Reply::Text { text, elapsed_ms } => json!({"text": text, "elapsed_ms": elapsed_ms}),
        Reply::TimedOut => json!({"timed_out": true}),
        Reply::Crashed => json!({"crashed": true}),
    }
}

fn read_played(
    game: &dyn DynGame,
    map: &Map<String, Value>,
    turns: usize,
) -> Result<Played, String> {
    let state = map.get("state").ok_or("has no `state`")?;
    let mut state = game
        .load_state(state)
        .map_err(|e| format!("holds a state that is not a valid canonical state: {e}"))?;
    // A game whose canonical state has no `outcome` field may send it beside the state.
    if let (Value::Object(s), Some(outcome)) = (&mut state, map.get("outcome")) {
        s.entry("outcome").or_insert_with(|| outcome.clone());
    }
    let prompts = strings(map.get("prompts"), "prompts")?;
    let last = strings(map.get("last_replies"), "last_replies")?
        .iter()
        .map(|name| reply_verdict(name))
        .collect::<Result<Vec<_>, _>>()?;
    let played = match map.get("turns_played") {
        None => turns,
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= turns)
            .ok_or_else(|| format!("has `turns_played: {v}`; the request had {turns} turns"))?,
    };
    Ok(Played {
        state,
        prompts,
        reports: if played == 0 {
            Vec::new()
        } else {
            vec![StepReport { replies: last }]
        },
        unplayed_turns: turns - played,
    })
}

fn strings(value: Option<&Value>, key: &str) -> Result<Vec<String>, String> {
    let list = value
        .and_then(Value::as_array)
        .ok_or_else(|| format!("has no `{key}` list"))?;
    list.iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("has `{key}` with {v}, which is not a string"))
        })
        .collect()
}

fn reply_verdict(name: &str) -> Result<ReplyVerdict, String> {
    Ok(match name {
        "accepted" => ReplyVerdict::Accepted,
        "non-strict" => ReplyVerdict::NonStrict(String::new()),
        "rejected" => ReplyVerdict::Rejected(String::new()),
        "timed-out" => ReplyVerdict::TimedOut,
        "crashed" => ReplyVerdict::Crashed,
        other => {
            return Err(format!(
                "has last_replies entry {other:?}; one of accepted, non-strict, rejected, \
                 timed-out, crashed"
            ))
        }
    })
}

fn parse(
    adapter: &mut Adapter,
    game: &dyn DynGame,
    id: &str,
    kind: &str,
    input: &str,
    expect: Expected,
    at: Option<[usize; 2]>,
) -> Verdict {
    let request = fields(json!({
        "kind": "parse", "game": game.info().id, "text": kind, "input": input,
    }));
    let map = match adapter.request(id, request) {
        Ok(Answer::Done(map)) => map,
        Ok(Answer::Unsupported(why)) => return Verdict::Unsupported(why),
        Ok(Answer::Error(why)) => return Verdict::Error(format!("the adapter says: {why}")),
        Err(failure) => return Verdict::Error(restarted(&failure)),
    };
    let position = match map.get("at") {
        None | Some(Value::Null) => None,
        Some(v) => match serde_json::from_value::<[usize; 2]>(v.clone()) {
            Ok(at) => Some(at),
            Err(_) => {
                return Verdict::Error(format!(
                    "the parse response has `at: {v}`; it should be [line, column]"
                ))
            }
        },
    };
    let error = |[line, col]: [usize; 2]| {
        let message = map.get("message").and_then(Value::as_str).unwrap_or("");
        ParseError::new(line, col, message, "")
    };
    let verdict = match map.get("parse").and_then(Value::as_str) {
        Some("valid") => match map.get("printed").and_then(Value::as_str) {
            Some(printed) => ParseVerdict::Valid {
                printed: printed.to_string(),
            },
            None => {
                return Verdict::Error("the parse response says valid but has no `printed`".into())
            }
        },
        Some(name @ ("non-strict" | "invalid")) => {
            if let (Some([line, col]), None) = (at, position) {
                if (name == "invalid") == (expect == Expected::Invalid) {
                    return Verdict::Fail(format!(
                        "expected the error at {line}:{col}, the engine gives no position"
                    ));
                }
            }
            let e = error(position.unwrap_or([0, 0]));
            if name == "invalid" {
                ParseVerdict::Invalid(e)
            } else {
                ParseVerdict::NonStrict(e)
            }
        }
        _ => {
            return Verdict::Error(
                "the parse response has no `parse` (valid, non-strict or invalid)".into(),
            )
        }
    };
    judge_parse_verdict(&verdict, input, expect, at)
}

fn generate(
    adapter: &mut Adapter,
    game: &dyn DynGame,
    name: &str,
    seeds: u64,
    options: &crate::game::MatchOptions,
    then: &Value,
) -> Verdict {
    for seed in 0..seeds {
        let request = fields(json!({
            "kind": "new_match", "game": game.info().id, "seed": seed, "options": options,
        }));
        let map = match adapter.request(&format!("{name}#{seed}"), request) {
            Ok(Answer::Done(map)) => map,
            Ok(Answer::Unsupported(why)) => return Verdict::Unsupported(why),
            Ok(Answer::Error(why)) => {
                return Verdict::Error(format!("seed {seed}: the adapter says: {why}"))
            }
            Err(failure) => return Verdict::Error(format!("seed {seed}: {}", restarted(&failure))),
        };
        let Some(state) = map.get("state") else {
            return Verdict::Error(format!("seed {seed}: the response has no `state`"));
        };
        let mut state = match game.load_state(state) {
            Ok(state) => state,
            Err(e) => {
                return Verdict::Fail(format!(
                    "new match with seed {seed} is not a valid canonical state: {e}"
                ))
            }
        };
        let facts = match game.facts_of(&state) {
            Ok(facts) => facts,
            Err(e) => return Verdict::Error(format!("seed {seed}: {e}")),
        };
        if let Value::Object(map) = &mut state {
            map.insert("facts".into(), facts);
        }
        if let Err(diff) = check_subset(then, &state) {
            return Verdict::Fail(format!("new match with seed {seed}:\n{diff}"));
        }
    }
    Verdict::Pass
}

fn fields(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn restarted(failure: &Failure) -> String {
    format!("{failure}\n(the adapter will be restarted for the next case)")
}

/// Runs every case whose name contains `filter` on `engine`, calling `progress` after each
/// with the number done and the total.
pub fn run_library_on(
    library: &Library,
    filter: Option<&str>,
    engine: &mut Engine,
    progress: impl FnMut(usize, usize),
) -> Vec<CaseResult> {
    run_library_with(
        library,
        filter,
        |game, case| engine.run_case(game, case),
        progress,
    )
}

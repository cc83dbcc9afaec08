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
//!
//! The work is split by stage: `generate` makes the random inputs, `shrink` makes a
//! disagreement small, `case_file` writes it out as a case; this module holds the loop and the
//! comparison of the two engines that the stages share.

mod case_file;
mod generate;
mod shrink;

use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::case::expect::{to_yaml, unified_diff};
use crate::game::{DynGame, MatchOptions, Reply};
use crate::run::{Answered, EngineUnderTest, Mask, StepRequest, StepResponse};

pub use case_file::case_file;
use generate::random_input;
use shrink::shrink;

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
    /// The match options of the self-play matches states are taken from.
    pub options: MatchOptions,
}

impl Default for DiffConfig {
    fn default() -> Self {
        DiffConfig {
            seed: 0,
            runs: 1000,
            shrink_requests: 3000,
            shrink_time: Duration::from_secs(20),
            options: MatchOptions::default(),
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
    engine: &mut dyn EngineUnderTest,
    config: &DiffConfig,
    mut progress: impl FnMut(usize),
) -> DiffOutcome {
    let mut unsupported = 0;
    for run in 0..config.runs {
        let mut rng = crate::rng::seeded(config.seed, run as u64);
        let Some(input) = random_input(game, &config.options, &mut rng) else {
            continue;
        };
        let id = format!("diff/{}/{run}", config.seed);
        match compare(game, engine, &id, &input) {
            Comparison::Agree | Comparison::NotAnInput => {}
            Comparison::Unsupported => unsupported += 1,
            Comparison::Disagree(_) => {
                return DiffOutcome::Disagreed(Box::new(shrink(game, engine, config, run, input)))
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

/// A result as cases see it: the state with `prompts` and `last_replies` beside it, without
/// what the engine does not model. The state is read back with its defaults filled in, so that
/// an engine that leaves out fields at their defaults (as adapters may) is compared fairly.
fn actual(game: &dyn DynGame, response: &StepResponse, turns: usize, mask: &Mask) -> Value {
    let mut state = response.state.clone();
    mask.remove_from(&mut state);
    let state = game.load_state(&state).unwrap_or(state);
    let mut value = crate::run::actual(&state, response);
    if let Value::Object(map) = &mut value {
        map.insert(
            "unplayed_turns".into(),
            turns.saturating_sub(response.turns_played).into(),
        );
    }
    mask.remove_from(&mut value);
    value
}

fn compare(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    id: &str,
    input: &Input,
) -> Comparison {
    let turns = input.turns.len();
    let request = StepRequest {
        id,
        game,
        state: &input.state,
        turns: &input.turns,
        reachable: true,
    };
    let Answered::Done(reference) = crate::run::Reference.step(request) else {
        return Comparison::NotAnInput;
    };
    let declared = engine.unmodelled(game.info().id);
    match engine.step(request) {
        Answered::Unsupported(_) => Comparison::Unsupported,
        Answered::Error(why) => Comparison::Disagree(Box::new(Disagreement {
            reference: actual(game, &reference, turns, &declared),
            engine: None,
            why: format!("the engine failed: {why}"),
        })),
        Answered::Done(response) => {
            let mask = if response.prompts.is_none() {
                declared.with_prompts()
            } else {
                declared
            };
            let reference = actual(game, &reference, turns, &mask);
            let engine = actual(game, &response, turns, &mask);
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
}

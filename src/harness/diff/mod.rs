//! Differential fuzzing (`shinpan diff`): random inputs are played on the reference engine and on
//! an engine under test, and each distinct departure is shrunk and written out as a case.
//!
//! An input is a canonical state and one to three turns of replies. States come from seeded
//! matches of the built-in players stopped at a random step, half of them then mutated within the
//! schema (a number set to an interesting value, a list element dropped, a string line dropped);
//! replies are the built-in players' legal ones, some mutated into illegal text, a time-out, a
//! crash or a slow reply. Everything works on the canonical JSON through [`DynGame`], so every
//! game gets it; a candidate state is kept only if the reference engine loads it
//! ([`DynGame::load_state`]), finds it reachable ([`DynGame::reachable`]) and plays it.
//!
//! A disagreement is a [`Departure`]: the fields that differ. The run goes on past the first
//! one until `departures` distinct ones are found; one that `--known` lists ([`Known`]) or one
//! whose fields all differ in departures already found (the same one, or two found ones on one
//! input) is counted and passed over, so one known bug no longer hides the others.
//!
//! Shrinking is generic too: fewer turns, an earlier turn with the list it indexes, list
//! elements removed (in halves first), keys removed (their default), string lines removed,
//! characters replaced by the string's most common one, numbers lowered; a candidate is kept
//! only while the engines still disagree on the same fields, on a reachable state.
//!
//! The work is split by stage: `generate` makes the random inputs, `shrink` makes a
//! disagreement small, `case_file` writes it out as a case; this module holds the loop and the
//! comparison of the two engines that the stages share.

mod case_file;
mod generate;
mod shrink;

use serde_json::{json, Map, Value};

use crate::case::expect::{to_yaml, unified_diff};
use crate::game::{DynGame, MatchOptions, Reply};
use crate::harness::interrupt;
use crate::harness::trace::clauses::{normalize, ClauseIndex};
use crate::run::expect_fail::{glob_match, Entry, ExpectFail, ListError};
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
    /// Most engine requests spent on shrinking one departure: the only bound, so that one seed
    /// gives one case whatever the machine's speed.
    pub shrink_requests: usize,
    /// How many distinct departures to find before stopping.
    pub departures: usize,
    /// The match options of the self-play matches states are taken from.
    pub options: MatchOptions,
}

impl Default for DiffConfig {
    fn default() -> Self {
        DiffConfig {
            seed: 0,
            runs: 1000,
            shrink_requests: 3000,
            departures: 1,
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

/// Which departure a disagreement is: the fields that differ, their indices and map keys made
/// general (`players[].score`, as [`normalize`] writes them), sorted. The prompts count only
/// when nothing else differs (a different state shows in its prompts too). An engine that
/// failed is the one departure [`Departure::FAILED`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Departure {
    pub fields: Vec<String>,
}

impl Departure {
    /// The field list of an engine that answered `error`.
    pub const FAILED: &'static str = "(the engine failed)";

    fn of(disagreement: &Disagreement) -> Departure {
        let Some(engine) = &disagreement.engine else {
            return Departure {
                fields: vec![Departure::FAILED.into()],
            };
        };
        let mut fields = std::collections::BTreeSet::new();
        differing_paths(&disagreement.reference, engine, String::new(), &mut fields);
        if fields.iter().any(|f| !f.starts_with("prompts")) {
            fields.retain(|f| !f.starts_with("prompts"));
        }
        Departure {
            fields: fields.into_iter().collect(),
        }
    }
}

impl Departure {
    /// Whether every field of this departure differs in one of `found`: the same departure
    /// again, or several found ones at once (two bugs on one input), not a new one.
    pub fn within<'d>(&self, found: impl IntoIterator<Item = &'d Departure>) -> bool {
        let seen: std::collections::BTreeSet<&String> =
            found.into_iter().flat_map(|d| &d.fields).collect();
        !seen.is_empty() && self.fields.iter().all(|f| seen.contains(f))
    }
}

impl std::fmt::Display for Departure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fields.join(", "))
    }
}

/// The general paths of every leaf where `reference` and `other` differ: into objects by key,
/// into lists of the same length by element; anything else differs as a whole.
fn differing_paths(
    reference: &Value,
    other: &Value,
    prefix: String,
    out: &mut std::collections::BTreeSet<String>,
) {
    if reference == other {
        return;
    }
    let join = |key: &str| {
        if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        }
    };
    match (reference, other) {
        (Value::Object(r), Value::Object(o)) => {
            for key in r.keys().chain(o.keys().filter(|k| !r.contains_key(*k))) {
                let (rv, ov) = (
                    r.get(key).unwrap_or(&Value::Null),
                    o.get(key).unwrap_or(&Value::Null),
                );
                differing_paths(rv, ov, join(key), out);
            }
        }
        (Value::Array(r), Value::Array(o)) if r.len() == o.len() => {
            for (i, (rv, ov)) in r.iter().zip(o).enumerate() {
                differing_paths(rv, ov, format!("{prefix}[{i}]"), out);
            }
        }
        _ => {
            out.insert(normalize(&prefix));
        }
    }
}

/// Departures already known (`--known FILE`), in the style of `--expect-fail`: a YAML mapping
/// of pattern to reason. A pattern (`*` for any run of characters) names a field
/// (`players[].skill_gauge`: a departure all of whose fields some pattern matches is known) or a
/// rule clause (`gauge.*`: a departure whose first clause it matches is known).
#[derive(Debug, Clone, Default)]
pub struct Known {
    pub entries: Vec<Entry>,
}

impl Known {
    /// Reads the list, a regular file of at most `max_bytes` (`--max-list-bytes`).
    pub fn load(path: &std::path::Path, max_bytes: u64) -> Result<Known, ListError> {
        let list = ExpectFail::load(path, max_bytes).map_err(|e| ListError {
            message: e
                .message
                .replace("expect-fail list", "known-departures list")
                .replace(
                    "`case-pattern: reason`",
                    "`field-or-clause-pattern: reason`",
                ),
            ..e
        })?;
        Ok(Known {
            entries: list.entries,
        })
    }

    /// Whether `entry` names `departure`: its first clause, or any of its fields.
    fn matches(entry: &Entry, departure: &Departure, clauses: &[String]) -> bool {
        clauses
            .first()
            .is_some_and(|clause| glob_match(&entry.pattern, clause))
            || departure
                .fields
                .iter()
                .any(|field| glob_match(&entry.pattern, field))
    }

    /// The entry that makes `departure` (with its `clauses`) known, if any.
    pub fn lookup(&self, departure: &Departure, clauses: &[String]) -> Option<&Entry> {
        let by_clause = clauses
            .first()
            .and_then(|clause| self.entries.iter().find(|e| glob_match(&e.pattern, clause)));
        let field_entry =
            |field: &String| self.entries.iter().find(|e| glob_match(&e.pattern, field));
        by_clause.or_else(|| {
            let entries: Option<Vec<&Entry>> = departure.fields.iter().map(field_entry).collect();
            entries.and_then(|e| e.first().copied())
        })
    }
}

/// A departure skipped because `--known` lists it.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub departure: Departure,
    pub pattern: String,
    pub reason: String,
    /// Inputs on which it showed.
    pub seen: usize,
}

/// The result of a fuzzing run.
#[derive(Debug, Clone)]
pub struct DiffOutcome {
    /// Inputs tried.
    pub runs: usize,
    /// Inputs the engine answered `unsupported`.
    pub unsupported: usize,
    /// Inputs the engine's answer was compared on (agreeing or not).
    pub judged: usize,
    /// The distinct departures found, each shrunk, in the order found.
    pub findings: Vec<Finding>,
    /// Known departures seen and not shrunk.
    pub known: Vec<Skipped>,
    /// Inputs that showed departures already found (one, or several at once).
    pub repeats: usize,
    /// `interrupted by SIGTERM` when a signal stopped the run (the input under way is not
    /// counted; a departure being shrunk is kept as far as it got).
    pub interrupted: Option<String>,
    /// The `--known` patterns that matched no departure seen (a field or the first clause of
    /// any departure, known, new or repeated): stale, or misspelt.
    pub unmatched_known: Vec<String>,
}

/// A disagreement, shrunk.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The run (0-based) whose input disagreed first.
    pub run: usize,
    /// Which departure it is: the original input and the shrunk one show the same.
    pub departure: Departure,
    /// The rule clauses the departure's fields belong to, when known (the most likely first).
    pub clauses: Vec<String>,
    pub original: Input,
    /// What differed on the original input, as [`Finding::difference`] shows the shrunk one.
    pub original_difference: String,
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

impl Finding {
    /// The turn the shrunk case starts at, where the game's state has one (`turn` or `round`).
    pub fn turn(&self) -> Option<u64> {
        ["turn", "round"]
            .iter()
            .find_map(|k| self.shrunk.state.get(*k).and_then(Value::as_u64))
            .or_else(|| {
                // A state shrunk to its defaults leaves the turn out: the default, 0.
                self.shrunk.state.is_object().then_some(0)
            })
    }
}

/// Fuzzes `engine` against the reference engine of `game` until `config.departures` distinct
/// departures are found (those `known` lists skipped) or `config.runs` inputs are tried;
/// `clauses` names the clauses of each departure when the library is at hand. `progress` is
/// called after each run with the runs done and the departures found.
pub fn run(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    config: &DiffConfig,
    known: &Known,
    clauses: Option<&ClauseIndex>,
    mut progress: impl FnMut(usize, usize),
) -> DiffOutcome {
    let mut outcome = DiffOutcome {
        runs: 0,
        unsupported: 0,
        judged: 0,
        findings: Vec::new(),
        known: Vec::new(),
        repeats: 0,
        interrupted: None,
        unmatched_known: Vec::new(),
    };
    let mut known_used = vec![false; known.entries.len()];
    for run in 0..config.runs {
        if let Some(why) = interrupt::reason() {
            outcome.interrupted = Some(why);
            break;
        }
        outcome.runs = run + 1;
        let mut rng = crate::rng::seeded(config.seed, run as u64);
        let Some(input) = random_input(game, &config.options, &mut rng) else {
            progress(run + 1, outcome.findings.len());
            continue;
        };
        let id = format!("diff/{}/{run}", config.seed);
        let compared = compare(game, engine, &id, &input);
        if let Some(why) = interrupt::reason() {
            // The engine was stopped under this input: its answer says nothing.
            outcome.runs = run;
            outcome.interrupted = Some(why);
            break;
        }
        if matches!(compared, Comparison::Agree | Comparison::Disagree(_)) {
            outcome.judged += 1;
        }
        match compared {
            Comparison::Agree | Comparison::NotAnInput => {}
            Comparison::Unsupported => outcome.unsupported += 1,
            Comparison::Disagree(d) => {
                let departure = Departure::of(&d);
                let named = clauses
                    .map(|c| c.clauses_for(&departure.fields))
                    .unwrap_or_default();
                for (used, entry) in known_used.iter_mut().zip(&known.entries) {
                    *used |= Known::matches(entry, &departure, &named);
                }
                if departure.within(outcome.findings.iter().map(|f| &f.departure)) {
                    outcome.repeats += 1;
                } else if let Some(entry) = known.lookup(&departure, &named) {
                    match outcome.known.iter_mut().find(|k| k.departure == departure) {
                        Some(skipped) => skipped.seen += 1,
                        None => outcome.known.push(Skipped {
                            departure,
                            pattern: entry.pattern.clone(),
                            reason: entry.reason.clone(),
                            seen: 1,
                        }),
                    }
                } else {
                    let mut finding = shrink(game, engine, config, run, input, *d, departure);
                    finding.clauses = named;
                    outcome.findings.push(finding);
                    if outcome.findings.len() >= config.departures {
                        progress(run + 1, outcome.findings.len());
                        break;
                    }
                }
            }
        }
        progress(run + 1, outcome.findings.len());
    }
    outcome.unmatched_known = known
        .entries
        .iter()
        .zip(known_used)
        .filter(|(_, used)| !used)
        .map(|(entry, _)| entry.pattern.clone())
        .collect();
    outcome
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

//! `shinpan trace`: checks a recorded match turn by turn against the rules. Each prompt in the
//! log is read back into the state it shows ([`DynGame::observe`]); the reference engine plays
//! the recorded replies from there; the next prompts must show what the reference predicts,
//! field by field, over what they show. Each difference is a departure of the recorded engine,
//! named once with its step, the fields, the rule clauses those fields belong to (learned from
//! the case library) and a diff; the following steps go on from what the engine showed, so one
//! departure is not reported again at every turn ("follows from step N").
//!
//! Fields a prompt shows but no engine could predict (a fresh random draw) are taken as shown;
//! a game whose prompts cannot be read back says so, never a false alarm.
//!
//! [`log`] reads the JSON-lines log; [`clauses`] maps fields to clauses.

pub mod clauses;
pub mod log;

use std::collections::{BTreeMap, VecDeque};

use serde::Serialize;
use serde_json::Value;

use crate::case::expect::{to_yaml, unified_diff};
use crate::game::{DynGame, PlayedDeparture, Reply};
use clauses::{leaf_paths, normalize, ClauseIndex};
use log::PlayerLog;

/// How many of the last steps a game may play its known departures over.
const REPLAYED: usize = 3;

/// One departure of the recorded engine from the rules.
#[derive(Debug, Clone, Serialize)]
pub struct Departure {
    /// The step (0 = the first prompts) whose prompt showed it.
    pub step: usize,
    pub player: usize,
    /// The fields that differ, in canonical-state paths.
    pub fields: Vec<String>,
    /// The clauses those fields belong to: first those whose known departure, played
    /// ([`DynGame::departures_played`]), shows what the engine showed; then, for the fields
    /// none of them shows, the clauses whose cases check those fields.
    pub clauses: Vec<String>,
    /// Of `clauses`, those whose played departure reproduced at least one of the fields.
    pub reproduced: Vec<String>,
    /// Known departures of named engines on those clauses (clause, engine, what it does).
    pub known: Vec<(String, String, String)>,
    /// The reference's prediction against what the engine showed.
    pub diff: String,
    /// The step of the first departure of the same fields this one follows from.
    pub follows_from: Option<usize>,
}

/// What a trace found.
#[derive(Debug, Clone, Serialize)]
pub struct TraceReport {
    pub game: String,
    /// Steps checked.
    pub steps: usize,
    pub departures: Vec<Departure>,
    /// What could not be checked, and why.
    pub notes: Vec<String>,
}

impl TraceReport {
    /// Departures that start something new (not following an earlier one).
    pub fn new_departures(&self) -> impl Iterator<Item = &Departure> {
        self.departures.iter().filter(|d| d.follows_from.is_none())
    }

    pub fn passed(&self) -> bool {
        self.departures.is_empty()
    }
}

/// Checks the recorded exchanges of each player (`logs[player]`) of one match.
pub fn trace(
    game: &dyn DynGame,
    logs: &BTreeMap<usize, PlayerLog>,
    index: &ClauseIndex,
) -> TraceReport {
    let mut report = TraceReport {
        game: game.info().id.to_string(),
        steps: 0,
        departures: Vec::new(),
        notes: Vec::new(),
    };
    let mut next: BTreeMap<usize, usize> = logs.keys().map(|&p| (p, 0)).collect();
    let Some((&first_player, first)) = logs.iter().next() else {
        report.notes.push("the logs hold no exchange".into());
        return report;
    };
    let Some(exchange) = first.exchanges.first() else {
        report.notes.push("the logs hold no prompt".into());
        return report;
    };
    // The first prompt read onto nothing gives the state to start from.
    let mut state = match game.observe(&exchange.prompt, first_player, None) {
        None => {
            report.notes.push(format!(
                "{} cannot read its prompts back into states: nothing can be checked",
                game.info().id
            ));
            return report;
        }
        Some(Err(e)) => {
            report.notes.push(format!(
                "step 0, player {first_player}: {e}; nothing can be checked"
            ));
            return report;
        }
        Some(Ok(observed)) => observed.state,
    };
    let mut first_seen: BTreeMap<String, usize> = BTreeMap::new();
    // The last steps played (the state each was played from, and its replies), oldest first:
    // what known departures are played over when a step shows a departure (none before the
    // first step: the set-up).
    let mut previous: VecDeque<(Value, Vec<Reply>)> = VecDeque::with_capacity(REPLAYED);
    for step in 0.. {
        let mut played: Option<Vec<PlayedDeparture<Value>>> = None;
        report.steps = step;
        let play = match game.resume(&state) {
            Ok(play) => play,
            Err(e) => {
                report.notes.push(format!(
                    "step {step}: the state shown cannot be played: {e}"
                ));
                break;
            }
        };
        if play.outcome().is_some() {
            let left: Vec<String> = next
                .iter()
                .filter(|(p, &i)| logs[p].exchanges.len() > i)
                .map(|(p, _)| format!("player {p}"))
                .collect();
            if !left.is_empty() {
                report.notes.push(format!(
                    "the match is over at step {step} by the rules, but the engine prompted {} again",
                    left.join(", ")
                ));
            }
            break;
        }
        let awaiting = play.awaiting();
        let mut replies = Vec::with_capacity(awaiting.len());
        let mut log_ended = false;
        for &player in &awaiting {
            let Some(exchange) = logs
                .get(&player)
                .and_then(|l| l.exchanges.get(next[&player]))
            else {
                log_ended = true;
                break;
            };
            if let Some(i) = next.get_mut(&player) {
                *i += 1;
            }
            match game.observe(&exchange.prompt, player, Some(&state)) {
                Some(Ok(observed)) => {
                    let checked: Vec<&String> = observed
                        .shown
                        .iter()
                        .filter(|p| !observed.drawn.contains(p))
                        .collect();
                    let differing = differing_fields(&state, &observed.state, &checked);
                    if !differing.is_empty() {
                        let played = played.get_or_insert_with(|| {
                            game.departures_played(previous.make_contiguous())
                        });
                        report.departures.push(departure(
                            step,
                            player,
                            (&state, &observed.state),
                            differing,
                            (index, played),
                            &mut first_seen,
                        ));
                    }
                    state = observed.state;
                    if let Ok(now) = game.resume(&state) {
                        let expected = now.prompt(player);
                        if !same_prompt(game, &expected, &exchange.prompt)
                            && report.departures.last().is_none_or(|d| d.step != step)
                        {
                            let clauses = index.clauses_for(&["prompt".into()]);
                            report.departures.push(Departure {
                                step,
                                player,
                                fields: vec!["prompt".into()],
                                known: index.departures_of(&clauses),
                                clauses,
                                reproduced: Vec::new(),
                                diff: unified_diff(&expected, &exchange.prompt),
                                follows_from: first_seen.get("prompt").copied(),
                            });
                            first_seen.entry("prompt".into()).or_insert(step);
                        }
                    }
                }
                Some(Err(e)) => {
                    report.notes.push(format!(
                        "step {step}, player {player}: {e}; the trace stops here"
                    ));
                    return report;
                }
                None => unreachable_note(&mut report),
            }
            replies.push(match &exchange.reply {
                Some(text) => Reply::Text {
                    text: text.clone(),
                    elapsed_ms: exchange.elapsed_ms.unwrap_or(0),
                },
                None => Reply::Crashed,
            });
        }
        if log_ended {
            report.notes.push(format!(
                "the logs end at step {step}, before the match does"
            ));
            break;
        }
        let turn = [replies];
        match game.play(&state, &turn) {
            Ok(played) => {
                // The state played from is kept (moved, not copied) with its replies.
                let [replies] = turn;
                if previous.len() == REPLAYED {
                    previous.pop_front();
                }
                previous.push_back((std::mem::replace(&mut state, played.state), replies));
            }
            Err(e) => {
                report.notes.push(format!(
                    "step {step}: the reference cannot play the replies: {e}"
                ));
                break;
            }
        }
    }
    report
}

/// Whether the recorded prompt is the predicted one: the same text, or the same once the game
/// has brought both to one spelling ([`DynGame::normalize_expectation`]: CODE VS 4.0's resource
/// cells come in no fixed order).
fn same_prompt(game: &dyn DynGame, predicted: &str, recorded: &str) -> bool {
    let spelled = |prompt: &str| {
        let mut value = serde_json::json!({ "prompts": [prompt] });
        game.normalize_expectation(&mut value);
        value
    };
    predicted == recorded || spelled(predicted) == spelled(recorded)
}

fn unreachable_note(report: &mut TraceReport) {
    report
        .notes
        .push("the game stopped reading its prompts back mid-match".into());
}

/// The leaf fields under the `checked` paths where `predicted` and `shown` differ.
fn differing_fields(predicted: &Value, shown: &Value, checked: &[&String]) -> Vec<String> {
    let mut out = Vec::new();
    for path in checked {
        let a = at(predicted, path);
        let b = at(shown, path);
        if a == b {
            continue;
        }
        let mut leaves = Vec::new();
        match (a, b) {
            (Some(a @ (Value::Object(_) | Value::Array(_))), Some(b)) => {
                leaf_paths(a, (*path).clone(), &mut leaves);
                leaf_paths(b, (*path).clone(), &mut leaves);
                leaves.sort();
                leaves.dedup();
                leaves.retain(|leaf| at(predicted, leaf) != at(shown, leaf));
            }
            _ => leaves.push((*path).clone()),
        }
        out.extend(leaves);
    }
    out
}

fn at<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    crate::case::yaml::parse_path(path)
        .iter()
        .try_fold(value, |v, segment| match segment {
            crate::case::yaml::Segment::Key(k) => v.get(k),
            crate::case::yaml::Segment::Index(i) => v.get(i),
        })
}

/// The clauses that explain the `fields` where the engine `shown` departs: those whose known
/// departure, `played`, shows the shown value of some field (the one reproducing most fields
/// first), then the `index`'s clauses for the fields none reproduces. Also returns the first
/// kind alone.
fn name_clauses(
    fields: &[String],
    shown: &Value,
    index: &ClauseIndex,
    played: &[PlayedDeparture<Value>],
) -> (Vec<String>, Vec<String>) {
    let shows = |state: &Value, field: &String| at(state, field) == at(shown, field);
    let mut reproducing: Vec<(usize, &PlayedDeparture<Value>)> = played
        .iter()
        .map(|p| (fields.iter().filter(|f| shows(&p.state, f)).count(), p))
        .filter(|&(n, _)| n > 0)
        .collect();
    reproducing.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
    let mut reproduced: Vec<String> = Vec::new();
    for clause in reproducing.iter().flat_map(|(_, p)| &p.clauses) {
        if !reproduced.contains(clause) {
            reproduced.push(clause.clone());
        }
    }
    let unexplained: Vec<String> = fields
        .iter()
        .filter(|f| !reproducing.iter().any(|(_, p)| shows(&p.state, f)))
        .cloned()
        .collect();
    let mut clauses = reproduced.clone();
    for clause in index.clauses_for(&unexplained) {
        if !clauses.contains(&clause) {
            clauses.push(clause);
        }
    }
    (clauses, reproduced)
}

/// The departure at `step` of the `fields` where the `predicted` state and the one `shown`
/// differ, with the clauses that explain it ([`name_clauses`]).
fn departure(
    step: usize,
    player: usize,
    (predicted, shown): (&Value, &Value),
    fields: Vec<String>,
    (index, played): (&ClauseIndex, &[PlayedDeparture<Value>]),
    first_seen: &mut BTreeMap<String, usize>,
) -> Departure {
    let key: String = {
        let mut general: Vec<String> = fields.iter().map(|f| normalize(f)).collect();
        general.sort();
        general.dedup();
        general.join(" ")
    };
    let follows_from = first_seen.get(&key).copied();
    first_seen.entry(key).or_insert(step);
    let (clauses, reproduced) = name_clauses(&fields, shown, index, played);
    let known = index.departures_of(&clauses);
    let part = |value: &Value| {
        let mut map = serde_json::Map::new();
        for field in fields.iter().take(12) {
            map.insert(
                field.clone(),
                at(value, field).cloned().unwrap_or(Value::Null),
            );
        }
        to_yaml(&Value::Object(map))
    };
    Departure {
        step,
        player,
        diff: unified_diff(&part(predicted), &part(shown)),
        clauses,
        reproduced,
        known,
        fields,
        follows_from,
    }
}

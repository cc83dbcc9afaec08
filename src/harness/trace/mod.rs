//! `shinpan trace`: checks a recorded match turn by turn against the rules. Each prompt in the
//! log is read back into the state it shows ([`crate::seam::DynRecorded::observe`]); the reference engine plays
//! the recorded replies from there; the next prompts must show what the reference predicts,
//! field by field, over what they show. Each difference is a departure of the recorded engine,
//! named once with its step, the fields, the rule clauses those fields belong to (learned from
//! the case library) and a diff; the following steps go on from what the engine showed, so one
//! departure is not reported again at every turn ("follows from step N").
//!
//! Fields a prompt shows but no engine could predict (a fresh random draw) are taken as shown;
//! a game whose prompts cannot be read back says so, never a false alarm.
//!
//! [`crate::harness::log`] reads the JSON-lines log; [`clauses`] maps fields to clauses.

pub mod cases;
pub mod clauses;
mod engine_known;

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use serde::Serialize;
use serde_json::Value;

use crate::case::expect::{to_yaml, unified_diff};
use crate::harness::log::{Exchange, PlayerLog};
use crate::run::departure::{self, at, differing_fields};
use crate::seam::{
    DynGame, DynMatch, DynRecorded, MatchOptions, Observation, ObservedMatch, Outcome,
    PlayedDeparture, Reply,
};
use clauses::ClauseIndex;
use engine_known::{engine_known, naming_departures, variants_played, EngineKnown, StepPlays};

/// One departure of the recorded engine from the rules.
#[derive(Debug, Clone, Serialize)]
pub struct Departure {
    /// The step (0 = the first prompts) whose prompt showed it.
    pub step: usize,
    pub player: usize,
    /// The fields that differ, in canonical-state paths; an element of a list of things with
    /// ids is named by its id (`units[#5].hp`), never by its place in the list.
    pub fields: Vec<String>,
    /// The clauses those fields belong to: first those whose known departure, played
    /// ([`crate::seam::DynKnownDepartures::departures_played`]), shows what the engine showed; then, for the fields
    /// none of them shows, the clauses whose cases check those fields.
    pub clauses: Vec<String>,
    /// Of `clauses`, those whose played departure reproduced at least one of the fields.
    pub reproduced: Vec<String>,
    /// Whether a catalogued departure, played, reproduces every field (else: unexplained).
    pub catalogued: bool,
    /// The fields no catalogued departure, played, reproduces.
    pub unexplained: Vec<String>,
    /// The clause it breaks, by which departures are grouped: the first reproduced, else the
    /// first named.
    pub clause: String,
    /// Known departures of named engines on those clauses (clause, engine, what it does).
    pub known: Vec<(String, String, String)>,
    /// The reference's prediction against what the engine showed.
    pub diff: String,
    /// The step of the first departure from the same clause this one follows from.
    pub follows_from: Option<usize>,
}

/// Departures from one clause.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClauseCount {
    pub clause: String,
    /// Departures (one a step and player) a catalogued departure reproduces.
    pub catalogued: usize,
    /// Steps whose departure none does.
    pub unexplained: usize,
}

/// The end of the match: what the rules give against what the log shows.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct OutcomeCheck {
    /// The outcome the rules give at the last step (`None`: the match goes on).
    pub rules: Option<Value>,
    /// What the log shows (`play`'s `end` record), when it shows it.
    pub log: Option<Value>,
    /// Whether the two agree; `None` when the log shows no outcome to check.
    pub agrees: Option<bool>,
}

/// What a trace found.
#[derive(Debug, Clone, Serialize)]
pub struct TraceReport {
    pub game: String,
    /// Steps checked.
    pub steps: usize,
    /// Steps the log holds (checked or not).
    pub steps_in_log: usize,
    /// Steps checked whose prompts showed no departure.
    pub agreeing: usize,
    /// Whether every step the log holds was checked.
    pub complete: bool,
    /// Where and why checking stopped before the log's end.
    pub stopped: Option<String>,
    pub departures: Vec<Departure>,
    /// The departures of every step, by the clause they break.
    pub by_clause: Vec<ClauseCount>,
    /// The end of the match, checked against the rules.
    pub outcome: Option<OutcomeCheck>,
    /// The match options the trace played with, and where they came from.
    pub options: Value,
    pub options_from: String,
    /// The engine whose known departures were played (`--engine-known`, `--import`).
    pub engine: Option<String>,
    /// What could not be checked, and why.
    pub notes: Vec<String>,
    /// Where the recorded engine failed on its own (a crash of the engine, no rule of the
    /// game: main.rb's buy with an empty unit list), as its model tells, when the log ends
    /// there.
    pub engine_failed: Option<String>,
    /// Each checked step with what the engine showed after it, when asked for
    /// ([`TraceConfig::step_cases`]): regression cases ([`cases`]).
    #[serde(skip)]
    pub step_cases: Vec<cases::StepCase>,
}

impl TraceReport {
    /// A report of a trace that checked nothing, and why.
    pub fn nothing_checked(game: &str, steps_in_log: usize, why: String) -> TraceReport {
        TraceReport {
            game: game.to_string(),
            steps: 0,
            steps_in_log,
            agreeing: 0,
            complete: false,
            stopped: Some(why),
            departures: Vec::new(),
            by_clause: Vec::new(),
            outcome: None,
            options: Value::Object(Default::default()),
            options_from: String::new(),
            engine: None,
            notes: Vec::new(),
            engine_failed: None,
            step_cases: Vec::new(),
        }
    }

    /// Departures that start something new (not following an earlier one).
    pub fn new_departures(&self) -> impl Iterator<Item = &Departure> {
        self.departures.iter().filter(|d| d.follows_from.is_none())
    }

    /// Every step of the log checked, no departure, and the engine did not fail.
    pub fn passed(&self) -> bool {
        self.complete && self.departures.is_empty() && self.engine_failed.is_none()
    }

    /// Less was checked than the log holds (or the log is cut short).
    pub fn incomplete(&self) -> bool {
        !self.complete
    }

    /// Departures named by no catalogued behaviour.
    pub fn unexplained(&self) -> usize {
        self.by_clause.iter().map(|c| c.unexplained).sum()
    }
}

/// How a trace is set up besides its logs.
#[derive(Debug, Clone, Default)]
pub struct TraceConfig {
    /// The match options (the log's `start` record's, then the command line's); `None` when
    /// neither names any: the trace then reads the match as the first prompts suggest.
    pub options: Option<MatchOptions>,
    /// Where the options came from, for the report.
    pub options_from: String,
    /// The outcome the log records (`play`'s `end` record).
    pub outcome: Option<Value>,
    /// The engine that recorded the log, by the name the catalogue gives its departures
    /// (`main.rb`): its known departures are played to name what the log shows. `None`: none
    /// is played, and departures are named by the clauses of their fields.
    pub engine: Option<String>,
    /// Keep each checked step as a regression case (`trace --cases-out`).
    pub step_cases: bool,
    /// Some writer of the logs never ended its record ([`crate::harness::log::MatchLog`]'s
    /// `incomplete`): a player's last prompt without a reply or an end is where its record
    /// was cut, not a bot that never answered.
    pub log_cut: bool,
}

/// Checks the recorded exchanges of each player (`logs[player]`) of one match, with the
/// game's default reading of options.
pub fn trace(
    game: &dyn DynGame,
    logs: &BTreeMap<usize, PlayerLog>,
    index: &ClauseIndex,
) -> TraceReport {
    trace_with(game, logs, index, &TraceConfig::default())
}

/// Steps the exchanges not yet read make, at `per_step` replies a step.
fn steps_left(
    logs: &BTreeMap<usize, PlayerLog>,
    next: &BTreeMap<usize, usize>,
    per_step: usize,
) -> usize {
    let left: usize = logs
        .iter()
        .map(|(p, l)| {
            l.exchanges
                .len()
                .saturating_sub(next.get(p).copied().unwrap_or(0))
        })
        .sum();
    left.div_ceil(per_step.max(1))
}

/// Checks the recorded exchanges of each player (`logs[player]`) of one match. Never stops
/// before the log ends but where the log cannot be read on (a first prompt that is no prompt,
/// a state the reference cannot play): a departure is reported and the state the engine showed
/// adopted; a prompt that cannot be read back is a departure, and the prediction goes on.
pub fn trace_with(
    game: &dyn DynGame,
    logs: &BTreeMap<usize, PlayerLog>,
    index: &ClauseIndex,
    config: &TraceConfig,
) -> TraceReport {
    trace_seen(game, logs, index, config, None)
}

/// One step of a trace as it was read, for a replay: the state the step was played from (what
/// its prompts showed), the exchanges read at it, and where its prompts departed, what the
/// reference predicted. The last one seen is the state after the last step, with no exchange.
pub struct Seen<'a> {
    pub step: usize,
    pub state: &'a Value,
    /// The player and the exchange read of its log, in the order the rules await them.
    pub exchanges: Vec<(usize, &'a Exchange)>,
    /// The reference's prediction, when the step's prompts showed something else.
    pub predicted: Option<&'a Value>,
}

/// [`trace_with`], showing each step to `seen` as it is read (a replay is made of them, one
/// step at a time, never every state at once).
pub fn trace_seen<'a>(
    game: &'a dyn DynGame,
    logs: &'a BTreeMap<usize, PlayerLog>,
    index: &'a ClauseIndex,
    config: &'a TraceConfig,
    seen: Option<&'a mut (dyn FnMut(Seen<'_>) + 'a)>,
) -> TraceReport {
    let mut report = opening_report(game, logs, config);
    let start = match starting_point(game, logs, config) {
        Ok(start) => start,
        Err(why) => {
            report.stopped = Some(why);
            return report;
        }
    };
    if let Some(assumed) = start.assumed_options {
        report.options = assumed;
    }
    let mut walk = Walk {
        game,
        recorded: start.recorded,
        logs,
        index,
        config,
        first_player: start.first_player,
        next: logs.keys().map(|&p| (p, 0)).collect(),
        state: start.state,
        resumed: None,
        first_seen: BTreeMap::new(),
        last: None,
        engine: engine_known(game, config),
        pending: None,
        report,
        seen,
    };
    for step in 0.. {
        if walk.check_step(step).is_break() {
            break;
        }
    }
    walk.close()
}

/// The report before any step is checked: the options named, where they came from, the engine.
fn opening_report(
    game: &dyn DynGame,
    logs: &BTreeMap<usize, PlayerLog>,
    config: &TraceConfig,
) -> TraceReport {
    let per_step = game.info().replies_per_step;
    let mut report = TraceReport::nothing_checked(
        game.info().id,
        steps_left(logs, &BTreeMap::new(), per_step),
        String::new(),
    );
    report.stopped = None;
    report.options_from = config.options_from.clone();
    report.engine = config.engine.clone();
    if let Some(options) = &config.options {
        report.options = game
            .check_options(options)
            .unwrap_or_else(|_| Value::Object(options.0.clone()));
    }
    report
}

/// Where a trace starts: the first prompt of the first player, read onto nothing.
struct Start {
    recorded: &'static dyn DynRecorded,
    first_player: usize,
    /// The state to start from, set up with the match options when they are named.
    state: Value,
    /// When none are named: the options the first prompts were read as, for the report.
    assumed_options: Option<Value>,
}

/// The state the first prompt shows, or why nothing can be checked.
fn starting_point(
    game: &dyn DynGame,
    logs: &BTreeMap<usize, PlayerLog>,
    config: &TraceConfig,
) -> Result<Start, String> {
    let Some((&first_player, first)) = logs.iter().next() else {
        return Err("the log holds no exchange: nothing was checked".into());
    };
    let Some(exchange) = first.exchanges.first() else {
        return Err("the log holds no prompt: nothing was checked".into());
    };
    let Some(recorded) = game.info().capabilities.recorded else {
        return Err(format!(
            "{} cannot read its prompts back into states: nothing was checked",
            game.info().id
        ));
    };
    let observed = recorded
        .observe(&exchange.prompt, first_player, None)
        .map_err(|e| {
            format!(
                "step 0, player {first_player}: the first prompt cannot be read ({e}): nothing was checked"
            )
        })?
        .observation
        .state;
    let (state, assumed_options) = match &config.options {
        Some(options) => {
            let set_up = recorded
                .set_up_observed(&observed, options)
                .map_err(|e| format!("the match options: {e}"))?;
            (set_up, None)
        }
        None => {
            let assumed = assumed_options(game, &observed);
            (observed, assumed)
        }
    };
    Ok(Start {
        recorded,
        first_player,
        state,
        assumed_options,
    })
}

/// What the first prompts were read as when no options are named: the game's default options,
/// each as the state read back holds it (such as Spring's league).
fn assumed_options(game: &dyn DynGame, state: &Value) -> Option<Value> {
    let Ok(Value::Object(defaults)) = game.check_options(&MatchOptions::default()) else {
        return None;
    };
    let assumed: serde_json::Map<String, Value> = defaults
        .iter()
        .map(|(k, v)| (k.clone(), state.get(k).unwrap_or(v).clone()))
        .collect();
    Some(Value::Object(assumed))
}

/// A trace under way: the state the reference plays from, how far each player's log is read,
/// and what was found so far.
struct Walk<'a> {
    game: &'a dyn DynGame,
    recorded: &'static dyn DynRecorded,
    logs: &'a BTreeMap<usize, PlayerLog>,
    index: &'a ClauseIndex,
    config: &'a TraceConfig,
    /// The player whose log starts the match: outcome departures are reported on it.
    first_player: usize,
    /// Of each player, the next exchange of its log to read.
    next: BTreeMap<usize, usize>,
    /// The state the next step is played from: what the last prompts showed.
    state: Value,
    /// A match on `state` as the last prompt read showed it, while `state` is that: the step
    /// plays on from it instead of reading `state` again.
    resumed: Option<Box<dyn DynMatch>>,
    /// The step at which each clause was first broken ("follows from step N").
    first_seen: BTreeMap<String, usize>,
    /// The last step played: the state it was played from, and its replies (none before the
    /// first step: the set-up).
    last: Option<(Value, Vec<Reply>)>,
    /// The recorded engine, modelled from the first step ([`EngineKnown`]), when one is named
    /// and the game knows how it departs.
    engine: Option<EngineKnown>,
    /// The step played last, waiting for the prompts that show its result (`--cases-out`).
    pending: Option<cases::StepCase>,
    report: TraceReport,
    /// Who is shown each step as it is read ([`trace_seen`]).
    seen: Option<&'a mut (dyn FnMut(Seen<'_>) + 'a)>,
}

/// What one step gathers while its prompts are read.
struct StepFindings {
    step: usize,
    /// How many departures the report held before this step.
    departures_before: usize,
    /// The known departures and variants played over the last step: played once a step, when
    /// first needed.
    played: Option<StepPlays>,
    /// The values the prompts showed, for the step case of the step before (`--cases-out`).
    then_values: Vec<(String, Value)>,
    /// The player and exchange of each prompt read, in the order read.
    read: Vec<(usize, usize)>,
    /// The prediction the prompts are compared with, kept when someone is shown the steps.
    predicted: Option<Value>,
}

/// How the prompts of a step were read.
enum Prompts {
    /// Every awaited player's prompt, and the replies to play.
    Read(Vec<Reply>),
    /// A player's log ended before its prompt or reply; `cut`: the record was cut short.
    LogEnded { cut: bool },
}

impl Walk<'_> {
    /// Checks one step: the prompts that show the state it is played from, then plays its
    /// replies. Breaks where the trace stops (the match's end, the log's end, a state or
    /// replies the reference cannot play).
    fn check_step(&mut self, step: usize) -> ControlFlow<()> {
        self.report.steps = step;
        let mut findings = StepFindings {
            step,
            departures_before: self.report.departures.len(),
            played: None,
            then_values: Vec::new(),
            read: Vec::new(),
            predicted: self.seen.is_some().then(|| self.state.clone()),
        };
        let awaiting = self.awaiting(&mut findings)?;
        let replies = match self.read_prompts(&awaiting, &mut findings) {
            Prompts::Read(replies) => replies,
            Prompts::LogEnded { cut } => {
                self.log_ended(&mut findings, cut);
                return ControlFlow::Break(());
            }
        };
        self.keep_step(findings, &replies);
        self.play(step, replies)
    }

    /// Stops the trace here, for this reason.
    fn stop<T>(&mut self, why: String) -> ControlFlow<(), T> {
        self.report.stopped = Some(why);
        ControlFlow::Break(())
    }

    /// The engine's known departures played over the last step (at the first call of a
    /// step).
    fn known_played<'p>(&self, plays: &'p mut Option<StepPlays>) -> &'p mut StepPlays {
        plays.get_or_insert_with(|| {
            let played = match (&self.engine, &self.last) {
                (Some(engine), Some((_, replies))) => engine.played(replies),
                (Some(engine), None) => engine.known.set_up_played(),
                (None, _) => Vec::new(),
            };
            StepPlays {
                known: played.len(),
                played,
                variants: false,
            }
        })
    }

    /// The engine's known departures and the game's variants played over the last step
    /// (each played at the first call of a step that needs it).
    fn all_played<'p>(&self, plays: &'p mut Option<StepPlays>) -> &'p StepPlays {
        let plays = self.known_played(plays);
        if !plays.variants {
            plays
                .played
                .extend(variants_played(self.game, self.last.as_ref()));
            plays.variants = true;
        }
        plays
    }

    /// The players the rules await at this step. Where the rules end the match, the outcome
    /// is checked and the trace stops, unless the engine prompted on ([`Walk::played_on`]).
    fn awaiting(&mut self, findings: &mut StepFindings) -> ControlFlow<(), Vec<usize>> {
        let step = findings.step;
        let mut play = match self.recorded.resume_recorded(&self.state) {
            Ok(play) => play,
            Err(e) => {
                return self.stop(format!(
                    "step {step}: the state the engine showed cannot be played on ({e}): the trace stops here"
                ));
            }
        };
        if let Some(outcome) = play.outcome() {
            let left: Vec<String> = self
                .next
                .iter()
                .filter(|(p, &i)| self.logs[p].exchanges.len() > i)
                .map(|(p, _)| format!("player {p}"))
                .collect();
            if left.is_empty() {
                self.check_outcome(step, &outcome);
                return ControlFlow::Break(());
            }
            play = self.played_on(findings, &outcome, &left)?;
        }
        ControlFlow::Continue(play.awaiting())
    }

    /// The engine prompted the `left` players where the rules end the match: a departure,
    /// named by a known departure that, played, goes on; the trace goes on from the state the
    /// engine shows, with the outcome taken away.
    fn played_on(
        &mut self,
        findings: &mut StepFindings,
        outcome: &Outcome,
        left: &[String],
    ) -> ControlFlow<(), Box<dyn DynMatch>> {
        let step = findings.step;
        let going_on = reproducing_outcome(&self.all_played(&mut findings.played).played, false);
        self.report.departures.push(outcome_departure(
            step,
            self.first_player,
            self.index,
            going_on,
            format!(
                "the match is over at step {step} by the rules ({}), but the engine prompted {} again\n",
                serde_json::to_string(outcome).unwrap_or_default(),
                left.join(", ")
            ),
        ));
        if let Some(o) = self.state.get_mut("outcome") {
            *o = Value::Null;
        }
        self.resumed = None;
        match self.recorded.resume_recorded(&self.state) {
            Ok(on) if on.outcome().is_none() => ControlFlow::Continue(on),
            _ => {
                let left = steps_left(self.logs, &self.next, self.game.info().replies_per_step);
                self.stop(format!(
                    "step {step}: the rules end the match here; the {left} steps the engine played on cannot be checked"
                ))
            }
        }
    }

    /// The match is over by the rules and the log goes no further: the outcome the rules give
    /// against the one the log records, a departure when they differ.
    fn check_outcome(&mut self, step: usize, outcome: &Outcome) {
        let config = self.config;
        let rules = serde_json::to_value(outcome).ok();
        let agrees = config
            .outcome
            .as_ref()
            .map(|log| Some(log) == rules.as_ref());
        if agrees == Some(false) {
            let clauses = self.index.clauses_for(&["outcome".into()]);
            self.report.departures.push(Departure {
                step,
                player: self.first_player,
                fields: vec!["outcome".into()],
                known: self.index.departures_of(&clauses),
                clause: departure::unexplained_name(&["outcome".into()]),
                clauses,
                reproduced: Vec::new(),
                catalogued: false,
                unexplained: vec!["outcome".into()],
                diff: unified_diff(
                    &to_yaml(rules.as_ref().unwrap_or(&Value::Null)),
                    &to_yaml(config.outcome.as_ref().unwrap_or(&Value::Null)),
                ),
                follows_from: None,
            });
        }
        self.report.outcome = Some(OutcomeCheck {
            rules,
            log: config.outcome.clone(),
            agrees,
        });
    }

    /// Reads the prompt of each awaited player, checks it ([`Walk::check_prompt`]), and
    /// collects the replies the players gave.
    fn read_prompts(&mut self, awaiting: &[usize], findings: &mut StepFindings) -> Prompts {
        let logs = self.logs;
        let mut replies = Vec::with_capacity(awaiting.len());
        for &player in awaiting {
            let Some((player_log, exchange)) = logs
                .get(&player)
                .and_then(|l| Some((l, l.exchanges.get(self.next[&player])?)))
            else {
                return Prompts::LogEnded { cut: false };
            };
            findings.read.push((player, self.next[&player]));
            if let Some(i) = self.next.get_mut(&player) {
                *i += 1;
            }
            self.check_prompt(findings, player, exchange);
            if self.config.log_cut
                && exchange.reply.is_none()
                && player_log.end.is_none()
                && self.next[&player] == player_log.exchanges.len()
            {
                // The record stops after this prompt, and no end record says the bot ended:
                // the log was cut here (a full disk, a kill), not a bot that never answered.
                return Prompts::LogEnded { cut: true };
            }
            replies.push(match &exchange.reply {
                Some(text) => Reply::Text {
                    text: text.clone(),
                    elapsed_ms: exchange.elapsed_ms.unwrap_or(0),
                },
                None => Reply::Crashed,
            });
        }
        Prompts::Read(replies)
    }

    /// Reads `player`'s prompt back into a state and compares it with the prediction
    /// ([`Walk::compare_observed`]). A prompt that cannot be read back is a departure, and the
    /// prediction goes on.
    fn check_prompt(&mut self, findings: &mut StepFindings, player: usize, exchange: &Exchange) {
        let step = findings.step;
        match self
            .recorded
            .observe(&exchange.prompt, player, Some(&self.state))
        {
            Ok(ObservedMatch {
                observation,
                resumed,
            }) => {
                self.compare_observed(findings, player, observation);
                self.resumed = resumed.ok();
                self.compare_prompt(step, player, exchange);
            }
            Err(e) => {
                let expected = self
                    .recorded
                    .resume_recorded(&self.state)
                    .map(|now| now.prompt(player))
                    .unwrap_or_default();
                self.report.departures.push(prompt_departure(
                    step,
                    player,
                    self.index,
                    format!("{e}\n{}", unified_diff(&expected, &exchange.prompt)),
                    &mut self.first_seen,
                ));
                self.report.notes.push(format!(
                    "step {step}, player {player}: the prompt cannot be read back ({e}); the trace goes on from the reference's prediction"
                ));
            }
        }
    }

    /// Compares the fields a prompt shows (and no engine could not predict) with the
    /// prediction: a difference is a departure, and the state the prompt shows is adopted.
    fn compare_observed(
        &mut self,
        findings: &mut StepFindings,
        player: usize,
        observed: Observation<Value>,
    ) {
        let step = findings.step;
        let checked: Vec<&String> = observed
            .shown
            .iter()
            .filter(|p| !observed.drawn.contains(p))
            .collect();
        if self.config.step_cases {
            findings.then_values.extend(
                checked
                    .iter()
                    .filter_map(|p| cases::retarget(&self.state, &observed.state, p)),
            );
        }
        let differing = differing_fields(&self.state, &observed.state, &checked);
        if !differing.is_empty() {
            let plays = self.known_played(&mut findings.played);
            let joint = match (&self.engine, &self.last) {
                (Some(engine), Some((_, replies))) => {
                    engine.jointly(replies, &differing, &observed.state, plays.engines())
                }
                _ => Vec::new(),
            };
            let (known, joined) = (plays.known, joint.len());
            plays.played.splice(known..known, joint);
            plays.known += joined;
            let explained = plays.known > 0
                && departure::reproduce(&differing, &observed.state, plays.engines())
                    .unexplained
                    .is_empty();
            let plays: &StepPlays = if explained {
                plays
            } else {
                self.all_played(&mut findings.played)
            };
            let naming = naming_departures(plays, &differing, &checked, &observed.state);
            let found = departure(
                step,
                player,
                (&self.state, &observed.state),
                differing,
                (self.index, (&naming, plays.known)),
                &mut self.first_seen,
            );
            self.report.departures.push(found);
        }
        self.state = observed.state;
        self.resumed = None;
    }

    /// The prompt's text against the reference's over the state it showed (the match resumed
    /// on it): one unlike it is a departure, when this step has none yet.
    fn compare_prompt(&mut self, step: usize, player: usize, exchange: &Exchange) {
        if let Some(now) = &self.resumed {
            let expected = now.prompt(player);
            if !same_prompt(self.game, &expected, &exchange.prompt)
                && self.report.departures.last().is_none_or(|d| d.step != step)
            {
                self.report.departures.push(prompt_departure(
                    step,
                    player,
                    self.index,
                    unified_diff(&expected, &exchange.prompt),
                    &mut self.first_seen,
                ));
            }
        }
    }

    /// A player's log ended at this step. When the engine ended the match (the log records an
    /// outcome, or every player's end) where the rules go on, that is a departure, named by a
    /// known departure that, played, ends it here; else the log is cut short.
    fn log_ended(&mut self, findings: &mut StepFindings, cut: bool) {
        let step = findings.step;
        let config = self.config;
        let ended_by_engine = !cut
            && (config.outcome.is_some()
                || (!self.logs.is_empty() && self.logs.values().all(|l| l.end.is_some())));
        let last_replies = self.last.as_ref().map(|(_, r)| r.as_slice());
        let failed = (self.engine.as_ref())
            .zip(last_replies)
            .and_then(|(engine, replies)| engine.fails(replies));
        if let Some(why) = failed {
            // The engine's own crash on the step before ended the log: every step there was
            // is checked, and the engine failed.
            self.report.engine_failed = Some(format!(
                "step {}: {why}; the log ends there",
                step.saturating_sub(1)
            ));
            return;
        }
        if !ended_by_engine {
            self.report.stopped = Some(format!(
                "the log ends at step {step}, before the match does by the rules, and no end record says the engine ended it: the log is cut short"
            ));
            return;
        }
        let ending = reproducing_outcome(&self.all_played(&mut findings.played).played, true);
        self.report.departures.push(outcome_departure(
            step,
            self.first_player,
            self.index,
            ending,
            format!(
                "the engine ended the match at step {step}{}; by the rules it goes on\n",
                config
                    .outcome
                    .as_ref()
                    .map(|o| format!(" ({o})"))
                    .unwrap_or_default()
            ),
        ));
        self.report.outcome = Some(OutcomeCheck {
            rules: None,
            log: config.outcome.clone(),
            agrees: Some(false),
        });
    }

    /// Counts a step without departure, completes the step case of the step before with what
    /// this step's prompts showed, and keeps this step as a case (`--cases-out`).
    fn keep_step(&mut self, findings: StepFindings, replies: &[Reply]) {
        if let Some(engine) = &mut self.engine {
            let replies = self.last.as_ref().map(|(_, r)| r.as_slice());
            if let Some(late) = engine.take_step(replies, &self.state) {
                self.report.notes.push(late);
            }
        }
        let departed = self.report.departures.len() > findings.departures_before;
        if !departed {
            self.report.agreeing += 1;
        }
        if let Some(seen) = self.seen.as_mut() {
            let logs = self.logs;
            seen(Seen {
                step: findings.step,
                state: &self.state,
                exchanges: (findings.read.iter())
                    .map(|&(p, i)| (p, &logs[&p].exchanges[i]))
                    .collect(),
                predicted: findings.predicted.as_ref().filter(|_| departed),
            });
        }
        if let Some(mut case) = self.pending.take() {
            case.then = cases::partial(&findings.then_values);
            case.departs = departed;
            self.report.step_cases.push(case);
        }
        if self.config.step_cases {
            self.pending = Some(cases::StepCase {
                step: findings.step,
                given: self.state.clone(),
                replies: replies.to_vec(),
                then: Value::Null,
                departs: false,
            });
        }
    }

    /// Plays the step's replies on the reference from the state the prompts showed: its
    /// result is the next prediction, and the state played from is kept (moved, not copied)
    /// with its replies.
    fn play(&mut self, step: usize, replies: Vec<Reply>) -> ControlFlow<()> {
        let stepped = match self.resumed.take() {
            Some(resumed) => Ok(resumed),
            None => self.recorded.resume_recorded(&self.state),
        };
        let stepped = stepped.map_err(|e| e.to_string()).and_then(|mut m| {
            m.step(&replies).map_err(|e| e.to_string())?;
            m.state().map_err(|e| e.to_string())
        });
        match stepped {
            Ok(played) => {
                let from = std::mem::replace(&mut self.state, played);
                self.last = Some((from, replies));
                ControlFlow::Continue(())
            }
            Err(e) => self.stop(format!(
                "step {step}: the reference cannot play the replies ({e}): the trace stops here"
            )),
        }
    }

    /// The closing summary: whatever is left of the log was not checked.
    fn close(self) -> TraceReport {
        if let Some(seen) = self.seen {
            seen(Seen {
                step: self.report.steps,
                state: &self.state,
                exchanges: Vec::new(),
                predicted: None,
            });
        }
        let mut report = self.report;
        let left = steps_left(self.logs, &self.next, self.game.info().replies_per_step);
        report.steps_in_log = report.steps + left;
        if left > 0 && report.stopped.is_none() {
            report.stopped = Some(format!("{left} steps of the log were not checked"));
        }
        report.complete = report.stopped.is_none();
        report.by_clause = by_clause(&report.departures);
        report
    }
}

/// The clauses of the played departure that changes whether the match is over (`ends`: ends
/// it where the rules go on; else goes on where the rules end it), the one naming the fewest
/// clauses; none when none does.
fn reproducing_outcome(played: &[PlayedDeparture<Value>], ends: bool) -> Vec<String> {
    let over = |s: &Value| s.get("outcome").is_some_and(|o| !o.is_null());
    played
        .iter()
        .filter(|p| {
            let over_by_rules = p.without.as_ref().is_some_and(over);
            over(&p.state) == ends && over_by_rules != ends
        })
        .min_by_key(|p| p.clauses.len())
        .map(|p| p.clauses.clone())
        .unwrap_or_default()
}

/// Every step's departure (those that follow from an earlier one too), counted by the clause
/// it breaks: a follower no catalogued departure reproduces is unexplained as well.
fn by_clause(departures: &[Departure]) -> Vec<ClauseCount> {
    let mut counts: Vec<ClauseCount> = Vec::new();
    for d in departures {
        let i = match counts.iter().position(|c| c.clause == d.clause) {
            Some(i) => i,
            None => {
                counts.push(ClauseCount {
                    clause: d.clause.clone(),
                    catalogued: 0,
                    unexplained: 0,
                });
                counts.len() - 1
            }
        };
        if d.catalogued {
            counts[i].catalogued += 1;
        } else {
            counts[i].unexplained += 1;
        }
    }
    counts
}

/// A departure in the outcome (the engine played on where the rules end the match, or ended it
/// where they go on), named by the catalogued departures that `reproduced` it, else by the
/// clauses that own the outcome.
fn outcome_departure(
    step: usize,
    player: usize,
    index: &ClauseIndex,
    reproduced: Vec<String>,
    diff: String,
) -> Departure {
    let mut clauses = reproduced.clone();
    for clause in index.clauses_for(&["outcome".into()]) {
        if !clauses.contains(&clause) {
            clauses.push(clause);
        }
    }
    Departure {
        step,
        player,
        fields: vec!["outcome".into()],
        known: index.departures_of(&clauses),
        clause: reproduced
            .first()
            .cloned()
            .unwrap_or_else(|| departure::unexplained_name(&["outcome".into()])),
        clauses,
        catalogued: !reproduced.is_empty(),
        unexplained: if reproduced.is_empty() {
            vec!["outcome".into()]
        } else {
            Vec::new()
        },
        reproduced,
        diff,
        follows_from: None,
    }
}

/// A prompt unlike the reference's (over the same state, or not a prompt at all), named by
/// the clauses that declare `fields: [prompt]`.
fn prompt_departure(
    step: usize,
    player: usize,
    index: &ClauseIndex,
    diff: String,
    first_seen: &mut BTreeMap<String, usize>,
) -> Departure {
    let clauses = index.clauses_for(&["prompt".into()]);
    let clause = clauses.first().cloned().unwrap_or_else(|| "prompt".into());
    let follows_from = first_seen.get(&clause).copied();
    first_seen.entry(clause.clone()).or_insert(step);
    let known = index.departures_of(&clauses);
    Departure {
        step,
        player,
        fields: vec!["prompt".into()],
        // No prompt is played: a prompt departure is catalogued when its clause records one.
        catalogued: !known.is_empty(),
        unexplained: if known.is_empty() {
            vec!["prompt".into()]
        } else {
            Vec::new()
        },
        known,
        clause,
        clauses,
        reproduced: Vec::new(),
        diff,
        follows_from,
    }
}

/// Whether the recorded prompt is the predicted one: the same text, or the same once the game
/// has brought both to one spelling ([`DynGame::normalize_expectation`]: CODE VS 4.0's resource
/// cells come in no fixed order).
fn same_prompt(game: &dyn DynGame, predicted: &str, recorded: &str) -> bool {
    let spelled = |prompt: &str| {
        let mut value = serde_json::json!({ "prompts": [prompt] });
        game.info().capabilities.normalize_expectation(&mut value);
        value
    };
    predicted == recorded || spelled(predicted) == spelled(recorded)
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
) -> (Vec<String>, Vec<String>, Vec<String>, Option<usize>) {
    let reproduction = departure::reproduce(fields, shown, played);
    let top = reproduction.ranked.first().map(|(w, _)| *w);
    let mut reproduced: Vec<String> = Vec::new();
    for clause in reproduction
        .ranked
        .iter()
        .flat_map(|(w, _)| &played[*w].clauses)
    {
        if !reproduced.contains(clause) {
            reproduced.push(clause.clone());
        }
    }
    let unexplained: Vec<String> = reproduction
        .unexplained
        .iter()
        .map(|&i| fields[i].clone())
        .collect();
    let mut clauses = reproduced.clone();
    for clause in index.clauses_for(&unexplained) {
        if !clauses.contains(&clause) {
            clauses.push(clause);
        }
    }
    (clauses, reproduced, unexplained, top)
}

/// The departure at `step` of the `fields` where the `predicted` state and the one `shown`
/// differ, with the clauses that explain it ([`name_clauses`]), grouped with earlier ones by
/// the clause it breaks.
fn departure(
    step: usize,
    player: usize,
    (predicted, shown): (&Value, &Value),
    fields: Vec<String>,
    (index, (played, known)): (&ClauseIndex, (&[PlayedDeparture<Value>], usize)),
    first_seen: &mut BTreeMap<String, usize>,
) -> Departure {
    let (clauses, reproduced, unexplained, top) = name_clauses(&fields, shown, index, played);
    let catalogued = unexplained.is_empty();
    // The clause it breaks: a variant's, played over this step alone, when one reproduces the
    // most; else the first reproduced one no earlier departure broke (an engine's known
    // departure played from the window's start also reproduces what earlier ones left), else
    // the first; one nothing reproduces breaks no clause we know: `unexplained, fields …`.
    let variant = top
        .filter(|&w| w >= known)
        .and_then(|w| played[w].clauses.first());
    let clause = variant
        .or_else(|| reproduced.iter().find(|c| !first_seen.contains_key(*c)))
        .or(reproduced.first())
        .cloned()
        .unwrap_or_else(|| departure::unexplained_name(&fields));
    let follows_from = first_seen.get(&clause).copied();
    first_seen.entry(clause.clone()).or_insert(step);
    // Known departures of named engines only on the clauses some played departure reproduced:
    // a clause merely owning an unexplained field says nothing of what the engine did.
    let known = index.departures_of(&reproduced);
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
        catalogued,
        unexplained,
        clause,
        known,
        fields,
        follows_from,
    }
}

//! Differential fuzzing (`shinpan diff`): random inputs are played on the reference engine and on
//! an engine under test, and each distinct departure is shrunk and written out as a case.
//!
//! An input is a canonical state and one to three turns of replies. States come from seeded
//! matches of the built-in players stopped at a random step, half of them then mutated within the
//! schema (a number set to an interesting value, a list element dropped, a string line dropped);
//! replies are the built-in players' legal ones, some mutated into illegal text, a time-out, a
//! crash or a slow reply. Everything works on the canonical JSON through [`DynGame`], so every
//! game gets it; a candidate state is kept only if the reference engine loads it
//! ([`crate::seam::load_state`]), finds it reachable ([`crate::seam::Capabilities::reachable`]) and plays it. The two
//! results are compared as `check` compares them: numbers by value (`23` is `23.0`).
//!
//! A disagreement is named by the variant of the rules that reproduces it
//! ([`crate::run::departure`]): the one variant reproducing the most of what differs names
//! the departure by its clause; the variants after it that reproduce the rest are the other
//! departures the same input shows ([`Part`]s); a departure nothing reproduces is `unexplained,
//! fields …`; a variant that, on another input the engine answered, changes a field the engine
//! got right there names nothing either (`refute`: it is a lead). Departures are grouped by
//! that name: the run goes on past the first one until
//! `departures` distinct names are found; an input whose departures are all found already, or
//! known (`--known`, [`Known`]), is counted and passed over, so one known bug no longer hides
//! the others.
//!
//! Shrinking keeps a smaller input only while the same variant still reproduces the departure,
//! and no departure the input did not show already creeps in; candidates on which the variant
//! itself agrees with the rules are passed over without asking the engine. It stops at a fixed
//! point: no single removal or simplification keeps the departure (the request budget is only a
//! safety net).
//!
//! The work is split by stage: `generate` makes the random inputs, `shrink` makes a
//! disagreement small, `case_file` writes it out as a case, `known` reads `--known`; this
//! `refute` takes back names other inputs disprove; this module holds the loop and the
//! comparison of the two engines that the stages share.

mod candidates;
mod case_file;
mod generate;
mod known;
mod refute;
mod shrink;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::case::expect::{same_value, to_yaml, unified_diff};
use crate::harness::interrupt;
use crate::harness::trace::clauses::ClauseIndex;
use crate::run::departure::paths::held_by;
use crate::run::departure::printer::{printer_departure, BESIDE_THE_STATE};
use crate::run::departure::{self, departing_fields, general, unexplained_name};
use crate::run::{Answered, EngineUnderTest, Mask, StepRequest, StepResponse};
use crate::seam::{DynGame, MatchOptions, Reply};

pub use case_file::{case_file, compact_yaml, Size};
use generate::Draws;
pub use known::{Known, PartlyKnown};
use refute::{Observation, Refuter, Source};
use shrink::shrink;

/// How to fuzz.
#[derive(Debug, Clone)]
pub struct DiffConfig {
    pub seed: u64,
    /// Inputs to try before giving up.
    pub runs: usize,
    /// Most engine requests spent on shrinking one departure: a safety net (shrinking stops at
    /// a fixed point), and the only bound, so that one seed gives one case whatever the
    /// machine's speed.
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

/// One departure an input shows, by which departures are told apart and grouped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The clause the variant that reproduces it breaks (two joined by ` + ` when only two
    /// variants played together reproduce it); `unexplained, fields …` when none does;
    /// [`Departure::FAILED`] when the engine failed.
    pub name: String,
    /// The variant that reproduces it (two joined by ` + `).
    pub variant: Option<String>,
    /// The clauses of the variants that reproduce it: one, or two together.
    pub clauses: Vec<String>,
    /// What the variant does instead of the rule.
    pub does: Option<String>,
    /// Its fields, general (`players[].score`): those the variant reproduces, or every field
    /// that differs.
    pub fields: Vec<String>,
    /// The clauses of other variants that reproduce exactly the same fields (a tie).
    pub ties: Vec<String>,
    /// For a part no variant reproduces: the clauses of variants that reproduce some of its
    /// fields and not the rest, or all of them on this input but depart from the rules on an
    /// input the engine agreed on. Leads, not names.
    pub leads: Vec<String>,
}

impl Part {
    /// The part no variant reproduces, of `fields` (general), with its `leads`.
    pub fn unexplained(fields: &[String], leads: Vec<String>) -> Part {
        Part {
            name: unexplained_name(fields),
            variant: None,
            clauses: Vec::new(),
            does: None,
            fields: fields.to_vec(),
            ties: Vec::new(),
            leads,
        }
    }

    /// Whether it is the prompt printer's own departure, beside one of the state
    /// ([`printer_departure`]): its fields are the prompts alone.
    pub fn is_printer(&self) -> bool {
        !self.fields.is_empty() && self.fields.iter().all(|f| f.starts_with("prompts"))
    }

    /// One line for people, about the variant and not the engine: `a variant where chain
    /// scores sum …, reproduces this (score.chain)`; or its name.
    pub fn describe(&self) -> String {
        let what = match &self.variant {
            Some(variant) if variant.contains(" + ") => "two variants together",
            _ => "a variant",
        };
        match &self.does {
            Some(does) => format!("{what} where {does}, reproduces this ({})", self.name),
            None => self.name.clone(),
        }
    }
}

/// Which departures a disagreement shows ([`departure::name`]): the first names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Departure {
    /// Never empty.
    pub parts: Vec<Part>,
    /// Every field that differs, general: the prompts only when nothing else differs (a
    /// different state shows in its prompts too).
    pub fields: Vec<String>,
    /// The fields, general, no variant reproduces.
    pub unexplained: Vec<String>,
}

impl Departure {
    /// The name of an engine that answered `error`.
    pub const FAILED: &'static str = "the engine failed";

    /// What it is grouped by: its first part's name.
    pub fn name(&self) -> &str {
        &self.parts[0].name
    }

    fn of(game: &dyn DynGame, input: &Input, disagreement: &Disagreement) -> Departure {
        let Some(engine) = &disagreement.engine else {
            return Departure {
                parts: vec![Part {
                    name: Departure::FAILED.into(),
                    variant: None,
                    clauses: Vec::new(),
                    does: None,
                    fields: Vec::new(),
                    ties: Vec::new(),
                    leads: Vec::new(),
                }],
                fields: Vec::new(),
                unexplained: Vec::new(),
            };
        };
        let fields = departing_fields(&disagreement.reference, engine);
        let turns = input.turns.len();
        let mask = &disagreement.mask;
        let shape = |response: StepResponse| reference_result(game, response, turns, mask);
        let named = departure::name(game, (&input.state, &input.turns), fields, engine, &shape);
        let mut parts: Vec<Part> = named
            .by
            .iter()
            .map(|by| Part {
                name: by.name(),
                variant: Some(by.variants.join(" + ")),
                clauses: by.clauses.clone(),
                does: Some(by.does.clone()),
                fields: general(&by.fields),
                ties: by.ties.clone(),
                leads: Vec::new(),
            })
            .collect();
        if parts.is_empty() {
            let leads = named.partly.iter().map(|by| by.name()).collect();
            parts.push(Part::unexplained(&general(&named.fields), leads));
        }
        let mut departure = Departure {
            parts,
            fields: general(&named.fields),
            unexplained: general(&named.unexplained),
        };
        // The prompts, left out above when the state differs, may depart on their own.
        if !departure.fields.iter().any(|f| f.starts_with("prompts")) {
            if let Some(printer) = printer_departure(game, &disagreement.reference, engine) {
                departure.add_printer(&printer);
            }
        }
        departure
    }

    /// The printer's own departure added beside the state's: its part last, its fields among
    /// the fields, and among the unexplained ones when no variant names it.
    fn add_printer(&mut self, printer: &departure::Named) {
        let fields = general(&printer.fields);
        let part = match printer.by.first() {
            Some(by) => Part {
                name: by.name(),
                variant: Some(by.variants.join(" + ")),
                clauses: by.clauses.clone(),
                does: Some(by.does.clone()),
                fields: fields.clone(),
                ties: by.ties.clone(),
                leads: Vec::new(),
            },
            None => Part::unexplained(&fields, Vec::new()),
        };
        self.parts.push(part);
        self.fields.extend(fields.iter().cloned());
        if printer.by.is_empty() {
            self.unexplained.extend(fields);
        }
    }
}

impl std::fmt::Display for Departure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name())?;
        if !self.fields.is_empty() && self.parts[0].variant.is_some() {
            write!(f, " (fields {})", self.fields.join(", "))?;
        }
        for part in &self.parts[1..] {
            write!(f, "; beside it, {}", part.name)?;
        }
        Ok(())
    }
}

/// A departure passed over because `--known` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    /// Its name ([`Part::name`]).
    pub name: String,
    /// What it is, for people ([`Part::describe`]).
    pub describe: String,
    /// Its fields, general, when first seen.
    pub fields: Vec<String>,
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
    /// The distinct departures found (one a name), each shrunk, in the order found.
    pub findings: Vec<Finding>,
    /// Known departures seen and not shrunk.
    pub known: Vec<Skipped>,
    /// Inputs that showed only departures already found (one, or several at once).
    pub repeats: usize,
    /// Inputs a finding's departure showed on, found first or again, by finding.
    pub seen: Vec<usize>,
    /// `interrupted by SIGTERM` when a signal stopped the run (the input under way is not
    /// counted; a departure being shrunk is kept as far as it got).
    pub interrupted: Option<String>,
    /// The `--known` patterns that matched no departure seen (the name or a field of any
    /// departure, known, new or repeated): stale, or misspelt.
    pub unmatched_known: Vec<String>,
    /// The `--known` patterns that covered some fields of a new departure and not all, which
    /// therefore was not passed over: once a pattern and departure.
    pub partly_known: Vec<PartlyKnown>,
}

/// A disagreement, shrunk to one departure.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The run (0-based) whose input disagreed first.
    pub run: usize,
    /// The departure it is about: the shrunk input shows it, and nothing the original did not.
    pub part: Part,
    /// What the original input showed.
    pub original_departure: Departure,
    /// What the shrunk input shows.
    pub departure: Departure,
    /// For a departure no variant reproduces: the clauses whose cases check its fields (what
    /// it may concern; it is not named by them).
    pub concerns: Vec<String>,
    pub original: Input,
    /// What differed on the original input, as [`Finding::difference`] shows the shrunk one.
    pub original_difference: String,
    pub shrunk: Input,
    /// Shrinking steps taken and adapter requests spent on them.
    pub shrink_steps: usize,
    pub shrink_requests: usize,
    /// Whether shrinking stopped at a fixed point (else the request budget ran out first).
    pub minimal: bool,
    /// The size of the case as found and as shrunk.
    pub size_before: Size,
    pub size_after: Size,
    /// What differs, as a unified diff of the reference against the engine (or the engine's
    /// failure).
    pub difference: String,
    /// The reference engine's result on the shrunk input: state, `prompts` and `last_replies`.
    pub reference: Value,
    /// The engine's, in the same shape; `None` when it failed.
    pub engine: Option<Value>,
    /// The part of `reference` the engine got wrong: the case's `then`.
    pub expectation: Value,
    /// For a departure no variant reproduces: every field (general) the findings of its group
    /// showed, this one's and those it stands for.
    pub group_fields: Vec<String>,
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
/// departures are found (those `known` lists passed over) or `config.runs` inputs are tried;
/// `clauses`, when the library is at hand, says which clauses' cases check the fields of a
/// departure no variant reproduces. `progress` is called after each run with the runs done and
/// the departures found.
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
        seen: Vec::new(),
        interrupted: None,
        unmatched_known: Vec::new(),
        partly_known: Vec::new(),
    };
    let mut known_used = vec![false; known.entries.len()];
    let refuter = Refuter::new(game);
    let draws = Draws::new(game, &config.options, config.seed);
    for run in 0..config.runs {
        if let Some(why) = interrupt::reason() {
            outcome.interrupted = Some(why);
            break;
        }
        outcome.runs = run + 1;
        let Some((input, reference)) = draws.input(run as u64) else {
            progress(run + 1, outcome.findings.len());
            continue;
        };
        let id = format!("diff/{}/{run}", config.seed);
        let compared = judge(game, engine, &id, &input, reference, Explain::Later);
        if let Some(why) = interrupt::reason() {
            // The engine was stopped under this input: its answer says nothing.
            outcome.runs = run;
            outcome.interrupted = Some(why);
            break;
        }
        if matches!(compared, Comparison::Agree { .. } | Comparison::Disagree(_)) {
            outcome.judged += 1;
        }
        match compared {
            Comparison::Agree { reference, mask } => {
                refuter.record(Source::Run, || {
                    Some(Observation::agreed(input.clone(), reference, mask))
                });
            }
            Comparison::NotAnInput => {}
            Comparison::Unsupported => outcome.unsupported += 1,
            Comparison::Disagree(mut d) => {
                refuter.record(Source::Run, || Observation::of(&input, &d));
                if let Some(i) = repeat_of(game, &input, &d, &outcome.findings, &refuter) {
                    outcome.seen[i] += 1;
                    outcome.repeats += 1;
                    progress(run + 1, outcome.findings.len());
                    continue;
                }
                let mut departure = Departure::of(game, &input, &d);
                refuter.refute(&mut departure);
                known.mark_matches(&departure, &mut known_used);
                if let Some(part) = classify(&departure, &mut outcome, known) {
                    explain(&mut d);
                    let mut finding =
                        shrink(game, engine, config, &refuter, (run, input, *d), part);
                    refuter.flush();
                    // Shrunk, an unexplained departure may prove one found already: one
                    // group per real departure.
                    if let Some(i) =
                        (outcome.findings.iter()).position(|f| in_group(f, &finding.part))
                    {
                        let group = &mut outcome.findings[i];
                        let mut fields = std::mem::take(&mut group.group_fields);
                        fields.extend(finding.part.fields.iter().cloned());
                        fields.sort();
                        fields.dedup();
                        // The one that shows it on fewer fields, nearer where it starts, is
                        // the group's case and name: the same whichever input came first.
                        if starts_nearer(&finding.part, &group.part) {
                            finding.concerns = clauses
                                .map(|c| c.clauses_for(&finding.part.fields))
                                .unwrap_or_default();
                            *group = finding;
                        }
                        group.group_fields = fields;
                        outcome.seen[i] += 1;
                        outcome.repeats += 1;
                        progress(run + 1, outcome.findings.len());
                        continue;
                    }
                    if finding.part.variant.is_none() {
                        finding.concerns = clauses
                            .map(|c| c.clauses_for(&finding.part.fields))
                            .unwrap_or_default();
                    }
                    outcome.findings.push(finding);
                    outcome.seen.push(1);
                    if outcome.findings.len() >= config.departures {
                        progress(run + 1, outcome.findings.len());
                        break;
                    }
                }
            }
        }
        progress(run + 1, outcome.findings.len());
    }
    if outcome.interrupted.is_none() {
        probe_named(game, engine, config, &outcome.findings, &refuter);
    }
    take_back_refuted(&mut outcome, &refuter, clauses);
    outcome.unmatched_known = known
        .entries
        .iter()
        .zip(known_used)
        .filter(|(_, used)| !used)
        .map(|(entry, _)| entry.pattern.clone())
        .collect();
    outcome
}

/// The finding a disagreement repeats, found the quick way: the variant of a named finding,
/// played on the same input, gives exactly the engine's result (every field the same, so no
/// other departure shows). Naming it in full would play every variant of the game to say so.
fn repeat_of(
    game: &dyn DynGame,
    input: &Input,
    disagreement: &Disagreement,
    findings: &[Finding],
    refuter: &Refuter,
) -> Option<usize> {
    let engine = disagreement.engine.as_ref()?;
    let playable = game.info().capabilities.variants?;
    findings.iter().position(|finding| {
        let Some(variant) = &finding.part.variant else {
            return false;
        };
        let Some(indices) = refute::variant_indices(game, variant) else {
            return false;
        };
        if refuter.refutes(variant) {
            return false;
        }
        let Ok(played) = playable.play_variant(&input.state, &input.turns, &indices) else {
            return false;
        };
        let turns = input.turns.len();
        let shaped = reference_result(game, played.into(), turns, &disagreement.mask);
        same_value(&shaped, engine)
    })
}

/// Inputs drawn to test a named finding's variant, at most, and of them asked of the engine (those
/// on which the variant departs from the rules): a few requests beside shrinking's thousands.
const PROBE_DRAWS: usize = 200;
const PROBE_REQUESTS: usize = 20;

/// Asks the engine about fresh inputs on which the variant of each named finding departs from
/// the rules, and keeps what it answers for [`Refuter`]: a variant credited on one input must
/// be what the engine does wherever it departs, and the run's own inputs may hold no such place
/// (a king's range matters only where an enemy stands exactly at its edge). The inputs come
/// from their own random stream, so the run's inputs are the same with or without it.
fn probe_named(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    config: &DiffConfig,
    findings: &[Finding],
    refuter: &Refuter,
) {
    let Some(playable) = game.info().capabilities.variants else {
        return;
    };
    let draws = Draws::new(game, &config.options, config.seed);
    for (k, finding) in findings.iter().enumerate() {
        let Some(variant) = &finding.part.variant else {
            continue;
        };
        let Some(indices) = refute::variant_indices(game, variant) else {
            continue;
        };
        let mut asked = 0;
        for draw in 0..PROBE_DRAWS {
            if asked >= PROBE_REQUESTS || refuter.refutes(variant) || interrupt::reason().is_some()
            {
                break;
            }
            let stream = u64::MAX - (k * PROBE_DRAWS + draw) as u64;
            let Some((input, reference)) = draws.input(stream) else {
                continue;
            };
            let (Ok(rules), Ok(varied)) = (
                game.play(&input.state, &input.turns),
                playable.play_variant(&input.state, &input.turns, &indices),
            ) else {
                continue;
            };
            if rules.state == varied.state && rules.prompts == varied.prompts {
                continue;
            }
            asked += 1;
            match judge(
                game,
                engine,
                "diff/probe",
                &input,
                reference,
                Explain::Later,
            ) {
                Comparison::Agree { reference, mask } => {
                    refuter.record(Source::Probe, || {
                        Some(Observation::agreed(input, reference, mask))
                    });
                }
                Comparison::Disagree(d) => {
                    refuter.record(Source::Probe, || Observation::of(&input, &d));
                }
                _ => {}
            }
        }
    }
}

/// The findings whose variant an input agreed on later refutes, made unexplained; one that
/// then is a departure found already joins it.
fn take_back_refuted(outcome: &mut DiffOutcome, refuter: &Refuter, clauses: Option<&ClauseIndex>) {
    for finding in &mut outcome.findings {
        if finding.part.variant.is_some() {
            refuter.refute_finding(finding);
            if finding.part.variant.is_none() {
                finding.concerns = clauses
                    .map(|c| c.clauses_for(&finding.part.fields))
                    .unwrap_or_default();
            }
        }
    }
    let mut k = 0;
    while k < outcome.findings.len() {
        let earlier = (outcome.findings[..k].iter())
            .position(|f| same_departure(&f.part, &outcome.findings[k].part));
        match earlier {
            Some(i) => {
                outcome.findings.remove(k);
                let seen = outcome.seen.remove(k);
                outcome.seen[i] += seen;
            }
            None => k += 1,
        }
    }
}

/// Which part of `departure` is new, if one is: its first, the one that names it, when no
/// finding is about it and `known` does not list it. The others reproduce what is left of the
/// input once the first is played, and two variants together only what neither does alone:
/// a departure of their own shows as the first part of some other input. An input with no new
/// part is a repeat; a known part is counted where it is listed.
fn classify(departure: &Departure, outcome: &mut DiffOutcome, known: &Known) -> Option<Part> {
    let mut any_known = false;
    for (k, part) in departure.parts.iter().enumerate() {
        if let Some(i) = found(part, &outcome.findings) {
            outcome.seen[i] += 1;
            continue;
        }
        // A printer's departure is its own, wherever it stands.
        if (k > 0 && !part.is_printer()) || part.clauses.len() > 1 {
            continue;
        }
        if let Some(entry) = known.lookup(part, &outcome.known) {
            any_known = true;
            match outcome.known.iter_mut().find(|k| k.name == part.name) {
                Some(skipped) => skipped.seen += 1,
                None => outcome.known.push(Skipped {
                    name: part.name.clone(),
                    describe: part.describe(),
                    fields: part.fields.clone(),
                    pattern: entry.pattern,
                    reason: entry.reason,
                    seen: 1,
                }),
            }
            continue;
        }
        for partly in known.partly(part) {
            if !outcome.partly_known.contains(&partly) {
                outcome.partly_known.push(partly);
            }
        }
        return Some(part.clone());
    }
    if !any_known {
        outcome.repeats += 1;
    }
    None
}

/// The finding a part is about, if any: the same name, or that of a variant that ties with
/// it; for two variants together, a finding of each; for a part no variant reproduces, a named
/// finding it leads to whose fields hold all of its own, or one whose fields all differ in
/// unexplained findings (two found ones on one input).
fn found(part: &Part, findings: &[Finding]) -> Option<usize> {
    let named = |name: &String| findings.iter().position(|f| &f.part.name == name);
    if let Some(i) = named(&part.name).or_else(|| part.ties.iter().find_map(named)) {
        return Some(i);
    }
    if part.clauses.len() > 1 {
        let each: Option<Vec<usize>> = part.clauses.iter().map(named).collect();
        return each.and_then(|each| each.first().copied());
    }
    if part.variant.is_some() || part.name == Departure::FAILED {
        return None;
    }
    // A departure found already, shown with another on the same input where no variant
    // reproduces the whole.
    if let Some(i) = findings.iter().position(|f| leads_to(part, f)) {
        return Some(i);
    }
    let unexplained: Vec<(usize, &Finding)> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.part.variant.is_none())
        .collect();
    let covered = part.fields.iter().all(|field| {
        unexplained
            .iter()
            .any(|(_, f)| held_by(field, &f.part.fields))
    });
    if covered {
        return unexplained.first().map(|(i, _)| *i);
    }
    // A departure found already, with what follows from it.
    (unexplained.iter())
        .find(|(_, f)| in_group(f, part))
        .map(|(i, _)| *i)
}

/// Whether two parts are one departure: the same name; or, unexplained both, the fields of
/// one all among the other's (one real departure shows alone on some inputs and with what
/// follows from it on others: a clock not kept, and the match it then fails to end).
fn same_departure(a: &Part, b: &Part) -> bool {
    let holds = |big: &Part, small: &Part| small.fields.iter().all(|f| held_by(f, &big.fields));
    a.name == b.name
        || (a.variant.is_none()
            && b.variant.is_none()
            && a.name != Departure::FAILED
            && b.name != Departure::FAILED
            && (holds(a, b) || holds(b, a)))
}

/// Whether `part` is a departure of the group of `finding`: the same departure
/// ([`same_departure`]), or, unexplained both, all its fields among those the group has shown
/// (one real departure shows on `units[].hp` alone on one input, on `players[].kills` alone on
/// another, and on both on a third).
fn in_group(finding: &Finding, part: &Part) -> bool {
    same_departure(&finding.part, part)
        || leads_to(part, finding)
        || (finding.part.variant.is_none()
            && part.variant.is_none()
            && finding.part.name != Departure::FAILED
            && part.name != Departure::FAILED
            && !part.fields.is_empty()
            && part
                .fields
                .iter()
                .all(|f| held_by(f, &finding.group_fields)))
}

/// Whether unexplained `part` is a named `finding`'s departure shown with another on the same
/// input, where no variant reproduces the whole: it leads to the finding's variant, and the
/// finding's fields hold every one of its own.
fn leads_to(part: &Part, finding: &Finding) -> bool {
    part.variant.is_none()
        && finding.part.variant.is_some()
        && part.leads.contains(&finding.part.name)
        && (part.fields.iter()).all(|field| held_by(field, &finding.part.fields))
}

/// Whether unexplained `new`, of the group of unexplained `found`, is nearer where the
/// departure starts: on fewer fields, or as many and first by name (so that the group's name
/// is the same whichever input came first).
fn starts_nearer(new: &Part, found: &Part) -> bool {
    new.variant.is_none()
        && found.variant.is_none()
        && new.name != Departure::FAILED
        && (new.fields.len(), &new.name) < (found.fields.len(), &found.name)
}

enum Comparison {
    /// The engine's result is the reference's, here shaped as compared, under `mask`.
    Agree {
        reference: Value,
        mask: Mask,
    },
    /// The reference engine refuses the input: it is not a case.
    NotAnInput,
    Unsupported,
    Disagree(Box<Disagreement>),
}

struct Disagreement {
    reference: Value,
    /// The engine's result in the same shape, or `None` when it failed.
    engine: Option<Value>,
    /// What was left out of both: what the engine does not model (and the prompts, when it
    /// rendered none). A variant's result is shaped the same way.
    mask: Mask,
    /// What differs ([`difference`]), or why the engine failed; empty, where the engine
    /// answered, until [`explain`] when judged [`Explain::Later`].
    why: String,
}

/// A result as cases see it: the state with `prompts` and `last_replies` beside it, without
/// what the engine does not model. The state is read back with its defaults filled in, so that
/// an engine that leaves out fields at their defaults (as adapters may) is compared fairly, and
/// its whole floats read as the integers they are where the state holds integers (`23.0`).
fn actual(game: &dyn DynGame, response: &StepResponse, turns: usize, mask: &Mask) -> Value {
    engine_result(game, response.clone(), turns, mask)
}

/// [`actual`] of a result the caller owns (no copy of its state is made).
fn engine_result(game: &dyn DynGame, response: StepResponse, turns: usize, mask: &Mask) -> Value {
    shape_result(game, response, turns, mask, |_| true)
}

/// [`engine_result`] of a result compared with the reference's, `reference` ([`reference_result`]):
/// a state that is exactly the reference's already is not read back (reading it back gives the
/// reference's state again); an in-process engine's, or a careful adapter's, where they agree.
fn engine_result_beside(
    game: &dyn DynGame,
    response: StepResponse,
    turns: usize,
    mask: &Mask,
    reference: &Value,
) -> Value {
    shape_result(game, response, turns, mask, |state| {
        !is_state_of(state, reference)
    })
}

/// Whether `state` is exactly the state in the result `shaped` ([`shaped`]'s keys left out).
fn is_state_of(state: &Value, shaped: &Value) -> bool {
    let added = |key: &str| BESIDE_THE_STATE.contains(&key);
    let (Value::Object(state), Value::Object(shaped)) = (state, shaped) else {
        return false;
    };
    shaped.keys().filter(|k| !added(k)).count() == state.len()
        && (state.iter()).all(|(k, v)| !added(k) && shaped.get(k) == Some(v))
}

/// [`actual`] of a result of the reference engine or of a variant of it: its state is the
/// canonical form of the reference's own state, which reading back leaves as it is, so it is
/// not read back (that was a third of what comparing cost).
fn reference_result(
    game: &dyn DynGame,
    response: StepResponse,
    turns: usize,
    mask: &Mask,
) -> Value {
    debug_assert!(
        crate::run::load_result(game, &response.state)
            .map_or(true, |loaded| loaded == response.state),
        "a reference result reads back as it is"
    );
    shape_result(game, response, turns, mask, |_| false)
}

/// A result shaped as compared ([`shaped`]), its state without `mask` and read back with its
/// defaults filled in where `read_back` asks for it.
fn shape_result(
    game: &dyn DynGame,
    response: StepResponse,
    turns: usize,
    mask: &Mask,
    read_back: impl FnOnce(&Value) -> bool,
) -> Value {
    let StepResponse {
        mut state,
        prompts,
        last_replies,
        turns_played,
    } = response;
    mask.remove_from(&mut state);
    if read_back(&state) {
        state = crate::run::load_result(game, &state).unwrap_or(state);
    }
    let unplayed = turns.saturating_sub(turns_played);
    shaped(state, prompts, last_replies, unplayed, mask)
}

/// The state with `prompts`, `last_replies` and `unplayed_turns` beside it, without `mask`.
fn shaped(
    mut state: Value,
    prompts: Option<Vec<String>>,
    last_replies: Vec<String>,
    unplayed_turns: usize,
    mask: &Mask,
) -> Value {
    if let Value::Object(map) = &mut state {
        if let Some(prompts) = prompts {
            map.insert("prompts".into(), prompts.into());
        }
        map.insert("last_replies".into(), last_replies.into());
        map.insert("unplayed_turns".into(), unplayed_turns.into());
    }
    mask.remove_from(&mut state);
    state
}

fn compare(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    id: &str,
    input: &Input,
) -> Comparison {
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
    judge(game, engine, id, input, reference, Explain::Now)
}

/// When [`judge`] writes a disagreement's [`Disagreement::why`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Explain {
    Now,
    /// Left empty: most disagreements of a run repeat a departure found, and only a new one's
    /// is shown ([`explain`] writes it then).
    Later,
}

/// [`compare`] with the reference engine's result on the input at hand (a drawn input's,
/// played as it was drawn).
fn judge(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    id: &str,
    input: &Input,
    reference: StepResponse,
    explain: Explain,
) -> Comparison {
    let turns = input.turns.len();
    let request = StepRequest {
        id,
        game,
        state: &input.state,
        turns: &input.turns,
        reachable: true,
    };
    let declared = engine.unmodelled(game.info().id);
    match engine.step(request) {
        Answered::Unsupported(_) => Comparison::Unsupported,
        Answered::Error(why) => Comparison::Disagree(Box::new(Disagreement {
            reference: reference_result(game, reference, turns, &declared),
            engine: None,
            mask: declared,
            why: format!("the engine failed: {why}"),
        })),
        Answered::Done(response) => {
            let mask = if response.prompts.is_none() {
                declared.with_prompts()
            } else {
                declared
            };
            let reference = reference_result(game, reference, turns, &mask);
            let engine = engine_result_beside(game, response, turns, &mask, &reference);
            if same_value(&engine, &reference) {
                return Comparison::Agree { reference, mask };
            }
            let why = match explain {
                Explain::Now => difference(&reference, &engine),
                Explain::Later => String::new(),
            };
            Comparison::Disagree(Box::new(Disagreement {
                reference,
                engine: Some(engine),
                mask,
                why,
            }))
        }
    }
}

/// Writes the [`Disagreement::why`] that [`Explain::Later`] left empty.
fn explain(disagreement: &mut Disagreement) {
    if let (true, Some(engine)) = (disagreement.why.is_empty(), &disagreement.engine) {
        disagreement.why = difference(&disagreement.reference, engine);
    }
}

/// What differs, as a unified diff of the reference's part against the engine's: the prompts
/// only when nothing else differs.
fn difference(reference: &Value, engine: &Value) -> String {
    let mut part = differing_part(reference, engine);
    // Without the prompts when something else differs: a different state shows in its prompts
    // too.
    if !same_but_prompts(reference, engine) {
        if let Some(Value::Object(map)) = &mut part {
            map.remove("prompts");
        }
    }
    match part {
        Some(part) => unified_diff(&to_yaml(&part), &to_yaml(&project(&part, engine))),
        None => "the results differ".into(),
    }
}

/// Both results without their prompts when something else differs: a different state shows in
/// its prompts too.
fn without_mirrors(reference: &Value, engine: &Value) -> (Value, Value) {
    let (mut reference, mut engine) = (reference.clone(), engine.clone());
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Value::Object(map) = &mut v {
            map.remove("prompts");
        }
        v
    };
    let (r, e) = (strip(&reference), strip(&engine));
    if !same_value(&r, &e) {
        (reference, engine) = (r, e);
    }
    (reference, engine)
}

/// Whether two results are the same but for their prompts ([`same_value`] of both without them).
fn same_but_prompts(a: &Value, b: &Value) -> bool {
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return same_value(a, b);
    };
    let others = |m: &Map<String, Value>| m.len() - usize::from(m.contains_key("prompts"));
    others(a) == others(b)
        && (a.iter())
            .filter(|(k, _)| *k != "prompts")
            .all(|(k, v)| b.get(k).is_some_and(|w| same_value(v, w)))
}

/// The parts of `reference` that differ from `other`, shaped for a case's `then`: objects keep
/// only differing keys, equal-length lists keep every element (`{}` for an equal object).
pub fn differing_part(reference: &Value, other: &Value) -> Option<Value> {
    if same_value(reference, other) {
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

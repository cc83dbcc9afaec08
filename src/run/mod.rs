//! The one case runner: a [`Case`] and an [`EngineUnderTest`] give a [`CaseVerdict`]. A step
//! case plays its turns from `given` and matches `then` against the result; a parse case runs
//! one protocol parser; a generator case checks new matches. The engine's answers are judged
//! here, the same way whichever engine gave them.
//!
//! An engine that models only part of a game declares the rest ([`EngineUnderTest::unmodelled`],
//! a [`Mask`]); the runner leaves it out of both sides of every comparison and records what it
//! left out of each case ([`Judged::masked`]).
//!
//! Also here: the known-failure list (`--expect-fail`, [`expect_fail`]) and the comparison
//! with an earlier report (`--baseline`, [`baseline`]), which rewrite or read verdicts; and
//! the run of a whole library, on one engine or on several at once (`jobs.rs`).

pub mod baseline;
pub mod departure;
mod engine;
pub mod expect_fail;
mod jobs;
pub mod mask;
pub mod partition;
pub(crate) mod refute;
mod shown;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::case::expect::{check_subset, project, unified_diff, Mismatch};
use crate::case::{Across, Case, CaseBody, Expected, Library};
use crate::seam::{DynGame, MatchOptions, ParseVerdict, Reply};

pub use engine::{
    Answered, EngineError, EngineUnderTest, NewMatchRequest, ParseRequest, Planted, Reference,
    Requests, StepRequest, StepResponse,
};
pub use jobs::{run_library, run_library_jobs, run_library_until, LibraryRun, GIVE_UP_AFTER};
use mask::{checks_something, PROMPTS};
pub use mask::{Mask, MaskError};
pub use shown::Shown;

/// How one case ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", content = "detail", rename_all = "kebab-case")]
pub enum CaseVerdict {
    Pass,
    /// The engine disagrees with the case; the text shows how (a diff where there is one).
    Fail(String),
    /// The case could not be run to a verdict (the engine could not carry a request out, the
    /// match ended before the case's last turn, ...).
    Error(String),
    /// The engine under test said it does not implement what the case needs (the reason is
    /// its own). Counted apart, never as a failure.
    Unsupported(String),
    /// A failure listed in the `--expect-fail` file: the reason from the list, then what failed.
    ExpectedFail(String),
    /// Listed in the `--expect-fail` file but passes: the list is stale, and the run fails.
    Fixed(String),
}

impl CaseVerdict {
    /// The name reports use: `pass`, `fail`, `error`, ...
    pub fn name(&self) -> &'static str {
        match self {
            CaseVerdict::Pass => "pass",
            CaseVerdict::Fail(_) => "fail",
            CaseVerdict::Error(_) => "error",
            CaseVerdict::Unsupported(_) => "unsupported",
            CaseVerdict::ExpectedFail(_) => "expected-fail",
            CaseVerdict::Fixed(_) => "fixed",
        }
    }

    pub fn detail(&self) -> &str {
        match self {
            CaseVerdict::Pass => "",
            CaseVerdict::Fail(d)
            | CaseVerdict::Error(d)
            | CaseVerdict::Unsupported(d)
            | CaseVerdict::ExpectedFail(d)
            | CaseVerdict::Fixed(d) => d,
        }
    }
}

/// One case's verdict, with where the case lives.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseResult {
    pub name: String,
    pub game: String,
    pub file: String,
    pub line: usize,
    pub rules: Vec<String>,
    #[serde(flatten)]
    pub verdict: CaseVerdict,
    /// What the case checks that the engine does not model, left out of the comparison
    /// (the engine's unmodelled paths that removed something from `then`).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub masked: Vec<String>,
    /// A failed step case's departure, named by the variant of the rules that reproduces it
    /// ([`crate::run::departure`]).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub departure: Option<CaseDeparture>,
    /// A failed step case's states, whole, for the HTML report to draw.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shown: Option<Box<Shown>>,
}

/// What a failed case's departure is: the report groups failures by its `name`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseDeparture {
    /// The clause the variant that reproduces it breaks, or `unexplained, fields …`.
    pub name: String,
    /// One line for people: what the variant does, and the clause.
    pub describe: String,
    /// The variants that reproduce it, the naming one first, each with its fields.
    pub by: Vec<crate::run::departure::Reproducer>,
    /// The fields no variant reproduces.
    pub unexplained: Vec<String>,
    /// Variants that reproduce some of the fields where nothing reproduces the rest: a lead,
    /// not a name.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub partly: Vec<crate::run::departure::Reproducer>,
}

impl CaseDeparture {
    /// The clauses of other variants that reproduce exactly what the naming one does.
    pub fn ties(&self) -> &[String] {
        self.by.first().map_or(&[], |by| by.ties.as_slice())
    }
}

impl From<crate::run::departure::Named> for CaseDeparture {
    fn from(named: crate::run::departure::Named) -> CaseDeparture {
        CaseDeparture {
            name: named.name(),
            describe: named.describe(),
            by: named.by,
            unexplained: named.unexplained,
            partly: named.partly,
        }
    }
}

impl CaseResult {
    pub fn of(case: &Case, game: &str, judged: Judged) -> CaseResult {
        CaseResult {
            name: case.name.clone(),
            game: game.to_string(),
            file: case.path.display().to_string(),
            line: case.line,
            rules: case.rules.clone(),
            verdict: judged.verdict,
            masked: judged.masked,
            departure: judged.departure,
            shown: judged.shown,
        }
    }

    /// A result with only a name and a verdict, for tests of what consumes reports.
    #[cfg(test)]
    pub(crate) fn named(name: &str, verdict: CaseVerdict) -> CaseResult {
        CaseResult {
            name: name.into(),
            game: "g".into(),
            file: "f".into(),
            line: 1,
            rules: vec![],
            verdict,
            masked: vec![],
            departure: None,
            shown: None,
        }
    }
}

/// How one case ended, and what it checks that was left out because the engine does not
/// model it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub verdict: CaseVerdict,
    /// The unmodelled paths that removed something from the case's expectation.
    pub masked: Vec<String>,
    /// A failed step case's departure, by the variant that reproduces it.
    pub departure: Option<CaseDeparture>,
    /// A failed step case's states, for the HTML report.
    pub shown: Option<Box<Shown>>,
}

impl From<CaseVerdict> for Judged {
    fn from(verdict: CaseVerdict) -> Judged {
        Judged {
            verdict,
            masked: Vec::new(),
            departure: None,
            shown: None,
        }
    }
}

/// Runs one case of `game` on `engine`.
pub fn run_case(game: &dyn DynGame, case: &Case, engine: &mut dyn EngineUnderTest) -> Judged {
    // An engine that panics on one case (an in-process engine under `Suite`, or the reference
    // itself) gives that case an error naming the panic, and the run goes on.
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        judge_case(game, case, engine)
    }));
    judged.unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with no message".into());
        CaseVerdict::Error(format!("the engine panicked: {message}")).into()
    })
}

fn judge_case(game: &dyn DynGame, case: &Case, engine: &mut dyn EngineUnderTest) -> Judged {
    let id = game.info().id;
    if !engine.supports(id) {
        return CaseVerdict::Unsupported(format!("the engine does not implement `{id}`")).into();
    }
    let mask = engine.unmodelled(id);
    match &case.body {
        CaseBody::Step {
            given,
            reachable,
            when,
            then,
        } => {
            let given = given.value();
            let request = StepRequest {
                id: &case.name,
                game,
                state: &given,
                turns: when,
                reachable: *reachable,
            };
            match engine.step(request) {
                Answered::Done(response) => {
                    judge_step(game, (&given, when), &then.value(), response, &mask)
                }
                Answered::Unsupported(why) if !reachable => CaseVerdict::Unsupported(format!(
                    "{why} (no blame: the case starts from a state that cannot occur in play, \
                     `reachable: false`)"
                ))
                .into(),
                Answered::Unsupported(why) => CaseVerdict::Unsupported(why).into(),
                Answered::Error(why) => CaseVerdict::Error(why.to_string()).into(),
            }
        }
        CaseBody::Parse {
            kind,
            input,
            expect,
            at,
        } => {
            if mask.hides_text(kind) {
                return CaseVerdict::Unsupported(format!(
                    "the engine declares the `{kind}` text unmodelled"
                ))
                .into();
            }
            let request = ParseRequest {
                id: &case.name,
                game,
                kind,
                input,
            };
            match engine.parse(request) {
                Answered::Done(verdict) => judge_parse(&verdict, input, *expect, *at).into(),
                Answered::Unsupported(why) => CaseVerdict::Unsupported(why).into(),
                Answered::Error(why) => CaseVerdict::Error(why.to_string()).into(),
            }
        }
        CaseBody::Generate {
            seeds,
            options,
            then,
            across,
        } => judge_generated(
            game,
            engine,
            &case.name,
            Generated {
                seeds: *seeds,
                options,
                then: &then.value(),
                across,
                mask: &mask,
            },
        ),
    }
}

/// `then` without what `mask` hides: the expectation to compare, and the masked paths that
/// removed something, each as the report names it.
fn masked_expectation(then: &Value, mask: &Mask, declared: &Mask) -> (Value, Vec<String>) {
    let mut then = then.clone();
    let masked = mask
        .remove_from(&mut then)
        .into_iter()
        .map(|path| {
            if path == PROMPTS && !declared.fields.iter().any(|f| f.as_str() == PROMPTS) {
                format!("{PROMPTS} (the engine renders none)")
            } else {
                path
            }
        })
        .collect();
    (then, masked)
}

/// The verdict of a case all of whose expectation is masked.
fn all_masked(masked: &[String]) -> CaseVerdict {
    CaseVerdict::Unsupported(format!(
        "everything the case checks is unmodelled by the engine: {}",
        masked.join(", ")
    ))
}

/// A failure's detail, with what was left out of the comparison.
fn with_masked(detail: String, masked: &[String]) -> String {
    if masked.is_empty() {
        detail
    } else {
        format!(
            "{detail}\n(left out, unmodelled by the engine: {})",
            masked.join(", ")
        )
    }
}

/// The result a case's `then` is matched against: the state, with `prompts` and `last_replies`
/// beside it (and `outcome`, when the engine gave it beside the state).
pub fn actual(state: &Value, response: &StepResponse) -> Value {
    let mut actual = state.clone();
    if let Value::Object(map) = &mut actual {
        if let Some(prompts) = &response.prompts {
            map.insert("prompts".into(), prompts.clone().into());
        }
        map.insert("last_replies".into(), response.last_replies.clone().into());
    }
    actual
}

/// Judges an engine's answer to a step case, leaving out of both sides what `declared` says
/// the engine does not model (and the prompts, when it rendered none).
fn judge_step(
    game: &dyn DynGame,
    (given, when): (&Value, &[Vec<Reply>]),
    then: &Value,
    response: StepResponse,
    declared: &Mask,
) -> Judged {
    let turns = when.len();
    if response.turns_played < turns {
        return CaseVerdict::Error(format!(
            "the match ended after turn {} of {turns}; `when` must stop where the match does",
            response.turns_played
        ))
        .into();
    }
    let mask = if response.prompts.is_none() {
        declared.with_prompts()
    } else {
        declared.clone()
    };
    let (then, masked) = masked_expectation(then, &mask, declared);
    if !masked.is_empty() && !checks_something(&then) {
        return Judged {
            verdict: all_masked(&masked),
            masked,
            departure: None,
            shown: None,
        };
    }
    let shape = |response: StepResponse| modelled_result(game, &then, response, &mask);
    let result = shape(response);
    let (verdict, departure, shown) = match result {
        Err(verdict) => (verdict, None, None),
        Ok(actual) => match check_subset(&then, &actual) {
            Ok(()) => (CaseVerdict::Pass, None, None),
            Err(Mismatch { diff }) => {
                // Named by the variant that reproduces what the engine got wrong.
                let fields = departure::differing_leaves(&then, &project(&then, &actual));
                let shape = |r: StepResponse| shape(r).unwrap_or(Value::Null);
                let named = departure::name(game, (given, when), fields, &actual, &shape);
                (
                    CaseVerdict::Fail(with_masked(diff, &masked)),
                    Some(named.into()),
                    Some(Box::new(Shown::of(game, given, &then, &actual))),
                )
            }
        },
    };
    Judged {
        verdict,
        masked,
        departure,
        shown,
    }
}

/// The engine's result as `then` (already without the masked paths) is matched against:
/// without the masked paths, its facts beside it when `then` asks for them; or the verdict of a
/// result that is no state of the game.
fn modelled_result(
    game: &dyn DynGame,
    then: &Value,
    response: StepResponse,
    mask: &Mask,
) -> Result<Value, CaseVerdict> {
    // An unmodelled field the engine left out takes its default.
    let mut state = response.state.clone();
    mask.remove_from(&mut state);
    // A result outside the game's own rules is a wrong result, shown against the expectation.
    let state = match load_result(game, &state) {
        Ok(state) => state,
        Err(e) => {
            return Err(CaseVerdict::Fail(format!(
                "the engine's result is not a state of the game: {e}\n{}",
                check_subset(then, &state)
                    .err()
                    .map(|m| m.diff)
                    .unwrap_or_default()
            )))
        }
    };
    let mut actual = actual(&state, &response);
    if then.get("facts").is_some() {
        // Facts the state shows only indirectly, as a generator case sees them.
        match (facts_of(game, &state), &mut actual) {
            (Ok(facts), Value::Object(map)) => {
                map.insert("facts".into(), facts);
            }
            (Err(e), _) => return Err(CaseVerdict::Error(format!("the facts of the result: {e}"))),
            _ => {}
        }
    }
    // One spelling for what the game lets an engine spell several ways (as `then` has).
    game.info().capabilities.normalize_expectation(&mut actual);
    mask.remove_from(&mut actual);
    Ok(actual)
}

/// Reads an engine's result as a state of the game ([`crate::seam::load_state`]: its defaults
/// filled in, validated). Numbers are values, not spellings: a result that loads only with its
/// whole floats read as integers (`23.0` where the state holds 23) is read so.
pub fn load_result(game: &dyn DynGame, state: &Value) -> Result<Value, crate::seam::StateError> {
    read_with_whole_numbers(state, |state| crate::seam::load_state(game, state))
}

/// `read` of `state`; where it fails, of `state` with its whole floats written as integers,
/// if it has any (the first error stands when that fails too).
fn read_with_whole_numbers<T>(
    state: &Value,
    read: impl Fn(&Value) -> Result<T, crate::seam::StateError>,
) -> Result<T, crate::seam::StateError> {
    read(state).or_else(|e| {
        let mut whole = state.clone();
        if !whole_numbers(&mut whole) {
            return Err(e);
        }
        read(&whole).map_err(|_| e)
    })
}

/// Writes every float of `value` that is a whole number as an integer; whether there was one.
fn whole_numbers(value: &mut Value) -> bool {
    match value {
        Value::Number(n) if n.is_f64() => {
            match n.as_f64().filter(|x| x.fract() == 0.0 && x.abs() < 9.0e15) {
                Some(x) => {
                    *value = Value::from(x as i64);
                    true
                }
                None => false,
            }
        }
        // Every element is visited (no short cut): each whole float is rewritten.
        Value::Array(items) => items.iter_mut().map(whole_numbers).filter(|&w| w).count() > 0,
        Value::Object(map) => map.values_mut().map(whole_numbers).filter(|&w| w).count() > 0,
        _ => false,
    }
}

/// Judges a parser's verdict on `input` against a parse case's `expect` and `at`.
pub fn judge_parse(
    verdict: &ParseVerdict,
    input: &str,
    expect: Expected,
    at: Option<[usize; 2]>,
) -> CaseVerdict {
    let (got, error) = match verdict {
        ParseVerdict::Valid { printed } => {
            if expect == Expected::Valid && printed != input {
                return CaseVerdict::Fail(format!(
                    "parsed, but printing it back gives another text:\n{}",
                    unified_diff(input, printed)
                ));
            }
            (Expected::Valid, None)
        }
        ParseVerdict::NonStrict(e) => (Expected::NonStrict, Some(e)),
        ParseVerdict::Invalid(e) => (Expected::Invalid, Some(e)),
    };
    if got != expect {
        let why = error.map(|e| format!(" ({e})")).unwrap_or_default();
        return CaseVerdict::Fail(format!(
            "expected {}, the parser says {}{why}",
            expect.label(),
            got.label()
        ));
    }
    match (at, error) {
        (Some([line, col]), Some(e)) if e.line == 0 => CaseVerdict::Fail(format!(
            "expected the error at {line}:{col}, the engine gives no position ({})",
            e.expected
        )),
        (Some([line, col]), Some(e)) if (e.line, e.col) != (line, col) => CaseVerdict::Fail(
            format!("expected the error at {line}:{col}, the parser reports {e}"),
        ),
        _ => CaseVerdict::Pass,
    }
}

/// Judges the new matches of `seeds` seeds against a generator case's `then`.
struct Generated<'c> {
    seeds: u64,
    options: &'c MatchOptions,
    then: &'c Value,
    across: &'c [Across],
    mask: &'c Mask,
}

fn judge_generated(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    name: &str,
    case: Generated<'_>,
) -> Judged {
    let Generated {
        seeds,
        options,
        then,
        across,
        mask,
    } = case;
    let (then, mut masked) = masked_expectation(then, mask, mask);
    let (across, masked_across): (Vec<&Across>, Vec<&Across>) =
        across.iter().partition(|fact| !mask.covers(&fact.path));
    for fact in masked_across {
        if let Some(field) = mask.fields.iter().find(|f| f.covers(&fact.path)) {
            if !masked.iter().any(|m| m == field.as_str()) {
                masked.push(field.as_str().to_string());
            }
        }
    }
    if !masked.is_empty() && !checks_something(&then) && across.is_empty() {
        return Judged {
            verdict: all_masked(&masked),
            masked,
            departure: None,
            shown: None,
        };
    }
    let verdict = match check_generated(game, engine, name, seeds, options, &then, &across, mask) {
        CaseVerdict::Fail(detail) => CaseVerdict::Fail(with_masked(detail, &masked)),
        other => other,
    };
    Judged {
        verdict,
        masked,
        departure: None,
        shown: None,
    }
}

#[allow(clippy::too_many_arguments)]
fn check_generated(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    name: &str,
    seeds: u64,
    options: &MatchOptions,
    then: &Value,
    across: &[&Across],
    mask: &Mask,
) -> CaseVerdict {
    let mut values: Vec<Vec<f64>> = vec![Vec::with_capacity(seeds as usize); across.len()];
    for seed in 0..seeds {
        let id = format!("{name}#{seed}");
        let request = NewMatchRequest {
            id: &id,
            game,
            seed,
            options,
        };
        let mut state = match engine.new_match(request) {
            Answered::Done(state) => state,
            Answered::Unsupported(why) => return CaseVerdict::Unsupported(why),
            Answered::Error(why) => return CaseVerdict::Error(format!("seed {seed}: {why}")),
        };
        mask.remove_from(&mut state);
        let mut state = match with_facts(game, &state) {
            Ok(state) => state,
            Err(e) => {
                return CaseVerdict::Fail(format!(
                    "the new match with seed {seed} is not a state of the game: {e}"
                ))
            }
        };
        game.info().capabilities.normalize_expectation(&mut state);
        if let Err(Mismatch { diff }) = check_subset(then, &state) {
            return CaseVerdict::Fail(format!("new match with seed {seed}:\n{diff}"));
        }
        for (fact, values) in across.iter().zip(&mut values) {
            match number_at(&state, &fact.path) {
                Some(x) => values.push(x),
                None => {
                    return CaseVerdict::Fail(format!(
                        "new match with seed {seed} has no number at `{}`",
                        fact.path
                    ))
                }
            }
        }
    }
    let mut failures = Vec::new();
    for (fact, values) in across.iter().zip(&values) {
        let got = fact.over.apply(values);
        let actual = serde_json::Number::from_f64(got).map_or(Value::Null, Value::Number);
        if check_subset(&fact.expect, &actual).is_err() {
            failures.push(format!(
                "{} of `{}` over {seeds} seeds is {got}; expected {}",
                fact.over.name(),
                fact.path,
                fact.expect
            ));
        }
    }
    if failures.is_empty() {
        CaseVerdict::Pass
    } else {
        CaseVerdict::Fail(failures.join("\n"))
    }
}

/// The number at a dotted path (`facts.holes`, `players[0].score`); a flag counts as 1 or 0.
fn number_at(value: &Value, path: &str) -> Option<f64> {
    let found = crate::case::yaml::parse_path(path)
        .iter()
        .try_fold(value, |v, segment| match segment {
            crate::case::yaml::Segment::Key(k) => v.get(k),
            crate::case::yaml::Segment::Index(i) => v.get(i),
        })?;
    match found {
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        other => other.as_f64(),
    }
}

/// The canonical state, validated, with its [`crate::seam::Facts`] under `facts`.
/// Read as [`load_result`] reads (once, for both).
pub fn with_facts(game: &dyn DynGame, state: &Value) -> Result<Value, crate::seam::StateError> {
    let facts = facts_capability(game)?;
    let (mut state, facts) = read_with_whole_numbers(state, |s| facts.loaded_with_facts(s))?;
    if let Value::Object(map) = &mut state {
        map.insert("facts".into(), facts);
    }
    Ok(state)
}

/// The game's [`crate::seam::Facts`] of a loaded state.
fn facts_of(game: &dyn DynGame, state: &Value) -> Result<Value, crate::seam::StateError> {
    Ok(facts_capability(game)?.loaded_with_facts(state)?.1)
}

/// The game's facts; an error naming what is missing for a game without them.
fn facts_capability(
    game: &dyn DynGame,
) -> Result<&'static dyn crate::seam::DynFacts, crate::seam::StateError> {
    game.info().capabilities.facts.ok_or_else(|| {
        crate::seam::StateError::new(
            crate::seam::Missing::new(game.info().id, "facts for generator cases").to_string(),
        )
    })
}

/// The cases of `library` whose name contains `filter` (all when `None`), with their game.
pub fn select<'l>(
    library: &'l Library,
    filter: Option<&str>,
) -> Vec<(&'static dyn DynGame, &'l Case)> {
    library
        .games
        .iter()
        .flat_map(|g| g.cases.iter().map(move |c| (g.game, c)))
        .filter(|(_, c)| filter.is_none_or(|f| c.name.contains(f)))
        .collect()
}

/// Checks what `engine` declares unmodelled of each of `games` against the game (a path that
/// names no field, a protocol text the game does not have), before any case runs.
pub fn check_unmodelled<'g>(
    games: impl IntoIterator<Item = &'g dyn DynGame>,
    engine: &dyn EngineUnderTest,
) -> Result<(), MaskError> {
    for game in games {
        engine.unmodelled(game.info().id).check(game)?;
    }
    Ok(())
}

//! Running cases against an engine and judging the results.
//!
//! A step case plays its turns from its `given` state and matches `then` against the result;
//! a parse case runs one protocol parser. Both speak to the game only through [`DynGame`].

use serde::Serialize;
use serde_json::Value;

use crate::case::expect::{check_subset, unified_diff};
use crate::case::{Case, CaseBody, Expected, Library};
use crate::game::{DynGame, ParseVerdict, ReplyVerdict};

/// How one case ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", content = "detail", rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    /// The engine disagrees with the case; the text shows how (a diff where there is one).
    Fail(String),
    /// The case could not be run to a verdict (the engine refused the state, the match ended
    /// before the case's last turn, ...).
    Error(String),
    /// The engine under test said it does not implement what the case needs (the reason is
    /// its own). Counted apart, never as a failure.
    Unsupported(String),
    /// A failure listed in the `--expect-fail` file: the reason from the list, then what failed.
    ExpectedFail(String),
    /// Listed in the `--expect-fail` file but passes: the list is stale, and the run fails.
    Fixed(String),
}

/// One case's verdict, with where the case lives.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    pub name: String,
    pub game: String,
    pub file: String,
    pub line: usize,
    pub rules: Vec<String>,
    #[serde(flatten)]
    pub verdict: Verdict,
}

impl CaseResult {
    /// A result with only a name and a verdict, for tests of what consumes reports.
    #[cfg(test)]
    pub(crate) fn named(name: &str, verdict: Verdict) -> CaseResult {
        CaseResult {
            name: name.into(),
            game: "g".into(),
            file: "f".into(),
            line: 1,
            rules: vec![],
            verdict,
        }
    }
}

/// Runs one case on a game's reference engine.
pub fn run_case(game: &dyn DynGame, case: &Case) -> Verdict {
    match &case.body {
        CaseBody::Step { given, when, then } => match game.play(given, when) {
            Ok(played) => judge_played(then, when.len(), played),
            Err(e) => Verdict::Error(format!("the engine refused the case: {e}")),
        },
        CaseBody::Generate {
            seeds,
            options,
            then,
        } => {
            for seed in 0..*seeds {
                let generated = game
                    .new_match(seed, options)
                    .map_err(|e| e.to_string())
                    .and_then(|state| with_facts(game, state));
                match generated {
                    Ok(state) => {
                        if let Err(diff) = check_subset(then, &state) {
                            return Verdict::Fail(format!("new match with seed {seed}:\n{diff}"));
                        }
                    }
                    Err(e) => return Verdict::Error(format!("new match with seed {seed}: {e}")),
                }
            }
            Verdict::Pass
        }
        CaseBody::Parse {
            kind,
            input,
            expect,
            at,
        } => judge_parse(game, kind, input, *expect, *at),
    }
}

/// The canonical state with its [`crate::game::Game::facts`] under the key `facts`.
pub fn with_facts(game: &dyn DynGame, mut state: Value) -> Result<Value, String> {
    let facts = game.facts_of(&state).map_err(|e| e.to_string())?;
    if let Value::Object(map) = &mut state {
        map.insert("facts".into(), facts);
    }
    Ok(state)
}

/// Judges the result of playing a step case's `when` (`turns` of them) against its `then`.
pub fn judge_played(then: &Value, turns: usize, played: crate::game::Played) -> Verdict {
    if played.unplayed_turns > 0 {
        let message = format!(
            "the match ended after turn {} of {}; `when` must stop where the match does",
            turns.saturating_sub(played.unplayed_turns),
            turns
        );
        return Verdict::Error(message);
    }
    let mut actual = played.state;
    if let Value::Object(map) = &mut actual {
        map.insert("prompts".into(), played.prompts.into());
        let last = played
            .reports
            .last()
            .map(|r| r.replies.iter().map(ReplyVerdict::name).collect::<Vec<_>>());
        map.insert("last_replies".into(), last.unwrap_or_default().into());
    }
    match check_subset(then, &actual) {
        Ok(()) => Verdict::Pass,
        Err(diff) => Verdict::Fail(diff),
    }
}

fn judge_parse(
    game: &dyn DynGame,
    kind: &str,
    input: &str,
    expect: Expected,
    at: Option<[usize; 2]>,
) -> Verdict {
    let Some(verdict) = game.parse(kind, input) else {
        return Verdict::Error(format!("the game has no `{kind}` parser"));
    };
    judge_parse_verdict(&verdict, input, expect, at)
}

/// Judges a parser's verdict on `input` against a parse case's `expect` and `at`.
pub fn judge_parse_verdict(
    verdict: &ParseVerdict,
    input: &str,
    expect: Expected,
    at: Option<[usize; 2]>,
) -> Verdict {
    let (got, error) = match verdict {
        ParseVerdict::Valid { printed } => {
            if expect == Expected::Valid && printed != input {
                return Verdict::Fail(format!(
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
        return Verdict::Fail(format!(
            "expected {}, the parser says {}{why}",
            label(expect),
            label(got)
        ));
    }
    match (at, error) {
        (Some([line, col]), Some(e)) if (e.line, e.col) != (line, col) => Verdict::Fail(format!(
            "expected the error at {line}:{col}, the parser reports {e}"
        )),
        _ => Verdict::Pass,
    }
}

fn label(expected: Expected) -> &'static str {
    match expected {
        Expected::Valid => "valid",
        Expected::NonStrict => "non-strict",
        Expected::Invalid => "invalid",
    }
}

/// Runs every case whose name contains `filter` (all when `None`) on the reference engines,
/// calling `progress` after each with the number done and the total.
pub fn run_library(
    library: &Library,
    filter: Option<&str>,
    progress: impl FnMut(usize, usize),
) -> Vec<CaseResult> {
    run_library_with(library, filter, run_case, progress)
}

/// Runs every case whose name contains `filter` with `run`, calling `progress` after each.
pub fn run_library_with(
    library: &Library,
    filter: Option<&str>,
    mut run: impl FnMut(&dyn DynGame, &Case) -> Verdict,
    mut progress: impl FnMut(usize, usize),
) -> Vec<CaseResult> {
    let selected: Vec<(&dyn DynGame, &Case)> = library
        .games
        .iter()
        .flat_map(|g| g.cases.iter().map(move |c| (g.game, c)))
        .filter(|(_, c)| filter.is_none_or(|f| c.name.contains(f)))
        .collect();
    let total = selected.len();
    selected
        .into_iter()
        .enumerate()
        .map(|(i, (game, case))| {
            let verdict = run(game, case);
            progress(i + 1, total);
            CaseResult {
                name: case.name.clone(),
                game: game.info().id.to_string(),
                file: case.path.display().to_string(),
                line: case.line,
                rules: case.rules.clone(),
                verdict,
            }
        })
        .collect()
}

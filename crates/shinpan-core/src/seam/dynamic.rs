//! A [`Game`] seen through JSON values ([`DynGame`]), and a match in progress seen the same way
//! ([`DynMatch`]): the form the case runner, the adapters, the harness and the CLI work with, so
//! that none of them names a game or its state type.

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{
    checked_step, Frame, Game, GameInfo, Outcome, ParseVerdict, Reply, StateError, StepError,
    StepReport, StepResult,
};

/// Match options as given (`--option stage=30`, a generator case's `options:`), not yet read by a
/// game: a JSON object. [`DynGame::check_options`] reads them as the game's own options type.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct MatchOptions(pub Map<String, Value>);

impl MatchOptions {
    /// Reads `key=value` pairs. A value that reads as JSON (a number, `true`, `false`, a list) is
    /// taken as such, anything else as a string: `stage=30`, `time=[5000,0]`, `league=wood1`.
    pub fn from_pairs(pairs: &[String]) -> Result<MatchOptions, PairError> {
        let mut map = Map::new();
        for pair in pairs {
            let Some((key, value)) = pair.split_once('=').filter(|(k, _)| !k.is_empty()) else {
                return Err(PairError::NotAPair(pair.clone()));
            };
            let value = match serde_json::from_str::<Value>(value) {
                // A whole number past 64 bits reads as a float: say what it is, not its type.
                Ok(Value::Number(n)) if n.is_f64() && is_whole_number_text(value) => {
                    return Err(PairError::OutOfRange {
                        pair: pair.clone(),
                        value: value.to_string(),
                    })
                }
                Ok(v @ (Value::Number(_) | Value::Bool(_) | Value::Array(_))) => v,
                _ => Value::String(value.to_string()),
            };
            if map.insert(key.to_string(), value).is_some() {
                return Err(PairError::Twice(key.to_string()));
            }
        }
        Ok(MatchOptions(map))
    }

    /// These options with `over`'s keys taking precedence.
    pub fn merged(&self, over: &MatchOptions) -> MatchOptions {
        let mut map = self.0.clone();
        map.extend(over.0.iter().map(|(k, v)| (k.clone(), v.clone())));
        MatchOptions(map)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether `text` is written as a whole number: digits, with a `-` before them or not.
fn is_whole_number_text(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Match options the game does not take: an unknown key, a value of the wrong type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game} does not take these match options: {message}")]
pub struct OptionsError {
    pub game: &'static str,
    pub message: String,
}

/// Why `key=value` pairs are not match options ([`MatchOptions::from_pairs`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    #[error("`{0}` is not an option: write key=value")]
    NotAPair(String),
    #[error("`{pair}`: {value} is out of range (a whole number of at most 64 bits)")]
    OutOfRange { pair: String, value: String },
    #[error("the option `{0}` is given twice")]
    Twice(String),
}

/// Why the reference engine could not set up or play what it was asked to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Options(#[from] OptionsError),
    #[error("not a valid state: {0}")]
    State(#[from] StateError),
    #[error("turn {turn}: {error}")]
    Step { turn: usize, error: StepError },
}

/// The result of playing some turns from a canonical state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Played {
    /// The canonical state after the last turn played, `outcome` included.
    pub state: Value,
    /// The prompt each player would receive next.
    pub prompts: Vec<String>,
    /// How each step took its replies.
    pub reports: Vec<StepReport>,
    /// Turns that were not played because the match ended first.
    pub unplayed_turns: usize,
}

/// A match in progress seen through the type-erased seam: what the bot checker and `play` drive.
pub trait DynMatch {
    fn awaiting(&self) -> Vec<usize>;
    fn prompt(&self, player: usize) -> String;
    /// [`Game::prompt_varied`].
    fn prompt_varied(&self, player: usize, rng: &mut dyn RngCore) -> String;
    fn frame(&self, player: usize, lines: &[&str]) -> Frame;
    /// [`checked_step`]: the shared guards, then the game's step.
    fn step(&mut self, replies: &[Reply]) -> StepResult;
    fn outcome(&self) -> Option<Outcome>;
    /// The built-in player's reply for `player` now.
    fn random_reply(&self, player: usize, rng: &mut dyn RngCore) -> String;
    /// The canonical state.
    fn state(&self) -> Result<Value, StateError>;
    /// A copy, to try a reply without playing it.
    fn fork(&self) -> Box<dyn DynMatch + '_>;
}

/// The JSON Schemas of a game's canonical state and of its match options (each property
/// documented).
#[derive(Debug, Clone, PartialEq)]
pub struct Schemas {
    pub state: Value,
    pub options: Value,
}

/// The [`Schemas`] of a game whose state is `S` and options `O`, as schemars writes them.
#[cfg(feature = "schema")]
pub fn schemas_of<S: schemars::JsonSchema, O: schemars::JsonSchema>() -> Schemas {
    Schemas {
        state: serde_json::to_value(schemars::schema_for!(S)).unwrap_or(Value::Null),
        options: serde_json::to_value(schemars::schema_for!(O)).unwrap_or(Value::Null),
    }
}

/// A [`Game`] seen through JSON values: the form the harness works with.
pub trait DynGame: Send + Sync {
    fn info(&self) -> &'static GameInfo;
    /// Reads `options` as the game's options type; the result has every default filled in.
    fn check_options(&self, options: &MatchOptions) -> Result<Value, OptionsError>;
    /// `None` where the game's crate is built without its `schema` feature.
    fn schemas(&self) -> Option<Schemas>;
    /// A new match to drive turn by turn; its `state()` is the canonical state of a new match.
    fn start(&self, seed: u64, options: &MatchOptions)
        -> Result<Box<dyn DynMatch + '_>, PlayError>;
    /// A match to drive on from a canonical state.
    fn resume(&self, state: &Value) -> Result<Box<dyn DynMatch + '_>, StateError>;
    /// Plays `turns` from `state`; see [`Played`].
    fn play(&self, state: &Value, turns: &[Vec<Reply>]) -> Result<Played, PlayError>;
    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict>;
}

/// Reads a canonical state (omitted fields take their defaults) and validates it: its canonical
/// form, every default written out.
pub fn load_state(game: &dyn DynGame, state: &Value) -> Result<Value, StateError> {
    game.resume(state)?.state()
}

/// A prompt that could not be read back into a state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObserveError {
    #[error("the prompt is not in the game's format: {0}")]
    Prompt(#[from] crate::text::ParseError),
    #[error("the state it was read onto: {0}")]
    State(#[from] StateError),
}

impl<G: Game> DynGame for G {
    fn info(&self) -> &'static GameInfo {
        G::INFO
    }

    fn check_options(&self, options: &MatchOptions) -> Result<Value, OptionsError> {
        let typed = typed_options::<G>(options)?;
        serde_json::to_value(typed).map_err(|e| OptionsError {
            game: G::INFO.id,
            message: e.to_string(),
        })
    }

    fn schemas(&self) -> Option<Schemas> {
        self.json_schemas()
    }

    fn start(
        &self,
        seed: u64,
        options: &MatchOptions,
    ) -> Result<Box<dyn DynMatch + '_>, PlayError> {
        let options = typed_options::<G>(options)?;
        Ok(Box::new(Match {
            game: self,
            state: Game::new_match(self, seed, &options),
        }))
    }

    fn resume(&self, state: &Value) -> Result<Box<dyn DynMatch + '_>, StateError> {
        Ok(Box::new(Match {
            game: self,
            state: typed_state(self, state)?,
        }))
    }

    fn play(&self, state: &Value, turns: &[Vec<Reply>]) -> Result<Played, PlayError> {
        play_with(
            self,
            state,
            turns,
            |state, replies| checked_step(self, state, replies),
            |state, player| self.prompt(state, player),
        )
    }

    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        Game::parse(self, kind, input)
    }
}

/// Plays `turns` from `state` with `step`, then prints each player's prompt with `prompt`.
pub(super) fn play_with<G: Game>(
    game: &G,
    state: &Value,
    turns: &[Vec<Reply>],
    step: impl Fn(&mut G::State, &[Reply]) -> StepResult,
    prompt: impl Fn(&G::State, usize) -> String,
) -> Result<Played, PlayError> {
    let mut state = typed_state(game, state)?;
    let mut reports = Vec::new();
    for (turn, replies) in turns.iter().enumerate() {
        if game.outcome(&state).is_some() {
            break;
        }
        let report = step(&mut state, replies).map_err(|error| PlayError::Step {
            turn: turn + 1,
            error,
        })?;
        reports.push(report);
    }
    let prompts = (0..G::INFO.players).map(|p| prompt(&state, p)).collect();
    Ok(Played {
        state: canonical(&state)?,
        prompts,
        unplayed_turns: turns.len() - reports.len(),
        reports,
    })
}

/// A typed match behind [`DynMatch`].
pub(super) struct Match<'g, G: Game> {
    pub(super) game: &'g G,
    pub(super) state: G::State,
}

impl<G: Game> DynMatch for Match<'_, G> {
    fn awaiting(&self) -> Vec<usize> {
        self.game.awaiting(&self.state)
    }

    fn prompt(&self, player: usize) -> String {
        self.game.prompt(&self.state, player)
    }

    fn prompt_varied(&self, player: usize, rng: &mut dyn RngCore) -> String {
        self.game.prompt_varied(&self.state, player, rng)
    }

    fn frame(&self, player: usize, lines: &[&str]) -> Frame {
        self.game.frame(&self.state, player, lines)
    }

    fn step(&mut self, replies: &[Reply]) -> StepResult {
        checked_step(self.game, &mut self.state, replies)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }

    fn random_reply(&self, player: usize, rng: &mut dyn RngCore) -> String {
        self.game.random_reply(&self.state, player, rng)
    }

    fn state(&self) -> Result<Value, StateError> {
        canonical(&self.state)
    }

    fn fork(&self) -> Box<dyn DynMatch + '_> {
        Box::new(Match {
            game: self.game,
            state: self.state.clone(),
        })
    }
}

/// Reads a canonical state as the game's type, naming the field of a shape error, then
/// validates it.
pub(super) fn typed_state<G: Game>(game: &G, state: &Value) -> Result<G::State, StateError> {
    let typed = read_state::<G>(state)?;
    game.validate(&typed)?;
    Ok(typed)
}

/// A state a recorded engine showed: read like [`typed_state`], checked only by
/// [`super::Recorded::validate_recorded`].
pub(super) fn recorded_state<G: super::Recorded>(
    game: &G,
    state: &Value,
) -> Result<G::State, StateError> {
    let typed = read_state::<G>(state)?;
    game.validate_recorded(&typed)?;
    Ok(typed)
}

/// The shape of a canonical state, read by serde, a shape error naming its field. A state is
/// read straight from the value; only one that fails is read again, tracking the path to the
/// field at fault (tracking every field of every state was most of the time `trace` and the
/// generator cases spent reading states).
pub(super) fn read_state<G: Game>(state: &Value) -> Result<G::State, StateError> {
    if let Ok(typed) = G::State::deserialize(state) {
        return Ok(typed);
    }
    serde_path_to_error::deserialize(state).map_err(|e| {
        let path = e.path().to_string();
        StateError {
            path: (path != ".").then_some(path),
            message: e.into_inner().to_string(),
        }
    })
}

pub(super) fn typed_options<G: Game>(options: &MatchOptions) -> Result<G::Options, OptionsError> {
    serde_json::from_value(Value::Object(options.0.clone())).map_err(|e| OptionsError {
        game: G::INFO.id,
        message: e.to_string(),
    })
}

/// The canonical form of a state; an error only for a state that has none (a non-finite number,
/// see [`super::finite`]).
pub(super) fn canonical<T: Serialize>(state: &T) -> Result<Value, StateError> {
    serde_json::to_value(state).map_err(|e| StateError::new(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_from_pairs() {
        let options =
            MatchOptions::from_pairs(&["stage=30".into(), "league=wood1".into()]).unwrap();
        assert_eq!(options.0["stage"], Value::from(30));
        assert_eq!(options.0["league"], Value::from("wood1"));
        let list = MatchOptions::from_pairs(&["time=[5000,0]".into()]).unwrap();
        assert_eq!(list.0["time"], serde_json::json!([5000, 0]));
        let refused = |pairs: &[&str]| {
            let pairs: Vec<String> = pairs.iter().map(|p| p.to_string()).collect();
            MatchOptions::from_pairs(&pairs).unwrap_err()
        };
        assert_eq!(refused(&["stage"]), PairError::NotAPair("stage".into()));
        assert_eq!(refused(&["=3"]), PairError::NotAPair("=3".into()));
        assert_eq!(refused(&["a=1", "a=2"]), PairError::Twice("a".into()));
        // Issue 22.17: a number past 64 bits was called "floating point".
        let err = refused(&["stage=99999999999999999999"]);
        assert_eq!(
            err.to_string(),
            "`stage=99999999999999999999`: 99999999999999999999 is out of range (a whole number \
             of at most 64 bits)"
        );
        assert!(MatchOptions::from_pairs(&["x=1.5".into()]).is_ok());
        let over = MatchOptions::from_pairs(&["stage=2".into()]).unwrap();
        assert_eq!(options.merged(&over).0["stage"], Value::from(2));
    }

    #[test]
    fn options_are_empty_only_when_none_is_given() {
        assert!(MatchOptions::default().is_empty());
        assert!(!MatchOptions::from_pairs(&["stage=2".into()])
            .unwrap()
            .is_empty());
    }
}

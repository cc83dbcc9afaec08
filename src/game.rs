//! The one seam every game implements, and its type-erased form for the harness.
//!
//! Everything outside `games/` works on text, as a contest engine does: it sends a *prompt* and
//! receives a *reply*. [`Game`] is typed (each game has its own `State`); [`DynGame`] is the same
//! game seen through JSON values, which is what the case runner, the adapters and the CLI use so
//! that none of them ever names a game.

use std::fmt::Debug;

use rand::RngCore;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::text::ParseError;

/// What the harness needs to know about a game without knowing its rules.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// Stable id used in case files, test names and on the command line.
    pub id: &'static str,
    pub title: &'static str,
    /// The rule document in `shared/seeds/`.
    pub document: &'static str,
    pub players: usize,
    /// The protocol texts [`Game::parse`] knows, for parse cases.
    pub parse_kinds: &'static [&'static str],
}

/// One player's answer to a prompt, as the harness saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply {
    /// The reply's lines joined by `\n` (without the last line break), and the thinking time used.
    Text { text: String, elapsed_ms: u64 },
    /// No complete reply within the time limit.
    TimedOut,
    /// The program ended or broke its pipes before replying.
    Crashed,
}

impl Reply {
    pub fn text(text: impl Into<String>) -> Self {
        Reply::Text {
            text: text.into(),
            elapsed_ms: 0,
        }
    }
}

/// Whether the lines read so far make a whole reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Complete,
    NeedMore,
    /// The lines can never become a valid reply (e.g. a count that is not a number).
    Malformed(String),
}

/// How a match ended. `winner: None` is a draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    pub winner: Option<usize>,
    /// A short kebab-case reason defined by the game (`danger-line`, `invalid-reply`, ...).
    pub reason: String,
}

/// How the engine took one player's reply in a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", content = "detail", rename_all = "kebab-case")]
pub enum ReplyVerdict {
    /// Valid and written exactly as the grammar says.
    Accepted,
    /// Accepted by the engine, but it breaks the strict grammar (the reason says how).
    NonStrict(String),
    /// Rejected by the engine under the game's rules (the reason says why).
    Rejected(String),
    TimedOut,
    Crashed,
}

/// What a step did with each reply, in the order of [`Game::awaiting`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepReport {
    pub replies: Vec<ReplyVerdict>,
}

/// A step that could not be played at all: the state or the call is inconsistent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("the match is already over")]
    MatchOver,
    #[error("expected {expected} replies, got {got}")]
    ReplyCount { expected: usize, got: usize },
    #[error("inconsistent state: {0}")]
    BadState(String),
}

/// The result of parsing a protocol text with both the strict grammar and the engine's leniency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseVerdict {
    /// The strict grammar accepts it; `printed` is the printer's output for what was parsed.
    Valid {
        printed: String,
    },
    /// The strict grammar rejects it but the engine would accept it.
    NonStrict(ParseError),
    Invalid(ParseError),
}

/// A game: its reference engine and its protocol.
pub trait Game: Send + Sync + 'static {
    /// The whole engine state; its serde form is the canonical state of cases and adapters.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;

    fn info(&self) -> &'static GameInfo;

    /// A new match, every random choice derived from `seed`.
    fn new_match(&self, seed: u64) -> Self::State;

    /// Checks what serde cannot: relations between fields. Cases and adapters call it on every
    /// state they are given.
    fn validate(&self, state: &Self::State) -> Result<(), String>;

    /// The players whose replies the next step needs (empty once the match is over).
    fn awaiting(&self, state: &Self::State) -> Vec<usize>;

    /// How many replies every step takes: all players by default; 1 in a game where players
    /// move in turn. Case files are checked against it before any state exists.
    fn replies_per_step(&self) -> usize {
        self.info().players
    }

    /// The exact bytes sent to `player` before its next reply.
    fn prompt(&self, state: &Self::State, player: usize) -> String;

    /// Whether `lines` (without line breaks) make a whole reply of `player`.
    fn frame(&self, state: &Self::State, player: usize, lines: &[&str]) -> Frame;

    /// Plays one step with one reply per awaited player, in the order of [`Game::awaiting`].
    fn step(&self, state: &mut Self::State, replies: &[Reply]) -> Result<StepReport, StepError>;

    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Parses `input` as the protocol text `kind` (one of [`GameInfo::parse_kinds`]).
    /// `None` when the game has no such text.
    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict>;

    /// A legal reply chosen at random: the built-in player.
    fn random_reply(&self, state: &Self::State, player: usize, rng: &mut dyn RngCore) -> String;

    /// Facts about a state that its canonical form shows only indirectly (counts, totals), for
    /// generator cases that check what every new match must satisfy.
    fn facts(&self, state: &Self::State) -> Value;
}

/// A [`Game`] seen through JSON values: the form the harness works with.
pub trait DynGame: Send + Sync {
    fn info(&self) -> &'static GameInfo;
    /// See [`Game::replies_per_step`].
    fn replies_per_step(&self) -> usize {
        self.info().players
    }
    /// The canonical state of a new match.
    fn new_match(&self, seed: u64) -> Value;
    /// Reads a canonical state (omitted fields take their defaults) and validates it.
    fn load_state(&self, state: &Value) -> Result<Value, String>;
    /// Plays `turns` from `state`; see [`Played`].
    fn play(&self, state: &Value, turns: &[Vec<Reply>]) -> Result<Played, String>;
    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict>;
    /// The canonical state of `new_match(seed)` with its [`Game::facts`] under the key `facts`.
    fn generated(&self, seed: u64) -> Value;
    /// The JSON Schema of the canonical state.
    fn schema(&self) -> Value;
    /// Reads every `given` of a case file as this game's state type, so that a bad one is
    /// reported with the line and column serde_yaml knows.
    fn check_case_states(&self, case_file: &str) -> Result<(), serde_yaml::Error>;
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

impl<G: Game> DynGame for G {
    fn info(&self) -> &'static GameInfo {
        Game::info(self)
    }

    fn replies_per_step(&self) -> usize {
        Game::replies_per_step(self)
    }

    fn new_match(&self, seed: u64) -> Value {
        to_value(&Game::new_match(self, seed))
    }

    fn load_state(&self, state: &Value) -> Result<Value, String> {
        let typed = typed_state(self, state)?;
        Ok(to_value(&typed))
    }

    fn play(&self, state: &Value, turns: &[Vec<Reply>]) -> Result<Played, String> {
        let mut state = typed_state(self, state)?;
        let mut reports = Vec::new();
        let mut played = 0;
        for replies in turns {
            if self.outcome(&state).is_some() {
                break;
            }
            reports.push(
                self.step(&mut state, replies)
                    .map_err(|e| format!("turn {}: {e}", played + 1))?,
            );
            played += 1;
        }
        let prompts = (0..self.info().players)
            .map(|p| self.prompt(&state, p))
            .collect();
        Ok(Played {
            state: to_value(&state),
            prompts,
            reports,
            unplayed_turns: turns.len() - played,
        })
    }

    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        Game::parse(self, kind, input)
    }

    fn generated(&self, seed: u64) -> Value {
        let state = Game::new_match(self, seed);
        let mut value = to_value(&state);
        if let Value::Object(map) = &mut value {
            map.insert("facts".into(), self.facts(&state));
        }
        value
    }

    fn schema(&self) -> Value {
        to_value(&schemars::schema_for!(G::State))
    }

    fn check_case_states(&self, case_file: &str) -> Result<(), serde_yaml::Error> {
        serde_yaml::from_str::<crate::case::TypedFile<G::State>>(case_file).map(drop)
    }
}

fn typed_state<G: Game>(game: &G, state: &Value) -> Result<G::State, String> {
    let typed: G::State = serde_json::from_value(state.clone()).map_err(|e| e.to_string())?;
    game.validate(&typed)?;
    Ok(typed)
}

fn to_value<T: Serialize>(value: &T) -> Value {
    // Our own state types serialize to JSON infallibly (string keys, no non-finite floats).
    serde_json::to_value(value).expect("canonical state serializes to JSON")
}

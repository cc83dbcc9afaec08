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

impl ParseVerdict {
    /// The verdict on a text that the strict grammar parsed (to its printed form) or refused,
    /// and that the engine accepts when `engine_accepts` says so.
    pub fn judge(
        strict: Result<String, ParseError>,
        engine_accepts: impl FnOnce() -> bool,
    ) -> ParseVerdict {
        match strict {
            Ok(printed) => ParseVerdict::Valid { printed },
            Err(e) if engine_accepts() => ParseVerdict::NonStrict(e),
            Err(e) => ParseVerdict::Invalid(e),
        }
    }
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

    /// The thinking-time limits of the rule document, which the bot checker and `play` apply.
    /// No default: every game says what its document says (see [`TimeLimits`]).
    fn limits(&self) -> TimeLimits;

    /// What a bot must print before it reads its first prompt; `None` when nothing.
    fn handshake(&self) -> Option<Handshake> {
        None
    }

    /// Valid prompts at the extremes of what the document allows, for the bot checker. The
    /// default offers none (the checker reports that as `INFO`).
    fn edge_cases(&self) -> Vec<EdgeCase<Self::State>> {
        Vec::new()
    }
}

/// Thinking-time limits from a rule document. `None` is "the document sets no such limit".
///
/// How a game maps its document onto these (for the games still to land):
/// - CODE VS Reborn: `turn_ms` 20 000 (the online qualifier), `total_ms` 180 000; the name line
///   has no limit of its own and takes `turn_ms`.
/// - Spring Challenge 2022: `first_turn_ms` 1000, `turn_ms` 50.
/// - CEDEC 2013: `handshake_ms` 5000 for the name, `turn_ms` 1000, `pool_ms` 5000 (a reserve
///   that turns over the per-turn limit draw on).
/// - TSG AUTO CHESS: `total_ms` 180 000.
/// - CODE VS 4.0: the prompt carries the time left; `total_ms` is its starting value and the
///   engine charges each reply's `elapsed_ms` against it, as in Reborn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TimeLimits {
    /// For the handshake line(s); `None`: the per-turn limit applies.
    pub handshake_ms: Option<u64>,
    /// For the first reply, when it differs from the others.
    pub first_turn_ms: Option<u64>,
    /// For each reply.
    pub turn_ms: Option<u64>,
    /// For all replies of a match together.
    pub total_ms: Option<u64>,
    /// A reserve shared by the turns that go over `turn_ms`.
    pub pool_ms: Option<u64>,
}

/// The line a bot prints before any prompt (its name, in most games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handshake {
    /// Sent to the bot before it answers; empty when the bot speaks first.
    pub prompt: String,
    /// The protocol text ([`GameInfo::parse_kinds`]) its one-line answer must parse as.
    pub parse_kind: &'static str,
}

/// A valid prompt at an extreme of the document, for the bot checker. A freshly started bot
/// (past the handshake) is sent `prompt(states[i], seat)` for each state in turn and answers
/// each, so `states[0]` must be a state whose prompt a bot can read first (in most games the
/// first turn, with its game-start block).
#[derive(Debug, Clone)]
pub struct EdgeCase<S> {
    /// A short kebab-case name: `field-full-to-the-top`.
    pub name: String,
    pub seat: usize,
    pub states: Vec<S>,
}

/// A match in progress seen through the type-erased seam: what the bot checker and `play` drive.
pub trait DynMatch {
    fn awaiting(&self) -> Vec<usize>;
    fn prompt(&self, player: usize) -> String;
    fn frame(&self, player: usize, lines: &[&str]) -> Frame;
    fn step(&mut self, replies: &[Reply]) -> Result<StepReport, StepError>;
    fn outcome(&self) -> Option<Outcome>;
    /// The built-in player's reply for `player` now.
    fn random_reply(&self, player: usize, rng: &mut dyn RngCore) -> String;
    /// The canonical state.
    fn state(&self) -> Value;
    /// A copy, to try a reply without playing it.
    fn fork(&self) -> Box<dyn DynMatch + '_>;
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
    /// A new match to drive turn by turn.
    fn start(&self, seed: u64) -> Box<dyn DynMatch + '_>;
    fn limits(&self) -> TimeLimits;
    fn handshake(&self) -> Option<Handshake>;
    /// [`Game::edge_cases`], each state ready to drive.
    fn edge_cases(&self) -> Vec<EdgeCase<Box<dyn DynMatch + '_>>>;
    /// [`Game::facts`] of a canonical state (loaded and validated first).
    fn facts_of(&self, state: &Value) -> Result<Value, String>;
    /// The built-in player's reply for each awaited player of `state`, in the order of
    /// [`Game::awaiting`] (empty once the match is over).
    fn random_replies(&self, state: &Value, rng: &mut dyn RngCore) -> Result<Vec<String>, String>;
    /// The canonical state after `steps` steps of the built-in players' match of `seed`
    /// (earlier if the match ends first); see [`crate::selfplay::random_prefix`].
    fn selfplay_state(&self, seed: u64, steps: usize) -> Value;
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

    fn start(&self, seed: u64) -> Box<dyn DynMatch + '_> {
        Box::new(Match {
            game: self,
            state: Game::new_match(self, seed),
        })
    }

    fn limits(&self) -> TimeLimits {
        Game::limits(self)
    }

    fn handshake(&self) -> Option<Handshake> {
        Game::handshake(self)
    }

    fn edge_cases(&self) -> Vec<EdgeCase<Box<dyn DynMatch + '_>>> {
        Game::edge_cases(self)
            .into_iter()
            .map(|edge| EdgeCase {
                name: edge.name,
                seat: edge.seat,
                states: edge
                    .states
                    .into_iter()
                    .map(|state| Box::new(Match { game: self, state }) as Box<dyn DynMatch + '_>)
                    .collect(),
            })
            .collect()
    }

    fn facts_of(&self, state: &Value) -> Result<Value, String> {
        Ok(self.facts(&typed_state(self, state)?))
    }

    fn random_replies(&self, state: &Value, rng: &mut dyn RngCore) -> Result<Vec<String>, String> {
        let state = typed_state(self, state)?;
        Ok(self
            .awaiting(&state)
            .into_iter()
            .map(|p| self.random_reply(&state, p, rng))
            .collect())
    }

    fn selfplay_state(&self, seed: u64, steps: usize) -> Value {
        to_value(&crate::selfplay::random_prefix(self, seed, steps))
    }
}

/// A typed match behind [`DynMatch`].
struct Match<'g, G: Game> {
    game: &'g G,
    state: G::State,
}

impl<G: Game> DynMatch for Match<'_, G> {
    fn awaiting(&self) -> Vec<usize> {
        self.game.awaiting(&self.state)
    }

    fn prompt(&self, player: usize) -> String {
        self.game.prompt(&self.state, player)
    }

    fn frame(&self, player: usize, lines: &[&str]) -> Frame {
        self.game.frame(&self.state, player, lines)
    }

    fn step(&mut self, replies: &[Reply]) -> Result<StepReport, StepError> {
        self.game.step(&mut self.state, replies)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }

    fn random_reply(&self, player: usize, rng: &mut dyn RngCore) -> String {
        self.game.random_reply(&self.state, player, rng)
    }

    fn state(&self) -> Value {
        to_value(&self.state)
    }

    fn fork(&self) -> Box<dyn DynMatch + '_> {
        Box::new(Match {
            game: self.game,
            state: self.state.clone(),
        })
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

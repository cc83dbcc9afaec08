//! The one seam every game implements, and its type-erased form for the harness.
//!
//! Everything outside the game crates works on text, as a contest engine does: it sends a *prompt* and
//! receives a *reply*. [`Game`] is typed (each game has its own `State` and match `Options`);
//! [`DynGame`] is the same game seen through JSON values, which is what the case runner, the
//! adapters and the CLI use so that none of them ever names a game.
//!
//! This module knows nothing above it: not the case format, not self-play, not the harness. It
//! uses only [`crate::text`] (positioned parse errors).

pub mod capability;
mod dynamic;
pub mod finite;
pub mod render;
mod variant;

use std::fmt::Debug;

use rand::RngCore;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::text::ParseError;

pub use crate::{capabilities, protocol_page, variants};
pub use capability::{
    Capabilities, DynEdgeCases, DynFacts, DynImporter, DynKnownDepartures, DynNormalize,
    DynReachability, DynRecorded, DynSeries, DynVariants, EdgeCases, EngineModel, Facts,
    FuzzTarget, FuzzTargets, Importer, KnownDepartures, Missing, Normalize, Observed,
    ObservedMatch, Reachability, Recorded, SeriesPlay, Variants,
};
#[cfg(feature = "schema")]
pub use dynamic::schemas_of;
pub use dynamic::{
    load_state, DynGame, DynMatch, MatchOptions, ObserveError, OptionsError, PairError, PlayError,
    Played, Schemas,
};
pub use render::{escape, DynRender, Marked, Render, Svg, Tag};
pub use variant::{Variant, VariantSet};

#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod count;

/// What the harness needs to know about a game without knowing its rules.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// Stable id used in case files, test names and on the command line.
    pub id: &'static str,
    pub title: &'static str,
    /// The rule document the reference engine is written from.
    pub document: RuleDocument,
    /// The game's protocol page, built into the crate: what a bot reads and prints, and when.
    /// `shinpan games GAME` prints it.
    pub protocol: ProtocolPage,
    pub players: usize,
    /// How many replies every step takes: `players` in most games; 1 in a game where players
    /// move in turn. Case files are checked against it before any state exists.
    pub replies_per_step: usize,
    /// The thinking-time limits of the rule document, which the bot checker and `play` apply:
    /// every game says what its document says (see [`TimeLimits`]).
    pub limits: TimeLimits,
    /// What a bot must print before it reads its first prompt; `None` when nothing.
    pub handshake: Option<Handshake>,
    /// The protocol texts [`Game::parse`] knows, for parse cases. The registry's tests check that
    /// every kind the game names elsewhere ([`Handshake::parse_kind`]) is one of these.
    pub parse_kinds: &'static [&'static str],
    /// What differential fuzzing should try on this game.
    pub fuzz: FuzzHints,
    /// What the game has beyond [`Game`], each capability implemented by the game itself
    /// (`recorded: Some(&MyGame)`, written with `capabilities!`). The harness asks this table,
    /// and tells the user when a capability is missing; it never calls a default that does
    /// nothing.
    #[serde(skip)]
    pub capabilities: Capabilities,
}

/// A protocol page: its path in the repository and its text, built in by `protocol_page!`
/// from the one path, so the two cannot differ.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ProtocolPage {
    /// From the repository's root: `docs/protocol/codevs4.md`.
    pub path: &'static str,
    pub text: &'static str,
}

/// The [`ProtocolPage`] at a path from the repository's root.
/// Called from a game's crate (`crates/shinpan-<game>`), two folders below the root.
#[macro_export]
macro_rules! protocol_page {
    ($path:literal) => {
        $crate::seam::ProtocolPage {
            path: $path,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../", $path)),
        }
    };
}

/// A rule document, named so that a reader can find it: the documents themselves are not part
/// of shinpan.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RuleDocument {
    /// Its own title (Japanese ones with a gloss).
    pub title: &'static str,
    /// Who published it and where it can be read today.
    pub source: &'static str,
}

/// Game-specific values that generic fuzzing (`shinpan diff`) tries, so that no table of one
/// game's thresholds lives in generic code.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct FuzzHints {
    /// Numbers worth setting a state's fields to: the ends of the document's ranges and its
    /// thresholds (both sides of each).
    pub numbers: &'static [i64],
    /// Replies worth trying besides the built-in player's legal ones: the game's short commands
    /// and near misses of its grammar.
    pub replies: &'static [&'static str],
}

/// One player's answer to a prompt, as the harness saw it.
///
/// Its serde form is the one of case files and of the adapter protocol: `{"text": "2 0",
/// "elapsed_ms": 150}`, `{"timed_out": true}` or `{"crashed": true}`; a bare string reads as a
/// text answered in no time.
#[derive(Debug, Clone, PartialEq, Eq)]
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

    /// The text of a reply that came and the thinking time it took; for one that did not, its
    /// verdict ([`ReplyVerdict::TimedOut`], [`ReplyVerdict::Crashed`]). What the missing reply
    /// costs (a clock emptied, a player out) is the game's to say.
    pub fn played(&self) -> Result<(&str, u64), ReplyVerdict> {
        match self {
            Reply::Text { text, elapsed_ms } => Ok((text, *elapsed_ms)),
            Reply::TimedOut => Err(ReplyVerdict::TimedOut),
            Reply::Crashed => Err(ReplyVerdict::Crashed),
        }
    }
}

impl Serialize for Reply {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        match self {
            Reply::Text { text, elapsed_ms } => {
                map.serialize_entry("text", text)?;
                map.serialize_entry("elapsed_ms", elapsed_ms)?;
            }
            Reply::TimedOut => map.serialize_entry("timed_out", &true)?,
            Reply::Crashed => map.serialize_entry("crashed", &true)?,
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Reply {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged, deny_unknown_fields)]
        enum Form {
            Bare(String),
            Text {
                text: String,
                #[serde(default)]
                elapsed_ms: u64,
            },
            TimedOut {
                timed_out: bool,
            },
            Crashed {
                crashed: bool,
            },
        }
        match Form::deserialize(deserializer).map_err(|_| {
            serde::de::Error::custom(
                "a reply is a string, {text, elapsed_ms}, {timed_out: true} or {crashed: true}",
            )
        })? {
            Form::Bare(text) => Ok(Reply::text(text)),
            Form::Text { text, elapsed_ms } => Ok(Reply::Text { text, elapsed_ms }),
            Form::TimedOut { timed_out: true } => Ok(Reply::TimedOut),
            Form::Crashed { crashed: true } => Ok(Reply::Crashed),
            Form::TimedOut { .. } | Form::Crashed { .. } => Err(serde::de::Error::custom(
                "`timed_out` and `crashed` can only be true",
            )),
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

impl Frame {
    /// `Complete` when the lines read make a whole reply, else `NeedMore`: the frame of a reply
    /// whose lines can always be completed.
    pub fn complete_if(whole: bool) -> Frame {
        if whole {
            Frame::Complete
        } else {
            Frame::NeedMore
        }
    }
}

/// How a match ended. `winner: None` is a draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    pub winner: Option<usize>,
    /// A short kebab-case reason defined by the game (`danger-line`, `invalid-reply`, ...).
    pub reason: String,
}

impl Outcome {
    /// A match ended with `winner` (`None`: a draw) for `reason`.
    pub fn new(winner: Option<usize>, reason: impl Into<String>) -> Outcome {
        Outcome {
            winner,
            reason: reason.into(),
        }
    }

    /// A match `player` won for `reason`.
    pub fn won_by(player: usize, reason: impl Into<String>) -> Outcome {
        Outcome::new(Some(player), reason)
    }

    /// A match drawn for `reason`.
    pub fn draw(reason: impl Into<String>) -> Outcome {
        Outcome::new(None, reason)
    }
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

impl ReplyVerdict {
    /// Every name [`ReplyVerdict::name`] gives, in declaration order.
    pub const NAMES: [&'static str; 5] =
        ["accepted", "non-strict", "rejected", "timed-out", "crashed"];

    /// The name cases (`last_replies`) and adapters use: `accepted`, `non-strict`, ...
    pub fn name(&self) -> &'static str {
        match self {
            ReplyVerdict::Accepted => "accepted",
            ReplyVerdict::NonStrict(_) => "non-strict",
            ReplyVerdict::Rejected(_) => "rejected",
            ReplyVerdict::TimedOut => "timed-out",
            ReplyVerdict::Crashed => "crashed",
        }
    }

    /// The verdict a name stands for (details left empty), `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<ReplyVerdict> {
        Some(match name {
            "accepted" => ReplyVerdict::Accepted,
            "non-strict" => ReplyVerdict::NonStrict(String::new()),
            "rejected" => ReplyVerdict::Rejected(String::new()),
            "timed-out" => ReplyVerdict::TimedOut,
            "crashed" => ReplyVerdict::Crashed,
            _ => return None,
        })
    }
}

/// What a step answers: what it did with each reply, or why it could not be played.
pub type StepResult = Result<StepReport, StepError>;

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

impl StepError {
    /// A step from turn `turn` of a game of `turns` turns (counted from 0): none past the last.
    pub fn unless_before_the_end(turn: u32, turns: u32) -> Result<(), StepError> {
        if turn < turns {
            Ok(())
        } else {
            Err(StepError::BadState(format!(
                "turn {turn} is past the last turn"
            )))
        }
    }
}

/// A canonical state that is not a state of the game: its shape (serde) or the relations between
/// its fields ([`Game::validate`]). `path` names the field (`players[1].skill_gauge`) when known,
/// so that a case file can point at its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", path.as_ref().map(|p| format!("{p}: ")).unwrap_or_default())]
pub struct StateError {
    pub path: Option<String>,
    pub message: String,
}

impl StateError {
    /// An error about the state as a whole.
    pub fn new(message: impl Into<String>) -> StateError {
        StateError {
            path: None,
            message: message.into(),
        }
    }

    /// An error about one field, named by its path (`players[1].skill_gauge`).
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> StateError {
        StateError {
            path: Some(path.into()),
            message: message.into(),
        }
    }
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

/// The match options of a game that has none: `{}` is the only value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct NoOptions {}

/// A game: its reference engine and its protocol. This is what every game must have to be
/// played and judged; what only some games have is a capability ([`capability`]), listed in
/// [`GameInfo::capabilities`].
pub trait Game: Send + Sync + 'static {
    /// The whole engine state; its serde form is the canonical state of cases and adapters.
    /// Floating-point fields use [`finite`], so that a non-finite number is an error, never a
    /// silent `null`.
    type State: GameState + Clone + Debug + PartialEq + Serialize + DeserializeOwned;

    /// What a match can be set up with besides its seed (CODE VS 4.0's stage, Spring Challenge's
    /// league): `--option key=value` on the command line, `options:` in a generator case. Each
    /// field is documented (the doc comment is what `shinpan games` shows) and has a default.
    /// Whatever the rules need of them later lives in the `State`, so that a state alone is
    /// enough to play the next step. [`NoOptions`] for a game without any.
    type Options: Clone + Debug + Default + Serialize + DeserializeOwned;

    /// What the harness needs to know of the game without knowing its rules.
    const INFO: &'static GameInfo;

    /// The JSON Schemas of the canonical state and of the options, each property documented:
    /// `schemas_of::<State, Options>()` where the game's crate is built with its `schema`
    /// feature, as `shinpan` builds it. `None` without: a bot playing turns needs no schema.
    fn json_schemas(&self) -> Option<Schemas> {
        None
    }

    /// A new match, every random choice derived from `seed`.
    fn new_match(&self, seed: u64, options: &Self::Options) -> Self::State;

    /// Checks what serde cannot: relations between fields. Cases and adapters call it on every
    /// state they are given. The state's own [`GameState::validate`].
    fn validate(&self, state: &Self::State) -> Result<(), StateError> {
        state.validate()
    }

    /// The players whose replies the next step needs (empty once the match is over): every
    /// player until then, in a game where all reply at once (`replies_per_step` is `players`).
    /// A game whose players move in turn names the one to move.
    fn awaiting(&self, state: &Self::State) -> Vec<usize> {
        match self.outcome(state) {
            Some(_) => Vec::new(),
            None => (0..Self::INFO.players).collect(),
        }
    }

    /// The exact bytes sent to `player` before its next reply.
    fn prompt(&self, state: &Self::State, player: usize) -> String;

    /// The prompt as another engine may print it for the same state: the same but for the
    /// freedoms the document leaves (CODE VS 4.0: the order of the resource cells), each taken
    /// at random from `rng`. The bot checker sends these, so that a bot relying on shinpan's own
    /// choices is caught. A document that leaves no freedom in the prompt has the one prompt,
    /// [`Game::prompt`].
    fn prompt_varied(&self, state: &Self::State, player: usize, rng: &mut dyn RngCore) -> String {
        let _ = rng;
        self.prompt(state, player)
    }

    /// Whether `lines` (without line breaks) make a whole reply of `player`.
    fn frame(&self, state: &Self::State, player: usize, lines: &[&str]) -> Frame;

    /// Plays one step with one reply per awaited player, in the order of [`Game::awaiting`].
    /// Called through [`checked_step`], which has already refused a finished match and a wrong
    /// number of replies: the game checks only what is its own.
    fn step(&self, state: &mut Self::State, replies: &[Reply]) -> StepResult;

    /// How the match ended, `None` while it goes on: the state's own [`GameState::outcome`].
    fn outcome(&self, state: &Self::State) -> Option<Outcome> {
        state.outcome()
    }

    /// Parses `input` as the protocol text `kind` (one of [`GameInfo::parse_kinds`]).
    /// `None` when the game has no such text.
    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict>;

    /// A legal reply chosen at random: the built-in player.
    fn random_reply(&self, state: &Self::State, player: usize, rng: &mut dyn RngCore) -> String;
}

/// What a game's state says of itself, which [`Game::validate`] and [`Game::outcome`] ask: a
/// state alone says whether its fields hold together and whether the match is over.
pub trait GameState {
    /// The relations between fields that serde cannot check.
    fn validate(&self) -> Result<(), StateError>;

    /// How the match ended; `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
}

/// [`Game::step`] behind the guards every game shares: a finished match takes no step, and a
/// step takes exactly one reply per awaited player. Every caller in the harness steps through
/// here; a refused step leaves the state as it was.
pub fn checked_step<G: Game>(game: &G, state: &mut G::State, replies: &[Reply]) -> StepResult {
    step_guard(game, state, replies)?;
    game.step(state, replies)
}

/// The guards of [`checked_step`], for a step played another way (a variant).
pub(crate) fn step_guard<G: Game>(
    game: &G,
    state: &G::State,
    replies: &[Reply],
) -> Result<(), StepError> {
    if game.outcome(state).is_some() {
        return Err(StepError::MatchOver);
    }
    let expected = game.awaiting(state).len();
    if replies.len() != expected {
        return Err(StepError::ReplyCount {
            expected,
            got: replies.len(),
        });
    }
    Ok(())
}

/// A step played the way a known engine departs from some clauses
/// ([`KnownDepartures::departures_played`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayedDeparture<S> {
    /// The clauses (ids in `rules.yaml`) this way of playing departs from.
    pub clauses: Vec<String>,
    /// The state it leaves.
    pub state: S,
    /// The state the same play leaves without this departure (the other departures of the
    /// engine still played), when the game plays several together: a field is this
    /// departure's only where `state` shows what the engine showed and `without` does not.
    pub without: Option<S>,
}

/// One exchange read from another tool's log ([`Importer::import`]), in the order of the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub player: usize,
    /// The prompt's bytes, every line ended by `\n`.
    pub prompt: String,
    /// The reply's lines joined by `\n`, without the last line break; `None` when the log ends
    /// before it.
    pub reply: Option<String>,
    /// On a player's last exchange, when the log says the engine ended the match there (its
    /// result), what it says: the log is then whole, not cut short.
    pub end: Option<String>,
}

/// What one prompt shows of a state.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation<S> {
    /// The known state with everything the prompt shows written over it.
    pub state: S,
    /// Paths in the canonical state (`players[1].score`, `tiles`) of the values the prompt
    /// shows in full: trace compares exactly these with its prediction.
    pub shown: Vec<String>,
    /// Shown paths no engine could predict from the earlier prompts (a fresh random draw, what
    /// fog hid before): trace takes them as shown without comparing.
    pub drawn: Vec<String>,
}

/// A contest's series of matches: every match is played in the same seats, with its own options.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// How the document ranks a series, in a sentence for the report.
    pub ranking: &'static str,
    pub matches: Vec<SeriesMatch>,
}

/// One match of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesMatch {
    /// `stage 30`.
    pub label: String,
    /// The match options, as `--option` would give them.
    pub options: serde_json::Map<String, Value>,
}

/// A contender's score from one match of a series: summed over the series, contenders rank by
/// `points`, then by `tiebreak`, higher first on both (a game whose document ranks fewer turns
/// first gives the turns negated).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeriesScore {
    pub points: i64,
    pub tiebreak: i64,
}

/// Thinking-time limits from a rule document. `None` is "the document sets no such limit".
/// Each game's `limits()` says which of these its document sets, and where.
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

impl TimeLimits {
    /// No limit at all: a game's limits list what its document sets over this.
    pub const NONE: TimeLimits = TimeLimits {
        handshake_ms: None,
        first_turn_ms: None,
        turn_ms: None,
        total_ms: None,
        pool_ms: None,
    };
}

/// The line a bot prints before any prompt (its name, in most games).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Handshake {
    /// Sent to the bot before it answers; empty when the bot speaks first.
    pub prompt: &'static str,
    /// The protocol text ([`GameInfo::parse_kinds`]) its one-line answer must parse as.
    pub parse_kind: &'static str,
}

impl Handshake {
    /// The bot prints its name first, before it reads anything; it parses as the protocol text
    /// `name`.
    pub const NAME_FIRST: Handshake = Handshake {
        prompt: "",
        parse_kind: "name",
    };
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_step_from_the_last_turn_is_taken_and_one_past_it_is_not() {
        assert_eq!(StepError::unless_before_the_end(999, 1000), Ok(()));
        assert_eq!(
            StepError::unless_before_the_end(1000, 1000),
            Err(StepError::BadState(
                "turn 1000 is past the last turn".into()
            ))
        );
    }

    #[test]
    fn replies_read_in_every_form_and_write_in_one() {
        let read = |s: &str| serde_json::from_str::<Reply>(s);
        assert_eq!(read(r#""2 0""#).unwrap(), Reply::text("2 0"));
        assert_eq!(
            read(r#"{"text": "2 0", "elapsed_ms": 7}"#).unwrap(),
            Reply::Text {
                text: "2 0".into(),
                elapsed_ms: 7
            }
        );
        assert_eq!(read(r#"{"timed_out": true}"#).unwrap(), Reply::TimedOut);
        assert_eq!(read(r#"{"crashed": true}"#).unwrap(), Reply::Crashed);
        assert!(read(r#"{"crashed": false}"#).is_err());
        assert!(read(r#"{"txt": "2 0"}"#).is_err());
        for reply in [Reply::text("S"), Reply::TimedOut, Reply::Crashed] {
            let text = serde_json::to_string(&reply).unwrap();
            assert_eq!(read(&text).unwrap(), reply, "{text}");
        }
    }

    #[test]
    fn a_reply_that_came_gives_its_text_and_time_and_one_that_did_not_its_verdict() {
        let came = Reply::Text {
            text: "2 0".into(),
            elapsed_ms: 7,
        };
        assert_eq!(came.played(), Ok(("2 0", 7)));
        assert_eq!(Reply::TimedOut.played(), Err(ReplyVerdict::TimedOut));
        assert_eq!(Reply::Crashed.played(), Err(ReplyVerdict::Crashed));
    }

    #[test]
    fn outcomes_are_won_or_drawn() {
        let won = Outcome::won_by(1, "danger-line");
        assert_eq!((won.winner, won.reason.as_str()), (Some(1), "danger-line"));
        assert_eq!(Outcome::draw("turn-limit").winner, None);
        assert_eq!(Outcome::new(None, "x"), Outcome::draw(String::from("x")));
    }

    #[test]
    fn verdict_names_round_trip() {
        for name in ReplyVerdict::NAMES {
            assert_eq!(ReplyVerdict::from_name(name).map(|v| v.name()), Some(name));
        }
        assert_eq!(ReplyVerdict::from_name("ok"), None);
    }

    pub(crate) use super::count::{Count, Total};

    #[test]
    fn the_step_guards_refuse_a_wrong_reply_count_and_a_finished_match_and_change_nothing() {
        let mut state = Total::default();
        for replies in [vec![], vec![Reply::text("1"), Reply::text("1")]] {
            let got = replies.len();
            assert_eq!(
                checked_step(&Count, &mut state, &replies),
                Err(StepError::ReplyCount { expected: 1, got })
            );
            assert_eq!(state, Total::default());
        }
        let report = checked_step(&Count, &mut state, &[Reply::text("2")]).unwrap();
        assert_eq!(report.replies, [ReplyVerdict::Accepted]);
        assert_eq!(state, Total { total: 2, turn: 1 });
        checked_step(&Count, &mut state, &[Reply::text("1")]).unwrap();
        let over = state.clone();
        assert_eq!(
            checked_step(&Count, &mut state, &[Reply::text("1")]),
            Err(StepError::MatchOver)
        );
        assert_eq!(state, over);
    }

    #[test]
    fn a_match_driven_through_the_dyn_seam_takes_the_same_guards() {
        let game: &dyn DynGame = &Count;
        let mut current = game.start(0, &MatchOptions::default()).unwrap();
        assert_eq!(
            current.step(&[]),
            Err(StepError::ReplyCount {
                expected: 1,
                got: 0
            })
        );
        let played = game
            .play(
                &serde_json::json!({"total": 2, "turn": 0}),
                &[vec![Reply::text("1")], vec![Reply::text("1")]],
            )
            .unwrap();
        assert_eq!(played.state, serde_json::json!({"total": 3, "turn": 1}));
        assert_eq!(played.unplayed_turns, 1);
        assert_eq!(played.prompts, ["3\n", "3\n"]);
        current.step(&[Reply::text("3")]).unwrap();
        assert_eq!(current.step(&[Reply::text("1")]), Err(StepError::MatchOver));
        assert!(game.info().capabilities.variants.is_none());
        // A game whose document leaves no freedom in its prompts varies nothing.
        let mut rng = crate::rng::seeded(1, 0);
        assert_eq!(current.prompt_varied(0, &mut rng), "3\n");
        assert_eq!(
            Count.prompt_varied(&Total::default(), 1, &mut rng),
            Count.prompt(&Total::default(), 1)
        );
        assert_eq!(
            load_state(game, &serde_json::json!({"total": 1, "turn": 4})),
            Ok(serde_json::json!({"total": 1, "turn": 4}))
        );
    }

    #[test]
    fn a_match_in_progress_answers_for_its_own_state() {
        let game: &dyn DynGame = &Count;
        let mut current = game.start(0, &MatchOptions::default()).unwrap();
        let mut rng = crate::rng::seeded(1, 0);
        assert_eq!(current.awaiting(), [0]);
        assert_eq!(current.outcome(), None);
        assert_eq!(current.random_reply(0, &mut rng), "1");
        current.step(&[Reply::text("1")]).unwrap();
        assert_eq!(current.awaiting(), [1]);
        current.step(&[Reply::text("2")]).unwrap();
        assert_eq!(current.awaiting(), Vec::<usize>::new());
        assert_eq!(current.outcome(), Some(Outcome::won_by(1, "three")));
    }

    #[test]
    fn a_step_refused_in_play_names_its_turn() {
        let game: &dyn DynGame = &Count;
        let start = serde_json::json!({"total": 0, "turn": 0});
        let refused = |turns: &[Vec<Reply>]| match game.play(&start, turns) {
            Err(PlayError::Step { turn, .. }) => turn,
            other => panic!("not a refused step: {other:?}"),
        };
        assert_eq!(refused(&[vec![]]), 1);
        assert_eq!(refused(&[vec![Reply::text("1")], vec![]]), 2);
    }

    #[test]
    fn options_and_states_are_read_as_the_game_types_them() {
        let game: &dyn DynGame = &Count;
        assert_eq!(
            game.check_options(&MatchOptions::default()),
            Ok(serde_json::json!({}))
        );
        let unknown = MatchOptions::from_pairs(&["stage=3".into()]).unwrap();
        assert_eq!(game.check_options(&unknown).unwrap_err().game, "count");
        // A shape error names its field; one of the whole state names none.
        let field = load_state(game, &serde_json::json!({"total": "two", "turn": 0}));
        assert_eq!(field.unwrap_err().path.as_deref(), Some("total"));
        let whole = load_state(game, &serde_json::json!(5));
        assert_eq!(whole.unwrap_err().path, None);
    }

    #[test]
    fn a_game_without_a_capability_says_what_its_absence_means() {
        let none = Capabilities::NONE;
        let mut value = serde_json::json!({"rows": [1, 2]});
        none.normalize_expectation(&mut value);
        assert_eq!(value, serde_json::json!({"rows": [1, 2]}));
        assert_eq!(none.reachable(&value), Ok(()));
        assert_eq!(
            Missing::new("count", "importer for \"x\"").to_string(),
            "count has no importer for \"x\""
        );
    }
}

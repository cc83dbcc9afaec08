//! The engine under test: what the case runner asks of any engine, in canonical JSON. The
//! reference engine ([`super::Reference`]), an adapter process (`harness::adapter`) and an engine
//! author's own Rust engine (through [`crate::Suite`]) are three implementations of one trait,
//! so pass, fail, unsupported and error mean the same for all of them.
//!
//! The requests are the adapter protocol's (`conformance/ADAPTERS.md`): `step`, `parse` and
//! `new_match`. Any of them may be answered [`Answered::Unsupported`] (the engine does not
//! model what the request needs; never a failure) or [`Answered::Error`] (it could not carry the
//! request out; the case is an error, not a failure).

use serde_json::Value;

use super::mask::Mask;
use crate::seam::{
    DynGame, DynVariants, MatchOptions, ParseVerdict, PlayError, Played, Reply, StateError,
};

/// An engine's answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Answered<T> {
    Done(T),
    /// The engine does not implement what the request needs (its reason).
    Unsupported(String),
    /// The engine could not carry the request out (what went wrong).
    Error(EngineError),
}

/// Why an engine could not carry a request out: the case is an error, not a failure. Its text
/// is the case's error in every report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The reference engine cannot play the case's input.
    #[error("the reference engine refused the case: {0}")]
    ReferenceRefused(#[source] PlayError),
    /// The variant of a [`Planted`] engine cannot play it.
    #[error("the variant refused the case: {0}")]
    VariantRefused(#[source] PlayError),
    /// The game has no parser of the protocol text the case names.
    #[error("the game has no `{0}` parser")]
    NoParser(String),
    /// A new match cannot be started (with the case's options).
    #[error(transparent)]
    NotStarted(PlayError),
    /// A new match's state cannot be written out.
    #[error(transparent)]
    NoState(StateError),
    /// An adapter answered the request with `{"error": ...}`: its message.
    #[error("the adapter says: {0}")]
    AdapterSays(String),
    /// An adapter's request failed, or its response broke the protocol: what went wrong.
    #[error("{0}")]
    Adapter(String),
    /// Any other engine's own account of what went wrong (an engine in process, through
    /// [`crate::Suite`]).
    #[error("{0}")]
    Other(String),
}

/// `step`: play `turns` (one reply per awaited player each) from `state`.
#[derive(Clone, Copy)]
pub struct StepRequest<'a> {
    /// A name for the request, unique in a run (the case name): for logs and adapters.
    pub id: &'a str,
    pub game: &'a dyn DynGame,
    pub state: &'a Value,
    pub turns: &'a [Vec<Reply>],
    /// False when the case says its `state` cannot occur in play (`reachable: false`: the
    /// document's own example gives it). An engine may answer such a request `unsupported`
    /// without blame.
    pub reachable: bool,
}

/// What an engine made of a step request.
#[derive(Debug, Clone, PartialEq)]
pub struct StepResponse {
    /// The canonical state after the last turn played.
    pub state: Value,
    /// The prompt each player would receive next; `None` from an engine that renders none.
    pub prompts: Option<Vec<String>>,
    /// How the last turn played took each reply (`accepted`, `non-strict`, ...); empty when no
    /// turn was played.
    pub last_replies: Vec<String>,
    /// Turns played before the match ended (all of them, usually).
    pub turns_played: usize,
}

impl From<Played> for StepResponse {
    /// What the reference engine answers for what it played.
    fn from(played: Played) -> StepResponse {
        StepResponse {
            turns_played: played.reports.len(),
            last_replies: played
                .reports
                .last()
                .map(|r| r.replies.iter().map(|v| v.name().to_string()).collect())
                .unwrap_or_default(),
            prompts: Some(played.prompts),
            state: played.state,
        }
    }
}

/// `parse`: read `input` as the protocol text `kind`.
#[derive(Clone, Copy)]
pub struct ParseRequest<'a> {
    pub id: &'a str,
    pub game: &'a dyn DynGame,
    pub kind: &'a str,
    pub input: &'a str,
}

/// `new_match`: the canonical state of a new match.
#[derive(Clone, Copy)]
pub struct NewMatchRequest<'a> {
    pub id: &'a str,
    pub game: &'a dyn DynGame,
    pub seed: u64,
    pub options: &'a MatchOptions,
}

/// What an engine's requests have come to ([`EngineUnderTest::requests`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Requests {
    /// How many it was asked.
    pub asked: u64,
    /// When the last of them failed: how (a few words, the same for failures of one kind: `no
    /// response in time`), and the number of the first (from 0) of those that failed so, one
    /// after another, up to the last.
    pub failing: Option<(&'static str, u64)>,
}

/// An engine the case runner can ask. Every method has the meaning of the adapter protocol's
/// request of the same name.
pub trait EngineUnderTest {
    /// A name for reports: `reference`, an adapter's command, an author's engine name.
    fn name(&self) -> String;

    /// Whether the engine implements the game at all; cases of other games are unsupported.
    fn supports(&self, game: &str) -> bool {
        let _ = game;
        true
    }

    /// What the engine does not model of `game` (a game id): state fields, the prompts,
    /// protocol texts. The runner leaves them out of every comparison and names them in the
    /// report (see [`Mask`]). Nothing, by default.
    fn unmodelled(&self, game: &str) -> Mask {
        let _ = game;
        Mask::default()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse>;

    /// The parse verdict. A position the engine does not know is line 0, column 0.
    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict>;

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value>;

    /// Why the engine is not worth asking any more, if it is not: the runner then stops and
    /// says so instead of waiting out every remaining case.
    fn gave_up(&self) -> Option<String> {
        None
    }

    /// The requests asked so far, and the failures in a row they end with: the runner counts
    /// them over the cases in library order, to give up on an engine that fails every request
    /// after the same cases whatever `--jobs` ([`crate::run::GIVE_UP_AFTER`]). Nothing failed,
    /// by default.
    fn requests(&self) -> Requests {
        Requests::default()
    }

    /// Ends the engine (an adapter stops its process) and says anything the run's report should
    /// mention about it (an adapter that had to be restarted, processes it left running);
    /// `None` when there is nothing to say.
    fn finish(&mut self) -> Option<String> {
        None
    }
}

/// The built-in reference engines, through the same trait.
#[derive(Debug, Clone, Copy, Default)]
pub struct Reference;

impl EngineUnderTest for Reference {
    fn name(&self) -> String {
        "reference".into()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        match request.game.play(request.state, request.turns) {
            Ok(played) => Answered::Done(played.into()),
            Err(e) => Answered::Error(EngineError::ReferenceRefused(e)),
        }
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        match request.game.parse(request.kind, request.input) {
            Some(verdict) => Answered::Done(verdict),
            None => Answered::Error(EngineError::NoParser(request.kind.to_string())),
        }
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        let new = request.game.start(request.seed, request.options);
        match new.map(|new| new.state()) {
            Ok(Ok(state)) => Answered::Done(state),
            Ok(Err(e)) => Answered::Error(EngineError::NoState(e)),
            Err(e) => Answered::Error(EngineError::NotStarted(e)),
        }
    }
}

/// The reference engine with one of a game's variants switched on ([`crate::seam::Variants`],
/// by name): an engine with one planted departure, in process. Games without a variant of
/// that name are unsupported.
#[derive(Debug, Clone)]
pub struct Planted {
    /// The variant's name (`chain-score-rounded`).
    pub variant: String,
}

impl Planted {
    fn index(&self, game: &dyn DynGame) -> Option<(&'static dyn DynVariants, usize)> {
        let playable = game.info().capabilities.variants?;
        let index = playable
            .variants()
            .iter()
            .position(|v| v.name == self.variant)?;
        Some((playable, index))
    }
}

impl EngineUnderTest for Planted {
    fn name(&self) -> String {
        format!("reference with the variant {}", self.variant)
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        let Some((playable, variant)) = self.index(request.game) else {
            return Answered::Unsupported(format!("no variant `{}`", self.variant));
        };
        match playable.play_variant(request.state, request.turns, &[variant]) {
            Ok(played) => Answered::Done(played.into()),
            Err(e) => Answered::Error(EngineError::VariantRefused(e)),
        }
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

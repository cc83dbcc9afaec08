//! What only some games have: each capability is a trait the game implements (typed, over its
//! own state) and lists in [`GameInfo::capabilities`](crate::seam::GameInfo::capabilities); its `Dyn` form is the same seen through JSON
//! values, which is what the harness asks. A game without a capability leaves it `None`, and
//! the harness says so to the user ([`Missing`]) instead of calling a default that does nothing.
//!
//! | capability | what | games |
//! |---|---|---|
//! | [`Recorded`] | reading prompts back into states, for `trace` | all five |
//! | [`KnownDepartures`] | a known engine modelled from a match's first step, with what it keeps and never shows | TSG (main.rb's departures show only over many steps) |
//! | [`Importer`] | another tool's log format, for `trace --import` | TSG (main.rb's output is the one foreign log known) |
//! | [`Variants`] | the rules played wrong on purpose, to name a departure | all five |
//! | [`SeriesPlay`] | the document's series of matches, for `play --series` | CODE VS 4.0 (the only document with one) |
//! | [`Reachability`] | which valid states play can reach, for `diff` and cases | CODE VS Reborn (the only game whose states the generator can tell apart cheaply) |
//! | [`Normalize`] | one spelling of values that have several | CODE VS 4.0, CODE VS Reborn |
//! | [`EdgeCases`] | prompts at the document's extremes, for the bot checker | all five |
//! | [`Facts`] | facts a generator case checks of a new match | all five |
//! | [`FuzzTargets`] | the bodies of the fuzz targets | all five |
//! | [`Render`](super::Render) | a state drawn as a board, for the HTML report (`render.rs`) | all five |

use serde_json::{Map, Value};

use super::dynamic::{canonical, play_with, recorded_state, typed_options, typed_state, Match};
use super::{
    step_guard, DynMatch, EdgeCase, Game, Imported, MatchOptions, Observation, ObserveError,
    PlayError, Played, PlayedDeparture, Reply, Series, SeriesScore, StateError, StepResult,
    Variant, VariantSet,
};
use crate::text::ParseError;

/// The capabilities a game has, each `Some(&TheGame)` when it implements the trait.
#[derive(Clone, Copy)]
pub struct Capabilities {
    pub recorded: Option<&'static dyn DynRecorded>,
    pub known_departures: Option<&'static dyn DynKnownDepartures>,
    pub importer: Option<&'static dyn DynImporter>,
    pub variants: Option<&'static dyn DynVariants>,
    pub series: Option<&'static dyn DynSeries>,
    pub reachability: Option<&'static dyn DynReachability>,
    pub normalize: Option<&'static dyn DynNormalize>,
    pub edge_cases: Option<&'static dyn DynEdgeCases>,
    pub facts: Option<&'static dyn DynFacts>,
    pub render: Option<&'static dyn super::DynRender>,
    pub fuzz: Option<&'static FuzzTargets>,
}

/// A game's [`Capabilities`]: the capability traits the game's type implements, by their field
/// names, and its fuzz bodies. `capabilities!(Nim: recorded, facts; fuzz: TARGETS)` is
/// `Capabilities { recorded: Some(&Nim), facts: Some(&Nim), fuzz: Some(&TARGETS), ..NONE }`
/// where the game's crate is built with its feature `fuzz`, and `fuzz: None` without (then
/// `TARGETS` need not exist).
#[macro_export]
macro_rules! capabilities {
    ($game:ident: $($capability:ident),*; fuzz: $fuzz:path) => {
        $crate::seam::Capabilities {
            $($capability: Some(&$game),)*
            fuzz: {
                #[cfg(feature = "fuzz")]
                let fuzz = Some(&$fuzz);
                #[cfg(not(feature = "fuzz"))]
                let fuzz = None;
                fuzz
            },
            ..$crate::seam::Capabilities::NONE
        }
    };
}

impl std::fmt::Debug for Capabilities {
    /// The names of the capabilities the game has: `Capabilities [recorded, facts, fuzz]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let has = [
            ("recorded", self.recorded.is_some()),
            ("known_departures", self.known_departures.is_some()),
            ("importer", self.importer.is_some()),
            ("variants", self.variants.is_some()),
            ("series", self.series.is_some()),
            ("reachability", self.reachability.is_some()),
            ("normalize", self.normalize.is_some()),
            ("edge_cases", self.edge_cases.is_some()),
            ("facts", self.facts.is_some()),
            ("render", self.render.is_some()),
            ("fuzz", self.fuzz.is_some()),
        ];
        let names = has.iter().filter(|(_, has)| *has).map(|(name, _)| name);
        f.debug_list().entries(names).finish()?;
        Ok(())
    }
}

impl Capabilities {
    /// No capability: what a game has is listed over this (`..Capabilities::NONE`, as
    /// `capabilities!` writes it).
    pub const NONE: Capabilities = Capabilities {
        recorded: None,
        known_departures: None,
        importer: None,
        variants: None,
        series: None,
        reachability: None,
        normalize: None,
        edge_cases: None,
        facts: None,
        render: None,
        fuzz: None,
    };

    /// [`Normalize`] of `value` when the game has it: a game without it has one spelling per
    /// value, and `value` stays as it is.
    pub fn normalize_expectation(&self, value: &mut Value) {
        if let Some(normalize) = self.normalize {
            normalize.normalize_expectation(value);
        }
    }

    /// [`Reachability`] of a state already loaded, when the game has it: a game without it
    /// takes every valid state as reachable.
    pub fn reachable(&self, state: &Value) -> Result<(), StateError> {
        self.reachability
            .map_or(Ok(()), |reachability| reachability.reachable(state))
    }
}

/// A capability the user asked for that the game does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no {what}")]
pub struct Missing {
    pub game: &'static str,
    /// What is missing, said so that the sentence reads: "an importer for `foo` (known: none)".
    pub what: String,
}

impl Missing {
    pub fn new(game: &'static str, what: impl Into<String>) -> Missing {
        Missing {
            game,
            what: what.into(),
        }
    }
}

/// What a game's [`Recorded::observe`] gives: the state a prompt shows, or where the prompt
/// breaks its grammar.
pub type Observed<S> = Result<Observation<S>, ParseError>;

/// Reading prompts back into the states they show, for `shinpan trace`.
pub trait Recorded: Game {
    /// The values `prompt` (sent to `player`) shows, written over `known` (the state trace
    /// predicted; the game's default when `None`). See [`Observation`].
    fn observe(
        &self,
        prompt: &str,
        player: usize,
        known: Option<&Self::State>,
    ) -> Observed<Self::State>;

    /// What a state a recorded engine showed must satisfy for the reference to play on from
    /// it. A lax engine makes states the rules forbid (an id used twice, two units on one
    /// cell); trace reports the step, then holds such a state as data and goes on. A game whose
    /// engine steps such states safely checks only what its engine needs; the rest check
    /// [`Game::validate`].
    fn validate_recorded(&self, state: &Self::State) -> Result<(), StateError> {
        self.validate(state)
    }

    /// Writes into a state read back from the first prompts what the match `options` set and
    /// no prompt shows (Spring Challenge's league), for a log whose `start` record, or the
    /// command line, names the options. Most games' prompts show everything their options set.
    fn set_up_observed(&self, state: &mut Self::State, options: &Self::Options) {
        let _ = (state, options);
    }
}

/// An engine known to depart from the rules, modelled as it plays: so that `trace` can name the
/// rule a recorded engine broke by playing its departure. The model carries what the engine
/// keeps and never shows (TSG's main.rb: the dead and the consumed on its grid) from the
/// match's first step to its last, one step at a time.
pub trait KnownDepartures: Game {
    /// The engine's own record of a match: what its prompts show and what they do not.
    type Model: Clone + Send + 'static;

    /// The engine's set-up, played against the rules' before the first step: the state it
    /// starts a match in, with the clauses it departs from there.
    fn set_up_played(&self) -> Vec<PlayedDeparture<Self::State>>;

    /// The model of a match whose prompts first showed `shown` (the match's first step, or a
    /// later one where a log starts late): what they do not show is taken as the engine
    /// would have it had it played that state from the start.
    fn model_from(&self, shown: &Self::State) -> Self::Model;

    /// Where `shown`, the first state a log shows, is not the start of a match (a tap attached
    /// late): what the model cannot know of the steps before, said in a line for the report.
    fn starts_late(&self, shown: &Self::State) -> Option<String>;

    /// Plays one step of `replies` on the model, then takes what the next prompts showed
    /// (`shown`): what they show is taken from them, what they do not is the model's.
    fn advance(&self, model: &mut Self::Model, replies: &[Reply], shown: &Self::State);

    /// For each known departure the game can play (recorded as `departures:` on its clauses in
    /// `rules.yaml`), the state the step of `replies` leaves when played that way from
    /// `model` (the engine's record at the start of that step), with the clauses it departs
    /// from, and the state the same step leaves without that departure.
    fn departures_played(
        &self,
        model: &Self::Model,
        replies: &[Reply],
    ) -> Vec<PlayedDeparture<Self::State>>;

    /// The clauses the engine's ways depart from, each once.
    fn clauses(&self) -> Vec<&'static str>;

    /// The step of `replies` from `model` played without every way that departs from one of
    /// `clauses` (and without what those ways left behind), the engine's other ways kept: to
    /// find which ways together give a field no single way or pair does.
    fn played_without(
        &self,
        model: &Self::Model,
        replies: &[Reply],
        clauses: &[&str],
    ) -> Self::State;

    /// Why the engine itself fails on the step of `replies` from `model` (a crash of its own,
    /// no rule of the game), if it does.
    fn engine_fails(&self, model: &Self::Model, replies: &[Reply]) -> Option<String>;
}

/// Logs that other tools write of a match, for `trace --import`.
pub trait Importer: Game {
    /// The formats known (`main-rb`), each named after the tool whose log it is.
    const FORMATS: &'static [&'static str];

    /// Reads `log`, written in `format` (one of [`Importer::FORMATS`]), into the exchanges
    /// trace checks.
    fn import(&self, format: &str, log: &str) -> Result<Vec<Imported>, ParseError>;
}

/// The ways this game can play one of its clauses wrong ([`Variant`]): the planted bugs of
/// `conformance/planted/` and the known departures of real engines, made playable, so that
/// `check`, `diff` and `trace` name a departure by the variant that reproduces it.
pub trait Variants: Game {
    /// In catalogue order (a tie between two variants goes to the first); an index here is a
    /// variant's place in a [`VariantSet`].
    const VARIANTS: &'static [Variant];

    /// [`Game::step`] with the variants of `set` switched on together (the guards of
    /// [`super::checked_step`] already passed). Never called by the reference: only to name a
    /// departure.
    fn step_variant(
        &self,
        state: &mut Self::State,
        replies: &[Reply],
        set: VariantSet,
    ) -> StepResult;

    /// [`Game::prompt`] with the variants of `set` switched on. Only a game with a variant of
    /// what a prompt shows (the fog) prints another prompt.
    fn prompt_variant(&self, state: &Self::State, player: usize, set: VariantSet) -> String {
        let _ = set;
        self.prompt(state, player)
    }
}

/// The fixed series of matches the document ranks players over (CODE VS 4.0's 41 stages), for
/// `shinpan play --series`.
pub trait SeriesPlay: Game {
    fn series(&self) -> Series;

    /// What a finished match of the series hands to the next one, as match options laid over
    /// the next match's own (CODE VS 4.0: each player's thinking time left). Seats are fixed in
    /// a series, so a player here is the same contender there.
    fn carry(&self, finished: &Self::State) -> Map<String, Value>;

    /// What a finished match of the series is worth to `player`, by the document's ranking.
    fn score(&self, finished: &Self::State, player: usize) -> SeriesScore;
}

/// Whether a valid state can occur in play: reached from some new match by some replies, as far
/// as the game can tell cheaply (no pair that should have vanished, no pack the generator never
/// makes, ...). Differential fuzzing tries only states it accepts, and a case that gives a state
/// it refuses must say `reachable: false`. A game without it takes every valid state as
/// reachable.
pub trait Reachability: Game {
    fn reachable(&self, state: &Self::State) -> Result<(), StateError>;
}

/// Brings values into the canonical state's form where one value has several spellings (a field
/// grid written with or without its empty top rows; a list in no fixed order), so that `given`
/// and `then` accept the same forms and an engine's spelling is not taken for a difference.
/// Called on a case's `then` when the library loads, on every engine's result (the state with
/// `prompts` beside it) before it is compared, and by `trace` on `{"prompts": [..]}`; it must
/// leave a value already in that form as it is. A game without it has one spelling per value.
pub trait Normalize: Game {
    fn normalize_expectation(&self, expected: &mut Value);
}

/// Valid prompts at the extremes of what the document allows, for the bot checker.
pub trait EdgeCases: Game {
    fn edge_cases(&self) -> Vec<EdgeCase<Self::State>>;
}

/// Facts about a state that its canonical form shows only indirectly (counts, totals), for
/// generator cases that check what every new match must satisfy.
pub trait Facts: Game {
    fn facts(&self, state: &Self::State) -> Value;
}

/// The bodies of a game's fuzz targets, each taking any bytes and panicking only on a broken
/// property. They live in the game's folder, so that `cargo test` runs the same checks; the
/// fuzz crate's three targets (`prompt`, `reply`, `step`) reach them through the registry
/// (`crate::stepfuzz::run`).
#[derive(Debug, Clone, Copy)]
pub struct FuzzTargets {
    /// Any bytes through the prompt parsers.
    pub prompt: fn(&[u8]),
    /// Any bytes through the reply (and name) parsers.
    pub reply: fn(&[u8]),
    /// An arbitrary state and arbitrary replies through a few steps.
    pub step: fn(&[u8]),
}

/// The three fuzz targets of `fuzz/`, one per kind of body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FuzzTarget {
    Prompt,
    Reply,
    Step,
}

impl FuzzTargets {
    /// A game's bodies, one for each target.
    pub const fn new(prompt: fn(&[u8]), reply: fn(&[u8]), step: fn(&[u8])) -> FuzzTargets {
        FuzzTargets {
            prompt,
            reply,
            step,
        }
    }

    /// The body of `target`.
    pub fn body(&self, target: FuzzTarget) -> fn(&[u8]) {
        match target {
            FuzzTarget::Prompt => self.prompt,
            FuzzTarget::Reply => self.reply,
            FuzzTarget::Step => self.step,
        }
    }
}

/// What a prompt shows, read over canonical states: the observation, and a match resumed on
/// the state it shows (so that a caller playing on from it does not read that state again).
pub struct ObservedMatch<'g> {
    pub observation: Observation<Value>,
    /// A match on `observation.state`, as [`DynRecorded::resume_recorded`] gives it.
    pub resumed: Result<Box<dyn DynMatch + 'g>, StateError>,
}

/// [`Recorded`] over canonical states.
pub trait DynRecorded: Sync {
    fn observe(
        &self,
        prompt: &str,
        player: usize,
        known: Option<&Value>,
    ) -> Result<ObservedMatch<'_>, ObserveError>;
    /// A match to drive on from a state a recorded engine showed, checked only by
    /// [`Recorded::validate_recorded`].
    fn resume_recorded(&self, state: &Value) -> Result<Box<dyn DynMatch + '_>, StateError>;
    /// `state` with what `options` set and prompts do not show.
    fn set_up_observed(&self, state: &Value, options: &MatchOptions) -> Result<Value, PlayError>;
}

impl<G: Recorded> DynRecorded for G {
    fn observe(
        &self,
        prompt: &str,
        player: usize,
        known: Option<&Value>,
    ) -> Result<ObservedMatch<'_>, ObserveError> {
        let known = known.map(|k| recorded_state(self, k)).transpose()?;
        let observed = Recorded::observe(self, prompt, player, known.as_ref())?;
        let observation = Observation {
            state: canonical(&observed.state)?,
            shown: observed.shown,
            drawn: observed.drawn,
        };
        let resumed = self.validate_recorded(&observed.state).map(|()| {
            Box::new(Match {
                game: self,
                state: observed.state,
            }) as Box<dyn DynMatch>
        });
        Ok(ObservedMatch {
            observation,
            resumed,
        })
    }

    fn resume_recorded(&self, state: &Value) -> Result<Box<dyn DynMatch + '_>, StateError> {
        Ok(Box::new(Match {
            game: self,
            state: recorded_state(self, state)?,
        }))
    }

    fn set_up_observed(&self, state: &Value, options: &MatchOptions) -> Result<Value, PlayError> {
        let options = typed_options::<G>(options)?;
        let mut typed = recorded_state(self, state)?;
        Recorded::set_up_observed(self, &mut typed, &options);
        Ok(canonical(&typed)?)
    }
}

/// A [`KnownDepartures::Model`] behind the seam: only the game that made it reads it.
pub struct EngineModel(Box<dyn std::any::Any + Send>);

/// [`KnownDepartures`] over canonical states; a state the game cannot read gives none, and one
/// it cannot write is left out.
pub trait DynKnownDepartures: Sync {
    fn set_up_played(&self) -> Vec<PlayedDeparture<Value>>;
    /// `None` when the game cannot read `shown`.
    fn model_from(&self, shown: &Value) -> Option<EngineModel>;
    /// [`KnownDepartures::starts_late`]; `None` too when the game cannot read `shown`.
    fn starts_late(&self, shown: &Value) -> Option<String>;
    /// A `shown` the game cannot read leaves the model played but not brought up to date.
    fn advance(&self, model: &mut EngineModel, replies: &[Reply], shown: &Value);
    fn departures_played(
        &self,
        model: &EngineModel,
        replies: &[Reply],
    ) -> Vec<PlayedDeparture<Value>>;
    fn clauses(&self) -> Vec<&'static str>;
    /// `None` when the state cannot be written.
    fn played_without(
        &self,
        model: &EngineModel,
        replies: &[Reply],
        clauses: &[&str],
    ) -> Option<Value>;
    fn engine_fails(&self, model: &EngineModel, replies: &[Reply]) -> Option<String>;
}

impl<G: KnownDepartures + Recorded> DynKnownDepartures for G {
    fn set_up_played(&self) -> Vec<PlayedDeparture<Value>> {
        canonical_played(KnownDepartures::set_up_played(self))
    }

    fn model_from(&self, shown: &Value) -> Option<EngineModel> {
        let shown = recorded_state(self, shown).ok()?;
        Some(EngineModel(Box::new(KnownDepartures::model_from(
            self, &shown,
        ))))
    }

    fn starts_late(&self, shown: &Value) -> Option<String> {
        KnownDepartures::starts_late(self, &recorded_state(self, shown).ok()?)
    }

    fn advance(&self, model: &mut EngineModel, replies: &[Reply], shown: &Value) {
        let Some(model) = model.0.downcast_mut::<G::Model>() else {
            return;
        };
        if let Ok(shown) = recorded_state(self, shown) {
            KnownDepartures::advance(self, model, replies, &shown);
        }
    }

    fn departures_played(
        &self,
        model: &EngineModel,
        replies: &[Reply],
    ) -> Vec<PlayedDeparture<Value>> {
        match model.0.downcast_ref::<G::Model>() {
            Some(model) => {
                canonical_played(KnownDepartures::departures_played(self, model, replies))
            }
            None => Vec::new(),
        }
    }

    fn clauses(&self) -> Vec<&'static str> {
        KnownDepartures::clauses(self)
    }

    fn played_without(
        &self,
        model: &EngineModel,
        replies: &[Reply],
        clauses: &[&str],
    ) -> Option<Value> {
        let model = model.0.downcast_ref::<G::Model>()?;
        canonical(&KnownDepartures::played_without(
            self, model, replies, clauses,
        ))
        .ok()
    }

    fn engine_fails(&self, model: &EngineModel, replies: &[Reply]) -> Option<String> {
        let model = model.0.downcast_ref::<G::Model>()?;
        KnownDepartures::engine_fails(self, model, replies)
    }
}

/// Played departures in canonical form; one whose state cannot be written is left out.
fn canonical_played<S: serde::Serialize>(
    played: Vec<PlayedDeparture<S>>,
) -> Vec<PlayedDeparture<Value>> {
    played
        .into_iter()
        .filter_map(|played| {
            Some(PlayedDeparture {
                clauses: played.clauses,
                state: canonical(&played.state).ok()?,
                without: match &played.without {
                    Some(without) => Some(canonical(without).ok()?),
                    None => None,
                },
            })
        })
        .collect()
}

/// [`Importer`], with its formats.
pub trait DynImporter: Sync {
    fn formats(&self) -> &'static [&'static str];
    /// [`Importer::import`]; `format` is one of [`DynImporter::formats`].
    fn import(&self, format: &str, log: &str) -> Result<Vec<Imported>, ParseError>;
}

impl<G: Importer> DynImporter for G {
    fn formats(&self) -> &'static [&'static str] {
        G::FORMATS
    }

    fn import(&self, format: &str, log: &str) -> Result<Vec<Imported>, ParseError> {
        Importer::import(self, format, log)
    }
}

/// [`Variants`] over canonical states.
pub trait DynVariants: Sync {
    fn variants(&self) -> &'static [Variant];
    /// Plays `turns` from `state` as [`super::DynGame::play`] does, with the variants at
    /// `indices` (into [`DynVariants::variants`]) switched on together, prompts included.
    fn play_variant(
        &self,
        state: &Value,
        turns: &[Vec<Reply>],
        indices: &[usize],
    ) -> Result<Played, PlayError>;
}

impl<G: Variants> DynVariants for G {
    fn variants(&self) -> &'static [Variant] {
        G::VARIANTS
    }

    fn play_variant(
        &self,
        state: &Value,
        turns: &[Vec<Reply>],
        indices: &[usize],
    ) -> Result<Played, PlayError> {
        let set = VariantSet::of(indices);
        play_with(
            self,
            state,
            turns,
            |state, replies| {
                step_guard(self, state, replies)?;
                self.step_variant(state, replies, set)
            },
            |state, player| self.prompt_variant(state, player, set),
        )
    }
}

/// [`SeriesPlay`] over canonical states.
pub trait DynSeries: Sync {
    fn series(&self) -> Series;
    /// [`SeriesPlay::carry`] of a finished match: options for the next one.
    fn carry(&self, finished: &Value) -> Result<MatchOptions, StateError>;
    /// [`SeriesPlay::score`] of a finished match for `player`.
    fn score(&self, finished: &Value, player: usize) -> Result<SeriesScore, StateError>;
}

impl<G: SeriesPlay> DynSeries for G {
    fn series(&self) -> Series {
        SeriesPlay::series(self)
    }

    fn carry(&self, finished: &Value) -> Result<MatchOptions, StateError> {
        Ok(MatchOptions(SeriesPlay::carry(
            self,
            &typed_state(self, finished)?,
        )))
    }

    fn score(&self, finished: &Value, player: usize) -> Result<SeriesScore, StateError> {
        Ok(SeriesPlay::score(
            self,
            &typed_state(self, finished)?,
            player,
        ))
    }
}

/// [`Reachability`] of a canonical state (loaded and validated first).
pub trait DynReachability: Sync {
    fn reachable(&self, state: &Value) -> Result<(), StateError>;
}

impl<G: Reachability> DynReachability for G {
    fn reachable(&self, state: &Value) -> Result<(), StateError> {
        Reachability::reachable(self, &typed_state(self, state)?)
    }
}

/// [`Normalize`]; the same over values.
pub trait DynNormalize: Sync {
    fn normalize_expectation(&self, expected: &mut Value);
}

impl<G: Normalize> DynNormalize for G {
    fn normalize_expectation(&self, expected: &mut Value) {
        Normalize::normalize_expectation(self, expected)
    }
}

/// [`EdgeCases`], each state ready to drive.
pub trait DynEdgeCases: Sync {
    fn edge_cases(&self) -> Vec<EdgeCase<Box<dyn DynMatch + '_>>>;
}

impl<G: EdgeCases> DynEdgeCases for G {
    fn edge_cases(&self) -> Vec<EdgeCase<Box<dyn DynMatch + '_>>> {
        EdgeCases::edge_cases(self)
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
}

/// [`Facts`] of a canonical state, loaded and validated first: the loaded state's canonical
/// form (every default written out) and its facts, from one reading of the state.
pub trait DynFacts: Sync {
    fn loaded_with_facts(&self, state: &Value) -> Result<(Value, Value), StateError>;
}

impl<G: Facts> DynFacts for G {
    fn loaded_with_facts(&self, state: &Value) -> Result<(Value, Value), StateError> {
        let typed = typed_state(self, state)?;
        Ok((canonical(&typed)?, Facts::facts(self, &typed)))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::seam::count::{Count, Total};
    use crate::seam::{DynGame, StepError};

    // Count lists none of these capabilities in its `capabilities` (the seam's own tests see a
    // game without any); here each is called through its `Dyn` form directly. Count takes no
    // options, so what its series hands on is for these tests only.

    /// What a game's capabilities show in a debug print: the names of those it has.
    #[test]
    fn capabilities_print_the_names_of_those_the_game_has() {
        assert_eq!(format!("{:?}", Capabilities::NONE), "[]");
        let some = Capabilities {
            recorded: Some(&Count),
            series: Some(&Count),
            ..Capabilities::NONE
        };
        assert_eq!(format!("{some:?}"), r#"["recorded", "series"]"#);
    }

    impl Recorded for Count {
        fn observe(
            &self,
            prompt: &str,
            _: usize,
            known: Option<&Total>,
        ) -> Result<Observation<Total>, ParseError> {
            let total = prompt
                .trim_end()
                .parse()
                .map_err(|_| ParseError::new(1, 1, "a total", prompt))?;
            let turn = known.map_or(0, |k| k.turn);
            Ok(Observation {
                state: Total { total, turn },
                shown: vec!["total".into()],
                drawn: Vec::new(),
            })
        }
    }

    crate::seam::variants! {
        enum Wrong {
            Doubled = ("doubled", "count.add", "a reply counts twice"),
        }
    }

    impl Variants for Count {
        const VARIANTS: &'static [Variant] = Wrong::VARIANTS;

        fn step_variant(
            &self,
            state: &mut Total,
            replies: &[Reply],
            set: VariantSet,
        ) -> StepResult {
            let before = state.total;
            let report = Game::step(self, state, replies)?;
            if set.has(Wrong::Doubled) {
                state.total += state.total - before;
            }
            Ok(report)
        }
    }

    impl Importer for Count {
        const FORMATS: &'static [&'static str] = &["count-log"];

        /// One reply a line, the players in turn.
        fn import(&self, _: &str, log: &str) -> Result<Vec<Imported>, ParseError> {
            Ok(log
                .lines()
                .enumerate()
                .map(|(i, reply)| Imported {
                    player: i % 2,
                    prompt: String::new(),
                    reply: Some(reply.into()),
                    end: None,
                })
                .collect())
        }
    }

    impl SeriesPlay for Count {
        fn series(&self) -> Series {
            Series {
                ranking: "by matches won",
                matches: Vec::new(),
            }
        }

        fn carry(&self, finished: &Total) -> Map<String, Value> {
            Map::from_iter([("handed_on".to_string(), json!(finished.total))])
        }

        fn score(&self, finished: &Total, player: usize) -> SeriesScore {
            let won = self
                .outcome(finished)
                .is_some_and(|o| o.winner == Some(player));
            SeriesScore {
                points: i64::from(won),
                tiebreak: -(finished.turn as i64),
            }
        }
    }

    impl EdgeCases for Count {
        fn edge_cases(&self) -> Vec<EdgeCase<Total>> {
            vec![EdgeCase {
                name: "one-short-of-three".into(),
                seat: 1,
                states: vec![Total { total: 2, turn: 1 }],
            }]
        }
    }

    /// Over before its first step: [`Game::validate`] refuses it.
    fn over_at_turn_0() -> Value {
        json!({"total": 3, "turn": 0})
    }

    #[test]
    fn a_recorded_state_is_checked_by_validate_unless_the_game_says_otherwise() {
        let refused = DynRecorded::resume_recorded(&Count, &over_at_turn_0()).err();
        assert_eq!(
            refused,
            Some(StateError::new(
                "a match cannot be over before its first step"
            ))
        );
        let observed =
            DynRecorded::observe(&Count, "2\n", 0, Some(&json!({"total": 0, "turn": 1})));
        let observed = observed.unwrap();
        assert_eq!(observed.observation.state, json!({"total": 2, "turn": 1}));
        // The match resumed on what the prompt showed holds that state; one the game refuses
        // (a match over before its first step) has none, as `resume_recorded` would give.
        let resumed = observed.resumed.unwrap();
        assert_eq!(resumed.state().unwrap(), json!({"total": 2, "turn": 1}));
        let refused = DynRecorded::observe(&Count, "3\n", 0, Some(&json!({"total": 0, "turn": 0})));
        assert_eq!(
            refused.unwrap().resumed.err(),
            Some(StateError::new(
                "a match cannot be over before its first step"
            ))
        );
        let set_up = DynRecorded::set_up_observed(
            &Count,
            &json!({"total": 2, "turn": 1}),
            &MatchOptions::default(),
        );
        assert_eq!(set_up, Ok(json!({"total": 2, "turn": 1})));
    }

    #[test]
    fn a_variant_steps_its_own_way_and_prompts_as_the_rules_do() {
        let start = json!({"total": 0, "turn": 0});
        let turns = [vec![Reply::text("1")]];
        assert_eq!(DynVariants::variants(&Count)[0].name, "doubled");
        let wrong = DynVariants::play_variant(&Count, &start, &turns, &[0]).unwrap();
        assert_eq!(wrong.state, json!({"total": 2, "turn": 1}));
        assert_eq!(wrong.prompts, ["2\n", "2\n"]);
        let right = DynVariants::play_variant(&Count, &start, &turns, &[]).unwrap();
        assert_eq!(right, DynGame::play(&Count, &start, &turns).unwrap());
        // The shared guards come before the variant's step: a wrong number of replies is refused.
        assert_eq!(
            DynVariants::play_variant(&Count, &start, &[vec![]], &[0]),
            Err(PlayError::Step {
                turn: 1,
                error: StepError::ReplyCount {
                    expected: 1,
                    got: 0
                }
            })
        );
    }

    #[test]
    fn an_importer_hands_over_every_exchange_it_read() {
        assert_eq!(DynImporter::formats(&Count), ["count-log"]);
        let read = DynImporter::import(&Count, "count-log", "1\n2\n").unwrap();
        let replies: Vec<_> = read
            .iter()
            .map(|e| (e.player, e.reply.as_deref()))
            .collect();
        assert_eq!(replies, [(0, Some("1")), (1, Some("2"))]);
    }

    #[test]
    fn a_series_carries_and_scores_the_finished_match_it_is_given() {
        let finished = json!({"total": 3, "turn": 2});
        assert_eq!(
            DynSeries::carry(&Count, &finished),
            Ok(MatchOptions(Map::from_iter([(
                "handed_on".to_string(),
                json!(3)
            )])))
        );
        assert_eq!(
            DynSeries::score(&Count, &finished, 1),
            Ok(SeriesScore {
                points: 1,
                tiebreak: -2
            })
        );
        assert!(DynSeries::carry(&Count, &over_at_turn_0()).is_err());
        assert!(DynSeries::score(&Count, &over_at_turn_0(), 1).is_err());
    }

    #[test]
    fn edge_cases_come_ready_to_drive() {
        let edges = DynEdgeCases::edge_cases(&Count);
        let [edge] = &edges[..] else {
            panic!("Count has one edge case, not {}", edges.len());
        };
        assert_eq!((edge.name.as_str(), edge.seat), ("one-short-of-three", 1));
        let [state] = &edge.states[..] else {
            panic!("one state, not {}", edge.states.len());
        };
        assert_eq!(state.awaiting(), [1]);
        assert_eq!(state.prompt(1), "2\n");
    }
}

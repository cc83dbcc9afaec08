//! Naming a step's departure by what was played over it: the recorded engine, modelled from
//! the first step ([`EngineKnown`]: `--engine-known`, `--import`), played each way it departs,
//! and the game's variants, consulted only where the engine's ways leave a field unexplained.

use std::borrow::Cow;

use serde_json::Value;

use crate::run::departure::{self, at, differing_fields};
use crate::seam::{DynGame, DynKnownDepartures, EngineModel, PlayedDeparture, Reply};

use super::TraceConfig;

/// Of `played` (the engine's `known` departures first, then the game's variants), those that
/// may name the `differing` fields of a step whose prompts showed `shown` over `checked`: the
/// engine's own always; a variant only where the engine's leave some field unexplained, and
/// only if it changes no field the engine got right (a variant that does explains nothing:
/// its agreement on the differing fields is a coincidence of a wrong rule).
pub(super) fn naming_departures<'p>(
    plays: &'p StepPlays,
    differing: &[String],
    checked: &[&String],
    shown: &Value,
) -> Cow<'p, [PlayedDeparture<Value>]> {
    let clean = |variant: &&PlayedDeparture<Value>| {
        differing_fields(&variant.state, shown, checked)
            .iter()
            .all(|f| differing.contains(f))
    };
    let variants = &plays.played[plays.known..];
    if variants.iter().all(|v| clean(&v)) {
        return Cow::Borrowed(&plays.played);
    }
    let mut naming = plays.engines().to_vec();
    naming.extend(variants.iter().filter(clean).cloned());
    Cow::Owned(naming)
}

/// What was played over a step to name its departures: the recorded engine's known
/// departures first (`known` of them), then, once some field needs them, the game's variants.
pub(super) struct StepPlays {
    pub(super) played: Vec<PlayedDeparture<Value>>,
    pub(super) known: usize,
    pub(super) variants: bool,
}

impl StepPlays {
    /// The engine's known departures.
    pub(super) fn engines(&self) -> &[PlayedDeparture<Value>] {
        &self.played[..self.known]
    }
}

/// The game's variants ([`crate::seam::Variants`]), each played over the last step from the
/// state the prompts showed: any engine's departure is named by the variant that reproduces it.
pub(super) fn variants_played(
    game: &dyn DynGame,
    last: Option<&(Value, Vec<Reply>)>,
) -> Vec<PlayedDeparture<Value>> {
    let (Some((state, replies)), Some(playable)) = (last, game.info().capabilities.variants) else {
        return Vec::new();
    };
    let turn = [replies.clone()];
    (playable.variants().iter().enumerate())
        .filter_map(|(v, variant)| {
            let played = playable.play_variant(state, &turn, &[v]).ok()?;
            Some(PlayedDeparture {
                clauses: vec![variant.clause.to_string()],
                state: played.state,
                without: None,
            })
        })
        .collect()
}

/// The engine that recorded the log, modelled as it plays from the first step the log shows
/// (`--engine-known`, `--import`): what it keeps and never shows is carried from step to step.
pub(super) struct EngineKnown {
    pub(super) known: &'static dyn DynKnownDepartures,
    /// Its record at the start of the last step played; `None` until the first prompts are
    /// read (or where the game could not read them).
    model: Option<EngineModel>,
}

/// The named engine's model, when an engine is named and the game knows how it departs.
pub(super) fn engine_known(game: &dyn DynGame, config: &TraceConfig) -> Option<EngineKnown> {
    config.engine.as_ref()?;
    Some(EngineKnown {
        known: game.info().capabilities.known_departures?,
        model: None,
    })
}

impl EngineKnown {
    /// Brings the record up to the step whose prompts showed `shown`: the first step starts
    /// it (and says, if so, that the log starts late); a later one plays `replies` (the step
    /// before's) on it first.
    pub(super) fn take_step(&mut self, replies: Option<&[Reply]>, shown: &Value) -> Option<String> {
        match (&mut self.model, replies) {
            (Some(model), Some(replies)) => {
                self.known.advance(model, replies, shown);
                None
            }
            _ => {
                self.model = self.known.model_from(shown);
                self.known.starts_late(shown)
            }
        }
    }

    /// The step of `replies` played from the record each way the engine departs.
    pub(super) fn played(&self, replies: &[Reply]) -> Vec<PlayedDeparture<Value>> {
        match &self.model {
            Some(model) => self.known.departures_played(model, replies),
            None => Vec::new(),
        }
    }

    /// For each field of `fields` that no known departure of the engine (`known`, played
    /// over the last step) reproduces alone or in a pair, the fewest of the engine's ways
    /// that together give it: the step played without all of them loses the field, and
    /// without any fewer it does not (each dropped in turn, in the engine's order). Fields the
    /// step keeps even without every way are not the engine's ways' doing.
    pub(super) fn jointly(
        &self,
        replies: &[Reply],
        fields: &[String],
        shown: &Value,
        known: &[PlayedDeparture<Value>],
    ) -> Vec<PlayedDeparture<Value>> {
        let (Some(model), Some(all)) = (&self.model, known.first()) else {
            return Vec::new();
        };
        let engine = self;
        let unexplained = departure::reproduce(fields, shown, known).unexplained;
        let mut joint: Vec<PlayedDeparture<Value>> = Vec::new();
        for field in unexplained.iter().map(|&i| &fields[i]) {
            if departure::reproduce(std::slice::from_ref(field), shown, &joint)
                .unexplained
                .is_empty()
            {
                continue;
            }
            let owner = departure::owner_of(field);
            let without = |clauses: &[&str]| {
                let played = engine.known.played_without(model, replies, clauses)?;
                let loses = !departure::same_at(at(&played, &owner), at(shown, &owner));
                loses.then_some(played)
            };
            let mut clauses = engine.known.clauses();
            let Some(mut lost) = without(&clauses) else {
                continue;
            };
            for clause in engine.known.clauses() {
                let fewer: Vec<&str> = clauses.iter().copied().filter(|c| *c != clause).collect();
                if let Some(played) = without(&fewer) {
                    clauses = fewer;
                    lost = played;
                }
            }
            joint.push(PlayedDeparture {
                clauses: clauses.iter().map(|c| c.to_string()).collect(),
                state: all.state.clone(),
                without: Some(lost),
            });
        }
        joint
    }

    /// Why the engine itself fails on the step of `replies`, if the model says it does.
    pub(super) fn fails(&self, replies: &[Reply]) -> Option<String> {
        self.known.engine_fails(self.model.as_ref()?, replies)
    }
}

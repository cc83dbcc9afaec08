//! A variant credited with a departure is checked against the other inputs the engine answered:
//! where the variant changes a field the engine got right there ([`collateral`]), the engine
//! does not do what the variant does, and the variant's agreement on the departing input was the
//! coincidence of a wrong rule (a king's range and a phase order can leave the same health). It
//! names nothing then: the departure is unexplained, the variant kept as a lead
//! ([`Part::leads`]). `check` does the same with the cases the engine passed ([`crate::run`]'s
//! refutation pass).
//!
//! The inputs are kept as they come, agreeing or not, up to a bound: the run's own, the smaller
//! ones shrinking tried, which sit next to a departure and tell its cause from a neighbour's
//! best, and, after the run, a few drawn where a named variant departs (`probe_named`). No engine request is made here: each variant is played on the inputs
//! kept, once per input (a verdict is kept and extended as inputs come).

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde_json::Value;

use super::{reference_result, Departure, Disagreement, Finding, Input, Part};
use crate::case::expect::same_value;
use crate::run::departure::collateral;
use crate::run::{Mask, StepResponse};
use crate::seam::DynGame;

/// Most inputs kept from the run, from shrinking and from probes: memory stays bounded however long the
/// run.
const MOST_FROM_RUNS: usize = 200;
const MOST_FROM_SHRINKING: usize = 100;
const MOST_FROM_PROBES: usize = 100;

/// An input the engine answered, with the reference's result and the engine's there, shaped as
/// compared.
pub(super) struct Observation {
    pub input: Input,
    pub reference: Value,
    /// `None` where it is the reference's.
    pub engine: Option<Value>,
    pub mask: Mask,
}

impl Observation {
    /// An input on which the engine's result was the reference's.
    pub fn agreed(input: Input, reference: Value, mask: Mask) -> Observation {
        Observation {
            input,
            reference,
            engine: None,
            mask,
        }
    }

    /// What a disagreement on `input` shows: nothing, when the engine failed (no field of it
    /// is right or wrong), or took another road through the turn than the rules (it judged a
    /// reply otherwise, or ended the match otherwise): a departure of its own may then hide
    /// the variant's (a reply it refuses drops no pack, rotated or not).
    pub fn of(input: &Input, disagreement: &Disagreement) -> Option<Observation> {
        let engine = disagreement.engine.as_ref()?;
        let reference = &disagreement.reference;
        let same_road = ["last_replies", "outcome"]
            .iter()
            .all(|key| same_value(&engine[*key], &reference[*key]));
        if !same_road {
            return None;
        }
        Some(Observation {
            input: input.clone(),
            reference: disagreement.reference.clone(),
            engine: Some(engine.clone()),
            mask: disagreement.mask.clone(),
        })
    }
}

/// Where an observation came from, for the bound on each.
#[derive(Clone, Copy)]
pub(super) enum Source {
    Run,
    /// Kept aside until [`Refuter::flush`]: a name must not change under a shrinking.
    Shrinking,
    /// Drawn to test a named variant after the run.
    Probe,
}

/// The inputs kept, and what is known of each variant set so far.
pub(super) struct Refuter<'g> {
    game: &'g dyn DynGame,
    observed: RefCell<Vec<Observation>>,
    /// Observations from the shrinking under way.
    pending: RefCell<Vec<Observation>>,
    /// How many came from each [`Source`].
    counts: RefCell<[usize; 3]>,
    /// By variant set (`a + b`): whether an input refutes it, and how many inputs were tried.
    verdicts: RefCell<BTreeMap<String, (bool, usize)>>,
}

impl<'g> Refuter<'g> {
    pub fn new(game: &'g dyn DynGame) -> Refuter<'g> {
        Refuter {
            game,
            observed: RefCell::new(Vec::new()),
            pending: RefCell::new(Vec::new()),
            counts: RefCell::new([0, 0, 0]),
            verdicts: RefCell::new(BTreeMap::new()),
        }
    }

    /// Keeps the input the engine answered that `observe` makes, while its source's bound
    /// allows (past it, nothing is made: no copy of a state the run would throw away).
    pub fn record(&self, source: Source, observe: impl FnOnce() -> Option<Observation>) {
        let (slot, most, into) = match source {
            Source::Run => (0, MOST_FROM_RUNS, &self.observed),
            Source::Shrinking => (1, MOST_FROM_SHRINKING, &self.pending),
            Source::Probe => (2, MOST_FROM_PROBES, &self.observed),
        };
        let mut counts = self.counts.borrow_mut();
        if counts[slot] < most {
            if let Some(observation) = observe() {
                counts[slot] += 1;
                into.borrow_mut().push(observation);
            }
        }
    }

    /// Makes the observations of the shrinking that ended count.
    pub fn flush(&self) {
        let mut pending = self.pending.borrow_mut();
        self.observed.borrow_mut().append(&mut pending);
    }

    /// Whether the variants `set` (`a + b`) change, on an input kept, a field the engine got
    /// right there ([`collateral_on`]).
    pub fn refutes(&self, set: &str) -> bool {
        let observed = self.observed.borrow();
        let mut verdicts = self.verdicts.borrow_mut();
        let (refuted, tried) = verdicts.entry(set.to_string()).or_insert((false, 0));
        if !*refuted && *tried < observed.len() {
            let Some(indices) = variant_indices(self.game, set) else {
                return false;
            };
            *refuted = observed[*tried..]
                .iter()
                .any(|o| collateral_on(self.game, &indices, o));
            *tried = observed.len();
        }
        *refuted
    }

    /// `departure` with every part named by a refuted variant taken back: if one is, the
    /// whole departure is unexplained (the others reproduced only what is left once it was
    /// played), its variants leads.
    pub fn refute(&self, departure: &mut Departure) {
        let refuted = |p: &Part| p.variant.as_deref().is_some_and(|v| self.refutes(v));
        if !departure.parts.iter().any(refuted) {
            return;
        }
        let mut leads: Vec<String> = departure
            .parts
            .iter()
            .filter(|p| p.variant.is_some())
            .map(|p| p.name.clone())
            .collect();
        leads.extend(departure.parts.iter().flat_map(|p| p.leads.clone()));
        leads.dedup();
        departure.parts = vec![Part::unexplained(&departure.fields, leads)];
        departure.unexplained = departure.fields.clone();
    }

    /// `finding` taken back if its variant is refuted now: what the run found after it was
    /// shrunk counts too.
    pub fn refute_finding(&self, finding: &mut Finding) {
        let Some(variant) = finding.part.variant.clone() else {
            return;
        };
        if !self.refutes(&variant) {
            return;
        }
        self.refute(&mut finding.departure);
        self.refute(&mut finding.original_departure);
        let mut leads = vec![finding.part.name.clone()];
        leads.extend(finding.part.leads.clone());
        finding.part = Part::unexplained(&finding.departure.fields, leads);
        finding.group_fields = finding.part.fields.clone();
    }
}

/// The places of the variants `set` (`a + b`) in the game's list.
pub(super) fn variant_indices(game: &dyn DynGame, set: &str) -> Option<Vec<usize>> {
    let variants = game.info().capabilities.variants?.variants();
    set.split(" + ")
        .map(|name| variants.iter().position(|v| v.name == name))
        .collect()
}

/// Whether the variants at `indices`, played on the observed input, change a field the engine
/// got right there (shaped as the comparison was).
fn collateral_on(game: &dyn DynGame, indices: &[usize], observation: &Observation) -> bool {
    let Some(playable) = game.info().capabilities.variants else {
        return false;
    };
    let Observation {
        input,
        reference,
        engine,
        mask,
    } = observation;
    let Ok(played) = playable.play_variant(&input.state, &input.turns, indices) else {
        return false;
    };
    let shaped = reference_result(game, StepResponse::from(played), input.turns.len(), mask);
    !collateral(&shaped, reference, engine.as_ref().unwrap_or(reference)).is_empty()
}

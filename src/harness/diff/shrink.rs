//! Shrinking a departure to what it needs: smaller inputs are tried, boldest first, and one is
//! kept only while the engines still disagree *by the same departure* and by no other the input
//! did not show already, on a state the reference engine finds reachable
//! ([`DynGame::reachable`]). For a departure a variant of the rules reproduces, the same variant
//! must still reproduce it ([`Part`]); a candidate on which the variant itself agrees with the
//! rules cannot show it and is passed over without asking the engine. For an unexplained
//! departure, the same fields must differ and no variant reproduce them.
//!
//! A candidate counts only if it is smaller written out, or as long and never kept before: an
//! edit the state reads back larger (a key removed, back at its default) would otherwise go
//! round for ever, each turn a step. Written out means as a case writes it, without the fields
//! at their default: the canonical form writes every field, and there a field at its default
//! can be longer than one that is not (CEDEC's `"owner":null` beside `"owner":0`), which made
//! every tile removal look like a growth and kept whole fields of tiles. It stops at a fixed
//! point: a whole pass over the candidates of the current input keeps none.
//! [`DiffConfig::shrink_requests`] is only a safety net, and a signal ends the shrinking where
//! it is. No randomness and no clock here: the candidates of an input are always the same, in
//! the same order, so one seed gives one case.
//! Then the expectation is cut to what the engine got wrong and the state to what the game does
//! not read back by itself: each key left out that the game reads back as it was (a field at its
//! default, a unit's health at its kind's most), one at a time.

use std::collections::{BTreeSet, HashSet};
use std::hash::{Hash, Hasher};

use serde_json::{json, Map, Value};

use super::candidates::{apply, candidates, Edit, Step};
use super::case_file::size;
use super::refute::{Observation, Refuter, Source};
use super::{
    actual, compare, differing_part, without_mirrors, Comparison, Departure, DiffConfig,
    Disagreement, Finding, Input, Part,
};
use crate::case::expect::same_value;
use crate::harness::interrupt;
use crate::run::departure::paths::covered_by;
use crate::run::{EngineUnderTest, Mask, StepResponse};
use crate::seam::{DynGame, Reply};

/// What a candidate must keep.
struct Keep<'a> {
    game: &'a dyn DynGame,
    /// Takes back names that inputs the engine agreed on refute, and keeps the candidates the
    /// engine agrees on for that.
    refuter: &'a Refuter<'a>,
    part: &'a Part,
    /// The variant of `part`, by index in [`DynGame::variants`].
    variant: Option<usize>,
    mask: Mask,
}

impl Keep<'_> {
    /// Whether the variant that reproduces the part departs from the rules on `input` at all
    /// (always, for a part no variant reproduces): if not, no engine that departs as it does
    /// can show the part there.
    fn variant_departs(&self, input: &Input, reference: StepResponse) -> bool {
        let (Some(variant), Some(playable)) =
            (self.variant, self.game.info().capabilities.variants)
        else {
            return true;
        };
        let Ok(played) = playable.play_variant(&input.state, &input.turns, &[variant]) else {
            return false;
        };
        let turns = input.turns.len();
        let shape = |r: StepResponse| actual(self.game, &r, turns, &self.mask);
        !same_value(&shape(played.into()), &shape(reference))
    }

    /// Whether `candidate` shows the part, named by it; for a part no variant reproduces,
    /// unexplained too, on some of the fields that differ on the `current` input and no
    /// other: an unexplained departure shrinks to the fields where it starts, those the rest
    /// follow from, which is what tells one real departure from another.
    fn shows(&self, candidate: &Departure, current: &Departure) -> bool {
        if self.part.is_printer() {
            // Beside whatever the state does.
            return (candidate.parts.iter()).any(|p| p.name == self.part.name);
        }
        if self.part.variant.is_some() {
            return candidate.name() == self.part.name;
        }
        // The state's fields: a printer's departure beside them is not where this one starts.
        let state_fields = &current.parts[0].fields;
        let first = &candidate.parts[0];
        (candidate.parts.iter()).filter(|p| !p.is_printer()).count() == 1
            && first.variant.is_none()
            && first.name != Departure::FAILED
            && !first.is_printer()
            && !first.fields.is_empty()
            && first.fields.iter().all(|f| covered_by(f, state_fields))
    }

    /// What else `departure` shows besides the part: other departures' names and fields no
    /// variant reproduces.
    fn others(&self, departure: &Departure) -> BTreeSet<String> {
        // An unexplained part is the departure's first, whatever fields it has come to (a
        // printer's is found by its name).
        let unexplained = self.part.variant.is_none() && !self.part.is_printer();
        (departure.parts.iter().enumerate())
            .filter(|(i, p)| p.name != self.part.name && !(unexplained && *i == 0))
            .map(|(_, p)| p.name.clone())
            .chain(
                departure
                    .unexplained
                    .iter()
                    .filter(|_| self.part.variant.is_some())
                    .map(|f| format!("field {f}")),
            )
            .collect()
    }

    /// `edit` applied to `current`, when it is worth asking the engine about: a valid state,
    /// another input than `current`, reachable, playable by the reference, and one on which
    /// the part's variant departs from the rules.
    fn candidate(&self, current: &Input, edit: &Edit) -> Option<Input> {
        let edited = apply(current, edit);
        let state = crate::seam::load_state(self.game, &edited.state).ok()?;
        let candidate = Input {
            state,
            turns: edited.turns,
        };
        if candidate == *current
            || self
                .game
                .info()
                .capabilities
                .reachable(&candidate.state)
                .is_err()
        {
            return None;
        }
        let reference = self.game.play(&candidate.state, &candidate.turns).ok()?;
        self.variant_departs(&candidate, reference.into())
            .then_some(candidate)
    }
}

/// A shrinking under way: the smallest input kept so far and what it showed.
struct Shrinking {
    current: Input,
    /// The departure `current` shows, and the disagreement it was named from.
    departure: Departure,
    last: Disagreement,
    /// What `current` shows besides the part ([`Keep::others`]): a candidate may show no more.
    others: BTreeSet<String>,
    /// The inputs kept so far, written out ([`written_length`]): none is kept twice.
    kept: HashSet<u64>,
    /// The length of `current` written out.
    length: usize,
    /// Engine requests spent, and inputs kept.
    requests: usize,
    steps: usize,
}

impl Shrinking {
    /// Passes over the candidates until a whole pass keeps none: a fixed point (true), unless
    /// the request budget or a signal cut the pass short (false).
    fn until_fixed_point(
        &mut self,
        keep: &Keep,
        engine: &mut dyn EngineUnderTest,
        budget: usize,
        default: Option<&Value>,
    ) -> bool {
        loop {
            let (progressed, whole_pass) = self.pass(keep, engine, budget, default);
            if !progressed {
                return whole_pass && interrupt::received().is_none();
            }
            if self.requests >= budget || interrupt::received().is_some() {
                return false;
            }
        }
    }

    /// One pass over the candidates of the current input. After a step the new input's
    /// candidates are tried from the same position on, so candidates that failed once are not
    /// retried until the next pass. Returns whether an input was kept, and whether the pass
    /// reached the end of the list. A signal ends it: what it reached before is kept.
    fn pass(
        &mut self,
        keep: &Keep,
        engine: &mut dyn EngineUnderTest,
        budget: usize,
        default: Option<&Value>,
    ) -> (bool, bool) {
        let mut progressed = false;
        let mut list = candidates(&self.current, default);
        let mut i = 0;
        while i < list.len() && self.requests < budget && interrupt::received().is_none() {
            let candidate = (keep.candidate(&self.current, &list[i]))
                .filter(|candidate| is_smaller(candidate, self.length, &self.kept, default));
            i += 1;
            let Some(candidate) = candidate else {
                continue;
            };
            self.requests += 1;
            let compared = compare(keep.game, engine, "diff/shrink", &candidate);
            if interrupt::received().is_some() {
                // The engine was stopped under this request: its answer says nothing.
                break;
            }
            if self.take(keep, candidate, compared, default) {
                progressed = true;
                list = candidates(&self.current, default);
                i = i.saturating_sub(1);
            }
        }
        (progressed, i >= list.len())
    }

    /// Keeps `candidate` when the engine still disagrees on it by the part, and by nothing the
    /// current input did not show already.
    fn take(
        &mut self,
        keep: &Keep,
        candidate: Input,
        compared: Comparison,
        default: Option<&Value>,
    ) -> bool {
        let d = match compared {
            Comparison::Disagree(d) => d,
            Comparison::Agree { reference, mask } => {
                let seen = || Some(Observation::agreed(candidate, reference, mask));
                keep.refuter.record(Source::Shrinking, seen);
                return false;
            }
            _ => return false,
        };
        (keep.refuter).record(Source::Shrinking, || Observation::of(&candidate, &d));
        let mut departure = Departure::of(keep.game, &candidate, &d);
        keep.refuter.refute(&mut departure);
        let its_others = keep.others(&departure);
        if !keep.shows(&departure, &self.departure) || !its_others.is_subset(&self.others) {
            return false;
        }
        self.others = its_others;
        let (length, written) = written_length(&candidate, default);
        self.length = length;
        self.kept.insert(written);
        self.current = candidate;
        self.departure = departure;
        self.last = *d;
        self.steps += 1;
        true
    }
}

/// Shrinks the input of `run`, on which the engine disagreed `first`, to what `part` needs.
pub(super) fn shrink(
    game: &dyn DynGame,
    engine: &mut dyn EngineUnderTest,
    config: &DiffConfig,
    refuter: &Refuter,
    (run, original, first): (usize, Input, Disagreement),
    part: Part,
) -> Finding {
    let original_difference = first.why.clone();
    let default = crate::seam::load_state(game, &json!({})).ok();
    let keep = Keep {
        game,
        refuter,
        variant: part
            .variant
            .as_ref()
            .and_then(|name| variant_index(game, name)),
        part: &part,
        mask: first.mask.clone(),
    };
    let mut original_departure = Departure::of(game, &original, &first);
    refuter.refute(&mut original_departure);
    let original_expectation = expectation_of(&first, default.as_ref());
    let mut shrinking = Shrinking {
        kept: HashSet::from([written_length(&original, default.as_ref()).1]),
        length: written_length(&original, default.as_ref()).0,
        others: keep.others(&original_departure),
        current: original.clone(),
        departure: original_departure.clone(),
        last: first,
        requests: 0,
        steps: 0,
    };
    let minimal =
        shrinking.until_fixed_point(&keep, engine, config.shrink_requests, default.as_ref());
    let Shrinking {
        current,
        departure,
        last,
        requests,
        steps,
        ..
    } = shrinking;
    // An unexplained part is now the one of the fields it shrank to.
    let part = match departure.parts.first() {
        Some(shrunk)
            if part.variant.is_none() && !part.is_printer() && shrunk.variant.is_none() =>
        {
            shrunk.clone()
        }
        _ => part,
    };
    let part_fields = part.fields.clone();
    let expectation = expectation_of(&last, default.as_ref());
    let shrunk = prune_state(game, &current, default.as_ref());
    let size_before = size(
        &prune_state(game, &original, default.as_ref()),
        &original_expectation,
    );
    let size_after = size(&shrunk, &expectation);
    Finding {
        run,
        part,
        original_departure,
        departure,
        concerns: Vec::new(),
        original,
        original_difference,
        shrunk,
        shrink_steps: steps,
        shrink_requests: requests,
        minimal,
        size_before,
        size_after,
        difference: last.why,
        reference: last.reference,
        engine: last.engine,
        group_fields: part_fields,
        expectation,
    }
}

/// The part of the reference's result the engine got wrong: a case's `then`.
fn expectation_of(last: &Disagreement, default: Option<&Value>) -> Value {
    let reference = &last.reference;
    let mut expectation = match &last.engine {
        Some(engine) => {
            let (reference, engine) = without_mirrors(reference, engine);
            let mut part = differing_part(&reference, &engine).unwrap_or(Value::Null);
            up_to_first_differing_prompt(&mut part, &engine);
            part
        }
        None => {
            let mut whole = reference.clone();
            if let (Value::Object(map), Some(default)) = (&mut whole, default) {
                map.remove("prompts");
                prune_defaults_map(map, default);
            }
            whole
        }
    };
    if let Value::Object(map) = &mut expectation {
        // Not part of any state: the case runner reports unplayed turns as an error.
        map.remove("unplayed_turns");
    }
    expectation
}

/// The prompts of `expectation` up to the first that differs from the `engine`'s: every seat's
/// prompt shows the same state, and the library reads a shorter list as its first elements, so
/// one differing prompt is the departure. A prompt is matched whole, and one prompt is as long as
/// the whole field (CEDEC's 127 tiles): three of them made a case of 400 lines.
fn up_to_first_differing_prompt(expectation: &mut Value, engine: &Value) {
    let (Some(Value::Array(prompts)), Some(Value::Array(engines))) =
        (expectation.get_mut("prompts"), engine.get("prompts"))
    else {
        return;
    };
    let first = (prompts.iter().zip(engines)).position(|(ours, theirs)| !same_value(ours, theirs));
    if let Some(first) = first {
        prompts.truncate(first + 1);
    }
}

/// `input` with its state as a case writes it: without each key the game reads back as it was
/// when left out. The fields at their default all at once first, when the game reads that back
/// (most states); then each key that is left, one at a time, outside in: where an entity has no
/// default (a unit, a shop slot) its fields at their default for it are left out one by one
/// (a unit's health at its kind's most), and a key that must stay is kept.
fn prune_state(game: &dyn DynGame, input: &Input, default: Option<&Value>) -> Input {
    let mut pruned = input.clone();
    let Some(default) = default else {
        return pruned;
    };
    let reads_back =
        |state: &Value| crate::seam::load_state(game, state).ok().as_ref() == Some(&input.state);
    let all_at_once = prune_defaults(&input.state, default);
    if reads_back(&all_at_once) {
        pruned.state = all_at_once;
    }
    let mut at = Vec::new();
    prune_keys(&mut pruned.state, &mut at, &reads_back);
    pruned
}

/// Leaves out of `state` each key under `at` (the key first, then what is under a key that
/// must stay) whose absence `reads_back` accepts.
fn prune_keys(state: &mut Value, at: &mut Vec<Step>, reads_back: &dyn Fn(&Value) -> bool) {
    let keys: Vec<String> = match value_at(state, at) {
        Some(Value::Object(map)) => map.keys().cloned().collect(),
        Some(Value::Array(list)) => {
            for i in 0..list.len() {
                at.push(Step::Index(i));
                prune_keys(state, at, reads_back);
                at.pop();
            }
            return;
        }
        _ => return,
    };
    for key in keys {
        let mut without = state.clone();
        if let Some(Value::Object(map)) = value_at_mut(&mut without, at) {
            map.remove(&key);
        }
        if reads_back(&without) {
            *state = without;
            continue;
        }
        at.push(Step::Key(key));
        prune_keys(state, at, reads_back);
        at.pop();
    }
}

fn value_at<'v>(value: &'v Value, at: &[Step]) -> Option<&'v Value> {
    at.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get(k.as_str()),
        Step::Index(i) => v.get(*i),
    })
}

fn value_at_mut<'v>(value: &'v mut Value, at: &[Step]) -> Option<&'v mut Value> {
    at.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

/// `value` without the object keys whose value equals the default's at the same place.
fn prune_defaults(value: &Value, default: &Value) -> Value {
    let mut value = value.clone();
    if let Value::Object(map) = &mut value {
        prune_defaults_map(map, default);
    }
    value
}

fn prune_defaults_map(map: &mut Map<String, Value>, default: &Value) {
    map.retain(|k, v| default.get(k) != Some(v));
    for (k, v) in map.iter_mut() {
        match (v, default.get(k)) {
            (Value::Object(inner), Some(d)) => prune_defaults_map(inner, d),
            (Value::Array(list), Some(Value::Array(d))) => {
                for (item, d) in list.iter_mut().zip(d) {
                    if let Value::Object(inner) = item {
                        prune_defaults_map(inner, d);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether `candidate` is smaller than the input `current` long written out: shorter, or as long
/// and not one of the inputs `kept` before. Some edits are no simplification once the state is
/// read back: a key removed comes back at its default (a unit's health at its kind's most), and
/// halving it again would go round for ever.
fn is_smaller(
    candidate: &Input,
    current: usize,
    kept: &HashSet<u64>,
    default: Option<&Value>,
) -> bool {
    let (length, written) = written_length(candidate, default);
    length < current || (length == current && !kept.contains(&written))
}

/// The length of `input` written out (its state as JSON without the fields at their value in
/// `default`, the game's default state, as a case leaves them out; then each reply with its
/// time), and a hash of that text (what tells inputs apart, in little memory). The fields at
/// their default are left out of the measure because the canonical form writes them all: a
/// tile removed, back at its default `"owner":null`, is longer there than the `"owner":0` it
/// replaces, and no tile could ever be removed.
fn written_length(input: &Input, default: Option<&Value>) -> (usize, u64) {
    let mut written = match default {
        Some(default) => prune_defaults(&input.state, default).to_string(),
        None => input.state.to_string(),
    };
    for reply in input.turns.iter().flatten() {
        match reply {
            Reply::Text { text, elapsed_ms } => {
                written.push_str(&format!("\n{elapsed_ms} {text}"));
            }
            other => written.push_str(&format!("\n{other:?}")),
        }
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    written.hash(&mut hasher);
    (written.len(), hasher.finish())
}

/// The place of the variant `name` in the game's list, if the game has such a variant.
fn variant_index(game: &dyn DynGame, name: &str) -> Option<usize> {
    let playable = game.info().capabilities.variants?;
    playable.variants().iter().position(|v| v.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_that_comes_back_larger_is_no_step_and_no_input_is_kept_twice() {
        let input = |hp: u64| Input {
            state: json!({"units": [{"hp": hp}]}),
            turns: vec![vec![Reply::text("1 0")]],
        };
        let kept = HashSet::from([
            written_length(&input(1), None).1,
            written_length(&input(4), None).1,
        ]);
        let len = |input: &Input| written_length(input, None).0;
        // Health 1, its key removed, read back at its most: longer, not smaller.
        assert!(!is_smaller(&input(50000), len(&input(1)), &kept, None));
        assert!(is_smaller(&input(1), len(&input(50000)), &kept, None));
        // As long: smaller only if never kept (4 was: going back to it would go round).
        assert!(!is_smaller(&input(4), len(&input(2)), &kept, None));
        assert!(is_smaller(&input(3), len(&input(2)), &kept, None));
        let slow = Input {
            turns: vec![vec![Reply::Text {
                text: "1 0".into(),
                elapsed_ms: 150,
            }]],
            ..input(1)
        };
        assert!(
            is_smaller(&input(1), len(&slow), &kept, None),
            "answered in no time"
        );
    }

    #[test]
    fn a_field_back_at_its_default_is_measured_as_left_out() {
        // CEDEC's tiles: the canonical form writes every tile, and a tile at its default
        // (`owner: null`) is longer there than an owned one (`owner: 0`).
        let default = json!({"tiles": {"0,0": {"owner": null}, "0,1": {"owner": null}}});
        let owned = |owner: Value| Input {
            state: json!({"tiles": {"0,0": {"owner": owner}, "0,1": {"owner": 0}}}),
            turns: vec![vec![Reply::text("finish")]],
        };
        let (one, two) = (owned(Value::Null), owned(0.into()));
        assert!(written_length(&one, None).0 > written_length(&two, None).0);
        let with_default = |input: &Input| written_length(input, Some(&default)).0;
        assert!(with_default(&one) < with_default(&two));
        let kept = HashSet::new();
        assert!(is_smaller(&one, with_default(&two), &kept, Some(&default)));
        assert!(!is_smaller(&two, with_default(&one), &kept, Some(&default)));
    }

    #[test]
    fn keys_the_game_reads_back_are_left_out_one_at_a_time() {
        // A game that reads a unit's missing `hp` as its kind's most (a king's 100, a mage's
        // 50) and needs every unit's `id`; `given` is its canonical state.
        let given = json!({"turn": 0, "units": [
            {"id": 0, "kind": "king", "hp": 100},
            {"id": 7, "kind": "mage", "hp": 50},
            {"id": 8, "kind": "mage", "hp": 3},
        ]});
        let read = |state: &Value| -> Option<Value> {
            let mut state = state.clone();
            let map = state.as_object_mut()?;
            map.entry("turn").or_insert(0.into());
            for unit in map.get_mut("units")?.as_array_mut()? {
                let unit = unit.as_object_mut()?;
                unit.get("id")?;
                let most = if unit.get("kind")? == "king" { 100 } else { 50 };
                unit.entry("hp").or_insert(most.into());
            }
            Some(state)
        };
        let reads_back = |state: &Value| read(state).as_ref() == Some(&given);
        let mut pruned = given.clone();
        prune_keys(&mut pruned, &mut Vec::new(), &reads_back);
        assert_eq!(
            pruned,
            json!({"units": [
                {"id": 0, "kind": "king"},
                {"id": 7, "kind": "mage"},
                {"id": 8, "kind": "mage", "hp": 3},
            ]})
        );
    }

    #[test]
    fn a_prompt_departure_is_expected_up_to_its_first_differing_prompt() {
        let mut then = json!({"prompts": ["same\n", "ours 2\n", "ours 3\n"]});
        let engine = json!({"prompts": ["same\n", "theirs 2\n", "theirs 3\n"]});
        up_to_first_differing_prompt(&mut then, &engine);
        assert_eq!(then, json!({"prompts": ["same\n", "ours 2\n"]}));
        // Nothing to cut when no prompt differs (the state does).
        let mut then = json!({"turn": 2, "prompts": ["a\n"]});
        up_to_first_differing_prompt(&mut then, &json!({"turn": 3, "prompts": ["a\n"]}));
        assert_eq!(then, json!({"turn": 2, "prompts": ["a\n"]}));
    }

    #[test]
    fn prune_keeps_what_is_not_default() {
        let default = json!({"turn": 0, "players": [{"score": 0, "gauge": 0}]});
        let value = json!({"turn": 0, "players": [{"score": 5, "gauge": 0}]});
        assert_eq!(
            prune_defaults(&value, &default),
            json!({"players": [{"score": 5}]})
        );
    }
}

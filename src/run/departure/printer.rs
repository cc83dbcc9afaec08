//! A departure of the prompt printer, beside a departure of the state: an engine whose state
//! differs prints prompts that differ with it, and those say nothing of its printer. What does
//! is whether its prompts are the ones the rules print *for its own state*. Where they are not,
//! the printer departs on its own (a hero shown through the fog, beside a mob moved at the wrong
//! speed), and a variant names it when, printing for the engine's state, it prints exactly the
//! engine's prompts.
//!
//! A prompt is printed from the canonical state alone ([`DynGame::play`] with no turns). Where
//! the comparison left fields out of the state (what the engine does not model), the reference's
//! own prompts may not follow from what is left: then nothing is said of the printer.

use serde_json::{Map, Value};

use super::{Named, Reproducer};
use crate::case::expect::same_value;
use crate::seam::DynGame;

/// The keys a compared result holds beside the state.
pub const BESIDE_THE_STATE: [&str; 3] = ["prompts", "last_replies", "unplayed_turns"];

/// The printer's own departure in `engine`'s result (shaped as compared: the state with
/// `prompts` and `last_replies` beside it), where its prompts are not the ones the rules print
/// for its own state; `None` when they are, when either side has no prompts, or when the
/// reference's prompts do not follow from its compared state either (fields were left out).
pub fn printer_departure(game: &dyn DynGame, reference: &Value, engine: &Value) -> Option<Named> {
    let (Some(printed), Some(rules_printed)) = (engine.get("prompts"), reference.get("prompts"))
    else {
        return None;
    };
    if !same_value(&prompts_for(game, reference)?, rules_printed) {
        return None;
    }
    let state = state_of(engine);
    let rendered = prompts_for(game, engine)?;
    if same_value(&rendered, printed) {
        return None;
    }
    let fields: Vec<String> = super::differing_leaves(&rendered, printed)
        .into_iter()
        .map(|f| format!("prompts{f}"))
        .collect();
    let by = printers(game, &state, printed, &fields);
    let unexplained = if by.is_empty() {
        fields.clone()
    } else {
        Vec::new()
    };
    Some(Named {
        fields,
        by,
        unexplained,
        partly: Vec::new(),
    })
}

/// The variants that, printing for `state`, print exactly `printed`: one names the printer's
/// departure, the others are its ties.
fn printers(
    game: &dyn DynGame,
    state: &Value,
    printed: &Value,
    fields: &[String],
) -> Vec<Reproducer> {
    let Some(playable) = game.info().capabilities.variants else {
        return Vec::new();
    };
    let variants = playable.variants();
    let mut reproducing = (0..variants.len()).filter(|&v| {
        playable
            .play_variant(state, &[], &[v])
            .is_ok_and(|played| same_value(&Value::from(played.prompts), printed))
    });
    let Some(first) = reproducing.next() else {
        return Vec::new();
    };
    let mut ties: Vec<String> = reproducing
        .map(|v| variants[v].clause.to_string())
        .filter(|clause| clause != variants[first].clause)
        .collect();
    ties.sort();
    ties.dedup();
    vec![Reproducer {
        variants: vec![variants[first].name.to_string()],
        clauses: vec![variants[first].clause.to_string()],
        does: variants[first].does.to_string(),
        fields: fields.to_vec(),
        ties,
    }]
}

/// The state of a compared result: what is beside it taken away.
fn state_of(result: &Value) -> Value {
    let mut state: Map<String, Value> = result.as_object().cloned().unwrap_or_default();
    for key in BESIDE_THE_STATE {
        state.remove(key);
    }
    Value::Object(state)
}

/// The prompts the rules print for the state of a compared result.
fn prompts_for(game: &dyn DynGame, result: &Value) -> Option<Value> {
    let played = game.play(&state_of(result), &[]).ok()?;
    Some(Value::from(played.prompts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reborn() -> &'static dyn DynGame {
        crate::games::by_id("codevs-reborn").expect("the game")
    }

    /// A compared result of `state`: the state with the prompts the rules print for it.
    fn result(state: &Value) -> Value {
        let game = reborn();
        let loaded = crate::seam::load_state(game, state).expect("a state");
        let prompts = game.play(&loaded, &[]).expect("plays").prompts;
        let mut result = loaded;
        result["prompts"] = Value::from(prompts);
        result["last_replies"] = json!([]);
        result
    }

    #[test]
    fn prompts_that_follow_from_the_engines_own_state_are_no_departure() {
        let reference = result(&json!({}));
        let engine = result(&json!({"turn": 3}));
        assert!(printer_departure(reborn(), &reference, &engine).is_none());
    }

    #[test]
    fn prompts_that_do_not_follow_from_the_engines_state_are_the_printers_departure() {
        let reference = result(&json!({}));
        let mut engine = result(&json!({"turn": 3}));
        let first = engine["prompts"][0].as_str().expect("a prompt").to_string();
        engine["prompts"][0] = Value::from(first.replacen('3', "4", 1));
        let named = printer_departure(reborn(), &reference, &engine).expect("a departure");
        assert_eq!(named.fields, ["prompts[0]"]);
        assert!(named.by.is_empty(), "{:?}", named.by);
        assert_eq!(named.unexplained, ["prompts[0]"]);
    }
}

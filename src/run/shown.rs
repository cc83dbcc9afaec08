//! What a failed step case shows of itself, for the HTML report to draw from the JSON report
//! alone: the state it started from, the result it expected and the one the engine gave, each
//! whole, and the fields where the two results differ. Only failed step cases carry it, so the
//! report grows with the failures, not with the library.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::departure::differing_leaves;
use crate::case::expect::{bound_holds, project};
use crate::seam::{load_state, DynGame};

/// The keys the runner puts beside an engine's state in the result a case is matched against
/// ([`super::actual`], and the facts a case may ask for): not part of the state drawn.
const BESIDE_THE_STATE: [&str; 3] = ["prompts", "last_replies", "facts"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// The case's `given`, with every default written out (as given, when it does not load).
    pub given: Value,
    /// The engine's state with the case's `then` laid over it: the result the case expects,
    /// whole. Where `then` gives a bound (`{$lt: 15}`), the engine's value stands.
    pub expected: Value,
    /// The engine's state, as compared (without what the engine declares unmodelled).
    pub actual: Value,
    /// Where `then` and the result differ, as the diff names the fields (`players[0].score`,
    /// `units[#5].hp`), the prompts included.
    pub differing: Vec<String>,
}

impl Shown {
    /// What a step case that failed on `actual` (the result as compared) shows.
    pub fn of(game: &dyn DynGame, given: &Value, then: &Value, actual: &Value) -> Shown {
        let mut state = actual.clone();
        if let Value::Object(map) = &mut state {
            for key in BESIDE_THE_STATE {
                map.remove(key);
            }
        }
        let mut expected = state.clone();
        if let (Value::Object(base), Value::Object(then)) = (&mut expected, then) {
            // At the top, only what the state holds: the rest is beside it (prompts, facts).
            for (key, value) in then {
                if let Some(here) = base.get_mut(key) {
                    lay_over(here, value);
                }
            }
        }
        Shown {
            given: load_state(game, given).unwrap_or_else(|_| given.clone()),
            expected,
            actual: state,
            differing: differing_leaves(then, &project(then, actual)),
        }
    }
}

/// Writes `then` over `value`: mappings key by key (keys `value` lacks are added), lists element
/// by element, as `then` is matched; a bound leaves the value as it is.
fn lay_over(value: &mut Value, then: &Value) {
    if bound_holds(then, value).is_some() {
        return;
    }
    match (value, then) {
        (Value::Object(base), Value::Object(then)) => {
            for (key, want) in then {
                match base.get_mut(key) {
                    Some(here) => lay_over(here, want),
                    None => {
                        let mut new = Value::Object(Map::new());
                        lay_over(&mut new, want);
                        base.insert(key.clone(), new);
                    }
                }
            }
        }
        (Value::Array(base), Value::Array(then)) => {
            for (i, want) in then.iter().enumerate() {
                match base.get_mut(i) {
                    Some(here) => lay_over(here, want),
                    None => {
                        let mut new = Value::Object(Map::new());
                        lay_over(&mut new, want);
                        base.push(new);
                    }
                }
            }
        }
        (value, then) => {
            // An empty mapping (`{}`, an element a list skips) leaves the value.
            if !then.as_object().is_some_and(Map::is_empty) {
                *value = then.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn laid(value: Value, then: Value) -> Value {
        let mut value = value;
        lay_over(&mut value, &then);
        value
    }

    #[test]
    fn then_is_laid_over_the_result_as_it_is_matched() {
        let actual = json!({"players": [{"score": 1, "gauge": 3}, {"score": 5}], "turn": 2});
        let then = json!({"players": [{}, {"score": 6}]});
        assert_eq!(
            laid(actual, then),
            json!({"players": [{"score": 1, "gauge": 3}, {"score": 6}], "turn": 2})
        );
        // A bound leaves the value; a mapping key the result lacks is added.
        let units = laid(
            json!({"n": 20, "units": {}}),
            json!({"n": {"$lt": 15}, "units": {"7": {"hp": 3}}}),
        );
        assert_eq!(units, json!({"n": 20, "units": {"7": {"hp": 3}}}));
    }
}

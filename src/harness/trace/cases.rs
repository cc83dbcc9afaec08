//! A traced match as regression cases (`shinpan trace --cases-out DIR`): each checked step is a
//! step case whose `given` is the state the step was played from (as the prompts showed it),
//! whose `when` is the replies, and whose `then` is what the next prompts showed of the result,
//! the engine's result taken as the expectation. A step where the engine departed from the
//! rules is marked `needs-review`, its clauses `unclassified`: the engine's result there is not
//! the rules' until someone says so. An official engine's match so becomes a library any
//! engine can be checked against with `shinpan check --cases DIR`.

use serde_json::{Map, Value};

use super::clauses::ClauseIndex;
use crate::case::parts::Part;
use crate::case::UNCLASSIFIED;
use crate::seam::{DynGame, Reply};

/// One checked step and what the engine showed after it.
#[derive(Debug, Clone, PartialEq)]
pub struct StepCase {
    pub step: usize,
    pub given: Value,
    pub replies: Vec<Reply>,
    /// What the next prompts showed (the fields they show, drawn values left out).
    pub then: Value,
    /// Whether the next prompts showed a departure from the rules.
    pub departs: bool,
}

/// The value `shown` holds at `path`, with the path made to point where the same thing
/// stands in `predicted` (what the reference gives from the step's `given`): an element of a
/// list of things with ids is found by its id (a mob the fog hid may stand elsewhere in the
/// list shown). `None` when the prediction has no such thing.
pub fn retarget(predicted: &Value, shown: &Value, path: &str) -> Option<(String, Value)> {
    let value = super::at(shown, path)?.clone();
    let Some((key, rest)) = path.split_once('[') else {
        return Some((path.to_string(), value));
    };
    let (index, tail) = rest.split_once(']')?;
    let element = match index.strip_prefix('#') {
        // An element named by id (`mobs[#59]`).
        Some(_) => super::at(shown, &format!("{key}[{index}]"))?,
        None => shown.get(key)?.get(index.parse::<usize>().ok()?)?,
    };
    let Some(id) = element.get("id") else {
        return Some((path.to_string(), value));
    };
    let k = predicted
        .get(key)?
        .as_array()?
        .iter()
        .position(|e| e.get("id") == Some(id))?;
    Some((format!("{key}[{k}]{tail}"), value))
}

/// The values at their paths (`players[1].gold`, `units`) as one partial state: list elements
/// not given are `{}` (anything).
pub fn partial(values: &[(String, Value)]) -> Value {
    let mut out = Value::Object(Map::new());
    for (path, value) in values {
        put(&mut out, path, value.clone());
    }
    out
}

fn put(target: &mut Value, path: &str, value: Value) {
    let mut here = target;
    let parts: Vec<&str> = path.split('.').collect();
    let steps: Vec<Result<&str, usize>> = parts
        .iter()
        .flat_map(|part| {
            let (key, rest) = part.split_once('[').map_or((*part, ""), |(k, r)| (k, r));
            let indices = rest
                .split('[')
                .filter_map(|i| i.strip_suffix(']')?.parse::<usize>().ok())
                .map(Err);
            std::iter::once(key)
                .filter(|k| !k.is_empty())
                .map(Ok)
                .chain(indices)
        })
        .collect();
    for (n, step) in steps.iter().enumerate() {
        let last = n + 1 == steps.len();
        let next_empty = || match steps.get(n + 1) {
            Some(Err(_)) => Value::Array(Vec::new()),
            _ => Value::Object(Map::new()),
        };
        here = match *step {
            Ok(key) => {
                if !here.is_object() {
                    *here = Value::Object(Map::new());
                }
                let Value::Object(map) = here else { return };
                if last {
                    map.insert(key.to_string(), value);
                    return;
                }
                map.entry(key.to_string()).or_insert_with(next_empty)
            }
            Err(i) => {
                if !here.is_array() {
                    *here = Value::Array(Vec::new());
                }
                let Value::Array(items) = here else { return };
                while items.len() <= i {
                    items.push(Value::Object(Map::new()));
                }
                if last {
                    items[i] = value;
                    return;
                }
                &mut items[i]
            }
        };
    }
}

/// The step cases as one case file of `game`, named `trace-<name>` (and, when it is one of
/// several, saying which `part` it is: [`crate::case::parts`]); steps whose `given` the game
/// refuses (a state only a lax engine makes) are left out and counted.
pub fn case_file(
    game: &dyn DynGame,
    index: &ClauseIndex,
    name: &str,
    part: Option<&Part>,
    cases: &[StepCase],
) -> (String, usize, usize) {
    let to_yaml = |v: &Value| serde_yaml::to_value(v).unwrap_or(serde_yaml::Value::Null);
    let mut written = Vec::new();
    let mut left_out = 0;
    for case in cases {
        if crate::seam::load_state(game, &case.given).is_err() {
            left_out += 1;
            continue;
        }
        let mut leaves = Vec::new();
        super::clauses::leaf_paths(&case.then, String::new(), &mut leaves);
        let clauses = index.clauses_for(&leaves);
        let review = case.departs || clauses.is_empty();
        let mut entry = serde_yaml::Mapping::new();
        entry.insert("id".into(), format!("{name}-step-{}", case.step).into());
        let rules: Vec<String> = if review {
            vec![UNCLASSIFIED.to_string()]
        } else {
            clauses
        };
        entry.insert("rules".into(), to_yaml(&Value::from(rules)));
        if review {
            entry.insert("needs-review".into(), true.into());
        }
        entry.insert(
            "note".into(),
            format!(
                "Step {} of a traced match (`shinpan trace --cases-out`): the engine's result as \
                 the expectation{}.",
                case.step,
                if case.departs {
                    "; the engine departed from the rules here, so check the expectation \
                     against the rule document"
                } else {
                    ""
                }
            )
            .into(),
        );
        entry.insert("given".into(), to_yaml(&case.given));
        let when: Vec<serde_yaml::Value> = case
            .replies
            .iter()
            .map(|reply| match reply {
                Reply::Text {
                    text,
                    elapsed_ms: 0,
                } => text.as_str().into(),
                other => serde_yaml::to_value(other).unwrap_or(serde_yaml::Value::Null),
            })
            .collect();
        entry.insert(
            "when".into(),
            vec![serde_yaml::Value::Sequence(when)].into(),
        );
        entry.insert("then".into(), to_yaml(&case.then));
        written.push(serde_yaml::Value::Mapping(entry));
    }
    let count = written.len();
    let mut file = serde_yaml::Mapping::new();
    file.insert("game".into(), game.info().id.into());
    if let Some(part) = part {
        file.insert(
            "part".into(),
            serde_yaml::to_value(part).unwrap_or_default(),
        );
    }
    file.insert("cases".into(), serde_yaml::Value::Sequence(written));
    let body = serde_yaml::to_string(&file).unwrap_or_default();
    (
        format!("# Written by `shinpan trace --cases-out`: each checked step of a recorded match.\n{body}"),
        count,
        left_out,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_paths_make_one_partial_state() {
        let shown = serde_json::json!({"turn": 3, "players": [{"gold": 1}, {"gold": 7}],
            "mobs": [{"id": 4, "x": 1}, {"id": 9, "x": 5}]});
        // The prediction lacks mob 4 (it came out of the fog): mob 9 is its first.
        let predicted = serde_json::json!({"mobs": [{"id": 9, "x": 5}]});
        let values: Vec<(String, Value)> = ["turn", "players[1].gold", "mobs[0].x", "mobs[1].x"]
            .iter()
            .filter_map(|p| retarget(&predicted, &shown, p))
            .collect();
        assert_eq!(
            partial(&values),
            serde_json::json!({"turn": 3, "players": [{}, {"gold": 7}], "mobs": [{"x": 5}]})
        );
    }
}

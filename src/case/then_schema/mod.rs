//! A case's `then` checked against the game's canonical-state schema when the library loads, so
//! that a misspelt key (`skil_gauge`) or a value of the wrong type (`score: "one"`) is a bad case
//! file at its line, not a failure blamed on the engine.
//!
//! `then` is a *subset* of a result, so it is checked by shape only: every key it names must
//! exist (in the state, or among what the runner adds beside it), every value must have the
//! type the schema gives there, every number must be one the state can hold (its `minimum`,
//! `maximum` and integer `format`, as `given` is read), and no list may be longer than its
//! `maxItems`. A bound (`{$lt: 15}`) stands for a number; `{}` skips a list element.
//!
//! The check is a walk of the state's schema, made once into nodes (`compiled.rs`), beside the
//! `then`. It reads the keywords schemars writes: `$ref`, `type`, `properties`,
//! `patternProperties` of integer keys, `additionalProperties`, `items`, `prefixItems`,
//! `anyOf`, `oneOf`, `allOf`, `enum`, `const`, `minimum`, `maximum`, `maxItems` and the integer
//! `format`s such as `uint32`; every other keyword, `required` and `minItems` among them, is
//! left unchecked. `oneOf` is read as `anyOf`. Of several faults the shallowest is told, and at
//! one place the first of: a value outside its `enum` or `const`, of the wrong type, matching
//! no alternative, a list too long, a number outside its `format`, its
//! `minimum`, its `maximum`; of the alternatives of an `anyOf`, the first's fault.

mod compiled;

use serde_json::Value;

use crate::seam::ReplyVerdict;
use compiled::{Compiled, Faults, Step};

/// What the `then` belongs to: what the runner puts beside the state differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Beside the state: `prompts`, `last_replies`, `facts` (and `outcome`, for a state
    /// without one).
    Step,
    /// Beside a new match's state: `facts`.
    Generate,
}

/// The keys of a bound, which stand for a number.
pub(super) const BOUNDS: [&str; 4] = ["$lt", "$lte", "$gt", "$gte"];

/// The first thing in a case's `then` that the state's schema does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`then{}`: {message}", below(.path))]
pub struct ThenError {
    /// Where, below `then` (`players[0].score`; empty: `then` itself).
    pub path: String,
    pub message: String,
}

impl ThenError {
    fn at(path: impl Into<String>, message: impl Into<String>) -> ThenError {
        ThenError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// A game's state schema that a `then` cannot be checked against: a game's fault, not a case
/// file's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    #[error("the state's schema refers to `{0}`, which it does not hold")]
    Reference(String),
    #[error(
        "the state's schema keys a map by the pattern `{0}`; a `then` is checked against the integer keys of schemars only (`^\\d+$`, `^-?\\d+$`)"
    )]
    Pattern(String),
}

/// A path below `then` as it follows `then`.
fn below(path: &str) -> String {
    match path {
        "" => String::new(),
        p if p.starts_with('[') => p.to_string(),
        p => format!(".{p}"),
    }
}

/// The schema of a game's `then`: whoever loads a game's cases makes one.
pub struct ThenSchema {
    /// The fields of the state, in the schema's order, for messages.
    fields: Vec<String>,
    /// The state's schema, made into nodes.
    compiled: Compiled,
}

impl ThenSchema {
    /// The schema of a `then` of the game whose state `state` describes (the game's,
    /// [`crate::seam::DynGame::schemas`]); an error if it uses what the walk does not read.
    pub fn new(state: &Value) -> Result<ThenSchema, SchemaError> {
        let compiled = Compiled::new(state)?;
        let fields = state
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        Ok(ThenSchema { fields, compiled })
    }

    /// The first thing in `then` the state's schema does not allow.
    pub fn check(&self, then: &Value, kind: Kind) -> Result<(), ThenError> {
        let Value::Object(expected) = then else {
            return Err(ThenError::at("", "`then` is a mapping of what to check"));
        };
        for (key, value) in expected {
            self.check_beside(key, value, kind)?;
        }
        let mut path = Vec::new();
        let mut found = Faults::kept();
        for (key, value) in expected {
            // What the runner puts beside the state was checked above.
            let Some(field) = self.compiled.field(key) else {
                continue;
            };
            path.push(Step::Key(key));
            self.compiled.walk(field, value, &mut path, &mut found);
            path.pop();
        }
        match found.first() {
            Some(fault) => Err(fault),
            None => Ok(()),
        }
    }

    /// What the runner puts beside the state (`prompts`, `last_replies`, `facts`, `outcome`
    /// where the state has none), and keys that are neither that nor a field of the state.
    fn check_beside(&self, key: &str, value: &Value, kind: Kind) -> Result<(), ThenError> {
        match (key, kind) {
            ("prompts", Kind::Step) => check_list(value, key, |v, p| {
                v.is_string()
                    .then_some(())
                    .ok_or_else(|| ThenError::at(p, "a prompt is the exact text, a string"))
            }),
            ("last_replies", Kind::Step) => check_list(value, key, |v, p| match v.as_str() {
                Some(name) if ReplyVerdict::NAMES.contains(&name) => Ok(()),
                _ => Err(ThenError::at(
                    p,
                    format!(
                        "a reply verdict is one of {}",
                        ReplyVerdict::NAMES.join(", ")
                    ),
                )),
            }),
            // Facts are the game's own counts, with no schema.
            ("facts", _) => Ok(()),
            _ if self.fields.iter().any(|f| f == key) || key == "outcome" => Ok(()),
            _ => Err(ThenError::at(
                key,
                format!(
                    "the state has no field `{key}` (fields: {}{})",
                    self.fields.join(", "),
                    match kind {
                        Kind::Step => "; beside them: prompts, last_replies, facts",
                        Kind::Generate => "; beside them: facts",
                    }
                ),
            )),
        }
    }
}

fn check_list(
    value: &Value,
    path: &str,
    each: impl Fn(&Value, &str) -> Result<(), ThenError>,
) -> Result<(), ThenError> {
    let Value::Array(items) = value else {
        return Err(ThenError::at(path, "expected a list"));
    };
    items
        .iter()
        .enumerate()
        .try_for_each(|(i, item)| each(item, &format!("{path}[{i}]")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: &Value, then: &Value) -> Result<(), ThenError> {
        ThenSchema::new(schema)
            .expect("the schema compiles")
            .check(then, Kind::Step)
    }

    /// `then: turn: -1`, `4294967296`, `1e308` and `score: -5` loaded, and were reported as
    /// the engine failing (issue 22.8): each is outside what the state can hold.
    /// `then` is refused at `path` with a message that contains `says`.
    fn refused_at(schema: &Value, then: &Value, path: &str, says: &str) {
        let ThenError { path: at, message } = check(schema, then).expect_err(&then.to_string());
        assert_eq!(at, path, "{then}");
        assert!(message.contains(says), "{then}: {message}");
    }

    #[test]
    fn numbers_the_state_cannot_hold_are_refused_at_their_path() {
        let schema = json!({
            "type": "object",
            "properties": {
                "turn": {"type": "integer", "format": "uint32", "minimum": 0},
                "score": {"type": "integer", "format": "int64", "minimum": 0},
                "gauge": {"type": "integer", "format": "uint8", "maximum": 100},
                "players": {"type": "array", "maxItems": 2, "items": {"type": "object"}}
            }
        });
        for (then, path, says) in [
            (
                json!({"turn": -1}),
                "turn",
                "expected a whole number from 0 to 4294967295 (uint32), found -1",
            ),
            (json!({"turn": 4294967296u64}), "turn", "found 4294967296"),
            (json!({"turn": 1e308}), "turn", "found 1e+308"),
            (
                json!({"score": -5}),
                "score",
                "expected at least 0, found -5",
            ),
            (
                json!({"gauge": 101}),
                "gauge",
                "expected at most 100, found 101",
            ),
            (
                json!({"players": [{}, {}, {}]}),
                "players",
                "at most 2 elements, found 3",
            ),
        ] {
            refused_at(&schema, &then, path, says);
        }
        for then in [
            json!({"turn": 4294967295u64, "score": 3.0, "gauge": 100}),
            json!({"turn": {"$lt": 15}}),
        ] {
            assert_eq!(check(&schema, &then), Ok(()), "{then}");
        }
    }

    /// A map keyed by ids, as schemars writes a `BTreeMap<u32, _>`: each key must match a
    /// pattern, and its value is checked against that pattern's schema.
    #[test]
    fn keys_matching_a_pattern_are_checked_against_its_schema() {
        let schema = json!({
            "type": "object",
            "properties": {"units": {
                "type": "object",
                "additionalProperties": false,
                "patternProperties": {"^\\d+$": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {"hp": {"type": "integer"}}
                }}
            }}
        });
        assert_eq!(
            check(&schema, &json!({"units": {"12": {"hp": 1500}}})),
            Ok(())
        );
        let error = check(&schema, &json!({"units": {"12": {"hq": 1}}}))
            .expect_err("a misspelt field under a matching key");
        assert_eq!(error.path, "units.12.hq");
        let error = check(&schema, &json!({"units": {"x": {"hp": 1}}}))
            .expect_err("a key no pattern matches");
        assert_eq!(error.path, "units.x");
    }

    /// What a `then` may hold where the state holds something else (a bound for a number, `{}`
    /// for a list element it leaves unchecked), and a bound where no number stands, refused.
    #[test]
    fn bounds_stand_for_numbers_and_empty_elements_check_nothing() {
        let schema = json!({
            "type": "object",
            "properties": {
                "turn": {"type": "integer", "format": "uint32", "minimum": 0},
                "players": {"type": "array", "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {"score": {"type": "integer"}}
                }}
            }
        });
        for then in [
            json!({"turn": {"$gte": 3}, "players": [{}, {"score": 2}]}),
            json!({"turn": 3.0, "players": [{"score": {"$lt": 10}}]}),
        ] {
            assert_eq!(check(&schema, &then), Ok(()), "{then}");
        }
        for (then, path, says) in [
            (
                json!({"players": [{"$lt": 1}]}),
                "players[0]",
                "found a bound",
            ),
            (
                json!({"players": [{"score": "one"}]}),
                "players[0].score",
                "expected integer, found \"one\"",
            ),
            (
                json!({"players": [{"score": 2.5}]}),
                "players[0].score",
                "expected integer, found 2.5",
            ),
            (
                json!({"turn": {"$lt": 1, "$gt": 0}}),
                "turn",
                "expected integer, found a mapping",
            ),
            (
                json!({"players": [{}, {"scor": 1}]}),
                "players[1].scor",
                "no field `scor` here (fields: score)",
            ),
        ] {
            refused_at(&schema, &then, path, says);
        }
    }

    /// schemars writes an `Option` of a struct as `anyOf` a `$ref` and `null`, a unit enum as
    /// `enum`, an internally tagged variant with a `const`: each fault is told as the first
    /// alternative's, at its own path.
    #[test]
    fn references_alternatives_and_enumerations_are_followed() {
        let schema = json!({
            "type": "object",
            "properties": {
                "outcome": {"anyOf": [{"$ref": "#/$defs/Outcome"}, {"type": "null"}]},
                "league": {"enum": ["wood2", "wood1", "bronze+"]},
                "kind": {"type": "string", "const": "hero"}
            },
            "$defs": {"Outcome": {
                "type": "object",
                "additionalProperties": false,
                "properties": {"winner": {"type": ["integer", "null"], "format": "uint"}}
            }}
        });
        for then in [
            json!({"outcome": null}),
            json!({"outcome": {"winner": 1}}),
            json!({"outcome": {"winner": {"$gte": 0}}, "league": "wood1", "kind": "hero"}),
        ] {
            assert_eq!(check(&schema, &then), Ok(()), "{then}");
        }
        for (then, path, says) in [
            (
                json!({"outcome": {"winer": 1}}),
                "outcome.winer",
                "no field `winer` here (fields: winner)",
            ),
            (
                json!({"outcome": {"winner": -1}}),
                "outcome.winner",
                "expected a whole number from 0 to",
            ),
            (json!({"outcome": 3}), "outcome", "expected object, found 3"),
            (
                json!({"league": "gold"}),
                "league",
                "expected one of \"wood2\", \"wood1\", \"bronze+\"",
            ),
            (json!({"kind": "mob"}), "kind", "expected \"hero\""),
        ] {
            refused_at(&schema, &then, path, says);
        }
    }

    /// A schema the walk cannot read is the game's fault, named, when the library loads.
    #[test]
    fn a_schema_the_walk_cannot_read_is_refused_by_name() {
        let pattern = json!({"type": "object", "properties": {"m": {
            "type": "object", "patternProperties": {"^[a-z]+$": {"type": "integer"}}
        }}});
        assert_eq!(
            ThenSchema::new(&pattern).err(),
            Some(SchemaError::Pattern("^[a-z]+$".into()))
        );
        let dangling = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}});
        assert_eq!(
            ThenSchema::new(&dangling).err(),
            Some(SchemaError::Reference("#/$defs/P".into()))
        );
        let signed = json!({"type": "object", "properties": {"m": {
            "type": "object", "additionalProperties": false,
            "patternProperties": {"^-?\\d+$": {"type": "integer"}}
        }}});
        assert_eq!(check(&signed, &json!({"m": {"-3": 1, "4": 2}})), Ok(()));
        let error = check(&signed, &json!({"m": {"-": 1}})).expect_err("no digits");
        assert_eq!(error.path, "m.-");
    }
}

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
//! The check is the `jsonschema` crate's, against a schema made once per game from the state's
//! ([`expectation`]): only the keywords above are kept (no `required`, no `minItems`),
//! `oneOf` is read as `anyOf`, a number may be a bound, a list element may be `{}`, and an
//! integer `format` of schemars (`uint32`) is the keyword `x-shinpan-whole`. This module only turns
//! the crate's first error into a message that names the path and what was expected.

use std::sync::Arc;

use jsonschema::error::{ValidationError, ValidationErrorKind};
use jsonschema::paths::Location;
use jsonschema::{Keyword, Validator};
use serde_json::{json, Map, Value};

use crate::seam::ReplyVerdict;

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
const BOUNDS: [&str; 4] = ["$lt", "$lte", "$gt", "$gte"];

/// The keyword an integer `format` of schemars becomes: the whole numbers it holds.
const WHOLE: &str = "x-shinpan-whole";

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

/// A path below `then` as it follows `then`.
fn below(path: &str) -> String {
    match path {
        "" => String::new(),
        p if p.starts_with('[') => p.to_string(),
        p => format!(".{p}"),
    }
}

/// The schema of a game's `then`, compiled once: whoever loads a game's cases makes one.
pub struct ThenSchema {
    /// The fields of the state, in the schema's order, for messages.
    fields: Vec<String>,
    /// What [`expectation`] made of the state's schema: the messages read it.
    schema: Value,
    validator: Validator,
}

impl ThenSchema {
    /// The schema of a `then` of the game whose state `state` describes (the game's,
    /// [`crate::seam::DynGame::schemas`]); an error if the crate cannot compile it.
    pub fn new(state: &Value) -> Result<ThenSchema, String> {
        let schema = expectation(state);
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(false)
            .with_keyword(WHOLE, whole_keyword)
            .build(&schema)
            .map_err(|e| format!("the schema of a `then` does not compile: {e}"))?;
        let fields = state
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        Ok(ThenSchema {
            fields,
            schema,
            validator,
        })
    }

    /// The first thing in `then` the state's schema does not allow.
    pub fn check(&self, then: &Value, kind: Kind) -> Result<(), ThenError> {
        let Value::Object(expected) = then else {
            return Err(ThenError::at("", "`then` is a mapping of what to check"));
        };
        for (key, value) in expected {
            self.check_beside(key, value, kind)?;
        }
        if self.validator.is_valid(then) {
            return Ok(());
        }
        let first = self.validator.iter_errors(then).min_by_key(order);
        Err(first.map_or_else(
            || ThenError::at("", "does not match the state's schema"),
            |e| self.explain(then, &e),
        ))
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

    /// The message for `error`, the crate's, at its path below `then`; of the alternatives of
    /// an `anyOf`, the first's.
    fn explain(&self, then: &Value, error: &ValidationError<'_>) -> ThenError {
        let path = path_below(then, error.instance_path());
        let node = schema_node(&self.schema, error.schema_path());
        let found = error.instance();
        let message = match error.kind() {
            ValidationErrorKind::AnyOf { context } => {
                match context.first().and_then(|c| c.iter().min_by_key(|e| order(e))) {
                    Some(first) => return self.explain(then, first),
                    None => "matches no alternative".to_string(),
                }
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let key = unexpected.first().map(String::as_str).unwrap_or_default();
                return ThenError::at(
                    join_key(&path, key),
                    format!("no field `{key}` here (fields: {})", names(node).join(", ")),
                );
            }
            ValidationErrorKind::Type { .. } => format!(
                "expected {}, found {}",
                types(node).join(" or "),
                describe(found)
            ),
            // Only a bound is refused by `not`: where no number stands.
            ValidationErrorKind::Not { .. } => format!(
                "expected {}, found a bound (`$lt`, `$lte`, `$gt`, `$gte`), which stands for a number",
                types(node).join(" or ")
            ),
            ValidationErrorKind::Enum { options } => format!(
                "expected one of {}",
                options.as_array().map_or_else(String::new, |o| list(o))
            ),
            ValidationErrorKind::Constant { expected_value } => format!("expected {expected_value}"),
            ValidationErrorKind::MaxItems { limit } => format!(
                "expected at most {limit} elements, found {}",
                found.as_array().map_or(0, Vec::len)
            ),
            ValidationErrorKind::Minimum { limit } => format!("expected at least {limit}, found {found}"),
            ValidationErrorKind::Maximum { limit } => format!("expected at most {limit}, found {found}"),
            ValidationErrorKind::Custom { message, .. } => message.clone(),
            other => format!("{other:?}"),
        };
        ThenError::at(path, message)
    }
}

/// Which of several errors is told: the shallowest, and at one place the one the order of the
/// checks meets first (what a value is before what it holds, its type before its range).
fn order(error: &ValidationError<'_>) -> (usize, u8) {
    let rank = match error.kind() {
        ValidationErrorKind::Enum { .. } => 0,
        ValidationErrorKind::Constant { .. } => 1,
        ValidationErrorKind::Type { .. } | ValidationErrorKind::Not { .. } => 2,
        ValidationErrorKind::AnyOf { .. } => 3,
        ValidationErrorKind::MaxItems { .. } => 4,
        ValidationErrorKind::Custom { .. } => 5,
        ValidationErrorKind::Minimum { .. } => 6,
        ValidationErrorKind::Maximum { .. } => 7,
        _ => 8,
    };
    (error.instance_path().iter().count(), rank)
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

/// `path.key`, or `key` at the top.
fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// An instance location as a path below `then` (`players[0].score`): a step into a list is
/// an index, any other a key.
fn path_below(then: &Value, at: &Location) -> String {
    let mut path = String::new();
    let mut here = Some(then);
    for segment in at.iter() {
        let step = segment.to_string();
        match here {
            Some(Value::Array(items)) => {
                path.push_str(&format!("[{step}]"));
                here = step.parse().ok().and_then(|i: usize| items.get(i));
            }
            _ => {
                path = join_key(&path, &step);
                here = here.and_then(|h| h.get(&step));
            }
        }
    }
    path
}

/// The schema that holds the keyword at `keyword` (a location in `schema`, `$ref`s resolved).
fn schema_node<'s>(schema: &'s Value, keyword: &Location) -> &'s Value {
    let segments: Vec<String> = keyword.iter().map(|s| s.to_string()).collect();
    let parent = &segments[..segments.len().saturating_sub(1)];
    parent
        .iter()
        .try_fold(schema, |node, step| match node {
            Value::Array(items) => step.parse().ok().and_then(|i: usize| items.get(i)),
            _ => node.get(step),
        })
        .unwrap_or(&Value::Null)
}

/// The fields an object schema names.
fn names(schema: &Value) -> Vec<&str> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The types a schema allows, as it names them.
fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => crate::text::quote(s),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}

fn list(values: &[Value]) -> String {
    values.iter().map(describe).collect::<Vec<_>>().join(", ")
}

/// The schema of a `then` made from the state's `schema`: see the module's documentation.
pub fn expectation(schema: &Value) -> Value {
    let mut root = partial(schema);
    let Value::Object(top) = &mut root else {
        return root;
    };
    if let Some(Value::Object(defs)) = schema.get("$defs") {
        let defs: Map<String, Value> = defs.iter().map(|(k, d)| (k.clone(), partial(d))).collect();
        top.insert("$defs".into(), Value::Object(defs));
    }
    // Beside the state, checked before the schema is (`ThenSchema::check_beside`).
    let properties = top.entry("properties").or_insert_with(|| json!({}));
    if let Value::Object(properties) = properties {
        for beside in ["prompts", "last_replies", "facts", "outcome"] {
            properties.entry(beside).or_insert(Value::Bool(true));
        }
    }
    root
}

/// A bound: one of `$lt`, `$lte`, `$gt`, `$gte`, with a number.
fn bound() -> Value {
    json!({
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"enum": BOUNDS},
        "additionalProperties": {"type": "number"}
    })
}

/// A list element that checks nothing: `{}`.
fn anything() -> Value {
    json!({"type": "object", "maxProperties": 0})
}

/// One schema of the state made the schema of a part of a `then`.
fn partial(schema: &Value) -> Value {
    let Value::Object(node) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in node {
        let kept = match key.as_str() {
            "$ref" | "type" | "enum" | "const" | "minimum" | "maximum" | "maxItems" => {
                value.clone()
            }
            "properties" | "patternProperties" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), partial(v)))
                    .collect(),
            ),
            "additionalProperties" => partial(value),
            "items" if value.is_object() => json!({"anyOf": [partial(value), anything()]}),
            "prefixItems" => Value::Array(
                value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|v| json!({"anyOf": [partial(v), anything()]}))
                    .collect(),
            ),
            "anyOf" | "oneOf" | "allOf" => {
                let parts = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(partial)
                    .collect();
                let key = if key == "allOf" { "allOf" } else { "anyOf" };
                out.insert(key.into(), Value::Array(parts));
                continue;
            }
            "format" if value.as_str().and_then(whole_range).is_some() => {
                out.insert(WHOLE.into(), value.clone());
                continue;
            }
            _ => continue,
        };
        out.insert(key.clone(), kept);
    }
    let allowed = types(schema);
    let numeric = allowed.iter().any(|t| matches!(*t, "number" | "integer"));
    if numeric && !out.contains_key("enum") && !out.contains_key("const") {
        return json!({"anyOf": [Value::Object(out), bound()]});
    }
    if allowed.contains(&"object") {
        out.insert("not".into(), bound());
    }
    Value::Object(out)
}

/// The whole numbers a `format` of schemars holds (`uint32`: 0 to 4294967295); `uint` and
/// `int` are 64-bit, as `usize` and `isize` are where shinpan runs.
fn whole_range(format: &str) -> Option<(i128, i128)> {
    let bits = |unsigned: bool, n: u32| {
        if unsigned {
            (0, (1i128 << n) - 1)
        } else {
            (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
        }
    };
    Some(match format {
        "uint8" => bits(true, 8),
        "uint16" => bits(true, 16),
        "uint32" => bits(true, 32),
        "uint64" | "uint" => bits(true, 64),
        "int8" => bits(false, 8),
        "int16" => bits(false, 16),
        "int32" => bits(false, 32),
        "int64" | "int" => bits(false, 64),
        _ => return None,
    })
}

/// [`WHOLE`]: a number inside the range of an integer `format`; a whole number written as a
/// float (`3.0`) is fine, `1e308` is past every format. What is no number passes.
struct Whole {
    format: Arc<str>,
    low: i128,
    high: i128,
}

impl Whole {
    fn holds(&self, number: &serde_json::Number) -> bool {
        let whole = number
            .as_i64()
            .map(i128::from)
            .or_else(|| number.as_u64().map(i128::from));
        match whole {
            Some(n) => (self.low..=self.high).contains(&n),
            None => number
                .as_f64()
                .is_some_and(|x| x >= self.low as f64 && x <= self.high as f64),
        }
    }
}

impl<'i> Keyword<'i> for Whole {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        match instance {
            Value::Number(n) if !self.holds(n) => Err(ValidationError::custom(format!(
                "expected a whole number from {} to {} ({}), found {n}",
                self.low, self.high, self.format
            ))),
            _ => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        !matches!(instance, Value::Number(n) if !self.holds(n))
    }
}

fn whole_keyword<'a>(
    _: &'a Map<String, Value>,
    value: &'a Value,
    _: Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let format = value.as_str().unwrap_or_default();
    let (low, high) = whole_range(format)
        .ok_or_else(|| ValidationError::schema(format!("{format} is no integer format")))?;
    Ok(Box::new(Whole {
        format: format.into(),
        low,
        high,
    }))
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
}

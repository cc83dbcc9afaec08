//! A case's `then` checked against the game's canonical-state schema when the library loads, so
//! that a misspelt key (`skil_gauge`) or a value of the wrong type (`score: "one"`) is a bad case
//! file at its line, not a failure blamed on the engine.
//!
//! `then` is a *subset* of a result, so the check is by shape only: every key it names must
//! exist (in the state, or among what the runner adds beside it), every value must have the
//! type the schema gives there, every number must be one the state can hold (its `minimum`,
//! `maximum` and integer `format`, as `given` is read), and no list may be longer than its
//! `maxItems`. A bound (`{$lt: 15}`) stands for a number; `{}` skips a list
//! element. This walks the JSON Schema that schemars writes (`$ref`, `$defs`, `anyOf`, `oneOf`,
//! `allOf`, `type`, `enum`, `const`, `properties`, `patternProperties` (a map keyed by ids),
//! `additionalProperties`, `items`, `prefixItems`, `minimum`, `maximum`, `format`, `maxItems`)
//! and nothing more.

use serde_json::{Map, Value};

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

/// The first thing in `then` the state's `schema` (the game's,
/// [`crate::seam::DynGame::schemas`]) does not allow.
pub fn check_then(schema: &Value, then: &Value, kind: Kind) -> Result<(), ThenError> {
    let Value::Object(expected) = then else {
        return Err(ThenError::at("", "`then` is a mapping of what to check"));
    };
    let walker = Walker { root: schema };
    let state = walker.resolve(schema);
    for (key, value) in expected {
        let here = key.clone();
        match (key.as_str(), kind) {
            ("prompts", Kind::Step) => check_list(value, &here, |v, p| {
                v.is_string()
                    .then_some(())
                    .ok_or_else(|| ThenError::at(p, "a prompt is the exact text, a string"))
            })?,
            ("last_replies", Kind::Step) => check_list(value, &here, |v, p| match v.as_str() {
                Some(name) if ReplyVerdict::NAMES.contains(&name) => Ok(()),
                _ => Err(ThenError::at(
                    p,
                    format!(
                        "a reply verdict is one of {}",
                        ReplyVerdict::NAMES.join(", ")
                    ),
                )),
            })?,
            // Facts are the game's own counts, with no schema.
            ("facts", _) => {}
            _ => match property(state, key) {
                Some(field) => walker.check(field, value, &here)?,
                None if key == "outcome" => {}
                None => {
                    return Err(ThenError::at(
                        here,
                        format!(
                            "the state has no field `{key}` (fields: {}{})",
                            names(state).join(", "),
                            match kind {
                                Kind::Step => "; beside them: prompts, last_replies, facts",
                                Kind::Generate => "; beside them: facts",
                            }
                        ),
                    ))
                }
            },
        }
    }
    Ok(())
}

/// One step of a path into a result, for [`path_exists`]: a field name, any field (`*`, the
/// keys of a map such as CEDEC's tiles), or a list element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStep<'p> {
    Key(&'p str),
    AnyKey,
    Element,
}

/// Whether `path` names a place in what a step case's `then` is matched against: a field of
/// the state `schema` describes (through `$ref`, `anyOf`, maps and lists), or `prompts`,
/// `last_replies`, `facts` or `outcome` beside it. Used to refuse a path nobody can mean (a
/// misspelt field an engine declares unmodelled) before anything runs.
pub fn path_exists(schema: &Value, path: &[PathStep<'_>]) -> bool {
    match path.first() {
        Some(PathStep::Key("prompts" | "last_replies")) => {
            path[1..].iter().all(|s| *s == PathStep::Element) && path.len() <= 2
        }
        Some(PathStep::Key("facts")) => true,
        Some(PathStep::Key("outcome")) if property(schema, "outcome").is_none() => true,
        _ => Walker { root: schema }.has(schema, path),
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

struct Walker<'s> {
    root: &'s Value,
}

/// The schema of `key` in an object schema, if it names it.
fn property<'s>(schema: &'s Value, key: &str) -> Option<&'s Value> {
    schema.get("properties").and_then(|p| p.get(key))
}

/// The schema of `key` in an object schema whose `patternProperties` has a pattern it matches.
/// A pattern that is no regular expression matches nothing.
fn pattern_property<'s>(schema: &'s Value, key: &str) -> Option<&'s Value> {
    let patterns = schema.get("patternProperties")?.as_object()?;
    patterns.iter().find_map(|(pattern, field)| {
        regex::Regex::new(pattern)
            .is_ok_and(|re| re.is_match(key))
            .then_some(field)
    })
}

fn names(schema: &Value) -> Vec<&str> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

fn is_bound(value: &Value) -> bool {
    matches!(value, Value::Object(m) if m.len() == 1
        && m.iter().all(|(k, v)| BOUNDS.contains(&k.as_str()) && v.is_number()))
}

impl<'s> Walker<'s> {
    /// Follows `$ref`s into `$defs`.
    fn resolve(&self, mut schema: &'s Value) -> &'s Value {
        for _ in 0..32 {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                return schema;
            };
            let target = reference
                .strip_prefix("#/")
                .map(|p| p.split('/').try_fold(self.root, |v, k| v.get(k)));
            match target {
                Some(Some(next)) => schema = next,
                _ => return schema,
            }
        }
        schema
    }

    /// Whether `path` leads somewhere from `schema`.
    fn has(&self, schema: &'s Value, path: &[PathStep<'_>]) -> bool {
        let schema = self.resolve(schema);
        let Some((step, rest)) = path.split_first() else {
            return true;
        };
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(alternatives)) = schema.get(key) {
                if alternatives.iter().any(|a| self.has(a, path)) {
                    return true;
                }
            }
        }
        let extra = schema.get("additionalProperties").filter(|e| e.is_object());
        match step {
            PathStep::Key(key) => {
                property(schema, key).is_some_and(|field| self.has(field, rest))
                    || extra.is_some_and(|e| self.has(e, rest))
            }
            PathStep::AnyKey => {
                extra.is_some_and(|e| self.has(e, rest))
                    || schema
                        .get("properties")
                        .and_then(Value::as_object)
                        .is_some_and(|p| p.values().any(|field| self.has(field, rest)))
            }
            PathStep::Element => {
                let prefix = schema.get("prefixItems").and_then(Value::as_array);
                prefix.is_some_and(|p| p.iter().any(|each| self.has(each, rest)))
                    || schema
                        .get("items")
                        .filter(|s| s.is_object())
                        .is_some_and(|each| self.has(each, rest))
            }
        }
    }

    fn check(&self, schema: &'s Value, value: &Value, path: &str) -> Result<(), ThenError> {
        let schema = self.resolve(schema);
        if matches!(value, Value::Object(m) if m.is_empty()) && path.ends_with(']') {
            // `{}` skips a list element.
            return Ok(());
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alternatives)) = schema.get(key) {
                let mut first_error = None;
                for alternative in alternatives {
                    match self.check(alternative, value, path) {
                        Ok(()) => return Ok(()),
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                }
                return Err(
                    first_error.unwrap_or_else(|| ThenError::at(path, "matches no alternative"))
                );
            }
        }
        if let Some(Value::Array(all)) = schema.get("allOf") {
            for part in all {
                self.check(part, value, path)?;
            }
        }
        if let Some(Value::Array(allowed)) = schema.get("enum") {
            if !allowed.contains(value) {
                return Err(ThenError::at(
                    path,
                    format!("expected one of {}", list(allowed)),
                ));
            }
        }
        if let Some(constant) = schema.get("const") {
            if constant != value {
                return Err(ThenError::at(path, format!("expected {constant}")));
            }
        }
        if let Some(types) = schema.get("type") {
            let types: Vec<&str> = match types {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !types.is_empty() && !types.iter().any(|t| has_type(value, t)) {
                return Err(ThenError::at(
                    path,
                    format!("expected {}, found {}", types.join(" or "), describe(value)),
                ));
            }
        }
        match value {
            Value::Object(map) if !is_bound(value) => self.check_object(schema, map, path),
            Value::Array(items) => {
                let most = schema.get("maxItems").and_then(Value::as_u64);
                if let Some(most) = most.filter(|&m| items.len() as u64 > m) {
                    return Err(ThenError::at(
                        path,
                        format!("expected at most {most} elements, found {}", items.len()),
                    ));
                }
                self.check_items(schema, items, path)
            }
            Value::Number(number) => check_range(schema, number, path),
            _ => Ok(()),
        }
    }

    fn check_object(
        &self,
        schema: &'s Value,
        map: &Map<String, Value>,
        path: &str,
    ) -> Result<(), ThenError> {
        for (key, value) in map {
            let here = format!("{path}.{key}");
            if let Some(field) = property(schema, key) {
                self.check(field, value, &here)?;
                continue;
            }
            if let Some(field) = pattern_property(schema, key) {
                self.check(field, value, &here)?;
                continue;
            }
            match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    return Err(ThenError::at(
                        here,
                        format!(
                            "no field `{key}` here (fields: {})",
                            names(schema).join(", ")
                        ),
                    ))
                }
                Some(extra @ Value::Object(_)) => self.check(extra, value, &here)?,
                _ => {}
            }
        }
        Ok(())
    }

    fn check_items(&self, schema: &'s Value, items: &[Value], path: &str) -> Result<(), ThenError> {
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        for (i, item) in items.iter().enumerate() {
            let here = format!("{path}[{i}]");
            let each = prefix
                .and_then(|p| p.get(i))
                .or_else(|| schema.get("items").filter(|s| s.is_object()));
            if let Some(each) = each {
                self.check(each, item, &here)?;
            }
        }
        Ok(())
    }
}

/// The whole numbers a `format` of schemars holds (`uint32`: 0 to 4294967295); `uint` and
/// `int` are 64-bit, as `usize` and `isize` are where shinpan runs.
fn format_range(format: &str) -> Option<(i128, i128)> {
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

/// A number of `then` against the `minimum`, `maximum` and integer `format` of its schema: a
/// value the state cannot hold (`turn: -1`, `4294967296` or `1e308` for a `uint32`) is a bad
/// case, not a failure of the engine.
fn check_range(schema: &Value, number: &serde_json::Number, path: &str) -> Result<(), ThenError> {
    let as_f64 = number.as_f64().unwrap_or(f64::NAN);
    let whole = number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from));
    let format = schema.get("format").and_then(Value::as_str);
    let out_of_range = |expected: String| {
        Err(ThenError::at(
            path,
            format!("expected {expected}, found {number}"),
        ))
    };
    if let Some((low, high)) = format.and_then(format_range) {
        // A whole number written as a float (`3.0`) is fine; `1e308` is past every format.
        let inside = match whole {
            Some(n) => (low..=high).contains(&n),
            None => as_f64 >= low as f64 && as_f64 <= high as f64,
        };
        if !inside {
            return out_of_range(format!(
                "a whole number from {low} to {high} ({})",
                format.unwrap_or_default()
            ));
        }
    }
    let below = |limit: &Value| match (whole, limit.as_i64()) {
        (Some(n), Some(l)) => n < i128::from(l),
        _ => limit.as_f64().is_some_and(|l| as_f64 < l),
    };
    let above = |limit: &Value| match (whole, limit.as_i64()) {
        (Some(n), Some(l)) => n > i128::from(l),
        _ => limit.as_f64().is_some_and(|l| as_f64 > l),
    };
    if let Some(minimum) = schema.get("minimum").filter(|m| below(m)) {
        return out_of_range(format!("at least {minimum}"));
    }
    if let Some(maximum) = schema.get("maximum").filter(|m| above(m)) {
        return out_of_range(format!("at most {maximum}"));
    }
    Ok(())
}

fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object() && !is_bound(value),
        "number" => value.is_number() || is_bound(value),
        "integer" => {
            is_bound(value)
                || value.is_i64()
                || value.is_u64()
                || value.as_f64().is_some_and(|x| x.fract() == 0.0)
        }
        _ => true,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `then: turn: -1`, `4294967296`, `1e308` and `score: -5` loaded, and were reported as
    /// the engine failing (issue 22.8): each is outside what the state can hold.
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
            let ThenError { path: at, message } =
                check_then(&schema, &then, Kind::Step).expect_err(&then.to_string());
            assert_eq!(at, path, "{then}");
            assert!(message.contains(says), "{then}: {message}");
        }
        for then in [
            json!({"turn": 4294967295u64, "score": 3.0, "gauge": 100}),
            json!({"turn": {"$lt": 15}}),
        ] {
            assert_eq!(check_then(&schema, &then, Kind::Step), Ok(()), "{then}");
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
            check_then(&schema, &json!({"units": {"12": {"hp": 1500}}}), Kind::Step),
            Ok(())
        );
        let error = check_then(&schema, &json!({"units": {"12": {"hq": 1}}}), Kind::Step)
            .expect_err("a misspelt field under a matching key");
        assert_eq!(error.path, "units.12.hq");
        let error = check_then(&schema, &json!({"units": {"x": {"hp": 1}}}), Kind::Step)
            .expect_err("a key no pattern matches");
        assert_eq!(error.path, "units.x");
    }
}

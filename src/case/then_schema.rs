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
//! The check is a walk of the state's schema beside the `then` (schemars writes it: `$ref`,
//! `type`, `properties`, `patternProperties` of integer keys, `additionalProperties`, `items`,
//! `prefixItems`, `anyOf`, `oneOf`, `allOf`, `enum`, `const`, `minimum`, `maximum`, `maxItems`
//! and the integer `format`s such as `uint32`); every other keyword, `required` and `minItems`
//! among them, is left unchecked. `oneOf` is read as `anyOf`. Of several faults the shallowest
//! is told, and at one place the first of: a value outside its `enum` or `const`, of the wrong
//! type, matching no alternative, a list too long, a number outside its `format`, its
//! `minimum`, its `maximum`; of the alternatives of an `anyOf`, the first's fault.

use serde_json::{Number, Value};

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

/// The key patterns of `patternProperties` that the walk reads: those schemars writes for a
/// map keyed by unsigned and by signed integers.
const INTEGER_KEYS: [(&str, bool); 2] = [(r"^\d+$", false), (r"^-?\d+$", true)];

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
    /// The state's schema, as the game gives it.
    schema: Value,
}

impl ThenSchema {
    /// The schema of a `then` of the game whose state `state` describes (the game's,
    /// [`crate::seam::DynGame::schemas`]); an error if it uses what the walk does not read.
    pub fn new(state: &Value) -> Result<ThenSchema, SchemaError> {
        readable(state, state)?;
        let fields = state
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        Ok(ThenSchema {
            fields,
            schema: state.clone(),
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
        let properties = self.schema.get("properties");
        let walk = Walk { root: &self.schema };
        let mut path = Vec::new();
        let mut found = Vec::new();
        for (key, value) in expected {
            // What the runner puts beside the state was checked above.
            let Some(field) = properties.and_then(|p| p.get(key)) else {
                continue;
            };
            path.push(Step::Key(key));
            walk.node(field, value, &mut path, &mut found);
            path.pop();
        }
        match first(found) {
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

/// Whether every `$ref` of `schema` leads somewhere in `root` and every key pattern is one the
/// walk reads.
fn readable(root: &Value, schema: &Value) -> Result<(), SchemaError> {
    match schema {
        Value::Object(node) => {
            if let Some(Value::String(to)) = node.get("$ref") {
                resolve(root, to).ok_or_else(|| SchemaError::Reference(to.clone()))?;
            }
            if let Some(Value::Object(patterns)) = node.get("patternProperties") {
                if let Some(p) = patterns.keys().find(|p| integer_keys(p).is_none()) {
                    return Err(SchemaError::Pattern(p.clone()));
                }
            }
            node.values().try_for_each(|v| readable(root, v))
        }
        Value::Array(items) => items.iter().try_for_each(|v| readable(root, v)),
        _ => Ok(()),
    }
}

/// The schema `reference` (`#/$defs/Player`) names in `root`.
fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// Whether the keys of `pattern` may be negative; `None`: not a pattern the walk reads.
fn integer_keys(pattern: &str) -> Option<bool> {
    INTEGER_KEYS
        .iter()
        .find(|(p, _)| *p == pattern)
        .map(|&(_, signed)| signed)
}

/// Whether `key` is a key `pattern` matches.
fn matches_key(pattern: &str, key: &str) -> bool {
    let digits = match integer_keys(pattern) {
        Some(true) => key.strip_prefix('-').unwrap_or(key),
        Some(false) => key,
        None => return false,
    };
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// One step of a path below `then`.
#[derive(Debug, Clone, Copy)]
enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

/// A path below `then` as messages write it (`players[0].score`).
fn written(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Index(i) => out.push_str(&format!("[{i}]")),
            Step::Key(key) => out = join_key(&out, key),
        }
    }
    out
}

/// Which fault is told first, at one place (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Enum,
    Constant,
    Type,
    NoAlternative,
    TooLong,
    NotWhole,
    Minimum,
    Maximum,
    Field,
}

/// A fault and where the walk met it.
struct Fault {
    depth: usize,
    rank: Rank,
    error: ThenError,
}

/// The fault to tell of several: the shallowest, then by rank, then the first met.
fn first(found: Vec<Fault>) -> Option<ThenError> {
    found
        .into_iter()
        .min_by_key(|f| (f.depth, f.rank))
        .map(|f| f.error)
}

/// The walk of a `then` beside the state's schema, whose `$ref`s lead into `root`.
struct Walk<'s> {
    root: &'s Value,
}

impl<'s> Walk<'s> {
    /// The faults of `value` against `schema`, at `path`, added to `found`.
    fn node<'v>(
        &self,
        schema: &'s Value,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Vec<Fault>,
    ) {
        let node = match schema {
            Value::Object(node) => node,
            Value::Bool(false) => {
                let error = ThenError::at(written(path), "nothing may stand here");
                return self.fault(path, Rank::Field, error, found);
            }
            _ => return,
        };
        // A bound stands for a number wherever one may stand (and no `enum` or `const` is set).
        if allows_number(schema) && !node.contains_key("enum") && !node.contains_key("const") {
            if is_bound(value) {
                return;
            }
            let mut inner = Vec::new();
            self.keywords(schema, value, path, &mut inner);
            return self.alternative_failed(path, inner, found);
        }
        self.keywords(schema, value, path, found);
    }

    /// The keywords of `schema` (an object) on `value`.
    fn keywords<'v>(
        &self,
        schema: &'s Value,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Vec<Fault>,
    ) {
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(self.root, r))
        {
            self.node(target, value, path, found);
        }
        if let Some(Value::Array(options)) = schema.get("enum") {
            if !options.contains(value) {
                let message = format!("expected one of {}", list(options));
                self.fault(
                    path,
                    Rank::Enum,
                    ThenError::at(written(path), message),
                    found,
                );
            }
        }
        if let Some(expected) = schema.get("const") {
            if expected != value {
                let message = format!("expected {expected}");
                self.fault(
                    path,
                    Rank::Constant,
                    ThenError::at(written(path), message),
                    found,
                );
            }
        }
        if schema.get("type").is_some() && !types(schema).iter().any(|t| is_type(value, t)) {
            let message = format!(
                "expected {}, found {}",
                types(schema).join(" or "),
                describe(value)
            );
            self.fault(
                path,
                Rank::Type,
                ThenError::at(written(path), message),
                found,
            );
        } else if types(schema).contains(&"object") && is_bound(value) {
            let message = format!(
                "expected {}, found a bound (`$lt`, `$lte`, `$gt`, `$gte`), which stands for a number",
                types(schema).join(" or ")
            );
            self.fault(
                path,
                Rank::Type,
                ThenError::at(written(path), message),
                found,
            );
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alternatives)) = schema.get(key) {
                self.any_of(alternatives, value, path, found);
            }
        }
        if let Some(Value::Array(all)) = schema.get("allOf") {
            for part in all {
                self.node(part, value, path, found);
            }
        }
        match value {
            Value::Number(n) => self.number(schema, n, path, found),
            Value::Object(map) => {
                for (key, item) in map {
                    path.push(Step::Key(key));
                    self.field(schema, key, item, path, found);
                    path.pop();
                }
            }
            Value::Array(items) => self.list(schema, items, path, found),
            _ => {}
        }
    }

    /// `value` against the first alternative it matches; where it matches none, the first
    /// alternative's fault.
    fn any_of<'v>(
        &self,
        alternatives: &'s [Value],
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Vec<Fault>,
    ) {
        let mut faults = Vec::new();
        for (i, alternative) in alternatives.iter().enumerate() {
            let mut these = Vec::new();
            self.node(alternative, value, path, &mut these);
            if these.is_empty() {
                return;
            }
            if i == 0 {
                faults = these;
            }
        }
        self.alternative_failed(path, faults, found);
    }

    /// A fault where `value` matched no alternative, told as the first alternative's `inner`.
    fn alternative_failed(&self, path: &[Step<'_>], inner: Vec<Fault>, found: &mut Vec<Fault>) {
        if let Some(error) = first(inner) {
            self.fault(path, Rank::NoAlternative, error, found);
        }
    }

    /// The entry `key` of an object, against its property, a pattern it matches or what any
    /// other entry must be; `path` ends in `key`.
    fn field<'v>(
        &self,
        schema: &'s Value,
        key: &'v str,
        item: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Vec<Fault>,
    ) {
        if let Some(property) = schema.get("properties").and_then(|p| p.get(key)) {
            return self.node(property, item, path, found);
        }
        let pattern = schema
            .get("patternProperties")
            .and_then(Value::as_object)
            .and_then(|ps| ps.iter().find(|(p, _)| matches_key(p, key)));
        if let Some((_, entry)) = pattern {
            return self.node(entry, item, path, found);
        }
        match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => {
                let message = format!(
                    "no field `{key}` here (fields: {})",
                    names(schema).join(", ")
                );
                // Told at the object that holds it, as a fault of that object.
                let at = &path[..path.len() - 1];
                let error = ThenError::at(written(path), message);
                self.fault(at, Rank::Field, error, found);
            }
            Some(other) => self.node(other, item, path, found),
            None => {}
        }
    }

    /// A list's length and elements; an element `{}` checks nothing.
    fn list<'v>(
        &self,
        schema: &'s Value,
        items: &'v [Value],
        path: &mut Vec<Step<'v>>,
        found: &mut Vec<Fault>,
    ) {
        if let Some(limit) = schema.get("maxItems").and_then(Value::as_u64) {
            if items.len() as u64 > limit {
                let message = format!("expected at most {limit} elements, found {}", items.len());
                self.fault(
                    path,
                    Rank::TooLong,
                    ThenError::at(written(path), message),
                    found,
                );
            }
        }
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        let rest = schema.get("items").filter(|i| i.is_object());
        for (i, item) in items.iter().enumerate() {
            let element = match prefix.and_then(|p| p.get(i)) {
                Some(element) => element,
                None if i < prefix.map_or(0, Vec::len) => continue,
                None => match rest {
                    Some(element) => element,
                    None => continue,
                },
            };
            if item.as_object().is_some_and(|o| o.is_empty()) {
                continue;
            }
            path.push(Step::Index(i));
            let mut inner = Vec::new();
            self.node(element, item, path, &mut inner);
            self.alternative_failed(path, inner, found);
            path.pop();
        }
    }

    /// A number's integer `format`, `minimum` and `maximum`.
    fn number(&self, schema: &'s Value, n: &Number, path: &[Step<'_>], found: &mut Vec<Fault>) {
        let format = schema.get("format").and_then(Value::as_str);
        if let Some((format, (low, high))) = format.and_then(|f| Some((f, whole_range(f)?))) {
            if !holds_whole(n, low, high) {
                let message =
                    format!("expected a whole number from {low} to {high} ({format}), found {n}");
                self.fault(
                    path,
                    Rank::NotWhole,
                    ThenError::at(written(path), message),
                    found,
                );
            }
        }
        if let Some(Value::Number(limit)) = schema.get("minimum") {
            if below_number(n, limit) {
                let message = format!("expected at least {limit}, found {n}");
                self.fault(
                    path,
                    Rank::Minimum,
                    ThenError::at(written(path), message),
                    found,
                );
            }
        }
        if let Some(Value::Number(limit)) = schema.get("maximum") {
            if below_number(limit, n) {
                let message = format!("expected at most {limit}, found {n}");
                self.fault(
                    path,
                    Rank::Maximum,
                    ThenError::at(written(path), message),
                    found,
                );
            }
        }
    }

    fn fault(&self, path: &[Step<'_>], rank: Rank, error: ThenError, found: &mut Vec<Fault>) {
        found.push(Fault {
            depth: path.len(),
            rank,
            error,
        });
    }
}

/// Whether `a` is less than `b`: exactly where both are whole numbers.
fn below_number(a: &Number, b: &Number) -> bool {
    match (whole(a), whole(b)) {
        (Some(a), Some(b)) => a < b,
        _ => a.as_f64().unwrap_or(f64::NAN) < b.as_f64().unwrap_or(f64::NAN),
    }
}

fn whole(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Whether `n` is a number from `low` to `high`; a whole number written as a float (`3.0`)
/// is one, `1e308` is past every format.
fn holds_whole(n: &Number, low: i128, high: i128) -> bool {
    match whole(n) {
        Some(n) => (low..=high).contains(&n),
        None => n
            .as_f64()
            .is_some_and(|x| x >= low as f64 && x <= high as f64),
    }
}

/// Whether a value is of JSON Schema type `name` (`3.0` is an integer).
fn is_type(value: &Value, name: &str) -> bool {
    match (name, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => {
            whole(n).is_some() || n.as_f64().is_some_and(|x| x.fract() == 0.0)
        }
        _ => false,
    }
}

/// Whether a schema allows a number.
fn allows_number(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => matches!(t.as_str(), "number" | "integer"),
        Some(Value::Array(ts)) => ts
            .iter()
            .any(|t| matches!(t.as_str(), Some("number" | "integer"))),
        _ => false,
    }
}

/// Whether `value` is a bound: one of `$lt`, `$lte`, `$gt`, `$gte`, with a number.
fn is_bound(value: &Value) -> bool {
    match value {
        Value::Object(map) if map.len() == 1 => map
            .iter()
            .all(|(k, v)| BOUNDS.contains(&k.as_str()) && v.is_number()),
        _ => false,
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

/// `path.key`, or `key` at the top.
fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
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

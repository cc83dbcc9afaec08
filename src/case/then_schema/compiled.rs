//! The state's schema made once into nodes ([`Compiled`]), and the walk of a `then` over them.
//! A node holds what the walk reads of one schema object, its `$ref` a node's index: a library
//! of whole states walks each of them without looking a keyword or a reference up by name.

use std::collections::HashMap;

use serde_json::{Number, Value};

use super::{SchemaError, ThenError, BOUNDS};

/// The key patterns of `patternProperties` that the walk reads: those schemars writes for a
/// map keyed by unsigned and by signed integers.
const INTEGER_KEYS: [(&str, bool); 2] = [(r"^\d+$", false), (r"^-?\d+$", true)];

/// The JSON Schema types, in the order of [`TYPES`]' bits.
const TYPES: [&str; 7] = [
    "null", "boolean", "string", "array", "object", "number", "integer",
];

/// The state's schema as nodes; node 0 is the state's.
pub(super) struct Compiled {
    nodes: Vec<Node>,
}

/// What the walk reads of one schema object.
#[derive(Default)]
struct Node {
    /// The schema `false`: nothing may stand here.
    nothing: bool,
    /// `type`, as the schema names them (for messages) and as bits of [`TYPES`].
    type_names: Vec<&'static str>,
    types: u8,
    reference: Option<usize>,
    enumeration: Option<Vec<Value>>,
    constant: Option<Value>,
    /// `anyOf` and `oneOf`, each a list of alternatives.
    alternatives: Vec<Vec<usize>>,
    all_of: Vec<usize>,
    minimum: Option<Number>,
    maximum: Option<Number>,
    /// An integer `format`: its name and the whole numbers it holds.
    whole: Option<(String, i128, i128)>,
    max_items: Option<u64>,
    /// The properties by name, sorted for a binary search (a string compared a few times is
    /// quicker than one hashed).
    properties: Vec<(String, usize)>,
    /// The property names in the schema's order, for messages.
    property_names: Vec<String>,
    /// Integer-keyed patterns: whether the keys may be negative, and the entry's node.
    patterns: Vec<(bool, usize)>,
    additional: Additional,
    prefix_items: Vec<usize>,
    items: Option<usize>,
}

/// `additionalProperties`.
#[derive(Default)]
enum Additional {
    #[default]
    Unchecked,
    Forbidden,
    Each(usize),
}

impl Compiled {
    /// The nodes of `root`, the state's schema; an error where it uses what the walk does not
    /// read.
    pub(super) fn new(root: &Value) -> Result<Compiled, SchemaError> {
        let mut maker = Maker {
            root,
            nodes: Vec::new(),
            references: HashMap::new(),
        };
        maker.node(root)?;
        Ok(Compiled { nodes: maker.nodes })
    }

    /// The node of the state's field `key`.
    pub(super) fn field(&self, key: &str) -> Option<usize> {
        self.nodes[0].property(key)
    }
}

/// Makes the nodes, each `$ref` once.
struct Maker<'s> {
    root: &'s Value,
    nodes: Vec<Node>,
    references: HashMap<&'s str, usize>,
}

impl<'s> Maker<'s> {
    fn node(&mut self, schema: &'s Value) -> Result<usize, SchemaError> {
        let at = self.nodes.len();
        self.nodes.push(Node::default());
        let node = self.make(schema)?;
        self.nodes[at] = node;
        Ok(at)
    }

    fn nodes(&mut self, list: Option<&'s Value>) -> Result<Vec<usize>, SchemaError> {
        list.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|s| self.node(s))
            .collect()
    }

    fn reference(&mut self, to: &'s str) -> Result<usize, SchemaError> {
        if let Some(&at) = self.references.get(to) {
            return Ok(at);
        }
        let target = to
            .strip_prefix('#')
            .and_then(|pointer| self.root.pointer(pointer))
            .ok_or_else(|| SchemaError::Reference(to.into()))?;
        // Known before it is made, so that a schema that refers to itself ends.
        let at = self.nodes.len();
        self.nodes.push(Node::default());
        self.references.insert(to, at);
        let node = self.make(target)?;
        self.nodes[at] = node;
        Ok(at)
    }

    fn make(&mut self, schema: &'s Value) -> Result<Node, SchemaError> {
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(false) => {
                return Ok(Node {
                    nothing: true,
                    ..Node::default()
                })
            }
            _ => return Ok(Node::default()),
        };
        let mut node = Node::default();
        let names: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for name in names {
            if let Some(bit) = TYPES.iter().position(|t| *t == name) {
                node.type_names.push(TYPES[bit]);
                node.types |= 1 << bit;
            }
        }
        if let Some(Value::String(to)) = map.get("$ref") {
            node.reference = Some(self.reference(to)?);
        }
        node.enumeration = map.get("enum").and_then(Value::as_array).cloned();
        node.constant = map.get("const").cloned();
        for key in ["anyOf", "oneOf"] {
            if map.contains_key(key) {
                let alternatives = self.nodes(map.get(key))?;
                node.alternatives.push(alternatives);
            }
        }
        node.all_of = self.nodes(map.get("allOf"))?;
        let number = |key| match map.get(key) {
            Some(Value::Number(n)) => Some(n.clone()),
            _ => None,
        };
        node.minimum = number("minimum");
        node.maximum = number("maximum");
        node.whole = map
            .get("format")
            .and_then(Value::as_str)
            .and_then(|f| whole_range(f).map(|(low, high)| (f.to_string(), low, high)));
        node.max_items = map.get("maxItems").and_then(Value::as_u64);
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (name, property) in properties {
                let at = self.node(property)?;
                node.properties.push((name.clone(), at));
                node.property_names.push(name.clone());
            }
        }
        if let Some(Value::Object(patterns)) = map.get("patternProperties") {
            for (pattern, entry) in patterns {
                let signed = INTEGER_KEYS
                    .iter()
                    .find(|(p, _)| p == pattern)
                    .map(|&(_, signed)| signed)
                    .ok_or_else(|| SchemaError::Pattern(pattern.clone()))?;
                let at = self.node(entry)?;
                node.patterns.push((signed, at));
            }
        }
        node.additional = match map.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Additional::Unchecked,
            Some(Value::Bool(false)) => Additional::Forbidden,
            Some(other) => Additional::Each(self.node(other)?),
        };
        node.properties.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        node.prefix_items = self.nodes(map.get("prefixItems"))?;
        if let Some(items) = map.get("items").filter(|i| i.is_object()) {
            node.items = Some(self.node(items)?);
        }
        Ok(node)
    }
}

/// The bits of [`TYPES`] a value is of (a whole number is a number and an integer).
fn type_bits(value: &Value) -> u8 {
    match value {
        Value::Null => 1,
        Value::Bool(_) => 1 << 1,
        Value::String(_) => 1 << 2,
        Value::Array(_) => 1 << 3,
        Value::Object(_) => OBJECT,
        Value::Number(n) if whole(n).is_some() || n.as_f64().is_some_and(|x| x.fract() == 0.0) => {
            NUMBERS
        }
        Value::Number(_) => 1 << 5,
    }
}

/// The bit of an object in [`TYPES`], and those of a number and an integer.
const OBJECT: u8 = 1 << 4;
const NUMBERS: u8 = 1 << 5 | 1 << 6;

impl Node {
    fn property(&self, key: &str) -> Option<usize> {
        let at = self
            .properties
            .binary_search_by(|(name, _)| name.as_str().cmp(key))
            .ok()?;
        Some(self.properties[at].1)
    }

    /// A bound stands for a number here: a number may stand, and no `enum` or `const` is set.
    fn takes_bound(&self) -> bool {
        self.types & NUMBERS != 0 && self.enumeration.is_none() && self.constant.is_none()
    }

    fn type_list(&self) -> String {
        self.type_names.join(" or ")
    }
}

/// One step of a path below `then`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

/// A path below `then` as messages write it (`players[0].score`).
fn written(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Index(i) => out.push_str(&format!("[{i}]")),
            Step::Key(key) if out.is_empty() => out.push_str(key),
            Step::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
        }
    }
    out
}

/// Which fault is told first, at one place (see `then_schema`'s documentation).
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
pub(super) struct Fault {
    depth: usize,
    rank: Rank,
    error: ThenError,
}

/// The faults a walk met: every one, or only whether there is one (an alternative tried, whose
/// faults are not told unless no alternative holds): then no message is written.
pub(super) struct Faults {
    kept: Vec<Fault>,
    keep: bool,
    any: bool,
}

impl Faults {
    /// Faults to tell.
    pub(super) fn kept() -> Faults {
        Faults {
            kept: Vec::new(),
            keep: true,
            any: false,
        }
    }

    /// Faults of a part, kept as `self` keeps them.
    fn like(&self) -> Faults {
        Faults {
            kept: Vec::new(),
            keep: self.keep,
            any: false,
        }
    }

    /// Whether there are any, not what they are.
    fn counted() -> Faults {
        Faults {
            kept: Vec::new(),
            keep: false,
            any: false,
        }
    }

    fn add(&mut self, depth: usize, rank: Rank, error: impl FnOnce() -> ThenError) {
        self.any = true;
        if self.keep {
            self.kept.push(Fault {
                depth,
                rank,
                error: error(),
            });
        }
    }

    /// The fault to tell: the shallowest, then by rank, then the first met.
    pub(super) fn first(self) -> Option<ThenError> {
        self.kept
            .into_iter()
            .min_by_key(|f| (f.depth, f.rank))
            .map(|f| f.error)
    }
}

fn fault(path: &[Step<'_>], rank: Rank, message: impl FnOnce() -> String, found: &mut Faults) {
    found.add(path.len(), rank, || ThenError::at(written(path), message()));
}

impl Compiled {
    /// The faults of `value` against node `at`, at `path`, added to `found`.
    pub(super) fn walk<'v>(
        &self,
        at: usize,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Faults,
    ) {
        let node = &self.nodes[at];
        if node.nothing {
            return fault(path, Rank::Field, || "nothing may stand here".into(), found);
        }
        if node.takes_bound() {
            if is_bound(value) {
                return;
            }
            let mut inner = found.like();
            self.keywords(node, value, path, &mut inner);
            return alternative_failed(path, inner, found);
        }
        self.keywords(node, value, path, found);
    }

    fn keywords<'v>(
        &self,
        node: &Node,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Faults,
    ) {
        if let Some(target) = node.reference {
            self.walk(target, value, path, found);
        }
        if let Some(options) = &node.enumeration {
            if !options.contains(value) {
                let message = || format!("expected one of {}", list(options));
                fault(path, Rank::Enum, message, found);
            }
        }
        if let Some(expected) = &node.constant {
            if expected != value {
                fault(
                    path,
                    Rank::Constant,
                    || format!("expected {expected}"),
                    found,
                );
            }
        }
        if node.types != 0 && node.types & type_bits(value) == 0 {
            let message = || format!("expected {}, found {}", node.type_list(), describe(value));
            fault(path, Rank::Type, message, found);
        } else if node.types & OBJECT != 0 && is_bound(value) {
            let message = || {
                format!(
                    "expected {}, found a bound (`$lt`, `$lte`, `$gt`, `$gte`), which stands for a number",
                    node.type_list()
                )
            };
            fault(path, Rank::Type, message, found);
        }
        for alternatives in &node.alternatives {
            self.any_of(alternatives, value, path, found);
        }
        for &part in &node.all_of {
            self.walk(part, value, path, found);
        }
        match value {
            Value::Number(n) => number(node, n, path, found),
            Value::Object(map) => {
                for (key, item) in map {
                    path.push(Step::Key(key));
                    self.entry(node, key, item, path, found);
                    path.pop();
                }
            }
            Value::Array(items) => self.list(node, items, path, found),
            _ => {}
        }
    }

    /// `value` against the first alternative it matches; where it matches none, the first
    /// alternative's fault.
    fn any_of<'v>(
        &self,
        alternatives: &[usize],
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Faults,
    ) {
        for &alternative in alternatives {
            let mut these = Faults::counted();
            self.walk(alternative, value, path, &mut these);
            if !these.any {
                return;
            }
        }
        let mut faults = found.like();
        if let Some(&first) = alternatives.first() {
            self.walk(first, value, path, &mut faults);
        }
        alternative_failed(path, faults, found);
    }

    /// The entry `key` of an object, against its property, a pattern it matches or what any
    /// other entry must be; `path` ends in `key`.
    fn entry<'v>(
        &self,
        node: &Node,
        key: &'v str,
        item: &'v Value,
        path: &mut Vec<Step<'v>>,
        found: &mut Faults,
    ) {
        if let Some(property) = node.property(key) {
            return self.walk(property, item, path, found);
        }
        if let Some(&(_, entry)) = node.patterns.iter().find(|(s, _)| integer_key(key, *s)) {
            return self.walk(entry, item, path, found);
        }
        match node.additional {
            Additional::Forbidden => {
                // Told as a fault of the object that holds it, at the entry's path.
                found.add(path.len() - 1, Rank::Field, || {
                    let fields = node.property_names.join(", ");
                    let message = format!("no field `{key}` here (fields: {fields})");
                    ThenError::at(written(path), message)
                });
            }
            Additional::Each(each) => self.walk(each, item, path, found),
            Additional::Unchecked => {}
        }
    }

    /// A list's length and elements; an element `{}` checks nothing.
    fn list<'v>(
        &self,
        node: &Node,
        items: &'v [Value],
        path: &mut Vec<Step<'v>>,
        found: &mut Faults,
    ) {
        if let Some(limit) = node.max_items {
            if items.len() as u64 > limit {
                let message =
                    || format!("expected at most {limit} elements, found {}", items.len());
                fault(path, Rank::TooLong, message, found);
            }
        }
        for (i, item) in items.iter().enumerate() {
            let element = match node.prefix_items.get(i) {
                Some(&element) => element,
                None if i < node.prefix_items.len() => continue,
                None => match node.items {
                    Some(element) => element,
                    None => continue,
                },
            };
            if item.as_object().is_some_and(|o| o.is_empty()) {
                continue;
            }
            path.push(Step::Index(i));
            let mut inner = found.like();
            self.walk(element, item, path, &mut inner);
            alternative_failed(path, inner, found);
            path.pop();
        }
    }
}

/// A fault where `value` matched no alternative, told as the first alternative's `inner`.
fn alternative_failed(path: &[Step<'_>], inner: Faults, found: &mut Faults) {
    if !inner.any {
        return;
    }
    match inner.first() {
        Some(error) => found.add(path.len(), Rank::NoAlternative, || error),
        None => found.any = true,
    }
}

/// A number's integer `format`, `minimum` and `maximum`.
fn number(node: &Node, n: &Number, path: &[Step<'_>], found: &mut Faults) {
    if let Some((format, low, high)) = &node.whole {
        if !holds_whole(n, *low, *high) {
            let message =
                || format!("expected a whole number from {low} to {high} ({format}), found {n}");
            fault(path, Rank::NotWhole, message, found);
        }
    }
    if let Some(limit) = &node.minimum {
        if below(n, limit) {
            fault(
                path,
                Rank::Minimum,
                || format!("expected at least {limit}, found {n}"),
                found,
            );
        }
    }
    if let Some(limit) = &node.maximum {
        if below(limit, n) {
            fault(
                path,
                Rank::Maximum,
                || format!("expected at most {limit}, found {n}"),
                found,
            );
        }
    }
}

/// Whether `key` is an integer key (with a sign where `signed`).
fn integer_key(key: &str, signed: bool) -> bool {
    let digits = if signed {
        key.strip_prefix('-').unwrap_or(key)
    } else {
        key
    };
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `a` is less than `b`: exactly where both are whole numbers.
fn below(a: &Number, b: &Number) -> bool {
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

/// Whether `value` is a bound: one of `$lt`, `$lte`, `$gt`, `$gte`, with a number.
fn is_bound(value: &Value) -> bool {
    match value {
        Value::Object(map) if map.len() == 1 => map
            .iter()
            .all(|(k, v)| BOUNDS.contains(&k.as_str()) && v.is_number()),
        _ => false,
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

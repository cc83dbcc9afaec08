//! YAML text to JSON values, in one streaming pass that knows where every node is.
//!
//! Case files are YAML, but everything after loading works on JSON values (the canonical
//! state is JSON). This reader turns the parser's events straight into a [`Value`], and keeps
//! the position of only the nodes its caller asks for (the cases of a file); the position of
//! any other node, named by its path, is found by [`locate`] in one more pass when an error
//! needs it. So loading is linear in the file's size, and memory is the values themselves.
//!
//! It refuses, at their line and column, what a case file never needs and a hostile file could
//! use: nesting deeper than [`MAX_DEPTH`], anchors and aliases (no "billion laughs"), tags, keys
//! that are not scalars, a key given twice, numbers past 64 bits and non-finite numbers (`.nan`,
//! `.inf`: the canonical state has none). Scalars resolve as YAML 1.2's core schema says.

use std::borrow::Cow;
use std::fmt;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, StrInput};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// Deepest nesting of collections accepted. The deepest case in the library is 7 levels.
pub const MAX_DEPTH: usize = 64;

/// A place in a text: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub col: usize,
}

/// A problem with the YAML itself, at its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub at: Position,
    pub message: String,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.at.line, self.at.col, self.message)
    }
}

/// One step of a path into a document: a mapping key or a sequence index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// A path as `cases[3].given.players[0].field`: the form `serde_path_to_error` writes.
pub fn path_text(path: &[Segment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Reads a path written by [`path_text`] (or by `serde_path_to_error`) back into segments.
/// Keys holding `.` or `[` cannot be told apart and are read as separators.
pub fn parse_path(text: &str) -> Vec<Segment> {
    let mut path = Vec::new();
    for part in text.split('.').filter(|p| !p.is_empty()) {
        let (key, indices) = part
            .split_once('[')
            .map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            path.push(Segment::Key(key.to_string()));
        }
        for index in indices.split('[') {
            if let Ok(i) = index.trim_end_matches(']').parse() {
                path.push(Segment::Index(i));
            }
        }
    }
    path
}

/// Joins a path below `prefix` (as `serde_path_to_error` writes it, `.` for the top) to it.
pub fn join(prefix: &str, inner: &str) -> String {
    match (prefix, inner) {
        (p, "." | "") => p.to_string(),
        ("", i) => i.to_string(),
        (p, i) if i.starts_with('[') => format!("{p}{i}"),
        (p, i) => format!("{p}.{i}"),
    }
}

/// Reads `value`, which was read from `text` (at `prefix` within it, empty for the whole), as
/// `T`; an error is placed at the node it names.
pub fn deserialize<T: serde::de::DeserializeOwned>(
    text: &str,
    value: &Value,
    prefix: &str,
) -> Result<T, YamlError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = join(prefix, &e.path().to_string());
        YamlError {
            at: locate(text, &parse_path(&path)).unwrap_or(Position { line: 1, col: 1 }),
            message: e.into_inner().to_string(),
        }
    })
}

/// The document's value, and the positions of the nodes `mark` asked for (keyed by path).
pub struct Parsed {
    pub value: Value,
    pub marks: Vec<(Vec<Segment>, Position)>,
}

/// Reads the one document of `text`. `mark` is asked about every node's path; the position of
/// each node it says yes to is returned (for a mapping entry, the position of its key).
pub fn parse(text: &str, mark: &dyn Fn(&[Segment]) -> bool) -> Result<Parsed, YamlError> {
    let mut walk = Walk::new(text, mark, None);
    let value = walk.document()?;
    Ok(Parsed {
        value,
        marks: walk.marks,
    })
}

/// What [`parse_each`] does with each element of the list it hands on: go on, or stop reading.
pub type Each<'e> = dyn FnMut(Position, Value) -> std::ops::ControlFlow<()> + 'e;

/// Reads the one document of `text` as [`parse`] does, but hands each element of the list
/// under the top-level key `key` to `each` as soon as it is read, with its position, and keeps
/// none of them: that list is empty in the value returned. So a file of thousands of cases
/// takes the room of one case at a time. `Ok(None)`: `each` stopped the reading.
pub fn parse_each(text: &str, key: &str, each: &mut Each<'_>) -> Result<Option<Value>, YamlError> {
    let never = |_: &[Segment]| false;
    let mut walk = Walk::new(text, &never, Some((key, each)));
    walk.names_keys = false;
    match walk.document() {
        Err(_) if walk.stopped => Ok(None),
        result => result.map(Some),
    }
}

/// The position of the node at `path` (of its key, for a mapping entry), or of the deepest
/// node on the way to it that exists. `None` only for a text that is not YAML.
pub fn locate(text: &str, path: &[Segment]) -> Option<Position> {
    let never = |_: &[Segment]| false;
    let mut walk = Walk::new(text, &never, None);
    walk.target = Some(path);
    // An error after the target was passed does not matter.
    let _ = walk.document();
    walk.found.map(|(_, at)| at)
}

struct Walk<'t, 'm> {
    parser: Parser<'t, StrInput<'t>>,
    path: Vec<Segment>,
    mark: &'m dyn Fn(&[Segment]) -> bool,
    marks: Vec<(Vec<Segment>, Position)>,
    /// For [`locate`]: the path sought, and the deepest prefix of it seen so far.
    target: Option<&'m [Segment]>,
    found: Option<(usize, Position)>,
    /// For [`parse_each`]: the top-level key whose list is handed on, and to what.
    each: Option<(&'m str, &'m mut Each<'m>)>,
    /// Whether `each` stopped the reading.
    stopped: bool,
    /// Whether the keys below the top level are named in `path`: only `mark` and `target` read
    /// them, and copying every key of a large file was a tenth of its reading.
    names_keys: bool,
}

impl<'t, 'm> Walk<'t, 'm> {
    fn new(
        text: &'t str,
        mark: &'m dyn Fn(&[Segment]) -> bool,
        each: Option<(&'m str, &'m mut Each<'m>)>,
    ) -> Walk<'t, 'm> {
        Walk {
            parser: Parser::new_from_str(text),
            path: Vec::new(),
            mark,
            marks: Vec::new(),
            target: None,
            found: None,
            each,
            stopped: false,
            names_keys: true,
        }
    }

    /// Whether the elements of the list now being read are handed on, not kept.
    fn hands_on(&self) -> bool {
        matches!((&self.each, self.path.as_slice()),
            (Some((key, _)), [Segment::Key(k)]) if k == key)
    }

    /// Hands `item` on, or keeps it in `items`; an error (never shown) when `each` stops.
    fn take(&mut self, items: &mut Vec<Value>, at: Position, item: Value) -> Result<(), YamlError> {
        let Some((_, each)) = self.each.as_mut() else {
            items.push(item);
            return Ok(());
        };
        match each(at, item) {
            std::ops::ControlFlow::Continue(()) => Ok(()),
            std::ops::ControlFlow::Break(()) => {
                self.stopped = true;
                Err(error(at, "stopped"))
            }
        }
    }
}

fn position(span: &Span) -> Position {
    Position {
        line: span.start.line(),
        col: span.start.col() + 1,
    }
}

fn error(at: Position, message: impl Into<String>) -> YamlError {
    YamlError {
        at,
        message: message.into(),
    }
}

impl<'t> Walk<'t, '_> {
    fn next(&mut self) -> Result<(Event<'t>, Span), YamlError> {
        match self.parser.next_event() {
            Some(Ok(event)) => Ok(event),
            Some(Err(e)) => {
                let m = e.marker();
                Err(error(
                    Position {
                        line: m.line(),
                        col: m.col() + 1,
                    },
                    e.info().to_string(),
                ))
            }
            None => Err(error(
                Position { line: 1, col: 1 },
                "unexpected end of the YAML",
            )),
        }
    }

    fn document(&mut self) -> Result<Value, YamlError> {
        let mut value = Value::Null;
        let mut documents = 0;
        loop {
            let (event, span) = self.next()?;
            match event {
                Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
                Event::StreamEnd => return Ok(value),
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 {
                        return Err(error(
                            position(&span),
                            "a case file holds one YAML document",
                        ));
                    }
                    let (event, span) = self.next()?;
                    value = self.node(event, span)?;
                }
                other => {
                    return Err(error(position(&span), format!("unexpected {other:?}")));
                }
            }
        }
    }

    /// Records the position of the node at the current path where asked.
    fn seen(&mut self, at: Position) {
        if (self.mark)(&self.path) {
            self.marks.push((self.path.clone(), at));
        }
        if let Some(target) = self.target {
            let depth = self.path.len();
            if depth <= target.len()
                && target[..depth] == self.path[..]
                && self.found.is_none_or(|(d, _)| depth >= d)
            {
                self.found = Some((depth, at));
            }
        }
    }

    fn node(&mut self, event: Event<'t>, span: Span) -> Result<Value, YamlError> {
        let at = position(&span);
        if self.path.len() >= MAX_DEPTH {
            return Err(error(
                at,
                format!("nested more than {MAX_DEPTH} levels deep; a case never needs that"),
            ));
        }
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                refuse_anchor_and_tag(at, anchor, tag.is_some())?;
                scalar(text, style, at)
            }
            Event::SequenceStart(anchor, tag) => {
                refuse_anchor_and_tag(at, anchor, tag.is_some())?;
                let hands_on = self.hands_on();
                let (mut items, mut count) = (Vec::new(), 0);
                loop {
                    let (event, span) = self.next()?;
                    if matches!(event, Event::SequenceEnd) {
                        return Ok(Value::Array(items));
                    }
                    let item_at = position(&span);
                    self.path.push(Segment::Index(count));
                    self.seen(item_at);
                    let item = self.node(event, span);
                    self.path.pop();
                    count += 1;
                    match item {
                        Ok(item) if hands_on => self.take(&mut items, item_at, item)?,
                        item => items.push(item?),
                    }
                }
            }
            Event::MappingStart(anchor, tag) => {
                refuse_anchor_and_tag(at, anchor, tag.is_some())?;
                let mut map = Map::new();
                loop {
                    let (event, span) = self.next()?;
                    let key_at = position(&span);
                    let key = match event {
                        Event::MappingEnd => return Ok(Value::Object(map)),
                        Event::Scalar(text, _, anchor, tag) => {
                            refuse_anchor_and_tag(key_at, anchor, tag.is_some())?;
                            text.into_owned()
                        }
                        _ => return Err(error(key_at, "a mapping key must be plain text")),
                    };
                    let entry = match map.entry(key) {
                        Entry::Vacant(entry) => entry,
                        Entry::Occupied(given) => {
                            let key = given.key();
                            return Err(error(key_at, format!("the key `{key}` is given twice")));
                        }
                    };
                    let named = if self.names_keys || self.path.is_empty() {
                        entry.key().clone()
                    } else {
                        String::new()
                    };
                    self.path.push(Segment::Key(named));
                    self.seen(key_at);
                    let value = self.next().and_then(|(event, span)| self.node(event, span));
                    self.path.pop();
                    entry.insert(value?);
                }
            }
            Event::Alias(_) => Err(error(
                at,
                "anchors and aliases are not used in case files: write the value out",
            )),
            other => Err(error(at, format!("unexpected {other:?}"))),
        }
    }
}

fn refuse_anchor_and_tag(at: Position, anchor: usize, tagged: bool) -> Result<(), YamlError> {
    if anchor != 0 {
        return Err(error(
            at,
            "anchors and aliases are not used in case files: write the value out",
        ));
    }
    if tagged {
        return Err(error(at, "tags (`!...`) are not used in case files"));
    }
    Ok(())
}

/// A scalar by YAML 1.2's core schema: quoted and block scalars are text; a plain one may be
/// null, a boolean, an integer or a float.
fn scalar(text: Cow<'_, str>, style: ScalarStyle, at: Position) -> Result<Value, YamlError> {
    if style != ScalarStyle::Plain {
        return Ok(Value::String(text.into_owned()));
    }
    Ok(match &*text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => match number(&text) {
            Some(Ok(number)) => Value::Number(number),
            Some(Err(why)) => return Err(error(at, why)),
            None => Value::String(text.into_owned()),
        },
    })
}

/// `None` when `text` is not a number in the core schema; an error for one that has no JSON
/// form.
fn number(text: &str) -> Option<Result<Number, String>> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let negative = text.starts_with('-');
    let radix = |digits: &str, radix: u32| {
        u64::from_str_radix(digits, radix)
            .map(Number::from)
            .map_err(|_| format!("the number {text} does not fit in 64 bits"))
    };
    if let Some(hex) = text.strip_prefix("0x").filter(|h| is_digits(h, 16)) {
        return Some(radix(hex, 16));
    }
    if let Some(octal) = text.strip_prefix("0o").filter(|o| is_digits(o, 8)) {
        return Some(radix(octal, 8));
    }
    if is_digits(unsigned, 10) {
        let parsed = if negative {
            text.parse::<i64>().map(Number::from).ok()
        } else {
            unsigned.parse::<u64>().map(Number::from).ok()
        };
        return Some(parsed.ok_or_else(|| format!("the number {text} does not fit in 64 bits")));
    }
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(Err(format!(
            "{text} is not a finite number; the canonical state has none"
        )));
    }
    if !is_float(unsigned) {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    Some(
        Number::from_f64(value)
            .filter(|_| value.is_finite())
            .ok_or_else(|| format!("the number {text} is too large for a 64-bit float")),
    )
}

fn is_digits(text: &str, radix: u32) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_digit(radix))
}

/// `[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?` or `\.[0-9]+([eE]...)?`.
fn is_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (int, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mantissa_ok = (is_digits(int, 10) && fraction.chars().all(|c| c.is_ascii_digit()))
        || (int.is_empty() && is_digits(fraction, 10));
    let exponent_ok =
        exponent.is_none_or(|e| is_digits(e.strip_prefix(['-', '+']).unwrap_or(e), 10));
    mantissa_ok && exponent_ok && (mantissa.contains('.') || exponent.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Result<Value, YamlError> {
        parse(text, &|_| false).map(|p| p.value)
    }

    #[test]
    fn core_schema_scalars() {
        let value = read(
            "a: 1\nb: -2\nc: 2.5\nd: true\ne: ~\nf: '3'\ng: x y\nh: 0x1f\ni: 1e3\nj: |\n  line\n",
        )
        .unwrap();
        assert_eq!(
            value,
            json!({"a": 1, "b": -2, "c": 2.5, "d": true, "e": null, "f": "3", "g": "x y",
                   "h": 31, "i": 1000.0, "j": "line\n"})
        );
        assert_eq!(read("18446744073709551615").unwrap(), json!(u64::MAX));
    }

    #[test]
    fn what_has_no_json_form_is_refused_where_it_stands() {
        let err = read("a:\n  b: 18446744073709551616\n").unwrap_err();
        assert_eq!((err.at.line, err.at.col), (2, 6));
        assert!(err.message.contains("64 bits"), "{err}");
        for text in ["x: .nan", "x: -.inf", "x: 1e999"] {
            assert!(read(text).is_err(), "{text}");
        }
    }

    #[test]
    fn duplicate_keys_are_reported_at_the_second() {
        let err = read("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!((err.at.line, err.at.col), (3, 1));
    }

    #[test]
    fn aliases_and_tags_are_refused() {
        assert!(read("a: &x [1]\nb: *x\n").is_err());
        assert!(read("a: !!str 1\n").is_err());
    }

    #[test]
    fn deep_nesting_is_refused_at_once() {
        let text = "[".repeat(200_000);
        let started = std::time::Instant::now();
        let err = read(&text).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert_eq!(err.at.line, 1, "{err}");
        let block: String = (0..100)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        assert!(read(&block).is_err());
    }

    #[test]
    fn marks_and_locate_find_nodes() {
        let text = "game: g\ncases:\n  - id: a\n    then:\n      players:\n        - {score: 1}\n  - id: b\n";
        let parsed = parse(text, &|p| p.len() == 2).unwrap();
        let lines: Vec<usize> = parsed.marks.iter().map(|(_, at)| at.line).collect();
        assert_eq!(lines, [3, 7]);
        let at = locate(text, &parse_path("cases[0].then.players[0].score")).unwrap();
        assert_eq!((at.line, at.col), (6, 12));
        // A path that goes past what exists stops at its deepest existing node.
        let at = locate(text, &parse_path("cases[0].then.players[0].skil_gauge")).unwrap();
        assert_eq!(at.line, 6);
    }

    #[test]
    fn paths_round_trip() {
        let path = parse_path("cases[3].given.players[0].field");
        assert_eq!(path_text(&path), "cases[3].given.players[0].field");
        assert_eq!(path.len(), 6);
    }
}

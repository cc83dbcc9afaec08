//! What an engine under test does not model: a partial model of a game is still worth checking
//! on everything else. A simulator with no skill gauge, or one that renders no prompts, declares
//! so ([`EngineUnderTest::unmodelled`](super::EngineUnderTest::unmodelled); an adapter in its
//! `hello`), and the runner leaves those parts out of both sides of every comparison: out of a
//! case's `then` and out of the engine's result. The case then passes or fails on what *is*
//! modelled, and the report names what was left out; a case that checks nothing else is
//! unsupported, with the reason.
//!
//! A [`Mask`] holds field paths into the result a case's `then` is matched against (the
//! canonical state, with `prompts` and `last_replies` beside it) and protocol texts the engine
//! has no parser for. A path is dotted field names, `[]` for every element of a list or `[N]`
//! for one, and `*` for every field of a map: `players[].skill_gauge`, `players[1].field`,
//! `prompts`, `tiles.*.robots`. It ends in a field name: a masked field is *removed*, so that
//! the state an engine returns takes the field's default where it left it out, and removing a
//! list element would shift the others.
//!
//! This knows no game: [`Mask::check`] asks the game's schema whether each path names a field,
//! so that a misspelt path is refused instead of silently masking nothing.

use std::fmt;

use serde_json::Value;

use crate::case::schema::{path_exists, PathStep};
use crate::seam::DynGame;

/// A declared mask that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaskError {
    #[error("the unmodelled path `{path}` is not a path: {why}")]
    Syntax { path: String, why: String },
    #[error(
        "the unmodelled path `{path}` names no field of {game}'s result (the canonical state of \
         `shinpan schema {game}`, with prompts and last_replies beside it)"
    )]
    NoSuchField { game: String, path: String },
    #[error("{game} is built without its `schema` feature: no path can be checked against it")]
    NoSchema { game: String },
    #[error("the unmodelled protocol text `{kind}` is not one of {game}'s: {known}")]
    NoSuchText {
        game: String,
        kind: String,
        known: String,
    },
}

/// One step of a [`FieldPath`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    /// `*`: every field of a map.
    AnyKey,
    /// `[N]`.
    Index(usize),
    /// `[]`: every element of a list.
    AnyIndex,
}

/// A path into a result, as an engine declares it: `players[].skill_gauge`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldPath {
    text: String,
    steps: Vec<Step>,
}

impl FieldPath {
    pub fn parse(text: &str) -> Result<FieldPath, MaskError> {
        let bad = |why: &str| MaskError::Syntax {
            path: text.to_string(),
            why: why.to_string(),
        };
        let mut steps = Vec::new();
        for part in text.split('.') {
            let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
            match key {
                "" => return Err(bad("an empty field name")),
                "*" => steps.push(Step::AnyKey),
                k if k.contains(['*', ']']) || k.chars().any(char::is_whitespace) => {
                    return Err(bad("a field name is letters, digits, `_` and the like"))
                }
                k => steps.push(Step::Key(k.to_string())),
            }
            // `rest` is empty or starts with `[`.
            while let Some(inside) = rest.strip_prefix('[') {
                let (index, after) = inside
                    .split_once(']')
                    .ok_or_else(|| bad("a `[` without its `]`"))?;
                steps.push(match index {
                    "" => Step::AnyIndex,
                    i => Step::Index(
                        i.parse()
                            .map_err(|_| bad("a list index is `[]` or a number, `[0]`"))?,
                    ),
                });
                rest = after;
            }
            if !rest.is_empty() {
                return Err(bad("`]` must be followed by `.`, `[` or the end"));
            }
        }
        if !matches!(steps.last(), Some(Step::Key(_))) {
            return Err(bad(
                "a path ends in a field name (mask `players[].field`, not `players[1]`)",
            ));
        }
        Ok(FieldPath {
            text: text.to_string(),
            steps,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Removes every value at this path from `value`; whether there was any.
    pub fn remove_from(&self, value: &mut Value) -> bool {
        remove(value, &self.steps)
    }

    /// Whether the concrete path `concrete` (`players[1].skill_gauge.x`, as differences are
    /// named) is this path or lies below it.
    pub fn covers(&self, concrete: &str) -> bool {
        let Ok(concrete) = concrete_steps(concrete) else {
            return false;
        };
        concrete.len() >= self.steps.len()
            && self.steps.iter().zip(&concrete).all(|(mine, theirs)| {
                matches!(
                    (mine, theirs),
                    (Step::AnyKey, Step::Key(_)) | (Step::AnyIndex, Step::Index(_))
                ) || mine == theirs
            })
    }

    fn schema_steps(&self) -> Vec<PathStep<'_>> {
        self.steps
            .iter()
            .map(|s| match s {
                Step::Key(k) => PathStep::Key(k),
                Step::AnyKey => PathStep::AnyKey,
                Step::Index(_) | Step::AnyIndex => PathStep::Element,
            })
            .collect()
    }
}

/// The steps of a concrete path (no wildcards): keys and indices.
fn concrete_steps(text: &str) -> Result<Vec<Step>, ()> {
    let mut steps = Vec::new();
    for part in text.split('.').filter(|p| !p.is_empty()) {
        let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            steps.push(Step::Key(key.to_string()));
        }
        for index in rest.split('[').filter(|i| !i.is_empty()) {
            let i = index.trim_end_matches(']').parse().map_err(|_| ())?;
            steps.push(Step::Index(i));
        }
    }
    Ok(steps)
}

fn remove(value: &mut Value, steps: &[Step]) -> bool {
    let Some((step, rest)) = steps.split_first() else {
        return false;
    };
    match (step, value) {
        (Step::Key(key), Value::Object(map)) if rest.is_empty() => map.remove(key).is_some(),
        (Step::Key(key), Value::Object(map)) => map.get_mut(key).is_some_and(|v| remove(v, rest)),
        (Step::AnyKey, Value::Object(map)) => map
            .values_mut()
            .fold(false, |removed, v| remove(v, rest) | removed),
        (Step::Index(i), Value::Array(list)) => list.get_mut(*i).is_some_and(|v| remove(v, rest)),
        (Step::AnyIndex, Value::Array(list)) => list
            .iter_mut()
            .fold(false, |removed, v| remove(v, rest) | removed),
        _ => false,
    }
}

/// What an engine does not model of one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mask {
    /// Paths into the result: state fields, `prompts`, `last_replies`.
    pub fields: Vec<FieldPath>,
    /// Protocol texts ([`crate::seam::GameInfo::parse_kinds`]) the engine has no parser for.
    pub parse_kinds: Vec<String>,
}

/// The path of the prompts beside the state: masked for an engine that renders none.
pub const PROMPTS: &str = "prompts";

impl Mask {
    /// A mask of `fields` (paths) and `parse_kinds`, the paths read and checked for syntax.
    pub fn new<S: AsRef<str>>(fields: &[S], parse_kinds: &[S]) -> Result<Mask, MaskError> {
        Ok(Mask {
            fields: fields
                .iter()
                .map(|f| FieldPath::parse(f.as_ref()))
                .collect::<Result<_, _>>()?,
            parse_kinds: parse_kinds.iter().map(|k| k.as_ref().to_string()).collect(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.parse_kinds.is_empty()
    }

    /// Checks every path against `game`'s result and every protocol text against its texts.
    pub fn check(&self, game: &dyn DynGame) -> Result<(), MaskError> {
        let info = game.info();
        let Some(schemas) = game.schemas() else {
            return Err(MaskError::NoSchema {
                game: info.id.to_string(),
            });
        };
        let schema = schemas.state;
        if let Some(field) = self
            .fields
            .iter()
            .find(|f| !path_exists(&schema, &f.schema_steps()))
        {
            return Err(MaskError::NoSuchField {
                game: info.id.to_string(),
                path: field.text.clone(),
            });
        }
        if let Some(kind) = self
            .parse_kinds
            .iter()
            .find(|k| !info.parse_kinds.contains(&k.as_str()))
        {
            return Err(MaskError::NoSuchText {
                game: info.id.to_string(),
                kind: kind.clone(),
                known: info.parse_kinds.join(", "),
            });
        }
        Ok(())
    }

    /// Whether the engine has no parser for the protocol text `kind`.
    pub fn hides_text(&self, kind: &str) -> bool {
        self.parse_kinds.iter().any(|k| k == kind)
    }

    /// This mask and the prompts (for an engine that answered `prompts: null`).
    pub fn with_prompts(&self) -> Mask {
        let mut mask = self.clone();
        if !mask.fields.iter().any(|f| f.text == PROMPTS) {
            mask.fields.push(FieldPath {
                text: PROMPTS.into(),
                steps: vec![Step::Key(PROMPTS.into())],
            });
        }
        mask
    }

    /// Removes every masked path from `value`; the paths that removed something, in the
    /// mask's order.
    pub fn remove_from(&self, value: &mut Value) -> Vec<String> {
        self.fields
            .iter()
            .filter(|f| f.remove_from(value))
            .map(|f| f.text.clone())
            .collect()
    }

    /// Whether the concrete path `path` (as a difference names it) is masked.
    pub fn covers(&self, path: &str) -> bool {
        self.fields.iter().any(|f| f.covers(path))
    }
}

impl fmt::Display for Mask {
    /// `players[].skill_gauge, prompts; parse: prompt, turn`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields: Vec<&str> = self.fields.iter().map(|p| p.text.as_str()).collect();
        write!(f, "{}", fields.join(", "))?;
        if !self.parse_kinds.is_empty() {
            let sep = if fields.is_empty() { "" } else { "; " };
            write!(f, "{sep}parse: {}", self.parse_kinds.join(", "))?;
        }
        Ok(())
    }
}

/// Whether a case's expectation asks anything: a value, a bound, `null`; not an empty mapping,
/// an empty list or a list of `{}` (each element skipped).
pub fn checks_something(expected: &Value) -> bool {
    match expected {
        Value::Object(map) => map.values().any(checks_something),
        Value::Array(list) => list.iter().any(checks_something),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_read_and_remove_what_they_name() {
        let path = FieldPath::parse("players[].skill_gauge").unwrap();
        let mut value = json!({"players": [{"skill_gauge": 8, "score": 1}, {"skill_gauge": 0}]});
        assert!(path.remove_from(&mut value));
        assert_eq!(value, json!({"players": [{"score": 1}, {}]}));
        assert!(!path.remove_from(&mut value), "nothing left to remove");
        let one = FieldPath::parse("players[1].score").unwrap();
        let mut value = json!({"players": [{"score": 1}, {"score": 2}]});
        assert!(one.remove_from(&mut value));
        assert_eq!(value, json!({"players": [{"score": 1}, {}]}));
        let any = FieldPath::parse("tiles.*.robots").unwrap();
        let mut value = json!({"tiles": {"0,0": {"robots": 3, "hole": false}, "1,0": {}}});
        assert!(any.remove_from(&mut value));
        assert_eq!(value, json!({"tiles": {"0,0": {"hole": false}, "1,0": {}}}));
    }

    #[test]
    fn bad_paths_are_refused_with_the_reason() {
        for (path, why) in [
            ("", "empty"),
            ("players[1]", "ends in a field name"),
            ("players[x].score", "index"),
            ("players[.score", "without its `]`"),
            ("a b", "field name"),
        ] {
            let e = FieldPath::parse(path).unwrap_err().to_string();
            assert!(e.contains(why), "{path}: {e}");
        }
    }

    #[test]
    fn a_mask_path_covers_the_concrete_paths_below_it() {
        let path = FieldPath::parse("players[].skill_gauge").unwrap();
        assert!(path.covers("players[1].skill_gauge"));
        assert!(!path.covers("players[1].score"));
        assert!(!path.covers("players"));
        assert!(FieldPath::parse("prompts").unwrap().covers("prompts[0]"));
    }

    #[test]
    fn paths_and_texts_are_checked_against_the_game() {
        let reborn = crate::games::by_id("codevs-reborn").unwrap();
        let fine = Mask::new(
            &["players[].skill_gauge", "prompts", "outcome"],
            &["prompt"],
        );
        assert_eq!(fine.unwrap().check(reborn), Ok(()));
        let misspelt = Mask::new(&["players[].skil_gauge"], &[]).unwrap();
        assert!(matches!(
            misspelt.check(reborn),
            Err(MaskError::NoSuchField { .. })
        ));
        let text = Mask::new(&[], &["promt"]).unwrap();
        assert!(matches!(
            text.check(reborn),
            Err(MaskError::NoSuchText { .. })
        ));
        let cedec = crate::games::by_id("cedec2013").unwrap();
        let tiles = Mask::new(&["tiles.*.robots"], &[]).unwrap();
        assert_eq!(tiles.check(cedec), Ok(()));
    }

    #[test]
    fn an_expectation_of_skipped_elements_checks_nothing() {
        assert!(!checks_something(&json!({"players": [{}, {}]})));
        assert!(!checks_something(&json!({})));
        assert!(checks_something(&json!({"outcome": null})));
        assert!(checks_something(&json!({"players": [{}, {"score": 1}]})));
    }
}

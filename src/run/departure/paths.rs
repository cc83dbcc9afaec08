//! Paths to the fields of a result (`players[1].score`, `units[#5].hp`) and the fields where two
//! results differ: what a departure is made of. Lists of things with ids are compared by id, so
//! that `units[#5].hp` is the unit with id 5 wherever it stands in either list, and `units[#5]`
//! a unit one of the two lacks. Numbers compare by value (`3` is `3.0`).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::case::expect::same_value;

/// The leaf fields under the `checked` paths where `a` and `b` differ, sorted.
pub fn differing_fields(a: &Value, b: &Value, checked: &[&String]) -> Vec<String> {
    let mut out = Vec::new();
    for path in checked {
        let (x, y) = (at(a, path), at(b, path));
        if !same_at(x, y) {
            leaves_differing(x, y, (*path).clone(), &mut out);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The leaf fields where two whole results differ, sorted: [`differing_fields`] from the top.
pub fn differing_leaves(a: &Value, b: &Value) -> Vec<String> {
    let mut out = Vec::new();
    leaves_differing(Some(a), Some(b), String::new(), &mut out);
    out.sort();
    out.dedup();
    out
}

/// Whether two optional values are the same (numbers by value).
pub fn same_at(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => same_value(x, y),
        (None, None) => true,
        _ => false,
    }
}

/// The id of a list element that has one.
fn id_of(value: &Value) -> Option<&Value> {
    value
        .get("id")
        .filter(|id| id.is_number() || id.is_string())
}

/// Whether a list is of things with ids, each id once (so that matching by id is sound).
fn by_id(items: &[Value]) -> bool {
    let ids: Vec<&Value> = items.iter().filter_map(id_of).collect();
    ids.len() == items.len() && (1..ids.len()).all(|i| !ids[..i].contains(&ids[i]))
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn leaves_differing(a: Option<&Value>, b: Option<&Value>, path: String, out: &mut Vec<String>) {
    if same_at(a, b) {
        return;
    }
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for key in keys {
                leaves_differing(x.get(key), y.get(key), join(&path, key), out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if by_id(x) && by_id(y) => {
            // Ids by value: an engine that writes `6.0` means the thing with id 6.
            let mut ids: Vec<String> = x.iter().filter_map(id_of).map(id_key).collect();
            for id in y.iter().filter_map(id_of).map(id_key) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            for id in ids {
                let find = |list: &'_ [Value]| {
                    (list.iter())
                        .find(|v| id_of(v).is_some_and(|i| id_key(i) == id))
                        .cloned()
                };
                let (p, q) = (find(x), find(y));
                let key = format!("{path}[#{id}]");
                if p.is_none() || q.is_none() {
                    out.push(key);
                } else {
                    leaves_differing(p.as_ref(), q.as_ref(), key, out);
                }
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            for i in 0..x.len().max(y.len()) {
                leaves_differing(x.get(i), y.get(i), format!("{path}[{i}]"), out);
            }
        }
        _ => out.push(path),
    }
}

/// An id as a path writes it: a string as it is, a number by its value (`6.0` is `6`).
fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// The value at `path`: keys split by `.`, list indices `[i]`, list elements by id `[#id]`.
pub fn at<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    let mut here = value;
    if path.is_empty() {
        return Some(here);
    }
    for part in path.split('.') {
        let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            here = here.get(key)?;
        }
        for index in rest.split('[').filter(|s| !s.is_empty()) {
            let index = index.strip_suffix(']')?;
            here = match index.strip_prefix('#') {
                Some(id) => here
                    .as_array()?
                    .iter()
                    .find(|v| id_of(v).is_some_and(|i| id_key(i) == id))?,
                None => here.get(index.parse::<usize>().ok()?)?,
            };
        }
    }
    Some(here)
}

/// The thing a field belongs to: the path up to its last element matched by id (`units[#5]`
/// of `units[#5].x`), or the field itself (`players[1].gold`).
pub fn owner_of(field: &str) -> String {
    match field
        .rfind("[#")
        .and_then(|at| Some(at + field[at..].find(']')?))
    {
        Some(end) => field[..=end].to_string(),
        None => field.to_string(),
    }
}

/// Whether `field` is among `fields` or under one of them: a whole element that differs
/// (`units[]`, a unit present on one side only) holds each of its fields (`units[].hp`).
pub fn covered_by(field: &str, fields: &[String]) -> bool {
    fields.iter().any(|f| {
        field == f
            || (field.starts_with(f.as_str())
                && matches!(field.as_bytes().get(f.len()), Some(b'.' | b'[')))
    })
}

/// The quantity a general field is a part of: a coordinate (`units[].x`, `units[].y`) is
/// its position's, `units[].x|y`, and a velocity's component (`vx`, `vy`) its velocity's; any
/// other field is its own. A departure of a position shows on `x` on one input and on `y` on
/// another: the same departure, under one name.
pub fn quantity(field: &str) -> String {
    let (owner, last) = field.rsplit_once('.').unwrap_or(("", field));
    let whole = match last {
        "x" | "y" => "x|y",
        "vx" | "vy" => "vx|vy",
        _ => return field.to_string(),
    };
    if owner.is_empty() {
        whole.to_string()
    } else {
        format!("{owner}.{whole}")
    }
}

/// Whether `field`'s quantity ([`quantity`]) is among those of `fields` or under one of them
/// ([`covered_by`]): what a group of departures is told by.
pub fn held_by(field: &str, fields: &[String]) -> bool {
    let quantities: Vec<String> = fields.iter().map(|f| quantity(f)).collect();
    covered_by(&quantity(field), &quantities)
}

/// Fields made general ([`normalize`]: `players[1].score` → `players[].score`), sorted, each
/// once.
pub fn general(fields: &[String]) -> Vec<String> {
    let mut general: Vec<String> = fields.iter().map(|f| normalize(f)).collect();
    general.sort();
    general.dedup();
    general
}

/// A path with its indices and its non-word keys (tile coordinates) made general:
/// `players[1].score` → `players[].score`, `tiles.3,-2.owner` → `tiles.*.owner`.
pub fn normalize(path: &str) -> String {
    let mut out = String::new();
    for (i, part) in path.split('.').enumerate() {
        if i > 0 {
            out.push('.');
        }
        let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        let word = key.chars().all(|c| c.is_ascii_alphabetic() || c == '_');
        out.push_str(if word || key.is_empty() { key } else { "*" });
        for _ in rest.split('[').filter(|s| !s.is_empty()) {
            out.push_str("[]");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_with_ids_are_compared_by_id_and_numbers_by_value() {
        let a = json!({"units": [{"id": 5, "hp": 3}, {"id": 7, "hp": 1}], "score": 23});
        let b = json!({"units": [{"id": 7, "hp": 1}, {"id": 5, "hp": 2}], "score": 23.0});
        assert_eq!(differing_leaves(&a, &b), ["units[#5].hp"]);
        assert_eq!(at(&b, "units[#5].hp"), Some(&json!(2)));
        assert_eq!(owner_of("units[#5].hp"), "units[#5]");
        // An id written as a float is the same thing.
        let c = json!({"units": [{"id": 5.0, "hp": 2}, {"id": 7.0, "hp": 1}], "score": 23});
        assert_eq!(differing_leaves(&a, &c), ["units[#5].hp"]);
        assert_eq!(at(&c, "units[#5].hp"), Some(&json!(2)));
        assert_eq!(general(&["players[1].score".into()]), ["players[].score"]);
    }

    #[test]
    fn the_two_coordinates_of_a_position_are_one_quantity() {
        assert_eq!(quantity("units[].x"), "units[].x|y");
        assert_eq!(quantity("units.*.y"), "units.*.x|y");
        assert_eq!(quantity("mobs[].vy"), "mobs[].vx|vy");
        assert_eq!(quantity("players[].max"), "players[].max");
        assert_eq!(quantity("x"), "x|y");
        assert!(held_by("units[].y", &["units[].x".to_string()]));
        assert!(held_by("units[].y", &["units[]".to_string()]));
        assert!(!held_by("units[].vy", &["units[].x".to_string()]));
        assert!(!held_by("units[].hp", &["units[].x".to_string()]));
    }

    #[test]
    fn a_whole_element_covers_its_fields_and_nothing_beside_it() {
        let fields = ["units[]".to_string(), "players[].kills".to_string()];
        assert!(covered_by("units[].hp", &fields));
        assert!(covered_by("units[]", &fields));
        assert!(covered_by("players[].kills", &fields));
        assert!(!covered_by("units_left", &fields));
        assert!(!covered_by("players[].kills_total", &fields));
        assert!(!covered_by("players[]", &fields));
    }
}

//! Writing a shrunk disagreement as a case file the library can load: the shrunk input as
//! `given`/`when`, the reference engine's result as `then`, the difference as a comment on top,
//! written as the library's cases are (short lists on one line, fields as text blocks). The case
//! is marked for review; its `rules:` hold the clause the variant that reproduces the departure
//! breaks, or `unclassified` when none does.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{Finding, Input};
use crate::case::UNCLASSIFIED;
use crate::run::departure::{at, departing_fields};
use crate::seam::{DynGame, Reply};

/// How long a line of a list or mapping written on one line may grow.
const FLOW_WIDTH: usize = 96;

/// The finding as a ready-to-commit case file: the shrunk input, the reference engine's result
/// as the expectation, `needs-review: true`, and the clause that names it.
pub fn case_file(game: &dyn DynGame, finding: &Finding, command: &str, seed: u64) -> String {
    let id = format!("diff-seed-{seed}-run-{}", finding.run);
    let rules = match &finding.part.variant {
        Some(_) => finding.part.name.clone(),
        None => UNCLASSIFIED.to_string(),
    };
    let named = match &finding.part.variant {
        Some(variant) => format!("reproduced by the variant `{variant}`"),
        None => "reproduced by no variant: name its clauses".to_string(),
    };
    let note = format!(
        "Found by `shinpan diff {} --seed {seed}` on run {} against `{command}`, shrunk in {} \
         steps; {named}.",
        game.info().id,
        finding.run,
        finding.shrink_steps
    );
    // In the library's order: what the case is, then given, when, then.
    let mut body = format!("game: {}\ncases:\n", game.info().id);
    for (i, (key, value)) in [
        ("id", Value::String(id)),
        ("rules", Value::Array(vec![rules.into()])),
        ("needs-review", true.into()),
    ]
    .into_iter()
    .enumerate()
    {
        body.push_str(if i == 0 { "  - " } else { "    " });
        body.push_str(key);
        body.push(':');
        value_after_key(&value, 4, &mut body);
    }
    body.push_str("    note: >\n");
    for line in wrapped(&note, FLOW_WIDTH - 6) {
        body.push_str(&format!("      {line}\n"));
    }
    for (key, value) in [
        ("given", finding.shrunk.state.clone()),
        ("when", when(&finding.shrunk.turns)),
        ("then", finding.expectation.clone()),
    ] {
        body.push_str(&format!("    {key}:"));
        value_after_key(&value, 4, &mut body);
    }
    let difference: String = match &finding.engine {
        Some(engine) => differing(&finding.reference, engine)
            .iter()
            .map(|l| format!("#   {l}\n"))
            .collect(),
        None => finding
            .difference
            .lines()
            .map(|l| format!("#   {l}\n"))
            .collect(),
    };
    format!(
        "# Written by `shinpan diff`: {}. What differed (reference → engine):\n{difference}{body}",
        finding.part.describe()
    )
}

/// A line for each field where the results differ: `players[0].ojama_stock: 0 → 10`, short
/// texts as JSON strings; a long text's lines that differ, `-` the reference's and `+` the
/// engine's.
fn differing(reference: &Value, engine: &Value) -> Vec<String> {
    /// Texts of more lines than this are shown by their differing lines.
    const SHORT: usize = 4;
    let mut out = Vec::new();
    for field in departing_fields(reference, engine) {
        if field == "unplayed_turns" {
            continue;
        }
        let (a, b) = (at(reference, &field), at(engine, &field));
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        match (text(a), text(b)) {
            (Some(x), Some(y)) if x.lines().count().max(y.lines().count()) > SHORT => {
                out.push(format!("{field}:"));
                let diff = similar::TextDiff::from_lines(&x, &y);
                for change in diff.iter_all_changes() {
                    let sign = match change.tag() {
                        similar::ChangeTag::Delete => "-",
                        similar::ChangeTag::Insert => "+",
                        similar::ChangeTag::Equal => continue,
                    };
                    out.push(format!("  {sign}{}", change.value().trim_end_matches('\n')));
                }
            }
            _ => {
                let show = |v: Option<&Value>| v.map_or("(absent)".to_string(), Value::to_string);
                out.push(format!("{field}: {} → {}", show(a), show(b)));
            }
        }
    }
    out
}

/// `text`'s words in lines of at most `width` characters (a longer word on a line of its own).
fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The turns as cases write them: a reply answered in no time bare (`["3 0", "7 2"]`).
fn when(turns: &[Vec<Reply>]) -> Value {
    Value::Array(
        turns
            .iter()
            .map(|turn| {
                Value::Array(
                    turn.iter()
                        .map(|reply| match reply {
                            Reply::Text {
                                text,
                                elapsed_ms: 0,
                            } => Value::String(text.clone()),
                            other => serde_json::to_value(other).unwrap_or(Value::Null),
                        })
                        .collect(),
                )
            })
            .collect(),
    )
}

/// How big a case is: what shrinking makes small.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Size {
    /// Lines of its `given`, `when` and `then`, written as a case file writes them.
    pub lines: usize,
    /// Turns played.
    pub turns: usize,
    /// Things in the state: list elements (entities, packs) and the marks of multi-line text
    /// (the blocks of a field: characters other than the text's most common one).
    pub items: usize,
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} lines, {} turn{}, {} items",
            self.lines,
            self.turns,
            if self.turns == 1 { "" } else { "s" },
            self.items
        )
    }
}

/// The size of a case of `input` expecting `then`.
pub fn size(input: &Input, then: &Value) -> Size {
    let mut case = Map::new();
    case.insert("given".into(), input.state.clone());
    case.insert("when".into(), when(&input.turns));
    case.insert("then".into(), then.clone());
    Size {
        lines: compact_yaml(&Value::Object(case)).lines().count(),
        turns: input.turns.len(),
        items: items(&input.state),
    }
}

fn items(value: &Value) -> usize {
    match value {
        Value::Array(list) => list.len() + list.iter().map(items).sum::<usize>(),
        Value::Object(map) => map.values().map(items).sum(),
        Value::String(s) if s.contains('\n') => {
            let mut counts = std::collections::BTreeMap::new();
            for c in s.chars().filter(|c| !c.is_whitespace()) {
                *counts.entry(c).or_insert(0usize) += 1;
            }
            let total: usize = counts.values().sum();
            total - counts.values().max().copied().unwrap_or(0)
        }
        _ => 0,
    }
}

/// YAML as the library's cases are written: mappings and lists as blocks, a list or mapping of
/// short plain values on one line (`[[0, 3], [8, 3]]`, `["0 0", "8 0"]`), text of several lines
/// as a literal block (`|`), anything else as a JSON scalar (JSON's strings are YAML's
/// double-quoted ones).
pub fn compact_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => block_map(map, 0, &mut out),
        Value::Array(list) if !list.is_empty() => block_list(list, 0, &mut out),
        other => {
            out.push_str(&flow(other).unwrap_or_else(|| other.to_string()));
            out.push('\n');
        }
    }
    out
}

fn block_map(map: &Map<String, Value>, indent: usize, out: &mut String) {
    for (key, value) in map {
        out.push_str(&" ".repeat(indent));
        out.push_str(&key_text(key));
        out.push(':');
        value_after_key(value, indent, out);
    }
}

/// A value after `key:` (or `- `), at a mapping indented by `indent`.
fn value_after_key(value: &Value, indent: usize, out: &mut String) {
    if let Some(block) = text_block(value, indent + 2) {
        out.push_str(&block);
        return;
    }
    match flow(value).filter(|f| indent + f.len() < FLOW_WIDTH) {
        Some(flow) => {
            out.push(' ');
            out.push_str(&flow);
            out.push('\n');
        }
        None => {
            out.push('\n');
            match value {
                Value::Object(map) => block_map(map, indent + 2, out),
                Value::Array(list) => block_list(list, indent + 2, out),
                other => {
                    out.push_str(&" ".repeat(indent + 2));
                    out.push_str(&other.to_string());
                    out.push('\n');
                }
            }
        }
    }
}

fn block_list(list: &[Value], indent: usize, out: &mut String) {
    for item in list {
        out.push_str(&" ".repeat(indent));
        out.push('-');
        match item {
            // An entity on a line of its own when it fits, as the library writes units.
            Value::Object(map)
                if !map.is_empty()
                    && flow(item).is_none_or(|f| indent + 2 + f.len() > FLOW_WIDTH) =>
            {
                // The first key on the dash's line, the others under it.
                let mut first = true;
                for (key, value) in map {
                    if first {
                        out.push(' ');
                        first = false;
                    } else {
                        out.push_str(&" ".repeat(indent + 2));
                    }
                    out.push_str(&key_text(key));
                    out.push(':');
                    value_after_key(value, indent + 2, out);
                }
            }
            other => value_after_key(other, indent, out),
        }
    }
}

/// A text of lines, each ended by a line break, as a literal block (` |` and its lines), when
/// YAML reads the block back as the same text.
fn text_block(value: &Value, indent: usize) -> Option<String> {
    let Value::String(text) = value else {
        return None;
    };
    let body = text.strip_suffix('\n')?;
    let plain = |line: &str| {
        !line.starts_with(' ')
            && !line.ends_with([' ', '\t'])
            && line.chars().all(|c| c == ' ' || !c.is_control())
            && !line.is_empty()
    };
    if body.ends_with('\n') || !body.split('\n').all(plain) {
        return None;
    }
    let mut out = String::from(" |\n");
    for line in body.split('\n') {
        out.push_str(&" ".repeat(indent));
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}

fn key_text(key: &str) -> String {
    if plain_word(key) {
        key.to_string()
    } else {
        Value::String(key.to_string()).to_string()
    }
}

/// A key or text that YAML reads back as the same string, unquoted.
fn plain_word(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        )
}

/// The value on one line (`[1, 2]`, `{x: 1}`, `"0 0"`), when it holds no text block.
fn flow(value: &Value) -> Option<String> {
    Some(match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if plain_word(s) => s.clone(),
        // Text of several lines is a block, never on one line.
        Value::String(s) if s.contains('\n') => return None,
        Value::String(s) => Value::String(s.clone()).to_string(),
        Value::Array(list) => {
            let items: Option<Vec<String>> = list.iter().map(flow).collect();
            format!("[{}]", items?.join(", "))
        }
        Value::Object(map) => {
            let items: Option<Vec<String>> = map
                .iter()
                .map(|(k, v)| {
                    if v.is_object() || v.is_array() && !v.as_array().is_some_and(Vec::is_empty) {
                        return None;
                    }
                    Some(format!("{}: {}", key_text(k), flow(v)?))
                })
                .collect();
            format!("{{{}}}", items?.join(", "))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: &Value) -> String {
        let text = compact_yaml(value);
        let back: Value = serde_yaml::from_str(&text).expect("YAML");
        assert_eq!(&back, value, "{text}");
        text
    }

    #[test]
    fn cases_are_written_as_the_library_writes_them() {
        let case = json!({
            "given": {
                "packs": [[[0, 3], [8, 3]]],
                "players": [{"ojama_stock": 10}, {}],
                "outcome": null,
            },
            "when": [["0 0", "8 0"]],
            "then": {"players": [{"field": ".3........\n83........\n"}, {}]},
        });
        let text = round_trip(&case);
        assert!(text.contains("packs: [[[0, 3], [8, 3]]]\n"), "{text}");
        assert!(text.contains("when: [[\"0 0\", \"8 0\"]]\n"), "{text}");
        assert!(
            text.contains("players: [{ojama_stock: 10}, {}]\n"),
            "{text}"
        );
        assert!(
            text.contains("    - field: |\n        .3........\n        83........\n"),
            "{text}"
        );
        let units = json!({"units": [
            {"id": 8, "owner": 0, "type": "ASSASSIN", "atk": 11, "x": 7, "y": 6},
            {"id": 9, "owner": 1, "type": "MAGE", "note": "a long text that does not fit on \
              one line beside the other fields of the unit"},
        ]});
        let text = round_trip(&units);
        assert!(
            text.contains("  - {atk: 11, id: 8, owner: 0, type: ASSASSIN, x: 7, \"y\": 6}\n"),
            "{text}"
        );
        assert!(text.contains("  - id: 9\n"), "{text}");
    }

    #[test]
    fn awkward_strings_stay_strings() {
        for s in [
            "7 1\r", "true", "3", " lead", "a: b", "x\n", "- y\n", "\t\n", "3 0\n4 1", "#\n",
            "{}\n", "é\n",
        ] {
            round_trip(&json!({"k": s, "l": [s], "m": [{"a": s, "b": 1}]}));
        }
        round_trip(&json!({"weird key": {"": 1}, "e": [], "o": {}, "f": 2.5, "n": -1}));
    }
}

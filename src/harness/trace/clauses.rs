//! Which rule clauses a field of the state belongs to, learned from the case library: a case
//! names its clauses and its `then` names the fields it checks, so every field a departure
//! touches leads to the clauses whose cases check it, the most often checked first. A clause
//! whose catalogue entry records a known departure of some engine (`departures:`) is named
//! with it.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::case::{load_library, CaseBody, GameCases, LoadError, LoadOptions, Source};
use crate::run::departure::paths::normalize;
use crate::seam::DynGame;

/// Field (normalized path) → clause → how much the clause's cases are about that field: each
/// case counts `1000 / (fields it checks)`, so a case about one field weighs more than a case
/// that checks a whole state. The default knows no clause (a replay that names none).
#[derive(Default)]
pub struct ClauseIndex {
    by_field: BTreeMap<String, BTreeMap<String, usize>>,
    departures: BTreeMap<String, BTreeMap<String, String>>,
}

/// How many clauses are named for one departure.
const NAMED: usize = 3;

/// The weight of a field a clause declares (`fields:` in rules.yaml): more than any number of
/// cases can give it.
const DECLARED: usize = 1_000_000_000;

impl ClauseIndex {
    /// The index of the built-in library's cases of the game `id`, one of `games` (the
    /// registry's, which the caller passes in); `trace` and `diff` name departures by it.
    /// `None` when the library has no case of it.
    pub fn built_in(
        games: &[&'static dyn DynGame],
        id: &str,
    ) -> Result<Option<ClauseIndex>, LoadError> {
        let library = load_library(&Source::Embedded, games, &LoadOptions::only([id]))?;
        Ok(library.games.first().map(ClauseIndex::new))
    }

    pub fn new(cases: &GameCases) -> ClauseIndex {
        let mut by_field: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        for case in &cases.cases {
            let then = match &case.body {
                CaseBody::Step { then, .. } | CaseBody::Generate { then, .. } => then.value(),
                CaseBody::Parse { .. } => continue,
            };
            let mut leaves = Vec::new();
            leaf_paths(&then, String::new(), &mut leaves);
            let mut fields: Vec<String> = leaves.iter().map(|l| normalize(l)).collect();
            fields.sort();
            fields.dedup();
            let weight = 1000 / fields.len().max(1);
            for field in fields {
                let clauses = by_field.entry(field).or_default();
                for rule in &case.rules {
                    *clauses.entry(rule.clone()).or_default() += weight;
                }
            }
        }
        // A clause that names its fields owns them: it comes first for them.
        for clause in &cases.catalogue.clauses {
            for field in &clause.fields {
                *by_field
                    .entry(normalize(field))
                    .or_default()
                    .entry(clause.id.clone())
                    .or_default() += DECLARED;
            }
        }
        let departures = cases
            .catalogue
            .clauses
            .iter()
            .filter(|c| !c.departures.is_empty())
            .map(|c| (c.id.clone(), c.departures.clone()))
            .collect();
        ClauseIndex {
            by_field,
            departures,
        }
    }

    /// The clauses whose cases check the fields at `paths` (or the fields above them), those
    /// whose cases are most about these fields first; a clause that declares one of the fields
    /// (`fields:`) comes before all others, then the clauses with a recorded departure of any
    /// engine.
    pub fn clauses_for(&self, paths: &[String]) -> Vec<String> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for path in paths {
            let mut field = normalize(path);
            loop {
                if let Some(clauses) = self.by_field.get(&field) {
                    for (clause, n) in clauses {
                        *counts.entry(clause).or_default() += n;
                    }
                    break;
                }
                match field.rfind(['.', '[']) {
                    Some(cut) => field.truncate(cut),
                    None => break,
                }
            }
        }
        let mut ranked: Vec<(&str, usize)> = counts.into_iter().collect();
        ranked.sort_by_key(|&(clause, n)| {
            (
                n < DECLARED,
                !self.departures.contains_key(clause),
                usize::MAX - n,
            )
        });
        ranked
            .into_iter()
            .take(NAMED)
            .map(|(c, _)| c.to_string())
            .collect()
    }

    /// The engines the catalogue records departures of.
    pub fn engines(&self) -> Vec<String> {
        let mut engines: Vec<String> = self
            .departures
            .values()
            .flat_map(|d| d.keys().cloned())
            .collect();
        engines.sort();
        engines.dedup();
        engines
    }

    /// Known departures (engine, what it does) recorded on these clauses.
    pub fn departures_of(&self, clauses: &[String]) -> Vec<(String, String, String)> {
        clauses
            .iter()
            .filter_map(|c| self.departures.get(c).map(|d| (c, d)))
            .flat_map(|(clause, d)| {
                d.iter()
                    .map(move |(engine, note)| (clause.clone(), engine.clone(), note.clone()))
            })
            .collect()
    }
}

/// Every leaf of a value, as paths (`players[0].score`).
pub fn leaf_paths(value: &Value, prefix: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, v) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                leaf_paths(v, path, out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                leaf_paths(v, format!("{prefix}[{i}]"), out);
            }
        }
        _ => out.push(prefix),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_general() {
        assert_eq!(normalize("players[1].score"), "players[].score");
        assert_eq!(normalize("tiles.3,-2.owner"), "tiles.*.owner");
        assert_eq!(normalize("packs[3][0][1]"), "packs[][][]");
        assert_eq!(normalize("turn"), "turn");
    }
}

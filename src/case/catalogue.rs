//! `cases/<game>/rules.yaml`: the clause catalogue of one rule document. Each clause has an id
//! cases name, a one-line statement in our own words, the document section, and how it is
//! known: `explicit` (the document says it), `inferred`, or `settled` by a decision of
//! spec-notes (`settled_by`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;

use super::yaml::{self, Position, Segment};
use super::LoadError;

/// One game's clause catalogue.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    pub game: String,
    pub document: String,
    pub clauses: Vec<Clause>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clause {
    pub id: String,
    pub text: String,
    pub section: String,
    pub status: ClauseStatus,
    #[serde(default)]
    pub settled_by: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
    /// Known departures of named engines from this clause: the engine (`main.rb`) and what it
    /// does instead, citing the spec-notes item. `shinpan trace` names them when it sees them.
    #[serde(default)]
    pub departures: BTreeMap<String, String>,
    /// The fields of the canonical state this clause decides, general (`players[].score`,
    /// `tiles.*.robots`): when `shinpan trace` finds one of them wrong, it names this clause
    /// first. Without it, trace learns the fields of a clause from its cases.
    #[serde(default)]
    pub fields: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClauseStatus {
    Explicit,
    Inferred,
    Settled,
}

/// Reads and checks the catalogue at `path` for `game`.
pub fn load(path: &Path, text: &str, game: &str) -> Result<Catalogue, LoadError> {
    let is_clause = |p: &[Segment]| p.len() == 2 && p[0] == Segment::Key("clauses".into());
    let parsed = yaml::parse(text, &is_clause).map_err(|e| LoadError::at(path, e.at, e.message))?;
    let catalogue: Catalogue = yaml::deserialize(text, &parsed.value, "")
        .map_err(|e| LoadError::at(path, e.at, e.message))?;
    let top = Position { line: 1, col: 1 };
    if catalogue.game != game {
        let at = yaml::locate(text, &[Segment::Key("game".into())]).unwrap_or(top);
        return Err(LoadError::at(
            path,
            at,
            format!(
                "the catalogue is for `{}` but lives in the `{game}` directory",
                catalogue.game
            ),
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, clause) in catalogue.clauses.iter().enumerate() {
        let at = parsed.marks.get(i).map_or(top, |(_, at)| *at);
        let err = |message: String| Err(LoadError::at(path, at, message));
        if !is_slug(&clause.id, true) {
            return err(format!(
                "clause id `{}` must be lower-case letters, digits, `.` and `-`",
                clause.id
            ));
        }
        if !seen.insert(clause.id.as_str()) {
            return err(format!("clause `{}` is listed twice", clause.id));
        }
        if clause.status == ClauseStatus::Settled && clause.settled_by.is_none() {
            return err(format!(
                "clause `{}` is settled but names no `settled_by`",
                clause.id
            ));
        }
    }
    Ok(catalogue)
}

/// Lower-case letters, digits and `-` (and `.` where `dots`).
pub fn is_slug(s: &str, dots: bool) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || (dots && b == b'.')
        })
}

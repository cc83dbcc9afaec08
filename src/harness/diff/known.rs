//! Departures already known (`diff --known FILE`), in the style of `--expect-fail`: a YAML
//! mapping of pattern to reason, `*` for any run of characters. A pattern names what a
//! departure is grouped by:
//!
//! - a rule clause (`ojama.drop`, `gauge.*`): a departure that variant of the clause
//!   reproduces is known;
//! - or fields (`players[].ojama_stock`): a departure is known when every field it is made of
//!   matches some pattern: for a departure a variant reproduces, the fields the variant
//!   reproduces; for an unexplained one, every field that differs. (`unexplained*` matches
//!   every unexplained departure by its name.)
//!
//! Once one input of a departure is known, every input with the same name is.
//!
//! Field patterns that cover some of a departure's fields and not all do not make it known (its
//! other fields may be a bug of its own): each such pattern is reported with the fields it
//! leaves uncovered ([`Known::partly`]), not passed over in silence.

use serde::Serialize;

use super::{Departure, Part, Skipped};
use crate::run::expect_fail::{glob_match, Entry, ExpectFail, ListError};

/// The entries of a known-departures list, in file order.
#[derive(Debug, Clone, Default)]
pub struct Known {
    pub entries: Vec<Entry>,
}

impl Known {
    /// Reads the list, a regular file of at most `max_bytes` (`--max-list-bytes`).
    pub fn load(path: &std::path::Path, max_bytes: u64) -> Result<Known, ListError> {
        let list = ExpectFail::load(path, max_bytes).map_err(|e| ListError {
            message: e
                .message
                .replace("expect-fail list", "known-departures list")
                .replace(
                    "`case-pattern: reason`",
                    "`clause-or-field-pattern: reason`",
                ),
            ..e
        })?;
        Ok(Known {
            entries: list.entries,
        })
    }

    /// The entry that makes `part` known, if any: one of `skipped` already of its name, a
    /// pattern matching its name, or patterns matching each of its fields.
    pub fn lookup(&self, part: &Part, skipped: &[Skipped]) -> Option<Entry> {
        if let Some(seen) = skipped.iter().find(|s| s.name == part.name) {
            return Some(Entry {
                pattern: seen.pattern.clone(),
                reason: seen.reason.clone(),
            });
        }
        let field_entry =
            |field: &String| self.entries.iter().find(|e| glob_match(&e.pattern, field));
        self.entries
            .iter()
            .find(|e| glob_match(&e.pattern, &part.name))
            .or_else(|| {
                let entries: Option<Vec<&Entry>> = part.fields.iter().map(field_entry).collect();
                entries.and_then(|e| e.first().copied())
            })
            .cloned()
    }

    /// The entries that match some of the fields of `part`, which no entry makes known (see
    /// [`Known::lookup`]): each with the fields it covers, and the fields no entry covers.
    pub fn partly(&self, part: &Part) -> Vec<PartlyKnown> {
        let uncovered: Vec<String> = part
            .fields
            .iter()
            .filter(|f| !self.entries.iter().any(|e| glob_match(&e.pattern, f)))
            .cloned()
            .collect();
        if uncovered.is_empty() {
            return Vec::new();
        }
        self.entries
            .iter()
            .filter_map(|entry| {
                let covered: Vec<String> = part
                    .fields
                    .iter()
                    .filter(|f| glob_match(&entry.pattern, f))
                    .cloned()
                    .collect();
                (!covered.is_empty()).then(|| PartlyKnown {
                    pattern: entry.pattern.clone(),
                    name: part.name.clone(),
                    covered,
                    uncovered: uncovered.clone(),
                })
            })
            .collect()
    }

    /// Marks in `used` the entries that match `departure`: the name or a field of any of its
    /// parts. An entry never marked in a run is stale, or misspelt.
    pub fn mark_matches(&self, departure: &Departure, used: &mut [bool]) {
        for (used, entry) in used.iter_mut().zip(&self.entries) {
            *used |= departure.parts.iter().any(|part| {
                glob_match(&entry.pattern, &part.name)
                    || part.fields.iter().any(|f| glob_match(&entry.pattern, f))
            });
        }
    }
}

/// A `--known` pattern that covers some of a departure's fields and not all: the departure is
/// not passed over, and the pattern is reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartlyKnown {
    pub pattern: String,
    /// The departure's name ([`Part::name`]).
    pub name: String,
    /// Its fields the pattern covers.
    pub covered: Vec<String>,
    /// Its fields no pattern covers.
    pub uncovered: Vec<String>,
}

impl std::fmt::Display for PartlyKnown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--known entry `{}` covers only part of departure `{}`: it covers {}, and no entry \
             covers {}; the departure is not passed over (list those fields too, or its name)",
            self.pattern,
            self.name,
            self.covered.join(", "),
            self.uncovered.join(", ")
        )
    }
}

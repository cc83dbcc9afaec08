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

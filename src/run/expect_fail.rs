//! Known failures of an engine under test (`--expect-fail FILE`), checked both ways: a listed
//! case that fails is an expected failure, a listed case that passes is reported as *fixed* and
//! fails the run, so the list cannot go stale (after wasmtime's must-fail lists and toml-test).
//!
//! The file is a YAML mapping from a case pattern to the reason, in the order written:
//!
//! ```yaml
//! codevs-reborn/chains/three-chain-scores-four: our chain score rounds (issue 12)
//! codevs-reborn/protocol-turn/*: no turn parser yet
//! ```
//!
//! A pattern is a case name (`game/file/case-id`) where `*` stands for any run of characters.

use std::path::{Path, PathBuf};

use crate::bounded::{self, Bound};
use crate::case::yaml::{self, Position};

use crate::run::{CaseResult, CaseVerdict};

/// A list that cannot be used: the file, where in it, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ListError {
    pub path: Option<PathBuf>,
    pub at: Option<Position>,
    pub message: String,
}

impl std::fmt::Display for ListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}:", path.display())?;
        }
        if let Some(at) = self.at {
            write!(f, "{}:{}:", at.line, at.col)?;
        }
        write!(f, " {}", self.message)
    }
}

/// One entry of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub pattern: String,
    pub reason: String,
}

/// The list, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectFail {
    pub entries: Vec<Entry>,
}

/// What applying the list found besides the verdicts it rewrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Patterns that matched none of the cases run.
    pub unmatched: Vec<String>,
}

/// The largest list read by default (`--max-list-bytes`): 1 MiB, thousands of patterns.
pub const DEFAULT_MAX_LIST_BYTES: u64 = 1024 * 1024;

/// The bound on a list's size: `max_bytes`, set by `--max-list-bytes`.
pub fn list_bound(max_bytes: u64) -> Bound {
    Bound {
        max: max_bytes,
        option: "--max-list-bytes",
        what: "a list",
    }
}

impl ExpectFail {
    /// Reads the list, a regular file of at most `max_bytes`; the error names the file and the
    /// position.
    pub fn load(path: &Path, max_bytes: u64) -> Result<ExpectFail, ListError> {
        let text =
            bounded::read_to_string(path, &list_bound(max_bytes)).map_err(|e| ListError {
                path: Some(path.to_path_buf()),
                at: None,
                message: format!("cannot read the expect-fail list: {e}"),
            })?;
        ExpectFail::parse(&text).map_err(|e| ListError {
            path: Some(path.to_path_buf()),
            ..e
        })
    }

    /// Reads a list from its text: a mapping of case pattern to reason, both text.
    pub fn parse(text: &str) -> Result<ExpectFail, ListError> {
        let error = |at: Option<Position>, message: String| ListError {
            path: None,
            at,
            message,
        };
        let parsed = yaml::parse(text, &|p| p.len() == 1).map_err(|e| {
            match unquoted_star(text).filter(|(at, _, _)| at.line <= e.at.line) {
                Some((at, what, shown)) => error(
                    Some(at),
                    format!(
                        "quote the {what}: '{shown}' (unquoted, YAML reads a leading `*` as \
                         an alias)"
                    ),
                ),
                None => error(Some(e.at), e.message),
            }
        })?;
        let mapping = match parsed.value {
            serde_json::Value::Null => serde_json::Map::new(),
            serde_json::Value::Object(m) => m,
            _ => {
                return Err(error(
                    Some(Position { line: 1, col: 1 }),
                    "expected a mapping of case pattern to reason".into(),
                ))
            }
        };
        let mut entries = Vec::with_capacity(mapping.len());
        // In the order written: the marks are in document order, the mapping is not.
        for (path, at) in &parsed.marks {
            let yaml::Segment::Key(pattern) = &path[0] else {
                continue;
            };
            let reason = &mapping[pattern];
            let Some(reason) = reason.as_str() else {
                return Err(error(
                    Some(*at),
                    format!("every entry is `case-pattern: reason`, both text; `{pattern}` has {reason}"),
                ));
            };
            entries.push(Entry {
                pattern: pattern.clone(),
                reason: reason.to_string(),
            });
        }
        Ok(ExpectFail { entries })
    }

    /// The first entry whose pattern matches the case name.
    pub fn lookup(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| glob_match(&e.pattern, name))
    }

    /// Rewrites listed verdicts: a failure or an error becomes [`CaseVerdict::ExpectedFail`], a pass
    /// becomes [`CaseVerdict::Fixed`]; unsupported cases stay as they are.
    pub fn apply(&self, results: &mut [CaseResult]) -> Applied {
        let mut used = vec![false; self.entries.len()];
        for result in results.iter_mut() {
            let Some(index) = self
                .entries
                .iter()
                .position(|e| glob_match(&e.pattern, &result.name))
            else {
                continue;
            };
            used[index] = true;
            let reason = &self.entries[index].reason;
            result.verdict = match std::mem::replace(&mut result.verdict, CaseVerdict::Pass) {
                CaseVerdict::Pass => CaseVerdict::Fixed(format!(
                    "listed as an expected failure ({reason}) but passes: take it off the list"
                )),
                CaseVerdict::Fail(detail) | CaseVerdict::Error(detail) => {
                    CaseVerdict::ExpectedFail(format!("{reason}\n{detail}"))
                }
                other => other,
            };
        }
        Applied {
            unmatched: self
                .entries
                .iter()
                .zip(used)
                .filter(|(_, used)| !used)
                .map(|(e, _)| e.pattern.clone())
                .collect(),
        }
    }
}

/// The first pattern or reason written with a leading `*` and no quotes (`*/score: why`), which
/// YAML reads as an alias: where it is, `pattern` or `reason`, and the text to quote.
fn unquoted_star(text: &str) -> Option<(Position, &'static str, String)> {
    text.lines().enumerate().find_map(|(i, line)| {
        let key_col = line.len() - line.trim_start().len();
        let key = line.trim_start();
        let (at, rest) = if key.starts_with('*') {
            (key_col, key)
        } else {
            let value_at = line.find(": ")? + 2;
            let value = &line[value_at..];
            let col = value_at + (value.len() - value.trim_start().len());
            (col, value.trim_start())
        };
        if !rest.starts_with('*') {
            return None;
        }
        // The pattern ends at the `: ` before its reason; a reason runs to the end of the line.
        let (what, shown) = if at == key_col {
            ("pattern", rest.split(": ").next().unwrap_or(rest))
        } else {
            ("reason", rest)
        };
        let shown = shown.strip_suffix(':').unwrap_or(shown);
        Some((
            Position {
                line: i + 1,
                col: line[..at].chars().count() + 1,
            },
            what,
            shown.to_string(),
        ))
    })
}

/// Whether `name` matches `pattern`, where `*` matches any run of characters (none included).
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, verdict: CaseVerdict) -> CaseResult {
        CaseResult::named(name, verdict)
    }

    #[test]
    fn glob_stars_match_any_run() {
        assert!(glob_match("a/b/c", "a/b/c"));
        assert!(!glob_match("a/b/c", "a/b/cd"));
        assert!(glob_match("a/*", "a/b/c"));
        assert!(glob_match("*/c", "a/b/c"));
        assert!(glob_match("a/*/c", "a/b/c"));
        assert!(!glob_match("a/*/d", "a/b/c"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("ab*ba", "aba"));
    }

    #[test]
    fn listed_failure_is_expected_and_listed_pass_is_fixed() {
        let list = ExpectFail::parse("g/f/one: known\ng/f/t*: also known\ng/x/*: stale\n")
            .expect("a valid list");
        let mut results = vec![
            result("g/f/one", CaseVerdict::Fail("diff".into())),
            result("g/f/two", CaseVerdict::Pass),
            result("g/f/other", CaseVerdict::Fail("diff".into())),
        ];
        let applied = list.apply(&mut results);
        assert_eq!(
            results[0].verdict,
            CaseVerdict::ExpectedFail("known\ndiff".into())
        );
        assert!(matches!(results[1].verdict, CaseVerdict::Fixed(_)));
        assert_eq!(results[2].verdict, CaseVerdict::Fail("diff".into()));
        assert_eq!(applied.unmatched, vec!["g/x/*".to_string()]);
    }

    /// `*/score: why` fails in YAML with "found unknown anchor": say to quote it.
    #[test]
    fn a_pattern_starting_with_a_star_is_asked_to_be_quoted() {
        for (text, line, col, quote) in [
            ("*/score: bad\n", 1, 1, "pattern: '*/score'"),
            ("a/b: fine\n*: anything\n", 2, 1, "pattern: '*'"),
            ("a/b: *why\n", 1, 6, "reason: '*why'"),
        ] {
            let err = ExpectFail::parse(text).unwrap_err();
            assert_eq!(err.at, Some(Position { line, col }), "{text:?}: {err}");
            assert!(
                err.message.starts_with(&format!("quote the {quote}")),
                "{text:?}: {err}"
            );
        }
        let list = ExpectFail::parse("'*/score': quoted\n").unwrap();
        assert_eq!(list.entries[0].pattern, "*/score");
    }

    #[test]
    fn a_list_entry_must_be_text() {
        let err = ExpectFail::parse("g/f/one: known\ng/f/two: [1, 2]\n").unwrap_err();
        assert!(err.to_string().contains("case-pattern: reason"), "{err}");
        assert_eq!(err.at, Some(Position { line: 2, col: 1 }));
    }
}

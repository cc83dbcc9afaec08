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

use std::path::Path;

use crate::check::{CaseResult, Verdict};

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

impl ExpectFail {
    /// Reads the list; the error names the file and, where serde_yaml knows it, the position.
    pub fn load(path: &Path) -> Result<ExpectFail, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the expect-fail list: {e}", path.display()))?;
        ExpectFail::parse(&text).map_err(|e| format!("{}:{e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<ExpectFail, String> {
        let mapping: serde_yaml::Mapping = match serde_yaml::from_str(text) {
            Ok(serde_yaml::Value::Null) => serde_yaml::Mapping::new(),
            Ok(serde_yaml::Value::Mapping(m)) => m,
            Ok(_) => return Err("1:1: expected a mapping of case pattern to reason".into()),
            Err(e) => {
                let (line, col) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
                return Err(format!("{line}:{col}: {e}"));
            }
        };
        let mut entries = Vec::with_capacity(mapping.len());
        for (pattern, reason) in mapping {
            let (Some(pattern), Some(reason)) = (pattern.as_str(), reason.as_str()) else {
                return Err(format!(
                    "1:1: every entry is `case-pattern: reason`, both text; found {pattern:?}: \
                     {reason:?}"
                ));
            };
            entries.push(Entry {
                pattern: pattern.to_string(),
                reason: reason.to_string(),
            });
        }
        Ok(ExpectFail { entries })
    }

    /// The first entry whose pattern matches the case name.
    pub fn lookup(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| glob_match(&e.pattern, name))
    }

    /// Rewrites listed verdicts: a failure or an error becomes [`Verdict::ExpectedFail`], a pass
    /// becomes [`Verdict::Fixed`]; unsupported cases stay as they are.
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
            result.verdict = match std::mem::replace(&mut result.verdict, Verdict::Pass) {
                Verdict::Pass => Verdict::Fixed(format!(
                    "listed as an expected failure ({reason}) but passes: take it off the list"
                )),
                Verdict::Fail(detail) | Verdict::Error(detail) => {
                    Verdict::ExpectedFail(format!("{reason}\n{detail}"))
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

    fn result(name: &str, verdict: Verdict) -> CaseResult {
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
            result("g/f/one", Verdict::Fail("diff".into())),
            result("g/f/two", Verdict::Pass),
            result("g/f/other", Verdict::Fail("diff".into())),
        ];
        let applied = list.apply(&mut results);
        assert_eq!(
            results[0].verdict,
            Verdict::ExpectedFail("known\ndiff".into())
        );
        assert!(matches!(results[1].verdict, Verdict::Fixed(_)));
        assert_eq!(results[2].verdict, Verdict::Fail("diff".into()));
        assert_eq!(applied.unmatched, vec!["g/x/*".to_string()]);
    }

    #[test]
    fn a_list_entry_must_be_text() {
        let err = ExpectFail::parse("g/f/one: [1, 2]\n").unwrap_err();
        assert!(err.contains("case-pattern: reason"), "{err}");
    }
}

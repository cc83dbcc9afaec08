//! `--baseline REPORT.json`: what changed since an earlier run's JSON report — cases fixed,
//! cases broken, new errors — so that two runs of the same engine can be compared. The earlier
//! report is read as plain JSON (`results[].name`, `results[].verdict`), so reports of older
//! shinpan versions still compare.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::CaseResult;
use crate::bounded::{self, Bound, ReadError};

/// The largest baseline report read by default (`--max-baseline-bytes`): 64 MiB; a report of
/// the whole library is about 0.25 MB.
pub const DEFAULT_MAX_BASELINE_BYTES: u64 = 64 * 1024 * 1024;

/// A baseline report that cannot be used: the file, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {why}", path.display())]
pub struct BaselineError {
    pub path: PathBuf,
    #[source]
    pub why: NotABaseline,
}

/// Why a file or a text is not a baseline report.
#[derive(Debug, thiserror::Error)]
pub enum NotABaseline {
    /// The file cannot be read (missing, not a regular file, over the bound).
    #[error("cannot read the baseline report: {0}")]
    Unreadable(#[source] ReadError),
    #[error("the baseline is not a JSON report ({0})")]
    NotJson(#[source] serde_json::Error),
    /// JSON, but no report of `shinpan check`.
    #[error("the baseline is not a JSON report of `shinpan check`: it has no `results` list")]
    NoResults,
}

/// The changes between a baseline report and this run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// The baseline's suite: version and library digest.
    pub baseline_suite: String,
    /// Did not pass before, pass now.
    pub fixed: Vec<String>,
    /// Passed before, fail now (or are fixed-but-listed, or error).
    pub broken: Vec<String>,
    /// Error now, did not before (or were not in the baseline).
    pub new_errors: Vec<String>,
    /// Cases of this run the baseline does not have.
    pub new_cases: Vec<String>,
}

/// A verdict reduced to what comparisons care about.
fn passing(verdict: &str) -> bool {
    matches!(verdict, "pass" | "expected-fail" | "unsupported")
}

/// An earlier `--format json` report of `shinpan check`, read.
#[derive(Debug, Clone)]
pub struct Baseline {
    report: Value,
}

impl Baseline {
    /// Reads the report at `path`, a regular file of at most `max_bytes`; the error names the
    /// file and what is wrong with it.
    pub fn load(path: &Path, max_bytes: u64) -> Result<Baseline, BaselineError> {
        let error = |why: NotABaseline| BaselineError {
            path: path.to_path_buf(),
            why,
        };
        let bound = Bound {
            max: max_bytes,
            option: "--max-baseline-bytes",
            what: "a baseline report",
        };
        let text = bounded::read_to_string(path, &bound)
            .map_err(|e| error(NotABaseline::Unreadable(e)))?;
        Baseline::parse(&text).map_err(error)
    }

    /// Reads a report from its JSON text.
    pub fn parse(text: &str) -> Result<Baseline, NotABaseline> {
        let report: Value = serde_json::from_str(text).map_err(NotABaseline::NotJson)?;
        if !report.get("results").is_some_and(Value::is_array) {
            return Err(NotABaseline::NoResults);
        }
        Ok(Baseline { report })
    }
}

/// Compares the results of this run with the baseline.
pub fn compare(baseline: &Baseline, current: &[CaseResult]) -> Changes {
    let baseline = &baseline.report;
    let results = baseline
        .get("results")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let before: BTreeMap<&str, &str> = results
        .iter()
        .filter_map(|r| Some((r.get("name")?.as_str()?, r.get("verdict")?.as_str()?)))
        .collect();
    let version = baseline.get("shinpan_version").and_then(Value::as_str);
    let digest = baseline.get("library_digest").and_then(Value::as_str);
    let mut changes = Changes {
        baseline_suite: format!(
            "shinpan {}, cases {}",
            version.unwrap_or("?"),
            digest.map_or("?", |d| d.get(..12).unwrap_or(d))
        ),
        ..Changes::default()
    };
    for result in current {
        let now = result.verdict.name();
        let name = result.name.clone();
        match before.get(result.name.as_str()) {
            None => {
                if now == "error" {
                    changes.new_errors.push(name.clone());
                }
                changes.new_cases.push(name);
            }
            Some(&was) => {
                if now == "error" && was != "error" {
                    changes.new_errors.push(name);
                } else if passing(now) && !passing(was) && now == "pass" {
                    changes.fixed.push(name);
                } else if !passing(now) && passing(was) {
                    changes.broken.push(name);
                }
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{CaseResult, CaseVerdict};

    fn result(name: &str, verdict: CaseVerdict) -> CaseResult {
        CaseResult::named(name, verdict)
    }

    #[test]
    fn fixed_broken_and_new_errors() {
        let baseline = r#"{"shinpan_version": "0.1.0", "library_digest": "abc",
            "results": [
              {"name": "a", "verdict": "fail", "detail": "x"},
              {"name": "b", "verdict": "pass"},
              {"name": "c", "verdict": "pass"},
              {"name": "d", "verdict": "fail", "detail": "x"}
            ]}"#;
        let current = vec![
            result("a", CaseVerdict::Pass),
            result("b", CaseVerdict::Fail("y".into())),
            result("c", CaseVerdict::Error("z".into())),
            result("d", CaseVerdict::Fail("x".into())),
        ];
        let baseline = Baseline::parse(baseline).expect("a valid baseline");
        let changes = compare(&baseline, &current);
        assert_eq!(changes.fixed, ["a"]);
        assert_eq!(changes.broken, ["b"]);
        assert_eq!(changes.new_errors, ["c"]);
        assert!(changes.new_cases.is_empty());
    }

    #[test]
    fn a_report_without_results_is_refused() {
        assert!(Baseline::parse("{}").is_err());
        assert!(Baseline::parse("[1").is_err());
    }
}

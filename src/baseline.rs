//! `--baseline REPORT.json`: what changed since an earlier run's JSON report — cases fixed,
//! cases broken, new errors — so that two runs of the same engine can be compared. The earlier
//! report is read as plain JSON (`results[].name`, `results[].verdict`), so reports of older
//! shinpan versions still compare.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::report::Report;

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

/// Compares `current` with the baseline report's JSON text.
pub fn compare(baseline_json: &str, current: &Report) -> Result<Changes, String> {
    let baseline: Value = serde_json::from_str(baseline_json)
        .map_err(|e| format!("the baseline is not a JSON report: {e}"))?;
    let results = baseline
        .get("results")
        .and_then(Value::as_array)
        .ok_or("the baseline is not a JSON report of `shinpan check`: it has no `results` list")?;
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
    for result in &current.results {
        let now = serde_json::to_value(&result.verdict)
            .ok()
            .and_then(|v| v.get("verdict").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_default();
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
                } else if passing(&now) && !passing(was) && now == "pass" {
                    changes.fixed.push(name);
                } else if !passing(&now) && passing(was) {
                    changes.broken.push(name);
                }
            }
        }
    }
    Ok(changes)
}

impl Changes {
    pub fn human(&self) -> String {
        let mut out = format!("against the baseline ({}):\n", self.baseline_suite);
        for (what, names) in [
            ("fixed", &self.fixed),
            ("broken", &self.broken),
            ("new errors", &self.new_errors),
        ] {
            out.push_str(&format!("  {what}: {}\n", names.len()));
            for name in names {
                out.push_str(&format!("    {name}\n"));
            }
        }
        if !self.new_cases.is_empty() {
            out.push_str(&format!(
                "  cases not in the baseline: {}\n",
                self.new_cases.len()
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{CaseResult, Verdict};

    fn result(name: &str, verdict: Verdict) -> CaseResult {
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
        let current = Report::new(
            "abc",
            "reference",
            vec![
                result("a", Verdict::Pass),
                result("b", Verdict::Fail("y".into())),
                result("c", Verdict::Error("z".into())),
                result("d", Verdict::Fail("x".into())),
            ],
        );
        let changes = compare(baseline, &current).expect("a valid baseline");
        assert_eq!(changes.fixed, ["a"]);
        assert_eq!(changes.broken, ["b"]);
        assert_eq!(changes.new_errors, ["c"]);
        assert!(changes.new_cases.is_empty());
    }
}

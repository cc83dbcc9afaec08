//! Issue 40, items 8 and 10: `report FILE --html OUT` of a report that lies or is huge. The
//! page and the exit code went by the file's `counts` ("0 failed", exit 0, while it listed 10
//! failures); a forged 58 MB report made a 2.1 GB page. The counts are worked out again from
//! the results, and the page draws boards for a bounded number of cases, saying so.

use std::path::Path;

use assert_cmd::Command;
use serde_json::{json, Value};

fn shinpan() -> Command {
    crate::common::shinpan_within(300)
}

/// `report REPORT --html PAGE` on `report` written in `dir`: exit code, the page, stderr.
fn page_of(dir: &Path, report: &Value) -> (Option<i32>, String, String) {
    let (saved, page) = (dir.join("check.json"), dir.join("check.html"));
    std::fs::write(&saved, report.to_string()).unwrap();
    let output = shinpan()
        .arg("report")
        .arg(&saved)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    (
        output.status.code(),
        std::fs::read_to_string(&page).unwrap_or_default(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A report of `results`, its counts and groups as given.
fn report(counts: Value, results: Vec<Value>) -> Value {
    json!({
        "shinpan_version": "0.1.0",
        "library_digest": "abc",
        "library": "built-in",
        "engine": "forged",
        "counts": counts,
        "groups": [],
        "results": results,
        "stopped": null
    })
}

fn failing(name: &str) -> Value {
    json!({"name": name, "game": "codevs-reborn", "file": "f.yaml", "line": 1, "rules": [],
           "verdict": "fail", "detail": "-score: 3\n+score: 2"})
}

#[test]
fn counts_that_are_not_those_of_the_results_are_worked_out_again() {
    let dir = tempfile::tempdir().unwrap();
    let results = (0..10)
        .map(|i| failing(&format!("codevs-reborn/f/case-{i}")))
        .collect();
    let claimed = json!({"passed": 10, "failed": 0, "errors": 0, "unsupported": 0,
                         "expected_failures": 0, "fixed": 0});
    let (code, page, stderr) = page_of(dir.path(), &report(claimed, results));
    assert_eq!(code, Some(1), "the results failed: {stderr}");
    assert!(
        page.contains("<title>shinpan check: 0 passed, 10 failed, 0 errors</title>"),
        "{:.400}",
        page
    );
    assert!(
        stderr.contains(
            "its counts (10 passed, 0 failed, 0 errors) are not those of its results (0 passed, \
             10 failed, 0 errors)"
        ),
        "{stderr}"
    );
}

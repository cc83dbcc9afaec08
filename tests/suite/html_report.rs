//! The HTML page of `check` (`--format html`) and of a saved JSON report (`report FILE --html`),
//! on the example adapter with a planted bug (`--bug chain-round`: chain scores rounded, not
//! floored): one self-contained file, every failing case with its clauses' text and its boards,
//! the differing fields highlighted, the same cases whichever way the page was made.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::Value;

const ENGINE: &str = "python3 conformance/adapters/codevs_reborn.py --bug chain-round";

fn check(format: &str) -> (i32, String) {
    let output = crate::common::shinpan()
        .args(["check", "codevs-reborn", "--quiet", "--format", format])
        .args(["--engine", ENGINE])
        .timeout(Duration::from_secs(180))
        .output()
        .unwrap();
    let code = output.status.code().unwrap_or(-1);
    (code, String::from_utf8(output.stdout).unwrap())
}

/// The ids of the page's case articles.
fn articles(html: &str) -> BTreeSet<String> {
    html.split("<article class=\"case\" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

/// The texts of `rules.yaml`'s clauses, by id, as the page escapes them.
fn clause_texts() -> Vec<(String, String)> {
    let text = std::fs::read_to_string("cases/codevs-reborn/rules.yaml").unwrap();
    let catalogue: Value = serde_yaml::from_str(&text).unwrap();
    catalogue["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let escaped = c["text"].as_str().unwrap().trim().replace('\'', "&#39;");
            (c["id"].as_str().unwrap().to_string(), escaped)
        })
        .collect()
}

/// What a page must never hold: anything fetched from elsewhere.
fn assert_self_contained(html: &str) {
    for outside in ["http://", "https://", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(outside), "the page holds `{outside}`");
    }
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    assert_eq!(html.matches("<style>").count(), 1);
    assert_eq!(html.matches("<script>").count(), 1);
}

#[test]
fn check_draws_each_failing_case_with_its_clauses_and_highlighted_boards() {
    let (code, html) = check("html");
    assert_eq!(code, 1, "the planted bug fails cases");
    assert_self_contained(&html);
    let cases = articles(&html);
    assert!(!cases.is_empty());
    let chain = "case-codevs-reborn/chains/two-chain-scores-two-sends-one";
    assert!(cases.contains(chain), "{cases:?}");
    // The clause the bug breaks, with its text from rules.yaml.
    let (_, score_chain) = clause_texts()
        .into_iter()
        .find(|(id, _)| id == "score.chain")
        .unwrap();
    let article = html.split(&format!("id=\"{chain}\"")).nth(1).unwrap();
    let article = article.split("</article>").next().unwrap();
    assert!(article.contains(&score_chain), "{article}");
    // Three boards, the expected and actual each with a highlighted field inside the drawing.
    assert_eq!(article.matches("<svg class=\"board\"").count(), 3);
    for board in ["expected", "actual"] {
        let drawing = article
            .split(&format!("data-board=\"{board}\""))
            .nth(1)
            .unwrap();
        let drawing = drawing.split("</svg>").next().unwrap();
        assert!(
            drawing.contains("class=\"diff\" ")
                && drawing.contains("data-path=\"players[0].score\""),
            "{board}: {drawing}"
        );
    }
    let given = article.split("data-board=\"given\"").nth(1).unwrap();
    let given = given.split("</svg>").next().unwrap();
    assert!(
        !given.contains("diff"),
        "nothing is marked on the given state"
    );
}

#[test]
fn a_saved_json_report_draws_the_same_failing_cases() {
    let (code, json) = check("json");
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&json).unwrap();
    let failing: BTreeSet<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["verdict"] != "pass")
        .map(|r| format!("case-{}", r["name"].as_str().unwrap()))
        .collect();
    // Only failing cases carry their states.
    for r in report["results"].as_array().unwrap() {
        assert_eq!(
            r.get("shown").is_some(),
            r["verdict"] == "fail",
            "{}",
            r["name"]
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let (saved, page) = (dir.path().join("check.json"), dir.path().join("check.html"));
    std::fs::write(&saved, &json).unwrap();
    crate::common::shinpan()
        .arg("report")
        .arg(&saved)
        .arg("--html")
        .arg(&page)
        .assert()
        .code(1);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&html);
    assert_eq!(articles(&html), failing);
    let (_, direct) = check("html");
    assert_eq!(articles(&direct), failing);
    assert!(html.matches("class=\"diff\"").count() >= failing.len());
}

/// `--baseline`: the cases the bug failed, run again without it, are listed as fixed, each a
/// link to its case; nothing is broken.
#[test]
fn a_baseline_lists_the_cases_fixed_since() {
    let (_, buggy) = check("json");
    let report: Value = serde_json::from_str(&buggy).unwrap();
    let failed = report["counts"]["failed"].as_u64().unwrap() as usize;
    assert!(failed > 0);
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, &buggy).unwrap();
    let output = crate::common::shinpan()
        .args(["check", "codevs-reborn", "--quiet", "--format", "html"])
        .args(["--engine", "python3 conformance/adapters/codevs_reborn.py"])
        .arg("--baseline")
        .arg(&baseline)
        .timeout(Duration::from_secs(180))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let html = String::from_utf8(output.stdout).unwrap();
    let listed = |id: &str| {
        let list = html
            .split(&format!("data-changes=\"{id}\">"))
            .nth(1)
            .unwrap();
        list.split("</ul>")
            .next()
            .unwrap()
            .matches("<li><a href=\"#case-")
            .count()
    };
    assert_eq!(
        (listed("fixed"), listed("broken"), listed("new-errors")),
        (failed, 0, 0)
    );
    assert!(articles(&html).is_empty(), "every case passes now");
}

#[test]
fn report_needs_a_report_and_html_or_a_subcommand() {
    let shinpan = crate::common::shinpan;
    shinpan().arg("report").assert().code(2);
    shinpan().args(["report", "x.json"]).assert().code(2);
    shinpan()
        .args(["report", "missing.json", "--html", "out.html"])
        .assert()
        .code(2);
    shinpan().args(["report", "merge"]).assert().code(2);
}

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

/// A CODE VS 4.0 state some turns into a match of random legal replies: a crowded board.
fn crowded_codevs4_state() -> Value {
    use rand::SeedableRng;
    use shinpan::seam::{MatchOptions, Reply};
    let game = shinpan::games::by_id("codevs4").unwrap();
    let mut current = game.start(3, &MatchOptions::default()).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..120 {
        if current.outcome().is_some() {
            break;
        }
        let replies: Vec<Reply> = current
            .awaiting()
            .into_iter()
            .map(|p| Reply::text(current.random_reply(p, &mut rng)))
            .collect();
        current.step(&replies).unwrap();
    }
    current.state().unwrap()
}

/// A failing step case of `cause` with the state drawn three times.
fn failing_with_states(name: &str, cause: &str, state: &Value) -> Value {
    let mut result = failing(name);
    result["game"] = "codevs4".into();
    result["departure"] = json!({"name": cause, "describe": format!("{cause} (forged)"),
                                  "by": [], "unexplained": []});
    result["shown"] = json!({"given": state, "expected": state, "actual": state,
                             "differing": []});
    result
}

/// 2,100 failing cases of 30 causes, each with a crowded board: boards for the first 5 of a
/// cause and 60 in all, the page saying so, each other case its diff and a link to the first of
/// its cause.
#[test]
fn a_large_report_draws_a_bounded_number_of_boards_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let state = crowded_codevs4_state();
    let causes: Vec<String> = (0..30).map(|c| format!("cause.{c}")).collect();
    let results: Vec<Value> = causes
        .iter()
        .flat_map(|cause| {
            let state = &state;
            (0..70).map(move |i| {
                failing_with_states(&format!("codevs4/{cause}/case-{i}"), cause, state)
            })
        })
        .collect();
    let counts = json!({"passed": 0, "failed": 2100, "errors": 0, "unsupported": 0,
                        "expected_failures": 0, "fixed": 0});
    let forged = report(counts, results);
    let (code, page, stderr) = page_of(dir.path(), &forged);
    assert_eq!(code, Some(1), "{stderr}");
    let report_bytes = forged.to_string().len();
    assert!(
        page.len() < report_bytes,
        "the page ({} bytes) is larger than the report ({report_bytes} bytes)",
        page.len()
    );
    assert_eq!(page.matches("<svg class=\"board\"").count(), 60 * 3);
    assert!(
        page.contains(
            "<p class=\"undrawn\" id=\"boards-bound\">Boards are drawn for the first 5 failing \
             cases of each cause, 60 in all: 60 of the 2100 cases with states here; the other \
             2040 show their diff and link to the first of their cause.</p>"
        ),
        "{:.2000}",
        page
    );
    let article = |name: &str| {
        page.split(&format!("<article class=\"case\" id=\"case-{name}\""))
            .nth(1)
            .unwrap()
            .split("</article>")
            .next()
            .unwrap()
            .to_string()
    };
    assert!(article("codevs4/cause.0/case-4").contains("<svg class=\"board\""));
    let sixth = article("codevs4/cause.0/case-5");
    assert!(!sixth.contains("<svg"));
    assert!(
        sixth.contains(
            "Boards not drawn: this page draws them for the first 5 cases of each cause, 60 in \
             all (<a href=\"#case-codevs4/cause.0/case-0\">the first of this cause</a>)."
        ),
        "{sixth}"
    );
    assert!(sixth.contains("<pre class=\"detail\">-score: 3\n+score: 2</pre>"));
    // Past 60 in all, the first of a cause has no boards and no link to itself.
    let late = article("codevs4/cause.12/case-0");
    assert!(
        !late.contains("<svg") && !late.contains("the first of this cause"),
        "{late}"
    );
    // Every case is listed under its cause, a link to its article.
    let causes_section = page
        .split("<section class=\"causes\" id=\"causes\">")
        .nth(1)
        .unwrap()
        .split("</section>")
        .next()
        .unwrap();
    assert_eq!(causes_section.matches("<li data-cause=").count(), 30);
    assert_eq!(causes_section.matches("<a href=\"#case-").count(), 2100);
}

//! Reports as people and machines read them: the `check` report of a small library with
//! failures, the JSON of `coverage` and of `diff`, snapshotted (insta), and the JUnit of every
//! command that judges.

use serde_json::{json, Value};
use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::games;
use shinpan::harness::diff::{Departure, DiffOutcome, Finding, Input, Part, Size, Skipped};
use shinpan::report::check::Report;
use shinpan::report::coverage::CoverageReport;
use shinpan::report::diff::{CaseOut, DiffReport};
use shinpan::report::Render;
use shinpan::run::{run_library, Reference};

fn small_library_report() -> Report {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/failing");
    let library = load_library(&Source::Dir(root), &games::all(), &LoadOptions::default()).unwrap();
    Report::new(
        "0123456789abcdef",
        "tests/fixtures/failing",
        "reference",
        run_library(&library, None, &mut Reference, |_, _, _| {}).results,
    )
}

#[test]
fn check_report_of_a_small_library() {
    let human = small_library_report()
        .human()
        .replace(env!("CARGO_MANIFEST_DIR"), "<root>");
    insta::assert_snapshot!(human);
}

#[test]
fn check_junit_has_a_failure_per_failing_case() {
    let report = small_library_report();
    let junit = report.junit();
    let failing = report
        .results
        .iter()
        .filter(|r| r.verdict.name() == "fail")
        .count();
    assert!(failing > 0);
    assert_eq!(junit.matches("<failure").count(), failing, "{junit}");
    assert!(junit.starts_with("<?xml"), "{junit}");
}

fn small_library_coverage() -> CoverageReport {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/failing");
    let library = load_library(&Source::Dir(root), &games::all(), &LoadOptions::default()).unwrap();
    CoverageReport::new(&library, "tests/fixtures/failing")
}

/// The JSON shape of `coverage --format json`: per game, each clause with its case count.
#[test]
fn coverage_json_of_a_small_library() {
    insta::assert_snapshot!(small_library_coverage().json());
}

#[test]
fn coverage_junit_has_a_case_per_clause() {
    let junit = small_library_coverage().junit();
    assert_eq!(junit.matches("<testcase").count(), 2, "{junit}");
    assert_eq!(junit.matches("<failure").count(), 0, "{junit}");
}

/// A departure found (its case not written: the disk was full) and one passed over as known,
/// as `diff` reports them; made by hand, so that the report does not follow the fuzzer.
fn diff_report() -> DiffReport {
    let part = Part {
        name: "ojama.drop".into(),
        variant: Some("ojama-row-at-11".into()),
        clauses: vec!["ojama.drop".into()],
        does: Some("an ojama row falls at a stock of 11, not 10".into()),
        fields: vec!["players[].ojama_stock".into()],
        ties: Vec::new(),
        leads: Vec::new(),
    };
    let departure = Departure {
        parts: vec![part.clone()],
        fields: vec!["players[].ojama_stock".into()],
        unexplained: Vec::new(),
    };
    let input = |turn: u64| Input {
        state: json!({"turn": turn}),
        turns: Vec::new(),
    };
    let finding = Finding {
        run: 26,
        part,
        original_departure: departure.clone(),
        departure,
        concerns: Vec::new(),
        original: input(3),
        original_difference: "--- expected\n+++ actual\n-ojama_stock: 1\n+ojama_stock: 11\n".into(),
        shrunk: input(0),
        shrink_steps: 25,
        shrink_requests: 26,
        minimal: true,
        size_before: Size {
            lines: 554,
            turns: 2,
            items: 3625,
        },
        size_after: Size {
            lines: 12,
            turns: 1,
            items: 9,
        },
        difference: "--- expected\n+++ actual\n-ojama_stock: 0\n+ojama_stock: 10\n".into(),
        reference: Value::Null,
        engine: None,
        group_fields: Vec::new(),
        expectation: Value::Null,
    };
    let outcome = DiffOutcome {
        runs: 40,
        unsupported: 1,
        judged: 39,
        findings: vec![finding],
        known: vec![Skipped {
            name: "score.chain".into(),
            describe: "chain scores sum round(1.3^i), not floor(1.3^i) (score.chain)".into(),
            fields: vec!["players[].score".into()],
            pattern: "score.chain".into(),
            reason: "a known one".into(),
            seen: 10,
        }],
        repeats: 2,
        seen: vec![3],
        interrupted: None,
        unmatched_known: vec!["no.such.clause".into()],
        partly_known: Vec::new(),
    };
    let case = CaseOut::NotWritten {
        why: "cannot write lib/codevs-reborn/diff-seed-0-run-26.yaml: No space left on device"
            .into(),
        case: "# Written by `shinpan diff`\ngame: codevs-reborn\n".into(),
    };
    DiffReport::new(
        "codevs-reborn",
        "adapter --bug",
        0,
        40,
        &outcome,
        vec![case],
    )
}

/// The JSON shape of `diff --format json`: the run's totals, the known departures passed over,
/// and each departure with where its case went.
#[test]
fn diff_json_of_a_departure_and_a_known_one() {
    insta::assert_snapshot!(diff_report().json());
}

#[test]
fn diff_human_report_names_the_departure_and_prints_the_case_not_written() {
    let human = diff_report().human();
    assert!(
        human.starts_with("known (score.chain: a known one), seen on 10 inputs: chain scores"),
        "{human}"
    );
    assert!(
        human.contains(
            "  1. ojama.drop · an ojama row falls at a stock of 11, not 10 · \
             players[].ojama_stock · seen on 3 inputs · 554 → 12 lines · turn 0 · not written \
             (cannot write lib/codevs-reborn/diff-seed-0-run-26.yaml: No space left on device): \
             printed below\n"
        ),
        "{human}"
    );
    assert!(
        human.ends_with("\n# Written by `shinpan diff`\ngame: codevs-reborn\n"),
        "{human}"
    );
}

#[test]
fn diff_junit_fails_a_case_per_departure_and_skips_the_known_ones() {
    let junit = diff_report().junit();
    assert_eq!(junit.matches("<failure").count(), 1, "{junit}");
    assert_eq!(junit.matches("<skipped").count(), 1, "{junit}");
    assert!(
        junit.contains("<testcase name=\"ojama.drop\" classname=\"codevs-reborn/diff\">"),
        "{junit}"
    );
    // The case that is in no file is in the test case's output, so that it is not lost.
    assert!(
        junit.contains("<system-out># Written by `shinpan diff`"),
        "{junit}"
    );
}

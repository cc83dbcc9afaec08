//! Reports as people and machines read them: the `check` report of a small library with
//! failures, snapshotted (insta), and the JUnit of every command that judges.

use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::games;
use shinpan::report::check::Report;
use shinpan::report::Render;
use shinpan::run::{run_library, Reference};

fn small_library_report() -> Report {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/failing");
    let library = load_library(&Source::Dir(root), &games::all(), &LoadOptions::default()).unwrap();
    Report::new(
        "0123456789abcdef",
        "tests/fixtures/failing",
        "reference",
        run_library(&library, None, &mut Reference, |_, _| {}).results,
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

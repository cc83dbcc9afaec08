//! Cases that start from a state play cannot reach (issue 16): the document's own offset
//! examples give both ojama stocks non-zero, which the offset at the end of every turn never
//! leaves. Such a case says `reachable: false`; the loader refuses one that does not, at its
//! line; an engine that models only reachable play may answer `unsupported` for it, without
//! blame, and is told which cases they are (`"reachable": false` in the step request).

use assert_cmd::Command;
use serde_json::Value;

fn shinpan() -> Command {
    crate::common::shinpan_within(120)
}

/// A library in a temporary directory with one case file, `x.yaml`, holding `cases`.
fn library(cases: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let game_dir = dir.path().join("codevs-reborn");
    std::fs::create_dir(&game_dir).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/codevs-reborn/rules.yaml"),
        game_dir.join("rules.yaml"),
    )
    .unwrap();
    std::fs::write(
        game_dir.join("x.yaml"),
        format!("game: codevs-reborn\ncases:\n{cases}"),
    )
    .unwrap();
    dir
}

const PAIR_ON_FIELD: &str = "  - id: pair
    rules: [vanish.sum-ten]
    given:
      packs: [[[1, 1], [1, 0]]]
      players:
        - field: |
            37........
    when: [[\"0 0\", \"0 0\"]]
    then:
      turn: 1
";

#[test]
fn an_unmarked_unreachable_given_is_a_bad_case_file_at_its_line() {
    let dir = library(PAIR_ON_FIELD);
    shinpan()
        .args(["check", "--cases"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("x.yaml:"))
        .stderr(predicates::str::contains(
            "case `pair`: `given` cannot occur in play: holds 3 (column 0, row 0 from the floor) \
             next to 7",
        ))
        .stderr(predicates::str::contains("says `reachable: false`"));
    // The place is the field's line (`- field: |`).
    let output = shinpan()
        .args(["check", "--cases"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("x.yaml:8:"), "{stderr}");
}

#[test]
fn a_marked_unreachable_given_loads_and_runs() {
    let marked = PAIR_ON_FIELD.replace("    rules:", "    reachable: false\n    rules:");
    let dir = library(&marked);
    shinpan()
        .args(["check", "--cases"])
        .arg(dir.path())
        .assert()
        .code(0);
}

#[test]
fn reachable_is_only_for_a_step_case() {
    let dir = library(
        "  - id: p\n    rules: [vanish.sum-ten]\n    reachable: false\n    parse: reply\n    \
         input: \"2 0\"\n    expect: valid\n",
    );
    shinpan()
        .args(["check", "--cases"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "a parse case has no `given`, `reachable`",
        ));
}

/// The library's own cases from unreachable states are the document's offset examples, and an
/// engine that declines them is not blamed; the other ojama cases are still compared.
#[test]
fn an_engine_may_decline_the_offset_examples_without_blame() {
    let output = shinpan()
        .args([
            "check",
            "codevs-reborn",
            "--filter",
            "ojama/",
            "--format",
            "json",
        ])
        .args([
            "--engine",
            "python3 tests/fixtures/adapters/partial_reborn.py --unsupported-unreachable",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    let results = report["results"].as_array().unwrap();
    let declined: Vec<&Value> = results
        .iter()
        .filter(|r| r["verdict"] == "unsupported")
        .collect();
    let names: Vec<&str> = declined.iter().filter_map(|r| r["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "codevs-reborn/ojama/offset-example-one-ten-against-five",
            "codevs-reborn/ojama/offset-example-two-eight-against-ten"
        ]
    );
    for r in declined {
        assert!(
            r["detail"].as_str().unwrap().contains(
                "(no blame: the case starts from a state that cannot occur in play, \
                 `reachable: false`)"
            ),
            "{r}"
        );
    }
    assert!(results.iter().filter(|r| r["verdict"] == "pass").count() > 5);
}

//! Verdicts and counts on a third-party engine (issue 16): a result that breaks the state's
//! own rules (a gauge of 104) is a *fail* of the case, with a diff, not an `error` (which says
//! the adapter misbehaved); and the per-game line and the total line of the report use the
//! same words and the same counts.

use assert_cmd::Command;
use serde_json::Value;

const PARTIAL: &str = "python3 tests/fixtures/adapters/partial_reborn.py";

fn shinpan() -> Command {
    crate::common::shinpan_within(120)
}

#[test]
fn a_result_outside_the_states_rules_is_a_fail_with_a_diff() {
    let output = shinpan()
        .args([
            "check",
            "codevs-reborn",
            "--filter",
            "gauge/",
            "--format",
            "json",
        ])
        .args(["--engine", &format!("{PARTIAL} --result-gauge 104")])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(report["counts"]["errors"], 0, "{report:#}");
    let failed: Vec<&Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["verdict"] == "fail")
        .collect();
    assert!(!failed.is_empty());
    for r in failed {
        let detail = r["detail"].as_str().unwrap();
        assert!(
            detail.contains("the engine's result is not a state of the game")
                && detail.contains("skill_gauge"),
            "{detail}"
        );
    }
}

#[test]
fn the_per_game_and_total_lines_use_the_same_words_and_counts() {
    let output = shinpan()
        .args(["check", "codevs-reborn", "--filter", "gauge/"])
        .args([
            "--engine",
            &format!("{PARTIAL} --result-gauge 104 --error-on gauge-at-hundred"),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let per_game = stdout
        .lines()
        .find_map(|l| l.strip_prefix("codevs-reborn: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let total = stdout
        .lines()
        .find_map(|l| l.strip_prefix("total: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(per_game, total, "{stdout}");
    assert!(
        total.contains(" failed, ") && total.contains(" errors"),
        "{total}"
    );
    assert!(
        !total.contains(" 0 errors"),
        "an error was asked for: {total}"
    );
}

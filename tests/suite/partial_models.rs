//! Partial models (issue 16): real simulators model part of a game — no skill gauge, no prompts,
//! no parser for some protocol text. An engine declares what it does not model, and `check`
//! compares everything else: each case passes or fails on what is modelled, with the part left
//! out named in the report; a case about nothing else is unsupported and says why.
//!
//! Found when two contestants' CODE VS Reborn simulators were put behind the adapter protocol:
//! one without a gauge had 105 of its cases unsupported and 18 failed, all on the gauge. The
//! adapter here is `tests/fixtures/adapters/partial_reborn.py`, the example engine with parts
//! taken away.

use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use shinpan::run::{
    Answered, EngineUnderTest, Mask, NewMatchRequest, ParseRequest, Reference, StepRequest,
    StepResponse,
};
use shinpan::seam::ParseVerdict;
use shinpan::Suite;

const PARTIAL: &str = "python3 tests/fixtures/adapters/partial_reborn.py";
const GAUGE: &str = "players[].skill_gauge";

fn shinpan() -> Command {
    crate::common::shinpan_within(120)
}

/// `check codevs-reborn` on the partial adapter with `flags`: the exit code and the JSON report.
fn check(flags: &str, args: &[&str]) -> (i32, Value) {
    let output = shinpan()
        .args(["check", "codevs-reborn", "--format", "json", "--engine"])
        .arg(format!("{PARTIAL} {flags}"))
        .args(args)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), report)
}

fn result<'r>(report: &'r Value, name: &str) -> &'r Value {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

fn with_verdict<'r>(report: &'r Value, verdict: &str) -> Vec<&'r Value> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["verdict"] == verdict)
        .collect()
}

fn masked(result: &Value) -> Vec<&str> {
    result["masked"]
        .as_array()
        .map(|m| m.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The whole "done when" of part 1: no gauge, no prompts, no turn parser, and every case that
/// checks something else is compared on it and passes.
#[test]
fn an_engine_without_gauge_or_prompts_is_checked_on_everything_else() {
    let flags = format!("--no-gauge --no-prompts --declare {GAUGE} --declare-parse turn");
    let (code, report) = check(&flags, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["counts"]["failed"], 0);
    // A case about the score and the gauge passes on the score, the gauge named as left out.
    let one_chain = result(&report, "codevs-reborn/chains/one-chain-scores-one");
    assert_eq!(one_chain["verdict"], "pass");
    assert_eq!(masked(one_chain), [GAUGE]);
    // A case about the gauge alone is unsupported, and says why.
    let gauge_only = result(
        &report,
        "codevs-reborn/gauge/gauge-at-hundred-stays-hundred",
    );
    assert_eq!(gauge_only["verdict"], "unsupported");
    assert!(
        gauge_only["detail"].as_str().unwrap().contains(&format!(
            "everything the case checks is unmodelled by the engine: {GAUGE}"
        )),
        "{gauge_only}"
    );
    // A case about a prompt and the state is compared on the state.
    let prompt = result(&report, "codevs-reborn/prompt/prompt-shows-ojama-as-eleven");
    assert_eq!(prompt["verdict"], "pass", "{prompt}");
    assert_eq!(masked(prompt), ["prompts (the engine renders none)"]);
    // The turn parser is never asked.
    let turn = result(
        &report,
        "codevs-reborn/protocol-turn/turn-five-hundred-is-invalid",
    );
    assert_eq!(turn["verdict"], "unsupported");
    assert!(turn["detail"].as_str().unwrap().contains("`turn` text"));
    assert!(
        with_verdict(&report, "pass").len() > 100,
        "most cases compared"
    );
}

/// The same engine without the declaration: the missing gauge reads as its default and every
/// case about the gauge fails. What makes the difference above is the declaration.
#[test]
fn an_undeclared_missing_gauge_fails_the_gauge_cases() {
    let (code, report) = check("--no-gauge", &["--filter", "gauge/"]);
    assert_eq!(code, 1);
    let failed = with_verdict(&report, "fail");
    assert!(!failed.is_empty());
    for case in failed {
        assert!(
            case["detail"].as_str().unwrap().contains("skill_gauge"),
            "{case}"
        );
    }
}

/// A partial model is still judged on what it models: a bug in the thinking time fails the
/// cases about it, the gauge left out of the diff.
#[test]
fn a_partial_model_still_fails_on_what_it_models() {
    let flags = format!("--no-gauge --declare {GAUGE} --bug time-not-charged");
    let (code, report) = check(&flags, &["--filter", "time/"]);
    assert_eq!(code, 1);
    let failed = with_verdict(&report, "fail");
    assert!(!failed.is_empty(), "{report:#}");
    for case in &failed {
        let detail = case["detail"].as_str().unwrap();
        assert!(detail.contains("time_left_ms"), "{detail}");
        assert!(!detail.contains("skill_gauge:"), "{detail}");
    }
}

/// `"prompts": null` used to make every case that checks a prompt unsupported, its state
/// never compared.
#[test]
fn an_engine_that_renders_no_prompts_still_gets_its_states_compared() {
    let (code, report) = check("--no-prompts", &["--filter", "prompt/"]);
    assert_eq!(code, 0, "{report:#}");
    let compared: Vec<&Value> = with_verdict(&report, "pass")
        .into_iter()
        .filter(|r| masked(r) == ["prompts (the engine renders none)"])
        .collect();
    assert!(!compared.is_empty(), "{report:#}");
}

/// The human report names the part left out, per game, with the number of cases.
#[test]
fn the_report_names_what_was_left_out() {
    let output = shinpan()
        .args(["check", "codevs-reborn", "--filter", "chains/", "--engine"])
        .arg(format!("{PARTIAL} --no-gauge --declare {GAUGE}"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "left out as unmodelled by the engine (the cases compared on the rest):\n  \
             codevs-reborn: players[].skill_gauge in 8 cases\n"
        ),
        "{stdout}"
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}");
}

/// A misspelt path would silently mask nothing: it is refused before anything runs.
#[test]
fn a_misspelt_unmodelled_path_is_refused() {
    shinpan()
        .args(["check", "codevs-reborn", "--engine"])
        .arg(format!("{PARTIAL} --declare players[].skil_gauge"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the unmodelled path `players[].skil_gauge` names no field of codevs-reborn",
        ));
    shinpan()
        .args(["check", "codevs-reborn", "--engine"])
        .arg(format!("{PARTIAL} --declare-parse turns"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the unmodelled protocol text `turns` is not one of codevs-reborn's",
        ));
}

/// An engine author's in-process engine declares its mask through the same trait.
struct NoGaugeInProcess;

impl EngineUnderTest for NoGaugeInProcess {
    fn name(&self) -> String {
        "no-gauge-in-process".into()
    }

    fn unmodelled(&self, _game: &str) -> Mask {
        Mask::new(&[GAUGE], &[]).unwrap()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        let uses_skill =
            request.turns.iter().flatten().any(
                |r| matches!(r, shinpan::seam::Reply::Text { text, .. } if text.trim() == "S"),
            );
        if uses_skill {
            return Answered::Unsupported("no skill without a gauge".into());
        }
        match Reference.step(request) {
            Answered::Done(mut response) => {
                for player in response.state["players"].as_array_mut().unwrap() {
                    player["skill_gauge"] = 0.into();
                }
                Answered::Done(response)
            }
            other => other,
        }
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

#[test]
fn an_in_process_engine_declares_its_mask_too() {
    let results = Suite::new("codevs-reborn", NoGaugeInProcess)
        .results(Some("codevs-reborn/gauge/"))
        .unwrap();
    assert!(!results.is_empty());
    for r in &results {
        assert_ne!(
            r.verdict.name(),
            "fail",
            "{}: {}",
            r.name,
            r.verdict.detail()
        );
    }
    assert!(results
        .iter()
        .any(|r| r.verdict.name() == "pass" && r.masked == [GAUGE]));
}

/// `diff` leaves out what the engine declares too: the gaugeless engine that renders no prompts
/// agrees with the reference on everything else, and without the declaration the missing gauge
/// is the one departure found.
#[test]
fn diff_compares_a_partial_model_on_what_it_models() {
    let run = |flags: &str| {
        shinpan()
            .args(["diff", "codevs-reborn", "--runs", "150", "--engine"])
            .arg(format!("{PARTIAL} {flags}"))
            .timeout(Duration::from_secs(300))
            .output()
            .unwrap()
    };
    let declared = run(&format!("--no-gauge --no-prompts --declare {GAUGE}"));
    let stdout = String::from_utf8_lossy(&declared.stdout);
    assert_eq!(declared.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("no disagreement in 150 inputs"), "{stdout}");
    let undeclared = run("--no-gauge");
    let stdout = String::from_utf8_lossy(&undeclared.stdout);
    assert_eq!(undeclared.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!("departure 1: unexplained, fields {GAUGE} (run")),
        "{stdout}"
    );
}

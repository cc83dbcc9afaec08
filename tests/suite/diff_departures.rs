//! `shinpan diff` on an engine with more than one departure (issue 16): it goes on past the
//! first, passes over the ones `--known` lists, shrinks each to a case about that departure
//! and no other, deterministically, and only ever sends states play can reach.
//!
//! The engines are the example adapter with planted bugs (`--bug chain-round`: chain scores
//! rounded; `--bug ojama-cap-11`: an ojama row falls at 11, not 10) and
//! `tests/fixtures/adapters/partial_reborn.py` (a departure only on unreachable states).

use assert_cmd::Command;
use serde_json::Value;
use shinpan::games;

const TWO_BUGS: &str =
    "python3 conformance/adapters/codevs_reborn.py --bug chain-round --bug ojama-cap-11";
const PARTIAL: &str = "python3 tests/fixtures/adapters/partial_reborn.py";

fn shinpan() -> Command {
    crate::common::shinpan_within(300)
}

/// `diff` with `args`: the exit code and stdout.
fn diff(engine: &str, args: &[&str]) -> (i32, String) {
    let output = shinpan()
        .args(["diff", "codevs-reborn", "--engine", engine])
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// The JSON report of `check --cases cases` on `engine` (`None`: the reference engine).
fn check(cases: &str, engine: Option<&str>) -> (i32, Value) {
    let mut cmd = shinpan();
    cmd.args(["check", "--cases", cases, "--format", "json"]);
    if let Some(engine) = engine {
        cmd.args(["--engine", engine]);
    }
    let output = cmd.output().unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a report ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), report)
}

/// The "done when" of part 2: two bugs, two departures in one run, each its own case file that
/// the reference engine passes and the buggy engine fails, each with a one-line summary.
#[test]
fn diff_reports_several_distinct_departures_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let found = dir.path().join("found");
    let (code, stdout) = diff(
        TWO_BUGS,
        &[
            "--departures",
            "2",
            "--runs",
            "300",
            "--out",
            found.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("2 distinct departures in "), "{stdout}");
    let summaries: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  1. ") || l.starts_with("  2. "))
        .collect();
    assert_eq!(summaries.len(), 2, "{stdout}");
    // One named by the ojama drop, one by the chain score; neither mixes in the other.
    assert!(
        summaries
            .iter()
            .any(|l| l.contains(". ojama.drop · ") && !l.contains("score")),
        "{stdout}"
    );
    assert!(
        summaries
            .iter()
            .any(|l| l.contains(". score.chain · ") && !l.contains("ojama")),
        "{stdout}"
    );
    for line in &summaries {
        assert!(line.contains(" · turn "), "{line}");
        assert!(line.contains(" lines · "), "{line}");
        assert!(line.ends_with(".yaml"), "{line}");
    }
    // The original disagreement is printed next to the shrunk one.
    assert_eq!(stdout.matches("  as found (").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("  shrunk (").count(), 2, "{stdout}");
    // `--out` makes a library: the cases in the game's folder, beside its catalogue.
    let mut files: Vec<String> = std::fs::read_dir(found.join("codevs-reborn"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files.iter().filter(|f| f.starts_with("diff-seed-")).count() == 2);
    assert_eq!(files[2], "rules.yaml");
    let cases = found.display().to_string();
    let (code, report) = check(&cases, None);
    assert_eq!(code, 0, "the reference engine passes them: {report:#}");
    let (code, report) = check(&cases, Some(TWO_BUGS));
    assert_eq!(code, 1);
    assert_eq!(report["counts"]["failed"], 2, "{report:#}");
}

/// Issue 24's "done when": the two planted bugs are named by the clauses they break
/// (`score.chain`, `ojama.drop`), one group each, however many inputs show them and whatever
/// else differs on those inputs. Ten seeds are measured by hand with the release binary; two
/// short runs here.
#[test]
fn two_planted_bugs_are_two_groups_named_by_their_clauses() {
    for seed in ["0", "9"] {
        let (code, stdout) = diff(
            TWO_BUGS,
            &["--departures", "8", "--runs", "60", "--seed", seed],
        );
        assert_eq!(code, 1, "{stdout}");
        let mut names: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("  1. ") || l.starts_with("  2. ") || l.starts_with("  3. "))
            .map(|l| l[5..].split(" · ").next().unwrap_or_default())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["ojama.drop", "score.chain"],
            "seed {seed}: {stdout}"
        );
    }
}

/// One known bug no longer hides the others: the ojama departure (found first on this seed)
/// listed in `--known` by its fields, with a reason, is counted and passed over, and the run
/// goes on to the chain-score one.
#[test]
fn a_known_departure_is_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known.yaml");
    std::fs::write(
        &known,
        "players[].ojama_stock: ojama row at 11, reported upstream\n\
         players[].field: the rows that ojama drop leaves\n",
    )
    .unwrap();
    let (code, stdout) = diff(
        TWO_BUGS,
        &[
            "--known",
            known.to_str().unwrap(),
            "--runs",
            "300",
            // Past the chain score, which may come first, to where the known one shows.
            "--departures",
            "2",
        ],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("known (players[].")
            && l.ends_with(": a variant where an ojama row falls at a stock of 11, not 10, reproduces this (ojama.drop)")),
        "{stdout}"
    );
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("  1. "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(summary.contains("score.chain"), "{summary}");
    assert!(!summary.contains("ojama"), "{summary}");
}

/// Issue 40, item 16: a `--known` field pattern that covers only part of a departure (the
/// ojama departure is made of `players[].ojama_stock` and `players[].field`; the list names the
/// first) was neither applied nor reported. It is still not applied (the other field may be a
/// bug of its own), and it is reported: on stderr, in the human report and in the JSON one.
#[test]
fn a_known_pattern_that_covers_part_of_a_departure_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known.yaml");
    std::fs::write(
        &known,
        "players[].ojama_stock: ojama row at 11, reported upstream\n",
    )
    .unwrap();
    for format in ["human", "json"] {
        let output = shinpan()
            .args(["diff", "codevs-reborn", "--engine", TWO_BUGS, "--known"])
            .arg(&known)
            .args(["--runs", "300", "--departures", "2", "--format", format])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
        let said = "--known entry `players[].ojama_stock` covers only part of departure \
                    `ojama.drop`: it covers players[].ojama_stock, and no entry covers \
                    players[].field; the departure is not passed over";
        assert!(stderr.contains(said), "{stderr}");
        if format == "human" {
            assert!(
                stdout.contains(&format!("PARTLY KNOWN: {said}")),
                "{stdout}"
            );
            assert!(
                stdout.contains(". ojama.drop · "),
                "found, not passed over: {stdout}"
            );
            continue;
        }
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(
            report["partly_known"],
            serde_json::json!([{
                "pattern": "players[].ojama_stock",
                "name": "ojama.drop",
                "covered": ["players[].ojama_stock"],
                "uncovered": ["players[].field"],
            }]),
            "{report:#}"
        );
        assert_eq!(report["known"], serde_json::json!([]), "{report:#}");
    }
}

/// A clause is a first-class `--known` pattern: every input the ojama variant reproduces is
/// passed over by it, whatever fields differ on it.
#[test]
fn a_known_clause_passes_over_its_departure() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known.yaml");
    std::fs::write(&known, "ojama.*: the ojama row falls at 11 (reported)\n").unwrap();
    let (code, stdout) = diff(
        TWO_BUGS,
        &[
            "--known",
            known.to_str().unwrap(),
            "--runs",
            "300",
            // Past the chain score, which may come first, to where the known one shows.
            "--departures",
            "2",
        ],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("known (ojama.*: ") && l.ends_with("(ojama.drop)")),
        "{stdout}"
    );
    assert!(stdout.contains("  1. score.chain · "), "{stdout}");
    assert!(!stdout.contains("  2. "), "{stdout}");
}

/// A malformed known list is refused before anything runs, at its place.
#[test]
fn a_bad_known_list_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known.yaml");
    std::fs::write(&known, "players[].score: [not, a, reason]\n").unwrap();
    shinpan()
        .args(["diff", "codevs-reborn", "--engine", TWO_BUGS, "--known"])
        .arg(&known)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--known"));
}

/// One seed, one case: the shrinker has no clock, so two runs write the same file; and the
/// case is about the departure found (the same fields differ before and after shrinking).
#[test]
fn the_shrinker_is_deterministic_and_keeps_its_departure() {
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    let mut departures = Vec::new();
    for i in 0..2 {
        let out = dir.path().join(format!("found-{i}.yaml"));
        let (code, stdout) = diff(
            "python3 conformance/adapters/codevs_reborn.py --bug ojama-cap-11",
            &[
                "--seed",
                "3",
                "--runs",
                "300",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 1, "{stdout}");
        written.push(std::fs::read_to_string(&out).unwrap());
        let departure = stdout
            .lines()
            .find_map(|l| l.strip_prefix("departure 1: "))
            .map(|l| l.split(" (run").next().unwrap_or_default().to_string())
            .unwrap_or_else(|| panic!("{stdout}"));
        departures.push(departure);
    }
    assert_eq!(written[0], written[1], "one seed, one case");
    assert_eq!(departures[0], departures[1]);
    assert!(departures[0].ends_with("(ojama.drop)"), "{}", departures[0]);
    // The shrunk case checks the departure's fields and no other: its `then` names only
    // fields the ojama row decides.
    let case: serde_yaml::Value = serde_yaml::from_str(&written[0]).expect("the case file is YAML");
    let then = serde_json::to_value(&case["cases"][0]["then"]).unwrap();
    for player in then["players"].as_array().into_iter().flatten() {
        for key in player.as_object().unwrap().keys() {
            assert!(["field", "ojama_stock"].contains(&key.as_str()), "{then}");
        }
    }
    assert_eq!(case["cases"][0]["rules"][0], "ojama.drop", "{}", written[0]);
    // No field at its default is left in `given` (a stray `time_left_ms`).
    assert!(!written[0].contains("time_left_ms"), "{}", written[0]);
}

/// Every state `diff` sends is reachable, so a departure only on unreachable states (the
/// engine scores differently when both ojama stocks are non-zero, which the offset at the end
/// of every turn never leaves) is no departure and is not reported.
#[test]
fn diff_sends_only_reachable_states() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("states.jsonl");
    let engine = format!(
        "{PARTIAL} --bug any-ojama-stock --record {}",
        record.display()
    );
    let (code, stdout) = diff(&engine, &["--runs", "300"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("no disagreement in 300 inputs"), "{stdout}");
    let reborn = games::by_id("codevs-reborn").unwrap();
    let states = std::fs::read_to_string(&record).unwrap();
    let mut n = 0;
    for line in states.lines() {
        let state: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            reborn.info().capabilities.reachable(&state),
            Ok(()),
            "{line}"
        );
        n += 1;
    }
    assert!(n >= 50, "only {n} states sent");
}

const OJAMA_BUG: &str = "python3 conformance/adapters/codevs_reborn.py --bug ojama-cap-11";

/// `diff --format json` with `args`: the exit code and the report.
fn diff_json(args: &[&str]) -> (i32, Value) {
    let (code, stdout) = diff(OJAMA_BUG, &[&["--format", "json"], args].concat());
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not a JSON report ({e}): {stdout}"));
    (code, report)
}

/// Issue 26: `diff --format json` is one object a machine reads, with the run's totals and
/// each departure by its clause, sizes and case; the case is in `case` on stdout, and in a
/// file (named in `file`) with `--out`, the same text.
#[test]
fn diff_json_gives_each_departure_with_its_clause_sizes_and_case() {
    let (code, report) = diff_json(&["--runs", "40"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["game"], "codevs-reborn");
    assert_eq!(report["engine"], OJAMA_BUG);
    assert_eq!(report["runs_asked"], 40);
    let inputs = report["inputs"].as_u64().unwrap();
    let judged = report["judged"].as_u64().unwrap();
    assert!((1..=40).contains(&inputs), "{report:#}");
    assert!(judged >= 1 && judged <= inputs, "{report:#}");
    assert_eq!(report["unsupported"], 0, "{report:#}");
    assert_eq!(report["interrupted"], Value::Null);
    assert_eq!(report["unmatched_known"], serde_json::json!([]));
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{report:#}");
    let found = &findings[0];
    assert_eq!(found["name"], "ojama.drop", "{found:#}");
    assert_eq!(found["clauses"], serde_json::json!(["ojama.drop"]));
    assert!(found["does"].as_str().unwrap().contains("11"), "{found:#}");
    let fields = found["fields"].as_array().unwrap();
    assert!(
        fields.contains(&"players[].ojama_stock".into()),
        "{found:#}"
    );
    assert!(found["seen_on"].as_u64().unwrap() >= 1, "{found:#}");
    let (before, after) = (&found["size_before"], &found["size_after"]);
    assert!(
        after["lines"].as_u64().unwrap() < before["lines"].as_u64().unwrap(),
        "{found:#}"
    );
    assert_eq!(found["minimal"], true, "{found:#}");
    assert_eq!(found["turn"], 0, "{found:#}");
    assert_eq!(found["file"], Value::Null, "{found:#}");
    let case = found["case"].as_str().unwrap();
    assert!(case.contains("rules: [ojama.drop]"), "{case}");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("found.yaml");
    let (code, written) = diff_json(&["--runs", "40", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{written:#}");
    let found = &written["findings"][0];
    assert_eq!(found["file"], out.to_str().unwrap(), "{found:#}");
    assert_eq!(found["case"], Value::Null, "{found:#}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), case);
}

/// An engine whose bug is narrower than the variant nearest to it: chain scores rounded only
/// on turns that start even. Where a turn starts odd it agrees with the rules, and the variant
/// (rounding always) does not.
struct RoundsOnEvenTurns;

impl shinpan::run::EngineUnderTest for RoundsOnEvenTurns {
    fn name(&self) -> String {
        "rounds-on-even-turns".into()
    }

    fn step(
        &mut self,
        request: shinpan::run::StepRequest<'_>,
    ) -> shinpan::run::Answered<shinpan::run::StepResponse> {
        let even = request
            .state
            .get("turn")
            .and_then(Value::as_u64)
            .unwrap_or(0)
            .is_multiple_of(2);
        if even {
            let mut planted = shinpan::run::Planted {
                variant: "chain-score-rounded".into(),
            };
            planted.step(request)
        } else {
            shinpan::run::Reference.step(request)
        }
    }

    fn parse(
        &mut self,
        request: shinpan::run::ParseRequest<'_>,
    ) -> shinpan::run::Answered<shinpan::seam::ParseVerdict> {
        shinpan::run::Reference.parse(request)
    }

    fn new_match(
        &mut self,
        request: shinpan::run::NewMatchRequest<'_>,
    ) -> shinpan::run::Answered<Value> {
        shinpan::run::Reference.new_match(request)
    }
}

/// Issue 38: a variant that reproduces a departure on the input it was found on, but changes
/// fields the engine got right on other inputs, names nothing: the departure is unexplained and
/// the variant a lead. The same variant planted whole is named.
#[test]
fn a_variant_the_engine_does_not_follow_elsewhere_is_a_lead_not_a_name() {
    use shinpan::harness::diff::{self, DiffConfig, Known};
    let game = games::by_id("codevs-reborn").unwrap();
    let config = DiffConfig {
        seed: 1,
        runs: 300,
        departures: 3,
        ..DiffConfig::default()
    };
    let run = |engine: &mut dyn shinpan::run::EngineUnderTest| {
        diff::run(game, engine, &config, &Known::default(), None, |_, _| {})
    };
    let whole = run(&mut shinpan::run::Planted {
        variant: "chain-score-rounded".into(),
    });
    let names: Vec<&str> = whole
        .findings
        .iter()
        .map(|f| f.part.name.as_str())
        .collect();
    assert_eq!(names, ["score.chain"], "the whole bug is named");

    let narrow = run(&mut RoundsOnEvenTurns);
    assert!(!narrow.findings.is_empty(), "the narrow bug is found");
    for finding in &narrow.findings {
        assert!(
            finding.part.variant.is_none(),
            "named: {}",
            finding.part.name
        );
        assert!(
            finding.part.name.starts_with("unexplained, fields "),
            "{}",
            finding.part.name
        );
        assert_eq!(finding.part.leads, ["score.chain"], "{}", finding.part.name);
    }
}

/// The reference, except that player 1's score is one more than the rules give, and each seat
/// is printed the prompt of the other (written here, not a variant of the game).
struct OneMoreAndTheOtherSeatsPrompt;

impl shinpan::run::EngineUnderTest for OneMoreAndTheOtherSeatsPrompt {
    fn name(&self) -> String {
        "one-more-and-the-other-seats-prompt".into()
    }

    fn step(
        &mut self,
        request: shinpan::run::StepRequest<'_>,
    ) -> shinpan::run::Answered<shinpan::run::StepResponse> {
        let game = request.game;
        let mut answered = shinpan::run::Reference.step(request);
        if let shinpan::run::Answered::Done(response) = &mut answered {
            let score = response.state["players"][1]["score"].as_u64().unwrap_or(0);
            response.state["players"][1]["score"] = (score + 1).into();
            let mut prompts = game
                .play(&response.state, &[])
                .expect("its own state")
                .prompts;
            prompts.swap(0, 1);
            response.prompts = Some(prompts);
        }
        answered
    }

    fn parse(
        &mut self,
        request: shinpan::run::ParseRequest<'_>,
    ) -> shinpan::run::Answered<shinpan::seam::ParseVerdict> {
        shinpan::run::Reference.parse(request)
    }

    fn new_match(
        &mut self,
        request: shinpan::run::NewMatchRequest<'_>,
    ) -> shinpan::run::Answered<Value> {
        shinpan::run::Reference.new_match(request)
    }
}

/// Issue 38, item 5: a printer that departs on its own shows beside a state that differs on
/// every input, as its own departure: the prompts are not those the rules print for the
/// engine's own state. (Prompts that differ only because the state does are no departure.)
#[test]
fn a_prompt_departure_shows_beside_a_state_departure() {
    use shinpan::harness::diff::{self, DiffConfig, Known};
    let game = games::by_id("codevs-reborn").unwrap();
    let config = DiffConfig {
        seed: 1,
        runs: 60,
        departures: 3,
        ..DiffConfig::default()
    };
    let outcome = diff::run(
        game,
        &mut OneMoreAndTheOtherSeatsPrompt,
        &config,
        &Known::default(),
        None,
        |_, _| {},
    );
    let names: Vec<&str> = (outcome.findings.iter())
        .map(|f| f.part.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "unexplained, fields players[].score",
            "unexplained, fields prompts[]"
        ],
        "the score, then the printer"
    );
    let printer = &outcome.findings[1];
    assert_eq!(
        printer.original_departure.to_string(),
        "unexplained, fields players[].score; beside it, unexplained, fields prompts[]"
    );
    // The score differs on every input, so the printer's case shows it beside the score too.
    assert_eq!(printer.departure.parts.len(), 2, "{}", printer.departure);
}

//! A departure is named by reproducing it (issue 24): `check` and `diff` name what an engine
//! gets wrong by the variant of the rules that reproduces it, the clause it breaks, and group
//! their findings by that name; numbers are compared by value, not by spelling.
//!
//! The engines: the example adapter with a planted bug, a third-party-style simulator written
//! here (the example adapter with three of its rules changed, as a contestant might get them
//! wrong), one that prints whole floats, and the reference itself with a variant switched on,
//! in process ([`Planted`]).

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::report::check::Report;
use shinpan::run::{run_library, Planted};

const ADAPTER: &str = "conformance/adapters/codevs_reborn.py";

fn shinpan() -> Command {
    crate::common::shinpan_within(300)
}

/// `shinpan ARGS`: the exit code and stdout.
fn run(args: &[&str]) -> (i32, String) {
    let output = shinpan().args(args).output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Writes a Python engine that loads the example adapter, changes some of it with `changes`
/// (Python, the module being `m`), and runs it.
fn wrapped_adapter(dir: &Path, name: &str, changes: &str) -> String {
    let path = dir.join(name);
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/adapters");
    std::fs::write(
        &path,
        format!(
            "import sys\nsys.path.insert(0, {adapters:?})\nimport codevs_reborn as m\n{changes}\nm.main()\n",
            adapters = adapters.display().to_string()
        ),
    )
    .unwrap();
    format!("python3 {}", path.display())
}

/// A contestant's simulator, as a third party writes one: a column of 16 already loses, packs
/// turn anticlockwise, and replies are read by the strict grammar only (a CR or a double space
/// is refused). Three departures, each the variant of one clause.
const THREE_WAYS: &str = r#"
m.DANGER = 16
_rotate = m.rotate
m.rotate = lambda pack, q: _rotate(pack, (4 - q) % 4)
_lenient = m.lenient_reply
def strict_only(text):
    try:
        m.strict_reply(text)
    except m.ProtocolError:
        return None
    return _lenient(text)
m.lenient_reply = strict_only
"#;

/// The summary lines of a `diff` report: `  1. NAME · …`.
fn summaries(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| {
            let (n, rest) = l.trim_start().split_once(". ")?;
            (l.starts_with("  ") && n.parse::<usize>().is_ok()).then(|| rest.to_string())
        })
        .collect()
}

fn names(stdout: &str) -> Vec<String> {
    let mut names: Vec<String> = summaries(stdout)
        .iter()
        .map(|s| s.split(" · ").next().unwrap_or_default().to_string())
        .collect();
    names.sort();
    names
}

/// Done when of issue 24: a third-party-style adapter that departs in three known ways gets
/// three groups, each named by its clause, each shrunk to a case of a few lines.
#[test]
fn a_simulator_departing_in_three_ways_gets_three_groups_named_by_their_clauses() {
    let dir = tempfile::tempdir().unwrap();
    let engine = wrapped_adapter(dir.path(), "three_ways.py", THREE_WAYS);
    let out = dir.path().join("found");
    let (code, stdout) = run(&[
        "diff",
        "codevs-reborn",
        "--engine",
        &engine,
        "--departures",
        "8",
        "--runs",
        "60",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        names(&stdout),
        ["drop.rotation", "field.danger-line", "reply.lenient"],
        "{stdout}"
    );
    for summary in summaries(&stdout) {
        let lines: usize = summary
            .split(" · ")
            .find_map(|part| {
                part.split(" → ")
                    .nth(1)?
                    .strip_suffix(" lines")?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("{summary}"));
        assert!(lines <= 25, "{summary}");
    }
    // Every case written names its clause (in the game's folder of the library `--out`
    // makes, beside its catalogue), and the reference passes it.
    let mut written = 0;
    for entry in std::fs::read_dir(out.join("codevs-reborn")).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == "rules.yaml") {
            continue;
        }
        written += 1;
        let case = std::fs::read_to_string(path).unwrap();
        assert!(
            ["drop.rotation", "field.danger-line", "reply.lenient"]
                .iter()
                .any(|c| case.contains(&format!("rules: [{c}]"))),
            "{case}"
        );
    }
    assert_eq!(written, 3);
    let (code, stdout) = run(&["check", "codevs-reborn", "--cases", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
}

/// README: numbers are values, `3` matches `3.0`. An engine that prints its whole numbers as
/// floats (`23.0`) departs from nothing, in `diff` as in `check`.
#[test]
fn an_engine_printing_whole_floats_departs_from_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let engine = wrapped_adapter(
        dir.path(),
        "floats.py",
        r#"
_dump = m.dump_state
def floats(state):
    out = _dump(state)
    out["turn"] = float(out["turn"])
    for player in out["players"]:
        for key in ("score", "ojama_stock", "skill_gauge", "time_left_ms", "turn_score"):
            player[key] = float(player[key])
    return out
m.dump_state = floats
"#,
    );
    let (code, stdout) = run(&["diff", "codevs-reborn", "--engine", &engine, "--runs", "40"]);
    assert!(stdout.contains("no disagreement in 40 inputs"), "{stdout}");
    assert_eq!(code, 0);
    let (code, stdout) = run(&["check", "codevs-reborn", "--engine", &engine]);
    assert_eq!(code, 0, "{stdout}");
}

/// Done when of issue 24: `check` on an engine with one planted departure that fails 10 cases
/// prints one line for the 10, naming the clause, above the per-case diffs; JSON has the
/// group, JUnit a property of the suite.
#[test]
fn check_prints_one_group_line_for_one_planted_departure() {
    let engine = format!("python3 {ADAPTER} --bug chain-round");
    let (code, human) = run(&["check", "codevs-reborn", "--engine", &engine]);
    assert_eq!(code, 1, "{human}");
    let group = "  10 cases: a variant where chain scores sum round(1.3^i), not floor(1.3^i), reproduces this (score.chain)\n";
    assert!(
        human.starts_with(&format!("failures by cause:\n{group}FAIL ")),
        "{human}"
    );
    assert_eq!(human.matches("    cause: ").count(), 10, "{human}");
    let (_, json) = run(&[
        "check",
        "codevs-reborn",
        "--engine",
        &engine,
        "--format",
        "json",
    ]);
    let report: Value = serde_json::from_str(&json).unwrap();
    let groups = report["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{json}");
    assert_eq!(groups[0]["name"], "score.chain");
    assert_eq!(groups[0]["cases"].as_array().unwrap().len(), 10);
    let (_, junit) = run(&[
        "check",
        "codevs-reborn",
        "--engine",
        &engine,
        "--format",
        "junit",
    ]);
    assert!(
        junit.contains(
            r#"<property name="failures-by-cause" value="10 cases: a variant where chain scores"#
        ),
        "{junit}"
    );
}

/// The same in Spring Challenge 2022, with the fog forgotten for heroes (the reference with
/// that variant switched on): every case it fails is one group, named `fog.hero`.
#[test]
fn heroes_seen_through_the_fog_are_one_group_in_spring() {
    let library = load_library(
        &Source::Embedded,
        &shinpan::games::all(),
        &LoadOptions {
            only: vec!["spring2022".into()],
            ..LoadOptions::default()
        },
    )
    .unwrap();
    // A planted variant changes steps; a new match it makes as the reference does. So the
    // generator cases, thousands of new matches (most of this test's time in a debug build),
    // are left out: none could fail.
    let mut library = library;
    for game in &mut library.games {
        game.cases
            .retain(|case| !matches!(case.body, shinpan::case::CaseBody::Generate { .. }));
    }
    let mut engine = Planted {
        variant: "heroes-seen-through-fog".into(),
    };
    let run = run_library(&library, None, &mut engine, |_, _, _| {});
    let report = Report::new(&library.digest, "built-in", "planted", run.results);
    assert!(report.counts.failed >= 2, "{:?}", report.counts);
    assert_eq!(report.groups.len(), 1, "{:#?}", report.groups);
    assert_eq!(report.groups[0].name, "fog.hero");
    assert_eq!(report.groups[0].cases.len(), report.counts.failed);
}

/// The same in TSG AUTO CHESS, with the type triangle got wrong (a warrior deals double to a
/// mage: planted bug 18, the reference with that variant switched on): every case it fails, in
/// attacks and in buys alike, is one group, named `attack.multiplier`.
#[test]
fn a_warrior_doubling_on_a_mage_is_one_group_in_tsg() {
    let report = planted_report("tsg-auto-chess", "warrior-doubles-on-mage");
    assert!(report.counts.failed >= 5, "{:?}", report.counts);
    assert_eq!(report.groups.len(), 1, "{:#?}", report.groups);
    assert_eq!(report.groups[0].name, "attack.multiplier");
    assert_eq!(report.groups[0].cases.len(), report.counts.failed);
}

/// The same in CODE VS 4.0, with the battle's damage rounded up (planted bug 03): every case it
/// fails, in the battle and in the resources alike, is one group, named `battle.k-divisor`.
#[test]
fn damage_rounded_up_is_one_group_in_codevs4() {
    let report = planted_report("codevs4", "damage-rounded-up");
    assert!(report.counts.failed >= 5, "{:?}", report.counts);
    assert_eq!(report.groups.len(), 1, "{:#?}", report.groups);
    assert_eq!(report.groups[0].name, "battle.k-divisor");
    assert_eq!(report.groups[0].cases.len(), report.counts.failed);
}

/// The same in CEDEC CHALLENGE 2013, with a build that needs one robot more than its cost (a
/// boundary off by one): every case it fails (eleven) is one group, named `build.robots`.
#[test]
fn a_build_needing_one_robot_more_is_one_group_in_cedec() {
    let report = planted_report("cedec2013", "build-needs-more-than-the-cost");
    assert!(report.counts.failed >= 5, "{:?}", report.counts);
    assert_eq!(report.groups.len(), 1, "{:#?}", report.groups);
    assert_eq!(report.groups[0].name, "build.robots");
    assert_eq!(report.groups[0].cases.len(), report.counts.failed);
}

/// `trace` names a departure the same way: a match recorded from an engine that turns packs
/// anticlockwise (the reference with that variant, its prompts written into a trace log) is
/// named `drop.rotation` at its first departing step, reproduced, every later step following
/// from it.
#[test]
fn trace_names_a_departure_by_the_variant_that_reproduces_it() {
    use shinpan::seam::{MatchOptions, Reply};
    let game = shinpan::games::by_id("codevs-reborn").unwrap();
    let playable = game.info().capabilities.variants.unwrap();
    let variant = playable
        .variants()
        .iter()
        .position(|v| v.name == "rotation-anticlockwise")
        .unwrap();
    let mut state = game
        .start(7, &MatchOptions::default())
        .unwrap()
        .state()
        .unwrap();
    let mut logs = [String::new(), String::new()];
    let mut t_us = 1_700_000_000_000_000u64;
    let mut record = |logs: &mut [String; 2], p: usize, event: &str, text: &str| {
        t_us += 1000;
        let line = serde_json::json!({"event": event, "player": p, "t_us": t_us, "text": text});
        logs[p].push_str(&format!("{line}\n"));
    };
    for (p, log) in logs.iter_mut().enumerate() {
        log.push_str(&format!(
            "{}\n",
            serde_json::json!({"trace": 1, "event": "start", "player": p, "game": "codevs-reborn",
                "seed": 7, "t_us": 1_700_000_000_000_000u64})
        ));
    }
    for p in 0..2 {
        record(&mut logs, p, "reply", "bot\n");
    }
    for _ in 0..5 {
        let shown = playable.play_variant(&state, &[], &[variant]).unwrap();
        let replies = ["3 1", "5 3"];
        for (p, (prompt, reply)) in shown.prompts.iter().zip(replies).enumerate() {
            record(&mut logs, p, "prompt", prompt);
            record(&mut logs, p, "reply", &format!("{reply}\n"));
        }
        let turn = vec![replies.map(Reply::text).to_vec()];
        state = playable
            .play_variant(&state, &turn, &[variant])
            .unwrap()
            .state;
    }
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<std::path::PathBuf> = (0..2)
        .map(|p| {
            let path = dir.path().join(format!("p{p}.jsonl"));
            std::fs::write(&path, &logs[p]).unwrap();
            path
        })
        .collect();
    let output = shinpan()
        .args(["trace", "codevs-reborn", "--format", "json"])
        .args(&paths)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    let departures = report["departures"].as_array().unwrap();
    assert!(!departures.is_empty(), "{report:#}");
    let first = &departures[0];
    assert_eq!(first["clause"], "drop.rotation", "{report:#}");
    assert_eq!(first["catalogued"], true, "{report:#}");
    assert_eq!(first["reproduced"][0], "drop.rotation", "{report:#}");
    for d in &departures[1..] {
        assert_eq!(d["clause"], "drop.rotation", "{d:#}");
    }
}

/// The report of `check` on the built-in library of `game` run by the reference with the
/// variant named `variant` switched on.
fn planted_report(game: &str, variant: &str) -> Report {
    let library = load_library(
        &Source::Embedded,
        &shinpan::games::all(),
        &LoadOptions {
            only: vec![game.into()],
            ..LoadOptions::default()
        },
    )
    .unwrap();
    // A planted variant changes steps; a new match it makes as the reference does. So the
    // generator cases, thousands of new matches (most of this test's time in a debug build),
    // are left out: none could fail.
    let mut library = library;
    for game in &mut library.games {
        game.cases
            .retain(|case| !matches!(case.body, shinpan::case::CaseBody::Generate { .. }));
    }
    let mut engine = Planted {
        variant: variant.into(),
    };
    let run = run_library(&library, None, &mut engine, |_, _, _| {});
    Report::new(&library.digest, "built-in", "planted", run.results)
}

/// Every variant of every game has teeth: the reference with it switched on fails at least one
/// step case of its game's library that names the variant's clause. A variant no such case
/// catches is either a rule no case checks where it turns (a missing case) or a variant that
/// plays the rules after all (a mutant of its switch: `TOWER_RANGE + 1` made `TOWER_RANGE * 1`
/// went unseen by the library's own runs).
#[test]
fn every_variant_fails_a_case_that_names_its_clause() {
    let mut toothless = Vec::new();
    for game in shinpan::games::all() {
        let Some(playable) = game.info().capabilities.variants else {
            continue;
        };
        let id = game.info().id;
        let mut library = load_library(
            &Source::Embedded,
            &shinpan::games::all(),
            &LoadOptions::only([id]),
        )
        .unwrap();
        // Variants change steps; a new match they make as the reference does.
        for game in &mut library.games {
            game.cases
                .retain(|case| !matches!(case.body, shinpan::case::CaseBody::Generate { .. }));
        }
        for variant in playable.variants() {
            let mut engine = Planted {
                variant: variant.name.into(),
            };
            let run = run_library(&library, None, &mut engine, |_, _, _| {});
            let caught = run.results.iter().any(|result| {
                matches!(result.verdict, shinpan::run::CaseVerdict::Fail(_))
                    && result.rules.iter().any(|r| r == variant.clause)
            });
            if !caught {
                toothless.push(format!("{id} {} ({})", variant.name, variant.clause));
            }
        }
    }
    assert!(toothless.is_empty(), "no case catches: {toothless:#?}");
}

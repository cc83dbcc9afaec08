//! The command line's exit codes and messages, for good and bad input.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

use crate::common;

fn shinpan() -> Command {
    crate::common::shinpan()
}

/// A case library in a temporary directory: `files` are (path under the root, content).
fn library(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, content) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    dir
}

/// Runs `shinpan SUBCOMMAND --cases DIR` on a temporary library made of `files`.
fn run_on_library(subcommand: &str, files: &[(&str, &str)]) -> assert_cmd::assert::Assert {
    let lib = library(files);
    shinpan()
        .args([subcommand, "--cases"])
        .arg(lib.path())
        .assert()
}

const RULES: &str = "game: codevs-reborn\ndocument: 004_c34fd72b99ec3724.txt\nclauses:\n  \
    - {id: reply.format, text: A reply is P R or S., section: 命令文の書式, status: explicit}\n  \
    - {id: score.chain, text: Chains score., section: スコア, status: explicit}\n";

const GOOD_CASE: &str =
    "game: codevs-reborn\ncases:\n  - id: letters\n    rules: [reply.format]\n    \
    parse: reply\n    input: a 100\n    expect: invalid\n";

#[test]
fn games_lists_codevs_reborn() {
    shinpan()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains("codevs-reborn"));
}

/// Issue 22, item 16: `games` named rule documents by seed file names that are not in the
/// repository. It names each by title and public source, and points at its protocol page.
#[test]
fn games_names_each_rule_document_by_title_and_source_and_its_protocol_page() {
    let out = shinpan().arg("games").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for game in shinpan::games::all() {
        let info = game.info();
        for expected in [
            info.document.title.to_string(),
            info.document.source.to_string(),
            info.protocol.path.to_string(),
        ] {
            assert!(text.contains(&expected), "{}: no `{expected}`", info.id);
        }
    }
    assert!(
        !text.contains(".txt"),
        "a file that is not in the repository:\n{text}"
    );
    // One entry a game, in the registry's order, each a snapshot in its game's folder.
    let mut entries: Vec<String> = Vec::new();
    for line in text.lines() {
        match entries.last_mut() {
            Some(entry) if line.starts_with(' ') => entry.push_str(&format!("{line}\n")),
            _ => entries.push(format!("{line}\n")),
        }
    }
    let games = shinpan::games::all();
    assert_eq!(entries.len(), games.len(), "one entry a game:\n{text}");
    for (game, entry) in games.iter().zip(&entries) {
        let id = game.info().id;
        assert!(entry.starts_with(&format!("{id} ")), "{id}: {entry}");
        common::game_snapshots(id).bind(|| insta::assert_snapshot!("games_entry", entry));
    }
}

#[test]
fn games_with_a_game_prints_its_entry_and_protocol_page() {
    for game in shinpan::games::all() {
        let info = game.info();
        shinpan()
            .args(["games", info.id])
            .assert()
            .success()
            .stdout(
                predicate::str::starts_with(format!("{} ", info.id))
                    .and(predicate::str::contains(info.document.title))
                    .and(predicate::str::ends_with(format!(
                        "\n\n{}",
                        info.protocol.text
                    ))),
            );
    }
}

#[test]
fn games_with_an_unknown_game_exits_2_naming_the_games() {
    shinpan()
        .args(["games", "codevs5"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "no game `codevs5`; the games are codevs-reborn, cedec2013, codevs4",
        ));
}

#[test]
fn check_passes_the_whole_library() {
    shinpan()
        .args(["check", "codevs-reborn"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("0 failed, 0 errors")
                .and(predicate::str::contains("shinpan 0.1.0, cases ")),
        );
}

/// Issue 22 (item 17): the library digest changed with the games selected, so two reports of
/// one library could not be compared. It is the whole library's now.
#[test]
fn the_library_digest_does_not_depend_on_the_games_selected() {
    let digest = |args: &[&str]| -> String {
        let out = shinpan()
            .args(["check", "--format", "json"])
            .args(args)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report["library_digest"].as_str().unwrap().to_string()
    };
    let one = digest(&["codevs-reborn", "--filter", "three-chain"]);
    let other = digest(&["cedec2013", "--filter", "factory-makes-five"]);
    assert_eq!(one.len(), 64);
    assert_eq!(one, other);
}

/// Issue 22 (item 12): `check codevs4 --option stage=30` and `check spring2022 --option
/// league=wood1` failed the reference engine's own cases, because a case that depended on an
/// option's value did not state it. Every case passes with every option value `shinpan games`
/// lists (each option at its bounds and the values between that change the rules).
#[test]
fn every_case_passes_with_every_listed_option_value() {
    let values: &[(&str, &[&str])] = &[
        (
            "codevs4",
            &[
                "stage=0",
                "stage=26",
                "stage=27",
                "stage=33",
                "stage=34",
                "stage=40",
                "time=0",
                "time=1",
                "time=3600000",
                "time=[5000,0]",
            ],
        ),
        (
            "spring2022",
            &["league=wood2", "league=wood1", "league=bronze+"],
        ),
    ];
    for (game, options) in values {
        for option in *options {
            let out = shinpan()
                .args(["check", game, "--option", option])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "check {game} --option {option}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn check_with_a_filter_runs_only_matching_cases() {
    let out = shinpan()
        .args(["check", "--filter", "three-chain", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = report["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert!(results
        .iter()
        .all(|r| r["name"].as_str().unwrap().contains("three-chain")));
}

#[test]
fn a_failing_case_exits_1_with_a_diff() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/failing");
    shinpan()
        .args(["check", "--cases"])
        .arg(fixtures)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("FAIL codevs-reborn/sample/wrong-expectation-on-purpose")
                .and(predicate::str::contains("-- score: 2")),
        );
}

#[test]
fn junit_output_has_a_suite_per_game() {
    shinpan()
        .args(["check", "--format", "junit", "--filter", "three-chain"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "<testsuite name=\"codevs-reborn\"",
        ));
}

#[test]
fn a_yaml_syntax_error_names_file_line_and_column() {
    run_on_library(
        "check",
        &[
            ("codevs-reborn/rules.yaml", RULES),
            (
                "codevs-reborn/broken.yaml",
                "game: codevs-reborn\ncases:\n  - id: x\n    rules: [reply.format\n",
            ),
        ],
    )
    .code(2)
    .stderr(predicate::str::is_match(r"broken\.yaml:\d+:\d+: ").unwrap());
}

#[test]
fn a_bad_field_in_given_names_its_line() {
    let case = "game: codevs-reborn\ncases:\n  - id: bad-field\n    rules: [score.chain]\n    given:\n      \
        players:\n        - field: |\n            1..Q......\n    when: []\n    then: {turn: 0}\n";
    run_on_library(
        "check",
        &[
            ("codevs-reborn/rules.yaml", RULES),
            ("codevs-reborn/bad.yaml", case),
            ("codevs-reborn/good.yaml", GOOD_CASE),
        ],
    )
    .code(2)
    .stderr(predicate::str::contains("bad.yaml:7:").and(predicate::str::contains("'Q'")));
}

#[test]
fn an_unknown_clause_is_an_error_at_its_rules_line() {
    let case = GOOD_CASE.replace("[reply.format]", "[reply.fromat]");
    run_on_library(
        "check",
        &[
            ("codevs-reborn/rules.yaml", RULES),
            ("codevs-reborn/typo.yaml", &case),
        ],
    )
    .code(2)
    .stderr(predicate::str::contains("typo.yaml:4:").and(predicate::str::contains("reply.fromat")));
}

#[test]
fn an_unknown_key_in_a_case_is_an_error() {
    let case = GOOD_CASE.replace("expect: invalid", "expect: invalid\n    expcet: valid");
    run_on_library(
        "check",
        &[
            ("codevs-reborn/rules.yaml", RULES),
            ("codevs-reborn/typo.yaml", &case),
        ],
    )
    .code(2)
    .stderr(predicate::str::contains("expcet"));
}

#[test]
fn coverage_lists_an_uncovered_clause_and_exits_1() {
    run_on_library(
        "coverage",
        &[
            ("codevs-reborn/rules.yaml", RULES),
            ("codevs-reborn/good.yaml", GOOD_CASE),
        ],
    )
    .code(1)
    .stdout(predicate::str::contains("uncovered: score.chain"));
}

/// Issue 26: `coverage --format json` gives each clause of every game with the number of cases
/// that check it; in the built-in library every clause has one.
#[test]
fn coverage_json_of_the_built_in_library_counts_cases_per_clause() {
    let out = shinpan()
        .args(["coverage", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["library"], "built-in");
    let games = report["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["game"].as_str().unwrap()).collect();
    let mut all: Vec<&str> = shinpan::games::all().iter().map(|g| g.info().id).collect();
    all.sort();
    assert_eq!(ids, all, "every game, by id");
    for game in games {
        assert_eq!(game["uncovered"], serde_json::json!([]), "{game:#}");
        let clauses = game["clauses"].as_array().unwrap();
        // Every clause of the game's catalogue, each once.
        let id = game["game"].as_str().unwrap();
        let rules = shinpan::case::source::built_in_file(id, "rules").unwrap();
        let catalogue = shinpan::case::catalogue::load(Path::new("rules.yaml"), rules, id).unwrap();
        let listed: Vec<&str> = clauses.iter().map(|c| c["id"].as_str().unwrap()).collect();
        let catalogued: Vec<&str> = catalogue.clauses.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(listed, catalogued, "{id}");
        for clause in clauses {
            assert!(clause["cases"].as_u64().unwrap() > 0, "{clause:#}");
            assert!(!clause["text"].as_str().unwrap().is_empty(), "{clause:#}");
        }
    }
    let reborn = &games[ids.iter().position(|id| *id == "codevs-reborn").unwrap()];
    let chain = reborn["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "score.chain")
        .unwrap();
    assert!(chain["cases"].as_u64().unwrap() >= 3, "{chain:#}");
}

/// Issue 26: an uncovered clause is a failing test case in `coverage --format junit`, a
/// covered one passes; in JSON it is listed, with no case; the exit code is 1 in both.
#[test]
fn coverage_reports_an_uncovered_clause_as_a_junit_failure() {
    let lib = library(&[
        ("codevs-reborn/rules.yaml", RULES),
        ("codevs-reborn/good.yaml", GOOD_CASE),
    ]);
    let run = |format: &str| {
        let out = shinpan()
            .args(["coverage", "--format", format, "--cases"])
            .arg(lib.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}");
        String::from_utf8(out.stdout).unwrap()
    };
    let junit = run("junit");
    assert_eq!(junit.matches("<testcase ").count(), 2, "{junit}");
    assert_eq!(junit.matches("<failure").count(), 1, "{junit}");
    let failing = junit.split("<testcase ").nth(2).unwrap();
    assert!(failing.starts_with("name=\"score.chain\""), "{junit}");
    assert!(
        failing.contains("<failure>no case names this clause: Chains score.</failure>"),
        "{junit}"
    );
    let passing = junit.split("<testcase ").nth(1).unwrap();
    assert!(passing.starts_with("name=\"reply.format\""), "{junit}");
    assert!(
        passing.contains("<system-out>1 case</system-out>"),
        "{junit}"
    );
    let report: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let game = &report["games"][0];
    assert_eq!(
        game["uncovered"],
        serde_json::json!(["score.chain"]),
        "{game:#}"
    );
    assert_eq!(game["clauses"][0]["cases"], 1, "{game:#}");
    assert_eq!(game["clauses"][1]["cases"], 0, "{game:#}");
}

#[test]
fn schema_of_an_unknown_game_exits_2() {
    shinpan()
        .args(["schema", "tetris"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no game `tetris`"));
}

#[test]
fn schema_describes_the_canonical_state() {
    let out = shinpan()
        .args(["schema", "codevs-reborn"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(schema["properties"]["players"].is_object(), "{schema}");
    assert!(schema["properties"]["packs"].is_object(), "{schema}");
}

#[test]
fn a_filter_matching_nothing_exits_2() {
    shinpan()
        .args(["check", "--filter", "no-such-case-anywhere"])
        .assert()
        .code(2);
}

#[test]
fn an_unknown_game_to_check_exits_2() {
    shinpan()
        .args(["check", "tetris"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no game `tetris`"));
}

#[test]
fn an_installed_binary_checks_with_the_built_in_library_from_anywhere() {
    let elsewhere = tempfile::tempdir().unwrap();
    let binary = elsewhere.path().join("shinpan");
    std::fs::copy(assert_cmd::cargo::cargo_bin("shinpan"), &binary).unwrap();
    Command::new(&binary)
        .current_dir(elsewhere.path())
        .env_remove("SHINPAN_CASES")
        .args(["check", "codevs-reborn"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(built-in)").and(predicate::str::contains("0 failed")));
}

#[test]
fn a_closed_stdout_ends_quietly_with_the_runs_exit_code() {
    use std::io::Read;
    use std::process::{Command as Process, Stdio};
    // Three games: a report of about 150 KB, more than a pipe holds, in under two seconds.
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("shinpan"))
        .args(["check", "codevs-reborn", "tsg-auto-chess", "spring2022"])
        .args(["--format", "json"])
        .env_remove("SHINPAN_CASES")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then go away like `| head -c1`.
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("error"),
        "{stderr}"
    );
}

#[test]
fn play_prints_junit_when_asked() {
    shinpan()
        .args([
            "play",
            "codevs-reborn",
            "--format",
            "junit",
            "--",
            "builtin",
            "--",
            "builtin",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("<?xml").and(predicate::str::contains("<testcase")));
}

#[test]
fn an_option_a_game_does_not_take_exits_2_naming_it() {
    shinpan()
        .args([
            "play",
            "codevs-reborn",
            "--option",
            "stage=3",
            "--",
            "builtin",
            "--",
            "builtin",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("stage"));
    shinpan()
        .args([
            "play",
            "codevs-reborn",
            "--option",
            "stage",
            "--",
            "builtin",
            "--",
            "builtin",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("key=value"));
}

#[test]
fn a_series_needs_a_game_that_has_one() {
    shinpan()
        .args([
            "play",
            "codevs-reborn",
            "--series",
            "--",
            "builtin",
            "--",
            "builtin",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no series"));
}

#[test]
fn a_mistake_in_then_is_a_bad_case_file_at_its_line() {
    for (then, says) in [
        ("players: [{skil_gauge: 8}]", "skil_gauge"),
        ("players: [{score: one}]", "expected integer"),
        ("last_replies: [fine]", "reply verdict"),
    ] {
        let case = format!(
            "game: codevs-reborn\ncases:\n  - id: typo\n    rules: [score.chain]\n    \
             given: {{}}\n    when: []\n    then:\n      {then}\n"
        );
        run_on_library(
            "check",
            &[
                ("codevs-reborn/rules.yaml", RULES),
                ("codevs-reborn/typo.yaml", &case),
            ],
        )
        .code(2)
        .stderr(predicate::str::contains("typo.yaml:8:").and(predicate::str::contains(says)));
    }
}

/// A generator case can check a fact over all its seeds together (`across:`), which no single
/// seed shows: here the mean number of packs, and a bound it misses on purpose.
#[test]
fn across_checks_a_fact_over_every_seed_together() {
    let rules = "game: codevs-reborn\ndocument: 004_c34fd72b99ec3724.txt\nclauses:\n  \
        - {id: pack.count, text: 500 packs., section: パック, status: explicit}\n";
    let case = |expect: &str| {
        format!(
            "game: codevs-reborn\ncases:\n  - id: packs-over-seeds\n    rules: [pack.count]\n    \
             generate: {{seeds: 20}}\n    across:\n      facts.packs: {{mean: {expect}}}\n      \
             facts.packs_by_blocks.4: {{sum: 2400}}\n"
        )
    };
    run_on_library(
        "check",
        &[
            ("codevs-reborn/rules.yaml", rules),
            ("codevs-reborn/across.yaml", &case("500")),
        ],
    )
    .success();
    run_on_library(
        "check",
        &[
            ("codevs-reborn/rules.yaml", rules),
            ("codevs-reborn/across.yaml", &case("{$lt: 500}")),
        ],
    )
    .code(1)
    .stdout(predicate::str::contains(
        "mean of `facts.packs` over 20 seeds is 500",
    ));
}

/// What the numeric options' parsers refuse, clap's usage error (exit 2, "invalid value"): a
/// duration that cannot be represented or is not positive, a count of 0 where at least one is
/// needed, a negative whole number. (This was a unit test in `src/cli/args.rs`, where it never
/// ran: the binary's test target is off.) And the values just inside are taken.
#[test]
fn durations_and_counts_that_cannot_be_meant_are_refused() {
    let refused = |args: &[&str]| {
        let output = shinpan().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (
            output.status.code() == Some(2) && stderr.contains("invalid value"),
            stderr,
        )
    };
    for seconds in ["1e30", "0", "-1", "nan", "inf", "x", "604801"] {
        let args = ["bot", "codevs-reborn", "--budget", seconds, "--", "true"];
        let (is_refused, stderr) = refused(&args);
        assert!(is_refused, "--budget {seconds}: {stderr}");
    }
    let (is_refused, stderr) = refused(&[
        "play",
        "codevs-reborn",
        "--rounds",
        "0",
        "--",
        "builtin",
        "--",
        "builtin",
    ]);
    assert!(is_refused, "--rounds 0: {stderr}");
    let (is_refused, stderr) = refused(&[
        "play",
        "codevs-reborn",
        "--seed",
        "-1",
        "--",
        "builtin",
        "--",
        "builtin",
    ]);
    assert!(is_refused, "--seed -1: {stderr}");
    // Just inside: a half second, seed 0, three rounds.
    let (is_refused, stderr) = refused(&[
        "bot",
        "codevs-reborn",
        "--budget",
        "0.5",
        "--phases",
        "malformed",
        "--",
        "true",
    ]);
    assert!(!is_refused, "--budget 0.5: {stderr}");
    shinpan()
        .args(["play", "codevs-reborn", "--seed", "0", "--rounds", "3"])
        .args(["--", "builtin", "--", "builtin"])
        .assert()
        .success();
}

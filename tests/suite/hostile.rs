//! Hostile files and arguments, as a hostile user tried them: each is refused quickly, with
//! exit 2 and a message that names what was wrong and where, and nothing makes the tool panic.
//! Each test is named for what it protects.

use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

fn shinpan() -> Command {
    crate::common::shinpan_within(60)
}

const RULES: &str = "game: codevs-reborn\ndocument: 004_c34fd72b99ec3724.txt\nclauses:\n  \
    - {id: reply.format, text: A reply is P R or S., section: 命令文の書式, status: explicit}\n";

const GOOD: &str = "game: codevs-reborn\ncases:\n  - id: letters\n    rules: [reply.format]\n    \
    parse: reply\n    input: a 100\n    expect: invalid\n";

/// `shinpan check --cases DIR` on a library whose only case file holds `bytes`; returns the
/// exit code, stderr and how long it took.
fn check_file(bytes: &[u8], extra: &[&str]) -> (Option<i32>, String, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("codevs-reborn");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("rules.yaml"), RULES).unwrap();
    std::fs::write(game.join("hostile.yaml"), bytes).unwrap();
    let started = Instant::now();
    let output = shinpan()
        .args(["check", "--cases"])
        .arg(dir.path())
        .args(extra)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        started.elapsed(),
    )
}

/// Refused with exit 2, within a second, at `hostile.yaml:<line>:<col>` where `at` says.
fn refused(bytes: &[u8], at: &str, says: &str) {
    let (code, stderr, took) = check_file(bytes, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(took < Duration::from_secs(1), "took {took:?}: {stderr}");
    assert!(stderr.contains(&format!("hostile.yaml:{at}")), "{stderr}");
    assert!(stderr.contains(says), "{stderr:?} should say {says:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn deeply_nested_flow_collections_are_refused_at_once() {
    let mut text = b"game: codevs-reborn\ncases: ".to_vec();
    text.extend(std::iter::repeat_n(b'[', 200_000));
    refused(&text, "2:", "recursion limit");
}

#[test]
fn deeply_nested_block_collections_are_refused_at_once() {
    let mut text = String::from("game: codevs-reborn\ncases:\n");
    for depth in 0..2000 {
        text.push_str(&" ".repeat(depth));
        text.push_str("- \n");
    }
    refused(text.as_bytes(), "", "nested more than");
}

#[test]
fn a_file_over_the_size_cap_is_refused_before_it_is_read() {
    let text = format!("{GOOD}# {}\n", "x".repeat(4096));
    let (code, stderr, _) = check_file(text.as_bytes(), &["--max-case-file-bytes", "1000"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("more than the 1000"), "{stderr}");
    // The default cap is 4 MiB: a 20 MB file is refused at once, not parsed.
    let big = format!("{GOOD}# {}\n", "x".repeat(20_000_000));
    let (code, stderr, took) = check_file(big.as_bytes(), &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(took < Duration::from_secs(1), "{took:?}");
}

#[test]
fn a_nul_byte_is_placed_by_line_and_column() {
    refused(
        b"game: codevs-reborn\ncases:\n  - id: a\0b\n",
        "3:10:",
        "NUL",
    );
}

#[test]
fn bytes_that_are_not_utf8_are_placed_by_line_and_column() {
    refused(b"game: codevs-reborn\ncases: [\xff]\n", "2:9:", "not UTF-8");
}

#[test]
fn a_duplicate_case_id_is_reported_at_the_duplicate() {
    let text = format!("{GOOD}{}", &GOOD["game: codevs-reborn\ncases:\n".len()..]);
    refused(text.as_bytes(), "8:", "used twice (first at line 3)");
}

#[test]
fn a_number_past_64_bits_says_so_in_the_case_formats_words() {
    let text = "game: codevs-reborn\ncases:\n  - id: big\n    rules: [reply.format]\n    \
        given: {turn: 99999999999999999999}\n    when: []\n    then: {turn: 0}\n";
    refused(text.as_bytes(), "5:19:", "does not fit in 64 bits");
}

#[test]
fn a_top_level_list_says_what_a_case_file_is() {
    refused(
        b"- game: codevs-reborn\n",
        "1:1:",
        "a case file is a mapping",
    );
}

#[test]
fn aliases_cannot_blow_a_file_up() {
    let mut text = String::from("game: codevs-reborn\na: &a [x, x, x, x, x, x, x, x, x]\n");
    for i in 0..30 {
        text.push_str(&format!(
            "b{i}: &b{i} [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        ));
    }
    refused(text.as_bytes(), "2:", "anchors and aliases");
}

#[test]
fn an_unknown_game_or_a_missing_library_names_no_made_up_position() {
    shinpan()
        .args(["check", "nosuchgame"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no game `nosuchgame`")
                .and(predicate::str::contains(":1:1").not()),
        );
    shinpan()
        .args(["check", "--cases", "/nonexistent/library"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("/nonexistent/library: cannot read")
                .and(predicate::str::contains(":1:1").not()),
        );
}

#[test]
fn a_program_that_cannot_start_in_play_is_named() {
    shinpan()
        .args([
            "play",
            "codevs-reborn",
            "--",
            "/nonexistent/bot",
            "--",
            "builtin",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/bot"));
}

#[test]
fn a_log_that_cannot_be_written_is_named() {
    shinpan()
        .args([
            "play",
            "codevs-reborn",
            "--log",
            "/dev/full",
            "--",
            "builtin",
            "--",
            "builtin",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/dev/full"));
}

#[test]
fn a_bad_baseline_names_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("baseline.json");
    std::fs::write(&path, "[1, 2").unwrap();
    shinpan()
        .args(["check", "codevs-reborn", "--baseline"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("baseline.json"));
}

/// No numeric option, at any extreme, makes the tool panic: each run exits 0, 1 or 2.
#[test]
fn no_numeric_option_makes_the_tool_panic() {
    let extremes = [
        "0",
        "-1",
        "1e30",
        "-1e30",
        "nan",
        "inf",
        "18446744073709551616",
        "0.0001",
        "x",
        "",
    ];
    let bot = ["--", "sh", "-c", "echo n; exit 0"];
    let save_dir = tempfile::tempdir().unwrap();
    let commands: Vec<(Vec<&str>, &str)> = vec![
        (vec!["bot", "codevs-reborn"], "--budget"),
        (vec!["bot", "codevs-reborn"], "--matches"),
        (vec!["bot", "codevs-reborn"], "--seed"),
        (vec!["bot", "codevs-reborn"], "--turn-ms"),
        (vec!["bot", "codevs-reborn"], "--total-ms"),
        (vec!["bot", "codevs-reborn"], "--handshake-ms"),
        (vec!["play", "codevs-reborn"], "--rounds"),
        (vec!["play", "codevs-reborn"], "--seed"),
        (vec!["play", "codevs-reborn"], "--turn-ms"),
        (vec!["play", "codevs-reborn"], "--matches"),
        (vec!["play", "codevs-reborn", "--matches", "1"], "--jobs"),
        (vec!["check", "codevs-reborn"], "--timeout"),
        (vec!["check", "codevs-reborn"], "--max-case-file-bytes"),
        (vec!["diff", "codevs-reborn"], "--runs"),
        (vec!["diff", "codevs-reborn"], "--seed"),
        (vec!["diff", "codevs-reborn"], "--timeout"),
    ];
    for (command, option) in commands {
        for value in extremes {
            let mut cmd = shinpan();
            cmd.args(&command).arg(option).arg(value);
            if command[0] == "bot" {
                cmd.arg("--save-dir").arg(save_dir.path());
                if option != "--budget" {
                    cmd.args(["--budget", "3"]);
                }
                cmd.args(["--phases", "malformed"]).args(bot);
            }
            if command[0] == "play" {
                cmd.args(["--", "builtin", "--", "builtin"]);
                if option == "--turn-ms" || option == "--seed" {
                    cmd.args(["--rounds", "1"]);
                }
            }
            let output = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                matches!(output.status.code(), Some(0..=2)) && !stderr.contains("panicked"),
                "{command:?} {option} {value}: {:?}\n{stderr}",
                output.status.code()
            );
        }
    }
}

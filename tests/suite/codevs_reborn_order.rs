//! The order of CODE VS Reborn's exchange (rules.yaml `name.first`, `reply.after-input`): the
//! name before any input and never again, then one reply after each prompt. The parse cases
//! name these clauses but cannot fail a program that gets the order wrong; these tests run
//! `shinpan bot` on bots that do, and check that the game's own contract asks for that order.
//!
//! Issue 14: planted bugs in the order went unnoticed by the case library.

use std::process::Command;

use serde_json::Value;
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::seam::{Frame, Game};

use crate::common;

/// Lines in the first prompt (500 packs of three lines, then the 43-line turn block) and in
/// every later one.
const FIRST_PROMPT_LINES: usize = 500 * 3 + 43;
const TURN_PROMPT_LINES: usize = 43;

/// A Python bot that prints `name`, then for each prompt, read in full, prints `answer`.
fn reading_bot(name: &str, answer: &str) -> String {
    format!(
        "import sys\n\
         print({name:?}, flush=True)\n\
         lines = {FIRST_PROMPT_LINES}\n\
         while True:\n\
         \x20   for _ in range(lines):\n\
         \x20       if not sys.stdin.readline():\n\
         \x20           sys.exit(0)\n\
         \x20   lines = {TURN_PROMPT_LINES}\n\
         \x20   sys.stdout.write({answer:?})\n\
         \x20   sys.stdout.flush()\n"
    )
}

/// `shinpan bot codevs-reborn` on `argv` with small time limits: its JSON report and exit code.
fn check(argv: &[&str]) -> (Value, Option<i32>) {
    // The inputs a FAIL saves go to a folder the test removes, not to the temp directory.
    let save_dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["bot", "codevs-reborn", "--save-dir"])
        .arg(save_dir.path())
        .args([
            "--format",
            "json",
            "--handshake-ms",
            "1000",
            "--turn-ms",
            "1000",
            "--budget",
            "30",
            "--phases",
            "matches",
            "--",
        ])
        .args(argv)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (report, output.status.code())
}

/// The first FAIL of a report: its phase and detail.
fn first_fail(report: &Value) -> (String, String) {
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["verdict"] == "fail")
        .unwrap_or_else(|| panic!("no FAIL in {report:#}"));
    (
        check["phase"].as_str().unwrap().to_string(),
        check["detail"].as_str().unwrap().to_string(),
    )
}

#[test]
fn the_game_asks_for_the_name_first_and_one_line_after_each_prompt() {
    let game = CodevsReborn;
    let handshake = CodevsReborn::INFO
        .handshake
        .expect("the document asks for a name");
    assert!(
        handshake.prompt.is_empty(),
        "the name comes before any input: {:?}",
        handshake.prompt
    );
    assert_eq!(handshake.parse_kind, "name");
    let state = game.new_match(1, &Default::default());
    assert_eq!(game.frame(&state, 0, &[]), Frame::NeedMore);
    assert_eq!(game.frame(&state, 0, &["0 0"]), Frame::Complete);
}

#[test]
fn a_well_ordered_bot_passes() {
    let bot = reading_bot("in order", "0 0\n");
    let (report, code) = check(&[common::python3(), "-c", &bot]);
    assert_eq!(code, Some(0), "{report:#}");
}

#[test]
fn a_bot_that_waits_for_input_before_its_name_fails_the_handshake() {
    // It reads first; nothing comes, since the name is asked for before any input.
    let (report, code) = check(&["sh", "-c", "read -r line; echo late; cat >/dev/null"]);
    let (phase, detail) = first_fail(&report);
    assert_eq!(phase, "handshake", "{detail}");
    assert!(detail.contains("no complete reply"), "{detail}");
    assert_eq!(code, Some(1));
}

#[test]
fn a_bot_that_replies_before_reading_its_prompt_fails() {
    // Two replies come with the name, before the first prompt is sent. Even if the first
    // prompt takes one of them, the other is waiting when the second prompt is due.
    let (report, code) = check(&["sh", "-c", "printf 'ahead\\n0 0\\n0 0\\n'; cat >/dev/null"]);
    let (phase, detail) = first_fail(&report);
    assert_eq!(phase, "matches", "{detail}");
    assert!(detail.contains("nobody asked for"), "{detail}");
    assert_eq!(code, Some(1));
}

#[test]
fn a_bot_that_replies_twice_to_a_prompt_fails() {
    let bot = reading_bot("twice", "0 0\n0 0\n");
    let (report, code) = check(&[common::python3(), "-c", &bot]);
    let (phase, detail) = first_fail(&report);
    assert_eq!(phase, "matches", "{detail}");
    assert!(detail.contains("nobody asked for"), "{detail}");
    assert_eq!(code, Some(1));
}

#[test]
fn a_bot_that_repeats_its_name_before_each_reply_fails() {
    // The name is printed once, before the first prompt; here it comes again as the first
    // line of every answer, so the engine reads it as the reply.
    let bot = reading_bot("again", "again\n0 0\n");
    let (report, code) = check(&[common::python3(), "-c", &bot]);
    let (phase, detail) = first_fail(&report);
    assert_eq!(phase, "matches", "{detail}");
    assert!(detail.contains("illegal reply `again`"), "{detail}");
    assert_eq!(code, Some(1));
}

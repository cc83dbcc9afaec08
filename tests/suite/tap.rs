//! `shinpan tap` against hostile bots and logs (issue 22, items 2 and 3): an engine that
//! SIGKILLs the tap left the bot and its children running; a bot that ignored SIGTERM kept the
//! tap alive; children a bot left behind (setsid ones too) outlived the match; a second match,
//! or a second tap, ran on into a log's records unmarked; and a log that could not be written
//! lost records silently, tap exited 0 and trace passed what was left. Each hostile program is
//! written here; its children sleep for a marked duration, so the test can tell that none is
//! left (every wait bounded).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use serde_json::Value;
use shinpan::harness::log::read_match;

use crate::common;
use crate::procs::{self, exits_within, send, Marked};

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// How long a hostile bot may take to start its children on a busy machine.
const STARTING: Duration = Duration::from_secs(20);

/// `shinpan tap --log LOG EXTRA… -- sh -c SCRIPT`, its standard streams piped.
fn tap(log: &Path, extra: &[&str], script: &str) -> Child {
    Command::new(SHINPAN)
        .arg("tap")
        .arg("--log")
        .arg(log)
        .args(extra)
        .args(["--", "sh", "-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn records(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// `shinpan trace GAME LOG --format json`: the exit code, stderr and the report (if any).
fn trace(game: &str, log: &Path) -> (Option<i32>, String, Option<Value>) {
    let output = Command::new(SHINPAN)
        .args(["trace", game, "--format", "json"])
        .arg(log)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        serde_json::from_slice(&output.stdout).ok(),
    )
}

// Item 2: the bot and everything it started die with the tap and with the match.

#[test]
fn a_sigkilled_tap_takes_its_bot_and_everything_the_bot_started_with_it() {
    let marked = Marked::new(20);
    let dir = tempfile::tempdir().unwrap();
    let sleep = &marked.sleep;
    let mut tap = tap(
        &dir.path().join("tap.jsonl"),
        &[],
        &format!(
            "sleep {sleep} & setsid sleep {sleep} </dev/null >/dev/null 2>&1 & echo name; \
             sleep {sleep}"
        ),
    );
    assert!(marked.wait_for(3, STARTING), "{:?}", marked.alive());
    // As an engine does: nothing in the tap runs after this.
    send(&tap, Signal::SIGKILL);
    let _ = tap.wait();
    let left = marked.wait_gone(Duration::from_secs(3));
    assert!(left.is_empty(), "left running: {left:#?}");
}

#[test]
fn a_bot_that_ignores_sigterm_is_killed_after_the_grace() {
    let marked = Marked::new(21);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tap.jsonl");
    let sleep = &marked.sleep;
    let mut tap = tap(
        &log,
        &[],
        &format!("trap '' TERM; sleep {sleep} & echo name; while :; do sleep {sleep}; done"),
    );
    assert!(marked.wait_for(2, STARTING), "{:?}", marked.alive());
    let signalled = Instant::now();
    send(&tap, Signal::SIGTERM);
    // The grace is half a second: the tap does not wait on the bot for ever.
    let status = exits_within(&mut tap, Duration::from_secs(3));
    assert!(signalled.elapsed() >= Duration::from_millis(400));
    // The bot died by SIGKILL, and the tap ends as its bot did.
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(9), "{status:?}");
    let left = marked.wait_gone(Duration::from_secs(2));
    assert!(left.is_empty(), "left running: {left:#?}");
    let records = records(&log);
    let events: Vec<&str> = records
        .iter()
        .map(|r| r["event"].as_str().unwrap())
        .filter(|e| ["signal", "killed", "end"].contains(e))
        .collect();
    assert_eq!(events, ["signal", "killed", "end"]);
    assert_eq!(records.last().unwrap()["signal"], 9);
}

#[test]
fn a_bot_dies_with_its_tap_even_when_nothing_of_the_tap_survives() {
    let marked = Marked::new(23);
    let dir = tempfile::tempdir().unwrap();
    let mut tap = tap(
        &dir.path().join("tap.jsonl"),
        &[],
        &format!("echo name; exec sleep {}", marked.sleep),
    );
    assert!(marked.wait_for(1, STARTING), "{:?}", marked.alive());
    let bot = marked.alive()[0].split(' ').next().unwrap().to_string();
    // The guard too: only the parent-death signal the kernel keeps is left.
    let is_guard = |cmdline: &str| cmdline.contains(&format!(" guard --group {bot} "));
    let until = Instant::now() + STARTING;
    let mut guard = procs::table(is_guard);
    while guard.is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
        guard = procs::table(is_guard);
    }
    assert_eq!(guard.len(), 1, "{guard:?}");
    let guard: i32 = guard[0].split(' ').next().unwrap().parse().unwrap();
    let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(guard), Signal::SIGKILL);
    send(&tap, Signal::SIGKILL);
    let _ = tap.wait();
    let left = marked.wait_gone(Duration::from_secs(2));
    assert!(left.is_empty(), "left running: {left:#?}");
}

#[test]
fn children_a_bot_leaves_behind_die_with_the_match_setsid_ones_too() {
    let marked = Marked::new(22);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tap.jsonl");
    let sleep = &marked.sleep;
    let tap = tap(
        &log,
        &[],
        &format!(
            "sleep {sleep} & setsid sleep {sleep} </dev/null >/dev/null 2>&1 & \
             for i in $(seq 200); do \
               [ $(ps -eo cmd | grep -c '^sleep {sleep}') -ge 2 ] && break; sleep 0.05; \
             done; echo bye"
        ),
    );
    let output = tap.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(output.stdout, b"bye\n");
    let left = marked.wait_gone(Duration::from_secs(1));
    assert!(left.is_empty(), "left running: {left:#?}");
    let end = records(&log).pop().unwrap();
    assert_eq!(end["event"], "end");
    assert_eq!(end["left_behind"].as_array().unwrap().len(), 2, "{end}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("left 2 process(es) running"), "{stderr}");
}

#[test]
fn a_log_that_holds_a_match_is_refused_without_append_and_continued_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tap.jsonl");
    let run = |extra: &[&str], input: &[u8]| {
        let mut tap = tap(&log, extra, "cat");
        // A tap that refuses the log exits before it reads: the write may meet a closed pipe.
        let _ = tap.stdin.take().unwrap().write_all(input);
        tap.wait_with_output().unwrap()
    };
    assert!(run(&[], b"first\n").status.success());
    let before = std::fs::read(&log).unwrap();
    let refused = run(&[], b"second\n");
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("already holds records") && stderr.contains("--append"));
    assert_eq!(
        std::fs::read(&log).unwrap(),
        before,
        "a refused tap writes nothing"
    );
    assert!(run(&["--append"], b"second\n").status.success());
    // The appended match is a match of its own: trace's --match 1.
    let path = [log.clone()];
    let first = read_match(&path, None).unwrap();
    assert_eq!(first.players[&0].exchanges[0].prompt, "first\n");
    let second = read_match(&path, Some(1)).unwrap();
    assert_eq!(second.players[&0].exchanges.len(), 1);
    assert_eq!(second.players[&0].exchanges[0].prompt, "second\n");
    assert!(first.incomplete.is_empty() && second.incomplete.is_empty());
}

#[test]
fn two_taps_writing_one_log_at_once_do_not_trace_clean() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("both.jsonl");
    let starts = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .matches(r#""event":"start""#)
            .count()
    };
    let wait_for_starts = |n: usize| {
        let until = Instant::now() + STARTING;
        while starts() < n && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(starts(), n);
    };
    // A player's log given to both taps, as a copied command line does.
    let mut first = tap(&log, &["--append"], "cat");
    wait_for_starts(1);
    let mut second = tap(&log, &["--append"], "cat");
    wait_for_starts(2);
    let exchange = |tap: &mut Child, prompt: &str| {
        let stdin = tap.stdin.as_mut().unwrap();
        stdin.write_all(prompt.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut echoed = [0u8; 2];
        tap.stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut echoed)
            .unwrap();
    };
    exchange(&mut first, "1\n");
    exchange(&mut second, "2\n");
    exchange(&mut first, "3\n");
    for mut tap in [first, second] {
        drop(tap.stdin.take());
        assert!(exits_within(&mut tap, Duration::from_secs(5)).success());
    }
    let (code, stderr, _) = trace("codevs-reborn", &log);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("two taps wrote the bot's records"),
        "{stderr}"
    );
}

// Item 3: a log that cannot be written is reported, and never passes for a whole one.

#[test]
fn a_tap_that_cannot_write_its_log_says_so_at_once_and_exits_3() {
    let mut tap = tap(Path::new("/dev/full"), &[], "cat");
    let stderr = BufReader::new(tap.stderr.take().unwrap());
    let (said, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = said.send(line);
        }
    });
    // At once: the bot is still running, the engine still talking to it.
    let first = heard.recv_timeout(STARTING).unwrap();
    assert!(
        first.contains("cannot write the log /dev/full") && first.contains("status 3"),
        "{first}"
    );
    // The match goes on: the engine is not ours to break.
    let mut stdin = tap.stdin.take().unwrap();
    stdin.write_all(b"still here\n").unwrap();
    drop(stdin);
    let mut echoed = String::new();
    tap.stdout
        .take()
        .unwrap()
        .read_to_string(&mut echoed)
        .unwrap();
    assert_eq!(echoed, "still here\n");
    let status = exits_within(&mut tap, Duration::from_secs(5));
    assert_eq!(status.code(), Some(3));
    let last = heard.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(
        last.contains("is incomplete") && last.contains("exited with status 0"),
        "{last}"
    );
}

#[test]
fn a_log_cut_short_by_a_full_disk_traces_as_incomplete_not_as_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let logs = [dir.path().join("p0.jsonl"), dir.path().join("p1.jsonl")];
    let status = dir.path().join("status");
    // Player 0's disk fills after 20 KiB (of a log of some 50): the file size limit, with
    // SIGXFSZ ignored, makes writes past it fail (EFBIG) as a full disk's do (ENOSPC).
    let full = format!(
        "trap '' XFSZ; ulimit -f 40; {SHINPAN} tap --player 0 --log {} -- python3 \
         {BOTS}/good.py; echo $? > {}",
        logs[0].display(),
        status.display()
    );
    let output = Command::new(SHINPAN)
        .args(["play", "codevs-reborn", "--seed", "2", "--turn-ms", "5000"])
        .args([
            "--", "sh", "-c", &full, "--", SHINPAN, "tap", "--player", "1",
        ])
        .arg("--log")
        .arg(&logs[1])
        .args([common::python3(), &format!("{BOTS}/good.py")])
        .output()
        .unwrap();
    assert!(output.status.success());
    // The tap's exit status says the log is incomplete.
    assert_eq!(std::fs::read_to_string(&status).unwrap(), "3\n");
    let size = std::fs::metadata(&logs[0]).unwrap().len();
    assert!(size <= 20 * 1024, "{size}");
    let trace = Command::new(SHINPAN)
        .args(["trace", "codevs-reborn", "--format", "json"])
        .args(&logs)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&trace.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&trace.stderr)));
    // What the log holds checks clean, but it is not the match: not a pass.
    assert!(report["steps"].as_u64().unwrap() > 5, "{report:#}");
    assert_eq!(report["departures"], serde_json::json!([]), "{report:#}");
    assert_eq!(trace.status.code(), Some(3), "{report:#}");
    assert_eq!(report["complete"], false, "{report:#}");
    let why = report["stopped"].as_str().unwrap();
    assert!(
        why.contains("p0.jsonl: player 0's record stops") && why.contains("no `end` record"),
        "{why}"
    );
}

#[test]
fn the_start_of_a_character_the_bot_never_finished_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tap.jsonl");
    let tap = tap(&log, &[], r"printf 'a\344\270'");
    let output = tap.wait_with_output().unwrap();
    assert_eq!(output.stdout, b"a\xe4\xb8");
    let replies: Vec<Value> = records(&log)
        .into_iter()
        .filter(|r| r["event"] == "reply")
        .collect();
    let logged: Vec<&Value> = replies
        .iter()
        .flat_map(|r| [&r["text"], &r["hex"]])
        .filter(|v| !v.is_null() && *v != "")
        .collect();
    assert_eq!(logged, ["a", "e4b8"], "{replies:?}");
}

#[test]
fn a_bot_that_cannot_start_leaves_a_log_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tap.jsonl");
    let output = Command::new(SHINPAN)
        .arg("tap")
        .arg("--log")
        .arg(&log)
        .args(["--player", "0", "--", "/nonexistent/bot"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let events: Vec<Value> = records(&log);
    assert_eq!(events[0]["event"], "start");
    assert_eq!(events[1]["event"], "cannot-start");
    assert!(events[1]["why"]
        .as_str()
        .unwrap()
        .contains("/nonexistent/bot"));
    let (code, stderr, report) = trace("codevs-reborn", &log);
    let report = report.unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(code, Some(3), "{report:#}");
    assert!(
        report["stopped"]
            .as_str()
            .unwrap_or_default()
            .contains("the bot never ran"),
        "{report:#}"
    );
}

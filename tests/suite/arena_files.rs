//! What a full disk, a symbolic link, a second run and an interrupt do to an arena's logs and
//! report (issue 40, items 4 to 6, found by a hostile user):
//!
//! - item 4: a log disk that fills stopped the arena with nothing on stdout and the log being
//!   written cut mid-line; now the report of the matches played is printed (exit 2 still), and
//!   the cut log ends at a whole record;
//! - item 5: a log followed a symbolic link already in `--log-dir` and wrote over its target,
//!   and a second run into the same directory replaced the first one's logs; now a directory
//!   that holds anything is refused unless `--replace-logs`, which replaces a link, never its
//!   target;
//! - item 6: the arena's page was printed after every replay page was written, so an interrupt
//!   while they were written lost it; now the page comes first.
//!
//! The full disk is [`shinpan::fault`]'s: `SHINPAN_TEST_DISK_FULL_AFTER` bytes, then `ENOSPC`.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use shinpan::report::arena::ArenaReport;

use crate::common;

const FAILING_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/fails_by_seed.sh");

/// `play codevs-reborn --matches SEEDS` of the built-in player against itself, every log kept
/// in `dir`, with `args` before the players: exit code, stdout and stderr.
fn builtin_arena(seeds: &str, dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = common::shinpan_within(120)
        .args([
            "play",
            "codevs-reborn",
            "--matches",
            seeds,
            "--keep-logs",
            "all",
        ])
        .args(["--format", "json", "--log-dir"])
        .arg(dir)
        .args(args)
        .args(["--", "builtin", "--", "builtin"])
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The log files of `dir`, by name, with their bytes.
fn logs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut logs: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl") && !p.is_symlink())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    logs.sort();
    logs
}

/// Item 4: with room for the first match's log (117 KB) and not the second's, the arena prints
/// the report of the one match played, says why it stopped (exit 2), and the second log ends
/// at a whole record, with no `end`: `trace` reads it as incomplete, not as a torn file.
#[test]
fn an_arena_whose_disk_fills_reports_the_matches_played_and_cuts_the_log_at_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::shinpan_within(120)
        .env("SHINPAN_TEST_DISK_FULL_AFTER", "150000")
        .args([
            "play",
            "codevs-reborn",
            "--matches",
            "3",
            "--keep-logs",
            "all",
        ])
        .args(["--format", "json", "--log-dir"])
        .arg(dir.path())
        .args(["--", "builtin", "--", "builtin"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    let report: ArenaReport = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("the report of what was played ({e}): {stdout}{stderr}"));
    assert_eq!(report.played, 1, "{stdout}");
    assert_eq!(report.pairs[0].games, 1, "{stdout}");
    let why = report.interrupted.unwrap_or_default();
    assert!(
        why.starts_with("stopped after 1 of 6 matches: ")
            && why.contains("seed-1-seats-2-1.jsonl: No space left on device"),
        "{why}"
    );
    assert!(stderr.contains("No space left on device"), "{stderr}");

    let cut = dir.path().join("seed-1-seats-2-1.jsonl");
    let text = std::fs::read_to_string(&cut).unwrap();
    assert!(
        text.ends_with('\n'),
        "cut mid-line: …{}",
        &text[text.len() - 80..]
    );
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(records.len() > 2);
    assert!(records.iter().all(|r| r["event"] != "end"));
    let trace = common::shinpan_within(120)
        .args(["trace", "codevs-reborn", "--format", "json"])
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(trace.status.code(), Some(3));
    let trace: Value = serde_json::from_slice(&trace.stdout).unwrap();
    assert_eq!(trace["departures"], serde_json::json!([]));
    let stopped = trace["stopped"].as_str().unwrap_or_default();
    assert!(stopped.contains("with no `end` record"), "{stopped}");
}

/// Item 5: a symbolic link at the name of a log, and the logs of a first run, in the log
/// directory. A second run is refused (exit 2), and neither the link's target nor the first
/// run's logs change; with `--replace-logs` the link is replaced by the log, its target left
/// as it was, and said so.
#[test]
fn a_log_directory_that_holds_logs_or_links_is_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let logs_dir = dir.path().join("logs");
    let (code, stdout, stderr) = builtin_arena("1", &logs_dir, &[]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let first = logs(&logs_dir);
    assert_eq!(first.len(), 2, "{first:?}");
    let target = dir.path().join("precious.txt");
    std::fs::write(&target, "not a log\n").unwrap();
    let link = logs_dir.join("seed-2-seats-1-2.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();

    let (code, stdout, stderr) = builtin_arena("2", &logs_dir, &[]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("is not empty (3 entries: seed-1-seats-1-2.jsonl, ")
            && stderr.contains("--replace-logs"),
        "{stderr}"
    );
    assert_eq!(
        logs(&logs_dir),
        first,
        "the first run's logs are as they were"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "not a log\n");

    let (code, stdout, stderr) = builtin_arena("2", &logs_dir, &["--replace-logs"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("holds 1 symbolic link(s) (seed-2-seats-1-2.jsonl)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "not a log\n");
    assert!(!link.is_symlink(), "the link itself is replaced");
    let log = std::fs::read_to_string(&link).unwrap();
    assert!(log.starts_with("{\"event\":\"start\""), "{log}");
    assert_eq!(logs(&logs_dir).len(), 4);
}

/// Item 6: the arena's page is printed before the replay pages are written; a SIGINT once it
/// is out stops the writing of the replay pages, keeps the page and the replay pages written,
/// and says how many (exit 130). 40 failures: 40 replay pages to write.
#[test]
fn the_arena_page_comes_first_and_an_interrupt_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["play", "codevs-reborn", "--matches", "20", "--jobs", "2"])
        .args(["--turn-ms", "300", "--format", "html", "--log-dir"])
        .arg(dir.path())
        .args(["--", "builtin", "--", "sh", FAILING_BOT])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut page = Vec::new();
    let mut chunk = [0u8; 65536];
    while !page.ends_with(b"</html>\n") {
        let n = stdout.read(&mut chunk).unwrap();
        assert!(n > 0, "stdout closed before the page was whole");
        page.extend_from_slice(&chunk[..n]);
    }
    crate::procs::send(&child, nix::sys::signal::Signal::SIGINT);
    let status = crate::procs::exits_within(&mut child, Duration::from_secs(30));
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(rest.is_empty(), "nothing after the page");
    let page = String::from_utf8(page).unwrap();
    assert_eq!(page.matches("<tr data-failure=").count(), 40);
    let pages = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|e| e == "html")
        })
        .count();
    assert!(
        pages < 40,
        "every replay page was written before the arena's page"
    );
    assert!(
        stderr.contains(&format!(
            "interrupted by SIGINT after {pages} of 40 replay pages"
        )),
        "{stderr}"
    );
}

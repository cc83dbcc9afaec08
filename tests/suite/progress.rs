//! Issue 25, item 5: a `check` run that lasts more than a second shows a progress line on
//! stderr when stderr is a terminal (cases done of the total, failures so far, rate, time left),
//! and nothing when it is not one or with `--quiet`; stdout keeps the report alone. The terminal
//! is a pseudo-terminal made by util-linux's `script`.
//!
//! The run that lasts is an adapter that takes 20 ms over each of 85 of CODE VS Reborn's cases,
//! on one worker, and answers `unsupported` (so `check` exits 3: nothing judged): about two
//! seconds of waiting, whatever the speed of the build, and no CPU spent.

use std::process::Command;

use crate::common;

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");

/// `check`'s arguments for a run of about two seconds.
fn slow_run() -> String {
    format!(
        "codevs-reborn --jobs 1 --filter=-t \
         --engine '{} tests/fixtures/adapters/misbehave.py slow progress'",
        common::python3()
    )
}

/// What `check` with `args` writes to a pseudo-terminal (its stderr; stdout goes to a file,
/// returned second).
fn on_a_terminal(args: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let command = format!(
        "{SHINPAN} check --format json {args} > {}",
        report.display()
    );
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .env_remove("SHINPAN_CASES")
        .output()
        .expect("util-linux's `script` runs the check on a pseudo-terminal");
    assert_eq!(out.status.code(), Some(3), "{command}: {out:?}");
    let report = std::fs::read_to_string(report).unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), report)
}

/// A progress line: `[12/841] 0 failed, 230 cases/s, 3s left`.
fn progress_lines(terminal: &str) -> Vec<&str> {
    terminal
        .split(['\r', '\n'])
        .map(|line| line.trim_start_matches("\x1b[2K").trim_end())
        .filter(|line| line.starts_with('[') && line.ends_with(" left"))
        .collect()
}

#[test]
fn a_long_run_shows_its_progress_on_a_terminal_and_not_in_its_report() {
    let (terminal, report) = on_a_terminal(&slow_run());
    let lines = progress_lines(&terminal);
    assert!(!lines.is_empty(), "no progress line: {terminal:?}");
    let total: usize = serde_json::from_str::<serde_json::Value>(&report).unwrap()["results"]
        .as_array()
        .unwrap()
        .len();
    for line in &lines {
        let (count, rest) = line[1..].split_once("] ").unwrap();
        let (done, of) = count.split_once('/').unwrap();
        assert!(done.parse::<usize>().unwrap() <= total, "{line}");
        assert_eq!(of.parse::<usize>().unwrap(), total, "{line}");
        assert!(rest.starts_with("0 failed, "), "{line}");
        assert!(rest.contains(" cases/s, "), "{line}");
    }
    assert!(
        !report.contains(" cases/s, "),
        "the report is stdout's alone"
    );
}

#[test]
fn quiet_and_a_pipe_show_no_progress() {
    // The two runs wait side by side: each is seconds of an adapter's sleeping.
    let piped = std::thread::spawn(|| {
        Command::new("sh")
            .args([
                "-c",
                &format!("{SHINPAN} check --format json {}", slow_run()),
            ])
            .env_remove("SHINPAN_CASES")
            .output()
            .unwrap()
    });
    let (terminal, _) = on_a_terminal(&format!("{} --quiet", slow_run()));
    assert_eq!(
        progress_lines(&terminal),
        Vec::<&str>::new(),
        "{terminal:?}"
    );
    let piped = piped.join().unwrap();
    assert_eq!(piped.status.code(), Some(3), "{piped:?}");
    let stderr = String::from_utf8_lossy(&piped.stderr);
    assert_eq!(progress_lines(&stderr), Vec::<&str>::new(), "{stderr}");
    assert!(
        stderr.starts_with("shinpan: warning: nothing was judged"),
        "{stderr}"
    );
}

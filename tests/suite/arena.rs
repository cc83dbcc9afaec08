//! `shinpan play --matches` (the arena): every seed in every seat order, the pair table with its
//! Wilson interval, every failure counted apart from losses and linked to a log that `trace`
//! replays, the same report whatever `--jobs`, and three players' pairs from the winner.
//!
//! The bot of most tests is `tests/bots/fails_by_seed.sh`: in CODE VS Reborn it fails its first
//! turn of every match, by the seed a crash, a time-out or an illegal reply; the game's protocol
//! page says each of these loses the match at once ("an invalid reply … that player loses",
//! "time over … that player loses", a crash counting as a time over).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;
use shinpan::harness::play::FailureKind;
use shinpan::report::arena::ArenaReport;

use crate::common;

const FAILING_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/fails_by_seed.sh");
const GOOD_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/good.py");

/// `play codevs-reborn --matches SEEDS --jobs JOBS` of the built-in player against the failing
/// bot, its replies due in 300 ms, logged to `dir`: the report and stderr.
fn arena_against_the_failing_bot(seeds: &str, jobs: &str, dir: &Path) -> (ArenaReport, String) {
    let output = common::shinpan_within(120)
        .args(["play", "codevs-reborn", "--matches", seeds, "--jobs", jobs])
        .args(["--turn-ms", "300", "--format", "json", "--log-dir"])
        .arg(dir)
        .args(["--", "builtin", "--", "sh", FAILING_BOT])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)));
    (report, stderr)
}

/// The records of a log.
fn records(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_else(|e| panic!("{}: {e}", log.display()))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The done-when of the issue: `--matches 20 --jobs 2` gives the table with its interval, and
/// every crash or time-out is linked to a log that replays it.
#[test]
fn an_arena_counts_every_seed_in_both_orders_and_links_each_failure_to_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let (report, stderr) = arena_against_the_failing_bot("20", "2", dir.path());

    // 20 seeds, each in both seat orders.
    assert_eq!(report.arena.orders, [vec![0, 1], vec![1, 0]]);
    assert_eq!((report.arena.planned, report.played), (40, 40));
    let [pair] = &report.pairs[..] else {
        panic!("one pair expected: {:?}", report.pairs)
    };
    assert_eq!((pair.a, pair.b, pair.games), (0, 1, 40));
    // The bot loses every match at its first turn: 40 wins of the built-in player.
    assert_eq!((pair.wins, pair.losses, pair.draws), (40, 0, 0));
    assert_eq!((pair.a_failed, pair.b_failed), (0, 40));
    assert_eq!(pair.win_rate, Some(1.0));
    // Wilson at 95% for 40 of 40, by hand with z = 1.96 (z² = 3.8416): z²/n = 0.09604, so the
    // denominator is 1.09604; p = 1, so p(1-p)/n = 0 and the half-width is
    // 1.96 × √(3.8416 / 6400) = 1.96 × 0.0245 = 0.04802; the centre's numerator is
    // 1 + 0.04802. Low: (1.04802 − 0.04802) / 1.09604 = 0.912375; high: 1.
    let [low, high] = pair.ci95.unwrap();
    assert!((low - 0.912375).abs() < 5e-5, "{low}");
    assert!((high - 1.0).abs() < 1e-12, "{high}");

    // Failures apart from losses: none for the built-in player, one a match for the bot.
    let counts = &report.failure_counts;
    assert_eq!(
        (counts[0].crashes, counts[0].time_outs, counts[0].illegal),
        (0, 0, 0)
    );
    assert_eq!(counts[1].games, 40);
    assert_eq!(
        counts[1].crashes + counts[1].time_outs + counts[1].illegal,
        40
    );
    assert!(
        counts[1].crashes > 0 && counts[1].time_outs > 0,
        "{counts:?}"
    );
    // Listed in plan order (seed, then order), every match once.
    let listed: Vec<(u64, Vec<usize>)> = report
        .failures
        .iter()
        .map(|f| (f.seed, f.seats.clone()))
        .collect();
    let planned: Vec<(u64, Vec<usize>)> = (1..=20)
        .flat_map(|seed| [(seed, vec![0, 1]), (seed, vec![1, 0])])
        .collect();
    assert_eq!(listed, planned);
    assert_eq!(report.failures_unlisted, 0);

    // Each failure's log is its match's, and shows the failure at the step named.
    let mut traced = BTreeSet::new();
    for f in &report.failures {
        assert_eq!(f.contender, 1);
        assert_eq!(f.seats[f.seat], 1, "{f:?}");
        let log = f.log.as_ref().expect("a failure's log is kept");
        let named = format!(
            "seed-{}-seats-{}.jsonl",
            f.seed,
            if f.seat == 1 { "1-2" } else { "2-1" }
        );
        assert_eq!(log, &dir.path().join(named));
        let records = records(log);
        assert_eq!(records[0]["event"], "start");
        assert_eq!(records[0]["seed"], f.seed);
        let step = f.step.expect("the bot fails in a step, not its name");
        let reply = records
            .iter()
            .find(|r| r["player"] == f.seat && r["step"] == step && r.get("verdict").is_some())
            .unwrap_or_else(|| {
                panic!(
                    "no reply of seat {} at step {step} in {}",
                    f.seat,
                    log.display()
                )
            });
        let verdict = reply["verdict"]["verdict"].as_str().unwrap();
        let expected = match f.kind {
            FailureKind::Crash => "crashed",
            FailureKind::TimeOut => "timed-out",
            FailureKind::Illegal => "rejected",
        };
        assert_eq!(verdict, expected, "{f:?}");
        // One log of each kind through `trace`: it reads it whole and agrees with the rules.
        if traced.insert(f.kind) {
            let output = common::shinpan_within(60)
                .args(["trace", "codevs-reborn", "--format", "json"])
                .arg(log)
                .output()
                .unwrap();
            let trace: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(output.status.code(), Some(0), "{trace:#}");
            assert_eq!(trace["complete"], true, "{trace:#}");
        }
    }
    // Only the logs of matches with a failure are kept: here, every match's.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 40);
    // Time-outs with two matches at once: the warning says how to confirm them.
    assert!(stderr.contains("--jobs 1"), "{stderr}");
}

/// The report without what timing decides: how many jobs, the log directory, the words of each
/// failure (a time-out says how long it waited).
fn untimed(mut report: ArenaReport) -> ArenaReport {
    report.arena.jobs = 0;
    let dir = std::mem::take(&mut report.arena.log_dir);
    for f in &mut report.failures {
        f.detail.clear();
        f.log = f
            .log
            .as_ref()
            .map(|l| l.strip_prefix(&dir).unwrap().to_path_buf());
    }
    report
}

#[test]
fn the_report_is_the_same_in_the_same_order_whatever_the_jobs() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (alone, _) = arena_against_the_failing_bot("6", "1", one.path());
    let (together, _) = arena_against_the_failing_bot("6", "3", two.path());
    assert_eq!(alone.arena.jobs, 1);
    assert_eq!(together.arena.jobs, 3);
    assert_eq!(alone.failures.len(), 12);
    assert_eq!(untimed(alone), untimed(together));

    // And between two built-in players, whose matches last and end either way.
    let builtins = |jobs: &str| -> ArenaReport {
        let output = common::shinpan_within(120)
            .args(["play", "codevs-reborn", "--matches", "8", "--jobs", jobs])
            .args(["--format", "json", "--", "builtin", "--", "builtin"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        untimed(serde_json::from_slice(&output.stdout).unwrap())
    };
    let alone = builtins("1");
    assert_eq!(alone.played, 16);
    assert_eq!(alone, builtins("2"));
}

/// Three players: six seat orders a seed, and a pair's result from the outcome of each match
/// (the winner beats both others; the others draw), worked out here from the logs' own `end`
/// records and file names.
#[test]
fn three_players_play_every_order_and_pairs_follow_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::shinpan_within(120)
        .args([
            "play",
            "cedec2013",
            "--matches",
            "1",
            "--jobs",
            "2",
            "--keep-logs",
            "all",
        ])
        .args(["--format", "json", "--log-dir"])
        .arg(dir.path())
        .args(["--", "builtin", "--", "builtin", "--", "builtin"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let report: ArenaReport = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((report.arena.planned, report.played), (6, 6));
    let orders: BTreeSet<Vec<usize>> = report.arena.orders.iter().cloned().collect();
    assert_eq!(orders.len(), 6);

    // (a, b) → [wins, losses, draws] of a against b, from the logs.
    let mut expected: BTreeMap<(usize, usize), [usize; 3]> = BTreeMap::new();
    let logs: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(logs.len(), 6);
    for log in &logs {
        let name = log.file_name().unwrap().to_str().unwrap();
        // seed-1-seats-A-B-C.jsonl: contender numbers from 1, in seat order.
        let seats: Vec<usize> = name["seed-1-seats-".len()..name.len() - ".jsonl".len()]
            .split('-')
            .map(|n| n.parse::<usize>().unwrap() - 1)
            .collect();
        let end = records(log)
            .into_iter()
            .find(|r| r["event"] == "end")
            .unwrap();
        let winner = end["outcome"]["winner"].as_u64().map(|s| seats[s as usize]);
        for a in 0..3 {
            for b in a + 1..3 {
                let counts = expected.entry((a, b)).or_default();
                match winner {
                    Some(w) if w == a => counts[0] += 1,
                    Some(w) if w == b => counts[1] += 1,
                    _ => counts[2] += 1,
                }
            }
        }
    }
    let found: BTreeMap<(usize, usize), [usize; 3]> = report
        .pairs
        .iter()
        .map(|p| ((p.a, p.b), [p.wins, p.losses, p.draws]))
        .collect();
    assert_eq!(found, expected);
    assert!(report.pairs.iter().all(|p| p.games == 6));
}

#[test]
fn what_an_arena_cannot_play_exits_2() {
    let refused: [&[&str]; 4] = [
        &["--jobs", "2"],
        &["--matches", "2", "--rounds", "2"],
        &["--matches", "0"],
        &["--matches", "2", "--log", "x.jsonl"],
    ];
    for args in refused {
        common::shinpan_within(60)
            .args(["play", "codevs-reborn"])
            .args(args)
            .args(["--", "builtin", "--", "builtin"])
            .assert()
            .code(2);
    }
    let dir = tempfile::tempdir().unwrap();
    common::shinpan_within(60)
        .args([
            "play",
            "codevs-reborn",
            "--matches",
            "3",
            "--jobs",
            "2",
            "--log-dir",
        ])
        .arg(dir.path())
        .args(["--", "builtin", "--", "/nonexistent/bot"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot start `/nonexistent/bot`"));
    // A log directory that cannot be made is named.
    common::shinpan_within(60)
        .args(["play", "codevs-reborn", "--matches", "1", "--log-dir"])
        .arg("/proc/self/no/such/dir")
        .args(["--", "builtin", "--", "builtin"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "cannot make the log directory /proc/self/no/such/dir",
        ));
}

/// A reply that takes over half of its time with matches in parallel may be late only because
/// of them: the arena says so with `--jobs 2`, and not with `--jobs 1`, where the time is the
/// bot's own. (good.py thinks 800 ms before each of its first two replies, the second of which
/// counts; a reply has 1500 ms, a margin for a loaded machine.)
#[test]
fn a_slow_reply_in_parallel_matches_is_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    let slow = |jobs: &str| {
        let output = common::shinpan_within(120)
            .args(["play", "codevs-reborn", "--matches", "1", "--jobs", jobs])
            .args(["--turn-ms", "1500", "--format", "json", "--log-dir"])
            .arg(dir.path())
            .args(["--", "builtin", "--", common::python3(), GOOD_BOT])
            .args(["--think", "800", "2"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        let report: ArenaReport = serde_json::from_slice(&output.stdout).unwrap();
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let warned = slow("2");
    assert!(
        warned.contains("of the 1500 ms allowed") && warned.contains("--jobs 1"),
        "{warned}"
    );
    assert_eq!(slow("1"), "");
}

/// `play --matches 4294967296` plans no match up front (8,589,934,592 of them, in a 4 GB address
/// space) and keeps nothing of a match but its counts: it plays on until a signal, then prints
/// the report of the matches played to their end.
#[test]
fn an_arena_of_billions_of_matches_plans_none_up_front_and_reports_when_stopped() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 4000000; exec \"$@\"", "sh"])
        .arg(env!("CARGO_BIN_EXE_shinpan"))
        .args([
            "play",
            "codevs-reborn",
            "--matches",
            "4294967296",
            "--jobs",
            "2",
        ])
        .args(["--format", "json", "--keep-logs", "all", "--log-dir"])
        .arg(dir.path())
        .args(["--", "builtin", "--", "builtin"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Matches under way: the signal handler is in place (it is the run's first act).
    let until = Instant::now() + Duration::from_secs(60);
    while std::fs::read_dir(dir.path()).unwrap().count() < 4 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(child.try_wait().unwrap().is_none(), "it ended");
    crate::procs::send(&child, nix::sys::signal::Signal::SIGINT);
    let status = crate::procs::exits_within(&mut child, Duration::from_secs(10));
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    let report: ArenaReport = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report.arena.planned, 8_589_934_592);
    assert!(report.played >= 2, "{stdout}");
    let why = report.interrupted.unwrap_or_default();
    assert!(why.starts_with("interrupted by SIGINT after"), "{why}");
    assert_eq!(report.pairs[0].games, report.played);
}

/// The human table names each failure by its kind and quotes an illegal reply; a program too
/// late with its handshake (CODE VS Reborn's name) is a time-out at the handshake, not a crash.
#[test]
fn the_human_report_names_each_kind_of_failure() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::shinpan_within(120)
        .args([
            "play",
            "codevs-reborn",
            "--seed",
            "4",
            "--matches",
            "2",
            "--jobs",
            "2",
        ])
        .args(["--turn-ms", "300", "--log-dir"])
        .arg(dir.path())
        .args(["--", "builtin", "--", "sh", FAILING_BOT])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(0), "{text}");
    // Seed 4 makes the bot reply illegally, seed 5 crash (its choice by the first pack, above).
    for kind in [" crash seed 5 ", " illegal seed 4 "] {
        assert!(text.contains(kind), "{kind}: {text}");
    }
    assert!(text.contains("`9 0`: "), "{text}");

    let late = dir.path().join("late-name");
    let output = common::shinpan_within(120)
        .args([
            "play",
            "codevs-reborn",
            "--matches",
            "1",
            "--handshake-ms",
            "200",
        ])
        .args(["--format", "json", "--log-dir"])
        .arg(&late)
        .args(["--", "builtin", "--", "sh", "-c", "sleep 3; echo late"])
        .output()
        .unwrap();
    let report: ArenaReport = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(report.failures.len(), 2, "{report:#?}");
    for failure in &report.failures {
        assert_eq!((failure.kind, failure.step), (FailureKind::TimeOut, None));
    }
}

//! SIGINT, SIGTERM or SIGHUP to `check`, `diff`, `bot` or `play` (issue 22, item 1: each ended
//! shinpan in 0.7 s and left a hung adapter, or a bot's `sleep 3600` child, running). Each test
//! starts the real binary with a hostile program written here, whose children (one in the
//! program's group, one in a session of its own) sleep for a marked duration; sends the signal
//! once they all run; and checks that shinpan exits with 128 + the signal, prints what it has
//! marked as interrupted, and leaves no marked process behind; SIGKILL, which no handler sees,
//! leaves nothing behind either.

use std::process::{Command, Stdio};
use std::time::Duration;

use nix::sys::signal::Signal;

use crate::procs::{self, exits_within, script, send, Marked};

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");

/// How long the hostile programs may take to start on a busy machine.
const STARTING: Duration = Duration::from_secs(20);
/// How long shinpan may take to end after the signal: the grace, the report, the exit.
const ENDING: Duration = Duration::from_secs(4);

/// A bot that says its name, starts a child in its group and one in a new session, and then
/// never answers.
fn hung_bot(marked: &Marked) -> String {
    let sleep = &marked.sleep;
    format!(
        "echo name\nsleep {sleep} &\nsetsid sleep {sleep} </dev/null >/dev/null 2>&1 &\n\
         sleep {sleep}\n"
    )
}

/// An adapter that answers its hello, starts the same two children, and hangs on the first
/// request.
fn hung_adapter(marked: &Marked) -> String {
    let sleep = &marked.sleep;
    format!(
        "read hello\n\
         echo '{{\"id\":\"hello\",\"protocol\":1,\"engine\":\"hung\",\"games\":[\"codevs-reborn\"]}}'\n\
         sleep {sleep} &\nsetsid sleep {sleep} </dev/null >/dev/null 2>&1 &\n\
         read request\nsleep {sleep}\n"
    )
}

/// Runs `args`, sends `signal` once three marked processes run, and returns the exit code and
/// stdout, having checked that no marked process is left.
fn interrupt(args: &[String], marked: &Marked, signal: Signal) -> (Option<i32>, String) {
    let mut shinpan = Command::new(SHINPAN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        marked.wait_for(3, STARTING),
        "the hostile program never started its children: {:?}",
        marked.alive()
    );
    let before = marked.alive();
    send(&shinpan, signal);
    let status = exits_within(&mut shinpan, ENDING);
    let mut left = marked.wait_gone(Duration::from_secs(2));
    left.extend(guard_of(shinpan.id()));
    let output = shinpan.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        left.is_empty(),
        "{signal}: left running {left:#?} (before the signal: {before:#?}); stderr: {stderr}"
    );
    assert!(
        stderr.contains(&format!("interrupted by {signal}")),
        "{stderr}"
    );
    (
        status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// The guard shinpan `pid` started for its run, if it is still there (bounded wait).
fn guard_of(pid: u32) -> Vec<String> {
    let is_guard = |cmdline: &str| cmdline.contains(&format!(" guard --all-of {pid} "));
    let until = std::time::Instant::now() + Duration::from_secs(2);
    loop {
        let guard = procs::table(is_guard);
        if guard.is_empty() || std::time::Instant::now() >= until {
            return guard;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn an_interrupted_play_stops_its_bots_and_their_children_whatever_the_signal() {
    for (n, signal) in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP]
        .into_iter()
        .enumerate()
    {
        let marked = Marked::new(n as u32);
        let dir = tempfile::tempdir().unwrap();
        let bot = script(dir.path(), "bot.sh", &hung_bot(&marked));
        let log = dir.path().join("play.jsonl");
        let mut args = strings(&["play", "codevs-reborn", "--log"]);
        args.push(log.display().to_string());
        args.extend(strings(&["--", "sh", &bot, "--", "builtin"]));
        let (code, stdout) = interrupt(&args, &marked, signal);
        assert_eq!(code, Some(128 + signal as i32), "{signal}: {stdout}");
        assert!(
            stdout.contains("INTERRUPTED: interrupted by") && stdout.contains("0 matches"),
            "{stdout}"
        );
        // The match cut short has no `end` record: trace will call its log incomplete.
        let log = std::fs::read_to_string(&log).unwrap();
        let last = log.lines().last().unwrap();
        assert!(last.contains(r#""event":"interrupted""#), "{log}");
        assert!(!log.contains(r#""event":"end""#), "{log}");
    }
}

#[test]
fn an_interrupted_check_stops_a_hung_adapter_and_reports_the_cases_run() {
    let marked = Marked::new(10);
    let dir = tempfile::tempdir().unwrap();
    let adapter = script(dir.path(), "adapter.sh", &hung_adapter(&marked));
    let args = vec![
        "check".into(),
        "codevs-reborn".into(),
        "--format".into(),
        "json".into(),
        "--engine".into(),
        format!("sh {adapter}"),
    ];
    let (code, stdout) = interrupt(&args, &marked, Signal::SIGINT);
    assert_eq!(code, Some(130), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let stopped = report["stopped"].as_str().unwrap();
    assert!(
        stopped.starts_with("interrupted by SIGINT after 0 of"),
        "{stopped}"
    );
    assert_eq!(report["results"], serde_json::json!([]));
}

/// An adapter that answers every case `unsupported` but the case `hung`, where it starts the
/// same two children and never answers.
fn adapter_hung_on(marked: &Marked, hung: &str) -> String {
    let sleep = &marked.sleep;
    format!(
        "import json, subprocess, sys\n\
         for line in sys.stdin:\n\
         \x20   request = json.loads(line)\n\
         \x20   if request['kind'] == 'hello':\n\
         \x20       answer = {{'id': 'hello', 'protocol': 1, 'games': ['codevs-reborn']}}\n\
         \x20   elif request['id'] == {hung:?}:\n\
         \x20       subprocess.Popen(['sleep', '{sleep}'])\n\
         \x20       subprocess.Popen(['setsid', 'sleep', '{sleep}'], stdin=subprocess.DEVNULL,\n\
         \x20                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n\
         \x20       subprocess.run(['sleep', '{sleep}'])\n\
         \x20   else:\n\
         \x20       answer = {{'id': request['id'], 'unsupported': 'not this one'}}\n\
         \x20   print(json.dumps(answer), flush=True)\n"
    )
}

/// Issue 25, item 3: interrupted with `--jobs 2`, `check` reports the cases finished in library
/// order up to the first that did not, and none after it, though the other worker finished
/// later cases. The adapter hangs on the fourth case, worker 1's second; the cases before it
/// are answered at once, so the report has those three, or fewer on a machine so busy that
/// worker 0 had not finished case 2 when the signal came.
#[test]
fn an_interrupted_check_on_two_workers_reports_a_prefix_in_library_order() {
    let marked = Marked::new(14);
    let dir = tempfile::tempdir().unwrap();
    let chains = [
        "check",
        "codevs-reborn",
        "--format",
        "json",
        "--filter",
        "chains/",
    ];
    let all = Command::new(SHINPAN).args(chains).output().unwrap();
    let names = crate::common::case_names(&String::from_utf8(all.stdout).unwrap());
    let hung = &names[3];
    let adapter = script(dir.path(), "adapter.py", &adapter_hung_on(&marked, hung));
    let mut args = strings(&chains);
    args.extend(strings(&["--jobs", "2", "--engine"]));
    args.push(format!("{} {adapter}", crate::common::python3()));
    let (code, stdout) = interrupt(&args, &marked, Signal::SIGINT);
    assert_eq!(code, Some(130), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let got = crate::common::case_names(&stdout);
    assert!(got.len() <= 3, "{got:?}");
    assert_eq!(got, names[..got.len()]);
    let stopped = report["stopped"].as_str().unwrap();
    let prefix = format!("interrupted by SIGINT after {} of 11 cases", got.len());
    assert!(stopped.starts_with(&prefix), "{stopped}");
    if got.len() == 3 {
        assert!(
            stopped.contains(&format!("({hung} was cut short")),
            "{stopped}"
        );
    }
}

#[test]
fn an_interrupted_diff_stops_a_hung_adapter_and_finds_nothing_false() {
    let marked = Marked::new(11);
    let dir = tempfile::tempdir().unwrap();
    let adapter = script(dir.path(), "adapter.sh", &hung_adapter(&marked));
    let args = vec![
        "diff".into(),
        "codevs-reborn".into(),
        "--engine".into(),
        format!("sh {adapter}"),
    ];
    let (code, stdout) = interrupt(&args, &marked, Signal::SIGTERM);
    assert_eq!(code, Some(143), "{stdout}");
    // The request the signal cut short is no departure of the engine (the inputs before it
    // were states the generator could not make, or the hello).
    assert!(
        stdout.starts_with("INTERRUPTED: interrupted by SIGTERM after ")
            && stdout.contains(" of 1000 inputs\nno disagreement in "),
        "{stdout}"
    );
}

#[test]
fn an_interrupted_bot_check_stops_the_bot_and_marks_the_checks_left_incomplete() {
    let marked = Marked::new(12);
    let dir = tempfile::tempdir().unwrap();
    let bot = script(dir.path(), "bot.sh", &hung_bot(&marked));
    let mut args = strings(&["bot", "codevs-reborn", "--format", "json", "--save-dir"]);
    args.push(dir.path().join("saved").display().to_string());
    args.extend(strings(&["--", "sh", &bot]));
    let (code, stdout) = interrupt(&args, &marked, Signal::SIGHUP);
    assert_eq!(code, Some(129), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["interrupted"], "interrupted by SIGHUP");
    let last = report["checks"].as_array().unwrap().last().unwrap();
    assert_eq!(last["verdict"], "incomplete", "{report:#}");
}

/// SIGKILL reaches no handler: the run's guard ends what the run started.
#[test]
fn a_sigkilled_play_leaves_nothing_behind_either() {
    let marked = Marked::new(13);
    let dir = tempfile::tempdir().unwrap();
    let bot = script(dir.path(), "bot.sh", &hung_bot(&marked));
    let mut shinpan = Command::new(SHINPAN)
        .args(["play", "codevs-reborn", "--", "sh", &bot, "--", "builtin"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(marked.wait_for(3, STARTING), "{:?}", marked.alive());
    send(&shinpan, Signal::SIGKILL);
    let _ = shinpan.wait();
    let left = marked.wait_gone(Duration::from_secs(3));
    assert!(left.is_empty(), "left running: {left:#?}");
    assert_eq!(guard_of(shinpan.id()), Vec::<String>::new());
}

/// An interrupted arena (`play --matches --jobs 2`) stops the programs of every match under way,
/// prints its report of the matches played to their end (none here) and ends each cut match's
/// log with an `interrupted` record.
#[test]
fn an_interrupted_arena_stops_every_match_under_way_and_reports_what_it_has() {
    let marked = Marked::new(15);
    let dir = tempfile::tempdir().unwrap();
    let bot = script(dir.path(), "bot.sh", &hung_bot(&marked));
    let logs = dir.path().join("logs");
    let mut args = strings(&[
        "play",
        "codevs-reborn",
        "--matches",
        "2",
        "--jobs",
        "2",
        "--keep-logs",
        "all",
        "--format",
        "json",
        "--log-dir",
    ]);
    args.push(logs.display().to_string());
    args.extend(strings(&["--", "sh", &bot, "--", "builtin"]));
    let (code, stdout) = interrupt(&args, &marked, Signal::SIGINT);
    assert_eq!(code, Some(130), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (report["planned"].as_u64(), report["played"].as_u64()),
        (Some(4), Some(0))
    );
    let why = report["interrupted"].as_str().unwrap_or_default();
    assert!(
        why.starts_with("interrupted by SIGINT after 0 of 4 matches"),
        "{why}"
    );
    let cut: Vec<_> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!cut.is_empty());
    for log in cut {
        let log = std::fs::read_to_string(log).unwrap();
        let last = log.lines().last().unwrap();
        assert!(last.contains(r#""event":"interrupted""#), "{log}");
    }
}

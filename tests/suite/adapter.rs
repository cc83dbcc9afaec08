//! `shinpan check --engine`: misbehaving adapters are stopped (their whole process group), the
//! case is reported as an error saying what happened, the adapter is restarted and the run goes
//! on; the example Python adapter passes every case, and with a planted bug fails exactly the
//! cases that bug should fail.

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

const PYTHON_ADAPTER: &str = "conformance/adapters/codevs_reborn.py";

fn shinpan() -> Command {
    crate::common::shinpan()
}

/// Runs `check` through `engine` with `args`; returns the exit code and the JSON report.
fn check_json(engine: &str, args: &[&str]) -> (i32, Value) {
    let output = shinpan()
        .args([
            "check",
            "codevs-reborn",
            "--format",
            "json",
            "--engine",
            engine,
        ])
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), report)
}

fn verdicts(report: &Value) -> Vec<(String, String, String)> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["verdict"].as_str().unwrap().to_string(),
                r["detail"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Processes whose command line contains `tag`.
fn processes_tagged(tag: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(tag))
        .collect()
}

/// Runs the misbehaving adapter in `mode` over the chain cases: the one `two-chain` case is an
/// error whose detail contains `expected`, every other case is still answered, and nothing of
/// the adapter is left running.
fn misbehaving(mode: &str, expected: &str) {
    misbehaving_within("4", mode, expected);
}

/// [`misbehaving`] with the adapter's `--timeout` (seconds): 4 is long enough for a flood to
/// reach the line limit on a loaded machine; an adapter that hangs is waited for that long.
fn misbehaving_within(timeout: &str, mode: &str, expected: &str) {
    let tag = format!("shinpan-test-{mode}-{}", std::process::id());
    let engine = format!("python3 tests/fixtures/adapters/misbehave.py {mode} {tag}");
    let started = Instant::now();
    // The well-behaved answers come at once, so the run stays short.
    let (code, report) = check_json(&engine, &["--filter", "chains/", "--timeout", timeout]);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the run took too long"
    );
    assert_eq!(code, 1, "an error fails the run");
    let verdicts = verdicts(&report);
    assert_eq!(verdicts.len(), 11);
    for (name, verdict, detail) in &verdicts {
        if name.ends_with("/two-chain-scores-two-sends-one") {
            assert_eq!(verdict, "error", "{name}: {detail}");
            assert!(detail.contains(expected), "{name}: {detail}");
        } else {
            assert_eq!(verdict, "unsupported", "{name}: {detail}");
        }
    }
    assert_eq!(report["counts"]["errors"], 1);
    assert_eq!(processes_tagged(&tag), Vec::<String>::new(), "left behind");
}

#[test]
fn adapter_that_crashes_mid_case_is_an_error_and_restarted() {
    misbehaving("crash", "the output ended");
}

#[test]
fn adapter_that_hangs_is_killed_with_its_grandchild() {
    misbehaving_within("1.5", "hang", "no complete reply within");
}

#[test]
fn adapter_that_prints_garbage_is_an_error() {
    misbehaving("garbage", "not a JSON object");
}

#[test]
fn adapter_that_answers_another_id_is_an_error() {
    misbehaving("wrong-id", "answers id \"some/other/case\"");
}

#[test]
fn adapter_that_floods_one_line_is_an_error() {
    misbehaving("flood", "longer than");
}

#[test]
fn adapter_that_floods_lines_is_an_error() {
    misbehaving("lines", "answers id none");
}

/// Issue: an adapter that fails every request used to be waited on for every case; after
/// five failures of one kind in a row the run stops, says why, and does not pass. One worker
/// (`--jobs 1`): with more, each adapter counts its own failures (tests/suite/jobs.rs).
#[test]
fn adapter_that_exits_after_every_request_is_given_up_after_five() {
    let tag = format!("shinpan-test-exit-{}", std::process::id());
    let engine = format!("python3 tests/fixtures/adapters/misbehave.py exit {tag}");
    let (code, report) = check_json(&engine, &["--filter", "chains/", "--jobs", "1"]);
    assert_eq!(code, 1);
    let verdicts = verdicts(&report);
    assert_eq!(verdicts.len(), 5, "{verdicts:?}");
    assert!(report["stopped"]
        .as_str()
        .is_some_and(|s| s.contains("5 requests in a row")));
    assert!(
        verdicts
            .iter()
            .all(|(_, v, d)| v == "error" && d.contains("the output ended")),
        "{verdicts:?}"
    );
    assert_eq!(processes_tagged(&tag), Vec::<String>::new());
}

/// Issue: 161 cases × a 5 s timeout was over 13 minutes of waiting on a hanging adapter. One
/// worker, as above.
#[test]
fn adapter_that_never_answers_is_given_up_quickly() {
    let tag = format!("shinpan-test-timeouts-{}", std::process::id());
    let engine = format!("python3 tests/fixtures/adapters/misbehave.py timeouts {tag}");
    let started = Instant::now();
    let (code, report) = check_json(&engine, &["--timeout", "0.5", "--jobs", "1"]);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(code, 1);
    assert_eq!(verdicts(&report).len(), 5);
    assert!(report["stopped"]
        .as_str()
        .is_some_and(|s| s.contains("no response in time")));
    assert_eq!(processes_tagged(&tag), Vec::<String>::new());
}

/// Issue: extra lines after a response were charged to the next case.
#[test]
fn lines_after_a_response_are_charged_to_the_case_that_caused_them() {
    misbehaving("extra", "more output nobody asked for");
}

/// Issue: an adapter that exited while a process it started held its output was noticed only
/// at the timeout; `bot` noticed it at once.
#[test]
fn an_adapter_that_exits_leaving_its_output_held_is_noticed_at_once() {
    let tag = format!("shinpan-test-orphan-{}", std::process::id());
    let engine = format!("python3 tests/fixtures/adapters/misbehave.py orphan {tag}");
    let started = Instant::now();
    let (_, report) = check_json(&engine, &["--filter", "chains/", "--timeout", "20"]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "waited {:?}, as if for the 20 s timeout",
        started.elapsed()
    );
    let (_, verdict, detail) = verdicts(&report)
        .into_iter()
        .find(|(n, _, _)| n.ends_with("two-chain-scores-two-sends-one"))
        .unwrap();
    assert_eq!(verdict, "error");
    assert!(detail.contains("holds its output open"), "{detail}");
    assert_eq!(processes_tagged(&tag), Vec::<String>::new());
}

/// Issue: an adapter ignoring SIGTERM was reported as "a descendant" holding its output.
#[test]
fn an_adapter_that_ignores_sigterm_is_named_as_itself() {
    misbehaving_within("1.5", "no-term", "the adapter ignored SIGTERM");
}

/// Issue: a process started in a new session (setsid) outlived the run.
#[test]
fn a_daemon_an_adapter_leaves_at_every_start_is_killed_and_reported() {
    let tag = format!("shinpan-test-daemon-{}", std::process::id());
    let engine = format!("python3 tests/fixtures/adapters/misbehave.py daemon {tag}");
    let output = shinpan()
        .args([
            "check",
            "codevs-reborn",
            "--filter",
            "chains/",
            "--engine",
            &engine,
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("left 1 process(es) running"), "{stderr}");
    assert!(stderr.contains("time.sleep(300)"), "{stderr}");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(processes_tagged(&tag), Vec::<String>::new());
}

#[test]
fn adapter_that_cannot_start_exits_two() {
    shinpan()
        .args(["check", "--engine", "./no/such/adapter"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used"));
}

/// Issue 22 (item 13): the start-up handshake waited 10 s whatever `--timeout` said. It has its
/// own allowance now, `--start-timeout`: an adapter that never says hello is given up on in it,
/// and the message names the option.
#[test]
fn an_adapter_that_never_says_hello_is_given_up_after_the_start_timeout() {
    let started = Instant::now();
    let output = shinpan()
        .args(["check", "codevs-reborn", "--timeout", "0.5"])
        .args(["--start-timeout", "1", "--engine", "sleep 3600"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let waited = started.elapsed();
    assert_eq!(output.status.code(), Some(2));
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--start-timeout"), "{stderr}");
}

/// Issue 22 (item 10): an adapter that answers `unsupported` to everything got exit 0 from
/// `check` and `diff`. A run that judged nothing exits 3 and says why.
#[test]
fn nothing_judged_is_not_a_pass() {
    let engine = "python3 tests/fixtures/adapters/unsupported.py";
    let check = shinpan()
        .args([
            "check",
            "codevs-reborn",
            "--filter",
            "chains",
            "--engine",
            engine,
        ])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(stderr.contains("nothing was judged"), "{stderr}");
    let diff = shinpan()
        .args(["diff", "codevs-reborn", "--runs", "20", "--engine", engine])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(diff.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&diff.stdout);
    assert!(stdout.contains("NOTHING JUDGED"), "{stdout}");
}

/// Issue 22: `last_replies` declared unmodelled was still required in every step response, or
/// every step case errored. An engine that does not tell leaves it out.
#[test]
fn an_adapter_may_leave_last_replies_out_when_it_declares_them_unmodelled() {
    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("no_last_replies.py");
    std::fs::write(
        &wrapper,
        format!(
            "import json, subprocess, sys\n\
             inner = subprocess.Popen([sys.executable, {adapter:?}], stdin=subprocess.PIPE,\n\
             \x20   stdout=subprocess.PIPE, text=True)\n\
             for line in sys.stdin:\n\
             \x20   inner.stdin.write(line); inner.stdin.flush()\n\
             \x20   answer = json.loads(inner.stdout.readline())\n\
             \x20   if answer.get('id') == 'hello':\n\
             \x20       answer['unmodelled'] = {{'codevs-reborn': {{'fields': ['last_replies']}}}}\n\
             \x20   answer.pop('last_replies', None)\n\
             \x20   print(json.dumps(answer), flush=True)\n",
            adapter = format!("{}/{PYTHON_ADAPTER}", env!("CARGO_MANIFEST_DIR")),
        ),
    )
    .unwrap();
    let engine = format!("python3 {}", wrapper.display());
    let (code, report) = check_json(&engine, &["--filter", "chains"]);
    assert_eq!(code, 0, "{report:#}");
    let passed = verdicts(&report)
        .iter()
        .filter(|(_, verdict, _)| verdict == "pass")
        .count();
    assert!(passed >= 10, "{report:#}");
}

#[test]
fn adapter_of_another_protocol_version_is_refused() {
    let engine = "python3 -c \"import sys,json; sys.stdin.readline(); \
        print(json.dumps({'id': 'hello', 'protocol': 2, 'games': []}), flush=True)\"";
    shinpan()
        .args(["check", "--engine", engine])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the adapter speaks protocol 2; this shinpan speaks protocol 1",
        ));
}

#[test]
fn python_adapter_passes_every_case() {
    let (code, report) = check_json(&format!("python3 {PYTHON_ADAPTER}"), &[]);
    let not_passed: Vec<_> = verdicts(&report)
        .into_iter()
        .filter(|(_, v, _)| v != "pass")
        .collect();
    assert_eq!(not_passed, Vec::new());
    assert_eq!(code, 0);
}

/// The cases a planted bug fails, worked out from the bug: `chain-round` changes the score of
/// every chain of two or more (⌊1.69⌋ = 1 but round(1.69) = 2), so exactly the cases checking
/// such a score or what follows from it (ojama sent when ⌊score/2⌋ changes, a later prompt)
/// fail; the offset examples' 2- and 3-chains send ⌊3/2⌋ = ⌊2/2⌋ and ⌊5/2⌋ = ⌊4/2⌋ ojama and do
/// not check the score, so they pass. `ojama-cap-11` fails exactly the cases where a turn is
/// played with a stock of exactly 10.
fn failing_with_bug(bug: &str) -> Vec<String> {
    let (code, report) = check_json(&format!("python3 {PYTHON_ADAPTER} --bug {bug}"), &[]);
    assert_eq!(code, 1);
    verdicts(&report)
        .into_iter()
        .filter(|(_, v, _)| v != "pass")
        .map(|(name, verdict, _)| {
            assert_eq!(verdict, "fail", "{name}");
            name
        })
        .collect()
}

#[test]
fn planted_chain_round_bug_fails_exactly_the_multi_chain_score_cases() {
    assert_eq!(
        failing_with_bug("chain-round"),
        [
            "codevs-reborn/chains/two-chain-scores-two-sends-one",
            "codevs-reborn/chains/three-chain-scores-four-sends-two",
            "codevs-reborn/chains/four-chain-scores-six-and-drains-twenty",
            "codevs-reborn/chains/five-chain-scores-nine-and-drains-twenty-two",
            "codevs-reborn/chains/nine-chain-scores-thirty-seven",
            "codevs-reborn/chains/chain-score-adds-to-existing-score",
            "codevs-reborn/chains/gauge-gain-applies-before-decrease",
            "codevs-reborn/chains/both-three-chains-drain-and-offset",
            "codevs-reborn/prompt/prompt-after-document-skill-example",
            "codevs-reborn/skill/skill-document-example-five-exploded-five-chains",
        ]
    );
}

#[test]
fn planted_ojama_cap_bug_fails_exactly_the_stock_of_ten_cases() {
    assert_eq!(
        failing_with_bug("ojama-cap-11"),
        [
            "codevs-reborn/end/ojama-row-counts-towards-the-danger-line",
            "codevs-reborn/end/two-columns-of-nineteen-at-the-end-of-a-turn",
            "codevs-reborn/ojama/stock-ten-drops-one-row-before-the-pack",
            "codevs-reborn/ojama/stock-twenty-drops-a-row-in-each-of-two-turns",
            "codevs-reborn/ojama/ojama-drop-comes-before-the-skill",
            "codevs-reborn/prompt/prompt-shows-ojama-as-eleven",
        ]
    );
}

#[test]
fn expect_fail_list_turns_failures_into_expected_and_catches_stale_entries() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("known.yaml");
    std::fs::write(
        &list,
        "codevs-reborn/ojama/stock-ten-*: the row falls at 11\n\
         codevs-reborn/ojama/stock-twenty-drops-a-row-in-each-of-two-turns: same bug\n\
         codevs-reborn/ojama/ojama-drop-comes-before-the-skill: same bug\n\
         codevs-reborn/end/ojama-row-counts-towards-the-danger-line: same bug\n\
         codevs-reborn/end/two-columns-of-nineteen-at-the-end-of-a-turn: same bug\n\
         codevs-reborn/prompt/prompt-shows-ojama-as-eleven: same bug\n",
    )
    .unwrap();
    let list = list.to_str().unwrap();
    let buggy = format!("python3 {PYTHON_ADAPTER} --bug ojama-cap-11");
    let (code, report) = check_json(&buggy, &["--expect-fail", list]);
    assert_eq!(code, 0, "every failure is listed");
    assert_eq!(report["counts"]["expected_failures"], 6);
    // The same list against the correct engine: every listed case is fixed, and the run fails.
    let (code, report) = check_json(
        &format!("python3 {PYTHON_ADAPTER}"),
        &["--expect-fail", list],
    );
    assert_eq!(code, 1, "a stale list fails the run");
    assert_eq!(report["counts"]["fixed"], 6);
}

#[test]
fn baseline_names_what_broke() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("before.json");
    let before = shinpan()
        .args([
            "check",
            "codevs-reborn",
            "--filter",
            "ojama/",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    std::fs::write(&baseline, &before.stdout).unwrap();
    let buggy = format!("python3 {PYTHON_ADAPTER} --bug ojama-cap-11");
    let output = shinpan()
        .args([
            "check",
            "codevs-reborn",
            "--filter",
            "ojama/",
            "--engine",
            &buggy,
        ])
        .args(["--baseline", baseline.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout
            .contains("broken: 3\n    codevs-reborn/ojama/stock-ten-drops-one-row-before-the-pack"),
        "{stdout}"
    );
    assert!(stdout.contains("fixed: 0"), "{stdout}");
}

/// `shinpan diff` finds the planted ojama bug, and the case it writes loads with
/// `check --cases`, passes on the reference engine and fails on the buggy one.
#[test]
fn diff_finds_the_planted_bug_and_writes_a_case_that_reproduces_it() {
    let dir = tempfile::tempdir().unwrap();
    let game_dir = dir.path().join("codevs-reborn");
    std::fs::create_dir(&game_dir).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/codevs-reborn/rules.yaml"),
        game_dir.join("rules.yaml"),
    )
    .unwrap();
    let out = game_dir.join("found.yaml");
    let buggy = format!("python3 {PYTHON_ADAPTER} --bug ojama-cap-11");
    let started = Instant::now();
    shinpan()
        .args(["diff", "codevs-reborn", "--engine", &buggy, "--seed", "0"])
        .args(["--out", out.to_str().unwrap()])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(1);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
    let case = std::fs::read_to_string(&out).unwrap();
    assert!(case.contains("needs-review: true"), "{case}");
    // Named by the variant that reproduces it: the clause it breaks.
    assert!(case.contains("rules: [ojama.drop]"), "{case}");
    let cases = dir.path().to_str().unwrap();
    shinpan().args(["check", "--cases", cases]).assert().code(0);
    let (code, report) = check_json(&buggy, &["--cases", cases]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["counts"]["failed"], 1);
}

#[test]
fn diff_finds_no_disagreement_with_the_correct_adapter() {
    shinpan()
        .args(["diff", "codevs-reborn", "--runs", "200", "--engine"])
        .arg(format!("python3 {PYTHON_ADAPTER}"))
        .assert()
        .code(0)
        .stdout(predicates::str::contains("no disagreement in 200 inputs"));
}

#[test]
fn unclassified_is_refused_in_a_reviewed_case() {
    let dir = tempfile::tempdir().unwrap();
    let game_dir = dir.path().join("codevs-reborn");
    std::fs::create_dir(&game_dir).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/codevs-reborn/rules.yaml"),
        game_dir.join("rules.yaml"),
    )
    .unwrap();
    std::fs::write(
        game_dir.join("x.yaml"),
        "game: codevs-reborn\ncases:\n  - id: x\n    rules: [unclassified]\n    \
         parse: reply\n    input: \"2 0\"\n    expect: valid\n",
    )
    .unwrap();
    shinpan()
        .args(["check", "--cases", dir.path().to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "only for a case marked `needs-review: true`",
        ));
}

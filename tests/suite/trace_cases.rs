//! `trace --cases-out DIR` on a full disk, an unwritable folder and two logs of one file name
//! (issue 40, items 9 and 14, found by a hostile user):
//!
//! - item 9: a full disk left parts 1 and 2 of 5 and no trace report, and `check --cases` then
//!   passed the partial library; an unwritable folder was refused only after the whole trace.
//!   Now the folder is tried first, the report is printed whatever becomes of the cases, what a
//!   failed write leaves is removed, and `check` refuses parts without the manifest written
//!   after them;
//! - item 14: a second log of the same file name replaced the first one's cases.
//!
//! The full disk is [`shinpan::fault`]'s: `SHINPAN_TEST_DISK_FULL_AFTER` bytes, then `ENOSPC`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");

/// `play GAME --seed SEED --log LOG` of `players` built-in players.
fn play_logged(game: &str, players: usize, seed: &str, log: &Path) {
    let mut command = Command::new(SHINPAN);
    command
        .args(["play", game, "--seed", seed, "--format", "json", "--log"])
        .arg(log);
    for _ in 0..players {
        command.args(["--", "builtin"]);
    }
    assert!(command.output().unwrap().status.success());
}

/// `shinpan ARGS` with `env`: exit code, stdout, stderr.
fn shinpan(args: &[&str], env: &[(&str, String)]) -> (Option<i32>, String, String) {
    let output = Command::new(SHINPAN)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The names in `folder`, sorted.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The first 180 steps of a CEDEC 2013 match of three built-in players: step cases of whole
/// fields, more than one case file holds (the parts of `trace-cut`).
fn cut_cedec_log(dir: &Path) -> PathBuf {
    let whole = dir.join("whole.jsonl");
    play_logged("cedec2013", 3, "5", &whole);
    let text = std::fs::read_to_string(&whole).unwrap();
    let log = dir.join("cut.jsonl");
    let cut: Vec<&str> = text.lines().take(1 + 2 * 180).collect();
    std::fs::write(&log, cut.join("\n") + "\n").unwrap();
    log
}

/// Item 9: room for the catalogue, two parts and half of the third: the trace report is
/// printed all the same (exit 2, the cases not written), and nothing of `trace-cut` is left.
/// Written whole, the parts come with their manifest, and `check` refuses them without it, or
/// with a part missing.
#[test]
fn a_full_disk_leaves_the_report_and_no_library_that_looks_whole() {
    let dir = tempfile::tempdir().unwrap();
    let log = cut_cedec_log(dir.path());
    let log = log.to_str().unwrap();
    let whole = dir.path().join("whole-cases");
    let (code, _, stderr) = shinpan(
        &[
            "trace",
            "cedec2013",
            log,
            "--cases-out",
            whole.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, Some(3), "the log is cut short: {stderr}");
    let folder = whole.join("cedec2013");
    let parts: Vec<String> = names(&folder)
        .into_iter()
        .filter(|n| n.starts_with("trace-cut-part-"))
        .collect();
    assert!(parts.len() >= 3, "{parts:?}");
    let size = |name: &str| std::fs::metadata(folder.join(name)).unwrap().len();
    let room = size("rules.yaml") + size(&parts[0]) + size(&parts[1]) + size(&parts[2]) / 2;

    let full = dir.path().join("full-cases");
    let (code, stdout, stderr) = shinpan(
        &[
            "trace",
            "cedec2013",
            log,
            "--format",
            "json",
            "--cases-out",
            full.to_str().unwrap(),
        ],
        &[("SHINPAN_TEST_DISK_FULL_AFTER", room.to_string())],
    );
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("the trace report ({e}): {stdout}{stderr}"));
    assert_eq!(report["steps"], 180, "{report:#}");
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("the step cases were not written: ")
            && notes.contains("trace-cut-part-3.yaml: No space left on device")
            && notes.contains("the 2 file(s) written before it were removed"),
        "{notes}"
    );
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert_eq!(names(&full.join("cedec2013")), ["rules.yaml"]);

    let check = |cases: &Path| {
        shinpan(
            &["check", "cedec2013", "--cases", cases.to_str().unwrap()],
            &[],
        )
    };
    let (code, stdout, _) = check(&whole);
    assert_eq!(code, Some(0), "{stdout}");
    let manifest = folder.join("trace-cut.manifest.json");
    let listed = std::fs::read(&manifest).unwrap();
    std::fs::remove_file(&manifest).unwrap();
    let (code, _, stderr) = check(&whole);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("trace-cut-part-1.yaml: part 1 of ")
            && stderr.contains("its manifest trace-cut.manifest.json is missing"),
        "{stderr}"
    );
    std::fs::write(&manifest, listed).unwrap();
    let last = parts.last().unwrap();
    std::fs::remove_file(folder.join(last)).unwrap();
    let (code, _, stderr) = check(&whole);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "trace-cut.manifest.json: lists {last}, which is not in the library"
        )),
        "{stderr}"
    );
}

/// Item 9: a `--cases-out` that cannot take files is refused before the trace, which is not
/// run (here a folder under a regular file, and a disk already full).
#[test]
fn a_cases_out_that_cannot_be_written_is_refused_before_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("tsg-auto-chess", 2, "7", &log);
    let log = log.to_str().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let under_a_file = file.join("cases");
    let on_a_full_disk = dir.path().join("cases");
    for (out, env) in [
        (&under_a_file, vec![]),
        (
            &on_a_full_disk,
            vec![("SHINPAN_TEST_DISK_FULL_AFTER", "0".to_string())],
        ),
    ] {
        let (code, stdout, stderr) = shinpan(
            &[
                "trace",
                "tsg-auto-chess",
                log,
                "--cases-out",
                out.to_str().unwrap(),
            ],
            &env,
        );
        assert_eq!(code, Some(2), "{stdout}{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains("--cases-out: ") && stderr.contains("; nothing was traced"),
            "{stderr}"
        );
    }
}

/// Item 14: `a/p0.jsonl` and `b/p0.jsonl`, two matches, traced into one folder: each keeps its
/// cases (`trace-p0.yaml`, `trace-p0-2.yaml`, the second's note says why), and `check` runs
/// both. The first log traced again replaces its own file, and no other.
#[test]
fn two_logs_of_one_file_name_keep_their_own_cases() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let (log_a, log_b) = (a.join("p0.jsonl"), b.join("p0.jsonl"));
    play_logged("tsg-auto-chess", 2, "3", &log_a);
    play_logged("tsg-auto-chess", 2, "4", &log_b);
    let cases = dir.path().join("cases");
    let trace = |log: &Path| {
        let (code, stdout, stderr) = shinpan(
            &[
                "trace",
                "tsg-auto-chess",
                log.to_str().unwrap(),
                "--format",
                "json",
                "--cases-out",
                cases.to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        report["notes"].to_string()
    };
    let first = trace(&log_a);
    assert!(first.contains("trace-p0.yaml"), "{first}");
    let folder = cases.join("tsg-auto-chess");
    let of_a = std::fs::read_to_string(folder.join("trace-p0.yaml")).unwrap();
    let second = trace(&log_b);
    assert!(
        second.contains("trace-p0-2.yaml")
            && second.contains("`trace-p0` holds the cases of another log of the same file name"),
        "{second}"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("trace-p0.yaml")).unwrap(),
        of_a,
        "the first log's cases are as they were"
    );
    let again = trace(&log_a);
    assert!(
        again.contains("trace-p0.yaml") && !again.contains("another log"),
        "{again}"
    );
    assert_eq!(
        names(&folder),
        [
            "rules.yaml",
            "trace-p0-2.manifest.json",
            "trace-p0-2.yaml",
            "trace-p0.manifest.json",
            "trace-p0.yaml"
        ]
    );
    let cases_in = |name: &str| {
        std::fs::read_to_string(folder.join(name))
            .unwrap()
            .matches("\n- id: ")
            .count()
    };
    let total = cases_in("trace-p0.yaml") + cases_in("trace-p0-2.yaml");
    let (code, stdout, _) = shinpan(
        &[
            "check",
            "tsg-auto-chess",
            "--cases",
            cases.to_str().unwrap(),
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["results"].as_array().unwrap().len(), total);
}

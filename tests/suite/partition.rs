//! Issue 25, item 4: `check --partition count:K/N | hash:K/N` shards a run as cargo-nextest does,
//! and `shinpan report merge` joins the shards' reports into the unsharded run's report.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// A game whose library has many files, and a filter that keeps a few cases of several of them
/// (39 cases of 11 files, a generator case among them), so that the eleven runs stay short.
const GAME: &str = "tsg-auto-chess";
const FILTER: &str = "-the";

fn shinpan() -> Command {
    crate::common::shinpan()
}

/// `check GAME` with `args`, its stdout (exit 0 expected).
fn check(args: &[&str]) -> String {
    let out = shinpan()
        .args(["check", GAME, &format!("--filter={FILTER}")])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn merge(dir: &Path, shards: &[String], format: &str) -> std::process::Output {
    let mut cmd = shinpan();
    cmd.args(["report", "merge", "--format", format]);
    for (i, shard) in shards.iter().enumerate() {
        let path = dir.join(format!("shard-{i}.json"));
        std::fs::write(&path, shard).unwrap();
        cmd.arg(path);
    }
    cmd.output().unwrap()
}

#[test]
fn the_shards_run_every_case_once_and_merge_into_the_whole_run() {
    let whole = check(&["--format", "json"]);
    let all = crate::common::case_names(&whole);
    let files: std::collections::BTreeSet<&str> =
        all.iter().map(|n| n.split('/').nth(1).unwrap()).collect();
    assert!(files.len() > 3, "a library of several files: {files:?}");
    let dir = tempfile::tempdir().unwrap();
    for kind in ["count", "hash"] {
        let shards: Vec<String> = (1..=3)
            .map(|k| check(&["--format", "json", "--partition", &format!("{kind}:{k}/3")]))
            .collect();
        let mut ran: Vec<String> = shards
            .iter()
            .flat_map(|s| crate::common::case_names(s))
            .collect();
        assert!(
            shards
                .iter()
                .all(|s| !crate::common::case_names(s).is_empty()),
            "{kind}: an empty shard"
        );
        ran.sort();
        let mut expected = all.clone();
        expected.sort();
        assert_eq!(ran, expected, "{kind}: every case exactly once");
        let shard: Value = serde_json::from_str(&shards[1]).unwrap();
        assert_eq!(shard["partition"], format!("{kind}:2/3"));

        let merged = merge(dir.path(), &shards, "json");
        assert_eq!(merged.status.code(), Some(0), "{kind}");
        assert_eq!(String::from_utf8(merged.stdout).unwrap(), whole, "{kind}");
    }
    // JUnit of a merged report is the unsharded run's JUnit.
    let shards: Vec<String> = (1..=2)
        .map(|k| check(&["--format", "json", "--partition", &format!("count:{k}/2")]))
        .collect();
    let junit = merge(dir.path(), &shards, "junit");
    assert_eq!(
        String::from_utf8(junit.stdout).unwrap(),
        check(&["--format", "junit"])
    );
}

#[test]
fn count_deals_the_filtered_cases_in_library_order() {
    let filtered = crate::common::case_names(&check(&["--format", "json"]));
    assert!(filtered.len() >= 4, "{filtered:?}");
    let second =
        crate::common::case_names(&check(&["--format", "json", "--partition", "count:2/3"]));
    let expected: Vec<String> = filtered.iter().skip(1).step_by(3).cloned().collect();
    assert_eq!(second, expected);
}

#[test]
fn reports_that_do_not_belong_together_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let shard = check(&["--format", "json", "--partition", "count:1/2"]);
    let twice = merge(dir.path(), &[shard.clone(), shard.clone()], "json");
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&twice.stderr).contains("is in two reports"),
        "{}",
        String::from_utf8_lossy(&twice.stderr)
    );
    let mut other: Value = serde_json::from_str(&shard).unwrap();
    other["library_digest"] = "0000".into();
    let other = merge(dir.path(), &[other.to_string()], "json");
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("another case library"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    let bad = shinpan()
        .args(["check", GAME, "--partition", "count:4/3"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("1 <= K <= N"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

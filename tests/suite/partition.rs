//! Issue 25, item 4: `check --partition count:K/N | hash:K/N` shards a run as cargo-nextest does,
//! and `shinpan report merge` joins the shards' reports into the unsharded run's report. Issue
//! 40, items 1, 3 and 11: a merge checks the shards' plan, names the shards and cases missing,
//! and an empty shard is not a run that judged nothing.

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
        String::from_utf8_lossy(&twice.stderr).contains("are both shard count:1/2"),
        "{}",
        String::from_utf8_lossy(&twice.stderr)
    );
    let mut doubled: Value = serde_json::from_str(&shard).unwrap();
    let case = doubled["results"][0].clone();
    doubled["results"].as_array_mut().unwrap().push(case);
    let twice = merge(dir.path(), &[doubled.to_string()], "json");
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

/// `merge`'s exit code, stdout and stderr.
fn merged(dir: &Path, shards: &[String], format: &str) -> (Option<i32>, String, String) {
    let out = merge(dir, shards, format);
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Issue 40, item 1: a merge of some of the shards printed "N passed, 0 failed" and exited 0,
/// with no word of the cases in the shards not given. It names them and exits 3.
#[test]
fn a_merge_of_some_shards_names_those_missing_and_the_cases_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    let whole = crate::common::case_names(&check(&["--format", "json"]));
    let first = check(&["--format", "json", "--partition", "count:1/5"]);
    let third = check(&["--format", "json", "--partition", "count:3/5"]);
    let recorded: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(
        recorded["selected"],
        whole.len(),
        "the shard records its plan"
    );
    assert_eq!(recorded["filter"], FILTER);
    assert_eq!(recorded["games"], serde_json::json!([GAME]));
    let judged = crate::common::case_names(&first).len() + crate::common::case_names(&third).len();
    let unjudged = whole.len() - judged;
    let line = format!(
        "shards 2, 4 and 5 of 5 not merged: {unjudged} of {} cases not judged",
        whole.len()
    );

    let (code, stdout, stderr) = merged(dir.path(), &[first.clone(), third.clone()], "human");
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("INCOMPLETE: {line}\n")),
        "{stdout}"
    );
    assert!(stderr.contains(&line), "{stderr}");

    let (_, json, _) = merged(dir.path(), &[first.clone(), third.clone()], "json");
    let report: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["unjudged"]["shards"], serde_json::json!([2, 4, 5]));
    let missing: Vec<&str> = report["unjudged"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let expected: Vec<&str> = whole
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 == 1 || i % 5 >= 3)
        .map(|(_, name)| name.as_str())
        .collect();
    assert_eq!(
        missing, expected,
        "the cases of shards 2, 4, 5 in library order"
    );

    let (_, junit, _) = merged(dir.path(), &[first.clone(), third.clone()], "junit");
    assert_eq!(
        junit.matches("classname=\"not judged\"").count(),
        unjudged,
        "{junit}"
    );

    // A failure among the cases judged fails the merge (exit 1), missing shards or not.
    let mut failing: Value = serde_json::from_str(&first).unwrap();
    failing["results"][0]["verdict"] = "fail".into();
    failing["results"][0]["detail"] = "-a\n+b".into();
    let (code, stdout, stderr) = merged(dir.path(), &[failing.to_string(), third], "human");
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("INCOMPLETE: shards 2, 4 and 5 of 5"),
        "{stdout}"
    );
}

/// Issue 40, item 3: shards run with different `--option`s (or of different shard counts, or
/// games, or filters) merged, the report naming whichever came first. Refused, naming both.
#[test]
fn shards_of_different_plans_are_refused_naming_the_difference() {
    let dir = tempfile::tempdir().unwrap();
    let first = check(&["--format", "json", "--partition", "count:1/2"]);
    let second = check(&["--format", "json", "--partition", "count:2/2"]);
    let with = |field: &str, value: Value| {
        let mut report: Value = serde_json::from_str(&second).unwrap();
        report[field] = value;
        report.to_string()
    };
    for (other, says) in [
        (
            with("options", serde_json::json!(["rounds=3"])),
            "is of another set of --option (rounds=3) than",
        ),
        (
            with("partition", "count:2/3".into()),
            "is of another partition (count, 3 shards) than",
        ),
        (
            with("partition", "hash:2/2".into()),
            "is of another partition (hash, 2 shards) than",
        ),
        (
            with("filter", "-a".into()),
            "is of another --filter (`-a`) than",
        ),
        (
            with("games", serde_json::json!(["codevs4"])),
            "is of another set of games (codevs4) than",
        ),
        (
            with("selected", 12.into()),
            "is of another selection (12 cases selected) than",
        ),
    ] {
        let (code, stdout, stderr) = merged(dir.path(), &[first.clone(), other], "json");
        assert_eq!(code, Some(2), "{says}: {stdout}{stderr}");
        assert!(
            stderr.contains("shard-1.json ") && stderr.contains(says),
            "{stderr}"
        );
        assert!(
            stderr.contains("shard-0.json ("),
            "names the first: {stderr}"
        );
    }
    // A report that does not record its plan (an older shinpan's) cannot be checked.
    let mut old: Value = serde_json::from_str(&second).unwrap();
    old.as_object_mut().unwrap().remove("selected");
    let (code, _, stderr) = merged(dir.path(), &[first.clone(), old.to_string()], "json");
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("does not record its run's plan"),
        "{stderr}"
    );
    // A case moved into the wrong shard's report.
    let mut moved: Value = serde_json::from_str(&second).unwrap();
    let stolen = serde_json::from_str::<Value>(&first).unwrap()["results"][0].clone();
    moved["results"]
        .as_array_mut()
        .unwrap()
        .push(stolen.clone());
    let (code, _, stderr) = merged(dir.path(), &[moved.to_string()], "json");
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(&format!(
            "holds the case `{}`, which is not shard count:2/2's",
            stolen["name"].as_str().unwrap()
        )),
        "{stderr}"
    );
}

/// Issue 40, item 11: a shard that holds no case exited 3 saying the engine "answered all 0
/// cases `unsupported`". It says the shard holds none and exits 0; a merge of it alone says
/// every case is not judged, and the same empty shard given twice is refused.
#[test]
fn an_empty_shard_says_it_holds_no_case_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    let cases = crate::common::case_names(&check(&["--format", "json"])).len();
    let last = format!("count:{}/{}", cases + 1, cases + 1);
    let out = shinpan()
        .args(["check", GAME, &format!("--filter={FILTER}")])
        .args(["--format", "json", "--partition", &last])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "shard {last} holds none of the {cases} cases selected: nothing to judge in it"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("unsupported"), "{stderr}");
    let empty = String::from_utf8(out.stdout).unwrap();
    assert!(crate::common::case_names(&empty).is_empty());

    let (code, _, stderr) = merged(dir.path(), std::slice::from_ref(&empty), "json");
    assert_eq!(code, Some(3));
    assert!(
        stderr.contains(&format!(
            "shards 1-{cases} of {} not merged: {cases} of {cases} cases not judged",
            cases + 1
        )),
        "{stderr}"
    );
    let (code, _, stderr) = merged(dir.path(), &[empty.clone(), empty], "json");
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(&format!("are both shard {last}")),
        "{stderr}"
    );
}

//! Issue 40, item 2: what is at OUTPUT when it is not a regular file. `report FILE --html OUT`
//! and `diff --out FILE` wrote a temporary file beside OUT and renamed it over whatever OUT was:
//! a FIFO, a device node or a symbolic link became a regular file (as root, `--html
//! /dev/stdout` replaced the machine's `/dev/stdout` link with an 872 KB file). Now a FIFO or a
//! character device is written through, a link the user named is followed (its target
//! written, the link kept), and a file shinpan names in an output folder is never written
//! through a link or over a FIFO: refused, naming it.

use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::Command;

fn shinpan() -> Command {
    crate::common::shinpan_within(120)
}

fn run(cmd: &mut Command) -> (Option<i32>, String, String) {
    let output = cmd.output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A `check --format json` report of one passing case, written in `dir`.
fn report_in(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("check.json");
    let report = serde_json::json!({
        "shinpan_version": "0.1.0",
        "library_digest": "abc",
        "library": "built-in",
        "engine": "reference",
        "counts": {"passed": 1, "failed": 0, "errors": 0, "unsupported": 0,
                   "expected_failures": 0, "fixed": 0},
        "groups": [],
        "results": [{"name": "codevs-reborn/a/passes", "game": "codevs-reborn", "file": "a.yaml",
                     "line": 1, "rules": [], "verdict": "pass"}],
        "stopped": null
    });
    std::fs::write(&path, report.to_string()).unwrap();
    path
}

/// `report REPORT --html out`.
fn report_html(report: &Path, out: &Path) -> (Option<i32>, String, String) {
    run(shinpan().arg("report").arg(report).arg("--html").arg(out))
}

#[test]
fn report_html_into_a_fifo_writes_through_it_and_leaves_the_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_in(dir.path());
    let fifo = dir.path().join("page.html");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let (sent, received) = mpsc::channel();
    let reading = fifo.clone();
    // Left blocked on the FIFO, were shinpan never to open it: the channel's wait fails first.
    std::thread::spawn(move || {
        let _ = sent.send(std::fs::read_to_string(&reading));
    });
    let (code, stdout, stderr) = report_html(&report, &fifo);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let page = received
        .recv_timeout(Duration::from_secs(30))
        .expect("the FIFO's reader got an end")
        .unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page:.200}");
    assert!(page.trim_end().ends_with("</html>"));
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "still a FIFO: {kind:?}");
}

#[test]
fn report_html_into_dev_null_leaves_the_device() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_in(dir.path());
    let (code, stdout, stderr) = report_html(&report, Path::new("/dev/null"));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(
        kind.is_char_device(),
        "/dev/null is still a device: {kind:?}"
    );
    assert_eq!(std::fs::metadata("/dev/null").unwrap().len(), 0);
}

/// A link like `/dev/stdout` (to `/proc/self/fd/1`) in a folder of the test's own: the page
/// goes to shinpan's stdout, and the link stays a link.
#[test]
fn report_html_into_a_link_to_stdout_writes_to_stdout_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_in(dir.path());
    let stdout_link = dir.path().join("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &stdout_link).unwrap();
    let (code, stdout, stderr) = report_html(&report, &stdout_link);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("<!DOCTYPE html>"), "{stdout:.200}");
    let kind = std::fs::symlink_metadata(&stdout_link).unwrap().file_type();
    assert!(kind.is_symlink(), "still a link: {kind:?}");
}

#[test]
fn report_html_into_a_link_replaces_the_file_it_names_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_in(dir.path());
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("page.html");
    std::fs::write(&target, "an old page").unwrap();
    let link = dir.path().join("page.html");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (code, stdout, stderr) = report_html(&report, &link);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), target);
    let page = std::fs::read_to_string(&target).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page:.200}");
    let left: Vec<_> = std::fs::read_dir(elsewhere.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["page.html"], "no temporary file left");
}

#[test]
fn report_html_into_a_link_to_nothing_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_in(dir.path());
    let link = dir.path().join("page.html");
    let nowhere = dir.path().join("no/such/page.html");
    std::os::unix::fs::symlink(&nowhere, &link).unwrap();
    let (code, stdout, stderr) = report_html(&report, &link);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot write {}: it is a symbolic link to {}, which does not exist",
            link.display(),
            nowhere.display()
        )),
        "{stderr}"
    );
    assert_eq!(std::fs::read_link(&link).unwrap(), nowhere);
}

/// The example adapter with the chain score rounded: `diff` finds one departure (run 5 of
/// seed 0) in a few seconds.
fn diff_with(out: &Path) -> (Option<i32>, String, String) {
    let engine = format!(
        "python3 {}/conformance/adapters/codevs_reborn.py --bug chain-round",
        env!("CARGO_MANIFEST_DIR")
    );
    run(shinpan()
        .args(["diff", "codevs-reborn", "--engine", &engine, "--out"])
        .arg(out))
}

#[test]
fn diff_out_file_that_is_a_fifo_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("found.yaml");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let (sent, received) = mpsc::channel();
    let reading = fifo.clone();
    std::thread::spawn(move || {
        let _ = sent.send(std::fs::read_to_string(&reading));
    });
    let (code, stdout, stderr) = diff_with(&fifo);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let case = received
        .recv_timeout(Duration::from_secs(30))
        .expect("the FIFO's reader got an end")
        .unwrap();
    assert!(case.contains("needs-review: true"), "{case}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// A link where `diff --out DIR` puts a case, leading out of the folder: the file it leads to
/// is not written, the link stays, the case is printed and the run says why.
#[test]
fn diff_out_folder_never_writes_through_a_link_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let found = dir.path().join("found");
    std::fs::create_dir_all(found.join("codevs-reborn")).unwrap();
    let outside = dir.path().join("outside.yaml");
    std::fs::write(&outside, "not shinpan's").unwrap();
    let link = found.join("codevs-reborn/diff-seed-0-run-5.yaml");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let (code, stdout, stderr) = diff_with(&found);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot write {}: it is a symbolic link (to {}), which shinpan does not follow out \
             of the folder it writes in",
            link.display(),
            outside.display()
        )),
        "{stderr}"
    );
    assert!(
        stdout.contains("needs-review: true"),
        "the case is printed: {stdout}"
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "not shinpan's");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

/// `--html /dev/stdout >> log`: stdout is a file opened to append; the page is appended through
/// stdout, not written over the file (here a link of the test's own to `/proc/self/fd/1`).
#[test]
fn report_html_into_a_link_to_stdout_appended_to_a_file_appends() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_in(dir.path());
    let stdout_link = dir.path().join("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &stdout_link).unwrap();
    let log = dir.path().join("log");
    std::fs::write(&log, "earlier\n").unwrap();
    let appending = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = std::process::Command::new(assert_cmd::cargo::cargo_bin("shinpan"))
        .arg("report")
        .arg(&report)
        .arg("--html")
        .arg(&stdout_link)
        .stdout(appending)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("earlier\n<!DOCTYPE html>"), "{text:.200}");
    assert!(text.trim_end().ends_with("</html>"));
}

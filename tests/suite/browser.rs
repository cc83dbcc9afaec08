//! Headless Chromium for the tests of HTML pages (and `benches/replay_page.rs`, which includes
//! this file): finding it, opening a page from a file with no network, and reading what its
//! console said.
//!
//! Skipped, saying so, where no Chromium is installed; `.ci/run` installs it and sets
//! `SHINPAN_REQUIRE_CHROMIUM`, under which a missing browser fails the test instead.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The first Chromium on PATH.
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// What the browser made of `page`: the DOM after the script ran (and what it waited for: a
/// replay unpacks its match after the page has loaded, which virtual time lets it finish before
/// the DOM is taken), and its log. Both go to files
/// in `scratch` (a pipe left unread would stall a browser that writes more than it holds), and
/// the browser runs in a process group of its own, killed whole if it outstays two minutes.
pub fn open(browser: &Path, page: &Path, fragment: &str, scratch: &Path) -> (String, String) {
    use std::os::unix::process::CommandExt;
    let (dom, log) = (scratch.join("dom.html"), scratch.join("chromium.log"));
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-extensions",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=60000",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .arg(format!("file://{}{fragment}", page.display()))
        .stdin(Stdio::null())
        .stdout(File::create(&dom).unwrap())
        .stderr(File::create(&log).unwrap())
        .process_group(0)
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let group = nix::unistd::Pid::from_raw(child.id() as i32);
            let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
            let _ = child.wait();
            panic!("chromium did not finish in 120 s");
        }
        // Short: the replay bench times the whole run.
        std::thread::sleep(Duration::from_millis(10));
    };
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(status.success(), "{log}");
    (std::fs::read_to_string(&dom).unwrap(), log)
}

/// The browser, or `None` (the test skips itself, saying so) where none is installed and none
/// is required.
pub fn browser_or_skip() -> Option<PathBuf> {
    let browser = chromium();
    if browser.is_none() {
        let required = std::env::var_os("SHINPAN_REQUIRE_CHROMIUM").is_some();
        assert!(
            !required,
            "SHINPAN_REQUIRE_CHROMIUM is set but no chromium is on PATH"
        );
        eprintln!("skipped: no chromium, chromium-browser or google-chrome on PATH");
    }
    browser
}

/// Fails on any error the page's script or console reported.
pub fn assert_quiet(log: &str) {
    for line in log.lines() {
        assert!(
            !line.contains("Uncaught") && !line.contains("CONSOLE"),
            "the console says: {line}"
        );
    }
}

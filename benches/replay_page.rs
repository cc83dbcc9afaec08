//! The replay page of a 10,000-step log (issue 21): `play codevs4 --rounds 11` of the built-in
//! players, whose matches mostly run to the 1,000-turn limit with hundreds of units on the
//! field (the busiest logs a game gives; one of seeds 1 to 11 ends early, hence eleven), written
//! as one page by `play --format html`.
//!
//! Printed: how long `play` takes with and without the page, the page's size, and how long
//! headless Chromium takes to open it: in the page, from the start of navigation to the first
//! drawing of the step the fragment names (the first step of the first match, and the last step
//! of the last match), and on the clock, the whole browser run less that of an empty page. The
//! target: under 2 s.
//!
//! The page opened is the page `play` wrote with one script put before the viewer's, which
//! notes the time of the first drawing in the title and then drops the match data, so that the
//! DOM the browser prints at the end is small (printing 16 MB of data would be timed too).
//! Without Chromium on PATH the browser's figures are skipped, saying so.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Finding and driving Chromium, as the browser tests do.
#[path = "../tests/suite/browser.rs"]
#[allow(dead_code)]
mod browser;

const ROUNDS: &str = "11";
/// The steps the log must hold at least.
const STEPS: usize = 10_000;
const TARGET_S: f64 = 2.0;
/// Runs of each browser figure; the fastest is given.
const RUNS: usize = 3;

/// Put before the viewer's script: the time of the first drawing (and the step counter then)
/// into the title, the data dropped.
const HOOK: &str = r#"<script>(function () {
  var board = document.getElementById('board');
  var seen = new MutationObserver(function () {
    if (!board.childNodes.length) { return; }
    document.title = 'shown ' + Math.round(performance.now()) + ' ms: ' +
      document.getElementById('step').textContent;
    document.querySelectorAll('script.replay-data').forEach(function (e) { e.remove(); });
    seen.disconnect();
  });
  seen.observe(board, { childList: true });
}());</script>
"#;

fn shinpan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shinpan"))
}

/// `play codevs4 --rounds 10` into `log`, with `--format html` when `page` is given (written
/// there); the seconds it took.
fn play(log: &Path, page: Option<&Path>) -> f64 {
    let mut command = shinpan();
    command
        .args([
            "play", "codevs4", "--seed", "1", "--rounds", ROUNDS, "--log",
        ])
        .arg(log);
    if page.is_some() {
        command.args(["--format", "html"]);
    }
    command.args(["--", "builtin", "--", "builtin"]);
    let started = Instant::now();
    let output = command.output().expect("shinpan runs");
    let seconds = started.elapsed().as_secs_f64();
    assert!(
        output.status.success(),
        "play failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    if let Some(page) = page {
        std::fs::write(page, &output.stdout).expect("the page is written");
    }
    seconds
}

/// Chromium's run on `page` at `fragment` (as the browser tests run it): its seconds on the
/// clock and the page's title.
fn open(browser: &Path, page: &Path, fragment: &str, scratch: &Path) -> (f64, String) {
    let started = Instant::now();
    let (dom, _) = browser::open(browser, page, fragment, scratch);
    let seconds = started.elapsed().as_secs_f64();
    let title = dom
        .split_once("<title>")
        .and_then(|(_, rest)| rest.split_once("</title>"))
        .map_or(String::new(), |(title, _)| title.to_string());
    (seconds, title)
}

/// The milliseconds the hook put in a title.
fn shown_ms(title: &str) -> f64 {
    title
        .strip_prefix("shown ")
        .and_then(|rest| rest.split_once(" ms"))
        .and_then(|(ms, _)| ms.parse().ok())
        .unwrap_or_else(|| panic!("the page never drew a step: its title is {title:?}"))
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs the target without it.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (log, page) = (
        dir.path().join("matches.jsonl"),
        dir.path().join("page.html"),
    );
    let log_only = play(&log, None);
    let with_page = play(&log, Some(&page));
    let html = std::fs::read_to_string(&page).expect("the page is read");
    let steps: usize = html
        .split("data-steps=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next()?.parse::<usize>().ok())
        .map(|steps| steps - 1)
        .sum();
    assert!(
        steps >= STEPS,
        "the log holds {steps} steps, fewer than {STEPS}"
    );
    let mb = html.len() as f64 / (1024.0 * 1024.0);
    println!("replay page of `play codevs4 --rounds {ROUNDS}` (built-in players, seed 1)");
    println!(
        "  steps: {steps}; page: {mb:.1} MB ({:.0} bytes a step)",
        html.len() as f64 / steps as f64
    );
    println!(
        "  play: {log_only:.2} s with --log alone, {with_page:.2} s with the page ({:.2} s for the page)",
        with_page - log_only
    );
    let Some(browser) = browser::chromium() else {
        println!("  no chromium on PATH: the browser's figures are skipped");
        return;
    };
    let timed = dir.path().join("timed.html");
    let viewer = html.rfind("<script>\n").expect("the viewer's script");
    std::fs::write(
        &timed,
        format!("{}{HOOK}{}", &html[..viewer], &html[viewer..]),
    )
    .expect("the timed page is written");
    let blank = dir.path().join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><title>blank</title><p>blank</p>").unwrap();
    let baseline = (0..RUNS)
        .map(|_| open(&browser, &blank, "", dir.path()).0)
        .fold(f64::INFINITY, f64::min);
    println!("  chromium on an empty page: {baseline:.2} s (taken off the clock figures below)");
    let last = format!("#match={}&step=last", ROUNDS.parse::<usize>().unwrap() - 1);
    for (what, fragment) in [
        ("first step of the first match", ""),
        ("last step of the last match", &last[..]),
    ] {
        let mut best: Option<(f64, f64, String)> = None;
        for _ in 0..RUNS {
            let (clock, title) = open(&browser, &timed, fragment, dir.path());
            let ms = shown_ms(&title);
            if best.as_ref().is_none_or(|b| ms < b.0) {
                best = Some((ms, clock - baseline, title));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let (ms, clock, title) = best.expect("at least one run");
        let met = if ms / 1000.0 < TARGET_S && clock < TARGET_S {
            "met"
        } else {
            "NOT MET"
        };
        println!(
            "  {what}: drawn {ms:.0} ms after navigation, {clock:.2} s on the clock ({title}); target < {TARGET_S} s: {met}"
        );
    }
}

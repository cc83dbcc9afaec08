//! `play --matches … --format html`: the arena's page holds what its JSON holds (the pairs
//! with their counts and Wilson interval, one row a failure), and every failure links to a
//! replay page written beside its log, which opens in Chromium at the failing step.

use std::path::Path;
use std::time::Duration;

use shinpan::report::arena::ArenaReport;

use crate::browser::{assert_quiet, browser_or_skip, open};
use crate::common;

const FAILING_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/fails_by_seed.sh");

/// The arena of the built-in player against the failing bot (CODE VS Reborn, 20 seeds, two at
/// a time), in `format`, logged to `dir`.
fn arena(format: &str, dir: &Path) -> Vec<u8> {
    let output = common::shinpan()
        .args(["play", "codevs-reborn", "--matches", "20", "--jobs", "2"])
        .args(["--turn-ms", "300", "--format", format, "--log-dir"])
        .arg(dir)
        .args(["--", "builtin", "--", "sh", FAILING_BOT])
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(output.status.success());
    output.stdout
}

/// The `href` of each link of class `replay`.
fn replay_links(html: &str) -> Vec<String> {
    html.split("<a class=\"replay\" href=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn the_arena_page_has_the_json_content_and_links_each_failure_to_its_replay() {
    let (html_dir, json_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let html = String::from_utf8(arena("html", html_dir.path())).unwrap();
    let json: ArenaReport = serde_json::from_slice(&arena("json", json_dir.path())).unwrap();

    // The same pairs, counted alike.
    for p in &json.pairs {
        let row = html
            .split(&format!("data-pair=\"{}-{}\">", p.a + 1, p.b + 1))
            .nth(1)
            .expect("a row a pair");
        let row = row.split("</tr>").next().unwrap();
        let cells = format!(
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            p.games, p.wins, p.losses, p.draws
        );
        assert!(row.contains(&cells), "{row}");
        assert!(row.contains('–'), "an interval: {row}");
    }
    // One row a failure, each linking to the replay of its match, written beside its log.
    assert!(!json.failures.is_empty());
    assert_eq!(
        html.matches("<tr data-failure=").count(),
        json.failures.len()
    );
    let links = replay_links(&html);
    assert_eq!(links.len(), json.failures.len());
    for (link, failure) in links.iter().zip(&json.failures) {
        let (file, fragment) = link.split_once('#').unwrap();
        let log = failure.log.as_ref().unwrap().file_name().unwrap();
        let page = Path::new(log).with_extension("html");
        assert_eq!(Path::new(file), page);
        assert!(html_dir.path().join(&page).is_file(), "{link}");
        assert_eq!(fragment, format!("step={}", failure.step.unwrap_or(0)));
    }

    let Some(browser) = browser_or_skip() else {
        return;
    };
    let (file, fragment) = links[0].split_once('#').unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let page = html_dir.path().join(file);
    let (dom, log) = open(&browser, &page, &format!("#{fragment}"), scratch.path());
    assert_quiet(&log);
    let step = fragment.trim_start_matches("step=");
    assert!(
        dom.contains(&format!("id=\"step\">step {step} / ")),
        "{dom}"
    );
    assert!(dom.contains(" reply ("), "the replies at the failing step");
}

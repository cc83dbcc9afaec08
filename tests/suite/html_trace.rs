//! `trace --format html`: the replay viewer of a recorded match with its departures marked. A
//! score planted in a CODE VS Reborn log at step 20 is a tick on the timeline and a link, and
//! that step shows the score the rules expect beside the one the log shows, both highlighted;
//! Chromium opens the page at `#step=20` with that comparison in sight. An imported main.rb log
//! replays too.

use std::path::Path;
use std::process::Command;

use crate::browser::{assert_quiet, browser_or_skip, open};
use crate::trace::{plant_reborn_score, play_logged};

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");

fn trace_html(args: &[&str], log: &Path) -> (Option<i32>, String) {
    let output = Command::new(SHINPAN)
        .arg("trace")
        .args(args)
        .args(["--format", "html"])
        .arg(log)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn a_planted_departure_is_marked_on_the_timeline_and_shown_beside_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("codevs-reborn", 2, "7", &log);
    plant_reborn_score(&log);
    let (code, html) = trace_html(&["codevs-reborn"], &log);
    assert_eq!(
        code,
        Some(1),
        "a departure fails the trace as in every format"
    );
    assert!(html.contains("<datalist id=\"departure-steps\"><option value=\"20\">"));
    assert!(html.contains("<a href=\"#step=20\">step 20</a>"));
    let article = html
        .split("<article class=\"departure\" data-step=\"20\"")
        .nth(1)
        .expect("the departure's comparison");
    let article = article.split("</article>").next().unwrap();
    assert_eq!(article.matches("<svg class=\"board\"").count(), 2);
    // Each highlighted element's tag, up to its end.
    let highlighted: Vec<&str> = article
        .split("class=\"diff\"")
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap())
        .collect();
    let score = highlighted
        .iter()
        .filter(|tag| tag.contains("data-path=\"players[1].score\""))
        .count();
    assert_eq!(score, 2, "the score highlighted on both boards: {article}");

    let Some(browser) = browser_or_skip() else {
        return;
    };
    let page = dir.path().join("trace.html");
    std::fs::write(&page, &html).unwrap();
    let (dom, log) = open(&browser, &page, "#step=20", dir.path());
    assert_quiet(&log);
    assert!(dom.contains("id=\"step\">step 20 / "), "{dom}");
    assert!(
        dom.contains("<article class=\"departure\" data-step=\"20\">"),
        "the comparison of step 20 shown, not hidden"
    );
}

#[test]
fn an_imported_main_rb_log_replays_to_its_last_step() {
    let log = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tsg-auto-chess/main-rb.out"
    ));
    let (code, html) = trace_html(&["tsg-auto-chess", "--import", "main-rb"], log);
    // main.rb ends the match where the rules go on: the one departure, as in the JSON.
    assert_eq!(code, Some(1));
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("main-rb.html");
    std::fs::write(&page, &html).unwrap();
    let (dom, log) = open(&browser, &page, "#step=last", dir.path());
    assert_quiet(&log);
    // Three steps checked, and the state after the last.
    assert!(dom.contains("id=\"step\">step 3 / 3<"), "{dom}");
    assert!(dom.contains(" data-unit=\""));
}

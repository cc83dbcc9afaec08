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

/// Issue 40, item 15: a trace page with hundreds of departures drew boards for those at the
/// first 200 departure steps and said nothing of the rest. A Spring 2022 log whose every turn
/// prompt to player 0 shows one mana more than the engine had (219 steps) says how many of its
/// departures have boards, and each one past the bound says it has none.
#[test]
fn a_trace_page_says_which_departures_have_no_boards() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("spring2022", 2, "7", &log);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut planted = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            if record["event"] == "prompt" && record["player"] == 0 && record["step"] != 0 {
                let prompt = record["text"].as_str().unwrap().to_string();
                let (first, rest) = prompt.split_once('\n').unwrap();
                let (health, mana) = first.split_once(' ').unwrap();
                let mana: u64 = mana.parse().unwrap();
                record["text"] = format!("{health} {}\n{rest}", mana + 1).into();
                planted += 1;
            }
            record.to_string()
        })
        .collect();
    assert!(planted > 200, "{planted} steps planted");
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let (code, html) = trace_html(&["spring2022"], &log);
    assert_eq!(code, Some(1));

    let articles: Vec<&str> = html
        .split("<article class=\"departure\" data-step=\"")
        .skip(1)
        .map(|a| a.split("</article>").next().unwrap())
        .collect();
    let step = |article: &str| -> usize { article.split('"').next().unwrap().parse().unwrap() };
    let mut steps: Vec<usize> = articles.iter().map(|a| step(a)).collect();
    steps.dedup();
    assert!(steps.len() > 200, "{} departure steps", steps.len());
    let last_drawn = steps[199];
    let (drawn, undrawn): (Vec<&str>, Vec<&str>) =
        articles.iter().partition(|a| step(a) <= last_drawn);
    for article in &drawn {
        assert_eq!(article.matches("<svg class=\"board\"").count(), 2);
    }
    for article in &undrawn {
        assert!(!article.contains("<svg"), "{article:.300}");
        assert!(
            article.contains(
                "No boards: this page draws them at the first 200 steps with a departure only."
            ),
            "{article:.300}"
        );
    }
    let said = format!(
        "<p class=\"undrawn\" id=\"undrawn-departures\">Boards are drawn for {} of the {} \
         departures: those at the first 200 steps with a departure (to step {last_drawn}). The \
         {} at the {} steps after are listed without.</p>",
        drawn.len(),
        articles.len(),
        undrawn.len(),
        steps.len() - 200
    );
    assert!(html.contains(&said), "{said}");
}

//! The replay viewer opened in headless Chromium: a `play --log` match of every registered game
//! (its built-in players, seed 1), drawn as `play --format html` draws it. `#step=last` shows
//! the last step: the counter says the step count the log's `end` record gives, and the board
//! holds as many units, cells and drawn paths as the game draws of the last state, that state
//! worked out here by the reference engine from the seed and the replies the log holds (not
//! read from the page). `#step=1` shows step 1, with one prompt a player awaited there. No
//! console error either way. A log of several matches opens at the match its fragment names,
//! and its slider and match picker move the replay when moved as a person moves them.

use std::time::Duration;

use serde_json::Value;
use shinpan::seam::{DynGame, Marked, MatchOptions, Reply};

use crate::browser::{assert_quiet, browser_or_skip, open};

/// The log's records, one JSON value a line.
fn records(log: &str) -> Vec<Value> {
    log.lines()
        .map(|line| serde_json::from_str(line).expect("a log line is JSON"))
        .collect()
}

/// The state after the last step: the match started from the log's seed and options, each
/// step played with the replies the log records at it, in the order the rules await them.
/// Also how many players the rules awaited at step 1.
fn last_state(game: &dyn DynGame, records: &[Value]) -> (Value, usize) {
    let start = &records[0];
    let options = match start.get("options") {
        Some(Value::Object(map)) => MatchOptions(map.clone()),
        _ => MatchOptions::default(),
    };
    let seed = start["seed"].as_u64().expect("the start record has a seed");
    let mut play = game.start(seed, &options).expect("the match starts");
    let mut awaited_at_1 = 0;
    for step in 0.. {
        if play.outcome().is_some() {
            break;
        }
        let awaiting = play.awaiting();
        if step == 1 {
            awaited_at_1 = awaiting.len();
        }
        let replies: Vec<Reply> = awaiting
            .iter()
            .map(|&player| {
                let record = records
                    .iter()
                    .find(|r| {
                        r["event"] == "reply"
                            && r["step"].as_u64() == Some(step)
                            && r["player"].as_u64() == Some(player as u64)
                    })
                    .unwrap_or_else(|| panic!("no reply of player {player} at step {step}"));
                let text = record["text"].as_str().unwrap();
                Reply::Text {
                    text: text.strip_suffix('\n').unwrap_or(text).to_string(),
                    elapsed_ms: 0,
                }
            })
            .collect();
        play.step(&replies).expect("the logged replies play");
    }
    (play.state().unwrap(), awaited_at_1)
}

/// How many elements of `html` carry the attribute `name`.
fn count(html: &str, name: &str) -> usize {
    html.matches(&format!(" {name}=\"")).count()
}

/// The inside of the element whose id is `id`, up to the next tag.
fn text_of<'h>(html: &'h str, id: &str) -> &'h str {
    let at = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let rest = &html[at..];
    let start = rest.find('>').unwrap() + 1;
    &rest[start..start + rest[start..].find('<').unwrap()]
}

#[test]
fn a_played_match_of_every_game_replays_to_its_last_step_and_to_step_one() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    for game in shinpan::games::all() {
        let id = game.info().id;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("match.jsonl");
        let mut play = crate::common::shinpan();
        play.args(["play", id, "--seed", "1", "--format", "html", "--log"])
            .arg(&log);
        for _ in 0..game.info().players {
            play.args(["--", "builtin"]);
        }
        let output = play.timeout(Duration::from_secs(600)).output().unwrap();
        assert!(output.status.success(), "{id}: play failed");
        let page = dir.path().join("replay.html");
        std::fs::write(&page, &output.stdout).unwrap();

        let records = records(&std::fs::read_to_string(&log).unwrap());
        let end = records.iter().rev().find(|r| r["event"] == "end").unwrap();
        let steps = end["steps"].as_u64().expect("the end record has steps");
        let (state, awaited_at_1) = last_state(game, &records);
        let render = game.info().capabilities.render.expect("every game draws");
        let drawn = render.render(&state, &Marked::default()).unwrap();

        let (dom, log_text) = open(&browser, &page, "#step=last", dir.path());
        assert_quiet(&log_text);
        assert_eq!(
            text_of(&dom, "step"),
            format!("step {steps} / {steps}"),
            "{id}"
        );
        let board = &dom[dom.find("id=\"board\"").unwrap()..];
        let board = &board[..board.find("</svg>").unwrap()];
        for name in ["data-unit", "data-cell", "data-path"] {
            assert_eq!(count(board, name), count(&drawn, name), "{id}: {name}");
        }
        assert!(count(board, "data-path") > 0, "{id}: nothing drawn");

        let (dom, log_text) = open(&browser, &page, "#step=1", dir.path());
        assert_quiet(&log_text);
        assert_eq!(text_of(&dom, "step"), format!("step 1 / {steps}"), "{id}");
        assert_eq!(
            dom.matches(" prompt (").count(),
            awaited_at_1,
            "{id}: one prompt a player awaited at step 1"
        );
    }
}

/// The page of a log of three matches opens at the match its fragment names: its step count,
/// its last board (worked out here from its own records), its seed and its outcome, with a
/// picker of the three; `#step=1` without a match shows the first match.
#[test]
fn a_log_of_several_matches_replays_the_one_the_fragment_names() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let game = shinpan::games::by_id("spring2022").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("matches.jsonl");
    let output = crate::common::shinpan()
        .args([
            "play",
            "spring2022",
            "--rounds",
            "3",
            "--seed",
            "5",
            "--format",
            "html",
        ])
        .arg("--log")
        .arg(&log)
        .args(["--", "builtin", "--", "builtin"])
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    assert!(output.status.success(), "play failed");
    let html = String::from_utf8(output.stdout).unwrap();
    assert_eq!(html.matches("<option value=").count(), 3);
    assert_eq!(html.matches("class=\"replay-data\"").count(), 3);
    let page = dir.path().join("replay.html");
    std::fs::write(&page, &html).unwrap();

    let all = records(&std::fs::read_to_string(&log).unwrap());
    let of_match = |m: u64| -> Vec<Value> {
        all.iter()
            .filter(|r| r["match"].as_u64() == Some(m))
            .cloned()
            .collect()
    };
    let third = of_match(2);
    let end = third.iter().find(|r| r["event"] == "end").unwrap();
    let steps = end["steps"].as_u64().unwrap();
    let (state, _) = last_state(game, &third);
    let drawn = game
        .info()
        .capabilities
        .render
        .unwrap()
        .render(&state, &Marked::default())
        .unwrap();

    let (dom, log_text) = open(&browser, &page, "#match=2&step=last", dir.path());
    assert_quiet(&log_text);
    assert_eq!(text_of(&dom, "step"), format!("step {steps} / {steps}"));
    let board = &dom[dom.find("id=\"board\"").unwrap()..];
    let board = &board[..board.find("</svg>").unwrap()];
    for name in ["data-unit", "data-cell", "data-path"] {
        assert_eq!(count(board, name), count(&drawn, name), "{name}");
    }
    let facts = &dom[dom.find("id=\"match-facts\"").unwrap()..];
    let facts = &facts[..facts.find("</dl>").unwrap()];
    let seed = third[0]["seed"].as_u64().unwrap();
    assert!(facts.contains("<dt>match</dt><dd>2</dd>"), "{facts}");
    assert!(
        facts.contains(&format!("<dt>seed</dt><dd>{seed}</dd>")),
        "{facts}"
    );
    assert_eq!(text_of(&dom, "outcome"), end["outcome"].to_string());

    let first = of_match(0);
    let first_steps = first.iter().find(|r| r["event"] == "end").unwrap()["steps"]
        .as_u64()
        .unwrap();
    let (dom, log_text) = open(&browser, &page, "#step=1", dir.path());
    assert_quiet(&log_text);
    assert_eq!(text_of(&dom, "step"), format!("step 1 / {first_steps}"));
    assert!(dom.contains("<dt>match</dt><dd>0</dd>"));

    // The slider and the picker, moved as a person moves them (their `input` and `change`
    // events), once the first match is unpacked: the slider shows step 5 of the first match,
    // the picker the first step of the second.
    let second = of_match(1);
    let second_steps = second.iter().find(|r| r["event"] == "end").unwrap()["steps"]
        .as_u64()
        .unwrap();
    let person = r#"<script>(function move() {
  if (!document.getElementById('unpacking').hidden) { setTimeout(move, 20); return; }
  var slider = document.getElementById('slider');
  slider.value = '5';
  slider.dispatchEvent(new Event('input'));
  document.body.setAttribute('data-after-slider', document.getElementById('step').textContent);
  var picker = document.getElementById('match');
  picker.value = '1';
  picker.dispatchEvent(new Event('change'));
}());</script>
</body>"#;
    let moved = html.replacen("</body>", person, 1);
    let page = dir.path().join("moved.html");
    std::fs::write(&page, moved).unwrap();
    let (dom, log_text) = open(&browser, &page, "", dir.path());
    assert_quiet(&log_text);
    assert!(
        dom.contains(&format!("data-after-slider=\"step 5 / {first_steps}\"")),
        "the slider did not move the replay"
    );
    assert_eq!(text_of(&dom, "step"), format!("step 0 / {second_steps}"));
    assert!(
        dom.contains("<dt>match</dt><dd>1</dd>"),
        "the picker did not show match 1"
    );

    // A browser without `DecompressionStream` says so, without a script error.
    let viewer = html.rfind("<script>\n").unwrap();
    let old_browser = format!(
        "{}<script>window.DecompressionStream = undefined;</script>\n{}",
        &html[..viewer],
        &html[viewer..]
    );
    let page = dir.path().join("old-browser.html");
    std::fs::write(&page, old_browser).unwrap();
    let (dom, log_text) = open(&browser, &page, "", dir.path());
    assert_quiet(&log_text);
    assert!(
        text_of(&dom, "unpacking").starts_with("This browser cannot unpack the replay"),
        "{}",
        text_of(&dom, "unpacking")
    );
}

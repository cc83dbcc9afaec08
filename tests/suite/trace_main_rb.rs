//! Issue 39: a TSG AUTO CHESS match recorded from main.rb itself, judged from its first step to
//! its last. `trace` models main.rb from step 0 (its grid, which the prompts never show, carried
//! step by step), so a departure that shows hundreds of steps after it happened (a ghost, a unit
//! an evolve consumed, a unit bought and never moved) is still named, and only by a clause
//! main.rb breaks.
//!
//! The recordings were made with `shinpan tap` between main.rb (fiord/tsg-auto-chess, run from
//! a scratch folder) and the bots in `tests/fixtures/tsg-auto-chess/`:
//! - `main-rb-odd-1000`: `odd_bot.py 21 40 0.1` against `odd_bot.py 22 150 0.8`, 1,000 turns;
//!   both players buy past the unit limit and onto taken cells, evolve (`evolve X X X` too),
//!   send `evolve K K K` on their own king (turns 40 and 150) and then buy with the range
//!   measured from another unit, and pad move lines with a fourth word;
//! - `main-rb-kingless`: `kingless_bot.py` (`evolve K K K` at turn 0, then a buy with an empty
//!   list, on which main.rb crashes) against `odd_bot.py 5 -1 0.8`.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::trace::trace_engine;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tsg-auto-chess");

/// The clauses `rules.yaml` records a main.rb departure of: read from the library's text, not
/// from what the code under test names.
fn main_rb_clauses() -> BTreeSet<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/cases/tsg-auto-chess/rules.yaml"
    ))
    .unwrap();
    let rules: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    rules["clauses"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter(|c| c["departures"]["main.rb"].is_string())
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

fn trace_fixture(name: &str) -> (Option<i32>, Value) {
    let dir = Path::new(FIXTURES).join(name);
    let (p0, p1) = (dir.join("p0.jsonl"), dir.join("p1.jsonl"));
    trace_engine("tsg-auto-chess", Some("main.rb"), &[&p0, &p1])
}

#[test]
fn a_busy_thousand_step_main_rb_match_is_explained_field_by_field_by_clauses_main_rb_breaks() {
    let (code, report) = trace_fixture("main-rb-odd-1000");
    assert_eq!(code, Some(1), "main.rb departs");
    assert_eq!(report["complete"], true, "{}", report["stopped"]);
    assert_eq!(report["steps"], 1000);
    assert_eq!(report["steps_in_log"], 1000);
    let main_rb = main_rb_clauses();
    let departures = report["departures"].as_array().unwrap();
    assert!(
        departures.len() > 1000,
        "a busy match: {}",
        departures.len()
    );
    let mut named: BTreeSet<String> = BTreeSet::new();
    for d in departures {
        assert_eq!(d["unexplained"], serde_json::json!([]), "{d:#}");
        assert_eq!(d["catalogued"], true, "{d:#}");
        let clause = d["clause"].as_str().unwrap().to_string();
        assert!(
            main_rb.contains(&clause),
            "{clause} is no main.rb departure: {d:#}"
        );
        for c in d["reproduced"].as_array().unwrap() {
            assert!(main_rb.contains(c.as_str().unwrap()), "{c}: {d:#}");
        }
        named.insert(clause);
    }
    // What the bots did, named: a fourth word on a move line (main.rb moves the unit), buys
    // measured from a unit other than the deleted king, `evolve K K K` itself, and what main.rb
    // keeps and never shows (units bought off its grid).
    for clause in [
        "reply.malformed-move",
        "buy.range",
        "evolve.three-own-units",
        "buy.placed-at-once",
        "board.size",
        "buy.frame",
    ] {
        assert!(named.contains(clause), "{clause} never named: {named:?}");
    }
    let late = departures
        .iter()
        .filter(|d| d["step"].as_u64().unwrap() > 900)
        .count();
    assert!(late > 0, "departures are named to the end of the match");
}

#[test]
fn main_rb_crashing_on_a_buy_with_an_empty_list_is_the_engines_failure() {
    let (code, report) = trace_fixture("main-rb-kingless");
    assert_eq!(code, Some(1), "{report:#}");
    let failed = report["engine_failed"].as_str().unwrap();
    assert!(
        failed.starts_with("step 1: player 0 bought with an empty unit list"),
        "{failed}"
    );
    assert_eq!(report["complete"], true, "every step there was is checked");
    // Step 1 shows both players' turn 0: player 1's buy read in the absolute frame, and player
    // 0's king deleted by `evolve K K K`; each named by the way of main.rb that gives it.
    let clauses: Vec<&str> = report["departures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["step"] == 1)
        .flat_map(|d| d["reproduced"].as_array().unwrap())
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(clauses.contains(&"evolve.three-own-units"), "{clauses:?}");
    assert!(clauses.contains(&"buy.frame"), "{clauses:?}");
}

/// A log that starts late (a tap attached at turn 30): main.rb is modelled from the first
/// prompts it holds, and the report says that what main.rb kept of the turns before is not
/// known; every step the log holds is still checked.
#[test]
fn a_main_rb_log_that_starts_late_is_judged_from_there_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for player in ["p0", "p1"] {
        let text = std::fs::read_to_string(
            Path::new(FIXTURES)
                .join("main-rb-odd-1000")
                .join(format!("{player}.jsonl")),
        )
        .unwrap();
        let mut kept: Vec<&str> = Vec::new();
        let mut prompts = 0;
        let mut late = false;
        for line in text.lines() {
            let record: Value = serde_json::from_str(line).unwrap();
            let event = record["event"].as_str().unwrap();
            if event == "prompt" {
                prompts += 1;
                late = late || record["text"].as_str().unwrap().starts_with("30\n");
            }
            // The start record and the name before the first prompt; then turn 30 on.
            if late || prompts == 0 {
                kept.push(line);
            }
        }
        let path = dir.path().join(format!("{player}.jsonl"));
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
        paths.push(path);
    }
    let (code, report) = trace_engine("tsg-auto-chess", Some("main.rb"), &[&paths[0], &paths[1]]);
    assert_eq!(code, Some(1), "main.rb departs: {}", report["stopped"]);
    assert_eq!(report["complete"], true, "{}", report["stopped"]);
    assert_eq!(report["steps"], 970);
    let notes: Vec<&str> = report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("the log starts at turn 30, not at the match's start")),
        "{notes:?}"
    );
}

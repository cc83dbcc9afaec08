//! `shinpan tap` and `shinpan trace`: one planted change in a recording is reported at exactly
//! its step, with its field and clauses; a tap forwards bytes unchanged, passes its bot's exit
//! status through, and leaves a readable log when it is killed mid-match, which trace reads as
//! incomplete. That a match recorded on the reference engine traces clean, for every game, is
//! in `every_game.rs`.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::common;

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

pub(crate) fn play_logged(game: &str, players: usize, seed: &str, log: &Path) {
    let mut cmd = Command::new(SHINPAN);
    cmd.args(["play", game, "--seed", seed, "--log"]).arg(log);
    for _ in 0..players {
        cmd.args(["--", "builtin"]);
    }
    let status = cmd.status().unwrap();
    assert!(status.success());
}

fn trace(game: &str, logs: &[&Path]) -> (Option<i32>, Value) {
    trace_engine(game, None, logs)
}

/// [`trace`] of a log recorded by `engine`, whose known departures are played.
pub(crate) fn trace_engine(
    game: &str,
    engine: Option<&str>,
    logs: &[&Path],
) -> (Option<i32>, Value) {
    let mut cmd = Command::new(SHINPAN);
    cmd.args(["trace", game, "--format", "json"]);
    if let Some(engine) = engine {
        cmd.args(["--engine-known", engine]);
    }
    let output = cmd.args(logs).output().unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    (output.status.code(), report)
}

/// One departure planted in a CODE VS Reborn recording: in step 20's prompt to player 1, the
/// turn block's fifth line (player 1's own score) one more than the engine showed.
pub(crate) fn plant_reborn_score(log: &Path) {
    plant(log, 1, 20, |prompt| {
        let mut lines: Vec<String> = prompt.lines().map(str::to_string).collect();
        let score: u64 = lines[4].parse().unwrap();
        lines[4] = (score + 1).to_string();
        lines.join("\n") + "\n"
    });
}

/// Rewrites the text of the `n`-th prompt record of `player` in a log with `change`.
pub(crate) fn plant(log: &Path, player: u64, n: usize, change: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(log).unwrap();
    let mut seen = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            if record["event"] == "prompt" && record["player"] == player {
                if seen == n {
                    let changed = change(record["text"].as_str().unwrap());
                    record["text"] = changed.into();
                }
                seen += 1;
            }
            record.to_string()
        })
        .collect();
    std::fs::write(log, lines.join("\n") + "\n").unwrap();
}

#[test]
fn one_planted_score_in_a_reborn_recording_is_named_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("codevs-reborn", 2, "7", &log);
    plant_reborn_score(&log);
    let (code, report) = trace("codevs-reborn", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(first["step"], 20, "{report:#}");
    assert_eq!(first["fields"], serde_json::json!(["players[1].score"]));
    let clauses: Vec<&str> = first["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        clauses.iter().any(|c| c.starts_with("score.")),
        "{clauses:?}"
    );
}

#[test]
fn one_planted_robot_count_in_a_cedec_recording_is_named_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("cedec2013", 3, "7", &log);
    // Player 2's 10th request: the first tile owned by somebody gets one robot more.
    plant(&log, 2, 10, |prompt| {
        let mut done = false;
        prompt
            .lines()
            .map(|line| {
                let fields: Vec<&str> = line.split(' ').collect();
                if !done && fields.len() == 7 && fields[2] != "-1" {
                    done = true;
                    let robots: u32 = fields[3].parse().unwrap();
                    let mut changed: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
                    changed[3] = (robots + 1).to_string();
                    return changed.join(" ") + "\n";
                }
                format!("{line}\n")
            })
            .collect()
    });
    let (code, report) = trace("cedec2013", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    // Round 0 is three name steps; player 2's 10th request comes at step 3 * 10 + 2.
    assert_eq!(first["step"], 32, "{report:#}");
    assert_eq!(first["player"], 2);
    let field = first["fields"][0].as_str().unwrap();
    assert!(
        field.starts_with("tiles.") && field.ends_with(".robots"),
        "{field}"
    );
}

/// The clauses a departure names.
fn clauses_of(departure: &Value) -> Vec<&str> {
    departure["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

/// Rewrites line `line` (0-based) of a TSG AUTO CHESS prompt with `change`.
fn tsg_line(prompt: &str, line: usize, change: impl Fn(&str) -> String) -> String {
    let mut lines: Vec<String> = prompt.lines().map(str::to_string).collect();
    lines[line] = change(&lines[line]);
    lines.join("\n") + "\n"
}

#[test]
fn one_planted_gold_in_a_tsg_recording_is_named_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("tsg-auto-chess", 2, "7", &log);
    // Step 20's prompt to player 1: the fourth line is `MY_GOLD ENEMY_GOLD`.
    plant(&log, 1, 20, |prompt| {
        tsg_line(prompt, 3, |golds| {
            let (mine, theirs) = golds.split_once(' ').unwrap();
            format!("{} {theirs}", mine.parse::<i64>().unwrap() + 1)
        })
    });
    let (code, report) = trace("tsg-auto-chess", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(first["step"], 20, "{report:#}");
    assert_eq!(first["player"], 1);
    assert_eq!(first["fields"], serde_json::json!(["players[1].gold"]));
    let clauses = clauses_of(first);
    assert!(
        clauses.iter().any(|c| c.starts_with("gold.")),
        "{clauses:?}"
    );
}

#[test]
fn one_planted_hp_in_a_tsg_recording_is_named_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("tsg-auto-chess", 2, "7", &log);
    // Step 30's prompt to player 0: the ninth line is its king, `0 KING HP ATK X Y`.
    plant(&log, 0, 30, |prompt| {
        tsg_line(prompt, 8, |king| {
            let mut words: Vec<String> = king.split(' ').map(str::to_string).collect();
            assert_eq!(words[1], "KING");
            words[2] = (words[2].parse::<i64>().unwrap() - 1).to_string();
            words.join(" ")
        })
    });
    let (code, report) = trace("tsg-auto-chess", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(first["step"], 30, "{report:#}");
    assert_eq!(first["player"], 0);
    // Units are named by id, wherever they stand in the list.
    assert_eq!(first["fields"], serde_json::json!(["units[#0].hp"]));
    let clauses = clauses_of(first);
    assert!(
        clauses.iter().any(|c| c.starts_with("attack.")),
        "{clauses:?}"
    );
}

/// A short match written by hand in the form of main.rb's standard output (TSG AUTO CHESS).
const MAIN_RB_LOG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/tsg-auto-chess/main-rb.out"
);

fn trace_imported(log: &Path) -> (Option<i32>, Value) {
    let output = Command::new(SHINPAN)
        .args([
            "trace",
            "tsg-auto-chess",
            "--import",
            "main-rb",
            "--format",
            "json",
        ])
        .arg(log)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    (output.status.code(), report)
}

#[test]
fn main_rb_standard_output_imports_and_traces() {
    let (code, report) = trace_imported(Path::new(MAIN_RB_LOG));
    // Three turns, then main.rb's result: main.rb ended the match where the rules go on. The
    // log is whole (every step checked); the early end is the one departure.
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(report["steps"], 3, "{report:#}");
    assert_eq!(report["complete"], true, "{report:#}");
    let departures = report["departures"].as_array().unwrap();
    assert_eq!(departures.len(), 1, "{report:#}");
    assert_eq!(departures[0]["fields"], serde_json::json!(["outcome"]));
    // Without the result, the log is cut short: incomplete (exit 3), never a pass.
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.out");
    let text = std::fs::read_to_string(MAIN_RB_LOG).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('[') && !l.starts_with("log was dumped"))
        .collect();
    std::fs::write(&cut, kept.join("\n") + "\n").unwrap();
    let (code, report) = trace_imported(&cut);
    assert_eq!(code, Some(3), "{report:#}");
    assert_eq!(report["complete"], false, "{report:#}");
    assert!(
        report["stopped"].as_str().unwrap().contains("cut short"),
        "{report:#}"
    );
}

#[test]
fn a_king_off_its_start_in_an_imported_main_rb_log_is_named_at_step_0() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("main-rb.out");
    let text = std::fs::read_to_string(MAIN_RB_LOG).unwrap();
    // Player 0's king shown one row up in its first prompt (and only there).
    let changed = text.replacen(
        "alpha in:0 KING 100 20 7 0\n",
        "alpha in:0 KING 100 20 7 1\n",
        1,
    );
    assert_ne!(changed, text);
    std::fs::write(&log, changed).unwrap();
    let (code, report) = trace_imported(&log);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(
        (&first["step"], &first["player"]),
        (&0.into(), &0.into()),
        "{report:#}"
    );
    assert_eq!(first["fields"], serde_json::json!(["units[#0].y"]));
}

#[test]
fn an_import_of_an_unknown_format_is_a_usage_error() {
    let output = Command::new(SHINPAN)
        .args(["trace", "codevs-reborn", "--import", "main-rb", MAIN_RB_LOG])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("codevs-reborn has no importer for \"main-rb\"; known: none"),
        "{stderr}"
    );
    // A game with an importer names the formats it knows.
    let output = Command::new(SHINPAN)
        .args([
            "trace",
            "tsg-auto-chess",
            "--import",
            "main.rb",
            MAIN_RB_LOG,
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("tsg-auto-chess has no importer for \"main.rb\"; known: main-rb"),
        "{stderr}"
    );
}

#[test]
fn tapped_bots_record_a_match_that_traces_clean() {
    let dir = tempfile::tempdir().unwrap();
    let logs = [dir.path().join("p0.jsonl"), dir.path().join("p1.jsonl")];
    let mut cmd = Command::new(SHINPAN);
    cmd.args(["play", "codevs-reborn", "--seed", "2", "--turn-ms", "5000"]);
    for (player, log) in logs.iter().enumerate() {
        // Inside `play`'s command lines, which split on `--`, the bot follows tap's options.
        cmd.args([
            "--",
            SHINPAN,
            "tap",
            "--player",
            &player.to_string(),
            "--log",
        ])
        .arg(log)
        .args([common::python3(), &format!("{BOTS}/good.py")]);
    }
    assert!(cmd.status().unwrap().success());
    let (code, report) = trace("codevs-reborn", &[&logs[0], &logs[1]]);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(report["steps"].as_u64().unwrap() > 10);
}

#[test]
fn a_tap_forwards_bytes_unchanged_and_passes_the_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tap.jsonl");
    let mut child = Command::new(SHINPAN)
        .args(["tap", "--log"])
        .arg(&log)
        .args(["--", "sh", "-c", "cat; exit 7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let bytes: Vec<u8> = (0..=255u8).chain(b"\r\nend\n".iter().copied()).collect();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let mut echoed = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut echoed)
        .unwrap();
    assert_eq!(echoed, bytes, "not one byte changed");
    assert_eq!(child.wait().unwrap().code(), Some(7));
    let records = std::fs::read_to_string(&log).unwrap();
    assert!(records.contains(r#""event":"end""#) && records.contains(r#""status":7"#));
}

#[test]
fn a_killed_tap_leaves_a_log_trace_can_read_up_to_the_kill() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tap.jsonl");
    let mut child = Command::new(SHINPAN)
        .args(["tap", "--player", "0", "--log"])
        .arg(&log)
        .args(["--", common::python3(), &format!("{BOTS}/good.py")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // The first prompt of a CODE VS Reborn match, from a recording of the reference engine.
    let recorded = dir.path().join("match.jsonl");
    play_logged("codevs-reborn", 2, "3", &recorded);
    let first_prompt = std::fs::read_to_string(&recorded)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["event"] == "prompt" && r["player"] == 0)
        .unwrap()["text"]
        .as_str()
        .unwrap()
        .to_string();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(first_prompt.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut reply = [0u8; 64];
    let _ = stdout.read(&mut reply).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    child.kill().unwrap();
    let _ = child.wait();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(r#""event":"prompt""#), "{text}");
    // Whatever the kill cut, trace reads the log: the match is unfinished, and the log, with no
    // `end` record, incomplete (exit 3, not a pass).
    let (code, report) = trace("codevs-reborn", &[&log]);
    assert_eq!(code, Some(3), "{report:#}");
    assert!(
        report["stopped"]
            .as_str()
            .unwrap_or_default()
            .contains("player 0's record stops at line"),
        "{report:#}"
    );
    assert!(
        report["stopped"].as_str().unwrap().contains("cut short"),
        "{report:#}"
    );
}

#[test]
fn one_planted_hp_in_a_codevs4_recording_is_named_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("codevs4", 2, "7", &log);
    // Step 20's prompt to player 0: after the time, stage, turn, resources and the count of
    // own units, the sixth line is its castle (unit 0, `id y x hp type`), one HP less.
    plant(&log, 0, 20, |prompt| {
        let mut lines: Vec<String> = prompt.lines().map(str::to_string).collect();
        let mut castle: Vec<String> = lines[5].split(' ').map(str::to_string).collect();
        assert_eq!((castle[0].as_str(), castle[4].as_str()), ("0", "4"));
        let hp: i32 = castle[3].parse().unwrap();
        castle[3] = (hp - 1).to_string();
        lines[5] = castle.join(" ");
        lines.join("\n") + "\n"
    });
    // The first 40 steps are enough (and trace quicker than the whole stage); the log, cut
    // there without its `end` record, is incomplete, and a departure still fails the run.
    let text = std::fs::read_to_string(&log).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            record["event"] != "end" && record["step"].as_u64().is_none_or(|step| step < 40)
        })
        .collect();
    std::fs::write(&log, kept.join("\n") + "\n").unwrap();
    let (code, report) = trace("codevs4", &[&log]);
    assert_eq!(report["complete"], false, "{report:#}");
    assert_eq!(
        code,
        Some(1),
        "a departure fails even a cut log: {report:#}"
    );
    let first = &report["departures"][0];
    assert_eq!(first["step"], 20, "{report:#}");
    assert_eq!(first["player"], 0);
    assert_eq!(first["fields"], serde_json::json!(["units.0.hp"]));
    assert_eq!(first["clauses"][0], "battle.damage-table", "{report:#}");
}

/// D-codevs4-13: the resource cells of a CODE VS 4.0 prompt come in no fixed order (the official
/// client did not sort them). A recording whose every prompt lists them in the reverse of
/// shinpan's (y, x) order traces clean.
#[test]
fn a_codevs4_recording_with_resource_cells_in_another_order_traces_clean() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("codevs4", 2, "7", &log);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut reordered = 0;
    // The first 200 steps are plenty (and trace quicker than the whole stage). The log then
    // ends before the match does, so it drops the `end` record: trace calls it incomplete
    // (exit 3), and what matters here is that no step departs.
    let lines: Vec<String> = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|record| record["event"] != "end")
        .filter(|record| record["step"].as_u64().is_none_or(|step| step < 200))
        .map(|mut record| {
            if record["event"] == "prompt" {
                let prompt = record["text"].as_str().unwrap().to_string();
                let changed = reverse_resource_cells(&prompt);
                reordered += usize::from(changed != prompt);
                record["text"] = changed.into();
            }
            record.to_string()
        })
        .collect();
    assert!(
        reordered > 10,
        "prompts with two or more cells: {reordered}"
    );
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let (code, report) = trace("codevs4", &[&log]);
    assert_eq!(code, Some(3), "{report:#}");
    assert_eq!(report["departures"], serde_json::json!([]), "{report:#}");
    assert_eq!(report["steps"], 200, "{report:#}");
}

/// A CODE VS 4.0 prompt with the lines of its last list, the resource cells (`y x` lines before
/// `END`, after their count), in reverse order.
fn reverse_resource_cells(prompt: &str) -> String {
    let mut lines: Vec<&str> = prompt.lines().collect();
    let end = lines.len() - 1;
    assert_eq!(lines[end], "END");
    let start = (0..end)
        .rev()
        .find(|&i| lines[i].parse::<usize>() == Ok(end - i - 1))
        .unwrap();
    lines[start + 1..end].reverse();
    lines.join("\n") + "\n"
}

#[test]
fn one_planted_mana_in_a_spring_recording_is_named_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("spring2022", 2, "7", &log);
    // Player 1's 40th prompt (no start block after turn 1): its first line is its own base
    // health and mana; one mana more.
    plant(&log, 1, 40, |prompt| {
        let mut lines: Vec<String> = prompt.lines().map(str::to_string).collect();
        let (health, mana) = lines[0].split_once(' ').unwrap();
        let mana: i32 = mana.parse().unwrap();
        lines[0] = format!("{health} {}", mana + 1);
        lines.join("\n") + "\n"
    });
    let (code, report) = trace("spring2022", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(first["step"], 40, "{report:#}");
    assert_eq!(first["player"], 1);
    assert_eq!(first["fields"], serde_json::json!(["players[1].mana"]));
    assert_eq!(first["clauses"][0], "combat.mana", "{report:#}");
}

#[test]
fn one_planted_hero_position_in_a_spring_recording_is_named_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("spring2022", 2, "7", &log);
    // Player 0's 30th prompt: its hero 0 (`0 1 x y ...`) one to the right.
    plant(&log, 0, 30, |prompt| {
        prompt
            .lines()
            .map(|line| match line.strip_prefix("0 1 ") {
                Some(rest) => {
                    let (x, rest) = rest.split_once(' ').unwrap();
                    let x: i32 = x.parse().unwrap();
                    format!("0 1 {} {rest}\n", x + 1)
                }
                None => format!("{line}\n"),
            })
            .collect()
    });
    let (code, report) = trace("spring2022", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(first["step"], 30, "{report:#}");
    assert_eq!(first["player"], 0);
    assert_eq!(first["fields"], serde_json::json!(["heroes[0].x"]));
    assert_eq!(first["clauses"][0], "move.step", "{report:#}");
}

/// A match of TSG's official engine (main.rb, seed 3, two random bots wrapped in `shinpan tap`):
/// every departure of main.rb it shows is named at its step by the clause whose known
/// departure, played by the reference, shows what main.rb showed — and nothing else starts a
/// departure.
#[test]
fn main_rb_departures_are_named_by_playing_them() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tsg-auto-chess/main-rb-seed3"
    );
    let (p0, p1) = (format!("{dir}/p0.jsonl"), format!("{dir}/p1.jsonl"));
    let (code, report) = trace_engine(
        "tsg-auto-chess",
        Some("main.rb"),
        &[Path::new(&p0), Path::new(&p1)],
    );
    assert_eq!(code, Some(1));
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    };
    let found: Vec<(u64, Vec<String>, Vec<String>)> = report["departures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["follows_from"].is_null())
        .map(|d| {
            (
                d["step"].as_u64().unwrap(),
                strings(&d["reproduced"]),
                strings(&d["clauses"]),
            )
        })
        .collect();
    // Grouped by the clause they break: step 13's second move.once follows from step 7, and
    // step 16 is main.rb ending the match where the rules go on.
    let steps: Vec<u64> = found.iter().map(|(s, _, _)| *s).collect();
    assert_eq!(steps, [0, 1, 7, 9, 11, 16], "{found:?}");
    let reproduced = |step: u64| &found.iter().find(|(s, _, _)| *s == step).unwrap().1;
    assert_eq!(reproduced(0), &["board.size", "board.kings-start"]);
    assert_eq!(reproduced(7), &["move.once"]);
    // main.rb is played as a whole from the first step: a later departure is reproduced with
    // what earlier ones left, and named by the clause no earlier departure broke.
    let clause = |step: u64| {
        report["departures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["step"] == step && d["follows_from"].is_null())
            .unwrap()["clause"]
            .clone()
    };
    assert_eq!(clause(9), "removal.dead");
    assert!(reproduced(9).contains(&"removal.dead".to_string()));
    assert_eq!(clause(11), "evolve.result");
    assert_eq!(report["complete"], true, "{report:#}");
    // Every departure is named by a catalogued one.
    for c in report["by_clause"].as_array().unwrap() {
        assert_eq!(c["unexplained"], 0, "{report:#}");
    }
    // A prompt unlike the reference's over the same state: player 2's frame on main.rb's board.
    let prompt = found.iter().find(|(s, _, _)| *s == 1).unwrap();
    assert_eq!(prompt.2, ["board.frames"]);
}

/// Runs `trace` with `args` and returns its exit code and its JSON report (`Value::Null` when
/// it refused the log before checking).
fn trace_args(args: &[&str]) -> (Option<i32>, Value, String) {
    let output = Command::new(SHINPAN)
        .arg("trace")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (
        output.status.code(),
        report,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Issue 23, item 6: tried as a hostile user would, trace passed (exit 0, "0 steps checked")
/// on logs it could not check. Each is now refused before checking (exit 2) or incomplete
/// (exit 3), never a pass.
#[test]
fn a_log_trace_cannot_check_whole_is_refused_or_incomplete_never_passed() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.jsonl");
    play_logged("tsg-auto-chess", 2, "7", &good);
    let text = std::fs::read_to_string(&good).unwrap();
    let write = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path.to_str().unwrap().to_string()
    };
    let empty = write("empty.jsonl", "");
    let lines: Vec<&str> = text.lines().collect();
    let truncated = write("cut.jsonl", &(lines[..lines.len() / 2].join("\n") + "\n"));
    let other_game = write(
        "reborn.jsonl",
        &text.replace("tsg-auto-chess", "codevs-reborn"),
    );
    let version = write("v9.jsonl", &text.replacen("\"trace\":1", "\"trace\":9", 1));
    let seat = write("seat.jsonl", &text.replace("\"player\":1", "\"player\":7"));
    let not_main_rb = write(
        "not-main-rb.out",
        "hello\nworld\nthis is no main.rb output\n",
    );
    let good = good.to_str().unwrap().to_string();
    let cases: Vec<(&str, Vec<&str>, i32)> = vec![
        ("an empty log", vec!["tsg-auto-chess", &empty], 3),
        (
            "--match 99",
            vec!["tsg-auto-chess", &good, "--match", "99"],
            3,
        ),
        ("a truncated log", vec!["tsg-auto-chess", &truncated], 3),
        (
            "a non-main.rb file imported as main-rb",
            vec!["tsg-auto-chess", "--import", "main-rb", &not_main_rb],
            3,
        ),
        ("another game's log", vec!["tsg-auto-chess", &other_game], 2),
        (
            "the same log twice",
            vec!["tsg-auto-chess", &good, &good],
            2,
        ),
        ("a player out of range", vec!["tsg-auto-chess", &seat], 2),
        (
            "a log version it does not know",
            vec!["tsg-auto-chess", &version],
            2,
        ),
    ];
    for (what, args, expected) in cases {
        let (code, report, stderr) = trace_args(&args);
        assert_eq!(code, Some(expected), "{what}: {report:#} {stderr}");
        if expected == 3 {
            assert_eq!(report["complete"], false, "{what}: {report:#}");
            assert!(report["stopped"].is_string(), "{what}: {report:#}");
        } else {
            assert!(!stderr.is_empty(), "{what}");
        }
    }
    // The whole log passes, and says that every step was checked.
    let (code, report, _) = trace_args(&["tsg-auto-chess", &good]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["steps"], report["steps_in_log"], "{report:#}");
    assert_eq!(report["agreeing"], report["steps"], "{report:#}");
}

/// Issue 23, item 7: JUnit shows an incomplete trace as an error, and the human report says
/// at a glance whether every step was checked.
#[test]
fn an_incomplete_trace_is_a_junit_error_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("tsg-auto-chess", 2, "7", &log);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&log, lines[..lines.len() / 2].join("\n") + "\n").unwrap();
    let output = Command::new(SHINPAN)
        .args(["trace", "tsg-auto-chess", "--format", "junit"])
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let junit = String::from_utf8_lossy(&output.stdout);
    assert!(junit.contains("<error"), "{junit}");
    let output = Command::new(SHINPAN)
        .args(["trace", "tsg-auto-chess"])
        .arg(&log)
        .output()
        .unwrap();
    let human = String::from_utf8_lossy(&output.stdout);
    assert!(human.contains("INCOMPLETE"), "{human}");
    assert!(human.contains("cut short"), "{human}");
    // Said once on the closing line, not "INCOMPLETE: INCOMPLETE:".
    assert!(!human.contains("INCOMPLETE: INCOMPLETE"), "{human}");
    assert!(
        human.lines().last().unwrap().starts_with("INCOMPLETE: "),
        "{human}"
    );
}

/// Issue 23, item 1: a malformed prompt at step 5 stopped the trace ("the trace stops here",
/// exit 0). It is a departure now, and the trace goes on to the log's end.
#[test]
fn a_malformed_prompt_is_a_departure_and_the_trace_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("tsg-auto-chess", 2, "7", &log);
    plant(&log, 0, 5, |_| "this is no prompt\n".to_string());
    let (code, report) = trace("tsg-auto-chess", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(report["complete"], true, "{report:#}");
    assert_eq!(report["steps"], report["steps_in_log"], "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(
        (&first["step"], &first["fields"][0]),
        (&5.into(), &"prompt".into())
    );
    assert_eq!(
        report["departures"].as_array().unwrap().len(),
        1,
        "{report:#}"
    );
}

const SPRING_FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/spring2022");

/// A referee game recorded by the unmodified Spring Challenge 2022 referee
/// (`tests/fixtures/spring2022/*.json`, see tests/spring2022_replay.rs) written as a trace log:
/// a start record (naming the league when `name_league`), each turn's prompts and replies, and
/// each player's end.
fn spring_referee_log(fixture: &str, name_league: bool, log: &Path) {
    let path = format!("{SPRING_FIXTURES}/{fixture}.json");
    let game: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let league = match game["league"].as_i64().unwrap() {
        1 => "wood2",
        2 => "wood1",
        _ => "bronze",
    };
    let mut start = serde_json::json!({"trace": 1, "event": "start", "game": "spring2022"});
    if name_league {
        start["options"] = serde_json::json!({ "league": league });
    }
    let mut records = vec![start];
    let mut t = 0;
    for turn in game["turns"].as_array().unwrap() {
        for p in 0..2 {
            t += 1;
            records.push(
                serde_json::json!({"event": "prompt", "player": p, "t_us": t,
                "text": turn["prompts"][p]}),
            );
            t += 1;
            let reply = format!("{}\n", turn["replies"][p].as_str().unwrap());
            records.push(serde_json::json!({"event": "reply", "player": p, "t_us": t,
                "text": reply}));
        }
    }
    for p in 0..2 {
        t += 1;
        records.push(serde_json::json!({"event": "end", "player": p, "t_us": t, "status": 0}));
    }
    let text: Vec<String> = records.iter().map(Value::to_string).collect();
    std::fs::write(log, text.join("\n") + "\n").unwrap();
}

/// Issue 23, item 4: a Wood 1 referee game was read as Bronze+ (its prompts look the same),
/// so the player the referee deactivated for a CONTROL, which Wood 1 does not allow, was
/// blamed on the referee. The league in the log's start record is obeyed now: the trace is
/// clean and its outcome names the invalid reply; without it the report says what it assumed,
/// and `--option` overrides the log.
#[test]
fn a_wood1_log_is_traced_as_wood1_from_its_start_record() {
    let dir = tempfile::tempdir().unwrap();
    let named = dir.path().join("named.jsonl");
    let silent = dir.path().join("silent.jsonl");
    spring_referee_log("wood1-control-is-invalid", true, &named);
    spring_referee_log("wood1-control-is-invalid", false, &silent);

    let (code, report) = trace("spring2022", &[&named]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["options"]["league"], "wood1", "{report:#}");
    assert!(report["options_from"]
        .as_str()
        .unwrap()
        .contains("start record"));
    assert_eq!(
        report["outcome"]["rules"]["reason"], "invalid-reply",
        "{report:#}"
    );
    assert_eq!(report["outcome"]["rules"]["winner"], 1, "{report:#}");

    // Read as the prompts suggest, it is bronze+, and the report says so.
    let (code, report) = trace("spring2022", &[&silent]);
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(report["options"]["league"], "bronze+", "{report:#}");
    assert!(report["options_from"].as_str().unwrap().contains("assumed"));

    // The command line over the log.
    let (code, report, _) = trace_args(&[
        "spring2022",
        silent.to_str().unwrap(),
        "--option",
        "league=wood1",
    ]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["options"]["league"], "wood1", "{report:#}");
}

/// Issue 23, item 2: a mob that leaves every hero's sight and comes back is the same mob (by
/// id), predicted while out of sight; referee games where mobs do so trace clean, every step.
#[test]
fn a_mob_that_leaves_sight_and_returns_traces_clean() {
    // `bronze-unseen-redirect`: mob 13 CONTROLled and mob 83 WINDed out of both players'
    // sight, each seen again turns later (issue 39).
    for fixture in [
        "bronze-seed-42",
        "bronze-seed-100",
        "wood1-seed-3",
        "bronze-unseen-redirect",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game.jsonl");
        spring_referee_log(fixture, true, &log);
        // Some mob is shown, then shown to nobody, then shown again.
        let text = std::fs::read_to_string(&log).unwrap();
        let mut seen: Vec<std::collections::BTreeSet<i64>> = Vec::new();
        let mut turn_seen = std::collections::BTreeSet::new();
        for record in text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
        {
            if record["event"] != "prompt" {
                continue;
            }
            for line in record["text"].as_str().unwrap().lines() {
                let words: Vec<i64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
                if words.len() == 11 && words[1] == 0 {
                    turn_seen.insert(words[0]);
                }
            }
            if record["player"] == 1 {
                seen.push(std::mem::take(&mut turn_seen));
            }
        }
        let returns = (1..seen.len()).any(|t| {
            seen[t - 1]
                .iter()
                .any(|id| !seen[t].contains(id) && seen[t + 1..].iter().any(|s| s.contains(id)))
        });
        assert!(returns, "{fixture}: no mob leaves sight and returns");
        let (code, report) = trace("spring2022", &[&log]);
        assert_eq!(code, Some(0), "{fixture}: {report:#}");
        assert_eq!(report["complete"], true, "{fixture}");
        assert_eq!(report["agreeing"], report["steps_in_log"], "{fixture}");
    }
}

/// Issue 39: a mob's field is named by the mob's id (`mobs[#59].x`), as TRACES.md promises,
/// never by its place in the list, and a departure no played departure reproduces carries no
/// known departure's note.
#[test]
fn a_mob_departure_is_named_by_the_mobs_id() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.jsonl");
    spring_referee_log("bronze-seed-42", true, &log);
    let moved: std::cell::RefCell<Option<String>> = std::cell::RefCell::new(None);
    plant(&log, 0, 40, |prompt| {
        let mut moved = moved.borrow_mut();
        let mut lines: Vec<String> = prompt.lines().map(str::to_string).collect();
        for line in lines.iter_mut() {
            let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
            if moved.is_none() && words.len() == 11 && words[1] == "0" {
                *moved = Some(words[0].clone());
                let x: i64 = words[2].parse().unwrap();
                words[2] = (x + 1).to_string();
                *line = words.join(" ");
            }
        }
        lines.join("\n") + "\n"
    });
    let id = moved.into_inner().expect("a mob in that prompt");
    let (code, report) = trace("spring2022", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
    let first = &report["departures"][0];
    assert_eq!(first["fields"][0], format!("mobs[#{id}].x"), "{first:#}");
    assert_eq!(first["known"], serde_json::json!([]), "{first:#}");
}

/// Issue 23, item 3: matches of main.rb with bots that buy, evolve (`evolve X X X` too) and
/// fight from turn 0 (tests/fixtures/tsg-auto-chess/busy_bot.py, seeds 9 and 109, 14 and 114): trace
/// stopped at player 2's first buy, or named departures wrong. Every step is checked now, and
/// every departure is named by a catalogued one, D-tsg-11's included.
#[test]
fn busy_main_rb_matches_are_traced_to_the_end_with_every_departure_catalogued() {
    let mut named: Vec<String> = Vec::new();
    for seed in ["9", "14"] {
        let dir = format!(
            "{}/tests/fixtures/tsg-auto-chess/main-rb-busy-{seed}",
            env!("CARGO_MANIFEST_DIR")
        );
        let (p0, p1) = (format!("{dir}/p0.jsonl"), format!("{dir}/p1.jsonl"));
        let (code, report) = trace_engine(
            "tsg-auto-chess",
            Some("main.rb"),
            &[Path::new(&p0), Path::new(&p1)],
        );
        assert_eq!(code, Some(1), "{seed}: {report:#}");
        assert_eq!(report["complete"], true, "{seed}: {report:#}");
        assert_eq!(report["steps"], report["steps_in_log"], "{seed}");
        for d in report["departures"].as_array().unwrap() {
            assert_eq!(d["catalogued"], true, "{seed}: {d:#}");
            named.push(d["clause"].as_str().unwrap().to_string());
        }
    }
    for clause in ["buy.placed-at-once", "buy.frame", "board.frames"] {
        assert!(named.iter().any(|c| c == clause), "{clause}: {named:?}");
    }
}

/// Issue 23, item 8: `trace --cases-out DIR` turns a recorded match into step cases, the
/// engine's result the expectation; `check --cases DIR` then checks an engine against them.
/// A match recorded on the reference gives cases the reference passes; a main.rb match gives
/// `needs-review` cases where main.rb departs.
#[test]
fn a_traced_match_becomes_step_cases_that_check_runs() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("tsg-auto-chess", 2, "7", &log);
    let cases = dir.path().join("cases");
    let (code, report, _) = trace_args(&[
        "tsg-auto-chess",
        log.to_str().unwrap(),
        "--cases-out",
        cases.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{report:#}");
    let file = cases.join("tsg-auto-chess/trace-match.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("trace-match-step-0"), "{text}");
    let output = Command::new(SHINPAN)
        .args(["check", "tsg-auto-chess", "--cases"])
        .arg(&cases)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains(" 0 failed"), "{out}");

    let busy = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tsg-auto-chess/main-rb-busy-9"
    );
    let main_rb_cases = dir.path().join("main-rb-cases");
    let (code, _, _) = trace_args(&[
        "tsg-auto-chess",
        &format!("{busy}/p0.jsonl"),
        &format!("{busy}/p1.jsonl"),
        "--engine-known",
        "main.rb",
        "--cases-out",
        main_rb_cases.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1));
    let text = std::fs::read_to_string(main_rb_cases.join("tsg-auto-chess/trace-p0.yaml")).unwrap();
    assert!(text.contains("needs-review: true"), "{text}");
}

/// A log cut right after a prompt (a full disk, a kill) ends there: the prompt has no reply
/// because the record stops, not because the bot never answered. Player 0's tap log is cut
/// after its tenth prompt; player 1's log, and the match's end record, go on. The cut prompt
/// used to be played as a crash: a danger-line departure and an outcome the engine "ended".
#[test]
fn a_log_cut_right_after_a_prompt_is_incomplete_not_a_bot_that_never_answered() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("match.jsonl");
    play_logged("codevs-reborn", 2, "4", &whole);
    let text = std::fs::read_to_string(&whole).unwrap();
    let (mut p0, mut p1) = (Vec::new(), Vec::new());
    let mut prompts = 0;
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        match (record["event"].as_str(), record["player"].as_u64()) {
            (Some("start"), _) => {
                p0.push(line);
                p1.push(line);
            }
            (_, Some(0)) if prompts < 10 => {
                p0.push(line);
                prompts += usize::from(record["event"] == "prompt");
            }
            (_, Some(0)) => {}
            _ => p1.push(line),
        }
    }
    assert_eq!(prompts, 10, "a match of more than ten turns");
    let logs = [dir.path().join("p0.jsonl"), dir.path().join("p1.jsonl")];
    std::fs::write(&logs[0], p0.join("\n") + "\n").unwrap();
    std::fs::write(&logs[1], p1.join("\n") + "\n").unwrap();
    let (code, report) = trace("codevs-reborn", &[&logs[0], &logs[1]]);
    assert_eq!(report["departures"], serde_json::json!([]), "{report:#}");
    assert_eq!(code, Some(3), "{report:#}");
    assert_eq!(report["complete"], false, "{report:#}");
    assert_eq!(report["steps"], 9, "{report:#}");
    assert!(
        report["stopped"].as_str().unwrap().contains("cut short"),
        "{report:#}"
    );
}

/// `play --log` stamps each reply at its prompt's time plus the time it was charged: the built-in
/// player is charged nothing, so its replies carry their prompt's time. (They were stamped when
/// read, one seat after another, so a seat read later carried the other seats' thinking time,
/// which `trace` charged to it: under load, a time-out of Spring 2022's 50 ms in a clean match.)
#[test]
fn a_played_reply_is_stamped_with_the_time_it_was_charged() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    play_logged("spring2022", 2, "3", &log);
    let text = std::fs::read_to_string(&log).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut prompted = std::collections::HashMap::new();
    let mut replies = 0;
    for record in &records {
        let key = (record["player"].as_u64(), record["step"].as_u64());
        match record["event"].as_str() {
            Some("prompt") => {
                prompted.insert(key, record["t_us"].as_u64().unwrap());
            }
            Some("reply") => {
                assert_eq!(
                    Some(&record["t_us"].as_u64().unwrap()),
                    prompted.get(&key),
                    "{record}"
                );
                replies += 1;
            }
            _ => {}
        }
    }
    // Two seats a step, for every step of a match of more than one step.
    assert!(replies > 2, "{text}");
}

/// A traced CEDEC 2013 match is more step cases than one file `check` reads by default holds
/// (a step case of a whole field is about 27 KB): `--cases-out` writes consecutive parts, each
/// within the default bound, and `check` reads them without `--max-case-file-bytes`. A second
/// run writes the same parts, none left over from the first. (The log is cut after 180 steps'
/// records to keep the test short; a whole match is 603 steps and 16 MB.)
#[test]
fn a_long_traced_match_is_written_in_parts_check_reads_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    play_logged("cedec2013", 3, "5", &whole);
    let text = std::fs::read_to_string(&whole).unwrap();
    let log = dir.path().join("cut.jsonl");
    let cut: Vec<&str> = text.lines().take(1 + 2 * 180).collect();
    std::fs::write(&log, cut.join("\n") + "\n").unwrap();
    let cases = dir.path().join("cases");
    for _ in 0..2 {
        let (code, report, _) = trace_args(&[
            "cedec2013",
            log.to_str().unwrap(),
            "--cases-out",
            cases.to_str().unwrap(),
        ]);
        // Cut short: less was checked than the match held.
        assert_eq!(code, Some(3), "{report:#}");
    }
    let folder = cases.join("cedec2013");
    let mut parts: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "rules.yaml" && name != "trace-cut.manifest.json")
        .collect();
    parts.sort();
    assert!(parts.len() >= 2, "{parts:?}");
    for (k, part) in parts.iter().enumerate() {
        assert_eq!(part, &format!("trace-cut-part-{}.yaml", k + 1));
        let size = std::fs::metadata(folder.join(part)).unwrap().len();
        assert!(size <= 4 * 1024 * 1024, "{part}: {size} bytes");
    }
    let output = Command::new(SHINPAN)
        .args(["check", "cedec2013", "--cases"])
        .arg(&cases)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{out}");
    // Every step of the cut log once: 180 steps, the last perhaps without its reply.
    let passed: usize = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("cedec2013: ")?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap();
    assert!((179..=180).contains(&passed), "{out}");
}

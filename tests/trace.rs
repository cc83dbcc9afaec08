//! `shinpan tap` and `shinpan trace`: a match recorded on the reference engine validates clean
//! for every game; one planted change in a recording is reported at exactly its step, with its
//! field and clauses; a tap forwards bytes unchanged, passes its bot's exit status through, and
//! leaves a readable log when it is killed mid-match.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// Every landed game with the number of built-in players a match takes.
const GAMES: &[(&str, usize)] = &[
    ("codevs-reborn", 2),
    ("cedec2013", 3),
    ("codevs4", 2),
    ("tsg-auto-chess", 2),
    ("spring2022", 2),
];

fn play_logged(game: &str, players: usize, seed: &str, log: &Path) {
    let mut cmd = Command::new(SHINPAN);
    cmd.args(["play", game, "--seed", seed, "--log"]).arg(log);
    for _ in 0..players {
        cmd.args(["--", "builtin"]);
    }
    let status = cmd.status().unwrap();
    assert!(status.success());
}

fn trace(game: &str, logs: &[&Path]) -> (Option<i32>, Value) {
    let output = Command::new(SHINPAN)
        .args(["trace", game, "--format", "json"])
        .args(logs)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    (output.status.code(), report)
}

#[test]
fn a_match_played_on_the_reference_engine_traces_clean_for_every_game() {
    for &(game, players) in GAMES {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("match.jsonl");
        play_logged(game, players, "7", &log);
        let (code, report) = trace(game, &[&log]);
        assert_eq!(code, Some(0), "{game}: {report:#}");
        assert!(report["steps"].as_u64().unwrap() > 10, "{game}: {report:#}");
        assert_eq!(report["departures"], serde_json::json!([]), "{game}");
        assert_eq!(report["notes"], serde_json::json!([]), "{game}");
    }
}

/// Rewrites the text of the `n`-th prompt record of `player` in a log with `change`.
fn plant(log: &Path, player: u64, n: usize, change: impl Fn(&str) -> String) {
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
    // Step 20's prompt to player 1: the turn block's fifth line is player 1's own score.
    plant(&log, 1, 20, |prompt| {
        let mut lines: Vec<String> = prompt.lines().map(str::to_string).collect();
        let score: u64 = lines[4].parse().unwrap();
        lines[4] = (score + 1).to_string();
        lines.join("\n") + "\n"
    });
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
    assert_eq!(first["fields"], serde_json::json!(["units[0].hp"]));
    let clauses = clauses_of(first);
    assert!(
        clauses.iter().any(|c| c.starts_with("attack.")),
        "{clauses:?}"
    );
}

/// A short match written by hand in the form of main.rb's standard output (TSG AUTO CHESS).
const MAIN_RB_LOG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/tsg/main-rb.out"
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
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["steps"], 3, "{report:#}");
    assert_eq!(report["departures"], serde_json::json!([]));
    // Three turns of a match that goes on: the log ends before the match does.
    assert!(
        report["notes"][0].as_str().unwrap().contains("end"),
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
    assert_eq!(first["fields"], serde_json::json!(["units[0].y"]));
}

#[test]
fn an_import_of_an_unknown_format_is_a_usage_error() {
    let output = Command::new(SHINPAN)
        .args(["trace", "codevs-reborn", "--import", "main-rb", MAIN_RB_LOG])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot import"));
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
        .args(["python3", &format!("{BOTS}/good.py")]);
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
        .args(["--", "python3", &format!("{BOTS}/good.py")])
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
    // Whatever the kill cut, trace reads the log: the match is simply unfinished.
    let (code, report) = trace("codevs-reborn", &[&log]);
    assert!(matches!(code, Some(0 | 1)), "{report:#}");
    assert!(
        report["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("end")),
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
    let (code, report) = trace("codevs4", &[&log]);
    assert_eq!(code, Some(1), "{report:#}");
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
    // The first 200 steps are plenty (and trace quicker than the whole stage).
    let lines: Vec<String> = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
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
    assert_eq!(code, Some(0), "{report:#}");
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
        "/tests/fixtures/tsg/main-rb-seed3"
    );
    let (p0, p1) = (format!("{dir}/p0.jsonl"), format!("{dir}/p1.jsonl"));
    let (code, report) = trace("tsg-auto-chess", &[Path::new(&p0), Path::new(&p1)]);
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
    let steps: Vec<u64> = found.iter().map(|(s, _, _)| *s).collect();
    assert_eq!(steps, [0, 1, 7, 9, 11, 13], "{found:?}");
    let reproduced = |step: u64| &found.iter().find(|(s, _, _)| *s == step).unwrap().1;
    assert_eq!(reproduced(0), &["board.size", "board.kings-start"]);
    assert_eq!(reproduced(7), &["move.once"]);
    assert_eq!(reproduced(9), &["removal.dead"]);
    assert_eq!(reproduced(11), &["evolve.result"]);
    assert_eq!(reproduced(13)[0], "move.once");
    // A prompt unlike the reference's over the same state: player 2's frame on main.rb's board.
    let prompt = found.iter().find(|(s, _, _)| *s == 1).unwrap();
    assert_eq!(prompt.2, ["board.frames"]);
}

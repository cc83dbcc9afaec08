//! Issue: a bot that dies with an unhandled error on a malformed prompt must FAIL (and make
//! `shinpan bot` exit 1), while a bot that handles the bad input — reports it in one line and
//! exits, or reads past it and answers — is INFO or PASS. Each holds for every registered game,
//! with that game's example bot (`crates/shinpan-<game>/testdata/suite.yaml` names it).

use std::process::Command;

use serde_json::Value;
use shinpan::games;

use crate::common::{self, SuiteData};

const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// Every registered game and how its test bot is started: (game, its example bot, the shell
/// bot's argument: `name-first` when the game's bot speaks before reading, as its handshake
/// says).
fn every_game() -> Vec<(&'static str, String, &'static str)> {
    games::all()
        .into_iter()
        .map(|game| {
            let id = game.info().id;
            let speaks_first = game.info().handshake.is_some_and(|h| h.prompt.is_empty());
            let how = if speaks_first {
                "name-first"
            } else {
                "reads-first"
            };
            (id, SuiteData::of(id).bot_path(), how)
        })
        .collect()
}

struct Run {
    report: Value,
    code: Option<i32>,
}

impl Run {
    /// The verdict and detail of the malformed check `name`.
    fn malformed(&self, name: &str) -> (String, String) {
        let check = self.report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["phase"] == "malformed" && c["name"] == name)
            .unwrap_or_else(|| panic!("no malformed check {name}: {:#}", self.report));
        (
            check["verdict"].as_str().unwrap().to_string(),
            check["detail"].as_str().unwrap().to_string(),
        )
    }
}

fn check(game: &str, argv: &[String], extra: &[&str]) -> Run {
    let save_dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["bot", game, "--format", "json", "--phases", "malformed"])
        .args(["--only", "non-numeric-token"])
        .args(["--turn-ms", "2000", "--budget", "60", "--save-dir"])
        .arg(save_dir.path())
        .args(extra)
        .arg("--")
        .args(argv)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{game}: not a JSON report ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    Run {
        report,
        code: output.status.code(),
    }
}

fn python(bot: &str, mode: &str) -> Vec<String> {
    vec![
        common::python3().into(),
        bot.to_string(),
        "--on-bad-input".into(),
        mode.into(),
    ]
}

#[test]
fn a_python_bot_dying_of_a_traceback_fails_and_names_it() {
    for (game, bot, _) in every_game() {
        let run = check(game, &python(&bot, "crash"), &[]);
        let (verdict, detail) = run.malformed("non-numeric-token");
        assert_eq!(verdict, "fail", "{game}: {detail}");
        assert!(detail.contains("Python stack trace"), "{game}: {detail}");
        assert!(detail.contains("ValueError"), "{game}: {detail}");
        assert_eq!(run.code, Some(1), "{game}");
        let saved = run.report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["verdict"] == "fail")
            .and_then(|c| c["saved"].as_str())
            .map(str::to_string);
        assert!(saved.is_some(), "{game}: the prompt is saved for replay");
    }
}

#[test]
fn a_shell_bot_killed_by_a_signal_on_bad_input_fails() {
    for (game, _, how) in every_game() {
        let argv = vec![
            "sh".to_string(),
            format!("{BOTS}/segv_on_bad_token.sh"),
            how.to_string(),
        ];
        let run = check(game, &argv, &[]);
        let (verdict, detail) = run.malformed("non-numeric-token");
        assert_eq!(verdict, "fail", "{game}: {detail}");
        assert!(detail.contains("SIGSEGV"), "{game}: {detail}");
        assert_eq!(run.code, Some(1), "{game}");
    }
}

#[test]
fn a_bot_that_reports_bad_input_and_exits_is_info() {
    for (game, bot, _) in every_game() {
        let run = check(game, &python(&bot, "report"), &[]);
        let (verdict, detail) = run.malformed("non-numeric-token");
        assert_eq!(verdict, "info", "{game}: {detail}");
        assert!(detail.contains("exited with status 2"), "{game}: {detail}");
        assert_eq!(run.code, Some(0), "{game}: {:#}", run.report);
    }
}

#[test]
fn a_bot_that_reads_past_bad_input_and_answers_passes() {
    for (game, bot, _) in every_game() {
        let run = check(game, &python(&bot, "skip"), &[]);
        let (verdict, detail) = run.malformed("non-numeric-token");
        assert_eq!(verdict, "pass", "{game}: {detail}");
        assert_eq!(run.code, Some(0), "{game}: {:#}", run.report);
    }
}

#[test]
fn malformed_crash_info_keeps_a_traceback_an_info() {
    for (game, bot, _) in every_game() {
        let run = check(game, &python(&bot, "crash"), &["--malformed-crash", "info"]);
        let (verdict, detail) = run.malformed("non-numeric-token");
        assert_eq!(verdict, "info", "{game}: {detail}");
        assert_eq!(run.code, Some(0), "{game}");
    }
}

/// `--only` runs the checks it names and no other (besides the handshake), and warns of a name
/// no check of the run has.
#[test]
fn only_runs_the_named_checks_and_warns_of_a_name_no_check_has() {
    let (game, bot, _) = every_game().swap_remove(0);
    let output = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["bot", game, "--format", "json", "--turn-ms", "2000"])
        .args(["--only", "negative-number,no-such-check,crlf"])
        .arg("--")
        .args(python(&bot, "skip"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let ran: Vec<(&str, &str)> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["phase"] != "handshake")
        .map(|c| (c["phase"].as_str().unwrap(), c["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        ran,
        [("malformed", "crlf"), ("malformed", "negative-number")],
        "{report:#}"
    );
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "shinpan: warning: --only: no check of this run is named no-such-check\n"
    );
}

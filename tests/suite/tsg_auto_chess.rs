//! TSG AUTO CHESS: properties of the protocol and the engine on generated input (proptest), the
//! fuzz target bodies on random bytes, snapshots (insta) of a prompt and of the parsers' error
//! messages, a golden playthrough of a seeded match between the built-in random players, and
//! the bot checker and `play` on the example bot `tests/bots/tsg_auto_chess_bot.py`.

use std::path::Path;
use std::process::Command;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use shinpan::game::{DynGame, Game, Reply, ReplyVerdict};
use shinpan::games::tsg_auto_chess::fuzz::{self, check_invariants};
use shinpan::games::tsg_auto_chess::protocol::{Command as TsgCommand, Move, Prompt, TurnReply};
use shinpan::games::tsg_auto_chess::state::State;
use shinpan::games::tsg_auto_chess::TsgAutoChess;
use shinpan::selfplay::golden_match;

use crate::common;

const BOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/bots/tsg_auto_chess_bot.py"
);

fn command() -> impl Strategy<Value = TsgCommand> {
    let id = 0i64..=i64::from(i32::MAX);
    let coord = i64::from(i32::MIN)..=i64::from(i32::MAX);
    prop_oneof![
        (id.clone(), coord.clone(), coord).prop_map(|(id, x, y)| TsgCommand::Buy { id, x, y }),
        (id.clone(), id.clone(), id).prop_map(|(a, b, c)| TsgCommand::Evolve([a, b, c])),
        Just(TsgCommand::Levelup),
        Just(TsgCommand::Nop),
        "[a-zA-Z ]{0,12}"
            .prop_filter("not a command word first", |s| {
                !matches!(
                    s.split_ascii_whitespace().next(),
                    Some("buy" | "evolve" | "levelup" | "nop")
                )
            })
            .prop_map(TsgCommand::Other),
    ]
}

fn turn_reply() -> impl Strategy<Value = TurnReply> {
    let moves = proptest::collection::vec(
        (0i64..=1000, -20i64..=20, -20i64..=20).prop_map(|(id, x, y)| Move { id, x, y }),
        0..8,
    );
    (command(), moves).prop_map(|(command, moves)| TurnReply { command, moves })
}

/// The state after `turns` turns of the built-in players' match of `seed`.
fn played_state(seed: u64, turns: usize) -> State {
    let game = TsgAutoChess;
    let mut state = Game::new_match(&game, seed, &Default::default());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..turns {
        if game.outcome(&state).is_some() {
            break;
        }
        let replies = [0, 1].map(|p| Reply::text(game.random_reply(&state, p, &mut rng)));
        game.step(&mut state, &replies).unwrap();
    }
    state
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn reply_round_trips(reply in turn_reply()) {
        let text = reply.print();
        prop_assert_eq!(TurnReply::parse(&text), Ok(reply.clone()));
        prop_assert_eq!(TurnReply::read_lenient(&text), reply);
    }

    #[test]
    fn prompt_round_trips(seed in any::<u64>(), turns in 0usize..80, player in 0usize..2) {
        let state = played_state(seed, turns);
        let prompt = Prompt::of(&state, player);
        let text = prompt.print();
        prop_assert_eq!(Prompt::parse(&text), Ok(prompt));
    }
}

// main.rb's standard output is outside input too: its reader never panics, on any text or on
// echo lines of any shape.
proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn the_main_rb_importer_never_panics(
        names in "[a-z]{0,5}\n[a-z]{0,5}\n",
        echoes in prop::collection::vec(("[a-z]{0,5}", prop::bool::ANY, "[ -~]{0,20}"), 0..30),
        tail in "\\PC{0,40}",
    ) {
        let mut log = names;
        for (name, input, line) in echoes {
            log.push_str(&format!("{name} {}:{line}\n", if input { "in" } else { "out" }));
        }
        log.push_str(&tail);
        let _ = shinpan::games::tsg_auto_chess::import::main_rb(&log);
    }
}

// Whole matches are up to 1000 turns: fewer cases.
proptest! {
    #![proptest_config(common::proptest_cases(16))]

    #[test]
    fn engine_invariants_hold_over_random_matches(seed in any::<u64>(), wild in 0u32..4) {
        let game = TsgAutoChess;
        let mut state = Game::new_match(&game, seed, &Default::default());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.outcome(&state).is_none() {
            let replies = [0, 1].map(|p| {
                if wild == 0 && rand::Rng::random_ratio(&mut rng, 1, 20) {
                    Reply::text("evolve 0 0 0\n3\n0 7 1\n0 7 2\nx")
                } else {
                    Reply::text(game.random_reply(&state, p, &mut rng))
                }
            });
            let before = state.clone();
            game.step(&mut state, &replies).unwrap();
            prop_assert_eq!(check_invariants(&before, &state), Ok(()));
        }
    }

    #[test]
    fn random_players_only_send_strict_replies(seed in any::<u64>()) {
        let game = TsgAutoChess;
        let mut state = Game::new_match(&game, seed, &Default::default());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..200 {
            if game.outcome(&state).is_some() {
                break;
            }
            let replies = [0, 1].map(|p| Reply::text(game.random_reply(&state, p, &mut rng)));
            let report = game.step(&mut state, &replies).unwrap();
            prop_assert_eq!(&report.replies, &vec![ReplyVerdict::Accepted; 2]);
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn fuzz_prompt_body(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        fuzz::prompt(&data);
    }

    #[test]
    fn fuzz_prompt_body_on_near_valid_text(seed in any::<u64>(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = Prompt::of(&played_state(seed, 30), 1).print().into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        fuzz::prompt(&bytes);
    }

    #[test]
    fn fuzz_reply_body(data in proptest::collection::vec(any::<u8>(), 0..128)) {
        fuzz::reply(&data);
    }

    #[test]
    fn fuzz_step_body(data in proptest::collection::vec(any::<u8>(), 64..4096)) {
        fuzz::step(&data);
    }
}

/// The state generator once drew the same cell for ever when the bytes ran out (all zeros:
/// every draw is (0, 0), which the first king already holds). It must give up instead.
#[test]
fn the_step_body_ends_when_its_bytes_run_out() {
    fuzz::step(&[0u8; 64]);
    fuzz::step(&[0u8; 4096]);
}

#[test]
fn prompt_of_player_two_after_some_turns() {
    let state = played_state(7, 12);
    common::game_snapshots("tsg-auto-chess").bind(|| {
        insta::assert_snapshot!(
            "prompt_of_player_two_after_some_turns",
            TsgAutoChess.prompt(&state, 1)
        )
    });
}

#[test]
fn parser_error_messages() {
    let game = &TsgAutoChess as &dyn DynGame;
    let prompt = "0\n180000\n1 1\n5 5\n2 ASSASSIN 50 10 3\n3 WARRIOR 50 10 3\n4 MAGE 50 10 3\n1\n0 KING 100 20 7 0\n1\n1 KING 100 20 7 14\n";
    let inputs: &[(&str, &str)] = &[
        ("reply", "nop\n0"),
        ("reply", "buy 2 7 1 \n0"),
        ("reply", " buy 2 7 1\n0"),
        ("reply", "buy 2 7\n0"),
        ("reply", "evolve 8 9 x\n0"),
        ("reply", "levelup now\n0"),
        ("reply", "nop\r\n0"),
        ("reply", "nop\nx"),
        ("reply", "nop"),
        ("reply", "nop\n2\n8 7 4"),
        ("reply", "nop\n1\n8 7"),
        ("reply", "nop\n0\n8 7 4"),
        ("reply", "hello\n0"),
        ("name", "fiord"),
        ("name", ""),
        ("name", "a\tb"),
        ("name", "a\nb"),
        ("prompt", prompt),
        ("prompt", &prompt.replacen("0\n", "1000\n", 1)),
        (
            "prompt",
            &prompt.replace("4 MAGE 50 10 3", "4 KING 50 10 3"),
        ),
        ("prompt", &prompt.replace("7 14", "7 15")),
        ("prompt", &prompt.replace("1 1\n5 5", "1 1\n5  5")),
        ("prompt", &prompt[..prompt.len() - 1]),
    ];
    common::game_snapshots("tsg-auto-chess").bind(|| {
        insta::assert_snapshot!(
            "parser_error_messages",
            common::describe_parses(game, inputs)
        )
    });
}

/// A match is about a hundred turns of ~12-line prompts: the snapshot keeps both prompts and
/// replies of the first three turns, every reply after that, and the final prompts and outcome.
#[test]
fn golden_playthrough_seed_1() {
    let game = TsgAutoChess;
    let mut out = String::new();
    let mut replies = Vec::new();
    let (outcome, steps) = golden_match(&game, 1, |state, exchange| {
        out.push_str(&format!("=== turn {} ===\n", state.turn));
        for p in 0..2 {
            if state.turn < 3 {
                out.push_str(&format!("--- prompt {p} ---\n{}", exchange.prompts[p]));
            }
            out.push_str(&format!("--- reply {p} ---\n{}\n", exchange.replies[p]));
        }
        replies.push(exchange.replies.clone());
    });
    let mut state = Game::new_match(&game, 1, &Default::default());
    for pair in replies {
        let pair: Vec<Reply> = pair.into_iter().map(Reply::text).collect();
        game.step(&mut state, &pair).unwrap();
    }
    out.push_str(&format!(
        "=== end after {steps} steps: {outcome:?} ===\n--- final prompt to player 0 ---\n{}--- final prompt to player 1 ---\n{}",
        game.prompt(&state, 0),
        game.prompt(&state, 1)
    ));
    common::game_snapshots("tsg-auto-chess")
        .bind(|| insta::assert_snapshot!("golden_playthrough_seed_1", out));
}

#[test]
fn coverage_of_the_tsg_library_is_complete() {
    let out = assert_cmd::Command::cargo_bin("shinpan")
        .unwrap()
        .env_remove("SHINPAN_CASES")
        .args(["coverage", "tsg-auto-chess"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("uncovered"));
}

#[test]
fn new_matches_follow_the_seed() {
    let game = TsgAutoChess;
    let a = Game::new_match(&game, 3, &Default::default());
    assert_eq!(a, Game::new_match(&game, 3, &Default::default()));
    let prices = |s: &State| -> Vec<i64> {
        s.players
            .iter()
            .flat_map(|p| p.shop.iter().map(|u| u.price))
            .collect()
    };
    let differ = (0..20)
        .map(|seed| prices(&Game::new_match(&game, seed, &Default::default())))
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    assert!(differ > 10, "seeds give different shops ({differ} of 20)");
}

#[test]
fn the_example_bot_passes_the_bot_checker() {
    let save_dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["bot", "tsg-auto-chess", "--save-dir"])
        .arg(save_dir.path())
        .args([
            "--matches",
            "1",
            "--format",
            "json",
            "--turn-ms",
            "2000",
            "--handshake-ms",
            "5000",
            "--",
            "python3",
            BOT,
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    let checks = report["checks"].as_array().unwrap();
    let phase =
        |name: &str| -> Vec<&Value> { checks.iter().filter(|c| c["phase"] == name).collect() };
    assert_eq!(phase("handshake")[0]["verdict"], "pass");
    assert_eq!(phase("matches").len(), 2, "one match in each seat");
    assert!(
        phase("matches").iter().all(|c| c["verdict"] == "pass"),
        "{report:#}"
    );
    let extreme = phase("extreme");
    assert!(extreme.len() >= 8, "{extreme:#?}");
    assert!(
        extreme.iter().all(|c| c["verdict"] == "pass"),
        "{extreme:#?}"
    );
}

#[test]
fn play_the_example_bot_against_the_builtin_player() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args([
            "play",
            "tsg-auto-chess",
            "--rounds",
            "2",
            "--format",
            "json",
        ])
        .args(["--turn-ms", "2000", "--handshake-ms", "5000", "--log"])
        .arg(&log)
        .args(["--", "python3", BOT, "--", "builtin"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
    let matches = summary["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 2);
    assert!(
        matches.iter().all(|m| m["outcome"].is_object()),
        "{summary:#}"
    );
    let log = std::fs::read_to_string(log).unwrap();
    assert!(log.contains("well behaved"), "the handshake is logged");
    assert!(Path::new(BOT).exists());
}

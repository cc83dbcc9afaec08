//! CEDEC 2013: properties of the protocol and the engine on generated input (proptest), the
//! fuzz target bodies on random bytes, snapshots (insta) of a prompt and of the parsers' error
//! messages, and a golden playthrough of a seeded match between the built-in random players.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use shinpan::game::{DynGame, Game, Reply};
use shinpan::games::cedec2013::fuzz::{self, check_invariants};
use shinpan::games::cedec2013::protocol::{Command, Request};
use shinpan::games::cedec2013::rules::{Base, Direction};
use shinpan::games::cedec2013::state::State;
use shinpan::games::cedec2013::Cedec2013;
use shinpan::selfplay::golden_match;

use crate::common;

fn command() -> impl Strategy<Value = Command> {
    let coord = -6i32..=6;
    prop_oneof![
        (coord.clone(), coord.clone(), 0usize..6, 1i32..=i32::MAX).prop_map(|(x, y, d, robots)| {
            Command::Move {
                x,
                y,
                dir: Direction::ALL[d],
                robots,
            }
        }),
        (coord.clone(), coord, 0usize..6).prop_map(|(x, y, b)| Command::Build {
            x,
            y,
            base: Base::BUILDABLE[b],
        }),
        Just(Command::Reset),
        Just(Command::Finish),
    ]
}

/// A request from a state reached by playing `turns` random turns of a seeded match.
fn played_state(seed: u64, turns: usize) -> State {
    let game = Cedec2013;
    let mut state = Game::new_match(&game, seed, &Default::default());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..turns {
        let Some(&p) = game.awaiting(&state).first() else {
            break;
        };
        let reply = Reply::text(game.random_reply(&state, p, &mut rng));
        game.step(&mut state, &[reply]).unwrap();
    }
    state
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn command_round_trips(command in command()) {
        prop_assert_eq!(Command::parse(&command.print()), Ok(command));
        prop_assert_eq!(Command::parse_lenient(&command.print()), Ok(command));
    }

    #[test]
    fn request_round_trips(seed in any::<u64>(), turns in 0usize..60, player in 0usize..3) {
        let state = played_state(seed, turns);
        let request = Request::of(&state, player);
        let text = request.print();
        prop_assert_eq!(Request::parse(&text), Ok(request));
    }

}

// Whole matches are ~600 steps each: fewer cases.
proptest! {
    #![proptest_config(common::proptest_cases(12))]

    #[test]
    fn engine_invariants_hold_over_random_matches(seed in any::<u64>(), wild in 0u32..4) {
        let game = Cedec2013;
        let mut state = Game::new_match(&game, seed, &Default::default());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(&p) = game.awaiting(&state).first() {
            let reply = if wild == 0 && rand::Rng::random_ratio(&mut rng, 1, 30) {
                Reply::text("move 0 0 r 1000\nbuild 1 1 to\nreset\nfinish")
            } else {
                Reply::text(game.random_reply(&state, p, &mut rng))
            };
            let before = state.clone();
            game.step(&mut state, &[reply]).unwrap();
            prop_assert_eq!(check_invariants(&before, &state), Ok(()));
        }
    }

    #[test]
    fn random_players_only_make_accepted_commands(seed in any::<u64>()) {
        let game = Cedec2013;
        let mut state = Game::new_match(&game, seed, &Default::default());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..90 {
            let p = game.awaiting(&state)[0];
            let reply = Reply::text(game.random_reply(&state, p, &mut rng));
            let report = game.step(&mut state, &[reply]).unwrap();
            prop_assert_eq!(&report.replies[0], &shinpan::game::ReplyVerdict::Accepted);
            if state.outcome.is_some() { break; }
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
        let mut bytes = Request::of(&played_state(seed, 10), 1).print().into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        fuzz::prompt(&bytes);
    }

    #[test]
    fn fuzz_reply_body(data in proptest::collection::vec(any::<u8>(), 0..96)) {
        fuzz::reply(&data);
    }

    #[test]
    fn fuzz_step_body(data in proptest::collection::vec(any::<u8>(), 64..4096)) {
        fuzz::step(&data);
    }
}

#[test]
fn prompt_in_round_3() {
    let state: State = serde_yaml::from_str(
        "round: 3\nplayer: 1\ntiles:\n  \
         \"0,0\": {owner: 1, robots: 12}\n  \
         \"1,0\": {owner: 1, base: excavator}\n  \
         \"-1,0\": {owner: 0, robots: 3, base: initial}\n  \
         \"0,1\": {hole: true}\n  \
         \"0,-1\": {hole: true, owner: 2, robots: 4}\n",
    )
    .unwrap();
    common::game_snapshots("cedec2013")
        .bind(|| insta::assert_snapshot!("prompt_in_round_3", Cedec2013.prompt(&state, 1)));
}

#[test]
fn parser_error_messages() {
    let game = &Cedec2013 as &dyn DynGame;
    let inputs: &[(&str, &str)] = &[
        ("command", "move 0 0 r 1"),
        ("command", "move 0 0 x 1"),
        ("command", "move 0 0 r 0"),
        ("command", "move  0 0 r 1"),
        ("command", "move 7 0 r 1"),
        ("command", "move -0 0 r 1"),
        ("command", "build 0 0 h"),
        ("command", "build 0 0 to"),
        ("command", "build 0 0 initial"),
        ("command", " finish"),
        ("command", "finish 1"),
        ("command", "jump"),
        ("command", ""),
        ("name", "SampleAI"),
        ("name", " SampleAI "),
        ("name", "abcdefghijklmnopqrstuvwxyz"),
        ("name", ""),
        ("request", "START\n0 200 0\n7 127\n"),
        ("request", "START\n201 200 0\n"),
        ("request", "START\n0 200 3\n"),
        ("request", "BEGIN\n"),
        (
            "request",
            "START\n1 200 0\n7 127\n-6 1 -1 0 0 wasteland none\n",
        ),
        (
            "request",
            "START\n1 200 0\n7 127\n-6 0 -1 0 0 wasteland initial\n",
        ),
    ];
    common::game_snapshots("cedec2013").bind(|| {
        insta::assert_snapshot!(
            "parser_error_messages",
            common::describe_parses(game, inputs)
        )
    });
}

/// The whole match is about 600 turns of 130-line prompts; the snapshot keeps every prompt and
/// reply of the name exchange and round 1, every reply after that, and the final request and
/// outcome.
#[test]
fn golden_playthrough_seed_1() {
    let game = Cedec2013;
    let mut out = String::new();
    let mut replies = Vec::new();
    let (outcome, steps) = golden_match(&game, 1, |state, exchange| {
        out.push_str(&format!(
            "=== round {} player {} ===\n",
            state.round, state.player
        ));
        if state.round <= 1 {
            out.push_str(&format!("--- prompt ---\n{}", exchange.prompts[0]));
        }
        out.push_str(&format!("--- reply ---\n{}\n", exchange.replies[0]));
        replies.push(exchange.replies[0].clone());
    });
    // Replays the match to show where it ended.
    let mut state = Game::new_match(&game, 1, &Default::default());
    for reply in replies {
        game.step(&mut state, &[Reply::text(reply)]).unwrap();
    }
    out.push_str(&format!(
        "=== end after {steps} steps: {outcome:?}, scores {:?} ===\n--- final request to player 0 ---\n{}",
        state.scores,
        game.prompt(&state, 0)
    ));
    common::game_snapshots("cedec2013")
        .bind(|| insta::assert_snapshot!("golden_playthrough_seed_1", out));
}

#[test]
fn coverage_of_the_cedec_library_is_complete() {
    let out = assert_cmd::Command::cargo_bin("shinpan")
        .unwrap()
        .env_remove("SHINPAN_CASES")
        .args(["coverage", "cedec2013"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("uncovered"));
}

#[test]
fn schema_documents_the_sparse_tiles() {
    let schema = (&Cedec2013 as &dyn DynGame).schema();
    let tiles = &schema["properties"]["tiles"];
    assert!(
        tiles["description"].as_str().unwrap().contains("\"x,y\""),
        "{tiles}"
    );
}

//! TSG AUTO CHESS: properties of the protocol and the engine on generated input (proptest), the
//! main.rb importer on any text, the fuzz bodies on near-valid text and on bytes that run out, a
//! snapshot (insta) of a prompt, and new matches following their seed. What every game must pass
//! (golden playthrough, parser error messages, random bytes through the fuzz bodies, the example
//! bot `tests/bots/tsg_auto_chess_bot.py` in `bot` and `play`, ...) is in `every_game.rs`.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use shinpan::games::tsg_auto_chess::fuzz;
use shinpan::games::tsg_auto_chess::protocol::{Command as TsgCommand, Move, Prompt, TurnReply};
use shinpan::games::tsg_auto_chess::state::State;
use shinpan::games::tsg_auto_chess::TsgAutoChess;
use shinpan::seam::{EdgeCases, Game, Reply, ReplyVerdict};
use shinpan::stepfuzz::Fuzzed;

use crate::common;

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
            prop_assert_eq!(TsgAutoChess::check_invariants(&before, &state), Ok(()));
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
    fn fuzz_prompt_body_on_near_valid_text(seed in any::<u64>(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = Prompt::of(&played_state(seed, 30), 1).print().into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        (fuzz::TARGETS.prompt)(&bytes);
    }
}

/// The state generator once drew the same cell for ever when the bytes ran out (all zeros:
/// every draw is (0, 0), which the first king already holds). It must give up instead.
#[test]
fn the_step_body_ends_when_its_bytes_run_out() {
    (fuzz::TARGETS.step)(&[0u8; 64]);
    (fuzz::TARGETS.step)(&[0u8; 4096]);
}

/// Each edge case (`edge.rs`) is one the bot checker can send: a valid state, a valid prompt, a
/// step that plays.
#[test]
fn every_edge_prompt_is_valid_and_playable() {
    let replies = [Reply::text("nop\n0"), Reply::text("levelup\n1\n0 7 1")];
    common::assert_edge_cases_playable(
        &TsgAutoChess,
        TsgAutoChess.edge_cases(),
        "prompt",
        &replies,
    );
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

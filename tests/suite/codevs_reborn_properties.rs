//! Properties of CODE VS Reborn's protocol and engine, checked on generated input (proptest),
//! and the prompt fuzz body on near-valid text. The fuzz bodies on random bytes, as every game's,
//! are in `every_game.rs`.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use shinpan::games::codevs_reborn::fuzz;
use shinpan::games::codevs_reborn::protocol::{Command, GameStart, PlayerView, Prompt, TurnInput};
use shinpan::games::codevs_reborn::state::Pack;
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::seam::{EdgeCases, Game, Reply};
use shinpan::stepfuzz::Fuzzed;

use crate::common;

fn cell() -> impl Strategy<Value = u8> {
    prop_oneof![Just(0u8), 1u8..=9, Just(11u8)]
}

fn player_view() -> impl Strategy<Value = PlayerView> {
    let cells = proptest::collection::vec(cell(), 160);
    (
        0u64..=180_000,
        0u64..=u64::from(u32::MAX),
        0u64..=100,
        any::<u64>(),
        cells,
    )
        .prop_map(|(time_left_ms, ojama_stock, skill_gauge, score, cells)| {
            let mut field = [[0u8; 10]; 16];
            for (i, v) in cells.into_iter().enumerate() {
                field[i / 10][i % 10] = v;
            }
            PlayerView {
                time_left_ms,
                ojama_stock,
                skill_gauge,
                score,
                field,
            }
        })
}

fn turn_input() -> impl Strategy<Value = TurnInput> {
    (0u64..500, player_view(), player_view()).prop_map(|(turn, me, opponent)| TurnInput {
        turn,
        me,
        opponent,
    })
}

fn pack() -> impl Strategy<Value = Pack> {
    (0u8..=9, 0u8..=9, 0u8..=9, 0u8..=9).prop_map(|(a, b, c, d)| Pack([[a, b], [c, d]]))
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn turn_block_round_trips(input in turn_input()) {
        let text = input.to_text();
        prop_assert_eq!(TurnInput::parse(&text), Ok(input));
    }

    #[test]
    fn first_prompt_round_trips(packs in proptest::collection::vec(pack(), 500), turn in turn_input()) {
        // The game-start block comes with turn 0's block only.
        let turn = TurnInput { turn: 0, ..turn };
        let prompt = Prompt { start: Some(GameStart { packs: packs.clone() }), turn: turn.clone() };
        let text = prompt.print();
        prop_assert_eq!(Prompt::parse(&text), Ok(prompt));
        // The same packs before any later turn's block are no prompt.
        let later = Prompt { start: Some(GameStart { packs }), turn: TurnInput { turn: 1, ..turn } };
        prop_assert!(Prompt::parse(&later.print()).is_err());
    }

    #[test]
    fn later_prompt_round_trips(turn in turn_input()) {
        let turn = TurnInput { turn: turn.turn.max(1), ..turn };
        let prompt = Prompt { start: None, turn };
        let text = prompt.print();
        prop_assert_eq!(Prompt::parse(&text), Ok(prompt));
    }

    #[test]
    fn reply_round_trips(position in 0u8..=8, rotation in 0u8..=3, skill in any::<bool>()) {
        let command = if skill { Command::Skill } else { Command::Drop { position, rotation } };
        prop_assert_eq!(Command::parse(&command.print()), Ok(command));
    }

    #[test]
    fn fuzz_prompt_body_on_near_valid_text(input in turn_input(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = input.to_text().into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        (fuzz::TARGETS.prompt)(&bytes);
    }
}

/// Each edge case (`edge.rs`) is one the bot checker can send: a valid state, a valid prompt, a
/// step that plays.
#[test]
fn every_edge_prompt_is_valid_and_playable() {
    let replies = [Reply::text("0 0"), Reply::text("8 3")];
    common::assert_edge_cases_playable(
        &CodevsReborn,
        CodevsReborn.edge_cases(),
        "prompt",
        &replies,
    );
}

// Whole matches (random play ends after about 60 steps): 64 of them, not the 256 a text gets.
proptest! {
    #![proptest_config(common::proptest_cases(64))]

    #[test]
    fn engine_invariants_hold_over_random_matches(seed in any::<u64>(), wild in 0u32..4) {
        let game = CodevsReborn;
        let mut state = game.new_match(seed, &Default::default());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while state.outcome.is_none() {
            // Now and then an arbitrary line instead of a legal reply.
            let replies: Vec<Reply> = (0..2).map(|p| {
                if wild == 0 && rand::Rng::random_ratio(&mut rng, 1, 50) {
                    Reply::text("7 x")
                } else {
                    Reply::text(game.random_reply(&state, p, &mut rng))
                }
            }).collect();
            let before = state.clone();
            game.step(&mut state, &replies).unwrap();
            prop_assert_eq!(CodevsReborn::check_invariants(&before, &state), Ok(()));
        }
    }
}

//! Spring Challenge 2022: properties of the protocol and the engine on generated input
//! (proptest), the fuzz bodies on near-valid and command-shaped text, the built-in player's
//! spells, and `play` naming a refused reply. Games recorded from the official referee are
//! replayed in `spring2022_replay.rs`. What every game must pass (golden playthrough, parser
//! error messages, random bytes through the fuzz bodies, the example bot in `bot` and `play`,
//! ...) is in `every_game.rs`.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use shinpan::games::spring2022::fuzz;
use shinpan::games::spring2022::protocol::{Command, Order, Prompt};
use shinpan::games::spring2022::rules::League;
use shinpan::games::spring2022::state::State;
use shinpan::games::spring2022::{Options, Spring2022};
use shinpan::seam::{Game, Reply, ReplyVerdict};
use shinpan::selfplay::golden_match;
use shinpan::stepfuzz::Fuzzed;

use crate::common;

fn league() -> impl Strategy<Value = League> {
    prop_oneof![
        Just(League::Wood2),
        Just(League::Wood1),
        Just(League::Bronze)
    ]
}

fn command() -> impl Strategy<Value = Command> {
    let n = any::<i32>();
    prop_oneof![
        Just(Command::Wait),
        (n, n).prop_map(|(x, y)| Command::Move { x, y }),
        (n, n).prop_map(|(x, y)| Command::Wind { x, y }),
        n.prop_map(|id| Command::Shield { id }),
        (n, n, n).prop_map(|(id, x, y)| Command::Control { id, x, y }),
    ]
}

fn order() -> impl Strategy<Value = Order> {
    (
        command(),
        prop::option::of("[!-~\u{e9}\u{65e5}][ -~\u{e9}]{0,20}"),
        0usize..3,
    )
        .prop_map(|(command, message, spaces)| Order {
            command,
            trailing_spaces: if message.is_some() { 0 } else { spaces },
            message,
        })
}

/// The state after `turns` turns of a seeded match between the built-in players.
fn played_state(seed: u64, league: League, turns: usize) -> State {
    let game = Spring2022;
    let mut state = Game::new_match(&game, seed, &Options { league });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..turns {
        if game.outcome(&state).is_some() {
            break;
        }
        let replies: Vec<Reply> = (0..2)
            .map(|p| Reply::text(game.random_reply(&state, p, &mut rng)))
            .collect();
        game.step(&mut state, &replies).unwrap();
    }
    state
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn orders_round_trip_and_the_engine_reads_them(order in order()) {
        let text = order.print();
        prop_assert_eq!(Order::parse(&text), Ok(order.clone()));
        let read = shinpan::games::spring2022::protocol::read_order(&text, League::Bronze);
        prop_assert_eq!(read.map(|(c, _)| c), Ok(order.command));
    }

    #[test]
    fn prompts_round_trip(seed in any::<u64>(), league in league(), turns in 0usize..120, player in 0usize..2) {
        let state = played_state(seed, league, turns);
        let text = Spring2022.prompt(&state, player);
        let prompt = Prompt::parse(&text);
        prop_assert!(prompt.is_ok(), "{:?}\n{}", prompt, text);
        prop_assert_eq!(prompt.unwrap().print(), text);
    }
}

// Whole matches are up to 220 turns: fewer cases.
proptest! {
    #![proptest_config(common::proptest_cases(16))]

    /// The invariants hold after every step. And a state `step` leaves carries a note that
    /// spares the next step some work; the same state read back from its JSON (as from a case)
    /// has lost it and must play the same turn.
    #[test]
    fn engine_invariants_hold_over_random_matches(seed in any::<u64>(), league in league()) {
        let game = Spring2022;
        let mut state = Game::new_match(&game, seed, &Options { league });
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.outcome(&state).is_none() {
            let replies: Vec<Reply> = (0..2)
                .map(|p| Reply::text(game.random_reply(&state, p, &mut rng)))
                .collect();
            let before = state.clone();
            let mut read_back: State =
                serde_json::from_value(serde_json::to_value(&state).unwrap()).unwrap();
            let report = game.step(&mut state, &replies).unwrap();
            game.step(&mut read_back, &replies).unwrap();
            prop_assert_eq!(&report.replies, &vec![ReplyVerdict::Accepted; 2]);
            prop_assert_eq!(Spring2022::check_invariants(&before, &state), Ok(()));
            prop_assert_eq!(
                serde_json::to_value(&read_back).unwrap(),
                serde_json::to_value(&state).unwrap()
            );
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn fuzz_prompt_body_on_near_valid_text(seed in any::<u64>(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = Spring2022.prompt(&played_state(seed, League::Bronze, 30), 0).into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        (fuzz::TARGETS.prompt)(&bytes);
    }

    #[test]
    fn fuzz_reply_body_on_command_shaped_lines(
        line in "(WAIT|MOVE|SPELL (WIND|SHIELD|CONTROL))([ \t]{1,2}-?0?[0-9]{1,10}){0,4}( ?[ a-z]{0,2})"
    ) {
        (fuzz::TARGETS.reply)(line.as_bytes());
    }
}

#[test]
fn the_built_in_player_casts_every_spell() {
    let mut seen = [false; 3];
    for seed in 0..20 {
        golden_match(&Spring2022, seed, |_, exchange| {
            for reply in &exchange.replies {
                for (i, spell) in ["SPELL WIND", "SPELL SHIELD", "SPELL CONTROL"]
                    .iter()
                    .enumerate()
                {
                    seen[i] |= reply.contains(spell);
                }
            }
        });
    }
    assert_eq!(seen, [true; 3]);
}

/// Issue 22: `play` said only "#2 wins (invalid-reply)" and its JSON had `faults: [null, null]`;
/// which reply was refused, and why, was only in the log. The report says it.
#[test]
fn play_names_the_reply_the_engine_refused() {
    let bot = "import sys\n\
               sys.stdin.readline(); sys.stdin.readline()\n\
               while True:\n\
               \x20   if not sys.stdin.readline(): break\n\
               \x20   sys.stdin.readline()\n\
               \x20   for _ in range(int(sys.stdin.readline())): sys.stdin.readline()\n\
               \x20   print('WAIT\\nWAIT\\nJUMP 1 2', flush=True)\n";
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args([
            "play",
            "spring2022",
            "--turn-ms",
            "3000",
            "--format",
            "json",
        ])
        .args(["--", common::python3(), "-c", bot, "--", "builtin"])
        .output()
        .unwrap();
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
    let m = &summary["matches"][0];
    assert_eq!(m["outcome"]["reason"], "invalid-reply", "{m:#}");
    let fault = m["faults"][0].as_str().unwrap_or_else(|| panic!("{m:#}"));
    assert!(
        fault.contains("illegal reply `WAIT\\nWAIT\\nJUMP 1 2`") && fault.contains("line 3"),
        "{fault}"
    );
}

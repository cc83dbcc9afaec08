//! CEDEC 2013: properties of the protocol and the engine on generated input (proptest), the
//! request fuzz body on near-valid text, a snapshot (insta) of a prompt, and the schema's word
//! on its sparse tiles. What every game must pass (golden playthrough, parser error messages,
//! random bytes through the fuzz bodies, ...) is in `every_game.rs`.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use shinpan::games::cedec2013::fuzz;
use shinpan::games::cedec2013::protocol::{Command, Request};
use shinpan::games::cedec2013::rules::{Base, Direction};
use shinpan::games::cedec2013::state::State;
use shinpan::games::cedec2013::Cedec2013;
use shinpan::seam::{DynGame, Game, Reply};
use shinpan::stepfuzz::Fuzzed;

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
            prop_assert_eq!(Cedec2013::check_invariants(&before, &state), Ok(()));
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
            prop_assert_eq!(&report.replies[0], &shinpan::seam::ReplyVerdict::Accepted);
            if state.outcome.is_some() { break; }
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn fuzz_prompt_body_on_near_valid_text(seed in any::<u64>(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = Request::of(&played_state(seed, 10), 1).print().into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        (fuzz::TARGETS.prompt)(&bytes);
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
fn schema_documents_the_sparse_tiles() {
    let schema = (&Cedec2013 as &dyn DynGame)
        .schemas()
        .expect("built with its schema")
        .state;
    let tiles = &schema["properties"]["tiles"];
    assert!(
        tiles["description"].as_str().unwrap().contains("\"x,y\""),
        "{tiles}"
    );
}

//! Valid prompts at the extremes of the CODE VS Reborn document, for the bot checker: every
//! number at the largest or smallest value the prompt's grammar allows, fields full to the 16th
//! row, the gauge on both sides of the skill threshold, the last turn.
//!
//! Each case is a state whose prompt a freshly started bot reads first (turn 0, with the
//! game-start block), optionally followed by later states; see [`shinpan_core::seam::EdgeCase`].

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::field::Field;
use super::rules::{GAUGE_MAX, HEIGHT, OJAMA, PACKS, SKILL_THRESHOLD, TURNS, WIDTH};
use super::state::{Pack, Player, State};
use super::CodevsReborn;
use shinpan_core::seam::{EdgeCase, EdgeCases, Game, NoOptions};

/// The seed of the packs of every edge case: any fixed value does.
const SEED: u64 = 0;

impl EdgeCases for CodevsReborn {
    fn edge_cases(&self) -> Vec<EdgeCase<State>> {
        let fresh = || CodevsReborn.new_match(SEED, &NoOptions {});
        let with_players = |edit: &dyn Fn(&mut Player)| {
            let mut state = fresh();
            state.players.iter_mut().for_each(edit);
            state
        };
        let one = |name: &str, state: State| EdgeCase {
            name: name.to_string(),
            seat: 0,
            states: vec![state],
        };
        let mut cases = vec![
            one(
                "fields-full-to-row-16",
                with_players(&|p| p.field = full_field(|x, y| 1 + ((x + 2 * y) % 4) as u8)),
            ),
            one(
                "ojama-everywhere",
                with_players(&|p| p.field = full_field(|_, _| OJAMA)),
            ),
            one(
                "one-column-full-the-rest-empty",
                with_players(&|p| {
                    p.field = Field::default();
                    for _ in 0..HEIGHT {
                        p.field.push(WIDTH - 1, 1);
                    }
                }),
            ),
            one(
                "largest-ojama-stock",
                with_players(&|p| p.ojama_stock = u32::MAX),
            ),
            one(
                "gauge-79-skill-not-allowed",
                with_players(&|p| p.skill_gauge = SKILL_THRESHOLD - 1),
            ),
            one(
                "gauge-exactly-80",
                with_players(&|p| p.skill_gauge = SKILL_THRESHOLD),
            ),
            one("gauge-at-100", with_players(&|p| p.skill_gauge = GAUGE_MAX)),
            one("zero-time-left", with_players(&|p| p.time_left_ms = 0)),
            one("largest-score", with_players(&|p| p.score = u64::MAX)),
            one("every-pack-holds-4-blocks", {
                let mut state = fresh();
                state.packs = four_block_packs();
                state
            }),
        ];
        let mut last_turn = fresh();
        last_turn.turn = TURNS - 1;
        cases.push(EdgeCase {
            name: "first-turn-then-the-last".into(),
            seat: 1,
            states: vec![fresh(), last_turn],
        });
        let mut lopsided = fresh();
        lopsided.players[1].field = full_field(|_, _| OJAMA);
        lopsided.players[1].score = u64::MAX;
        cases.push(EdgeCase {
            name: "empty-field-against-a-full-one".into(),
            seat: 0,
            states: vec![lopsided],
        });
        cases
    }
}

/// A field with a block in every visible cell; `value(x, y)` with y = 0 the floor.
fn full_field(value: impl Fn(usize, usize) -> u8) -> Field {
    let mut field = Field::default();
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            field.push(x, value(x, y));
        }
    }
    field
}

/// 500 packs of four blocks 1..=9 (the document's packs hold three or four).
fn four_block_packs() -> Vec<Pack> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut block = || rng.random_range(1..=9u8);
    (0..PACKS)
        .map(|_| Pack([[block(), block()], [block(), block()]]))
        .collect()
}

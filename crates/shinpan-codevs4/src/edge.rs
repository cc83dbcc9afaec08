//! Valid inputs at the extremes of the CODE VS 4.0 document, for the bot checker: ids up to
//! 20000, units on every border cell, no time left, the last stage begun with a few ms left of
//! the game's hour, hundreds of units on one cell, every kind of unit in sight, all 20 resource
//! cells in sight, the last turn, the richest extra stage.
//!
//! CODE VS 4.0 has no game-start block, so any state's input can be a bot's first; each case is
//! one state, or a first turn followed by a later one. Each doc comment says whether the rules
//! can reach the state or only [`Game::validate`] accepts it.

use super::rules::{Cell, Kind, MAX_ID, RESOURCE_CELLS, SIZE, STAGES, TURNS};
use super::state::{State, Unit, Units};
use super::{Codevs4, Options, TimeLeft};
use shinpan_core::seam::{EdgeCase, EdgeCases, Game};

/// The seed of the set-up the cases start from: any fixed value.
const SEED: u64 = 0;

/// The most resources a player can hold: 1000 turns of the richest income (30, table 4) and
/// five workers on each of the 20 resource cells (4.5), nothing spent.
pub const MOST_RESOURCES: u32 = TURNS * (30 + 5 * RESOURCE_CELLS as u32);

impl EdgeCases for Codevs4 {
    fn edge_cases(&self) -> Vec<EdgeCase<State>> {
        let one = |name: &str, seat: usize, state: State| EdgeCase {
            name: name.into(),
            seat,
            states: vec![state],
        };
        let fresh = |stage: u32| Codevs4.new_match(SEED, &Options::stage(stage));
        let mut last_turn = fresh(0);
        last_turn.turn = TURNS - 1;
        vec![
            one("set-up-of-stage-0", 0, fresh(0)),
            one("richest-extra-stage-seat-1", 1, fresh(STAGES - 1)),
            one("ids-up-to-20000", 0, largest_ids()),
            one("own-units-on-every-border-cell", 0, on_every_border(0)),
            one("enemies-on-every-border-cell", 1, on_every_border(0)),
            one("zero-time-left", 0, {
                let mut state = fresh(0);
                for player in &mut state.players {
                    player.time_left_ms = 0;
                }
                state
            }),
            // D-codevs4-11: the hour is for all 41 stages, so the last one may begin with almost
            // nothing left; reachable (a series that spent its hour on the first 40 stages).
            one(
                "stage-40-begun-with-5-ms-left",
                0,
                Codevs4.new_match(
                    SEED,
                    &Options {
                        stage: STAGES - 1,
                        time: TimeLeft::Each([FEW_MS_LEFT, 3_600_000]),
                    },
                ),
            ),
            one("crowded-cell", 0, crowded_cell()),
            one("every-kind-in-sight-at-1-hp", 1, every_kind_at_1_hp()),
            one(
                "all-20-resource-cells-in-sight",
                0,
                all_resources_in_sight(),
            ),
            one("most-resources-on-the-last-turn", 0, {
                let mut state = last_turn.clone();
                state.players[0].resources = MOST_RESOURCES;
                state
            }),
            EdgeCase {
                name: "first-turn-then-the-last".into(),
                seat: 1,
                states: vec![fresh(0), last_turn],
            },
        ]
    }
}

/// What the last stage's edge case leaves player 0 of the game's hour, ms.
const FEW_MS_LEFT: u64 = 5;

/// Two castles far apart, ids 0 and 6, and the other units given.
fn with_castles(mut units: Vec<Unit>) -> State {
    units.push(Unit::new(0, 0, Kind::Castle, Cell { x: 20, y: 20 }));
    units.push(Unit::new(6, 1, Kind::Castle, Cell { x: 79, y: 79 }));
    units.sort_by_key(|u| u.id);
    State {
        units: Units(units),
        ..State::default()
    }
}

/// Ids 19,981..=20,000, ten workers on each castle: validate-only (a stage produces about
/// 12,000 units at most, see rules.yaml `produce.id-range`), and no id is left to produce.
fn largest_ids() -> State {
    let units = (0..20)
        .map(|i| {
            let (owner, at) = if i % 2 == 0 { (0, 20) } else { (1, 79) };
            Unit::new(MAX_ID - i, owner, Kind::Worker, Cell { x: at, y: at })
        })
        .collect();
    let mut state = with_castles(units);
    state.next_id = Some(MAX_ID + 1);
    state
}

/// A knight of player `owner` on every border cell (396), and one of the other player's beside
/// each corner: reachable in principle (knights cost 20), never in practice.
fn on_every_border(owner: usize) -> State {
    let mut units = Vec::new();
    let mut id = 12;
    for y in 0..SIZE {
        for x in 0..SIZE {
            if x == 0 || y == 0 || x == SIZE - 1 || y == SIZE - 1 {
                units.push(Unit::new(id, owner, Kind::Knight, Cell { x, y }));
                id += 1;
            }
        }
    }
    for (x, y) in [(1, 1), (98, 1), (1, 98), (98, 98)] {
        units.push(Unit::new(id, 1 - owner, Kind::Knight, Cell { x, y }));
        id += 1;
    }
    with_castles(units)
}

/// 200 units of each player on one cell, of every moving kind: reachable in principle.
fn crowded_cell() -> State {
    let kinds = [Kind::Worker, Kind::Knight, Kind::Fighter, Kind::Assassin];
    let units = (0..400)
        .map(|i| {
            Unit::new(
                12 + i,
                (i % 2) as usize,
                kinds[(i / 2 % 4) as usize],
                Cell { x: 50, y: 50 },
            )
        })
        .collect();
    with_castles(units)
}

/// Each player has one unit of every kind at 1 HP, in a row beside the other player's row:
/// validate-only (a castle stands within 40 of its corner).
fn every_kind_at_1_hp() -> State {
    let mut units = Vec::new();
    let mut id = 12;
    for owner in 0..2 {
        for (i, kind) in Kind::ALL.into_iter().enumerate() {
            let castle_id = [0, 6][owner];
            let unit_id = if kind == Kind::Castle { castle_id } else { id };
            let cell = Cell {
                x: 40 + i as i32,
                y: 40 + owner as i32,
            };
            units.push(Unit {
                hp: 1,
                ..Unit::new(unit_id, owner, kind, cell)
            });
            id += u32::from(kind != Kind::Castle);
        }
    }
    units.sort_by_key(|u| u.id);
    State {
        units: Units(units),
        ..State::default()
    }
}

/// All 20 resource cells within the vision of player 0's castle: validate-only (the set-up
/// keeps them out of a castle's vision, and castles never move).
fn all_resources_in_sight() -> State {
    let mut state = with_castles(Vec::new());
    state.resource_cells = (0..RESOURCE_CELLS as i32)
        .map(|i| Cell {
            x: 15 + i % 10,
            y: 19 + i / 10,
        })
        .collect();
    state
}

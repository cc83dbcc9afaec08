//! Valid prompts at the extremes of the TSG AUTO CHESS document, for the bot checker: a board
//! full to the last cell, every number at the largest an `int` holds, the last millisecond of
//! thinking time (a player with 0 ms left has lost, D-tsg-9, so no prompt ever shows 0), the last
//! turn, units on every edge of the board, a player that can afford nothing.
//!
//! Every prompt has the same shape (the name is the handshake), so any state can come first.

use super::rules::{shop_atk, shop_hp, unit_limit, Kind, BOARD, MAX_NUMBER, TURNS};
use super::state::{ShopUnit, State, Unit};
use super::TsgAutoChess;
use shinpan_core::seam::{EdgeCase, EdgeCases, Game, NoOptions};

/// The seed of every edge case's shops: any fixed value does.
const SEED: u64 = 0;

impl EdgeCases for TsgAutoChess {
    fn edge_cases(&self) -> Vec<EdgeCase<State>> {
        let fresh = || TsgAutoChess.new_match(SEED, &NoOptions {});
        let one = |name: &str, seat: usize, state: State| EdgeCase {
            name: name.to_string(),
            seat,
            states: vec![state],
        };
        let mut last_millisecond = fresh();
        last_millisecond
            .players
            .iter_mut()
            .for_each(|p| p.time_left_ms = 1);
        let mut last_turn = fresh();
        last_turn.turn = TURNS - 1;
        let mut broke = fresh();
        broke.players.iter_mut().for_each(|p| p.gold = 0);
        vec![
            one("full-board-seat-0", 0, full_board()),
            one("full-board-seat-1", 1, full_board()),
            one("largest-numbers-seat-0", 0, largest_numbers()),
            one("largest-numbers-seat-1", 1, largest_numbers()),
            one("one-millisecond-left", 0, last_millisecond),
            one("no-gold-at-all", 1, broke),
            one("units-on-every-edge", 0, edges()),
            one("units-on-every-edge-seat-1", 1, edges()),
            EdgeCase {
                name: "first-turn-then-the-last".into(),
                seat: 1,
                states: vec![fresh(), last_turn],
            },
        ]
    }
}

/// All 225 cells taken: player 0 with 111 units at level 109, player 1 with 112 at level 110
/// (2 + level each), the kings at home, every type in turn.
pub fn full_board() -> State {
    let mut state = TsgAutoChess.new_match(SEED, &NoOptions {});
    state.players[0].level = 109;
    state.players[1].level = 110;
    let mut id = state.next_id;
    for y in 0..BOARD {
        for x in 0..BOARD {
            if state.units.iter().any(|u| u.at() == (x, y)) {
                continue;
            }
            let owner = usize::from(state.army_size(0) >= unit_limit(state.players[0].level));
            let kind = Kind::SOLD[(id % 3) as usize];
            let level = state.players[owner].level;
            state.units.push(Unit {
                id,
                owner,
                kind,
                hp: shop_hp(level),
                atk: shop_atk(level),
                x,
                y,
            });
            id += 1;
        }
    }
    state.next_id = id;
    state
}

/// Every number at the largest an `int` holds where the rules let it grow: levels, gold, the
/// ids (the shop's the last ones), a unit's HP and ATK after many evolutions.
pub fn largest_numbers() -> State {
    let mut state = TsgAutoChess.new_match(SEED, &NoOptions {});
    let max = MAX_NUMBER as u32;
    for (p, player) in state.players.iter_mut().enumerate() {
        player.level = MAX_NUMBER;
        player.gold = MAX_NUMBER;
        player.kills = 0;
        for (slot, unit) in player.shop.iter_mut().enumerate() {
            let id = max - 5 + (3 * p + slot) as u32;
            *unit = ShopUnit::new(id, slot, MAX_NUMBER, unit.price);
        }
    }
    for (i, owner) in [0usize, 1, 0, 1].into_iter().enumerate() {
        state.units.push(Unit {
            id: max - 9 + i as u32,
            owner,
            kind: Kind::SOLD[i % 3],
            hp: MAX_NUMBER,
            atk: MAX_NUMBER,
            x: 3 + i as i32,
            y: 7,
        });
    }
    state.next_id = max;
    state.next_id += 1;
    state
}

/// A unit in each corner and on each edge's middle besides the kings' cells.
fn edges() -> State {
    let mut state = TsgAutoChess.new_match(SEED, &NoOptions {});
    state.players.iter_mut().for_each(|p| p.level = 2);
    let last = BOARD - 1;
    let cells = [
        (0, 0),
        (last, 0),
        (0, last),
        (last, last),
        (0, 7),
        (last, 7),
        (6, 0),
        (8, last),
    ];
    for (i, (x, y)) in cells.into_iter().enumerate() {
        state.units.push(Unit {
            id: state.next_id,
            owner: i % 2,
            kind: Kind::SOLD[i % 3],
            hp: shop_hp(2),
            atk: shop_atk(2),
            x,
            y,
        });
        state.next_id += 1;
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_board_is_full() {
        let state = full_board();
        assert_eq!(state.units.len(), (BOARD * BOARD) as usize);
        assert_eq!(state.army_size(0), 111);
        assert_eq!(state.army_size(1), 112);
    }
}

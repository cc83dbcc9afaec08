//! The built-in player: a seeded random player whose replies are all in the strict grammar and
//! whose commands the rules allow when it sends them. It buys often, levels up now and then,
//! evolves when it can, and walks its army towards the enemy king so that matches end.

use rand::{Rng, RngCore};

use super::engine::Occupancy;
use super::protocol::{Command, Move, TurnReply};
use super::rules::{
    chebyshev, on_board, to_frame, unit_limit, Kind, BOARD, BUY_RANGE, LEVELUP_COST,
};
use super::state::State;

/// The eight neighbouring steps.
const STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

pub fn random_reply(state: &State, p: usize, rng: &mut dyn RngCore) -> String {
    TurnReply {
        command: random_command(state, p, rng),
        moves: random_moves(state, p, rng),
    }
    .print()
}

fn random_command(state: &State, p: usize, rng: &mut dyn RngCore) -> Command {
    let player = &state.players[p];
    if player.gold >= LEVELUP_COST && rng.random_ratio(1, 8) {
        return Command::Levelup;
    }
    if rng.random_ratio(1, 2) {
        if let Some(ids) = evolvable(state, p) {
            return Command::Evolve(ids);
        }
    }
    let Some(king) = state.king(p).map(|k| k.at()) else {
        return Command::Nop;
    };
    let affordable: Vec<usize> = (0..3)
        .filter(|&s| player.shop[s].price <= player.gold)
        .collect();
    if affordable.is_empty() || state.army_size(p) >= unit_limit(player.level) {
        return Command::Nop;
    }
    let occupied = Occupancy::of(&state.units);
    let mut cells = Vec::with_capacity(49);
    for y in king.1 - BUY_RANGE..=king.1 + BUY_RANGE {
        for x in king.0 - BUY_RANGE..=king.0 + BUY_RANGE {
            if on_board((x, y)) && !occupied.holds((x, y)) {
                cells.push((x, y));
            }
        }
    }
    if cells.is_empty() {
        return Command::Nop;
    }
    let slot = affordable[rng.random_range(0..affordable.len())];
    let (x, y) = cells[rng.random_range(0..cells.len())];
    let (x, y) = to_frame(p, (i64::from(x), i64::from(y)));
    Command::Buy {
        id: i64::from(player.shop[slot].id),
        x,
        y,
    }
}

/// Three own units of one type, the strongest first.
fn evolvable(state: &State, p: usize) -> Option<[i64; 3]> {
    let kind = Kind::SOLD.into_iter().find(|&kind| {
        state
            .units
            .iter()
            .filter(|u| u.owner == p && u.kind == kind)
            .nth(2)
            .is_some()
    })?;
    let mut same: Vec<_> = state
        .units
        .iter()
        .filter(|u| u.owner == p && u.kind == kind)
        .collect();
    same.sort_by_key(|u| std::cmp::Reverse(u.hp));
    Some([0, 1, 2].map(|i| i64::from(same[i].id)))
}

fn random_moves(state: &State, p: usize, rng: &mut dyn RngCore) -> Vec<Move> {
    let target = state.king(1 - p).map_or((BOARD / 2, BOARD / 2), |k| k.at());
    let mut moves = Vec::new();
    for unit in state.units.iter().filter(|u| u.owner == p) {
        let (x, y) = unit.at();
        let step = if unit.kind == Kind::King {
            if !rng.random_ratio(1, 10) {
                continue;
            }
            STEPS[rng.random_range(0..STEPS.len())]
        } else if rng.random_ratio(3, 4) && chebyshev(unit.at(), target) > 1 {
            ((target.0 - x).signum(), (target.1 - y).signum())
        } else {
            STEPS[rng.random_range(0..STEPS.len())]
        };
        let to = (x + step.0, y + step.1);
        if !on_board(to) {
            continue;
        }
        let (mx, my) = to_frame(p, (i64::from(to.0), i64::from(to.1)));
        moves.push(Move {
            id: i64::from(unit.id),
            x: mx,
            y: my,
        });
    }
    moves
}

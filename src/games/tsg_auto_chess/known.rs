//! The departures of the official engine, main.rb, that shinpan can play (spec-notes, tsg
//! preamble and D-tsg-11; `departures:` in `rules.yaml`), so that `shinpan trace` names the
//! rule a main.rb recording breaks by reproducing what it shows.
//!
//! main.rb is played as a whole ([`main_rb`]), from the oldest step trace keeps to the step
//! that shows a departure, however many steps later: its grid, which its prompts never show,
//! is rebuilt by playing. Each way it departs is then played away in turn: the clause of a
//! way without which the play no longer shows a field is the one that field breaks.

use super::main_rb::{self, Ways};
use super::state::State;
use crate::seam::{PlayedDeparture, Reply};

/// [`crate::seam::KnownDepartures::departures_played`] for TSG AUTO CHESS: main.rb's set-up before the
/// first step; then main.rb played over `steps`, once with every way it departs and once
/// without each.
pub fn played(steps: &[(State, Vec<Reply>)]) -> Vec<PlayedDeparture<State>> {
    if steps.is_empty() {
        return vec![PlayedDeparture {
            clauses: vec!["board.size".into(), "board.kings-start".into()],
            state: main_rb_setup(),
            without: None,
        }];
    }
    let Some(all) = main_rb::play(steps, Ways::ALL) else {
        return Vec::new();
    };
    // Each way is a field's when the field is lost without it. Where two ways each alone
    // would give it (a unit off the grid and a king out of range: not hit either way), both
    // are its when the field is lost without the two.
    let each = Ways::each();
    let mut played: Vec<PlayedDeparture<State>> = each
        .iter()
        .map(|&(clause, ways)| PlayedDeparture {
            clauses: vec![clause.into()],
            state: all.clone(),
            without: main_rb::play(steps, ways),
        })
        .collect();
    // And a departure that shows at the step it happens: the last step played without it,
    // after main.rb's whole way before (what the first steps did, it does not undo).
    let withouts: Vec<Ways> = each.iter().map(|&(_, ways)| ways).collect();
    if let Some(last_without) = main_rb::play_then(steps, Ways::ALL, &withouts) {
        for (&(clause, _), without) in each.iter().zip(last_without) {
            played.push(PlayedDeparture {
                clauses: vec![clause.into()],
                state: all.clone(),
                without: Some(without),
            });
        }
    }
    for (i, &(first, without_first)) in each.iter().enumerate() {
        for &(second, without_second) in &each[i + 1..] {
            played.push(PlayedDeparture {
                clauses: vec![first.into(), second.into()],
                state: all.clone(),
                without: main_rb::play(steps, without_first.and(without_second)),
            });
        }
    }
    played
}

/// main.rb's set-up on its 9×9 board: each player sees its own king at (4, 8) and the enemy's
/// at (4, 0), so in player 0's frame (the canonical one) king 0 stands at (4, 8) and king 1 at
/// (4, 0).
fn main_rb_setup() -> State {
    let mut state = State::default();
    for unit in &mut state.units {
        match unit.id {
            0 => (unit.x, unit.y) = (4, 8),
            1 => (unit.x, unit.y) = (4, 0),
            _ => {}
        }
    }
    state
}

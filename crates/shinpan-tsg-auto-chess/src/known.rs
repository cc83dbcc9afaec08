//! The departures of the official engine, main.rb, that shinpan can play (spec-notes, tsg
//! preamble and D-tsg-11; `departures:` in `rules.yaml`), so that `shinpan trace` names the
//! rule a main.rb recording breaks by reproducing what it shows.
//!
//! main.rb is modelled from the match's first step to its last ([`MainRb`]): its grid, which
//! its prompts never show, is carried step by step, while what the prompts show is taken from
//! them. At a step that shows a departure, the step is played from that record with every
//! way main.rb departs, and again without each: the clause of a way without which the play no
//! longer shows a field is the one that field breaks. A way main.rb keeps leftovers of (the
//! dead and the consumed on its grid, the bought off it) is played away with its leftovers
//! too, so that a departure which shows many steps after it happened is still named.

use super::main_rb::{MainRb, Ways};
use super::state::State;
use shinpan_core::seam::{PlayedDeparture, Reply};

/// main.rb's set-up, against the document's: a 9×9 board, the kings on it.
pub fn set_up_played() -> Vec<PlayedDeparture<State>> {
    vec![PlayedDeparture {
        clauses: vec!["board.size".into(), "board.kings-start".into()],
        state: main_rb_setup(),
        without: None,
    }]
}

/// The step of `replies` from main.rb's record `record` with every way main.rb departs, once
/// without each way (and, for a way it keeps leftovers of, once more without them as well),
/// and once without each pair of ways.
pub fn played(record: &MainRb, replies: &[Reply]) -> Vec<PlayedDeparture<State>> {
    let play = |from: &MainRb, ways: Ways| {
        let mut game = from.clone();
        game.step(replies, ways);
        game.state
    };
    let all = play(record, Ways::ALL);
    let each = Ways::each();
    let mut played: Vec<PlayedDeparture<State>> = Vec::with_capacity(2 * each.len());
    for &(clause, ways) in &each {
        played.push(PlayedDeparture {
            clauses: vec![clause.into()],
            state: all.clone(),
            without: Some(play(record, ways)),
        });
        if MainRb::keeps_leftovers_of(ways) {
            played.push(PlayedDeparture {
                clauses: vec![clause.into()],
                state: all.clone(),
                without: Some(play(&record.without_leftovers(ways), ways)),
            });
        }
    }
    // Where two ways each alone would give a field (a unit off the grid and a king out of
    // range: not hit either way), both are its when the field is lost without the two.
    for (i, &(first, without_first)) in each.iter().enumerate() {
        for &(second, without_second) in &each[i + 1..] {
            let ways = without_first.and(without_second);
            played.push(PlayedDeparture {
                clauses: vec![first.into(), second.into()],
                state: all.clone(),
                without: Some(play(&record.without_leftovers(ways), ways)),
            });
        }
    }
    played
}

/// The step of `replies` from `record` without every way of main.rb's that breaks one of
/// `clauses`, and without what those ways left behind.
pub fn played_without(record: &MainRb, replies: &[Reply], clauses: &[&str]) -> State {
    let ways = Ways::each()
        .into_iter()
        .filter(|(clause, _)| clauses.contains(clause))
        .fold(Ways::ALL, |ways, (_, without)| ways.and(without));
    let mut game = record.without_leftovers(ways);
    game.step(replies, ways);
    game.state
}

/// Why main.rb itself fails on the step of `replies` from `record`, if it does.
pub fn fails(record: &MainRb, replies: &[Reply]) -> Option<String> {
    if record.failed.is_some() {
        return record.failed.clone();
    }
    let mut game = record.clone();
    game.step(replies, Ways::ALL);
    game.failed
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

//! The departures of the official engine, main.rb, that shinpan can play (spec-notes, tsg
//! preamble; `departures:` in `rules.yaml`), so that `shinpan trace` names the rule a main.rb
//! recording breaks by reproducing what it shows.

use super::engine::{self, Departures};
use super::state::State;
use crate::game::{PlayedDeparture, Reply};

/// [`crate::game::Game::departures_played`] for TSG AUTO CHESS: main.rb's set-up; its moves
/// and its evolve over the last step; its ghosts over the last one, two and three steps (a
/// ghost fights only after it died), taken off the list at the end as main.rb's prompts leave
/// them out.
pub fn played(steps: &[(State, Vec<Reply>)]) -> Vec<PlayedDeparture<State>> {
    let Some((last, replies)) = steps.last() else {
        return vec![PlayedDeparture {
            clauses: vec!["board.size".into(), "board.kings-start".into()],
            state: main_rb_setup(),
        }];
    };
    let one_step = [
        (
            "move.once",
            Departures {
                every_move_line: true,
                ..Departures::default()
            },
        ),
        (
            "evolve.result",
            Departures {
                evolve_floor: true,
                ..Departures::default()
            },
        ),
    ];
    let mut played: Vec<PlayedDeparture<State>> = one_step
        .into_iter()
        .filter_map(|(clause, departures)| {
            let mut state = last.clone();
            engine::step_with(&mut state, replies, departures).ok()?;
            Some(PlayedDeparture {
                clauses: vec![clause.into()],
                state,
            })
        })
        .collect();
    let ghosts = Departures {
        ghosts: true,
        ..Departures::default()
    };
    for start in 0..steps.len() {
        let mut state = steps[start].0.clone();
        let all_played = steps[start..]
            .iter()
            .all(|(_, replies)| engine::step_with(&mut state, replies, ghosts).is_ok());
        if all_played {
            state.units.retain(|u| u.hp > 0);
            played.push(PlayedDeparture {
                clauses: vec!["removal.dead".into()],
                state,
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

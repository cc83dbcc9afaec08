//! Reading a prompt back into the state it shows, for `shinpan trace`. A CODE VS 4.0 input
//! (5.1, D-codevs4-7) shows the stage, the turn, the player's own resources and time left,
//! every one of its units in full, and, within the vision of its units (4.3 視野), the enemy
//! units and the resource cells. So:
//!
//! - the own units are compared one by one (`units.<id>`), a unit the reference predicted and
//!   the prompt lacks included;
//! - an enemy unit is compared where the prompt's vision reaches: shown there, or predicted
//!   there and missing; out of sight it stays as known (trace reads both players' prompts, so
//!   every unit is shown to its owner each turn anyway);
//! - the resource cells in sight are compared too, but a cell shown that the known state lacks
//!   may have just come out of the fog (the state keeps no memory of what was seen, and a
//!   trace starts from the first prompts, which show only the cells near each castle), so a
//!   prompt that only adds cells is taken as shown (`drawn`); one that lacks a cell the known
//!   state has in sight is compared;
//! - the time left is measured by the engine: shown, not compared.
//!
//! The enemy's resources, the id the next production takes and the outcome are not shown and
//! stay as known. Read onto nothing (the first prompt of a trace), a prompt that does not show
//! the enemy castle gets a stand-in for it out of sight, a castle with id 20000 (no castle ever
//! has it: castles are never produced), so that the state can be played; the enemy's own
//! prompt replaces it, its units shown there for the first time (taken as shown, not
//! compared), and the stand-in itself is never compared.

use std::collections::{BTreeMap, BTreeSet};

use super::protocol::{Prompt, Sight, UnitLine};
use super::rules::{Cell, Kind, MAX_ID, SIZE};
use super::state::{State, Unit, Units};
use super::Codevs4;
use shinpan_core::seam::{Observation, Observed, Recorded};

impl Recorded for Codevs4 {
    /// The state the prompt shows to `player`, on top of `known`: own units in full; enemy
    /// units and resource cells where the own units see (see the module doc).
    ///
    /// Long (about 110 lines) because it reads the prompt in its own order, one block a part of it,
    /// each writing what it shows into the state it builds.
    fn observe(&self, prompt: &str, player: usize, known: Option<&State>) -> Observed<State> {
        let prompt = Prompt::parse(prompt)?;
        let me = player.min(1);
        let mut state = known.cloned().unwrap_or_default();
        state.stage = prompt.stage;
        state.turn = prompt.turn;
        state.players[me].resources = prompt.resources;
        state.players[me].time_left_ms = prompt.time_left_ms;
        let time = format!("players[{me}].time_left_ms");
        let mut shown = vec![
            "stage".to_string(),
            "turn".to_string(),
            format!("players[{me}].resources"),
            time.clone(),
        ];
        let mut drawn = vec![time];

        // Own units: all of them, the known ones replaced. Behind a stand-in castle of this
        // player's, they were never shown: they come out of the fog now.
        let unseen = state.units.iter().any(|u| u.owner == me && stand_in(u));
        let mut units: BTreeMap<u32, Unit> = state.units.iter().map(|u| (u.id, *u)).collect();
        let mut compared: BTreeSet<u32> = BTreeSet::new();
        units.retain(|&id, unit| {
            let mine = unit.owner == me;
            if mine && !stand_in(unit) {
                compared.insert(id);
            }
            !mine
        });
        for line in &prompt.own {
            compared.insert(line.id);
            units.insert(line.id, unit_of(line, me));
        }
        if unseen {
            drawn.extend(compared.iter().map(|id| format!("units.{id}")));
        }
        state.units = Units(units.values().copied().collect());

        // Enemy units and resource cells: where the own units see.
        let sight = Sight::of(&state, me);
        let castle_shown = prompt.enemies.iter().any(|u| u.kind == Kind::Castle);
        units.retain(|&id, unit| {
            if stand_in(unit) {
                return !castle_shown && !sight.sees(unit.cell);
            }
            let hidden = unit.owner == me || !sight.sees(unit.cell);
            if !hidden {
                compared.insert(id);
            }
            hidden
        });
        for line in &prompt.enemies {
            compared.insert(line.id);
            units.insert(line.id, unit_of(line, 1 - me));
        }
        let enemy_castle = units
            .values()
            .any(|u| u.owner != me && u.kind == Kind::Castle);
        if known.is_none() && !enemy_castle && !units.contains_key(&MAX_ID) {
            let hidden = (0..SIZE * SIZE)
                .map(|i| Cell {
                    x: i % SIZE,
                    y: i / SIZE,
                })
                .filter(|c| !sight.sees(*c))
                .max_by_key(|c| if me == 0 { c.x + c.y } else { -c.x - c.y });
            if let Some(cell) = hidden {
                units.insert(MAX_ID, Unit::new(MAX_ID, 1 - me, Kind::Castle, cell));
            }
        }
        state.units = Units(units.into_values().collect());
        shown.extend(compared.iter().map(|id| format!("units.{id}")));

        let seen: Vec<Cell> = prompt
            .resource_cells
            .iter()
            .map(|&(y, x)| Cell { x, y })
            .collect();
        let lost = state
            .resource_cells
            .iter()
            .any(|c| sight.sees(*c) && !seen.contains(c));
        let found: Vec<Cell> = seen
            .iter()
            .filter(|c| !state.resource_cells.contains(c))
            .copied()
            .collect();
        state
            .resource_cells
            .retain(|c| !sight.sees(*c) || seen.contains(c));
        let new_cells = !found.is_empty();
        state.resource_cells.extend(found);
        shown.push("resource_cells".into());
        if new_cells && !lost {
            drawn.push("resource_cells".into());
        }

        // A unit the reference did not produce may carry an id past the one it would give next.
        if let (Some(next), Some(max)) = (state.next_id, state.units.max_id()) {
            if max >= next {
                state.next_id = Some(max.saturating_add(1));
            }
        }
        Ok(Observation {
            state,
            shown,
            drawn,
        })
    }
}

/// The stand-in for an enemy castle no prompt has shown yet (see the module doc).
fn stand_in(unit: &Unit) -> bool {
    unit.id == MAX_ID && unit.kind == Kind::Castle
}

fn unit_of(line: &UnitLine, owner: usize) -> Unit {
    Unit {
        id: line.id,
        owner,
        kind: line.kind,
        cell: Cell {
            x: line.x,
            y: line.y,
        },
        hp: line.hp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Codevs4, Options};
    use shinpan_core::seam::Game;

    #[test]
    fn both_prompts_read_back_into_the_state_they_came_from() {
        let state = Codevs4.new_match(3, &Options::stage(30));
        let first = Codevs4.prompt(&state, 0);
        let seen = Codevs4.observe(&first, 0, None).unwrap();
        assert_eq!(Codevs4.prompt(&seen.state, 0), first);
        assert!(
            Codevs4.validate(&seen.state).is_ok(),
            "a stand-in enemy castle"
        );
        assert!(!seen.shown.contains(&format!("units.{MAX_ID}")));
        // The cells near the castle came out of the fog: taken as shown.
        let drawn = seen.drawn.contains(&"resource_cells".to_string());
        assert_eq!(drawn, !seen.state.resource_cells.is_empty());
        let second = Codevs4.prompt(&state, 1);
        let seen = Codevs4.observe(&second, 1, Some(&seen.state)).unwrap();
        assert_eq!(Codevs4.prompt(&seen.state, 1), second);
        assert_eq!(seen.state.units, state.units, "the stand-in castle is gone");
        assert_eq!(seen.state.stage, 30);
    }

    #[test]
    fn an_enemy_in_sight_that_the_prompt_lacks_is_compared_and_removed() {
        let mut state = Codevs4.new_match(3, &Options::default());
        let castle = *state.units.get(0).unwrap();
        // An enemy worker next to player 0's castle.
        let intruder = Unit::new(40, 1, super::super::rules::Kind::Worker, castle.cell);
        let prompt = Codevs4.prompt(&state, 0);
        state.units.0.push(intruder);
        let seen = Codevs4.observe(&prompt, 0, Some(&state)).unwrap();
        assert!(seen.shown.contains(&"units.40".to_string()));
        assert!(seen.state.units.get(40).is_none());
    }

    /// D-codevs4-13: the resource cells come in no fixed order; the same cells in another order
    /// read back into the same state, onto nothing and onto the known state alike.
    #[test]
    fn resource_cells_in_another_order_read_back_the_same() {
        let mut state = Codevs4.new_match(3, &Options::default());
        let castle = state.units.get(0).unwrap().cell;
        // Three of the cells moved next to player 0's castle, in sight.
        for (i, cell) in state.resource_cells.iter_mut().take(3).enumerate() {
            *cell = Cell {
                x: castle.x + 3 - i as i32,
                y: castle.y + i as i32,
            };
        }
        let mut prompt = Prompt::of(&state, 0);
        assert_eq!(prompt.resource_cells.len(), 3);
        let sorted = Codevs4.observe(&prompt.print(), 0, Some(&state)).unwrap();
        prompt.resource_cells.reverse();
        let reversed = Codevs4.observe(&prompt.print(), 0, Some(&state)).unwrap();
        assert_eq!(reversed, sorted);
        assert_eq!(
            reversed.state, state,
            "nothing differs from the known state"
        );
        let onto_nothing = Codevs4.observe(&prompt.print(), 0, None).unwrap();
        let mut cells = onto_nothing.state.resource_cells.clone();
        cells.sort_by_key(|c| (c.y, c.x));
        let mut expected = state.resource_cells[..3].to_vec();
        expected.sort_by_key(|c| (c.y, c.x));
        assert_eq!(cells, expected);
    }

    #[test]
    fn a_malformed_prompt_is_an_error() {
        assert!(Codevs4.observe("1\n2\n", 0, None).is_err());
        assert!(Codevs4.observe("", 1, None).is_err());
    }
}

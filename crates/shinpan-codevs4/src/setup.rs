//! 4.1 ステージの初期状態 (D-codevs4-9): each castle at a random cell within Manhattan 40 of its
//! corner, five workers on it; ten resource cells drawn within Manhattan 99 of (0,0), then ten
//! within 99 of (99,99), never within either castle's vision and never on a cell already drawn.
//! Every draw is uniform over the cells allowed, and all of it follows from the match seed.

use rand::Rng;
use serde_json::json;

use super::rules::{
    Cell, Kind, CASTLE_SPREAD, CORNERS, RESOURCES_PER_CORNER, RESOURCE_SPREAD, SIZE, START_WORKERS,
};
use super::state::{Player, State, Unit, Units};
use super::Codevs4;
use shinpan_core::seam::Facts;

/// The stream of the seed's generator the set-up draws from (the built-in players use 1 and 2).
const SETUP_STREAM: u64 = 0;

/// A new stage: set-up drawn from `seed`, `stage` as given.
pub fn new_stage(seed: u64, stage: u32) -> State {
    let mut rng = shinpan_core::rng::seeded(seed, SETUP_STREAM);
    let castles = CORNERS.map(|corner| random_cell_near(&mut rng, corner, CASTLE_SPREAD, |_| true));
    let mut units = Vec::new();
    let mut id = 0;
    for (owner, castle) in castles.iter().enumerate() {
        units.push(Unit::new(id, owner, Kind::Castle, *castle));
        id += 1;
        for _ in 0..START_WORKERS {
            units.push(Unit::new(id, owner, Kind::Worker, *castle));
            id += 1;
        }
    }
    let vision = Kind::Castle.vision();
    let mut resource_cells: Vec<Cell> = Vec::new();
    for corner in CORNERS {
        for _ in 0..RESOURCES_PER_CORNER {
            let cell = random_cell_near(&mut rng, corner, RESOURCE_SPREAD, |c| {
                castles.iter().all(|castle| castle.distance(c) > vision)
                    && !resource_cells.contains(&c)
            });
            resource_cells.push(cell);
        }
    }
    State {
        stage,
        turn: 0,
        players: [Player::default(), Player::default()],
        units: Units(units),
        resource_cells,
        next_id: Some(id),
        outcome: None,
    }
}

/// A cell drawn uniformly among those within `spread` of `corner` that `allowed` accepts
/// (by rejection: uniform over the field, kept when it qualifies).
fn random_cell_near(
    rng: &mut impl Rng,
    corner: Cell,
    spread: i32,
    allowed: impl Fn(Cell) -> bool,
) -> Cell {
    loop {
        let cell = Cell {
            x: rng.random_range(0..SIZE),
            y: rng.random_range(0..SIZE),
        };
        if cell.distance(corner) <= spread && allowed(cell) {
            return cell;
        }
    }
}

impl Facts for Codevs4 {
    /// `castle_distance_from_corner` (each castle's distance from its corner),
    /// `workers_on_castle`, `units_by_owner`, `resource_cells`, `distinct_resource_cells`,
    /// `tenth_nearest_resource_to_each_corner` (of all the resource cells, the distance of the
    /// tenth nearest to (0,0), and to (99,99): whatever order the cells were drawn in, ten of
    /// them can be within a distance d of each corner, no cell counted twice, exactly when both
    /// are at most d, since every cell is within 99 of one corner or the other),
    /// `nearest_resource_to_a_castle`.
    ///
    /// Facts of a state for the set-up's generator cases (see `Codevs4::facts`).
    fn facts(&self, state: &State) -> serde_json::Value {
        let castle_of = |p: usize| {
            state
                .units
                .iter()
                .find(|u| u.owner == p && u.kind == Kind::Castle)
                .map(|u| u.cell)
        };
        let castles = [castle_of(0), castle_of(1)];
        let castle_distance: Vec<Option<i32>> = (0..2)
            .map(|p| castles[p].map(|c| c.distance(CORNERS[p])))
            .collect();
        let workers_on_castle: Vec<usize> = (0..2)
            .map(|p| {
                state
                    .units
                    .iter()
                    .filter(|u| {
                        u.owner == p && u.kind == Kind::Worker && Some(u.cell) == castles[p]
                    })
                    .count()
            })
            .collect();
        let units_by_owner: Vec<usize> = (0..2)
            .map(|p| state.units.iter().filter(|u| u.owner == p).count())
            .collect();
        let tenth_nearest: Vec<Option<i32>> = CORNERS
            .iter()
            .map(|&corner| {
                let mut distances: Vec<i32> = state
                    .resource_cells
                    .iter()
                    .map(|c| c.distance(corner))
                    .collect();
                distances.sort_unstable();
                distances.get(RESOURCES_PER_CORNER - 1).copied()
            })
            .collect();
        let nearest_to_castle = state
            .resource_cells
            .iter()
            .flat_map(|r| castles.iter().flatten().map(move |c| c.distance(*r)))
            .min();
        let mut distinct = state.resource_cells.clone();
        distinct.sort_unstable();
        distinct.dedup();
        json!({
            "castle_distance_from_corner": castle_distance,
            "workers_on_castle": workers_on_castle,
            "units_by_owner": units_by_owner,
            "resource_cells": state.resource_cells.len(),
            "distinct_resource_cells": distinct.len(),
            "tenth_nearest_resource_to_each_corner": tenth_nearest,
            "nearest_resource_to_a_castle": nearest_to_castle,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_decides_the_stage() {
        assert_eq!(new_stage(5, 0), new_stage(5, 0));
        assert_ne!(new_stage(5, 0).units, new_stage(6, 0).units);
    }

    #[test]
    fn set_up_follows_the_document() {
        for seed in 0..50 {
            let state = new_stage(seed, 3);
            shinpan_core::seam::GameState::validate(&state).unwrap();
            assert_eq!(state.units.0.len(), 12);
            assert_eq!(state.resource_cells.len(), 20);
            assert_eq!(state.next_id(), 12);
        }
    }
}

//! What a field yields: each tile's resources for a player (D-cedec-4). Pure functions of the
//! tiles, used by the engine and the prompt. (What it is worth, the scores, is the field's
//! own: [`Field::scores`], which the state's check needs.)

use super::rules::{neighbours, Base};
use super::state::Field;

/// D-cedec-4: the resources of tile `i` for `player`: 1 + its adjacent own excavators on an
/// own plain settlement, else 0.
pub fn resources_of(tiles: &Field, i: usize, player: usize) -> u32 {
    let tile = &tiles.0[i];
    if !tile.owned_by(player) || !tile.is_plain_settlement() {
        return 0;
    }
    let excavators = neighbours(i)
        .filter(|&n| tiles.0[n].owned_by(player) && tiles.0[n].base == Some(Base::Excavator))
        .count() as u32;
    1 + excavators
}

/// D-cedec-4: the resources on tile `i` and its neighbours, counted for `player`.
pub fn resources_around(tiles: &Field, i: usize, player: usize) -> u32 {
    resources_of(tiles, i, player)
        + neighbours(i)
            .map(|n| resources_of(tiles, n, player))
            .sum::<u32>()
}

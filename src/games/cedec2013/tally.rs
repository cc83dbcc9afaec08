//! What a field is worth: each tile's resources for a player (D-cedec-4) and each player's
//! score (D-cedec-9). Pure functions of the tiles, used by the engine, the prompt and the
//! state's own check.

use super::rules::{neighbours, Base, BASE_SCORE, PLAYERS, SETTLEMENT_SCORE};
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

/// D-cedec-9: 1 per own settlement, 3 (+ a town's bonus) per own base, 0 per hole.
pub fn scores(tiles: &Field) -> [u32; PLAYERS] {
    let mut scores = [0u32; PLAYERS];
    for tile in &tiles.0 {
        let Some(owner) = tile.owner else { continue };
        let points = match (tile.hole, tile.base) {
            (true, _) => 0,
            (false, Some(_)) => BASE_SCORE + tile.bonus,
            (false, None) => SETTLEMENT_SCORE,
        };
        if let Some(score) = scores.get_mut(usize::from(owner)) {
            *score = score.saturating_add(points);
        }
    }
    scores
}

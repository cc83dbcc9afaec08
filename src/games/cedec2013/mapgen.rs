//! 「初期配置」 (D-cedec-8): the starting field drawn from the seed, and the facts generator
//! cases check about it.
//!
//! A third of the field is drawn — one factory tile, each other tile a hole one time in five,
//! drawn again at 15 holes or more — and turned by 120° and 240° for the other two players; the
//! centre stays wasteland. The whole map is then drawn again unless the factories reach each
//! other through non-hole tiles and more than half of the non-hole tiles are reachable.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::rules::{
    generated_third, index, neighbours, rotate120, rotate240, Base, HOLE_ONE_IN, MAX_THIRD_HOLES,
    PLAYERS, TILES,
};
use super::state::{Field, Landform, Tile};

pub fn generate(seed: u64) -> Field {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let third: Vec<(i8, i8)> = generated_third().collect();
    loop {
        let mut holes: Vec<bool> = third
            .iter()
            .map(|_| rng.random_range(0..HOLE_ONE_IN) == 0)
            .collect();
        let factory = rng.random_range(0..third.len());
        holes[factory] = false;
        if holes.iter().filter(|&&h| h).count() >= MAX_THIRD_HOLES {
            continue;
        }
        let mut field = Field::default();
        for (k, &p) in third.iter().enumerate() {
            for (owner, q) in [p, rotate120(p), rotate240(p)].into_iter().enumerate() {
                let Some(i) = index(i32::from(q.0), i32::from(q.1)) else {
                    continue;
                };
                field.0[i] = if k == factory {
                    Tile {
                        owner: Some(owner as u8),
                        base: Some(Base::Initial),
                        ..Tile::default()
                    }
                } else {
                    Tile {
                        hole: holes[k],
                        ..Tile::default()
                    }
                };
            }
        }
        if Reach::of(&field).accepted() {
            return field;
        }
    }
}

/// How much of the non-hole land player 0's factory (else the first factory) reaches. Once the
/// factories reach each other, any of them reaches the same land.
struct Reach {
    land: usize,
    reachable: usize,
    factories_connected: bool,
}

impl Reach {
    fn of(field: &Field) -> Reach {
        let factories: Vec<usize> = (0..TILES)
            .filter(|&i| field.0[i].base == Some(Base::Initial))
            .collect();
        let land = field.0.iter().filter(|t| !t.hole).count();
        let mut seen = [false; TILES];
        let start = factories
            .iter()
            .copied()
            .find(|&f| field.0[f].owned_by(0))
            .or(factories.first().copied());
        let mut queue: Vec<usize> = start.into_iter().collect();
        for &i in &queue {
            seen[i] = true;
        }
        while let Some(i) = queue.pop() {
            for n in neighbours(i) {
                if !seen[n] && !field.0[n].hole {
                    seen[n] = true;
                    queue.push(n);
                }
            }
        }
        Reach {
            land,
            reachable: seen.iter().filter(|&&s| s).count(),
            factories_connected: !factories.is_empty() && factories.iter().all(|&f| seen[f]),
        }
    }

    fn more_than_half(&self) -> bool {
        2 * self.reachable > self.land
    }

    /// The whole-map test a drawn map must pass, else it is drawn again.
    fn accepted(&self) -> bool {
        self.factories_connected && self.more_than_half()
    }
}

pub fn facts(field: &Field) -> Value {
    let mut by_landform = serde_json::Map::new();
    for landform in Landform::ALL {
        let count = field.0.iter().filter(|t| t.landform() == landform).count();
        by_landform.insert(landform.name().into(), count.into());
    }
    let mut factory_owners: Vec<Option<u8>> = field
        .0
        .iter()
        .filter(|t| t.base == Some(Base::Initial))
        .map(|t| t.owner)
        .collect();
    factory_owners.sort_unstable();
    let rotation_symmetric = (0..TILES).all(|i| {
        let (x, y) = super::rules::COORDS[i];
        let (rx, ry) = rotate120((x, y));
        let Some(j) = index(i32::from(rx), i32::from(ry)) else {
            return false;
        };
        let (a, b) = (field.0[i], field.0[j]);
        a.hole == b.hole
            && a.base == b.base
            && a.robots == b.robots
            && a.owner.map(|o| (o + 1) % PLAYERS as u8) == b.owner
    });
    let reach = Reach::of(field);
    let holes = field.0.iter().filter(|t| t.hole).count();
    json!({
        "holes": holes,
        // Whole when the thirds are rotations of each other (checked by `rotation_symmetric`).
        "holes_per_third": holes / PLAYERS,
        "robots": field.0.iter().map(|t| u64::from(t.robots)).sum::<u64>(),
        "tiles_by_landform": by_landform,
        "centre_is_hole": field.0[index(0, 0).unwrap_or(63)].hole,
        "factories": factory_owners.len(),
        "factory_owners": factory_owners,
        "rotation_symmetric": rotation_symmetric,
        "land": reach.land,
        "reachable_land": reach.reachable,
        "reachable_more_than_half": reach.more_than_half(),
        "factories_connected": reach.factories_connected,
        "accepted_by_generator": reach.accepted(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_decides_the_map() {
        assert_eq!(generate(5), generate(5));
        assert_ne!(generate(5), generate(6));
    }

    #[test]
    fn generated_maps_keep_the_guarantees() {
        for seed in 0..50 {
            let facts = facts(&generate(seed));
            assert_eq!(facts["rotation_symmetric"], true, "seed {seed}");
            assert_eq!(facts["factories_connected"], true, "seed {seed}");
            assert!(facts["holes"].as_u64().unwrap() < 45, "seed {seed}");
        }
    }
}

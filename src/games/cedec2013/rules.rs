//! The numbers, the hexagonal geometry and the base list of CEDEC CHALLENGE 2013 "Terraforming",
//! each with the section of the rule document (seed 002) or the `D-cedec-*` decision of
//! `shared/spec-notes.md` it comes from. Pure data and functions only: the engine composes them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// D-cedec-1: exactly three players, ids 0, 1 and 2, taking turns in that order.
pub const PLAYERS: usize = 3;
/// 「Field / フィールド」, D-cedec-2: a hexagon of hexagons, 7 tiles a side, so the tiles lie
/// within this axial distance of the centre.
pub const RADIUS: i8 = 6;
/// 「Field / フィールド」: 127 tiles.
pub const TILES: usize = 127;
/// D-cedec-10: the width printed in the request, `7 127` (the radius plus one).
pub const FIELD_WIDTH: u32 = RADIUS as u32 + 1;
/// 「ゲームの終了」, D-cedec-1: 200 rounds of three player turns.
pub const ROUNDS: u32 = 200;
/// 「ゲームの終了」: the match ends when a player has this many points.
pub const WINNING_SCORE: u32 = 100;

/// 「得点計算と勝敗」, D-cedec-9: an own settlement is worth 1 point.
pub const SETTLEMENT_SCORE: u32 = 1;
/// 「得点計算と勝敗」, D-cedec-9: an own tile with a base (a bridge included) is worth 3.
pub const BASE_SCORE: u32 = 3;

/// QUICKSTART 「ロボット製造機」, D-cedec-3: the starting factory makes 5 robots at its owner's
/// turn start.
pub const FACTORY_OUTPUT: u32 = 5;
/// D-cedec-3: a robotmaker makes 1 robot at its owner's turn start.
pub const ROBOTMAKER_OUTPUT: u32 = 1;
/// D-cedec-3: a tower takes 2 robots from each enemy-held tile it reaches ...
pub const TOWER_DAMAGE: u32 = 2;
/// ... on the six straight lines, at distance 1 and 2.
pub const TOWER_RANGE: i8 = 2;
/// D-cedec-3: a town scores the resources around it minus this.
pub const TOWN_BONUS_OFFSET: u32 = 9;

/// 「初期配置」, D-cedec-8: a tile of the generated third is a hole with probability 1/5.
pub const HOLE_ONE_IN: u32 = 5;
/// 「初期配置」, D-cedec-8: a third with this many holes or more is generated again.
pub const MAX_THIRD_HOLES: usize = 15;

/// QUICKSTART 「ゲーム開始時の制限時間」, D-cedec-11: the name must come within 5000 ms.
pub const NAME_LIMIT_MS: u64 = 5_000;
/// D-cedec-11: each turn's commands must come within 1000 ms ...
pub const TURN_LIMIT_MS: u64 = 1_000;
/// ... and the time over that limit may add up to 5000 ms over the match.
pub const OVERRUN_POOL_MS: u64 = 5_000;
/// D-cedec-11: the name of a player that gave none in time.
pub const NO_NAME: &str = "nanashi";
/// The official engine keeps the first 20 characters of a name (rules.yaml `name.length`).
pub const MAX_NAME_CHARS: usize = 20;

/// D-cedec-2: the six directions and their axial offsets (x, y).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Right,
    Left,
    UpRight,
    UpLeft,
    DownRight,
    DownLeft,
}

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction::Right,
        Direction::Left,
        Direction::UpRight,
        Direction::UpLeft,
        Direction::DownRight,
        Direction::DownLeft,
    ];

    pub const fn offset(self) -> (i8, i8) {
        match self {
            Direction::Right => (1, 0),
            Direction::Left => (-1, 0),
            Direction::UpRight => (1, -1),
            Direction::UpLeft => (0, -1),
            Direction::DownRight => (0, 1),
            Direction::DownLeft => (-1, 1),
        }
    }

    /// The protocol's name: `r l ur ul dr dl`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Right => "r",
            Direction::Left => "l",
            Direction::UpRight => "ur",
            Direction::UpLeft => "ul",
            Direction::DownRight => "dr",
            Direction::DownLeft => "dl",
        }
    }

    pub fn from_name(name: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// 「基地リスト」 (QUICKSTART 「基地一覧」, D-cedec-3): what can stand on a base tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Base {
    /// The starting factory; never built.
    Initial,
    Robotmaker,
    Excavator,
    Tower,
    Bridge,
    House,
    Town,
}

impl Base {
    /// D-cedec-3: every base a player may build, in the protocol's order.
    pub const BUILDABLE: [Base; 6] = [
        Base::Robotmaker,
        Base::Excavator,
        Base::Tower,
        Base::Bridge,
        Base::House,
        Base::Town,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Base::Initial => "initial",
            Base::Robotmaker => "robotmaker",
            Base::Excavator => "excavator",
            Base::Tower => "tower",
            Base::Bridge => "bridge",
            Base::House => "house",
            Base::Town => "town",
        }
    }

    /// D-cedec-3: robots spent on the tile to build it.
    pub const fn robot_cost(self) -> u32 {
        match self {
            Base::Initial => 0,
            Base::Robotmaker => 50,
            Base::Excavator | Base::Tower => 25,
            Base::Bridge => 15,
            Base::House | Base::Town => 10,
        }
    }

    /// D-cedec-3: resources needed around the tile (never spent).
    pub const fn resource_cost(self) -> u32 {
        match self {
            Base::Initial => 0,
            Base::Tower => 5,
            Base::Town => 9,
            Base::Robotmaker | Base::Excavator | Base::Bridge | Base::House => 4,
        }
    }

    /// D-cedec-6: the buildable base whose name starts with `prefix`, when exactly one does.
    pub fn from_prefix(prefix: &str) -> Result<Base, Vec<Base>> {
        let matching: Vec<Base> = Base::BUILDABLE
            .into_iter()
            .filter(|b| b.name().starts_with(prefix))
            .collect();
        match matching.as_slice() {
            [one] => Ok(*one),
            _ => Err(matching),
        }
    }
}

/// D-cedec-2: whether (x, y) is one of the 127 tiles.
pub const fn on_field(x: i32, y: i32) -> bool {
    let r = RADIUS as i32;
    x >= -r && x <= r && y >= -r && y <= r && x + y >= -r && x + y <= r
}

/// The lowest y of column x.
const fn y_min(x: i8) -> i8 {
    if x >= 0 {
        -RADIUS
    } else {
        -RADIUS - x
    }
}

/// `COLUMN_START[x + 6]`: the index of column x's first tile in x-then-y order.
const COLUMN_START: [u8; 13] = {
    let mut starts = [0u8; 13];
    let mut x = -RADIUS;
    let mut next = 0u8;
    while x <= RADIUS {
        starts[(x + RADIUS) as usize] = next;
        next += (2 * RADIUS + 1 - x.abs()) as u8;
        x += 1;
    }
    starts
};

/// The index of tile (x, y) in x-then-y order (D-cedec-10), `None` off the field.
pub fn index(x: i32, y: i32) -> Option<usize> {
    if !on_field(x, y) {
        return None;
    }
    let (x, y) = (x as i8, y as i8);
    Some(usize::from(COLUMN_START[(x + RADIUS) as usize]) + (y - y_min(x)) as usize)
}

/// `COORDS[i]`: the tile with index i, sorted by x then y as the request lists them.
pub const COORDS: [(i8, i8); TILES] = {
    let mut coords = [(0i8, 0i8); TILES];
    let mut i = 0;
    let mut x = -RADIUS;
    while x <= RADIUS {
        let mut y = y_min(x);
        while y <= RADIUS && x + y <= RADIUS {
            coords[i] = (x, y);
            i += 1;
            y += 1;
        }
        x += 1;
    }
    coords
};

/// The index of the tile `distance` steps from tile `from` in direction `dir`, if on the field.
pub fn toward(from: usize, dir: Direction, distance: i8) -> Option<usize> {
    let (x, y) = COORDS[from];
    let (dx, dy) = dir.offset();
    index(
        i32::from(x) + i32::from(dx) * i32::from(distance),
        i32::from(y) + i32::from(dy) * i32::from(distance),
    )
}

/// The (up to six) neighbours of a tile.
pub fn neighbours(tile: usize) -> impl Iterator<Item = usize> {
    Direction::ALL
        .into_iter()
        .filter_map(move |d| toward(tile, d, 1))
}

/// 「初期配置」, D-cedec-8: the generated third, {(x, y) : y ≥ 0, x + y ≥ 1} (42 tiles).
pub fn generated_third() -> impl Iterator<Item = (i8, i8)> {
    (0..=RADIUS).flat_map(|y| (1 - y..=RADIUS - y).map(move |x| (x, y)))
}

/// D-cedec-8: the copy of a tile for the second player, a 120° turn about the centre.
pub const fn rotate120((x, y): (i8, i8)) -> (i8, i8) {
    (-(x + y), x)
}

/// D-cedec-8: the copy for the third player, a 240° turn.
pub const fn rotate240((x, y): (i8, i8)) -> (i8, i8) {
    (y, -(x + y))
}

/// D-cedec-3: a town's extra points for the resources around it when it is built.
pub fn town_bonus(resources_around: u32) -> u32 {
    resources_around.saturating_sub(TOWN_BONUS_OFFSET)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_coords_agree() {
        for (i, &(x, y)) in COORDS.iter().enumerate() {
            assert_eq!(index(i32::from(x), i32::from(y)), Some(i));
        }
        assert_eq!(COORDS[0], (-6, 0));
        assert_eq!(COORDS[TILES - 1], (6, 0));
        assert_eq!(index(6, 6), None);
        assert_eq!(index(0, 0), Some(63));
    }

    #[test]
    fn three_thirds_and_the_centre_make_the_field() {
        let mut seen = [false; TILES];
        seen[index(0, 0).unwrap()] = true;
        for p in generated_third() {
            for q in [p, rotate120(p), rotate240(p)] {
                let i = index(i32::from(q.0), i32::from(q.1)).unwrap();
                assert!(!seen[i], "{q:?} twice");
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(generated_third().count(), 42);
    }

    #[test]
    fn prefixes_of_base_names() {
        assert_eq!(Base::from_prefix("h"), Ok(Base::House));
        assert_eq!(Base::from_prefix("to"), Err(vec![Base::Tower, Base::Town]));
        assert_eq!(Base::from_prefix("tow"), Err(vec![Base::Tower, Base::Town]));
        assert_eq!(Base::from_prefix("towe"), Ok(Base::Tower));
        assert_eq!(Base::from_prefix("initial"), Err(vec![]));
    }

    #[test]
    fn centre_has_six_neighbours_corner_three() {
        assert_eq!(neighbours(index(0, 0).unwrap()).count(), 6);
        assert_eq!(neighbours(index(6, 0).unwrap()).count(), 3);
    }
}

//! The numbers and formulas of CODE VS 4.0, each with the section of the rule document (seed 000)
//! or the `D-codevs4-*` decision of `shared/spec-notes.md` it comes from. Pure functions only:
//! the engine composes them.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// 2.1 フィールド: the field is 100 cells high and 100 wide; (0, 0) is the top left cell, x grows
/// to the right and y downwards.
pub const SIZE: i32 = 100;
/// 2.1: the number of cells, for per-cell tables.
pub const CELLS: usize = (SIZE * SIZE) as usize;

/// 3.1: a game has 41 stages, numbered 0..=40.
pub const STAGES: u32 = 41;
/// 3.1: a stage lasts at most 1000 turns, numbered 0..=999 (D-codevs4-3).
pub const TURNS: u32 = 1000;

/// 4.2: unit ids are integers 0..=20000.
pub const MAX_ID: u32 = 20_000;
/// D-codevs4-4: the ids of the set-up: player 0's castle 0 and workers 1–5, player 1's castle 6
/// and workers 7–11; the first unit produced takes 12.
pub const FIRST_PRODUCED_ID: u32 = 12;
/// 4.1: each player starts with five workers on its castle.
pub const START_WORKERS: u32 = 5;
/// 4.1: a castle appears within this Manhattan distance of its player's corner.
pub const CASTLE_SPREAD: i32 = 40;
/// 4.1: resource cells near each corner.
pub const RESOURCES_PER_CORNER: usize = 10;
/// 4.1: resource cells are drawn within this Manhattan distance of their corner.
pub const RESOURCE_SPREAD: i32 = 99;
/// 4.1: 20 resource cells in all.
pub const RESOURCE_CELLS: usize = 2 * RESOURCES_PER_CORNER;
/// The corner each player's castle is drawn near (4.1): player 0 top left, player 1 bottom right.
pub const CORNERS: [Cell; 2] = [Cell { x: 0, y: 0 }, Cell { x: 99, y: 99 }];
/// Settled (rules.yaml `setup.no-starting-resources`): the document gives no starting stock.
pub const START_RESOURCES: u32 = 0;

/// 4.4: a cell holding more than this many enemy units counts as this many in k.
pub const CELL_CAP: u32 = 10;

/// 4.5: one cell yields at most this much to one player in one turn.
pub const GATHER_CAP: u32 = 5;
/// 4.5: every player receives this much every turn besides what its workers gather.
pub const BASE_INCOME: u32 = 10;

/// D-codevs4-11 (rules.yaml `time.budget`): the thinking time a player has for the whole game,
/// all 41 stages. The document shows the time left in every input (its example: 3,598,517 ms at
/// turn 27) but names no total; captured games start stage 0 with 3,599,990 ms left and later
/// stages with less.
pub const THINKING_TIME_MS: u64 = 3_600_000;

/// 2.2–2.3 and table 5: the seven kinds of unit, in the order of table 5 (the protocol's code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Worker,
    Knight,
    Fighter,
    Assassin,
    Castle,
    Village,
    Base,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Worker,
        Kind::Knight,
        Kind::Fighter,
        Kind::Assassin,
        Kind::Castle,
        Kind::Village,
        Kind::Base,
    ];

    /// Table 5: the kind's number in the protocol.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Table 5, backwards.
    pub fn from_code(code: u64) -> Option<Kind> {
        Kind::ALL.get(usize::try_from(code).ok()?).copied()
    }

    pub const fn name(self) -> &'static str {
        match self {
            Kind::Worker => "worker",
            Kind::Knight => "knight",
            Kind::Fighter => "fighter",
            Kind::Assassin => "assassin",
            Kind::Castle => "castle",
            Kind::Village => "village",
            Kind::Base => "base",
        }
    }

    /// Table 2: maximum (and starting) HP.
    pub const fn max_hp(self) -> i32 {
        match self {
            Kind::Worker => 2_000,
            Kind::Knight | Kind::Fighter | Kind::Assassin => 5_000,
            Kind::Castle => 50_000,
            Kind::Village | Kind::Base => 20_000,
        }
    }

    /// Table 2: attack range, a Manhattan distance.
    pub const fn attack_range(self) -> i32 {
        match self {
            Kind::Castle => 10,
            _ => 2,
        }
    }

    /// Table 2: vision, a Manhattan distance.
    pub const fn vision(self) -> i32 {
        match self {
            Kind::Castle | Kind::Village => 10,
            _ => 4,
        }
    }

    /// Table 2: the resources its production costs; `None` for the castle, which nothing
    /// produces.
    pub const fn cost(self) -> Option<u32> {
        match self {
            Kind::Worker => Some(40),
            Kind::Knight => Some(20),
            Kind::Fighter => Some(40),
            Kind::Assassin => Some(60),
            Kind::Castle => None,
            Kind::Village => Some(100),
            Kind::Base => Some(500),
        }
    }

    /// Table 1 and table 6: the characters move; buildings never do.
    pub const fn moves(self) -> bool {
        matches!(
            self,
            Kind::Worker | Kind::Knight | Kind::Fighter | Kind::Assassin
        )
    }

    /// Table 1 and table 6: whether a unit of this kind may produce `product`.
    pub const fn produces(self, product: Kind) -> bool {
        matches!(
            (self, product),
            (Kind::Castle | Kind::Village, Kind::Worker)
                | (Kind::Worker, Kind::Village | Kind::Base)
                | (Kind::Base, Kind::Knight | Kind::Fighter | Kind::Assassin)
        )
    }
}

/// Table 3: damage factor, `DAMAGE[attacker][target]`, indexed by [`Kind::code`].
pub const DAMAGE: [[u32; 7]; 7] = [
    // worker knight fighter assassin castle village base  (target)
    [100, 100, 100, 100, 100, 100, 100],     // worker
    [100, 500, 200, 200, 200, 200, 200],     // knight
    [500, 1_600, 500, 200, 200, 200, 200],   // fighter
    [1_000, 500, 1_000, 500, 200, 200, 200], // assassin
    [100, 100, 100, 100, 100, 100, 100],     // castle
    [100, 100, 100, 100, 100, 100, 100],     // village
    [100, 100, 100, 100, 100, 100, 100],     // base
];

/// 4.4 (D-codevs4-2): how many of the `enemies` on one cell count towards k: at most
/// [`CELL_CAP`].
pub fn counted(enemies: u32) -> u32 {
    enemies.min(CELL_CAP)
}

/// 4.4 (D-codevs4-2): the damage one attacker deals to each enemy in its range, k being the
/// capped count of enemies over every cell in range: the table's factor divided by k, rounded
/// down. `k` is at least 1 (an attacker with nothing in range deals nothing).
pub fn damage(attacker: Kind, target: Kind, k: u32) -> u32 {
    DAMAGE[usize::from(attacker.code())][usize::from(target.code())] / k.max(1)
}

/// 4.5: what one player gathers from one resource cell with `workers` of its workers on it.
pub fn gathered(workers: u32) -> u32 {
    workers.min(GATHER_CAP)
}

/// 4.5 and 4.6, table 4 (D-codevs4-6): the income a player receives every turn besides
/// gathering. Player 1 is the "enemy AI" of table 4: 20 in stages 27–33, 30 in stages 34–40.
pub fn income(stage: u32, player: usize) -> u32 {
    match (player, stage) {
        (1, 27..=33) => 20,
        (1, 34..) => 30,
        _ => BASE_INCOME,
    }
}

/// A cell of the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl Cell {
    /// 4.3: distances are Manhattan distances.
    pub fn distance(self, other: Cell) -> i32 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }

    /// 2.1: whether the cell is on the 100×100 field.
    pub fn on_field(self) -> bool {
        // Comparisons, not `(0..SIZE).contains`: the battle asks this for every cell it looks
        // at, and a debug build (the tests) does not inline the range's generic code.
        0 <= self.x && self.x < SIZE && 0 <= self.y && self.y < SIZE
    }

    /// The cell's index in a per-cell table (row by row); only for a cell on the field.
    pub fn index(self) -> usize {
        (self.y * SIZE + self.x) as usize
    }

    /// The neighbour in `direction`, or the cell itself when that would leave the field
    /// (3.3.2: a unit ordered off the field stays where it is).
    pub fn step(self, direction: Direction) -> Cell {
        let (dx, dy) = direction.delta();
        let next = Cell {
            x: self.x + dx,
            y: self.y + dy,
        };
        if next.on_field() {
            next
        } else {
            self
        }
    }
}

/// Table 6: the four moves, one cell each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// (dx, dy): up is towards y = 0 (2.1: y grows downwards).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }

    /// Table 6: the command letter.
    pub const fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }
}

/// The offsets (dx, dy) of every cell within Manhattan distance `radius`, row by row.
pub fn diamond(radius: i32) -> impl Iterator<Item = (i32, i32)> {
    (-radius..=radius).flat_map(move |dy| {
        let width = radius - dy.abs();
        (-width..=width).map(move |dx| (dx, dy))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_damage_examples() {
        // 4.4 例1: a worker hits a fighter for 100; 例2: a fighter hits a worker for 500.
        assert_eq!(damage(Kind::Worker, Kind::Fighter, 1), 100);
        assert_eq!(damage(Kind::Fighter, Kind::Worker, 1), 500);
        assert_eq!(damage(Kind::Fighter, Kind::Knight, 3), 533);
    }

    #[test]
    fn production_follows_table_6() {
        let producers: Vec<(Kind, Kind)> = Kind::ALL
            .into_iter()
            .flat_map(|p| Kind::ALL.into_iter().map(move |q| (p, q)))
            .filter(|&(p, q)| p.produces(q))
            .collect();
        assert_eq!(producers.len(), 7);
        assert!(!Kind::ALL.iter().any(|k| k.produces(Kind::Castle)));
    }

    #[test]
    fn diamond_sizes() {
        assert_eq!(diamond(0).count(), 1);
        assert_eq!(diamond(2).count(), 13);
        assert_eq!(diamond(10).count(), 221);
        assert!(diamond(4).all(|(dx, dy)| dx.abs() + dy.abs() <= 4));
    }

    #[test]
    fn extra_stage_income() {
        assert_eq!(income(26, 1), 10);
        assert_eq!(income(27, 1), 20);
        assert_eq!(income(33, 1), 20);
        assert_eq!(income(34, 1), 30);
        assert_eq!(income(40, 0), 10);
    }
}

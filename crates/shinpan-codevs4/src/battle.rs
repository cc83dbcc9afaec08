//! 3.3.3 戦闘フェーズ and 3.3.4 ユニット除外フェーズ, per the document's pseudocode and
//! D-codevs4-1/2: every unit attacks every enemy unit within its attack range; with k the sum,
//! over the cells in range, of the enemy units on each cell counted at most 10, each of them takes
//! ⌊table / k⌋. All damage comes from the positions after the move & production phase and is
//! applied at once; then every unit at HP ≤ 0 is removed.
//!
//! The work is per cell, not per pair of units: the damage a cell's units of one kind take from
//! one attacker is the same for all of them, so it is summed per (cell, kind) and each unit then
//! takes its cell's sum for its kind. That keeps a turn with hundreds of units in contact cheap.

use std::borrow::Cow;

use super::rules::{counted, damage, diamond, Cell, Kind, CELLS, DAMAGE};
use super::state::Unit;
use super::variants::{Wrong, Wrongs};

/// The cells within the two attack ranges of table 2 (2, and the castle's 10), as offsets,
/// computed once: 13 and 221 cells.
static REACH_2: [(i32, i32); 13] = offsets::<13>(2);
static REACH_10: [(i32, i32); 221] = offsets::<221>(10);

/// The offsets within Manhattan distance `radius`, row by row (as [`diamond`] gives them).
const fn offsets<const N: usize>(radius: i32) -> [(i32, i32); N] {
    let mut out = [(0, 0); N];
    let mut i = 0;
    let mut dy = -radius;
    while dy <= radius {
        let width = radius - dy.abs();
        let mut dx = -width;
        while dx <= width {
            out[i] = (dx, dy);
            i += 1;
            dx += 1;
        }
        dy += 1;
    }
    out
}

/// The offsets of the cells an attacker of `kind` reaches; one past its range with
/// [`Wrong::AttackRangeOnePast`] (every kind but the castle).
fn reach(kind: Kind, wrong: Wrongs) -> Cow<'static, [(i32, i32)]> {
    if wrong.has(Wrong::AttackRangeOnePast) && kind != Kind::Castle {
        return Cow::Owned(diamond(kind.attack_range() + 1).collect());
    }
    match kind.attack_range() {
        2 => Cow::Borrowed(&REACH_2),
        10 => Cow::Borrowed(&REACH_10),
        // Table 2 has no other range; the general case stays correct if it ever did.
        r => Cow::Owned(diamond(r).collect()),
    }
}

/// What one player has on one occupied cell.
#[derive(Clone, Copy, Default)]
struct Occupied {
    /// How many of its units stand there.
    units: u32,
    /// Which kinds are among them (bit `code`).
    kinds: u8,
    /// The damage each of its units of each kind takes this turn.
    damage: [i64; 7],
}

/// Per player: the occupied cells, and for each cell of the field 1 + its index among them, 0
/// where the player has no unit (`u16`: 10,000 cells fit, and the table stays small enough for
/// the cache; 0 for none, so that the table is allocated zeroed, not written cell by cell).
struct Occupancy {
    cells: Vec<Occupied>,
    index: Vec<u16>,
}

const EMPTY: u16 = 0;

impl Occupancy {
    fn of(units: &[Unit], player: usize) -> Occupancy {
        let mut occupancy = Occupancy {
            cells: Vec::new(),
            index: vec![EMPTY; CELLS],
        };
        for unit in units.iter().filter(|u| u.owner == player) {
            let slot = &mut occupancy.index[unit.cell.index()];
            if *slot == EMPTY {
                occupancy.cells.push(Occupied::default());
                *slot = occupancy.cells.len() as u16;
            }
            let cell = &mut occupancy.cells[usize::from(*slot) - 1];
            cell.units += 1;
            cell.kinds |= 1 << unit.kind.code();
        }
        occupancy
    }

    fn at(&self, cell: Cell) -> Option<usize> {
        if !cell.on_field() {
            return None;
        }
        match self.index[cell.index()] {
            EMPTY => None,
            i => Some(usize::from(i) - 1),
        }
    }
}

/// The battle phase and the removal phase: `units` lose HP, and those at 0 or below are gone.
pub fn fight(units: &mut Vec<Unit>) {
    fight_with(units, Wrongs::NONE);
}

/// [`fight`] with some rules played wrong ([`Wrongs`]); [`Wrongs::NONE`] plays the rules.
pub fn fight_with(units: &mut Vec<Unit>, wrong: Wrongs) {
    let mut sides = [Occupancy::of(units, 0), Occupancy::of(units, 1)];
    let mut in_range: Vec<usize> = Vec::with_capacity(221);
    let count = |units: u32| {
        if wrong.has(Wrong::NoCellCap) {
            units
        } else {
            counted(units)
        }
    };
    let own_in_k = wrong.has(Wrong::KCountsOwnUnitsToo);
    let deal = |attacker: Kind, target: Kind, k: u32| {
        if wrong == Wrongs::NONE {
            damage(attacker, target, k)
        } else {
            damage_with(attacker, target, k, wrong)
        }
    };
    for attacker in units.iter() {
        let [first, second] = &mut sides;
        let (own, enemies) = if attacker.owner == 0 {
            (&*first, second)
        } else {
            (&*second, first)
        };
        // k = Σ over the cells in range of min(10, enemy units on the cell).
        in_range.clear();
        let mut k = 0;
        for &(dx, dy) in reach(attacker.kind, wrong).iter() {
            let cell = Cell {
                x: attacker.cell.x + dx,
                y: attacker.cell.y + dy,
            };
            if let Some(i) = enemies.at(cell) {
                k += count(enemies.cells[i].units);
                in_range.push(i);
            }
            if own_in_k {
                k += own.at(cell).map_or(0, |j| count(own.cells[j].units));
            }
        }
        if k == 0 {
            continue;
        }
        for &i in &in_range {
            let cell = &mut enemies.cells[i];
            let mut kinds = cell.kinds;
            while kinds != 0 {
                let code = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                cell.damage[code] += i64::from(deal(attacker.kind, Kind::ALL[code], k));
            }
        }
    }
    for unit in units.iter_mut() {
        let side = &sides[unit.owner];
        if let Some(i) = side.at(unit.cell) {
            let taken = side.cells[i].damage[usize::from(unit.kind.code())];
            unit.hp = (i64::from(unit.hp) - taken).max(i64::from(i32::MIN)) as i32;
        }
    }
    sides[0].cells.clear();
    sides[1].cells.clear();
    // 3.3.4: HP 0 or below leaves the field.
    units.retain(|u| u.hp > 0);
}

/// [`damage`] with table 3 or the division played wrong ([`Wrong::FighterAndKnightSwapped`],
/// [`Wrong::DamageRoundedUp`]).
fn damage_with(attacker: Kind, target: Kind, k: u32, wrong: Wrongs) -> u32 {
    let factor = match (attacker, target) {
        (Kind::Knight, Kind::Fighter) if wrong.has(Wrong::FighterAndKnightSwapped) => 1_600,
        (Kind::Fighter, Kind::Knight) if wrong.has(Wrong::FighterAndKnightSwapped) => 200,
        _ => DAMAGE[usize::from(attacker.code())][usize::from(target.code())],
    };
    if wrong.has(Wrong::DamageRoundedUp) {
        factor.div_ceil(k.max(1))
    } else {
        factor / k.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(id: u32, owner: usize, kind: Kind, x: i32, y: i32) -> Unit {
        Unit::new(id, owner, kind, Cell { x, y })
    }

    #[test]
    fn one_on_one_at_k_1() {
        let mut units = vec![
            unit(1, 0, Kind::Worker, 5, 5),
            unit(2, 1, Kind::Fighter, 6, 6),
        ];
        fight(&mut units);
        // 例1: the worker deals 100; 例2: the fighter deals 500.
        assert_eq!(units[0].hp, 2_000 - 500);
        assert_eq!(units[1].hp, 5_000 - 100);
    }

    #[test]
    fn the_offset_tables_are_the_diamonds() {
        assert!(REACH_2.iter().copied().eq(diamond(2)));
        assert!(REACH_10.iter().copied().eq(diamond(10)));
    }

    #[test]
    fn capped_cell_counts_ten() {
        let mut units = vec![unit(0, 0, Kind::Fighter, 50, 50)];
        for id in 1..=11 {
            units.push(unit(id, 1, Kind::Knight, 50, 50));
        }
        units.push(unit(12, 1, Kind::Knight, 51, 50));
        fight(&mut units);
        // k = min(10, 11) + 1 = 11; 1600 / 11 = 145 each.
        assert!(units[1..].iter().all(|u| u.hp == 5_000 - 145));
    }
}

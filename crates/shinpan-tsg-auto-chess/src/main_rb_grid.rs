//! main.rb's grid (`@field`), what its moves and attacks see, for its model
//! ([`super::main_rb`]). main.rb holds at most one unit a cell, and putting a unit on a cell
//! drops whatever stood there ([`Grid::set`]). A record played without one of main.rb's ways
//! may have to put a unit where another stands (a unit bought onto a taken cell, put on the
//! board at once by the rules): [`Grid::stack`] keeps both, as the rules' board would.

use super::state::Unit;

/// The units on main.rb's grid, each where it stands; in main.rb's own play, one a cell.
#[derive(Debug, Clone, Default)]
pub struct Grid(Vec<Unit>);

impl Grid {
    /// Every unit of `units` on the grid, a later one on a cell taking it from an earlier.
    pub fn of(units: &[Unit]) -> Grid {
        let mut grid = Grid::default();
        for unit in units {
            grid.set(*unit);
        }
        grid
    }

    /// Whether some unit stands on `cell`.
    pub fn holds(&self, cell: (i32, i32)) -> bool {
        self.0.iter().any(|u| u.at() == cell)
    }

    /// Whether the unit `id` is on the grid.
    pub fn has(&self, id: u32) -> bool {
        self.0.iter().any(|u| u.id == id)
    }

    /// `@field[y][x] = nil`: whatever stands on `cell` leaves the grid.
    pub fn clear(&mut self, cell: (i32, i32)) {
        self.0.retain(|u| u.at() != cell);
    }

    /// `@field[y][x] = unit`: the unit on its cell, in place of whatever stood there (and off
    /// the cell it stood on before, if the grid held it there).
    pub fn set(&mut self, unit: Unit) {
        self.0.retain(|u| u.at() != unit.at() && u.id != unit.id);
        self.0.push(unit);
    }

    /// The unit on its cell beside whatever stands there.
    pub fn stack(&mut self, unit: Unit) {
        self.0.retain(|u| u.id != unit.id);
        self.0.push(unit);
    }

    /// The unit `id`, where the grid holds it.
    pub fn get_mut(&mut self, id: u32) -> Option<&mut Unit> {
        self.0.iter_mut().find(|u| u.id == id)
    }

    /// Keeps the units `keep` says.
    pub fn retain(&mut self, keep: impl FnMut(&Unit) -> bool) {
        self.0.retain(keep);
    }

    pub fn units(&self) -> &[Unit] {
        &self.0
    }
}

//! A CODE VS 4.0 state drawn: the 100×100 field, one square a unit (by kind and owner) and a
//! resource cell, and each unit's vision (its diamond of Manhattan radius, per owner); above
//! it the stage, the turn and each player's resources. Empty cells are not drawn: the field
//! is one rectangle.

use super::rules::SIZE;
use super::state::{State, Unit};
use super::Codevs4;
use shinpan_core::seam::{Marked, Render, Svg, Tag};

/// Pixels a cell is wide and high.
const CELL: f64 = 5.0;
/// Pixels of the text lines above the field.
const HEAD: f64 = 48.0;

impl Render for Codevs4 {
    fn render(&self, state: &State, marked: &Marked) -> String {
        let side = f64::from(SIZE) * CELL;
        let mut svg = Svg::new("codevs4", side, HEAD + side, 1.0);
        let head = Tag::new("text").attr("x", 0).attr("y", 12);
        svg.text(
            head.paths(&["stage", "turn"], marked),
            &format!("stage {}, turn {}", state.stage, state.turn),
        );
        for (p, player) in state.players.iter().enumerate() {
            let tag = Tag::new("text").class(format!("owner-{p}"));
            let tag = tag.attr("x", 0).attr("y", 26.0 + 14.0 * p as f64);
            svg.text(
                tag.path(&format!("players[{p}].resources"), marked),
                &format!("player {p}: {} resources", player.resources),
            );
        }
        let field = Tag::new("rect").class("field").attr("x", 0).attr("y", HEAD);
        svg.leaf(field.attr("width", side).attr("height", side));
        svg.open(Tag::new("g").class("vision"));
        for unit in state.units.iter() {
            vision(&mut svg, unit);
        }
        svg.close();
        for (i, cell) in state.resource_cells.iter().enumerate() {
            let path = format!("resource_cells[{i}]");
            let tag = Tag::new("rect").class("resource").attr("data-resource", i);
            let tag = tag
                .attr("x", f64::from(cell.x) * CELL)
                .attr("y", HEAD + f64::from(cell.y) * CELL);
            svg.open(
                tag.attr("width", CELL)
                    .attr("height", CELL)
                    .path(&path, marked),
            );
            svg.title(&format!("resource cell ({}, {})", cell.x, cell.y));
            svg.close();
        }
        for unit in state.units.iter() {
            let path = format!("units.{}", unit.id);
            let x = f64::from(unit.cell.x) * CELL;
            let y = HEAD + f64::from(unit.cell.y) * CELL;
            if marked.marks(&path) {
                svg.ring(x + CELL / 2.0, y + CELL / 2.0, 3.0 * CELL);
            }
            let tag =
                Tag::new("rect").class(format!("unit {} owner-{}", unit.kind.name(), unit.owner));
            let tag = tag
                .attr("data-unit", unit.id)
                .attr("x", x + 0.5)
                .attr("y", y + 0.5);
            svg.open(
                tag.attr("width", CELL - 1.0)
                    .attr("height", CELL - 1.0)
                    .path(&path, marked),
            );
            svg.title(&format!(
                "unit {} of player {}: {} at ({}, {}), hp {}",
                unit.id,
                unit.owner,
                unit.kind.name(),
                unit.cell.x,
                unit.cell.y,
                unit.hp
            ));
            svg.close();
        }
        svg.finish()
    }

    /// Every drawn thing is a value of its own in the canonical form.
    fn finer_differences(&self, _: &State, _: &State) -> Vec<String> {
        Vec::new()
    }
}

/// A unit's vision: the cells within its Manhattan radius, a diamond, clipped to the field by
/// the drawing's own bounds.
fn vision(svg: &mut Svg, unit: &Unit) {
    let r = f64::from(unit.kind.vision()) + 0.5;
    let (cx, cy) = (
        (f64::from(unit.cell.x) + 0.5) * CELL,
        HEAD + (f64::from(unit.cell.y) + 0.5) * CELL,
    );
    let points = format!(
        "{},{} {},{} {},{} {},{}",
        cx,
        cy - r * CELL,
        cx + r * CELL,
        cy,
        cx,
        cy + r * CELL,
        cx - r * CELL,
        cy
    );
    let tag = Tag::new("polygon").class(format!("owner-{}", unit.owner));
    svg.leaf(tag.attr("points", points));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Cell, Kind};
    use crate::state::Units;
    use shinpan_core::seam::render::testing::{count, highlighted};

    fn state() -> State {
        State {
            units: Units(vec![
                Unit::new(0, 0, Kind::Castle, Cell { x: 3, y: 4 }),
                Unit::new(1, 1, Kind::Castle, Cell { x: 96, y: 95 }),
                Unit::new(12, 0, Kind::Worker, Cell { x: 3, y: 4 }),
                Unit::new(13, 1, Kind::Assassin, Cell { x: 50, y: 50 }),
            ]),
            resource_cells: vec![Cell { x: 10, y: 10 }, Cell { x: 90, y: 90 }],
            ..State::default()
        }
    }

    #[test]
    fn one_square_a_unit_and_a_resource_cell_not_one_a_cell() {
        let svg = Codevs4.render(&state(), &Marked::default());
        assert_eq!(count(&svg, "data-unit"), 4);
        assert_eq!(count(&svg, "data-resource"), 2);
        assert_eq!(svg.matches("<rect").count(), 1 + 4 + 2);
        assert_eq!(svg.matches("class=\"unit assassin owner-1\"").count(), 1);
        // One vision diamond a unit.
        assert_eq!(svg.matches("<polygon").count(), 4);
    }

    #[test]
    fn a_marked_unit_field_highlights_that_unit_alone() {
        let marked = Marked::new(["units.12.hp", "resource_cells[1]"]);
        let svg = Codevs4.render(&state(), &marked);
        assert_eq!(highlighted(&svg), ["resource_cells[1]", "units.12"]);
        // The unit, one cell of 10,000, is ringed too.
        assert_eq!(svg.matches("class=\"ring\"").count(), 1);
    }
}

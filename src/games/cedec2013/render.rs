//! A CEDEC 2013 state drawn: the 127 hexagonal tiles, each filled by its landform (wasteland,
//! settlement, base, hole) and edged by its owner's colour, with its base's initial and its
//! robots; beside them the round, the player to move and the scores.

use super::rules::{COORDS, PLAYERS};
use super::state::{State, Tile};
use super::Cedec2013;
use crate::seam::{Marked, Render, Svg, Tag};

/// Pixels from a hexagon's centre to a corner.
const SIZE: f64 = 18.0;
/// Pixels of the text lines above the map.
const HEAD: f64 = 20.0 + 14.0 * PLAYERS as f64;

impl Render for Cedec2013 {
    fn render(&self, state: &State, marked: &Marked) -> String {
        let root3 = 3f64.sqrt();
        // Pointy-top hexagons on axial coordinates (x, y): 13 across, 13 down.
        let width = 14.0 * root3 * SIZE;
        let height = HEAD + 20.5 * SIZE;
        let centre = (width / 2.0, HEAD + 10.25 * SIZE);
        let mut svg = Svg::new("cedec2013", width, height, 1.0);
        let round = Tag::new("text").attr("x", 0).attr("y", 12);
        svg.text(
            round.paths(&["round", "player"], marked),
            &format!("round {}, player {} to move", state.round, state.player),
        );
        for (p, score) in state.scores.iter().enumerate() {
            let tag = Tag::new("text").class(format!("owner-{p}"));
            let tag = tag.attr("x", 0).attr("y", 26.0 + 14.0 * p as f64);
            svg.text(
                tag.path(&format!("scores[{p}]"), marked),
                &format!("player {p}: {score} points"),
            );
        }
        for (i, &(x, y)) in COORDS.iter().enumerate() {
            let (x, y) = (f64::from(x), f64::from(y));
            let cx = centre.0 + root3 * SIZE * (x + y / 2.0);
            let cy = centre.1 + 1.5 * SIZE * y;
            tile(&mut svg, &state.tiles.0[i], COORDS[i], (cx, cy), marked);
        }
        svg.finish()
    }

    /// Every drawn thing is a value of its own in the canonical form.
    fn finer_differences(&self, _: &State, _: &State) -> Vec<String> {
        Vec::new()
    }
}

/// One tile: its hexagon, its base's initial, its robots.
fn tile(svg: &mut Svg, tile: &Tile, (x, y): (i8, i8), (cx, cy): (f64, f64), marked: &Marked) {
    let path = format!("tiles.{x},{y}");
    let mut group = Tag::new("g").attr("data-tile", format!("{x},{y}"));
    group = group.class(tile.landform().name());
    if let Some(owner) = tile.owner {
        group = group.class(format!("owner-{owner}"));
    }
    svg.open(group.path(&path, marked));
    let owner = tile.owner.map_or("none".to_string(), |o| o.to_string());
    let base = tile.base.map_or("", |b| b.name());
    svg.title(&format!(
        "({x},{y}) {} {base} owner {owner}, {} robots, bonus {}",
        tile.landform().name(),
        tile.robots,
        tile.bonus
    ));
    let corners: Vec<String> = (0..6)
        .map(|k| {
            let angle = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
            let r = SIZE - 1.0;
            format!("{:.1},{:.1}", cx + r * angle.cos(), cy + r * angle.sin())
        })
        .collect();
    svg.leaf(
        Tag::new("polygon")
            .class("hex")
            .attr("points", corners.join(" ")),
    );
    if let Some(base) = tile.base {
        let initial = base.name()[..1].to_uppercase();
        let text = Tag::new("text")
            .class("base")
            .attr("x", cx - 4.0)
            .attr("y", cy - 2.0);
        svg.text(text, &initial);
    }
    if tile.robots > 0 {
        let text = Tag::new("text").class("robots").attr("x", cx - 6.0);
        svg.text(text.attr("y", cy + 10.0), &tile.robots.to_string());
    }
    svg.close();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cedec2013::rules::{index, Base, TILES};
    use crate::seam::render::testing::{count, highlighted};

    #[test]
    fn every_tile_is_drawn_once() {
        let svg = Cedec2013.render(&State::default(), &Marked::default());
        assert_eq!(count(&svg, "data-tile"), TILES);
        assert_eq!(TILES, 127);
        assert_eq!(svg.matches("class=\"hex\"").count(), 127);
    }

    #[test]
    fn a_tile_shows_its_owner_base_robots_and_hole() {
        let mut state = State::default();
        let tile = &mut state.tiles.0[index(-1, 2).unwrap()];
        tile.owner = Some(2);
        tile.base = Some(Base::Tower);
        tile.robots = 7;
        state.tiles.0[index(0, 0).unwrap()].hole = true;
        let svg = Cedec2013.render(&state, &Marked::default());
        assert!(
            svg.contains("class=\"base owner-2\" data-tile=\"-1,2\""),
            "{svg}"
        );
        assert!(svg.contains("class=\"hole\" data-tile=\"0,0\""));
        assert!(svg.contains(">T</text>") && svg.contains(">7</text>"));
    }

    #[test]
    fn a_marked_tile_field_highlights_that_tile_alone() {
        let marked = Marked::new(["tiles.-1,2.robots"]);
        let svg = Cedec2013.render(&State::default(), &marked);
        assert_eq!(highlighted(&svg), ["tiles.-1,2"]);
    }
}

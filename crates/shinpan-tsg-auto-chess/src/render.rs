//! A TSG AUTO CHESS state drawn: the 15×15 board in absolute coordinates (player 0's king at
//! the top), each unit by owner and type with its health and attack; beside it each player's
//! level, gold and kills, and the three units of its shop with their prices.

use super::rules::{Kind, BOARD};
use super::state::{Player, State, Unit};
use super::TsgAutoChess;
use shinpan_core::seam::{Marked, Render, Svg, Tag};

/// Pixels a square is wide and high.
const SQUARE: f64 = 26.0;
/// Pixels of the panel beside the board.
const PANEL: f64 = 190.0;

impl Render for TsgAutoChess {
    fn render(&self, state: &State, marked: &Marked) -> String {
        let side = f64::from(BOARD) * SQUARE;
        let top = 20.0;
        let mut svg = Svg::new("tsg-auto-chess", side + PANEL, top + side, 1.0);
        let turn = Tag::new("text").attr("x", 0).attr("y", 12);
        svg.text(turn.path("turn", marked), &format!("turn {}", state.turn));
        for y in 0..BOARD {
            for x in 0..BOARD {
                let square = Tag::new("rect")
                    .class("square")
                    .attr("data-cell", format!("{x},{y}"));
                let square = square
                    .attr("x", f64::from(x) * SQUARE)
                    .attr("y", top + f64::from(y) * SQUARE);
                svg.leaf(square.attr("width", SQUARE).attr("height", SQUARE));
            }
        }
        for (i, unit) in state.units.iter().enumerate() {
            draw_unit(&mut svg, unit, i, top, marked);
        }
        for (p, player) in state.players.iter().enumerate() {
            panel(
                &mut svg,
                player,
                p,
                (side + 8.0, top + p as f64 * side / 2.0),
                marked,
            );
        }
        svg.finish()
    }

    /// Every drawn thing is a value of its own in the canonical form.
    fn finer_differences(&self, _: &State, _: &State) -> Vec<String> {
        Vec::new()
    }
}

/// The letter a type is drawn with.
fn letter(kind: Kind) -> &'static str {
    &kind.word()[..1]
}

fn draw_unit(svg: &mut Svg, unit: &Unit, i: usize, top: f64, marked: &Marked) {
    let by_id = format!("units[#{}]", unit.id);
    let by_place = format!("units[{i}]");
    let (x, y) = (f64::from(unit.x) * SQUARE, top + f64::from(unit.y) * SQUARE);
    let kind = unit.kind.word().to_lowercase();
    let group = Tag::new("g").class(format!("unit {kind} owner-{}", unit.owner));
    svg.open(
        group
            .attr("data-unit", unit.id)
            .paths(&[&by_id, &by_place], marked),
    );
    svg.title(&format!(
        "unit {} of player {}: {kind} at ({}, {}), hp {}, atk {}",
        unit.id, unit.owner, unit.x, unit.y, unit.hp, unit.atk
    ));
    let body = Tag::new("circle")
        .attr("cx", x + SQUARE / 2.0)
        .attr("cy", y + SQUARE / 2.0);
    svg.leaf(body.attr("r", SQUARE / 2.0 - 2.0));
    let label = Tag::new("text").attr("x", x + 3.0).attr("y", y + 11.0);
    svg.text(label, letter(unit.kind));
    let hp = Tag::new("text")
        .class("hp")
        .attr("x", x + 3.0)
        .attr("y", y + SQUARE - 3.0);
    svg.text(hp, &unit.hp.to_string());
    svg.close();
}

/// A player's level, gold and kills, and its shop.
fn panel(svg: &mut Svg, player: &Player, p: usize, (left, top): (f64, f64), marked: &Marked) {
    let lines = [
        ("level", format!("player {p}: level {}", player.level)),
        ("gold", format!("gold {}", player.gold)),
        ("kills", format!("kills {}", player.kills)),
    ];
    for (i, (field, text)) in lines.iter().enumerate() {
        let tag = Tag::new("text").class(format!("owner-{p}")).attr("x", left);
        let tag = tag.attr("y", top + 12.0 + 14.0 * i as f64);
        svg.text(tag.path(&format!("players[{p}].{field}"), marked), text);
    }
    for (slot, unit) in player.shop.iter().enumerate() {
        let by_id = format!("players[{p}].shop[#{}]", unit.id);
        let by_place = format!("players[{p}].shop[{slot}]");
        let y = top + 50.0 + 18.0 * slot as f64;
        let tag = Tag::new("text")
            .class("shop")
            .attr("data-shop", format!("{p},{slot}"));
        let tag = tag
            .attr("x", left)
            .attr("y", y)
            .paths(&[&by_id, &by_place], marked);
        let kind = unit.kind.word().to_lowercase();
        svg.text(
            tag,
            &format!(
                "#{} {kind} hp {} atk {}: {}g",
                unit.id, unit.hp, unit.atk, unit.price
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shinpan_core::seam::render::testing::{count, highlighted};

    #[test]
    fn the_board_the_kings_and_both_shops_are_drawn() {
        let svg = TsgAutoChess.render(&State::default(), &Marked::default());
        assert_eq!(count(&svg, "data-cell"), 15 * 15);
        assert_eq!(count(&svg, "data-unit"), 2);
        assert_eq!(svg.matches("class=\"unit king owner-").count(), 2);
        assert_eq!(count(&svg, "data-shop"), 6);
    }

    #[test]
    fn a_unit_marked_by_id_or_by_place_is_highlighted() {
        let state = State::default();
        let king = state.units[1].id;
        let marked = Marked::new([format!("units[#{king}].hp"), "players[1].gold".into()]);
        let svg = TsgAutoChess.render(&state, &marked);
        assert_eq!(
            highlighted(&svg),
            [format!("units[#{king}]"), "players[1].gold".into()]
        );
        let by_place = TsgAutoChess.render(&state, &Marked::new(["units[0].x"]));
        let first = state.units[0].id;
        assert_eq!(highlighted(&by_place), [format!("units[#{first}]")]);
    }
}

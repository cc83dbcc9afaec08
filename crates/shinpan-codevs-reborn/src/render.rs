//! A CODE VS Reborn state drawn: the two fields side by side, each cell with its block's number
//! (`X` an ojama block), the danger line above the 16th row, and beside each field its ojama
//! stock, skill gauge, score and last turn's chain.
//!
//! The canonical form writes a field as one text, so a diff of the JSON names the whole field
//! (`players[1].field`, drawn as the field's outline); [`Render::finer_differences`] names the
//! cells that differ (`players[1].field.3,4`: column 3, row 4 from the floor), each drawn with
//! that path.

use super::rules::{CAPACITY, DANGER_HEIGHT, GAUGE_MAX, HEIGHT, OJAMA, WIDTH};
use super::state::{Player, State};
use super::CodevsReborn;
use shinpan_core::seam::{Marked, Render, Svg, Tag};

/// Pixels a cell is wide and high.
const CELL: f64 = 16.0;
/// Rows drawn: those of the field, the danger row, and what a lost field may hold above it.
const ROWS: usize = CAPACITY;
/// Pixels of the text lines above a field.
const HEAD: f64 = 84.0;
/// Pixels between the two fields.
const GAP: f64 = 24.0;

impl Render for CodevsReborn {
    fn render(&self, state: &State, marked: &Marked) -> String {
        let field_width = WIDTH as f64 * CELL;
        let width = 2.0 * field_width + GAP;
        let height = HEAD + ROWS as f64 * CELL + 4.0;
        let mut svg = Svg::new("codevs-reborn", width, height, 1.0);
        svg.text(
            Tag::new("text")
                .attr("x", 0)
                .attr("y", 12)
                .path("turn", marked),
            &format!("turn {}", state.turn),
        );
        for (p, player) in state.players.iter().enumerate() {
            let left = p as f64 * (field_width + GAP);
            svg.open(Tag::new("g").attr("data-player", p));
            panel(&mut svg, player, p, left, marked);
            field(&mut svg, player, p, left, marked);
            svg.close();
        }
        svg.finish()
    }

    fn finer_differences(&self, a: &State, b: &State) -> Vec<String> {
        let mut cells = Vec::new();
        for (p, (a, b)) in a.players.iter().zip(&b.players).enumerate() {
            for y in 0..ROWS {
                for x in 0..WIDTH {
                    if a.field.cell(x, y) != b.field.cell(x, y) {
                        cells.push(format!("players[{p}].field.{x},{y}"));
                    }
                }
            }
        }
        cells
    }
}

/// The numbers of a player, one a line above the field.
fn panel(svg: &mut Svg, player: &Player, p: usize, left: f64, marked: &Marked) {
    let lines = [
        ("score", format!("score {}", player.score)),
        ("ojama_stock", format!("ojama stock {}", player.ojama_stock)),
        (
            "turn_score",
            format!(
                "last turn: +{} ({} chains)",
                player.turn_score, player.chains
            ),
        ),
        ("ojama_sent", format!("ojama sent {}", player.ojama_sent)),
    ];
    for (i, (field, text)) in lines.iter().enumerate() {
        let mut paths = vec![format!("players[{p}].{field}")];
        if *field == "turn_score" {
            paths.push(format!("players[{p}].chains"));
        }
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let tag = Tag::new("text")
            .attr("x", left)
            .attr("y", 24.0 + i as f64 * 12.0);
        svg.text(tag.paths(&paths, marked), text);
    }
    // The skill gauge: a bar out of GAUGE_MAX.
    let full = WIDTH as f64 * CELL;
    let gauge = format!("players[{p}].skill_gauge");
    let y = HEAD - 16.0;
    let frame = Tag::new("rect").class("gauge").attr("x", left).attr("y", y);
    svg.open(
        frame
            .attr("width", full)
            .attr("height", 8)
            .path(&gauge, marked),
    );
    svg.title(&format!(
        "skill gauge {} of {GAUGE_MAX}{}",
        player.skill_gauge,
        if player.skill_used {
            ", used last turn"
        } else {
            ""
        }
    ));
    svg.close();
    let filled = full * f64::from(player.skill_gauge.min(GAUGE_MAX)) / f64::from(GAUGE_MAX);
    let bar = Tag::new("rect")
        .class("gauge-fill")
        .attr("x", left)
        .attr("y", y);
    svg.leaf(bar.attr("width", filled).attr("height", 8));
}

/// The cells of a field, bottom row lowest, and the danger line.
fn field(svg: &mut Svg, player: &Player, p: usize, left: f64, marked: &Marked) {
    let path = format!("players[{p}].field");
    svg.open(Tag::new("g").class("field"));
    let top = HEAD;
    let outline = Tag::new("rect")
        .class("outline")
        .attr("x", left)
        .attr("y", top);
    let height = ROWS as f64 * CELL;
    let outline = outline.attr("width", WIDTH as f64 * CELL);
    svg.leaf(outline.attr("height", height).path(&path, marked));
    for y in 0..ROWS {
        let value = |x: usize| player.field.cell(x, y);
        // Rows above the field are drawn only where they hold something.
        if y >= HEIGHT && (0..WIDTH).all(|x| value(x) == 0) {
            continue;
        }
        let cy = top + (ROWS - 1 - y) as f64 * CELL;
        for x in 0..WIDTH {
            let v = value(x);
            let cx = left + x as f64 * CELL;
            let class = match v {
                0 => "cell empty",
                OJAMA => "cell ojama",
                _ => "cell block",
            };
            let mut cell = Tag::new("rect")
                .class(class)
                .attr("data-cell", format!("{x},{y}"));
            // A cell names its path only when it differs: a field has 160 cells or more.
            let cell_path = format!("{path}.{x},{y}");
            if marked.marks(&cell_path) {
                cell = cell.path(&cell_path, marked);
            }
            svg.leaf(
                cell.attr("x", cx)
                    .attr("y", cy)
                    .attr("width", CELL)
                    .attr("height", CELL),
            );
            if v != 0 {
                let label = if v == OJAMA {
                    "X".to_string()
                } else {
                    v.to_string()
                };
                let text = Tag::new("text").class("block").attr("x", cx + 4.0);
                svg.text(text.attr("y", cy + CELL - 3.0), &label);
            }
        }
    }
    // The danger line: the bottom of the 17th row.
    let line_y = top + (ROWS - DANGER_HEIGHT + 1) as f64 * CELL;
    let danger = Tag::new("line")
        .class("danger")
        .attr("x1", left)
        .attr("y1", line_y);
    svg.open(
        danger
            .attr("x2", left + WIDTH as f64 * CELL)
            .attr("y2", line_y),
    );
    svg.title("danger line: a column reaching the 17th row loses");
    svg.close();
    svg.close();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Field;
    use shinpan_core::seam::render::testing::{count, highlighted};

    #[test]
    fn both_fields_are_drawn_cell_by_cell() {
        let svg = CodevsReborn.render(&State::default(), &Marked::default());
        assert_eq!(count(&svg, "data-cell"), 2 * WIDTH * HEIGHT);
        assert_eq!(count(&svg, "data-player"), 2);
        assert!(highlighted(&svg).is_empty());
    }

    #[test]
    fn blocks_carry_their_numbers_and_ojama_its_mark() {
        let mut state = State::default();
        state.players[1].field = Field::from_text("X.........\n12........\n").unwrap();
        let svg = CodevsReborn.render(&state, &Marked::default());
        assert_eq!(svg.matches("class=\"cell block\"").count(), 2);
        assert_eq!(svg.matches("class=\"cell ojama\"").count(), 1);
        assert!(svg.contains(">X</text>"));
    }

    #[test]
    fn a_marked_score_and_a_marked_field_are_what_is_highlighted() {
        let marked = Marked::new(["players[0].score", "players[1].field"]);
        let svg = CodevsReborn.render(&State::default(), &marked);
        assert_eq!(highlighted(&svg), ["players[0].score", "players[1].field"]);
    }

    #[test]
    fn the_cells_that_differ_are_named_and_highlighted_alone() {
        let mut a = State::default();
        a.players[1].field = Field::from_text("12........\n").unwrap();
        let mut b = State::default();
        b.players[1].field = Field::from_text("1.....3...\n").unwrap();
        let cells = CodevsReborn.finer_differences(&a, &b);
        assert_eq!(cells, ["players[1].field.1,0", "players[1].field.6,0"]);
        let marked = Marked::new(cells.iter().cloned()).with(["players[1].field"]);
        let svg = CodevsReborn.render(&b, &marked);
        assert_eq!(
            highlighted(&svg),
            [
                "players[1].field",
                "players[1].field.1,0",
                "players[1].field.6,0"
            ]
        );
        assert!(CodevsReborn.finer_differences(&a, &a).is_empty());
    }
}

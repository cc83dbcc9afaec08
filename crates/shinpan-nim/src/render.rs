//! Nim drawn: a row of heaps, each a column of its objects and its count; whose move it is.

use super::{Nim, State};
use shinpan_core::seam::{Marked, Render, Svg, Tag};

/// Pixels a heap column is wide, and an object high.
const COLUMN: f64 = 24.0;
const OBJECT: f64 = 8.0;

impl Render for Nim {
    fn render(&self, state: &State, marked: &Marked) -> String {
        let tallest = state.heaps.iter().copied().max().unwrap_or(0).min(50) as f64;
        let height = 40.0 + tallest * OBJECT;
        let width = COLUMN * state.heaps.len().max(4) as f64;
        let mut svg = Svg::new("nim", width, height, 1.0);
        let to_move = Tag::new("text").attr("x", 2).attr("y", 12);
        svg.text(
            to_move.path("to_move", marked),
            &format!("turn {}, player {} to move", state.turn, state.to_move),
        );
        for (i, &objects) in state.heaps.iter().enumerate() {
            let path = format!("heaps[{i}]");
            let x = i as f64 * COLUMN;
            svg.open(Tag::new("g").attr("data-heap", i).path(&path, marked));
            svg.title(&format!("heap {i}: {objects}"));
            for k in 0..objects.min(50) {
                let y = height - 14.0 - (k + 1) as f64 * OBJECT;
                let object = Tag::new("rect").class("object").attr("x", x + 4.0);
                svg.leaf(
                    object
                        .attr("y", y)
                        .attr("width", COLUMN - 8.0)
                        .attr("height", OBJECT - 1.0),
                );
            }
            svg.text(
                Tag::new("text").attr("x", x + 4.0).attr("y", height - 2.0),
                &objects.to_string(),
            );
            svg.close();
        }
        svg.finish()
    }

    /// Every drawn thing is a value of its own in the canonical form.
    fn finer_differences(&self, _: &State, _: &State) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shinpan_core::seam::render::testing::{count, highlighted};

    #[test]
    fn a_heap_is_drawn_with_its_objects_and_the_marked_one_highlighted() {
        let state = State {
            heaps: vec![3, 0, 5],
            ..State::default()
        };
        let svg = Nim.render(&state, &Marked::new(["heaps[2]"]));
        assert_eq!(count(&svg, "data-heap"), 3);
        assert_eq!(svg.matches("class=\"object\"").count(), 8);
        assert_eq!(highlighted(&svg), ["heaps[2]"]);
    }
}

//! One player's field: ten columns of stacked blocks, and what happens to them.
//!
//! Blocks always rest on the floor or on another block, so a column is a stack. Its canonical
//! text form is the document's figure turned into characters: one line per row, top row first,
//! `.` empty, `1`–`9` a block, `X` ojama; only the rows from the highest block down are written.

use std::borrow::Cow;
use std::fmt::Write as _;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::rules::{CAPACITY, EXPLODING_VALUE, HEIGHT, OJAMA, VANISH_SUM, WIDTH};

#[derive(Clone, PartialEq, Eq, Default)]
pub struct Field {
    /// `columns[x][y]`: the block at column x (0 = leftmost), height y (0 = floor); 0 at and
    /// above the column's height.
    columns: [[u8; CAPACITY]; WIDTH],
    heights: [u8; WIDTH],
}

/// Bit y of `masks[x]` marks the block at column x, height y.
type Marks = [u32; WIDTH];

impl Field {
    pub fn height(&self, x: usize) -> usize {
        usize::from(self.heights[x])
    }

    pub fn max_height(&self) -> usize {
        self.heights.iter().copied().max().map_or(0, usize::from)
    }

    /// The value at column x, height y; 0 where there is no block.
    pub fn cell(&self, x: usize, y: usize) -> u8 {
        if y < self.height(x) {
            self.columns[x][y]
        } else {
            0
        }
    }

    /// Lets `value` fall onto column `x`. A column is never full in a reachable state
    /// (see [`CAPACITY`]); should it be, the block is refused and `false` returned.
    pub fn push(&mut self, x: usize, value: u8) -> bool {
        let h = self.height(x);
        if h >= CAPACITY {
            return false;
        }
        self.columns[x][h] = value;
        self.heights[x] += 1;
        true
    }

    /// 「お邪魔ブロックの投下」: one ojama block onto every column.
    pub fn drop_ojama_row(&mut self) {
        for x in 0..WIDTH {
            self.push(x, OJAMA);
        }
    }

    /// Removes every vanishing pair, then lets the rest fall; repeats until the field is stable.
    /// Returns the number of rounds, i.e. the chain count.
    pub fn settle(&mut self) -> u32 {
        self.settle_in::<true>()
    }

    /// [`Field::settle`] played wrong (the variant `no-diagonal-vanish`): only pairs across and
    /// up-down vanish.
    pub fn settle_without_diagonals(&mut self) -> u32 {
        self.settle_in::<false>()
    }

    fn settle_in<const DIAGONALS: bool>(&mut self) -> u32 {
        let mut chains = 0;
        while let Some(marks) = self.sum_ten_pairs::<DIAGONALS>() {
            self.remove(&marks);
            chains += 1;
        }
        chains
    }

    /// 「ブロックの消滅」: every block in a pair of neighbours (8 directions) summing to 10.
    /// Ojama (11) never sums to 10 with a block of 1..=9, so it never vanishes. Without
    /// `DIAGONALS` (a variant, never the rules) only the 4 straight directions count.
    fn sum_ten_pairs<const DIAGONALS: bool>(&self) -> Option<Marks> {
        let mut marks = [0u32; WIDTH];
        let mut any = false;
        for x in 0..WIDTH {
            for y in 0..self.height(x) {
                let v = self.columns[x][y];
                // Each unordered pair is looked at once: up, and the three cells of the next column.
                if y + 1 < self.height(x) && v + self.columns[x][y + 1] == VANISH_SUM {
                    marks[x] |= 0b11 << y;
                    any = true;
                }
                if x + 1 < WIDTH {
                    for ny in y.saturating_sub(1)..=y + 1 {
                        if !DIAGONALS && ny != y {
                            continue;
                        }
                        if ny < self.height(x + 1) && v + self.columns[x + 1][ny] == VANISH_SUM {
                            marks[x] |= 1 << y;
                            marks[x + 1] |= 1 << ny;
                            any = true;
                        }
                    }
                }
            }
        }
        any.then_some(marks)
    }

    /// 「スキルの効果」: every 5 and its 8 neighbours, except ojama, vanish at once and the rest
    /// falls. Returns b, the number of blocks removed.
    // Columns are addressed by index on purpose: a 5 marks cells of its neighbouring columns.
    #[allow(clippy::needless_range_loop)]
    pub fn explode(&mut self) -> u32 {
        let mut marks = [0u32; WIDTH];
        for x in 0..WIDTH {
            for y in 0..self.height(x) {
                if self.columns[x][y] != EXPLODING_VALUE {
                    continue;
                }
                for nx in x.saturating_sub(1)..=(x + 1).min(WIDTH - 1) {
                    for ny in y.saturating_sub(1)..=y + 1 {
                        if ny < self.height(nx) && self.columns[nx][ny] != OJAMA {
                            marks[nx] |= 1 << ny;
                        }
                    }
                }
            }
        }
        let removed = marks.iter().map(|m| m.count_ones()).sum();
        self.remove(&marks);
        removed
    }

    /// Takes the marked blocks out; the blocks above each fall into the gap.
    #[allow(clippy::needless_range_loop)]
    fn remove(&mut self, marks: &Marks) {
        for x in 0..WIDTH {
            if marks[x] == 0 {
                continue;
            }
            let mut kept = 0;
            for y in 0..self.height(x) {
                if marks[x] & (1 << y) == 0 {
                    self.columns[x][kept] = self.columns[x][y];
                    kept += 1;
                }
            }
            // Cells above a column's height stay 0, so equal fields compare equal.
            let old_height = self.height(x);
            self.columns[x][kept..old_height].fill(0);
            self.heights[x] = kept as u8;
        }
    }

    /// The 16 visible rows, top row first, as the prompt shows them (0 = empty).
    pub fn visible_rows(&self) -> [[u8; WIDTH]; HEIGHT] {
        let mut rows = [[0u8; WIDTH]; HEIGHT];
        for (i, row) in rows.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                *cell = self.cell(x, HEIGHT - 1 - i);
            }
        }
        rows
    }

    /// A field from prompt rows (top row first). Fails if a block floats above an empty cell.
    pub fn from_rows(rows: &[[u8; WIDTH]]) -> Result<Field, String> {
        let mut field = Field::default();
        for (i, row) in rows.iter().rev().enumerate() {
            for (x, &value) in row.iter().enumerate() {
                if value == 0 {
                    continue;
                }
                if field.height(x) != i {
                    let line = rows.len() - i;
                    return Err(format!(
                        "the block in column {x} of line {line} has nothing under it"
                    ));
                }
                if !field.push(x, value) {
                    return Err(format!("more than {CAPACITY} rows"));
                }
            }
        }
        Ok(field)
    }

    /// The canonical text (see the module doc).
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(self.max_height() * (WIDTH + 1));
        for y in (0..self.max_height()).rev() {
            for x in 0..WIDTH {
                text.push(match self.cell(x, y) {
                    0 => '.',
                    OJAMA => 'X',
                    v => char::from(b'0' + v),
                });
            }
            text.push('\n');
        }
        text
    }

    pub fn from_text(text: &str) -> Result<Field, String> {
        let lines: Vec<&str> = text
            .strip_suffix('\n')
            .unwrap_or(text)
            .split('\n')
            .collect();
        if text.is_empty() {
            return Ok(Field::default());
        }
        if lines.len() > CAPACITY {
            return Err(format!(
                "a field has at most {CAPACITY} rows, this one has {}",
                lines.len()
            ));
        }
        let mut rows = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            let mut row = [0u8; WIDTH];
            let mut cells = line.chars();
            for (x, cell) in row.iter_mut().enumerate() {
                *cell = match cells.next() {
                    Some('.') => 0,
                    Some('X') => OJAMA,
                    Some(c @ '1'..='9') => c as u8 - b'0',
                    Some(c) => {
                        return Err(format!(
                            "line {}: column {x} is {c:?}; a cell is one of . 1-9 X",
                            i + 1
                        ))
                    }
                    None => return Err(format!("line {} has {x} cells; a row has {WIDTH}", i + 1)),
                };
            }
            if cells.next().is_some() {
                return Err(format!("line {} has more than {WIDTH} cells", i + 1));
            }
            rows.push(row);
        }
        Field::from_rows(&rows)
    }
}

impl std::fmt::Debug for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_char('\n')?;
        f.write_str(&self.to_text())
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_text())
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = Cow::<str>::deserialize(deserializer)?;
        Field::from_text(&text).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Field {
    fn schema_name() -> Cow<'static, str> {
        "Field".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^([.1-9X]{10}\n)*$",
            "description": "Rows top first, bottom row last, each 10 cells and a line break: \
                '.' empty, '1'-'9' a block, 'X' ojama (11). Only the rows from the highest \
                block down; blocks rest on the floor or on another block."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(text: &str) -> Field {
        Field::from_text(text).unwrap()
    }

    #[test]
    fn text_round_trip_drops_empty_top_rows() {
        let f = field("..........\n1.....X...\n");
        assert_eq!(f.to_text(), "1.....X...\n");
        assert_eq!(f.cell(6, 0), OJAMA);
    }

    #[test]
    fn floating_block_is_refused() {
        let err = Field::from_text("1.........\n.2........\n").unwrap_err();
        assert!(err.contains("column 0"), "{err}");
    }

    /// The line named is the text's line, counted from the top: the floating 1 is on line 2 of
    /// three (a mistake in a case's field must be findable).
    #[test]
    fn a_floating_block_is_named_at_its_line_from_the_top() {
        let err = Field::from_text("..........\n1.........\n.2........\n").unwrap_err();
        assert_eq!(err, "the block in column 0 of line 2 has nothing under it");
    }

    /// A column holds at most 19 blocks (16 rows, an ojama row and a pack): 19 lines are a
    /// field, 20 are refused by their count.
    #[test]
    fn a_field_text_has_at_most_nineteen_rows() {
        let row = "1.........\n";
        assert_eq!(field(&row.repeat(CAPACITY)).height(0), CAPACITY);
        let err = Field::from_text(&row.repeat(CAPACITY + 1)).unwrap_err();
        assert_eq!(err, "a field has at most 19 rows, this one has 20");
    }

    #[test]
    fn diagonal_pair_vanishes_and_the_rest_falls() {
        let mut f = field("37........\n12........\n");
        // 3 (col 0, h1) + 7 (col 1, h1) horizontal; 3 + ... ; 1 + ... no other pair.
        assert_eq!(f.settle(), 1);
        assert_eq!(f.to_text(), "12........\n");
    }

    #[test]
    fn ojama_survives_explosion() {
        let mut f = field("X5X.......\n");
        assert_eq!(f.explode(), 1);
        assert_eq!(f.to_text(), "X.X.......\n");
    }
}

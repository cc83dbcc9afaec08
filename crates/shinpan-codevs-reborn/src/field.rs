//! One player's field: ten columns of stacked blocks, and what happens to them.
//!
//! Blocks always rest on the floor or on another block, so a column is a stack. Its canonical
//! text form is the document's figure turned into characters: one line per row, top row first,
//! `.` empty, `1`–`9` a block, `X` ojama; only the rows from the highest block down are written.

use std::borrow::Cow;
use std::fmt::Write as _;

#[cfg(feature = "schema")]
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::rules::{CAPACITY, EXPLODING_VALUE, HEIGHT, OJAMA, WIDTH};

/// One player's field, as bit planes so that a whole column is looked at in a few word
/// operations (the speed of a contestant's bitboard simulator, still written from the document).
///
/// Each cell holds a 4-bit *code* (not its value; see `CODES`), and a column holds its codes in
/// two words: bit y of `planes[0]` is bit 0 of the code at height y and bit 32 + y its bit 1;
/// `planes[1]` likewise bits 2 and 3. An empty cell is code 0, so a column's blocks are the rows
/// where some plane is set, and rows at and above its height are 0.
#[derive(Clone, Default)]
pub struct Field {
    columns: [Column; WIDTH],
    /// Bit x: column x may hold a block of a pair that sums to 10. Every such pair has a block in
    /// a column marked here, so [`Field::settle`] looks only at those columns and their
    /// neighbours. A block pushed marks its column; vanishing or exploding blocks mark the
    /// columns they fell in; an ojama row marks nothing (ojama is in no pair).
    unsettled: u16,
}

/// A column's codes, two bit planes to a word (see [`Field`]).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Column {
    planes: [u64; 2],
}

/// Bit y of `marks[x]` marks the block at column x, height y.
type Marks = [u32; WIDTH];

/// Every column.
const ALL_COLUMNS: u16 = (1 << WIDTH) - 1;

/// The rows a column can hold, as a mask of one plane.
const ROWS: u32 = (1 << CAPACITY) - 1;

/// `CODES[v]`: the code of value v (1..=9, and [`OJAMA`]); 0 for what is not a block. The codes
/// are chosen so that two values sum to 10 ([`super::rules::VANISH_SUM`]) exactly when one code is the other with
/// its two halves swapped and bits 0 and 2 flipped, the involution [`Column::pairs`] tests in a
/// few word operations: 1↔9 is 0b0010↔0b1101, 2↔8 0b0011↔0b1001, 3↔7 0b0110↔0b1100, 4↔6
/// 0b0111↔0b1000, and 5 is 0b0001, its own partner. Ojama is 0b1010, whose partner 0b1111 is no
/// block; the empty cell is 0, whose partner 0b0101 is no block either, so neither is in a
/// pair. (The test `codes_pair_exactly_the_values_summing_to_ten` checks every pair of values.)
const CODES: [u8; 12] = [
    0, 0b0010, 0b0011, 0b0110, 0b0111, 0b0001, 0b1000, 0b1100, 0b1001, 0b1101, 0, 0b1010,
];

/// The value of each code; 0 for a code no block has.
const VALUES: [u8; 16] = {
    let mut values = [0u8; 16];
    let mut v = 1;
    while v < CODES.len() {
        if CODES[v] != 0 {
            values[CODES[v] as usize] = v as u8;
        }
        v += 1;
    }
    values
};

/// A mask of rows, set in both planes of a word.
const fn both_planes(rows: u32) -> u64 {
    rows as u64 | (rows as u64) << 32
}

/// The mask of rows of `code` in a column: the rows whose four code bits are `code`'s.
const fn rows_of_code(column: Column, code: u8) -> u32 {
    let mut rows = ROWS;
    let mut bit = 0;
    while bit < 4 {
        let plane = (column.planes[bit / 2] >> (32 * (bit % 2))) as u32;
        rows &= if code >> bit & 1 == 1 { plane } else { !plane };
        bit += 1;
    }
    rows
}

impl Column {
    /// The rows holding a block.
    fn occupied(self) -> u32 {
        let [a, b] = self.planes;
        let any = a | b;
        (any | any >> 32) as u32
    }

    fn height(self) -> usize {
        (u32::BITS - self.occupied().leading_zeros()) as usize
    }

    /// Every row one lower: the row above each row brought to it.
    fn down(self) -> Column {
        Column {
            planes: self.planes.map(|p| p >> 1),
        }
    }

    /// Every row one higher: the row below each row brought to it (the floor brings an empty cell).
    fn up(self) -> Column {
        Column {
            planes: self.planes.map(|p| p << 1),
        }
    }

    /// The rows y where this column's block and `other`'s block at the same row y sum to
    /// [`VANISH_SUM`]: where `other`'s code is this one's partner (see [`CODES`]).
    fn pairs(self, other: Column) -> u32 {
        // Bits 0 and 2 of the partner are flipped: the low plane of each word.
        const FLIP: u64 = u32::MAX as u64;
        let [a, b] = self.planes;
        let [c, d] = other.planes;
        let differ = (a ^ FLIP ^ d) | (b ^ FLIP ^ c);
        !((differ | differ >> 32) as u32) & ROWS
    }

    /// The column without the `rows` marked, the blocks above each falling into its gap.
    fn without(self, rows: u32) -> Column {
        let mut planes = self.planes;
        let mut rows = rows;
        // From the top down, so that the rows still to remove have not moved.
        while rows != 0 {
            let y = u32::BITS - 1 - rows.leading_zeros();
            rows ^= 1 << y;
            let below = both_planes((1 << y) - 1);
            let from_above = both_planes(ROWS & !((1 << y) - 1));
            planes = planes.map(|p| (p & below) | (p >> 1 & from_above));
        }
        Column { planes }
    }
}

impl Field {
    pub fn height(&self, x: usize) -> usize {
        self.columns[x].height()
    }

    pub fn max_height(&self) -> usize {
        let occupied = self.columns.iter().fold(0, |all, c| all | c.occupied());
        (u32::BITS - occupied.leading_zeros()) as usize
    }

    /// The value at column x, height y; 0 where there is no block.
    pub fn cell(&self, x: usize, y: usize) -> u8 {
        if y >= CAPACITY {
            return 0;
        }
        let [a, b] = self.columns[x].planes;
        let code =
            (a >> y & 1) | (a >> (32 + y) & 1) << 1 | (b >> y & 1) << 2 | (b >> (32 + y) & 1) << 3;
        VALUES[code as usize]
    }

    /// Lets `value` fall onto column `x`. A column is never full in a reachable state
    /// (see [`CAPACITY`]); should it be, the block is refused and `false` returned. A value
    /// that is no block (0, 10, above 11) is refused too.
    pub fn push(&mut self, x: usize, value: u8) -> bool {
        let code = CODES.get(usize::from(value)).copied().unwrap_or(0);
        if code == 0 || !self.land(x, code) {
            return false;
        }
        self.unsettled |= 1 << x;
        true
    }

    /// Puts a block of `code` on top of column `x`, if it has room.
    fn land(&mut self, x: usize, code: u8) -> bool {
        let column = &mut self.columns[x];
        let h = column.height();
        if h >= CAPACITY {
            return false;
        }
        let code = u64::from(code);
        column.planes[0] |= ((code & 1) | (code >> 1 & 1) << 32) << h;
        column.planes[1] |= ((code >> 2 & 1) | (code >> 3 & 1) << 32) << h;
        true
    }

    /// 「お邪魔ブロックの投下」: one ojama block onto every column.
    pub fn drop_ojama_row(&mut self) {
        for x in 0..WIDTH {
            // Ojama sums to 10 with no block: the row leaves every column as settled as it was.
            self.land(x, CODES[usize::from(OJAMA)]);
        }
    }

    /// Removes every vanishing pair, then lets the rest fall; repeats until the field is stable.
    /// Returns the number of rounds, i.e. the chain count.
    pub fn settle(&mut self) -> u32 {
        let chains = self.settle_in::<true>(self.unsettled);
        self.unsettled = 0;
        chains
    }

    /// [`Field::settle`] played wrong (the variant `no-diagonal-vanish`): only pairs across and
    /// up-down vanish.
    pub fn settle_without_diagonals(&mut self) -> u32 {
        let chains = self.settle_in::<false>(ALL_COLUMNS);
        // Diagonal pairs may be left: the rules' settle must look everywhere.
        self.unsettled = ALL_COLUMNS;
        chains
    }

    /// Vanish rounds until nothing vanishes, the first looking only at pairs with a block in the
    /// columns `unsettled` (every pair has one).
    fn settle_in<const DIAGONALS: bool>(&mut self, unsettled: u16) -> u32 {
        let mut chains = 0;
        let mut unsettled = unsettled;
        while unsettled != 0 {
            let marks = self.sum_ten_pairs::<DIAGONALS>(unsettled);
            // The columns that lost blocks are the only ones whose blocks moved, so a new pair
            // has a block in one of them.
            unsettled = self.remove(&marks);
            if unsettled != 0 {
                chains += 1;
            }
        }
        chains
    }

    /// 「ブロックの消滅」: every block in a pair of neighbours (8 directions) summing to 10, of the
    /// pairs with a block in a column of `unsettled`. Ojama (11) never sums to 10 with a block of
    /// 1..=9, so it never vanishes. Without `DIAGONALS` (a variant, never the rules) only the 4
    /// straight directions count.
    fn sum_ten_pairs<const DIAGONALS: bool>(&self, unsettled: u16) -> Marks {
        let mut marks = [0u32; WIDTH];
        // Each unordered pair is looked at once, from its left (or lower) block: up, and the three
        // cells of the next column; so a column is looked from if it or the next one is unsettled.
        let mut from = unsettled | unsettled >> 1;
        while from != 0 {
            let x = from.trailing_zeros() as usize;
            from &= from - 1;
            let here = self.columns[x];
            let up = here.pairs(here.down());
            marks[x] |= up | up << 1;
            if x + 1 < WIDTH {
                let next = self.columns[x + 1];
                let across = here.pairs(next);
                marks[x] |= across;
                marks[x + 1] |= across;
                if DIAGONALS {
                    let rising = here.pairs(next.down());
                    marks[x] |= rising;
                    marks[x + 1] |= rising << 1;
                    let falling = here.pairs(next.up());
                    marks[x] |= falling;
                    marks[x + 1] |= falling >> 1;
                }
            }
        }
        marks
    }

    /// 「スキルの効果」: every 5 and its 8 neighbours, except ojama, vanish at once and the rest
    /// falls. Returns b, the number of blocks removed.
    pub fn explode(&mut self) -> u32 {
        let mut marks = [0u32; WIDTH];
        for x in 0..WIDTH {
            let fives = rows_of_code(self.columns[x], CODES[usize::from(EXPLODING_VALUE)]);
            let blast = fives | fives << 1 | fives >> 1;
            for mark in &mut marks[x.saturating_sub(1)..(x + 2).min(WIDTH)] {
                *mark |= blast;
            }
        }
        let mut removed = 0;
        for (mark, column) in marks.iter_mut().zip(&self.columns) {
            let ojama = rows_of_code(*column, CODES[usize::from(OJAMA)]);
            *mark &= column.occupied() & !ojama;
            removed += mark.count_ones();
        }
        self.unsettled |= self.remove(&marks);
        removed
    }

    /// Takes the marked blocks out; the blocks above each fall into the gap. Returns the columns
    /// that lost a block.
    fn remove(&mut self, marks: &Marks) -> u16 {
        let mut changed = 0;
        for (x, (column, &rows)) in self.columns.iter_mut().zip(marks).enumerate() {
            if rows != 0 {
                *column = column.without(rows);
                changed |= 1 << x;
            }
        }
        changed
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
    pub fn from_rows(rows: &[[u8; WIDTH]]) -> Result<Field, FieldError> {
        let mut field = Field::default();
        for (i, row) in rows.iter().rev().enumerate() {
            for (x, &value) in row.iter().enumerate() {
                if value == 0 {
                    continue;
                }
                let line = rows.len() - i;
                if field.height(x) != i {
                    return Err(FieldError::Floating { column: x, line });
                }
                if CODES.get(usize::from(value)).is_none_or(|&code| code == 0) {
                    return Err(FieldError::NoBlock {
                        column: x,
                        line,
                        value,
                    });
                }
                if !field.push(x, value) {
                    return Err(FieldError::Overflow);
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

    /// A field from its canonical text (see the module doc).
    pub fn from_text(text: &str) -> Result<Field, FieldError> {
        let lines: Vec<&str> = text
            .strip_suffix('\n')
            .unwrap_or(text)
            .split('\n')
            .collect();
        if text.is_empty() {
            return Ok(Field::default());
        }
        if lines.len() > CAPACITY {
            return Err(FieldError::TooManyRows { rows: lines.len() });
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
                        return Err(FieldError::NotACell {
                            line: i + 1,
                            column: x,
                            found: c,
                        })
                    }
                    None => {
                        return Err(FieldError::ShortLine {
                            line: i + 1,
                            cells: x,
                        })
                    }
                };
            }
            if cells.next().is_some() {
                return Err(FieldError::LongLine { line: i + 1 });
            }
            rows.push(row);
        }
        Field::from_rows(&rows)
    }
}

/// Why a text or a prompt's rows are not a field. Displayed as the sentence a case file's error
/// or a refused prompt gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// A block with an empty cell under it (lines counted from the top, from 1).
    #[error("the block in column {column} of line {line} has nothing under it")]
    Floating { column: usize, line: usize },
    #[error(
        "the cell in column {column} of line {line} holds {value}, which is no block (1-9, or {OJAMA} for ojama)"
    )]
    NoBlock {
        column: usize,
        line: usize,
        value: u8,
    },
    #[error("more than {CAPACITY} rows")]
    Overflow,
    #[error("a field has at most {CAPACITY} rows, this one has {rows}")]
    TooManyRows { rows: usize },
    #[error("line {line}: column {column} is {found:?}; a cell is one of . 1-9 X")]
    NotACell {
        line: usize,
        column: usize,
        found: char,
    },
    #[error("line {line} has {cells} cells; a row has {WIDTH}")]
    ShortLine { line: usize, cells: usize },
    #[error("line {line} has more than {WIDTH} cells")]
    LongLine { line: usize },
}

/// Two fields are equal when their blocks are: which columns are still to be looked at is how a
/// field is settled, not what it holds.
impl PartialEq for Field {
    fn eq(&self, other: &Field) -> bool {
        self.columns == other.columns
    }
}

impl Eq for Field {}

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

#[cfg(feature = "schema")]
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
    use super::super::rules::VANISH_SUM;
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
        assert_eq!(err, FieldError::Floating { column: 0, line: 1 });
    }

    /// The line named is the text's line, counted from the top: the floating 1 is on line 2 of
    /// three (a mistake in a case's field must be findable).
    #[test]
    fn a_floating_block_is_named_at_its_line_from_the_top() {
        let err = Field::from_text("..........\n1.........\n.2........\n").unwrap_err();
        assert_eq!(err, FieldError::Floating { column: 0, line: 2 });
        assert_eq!(
            err.to_string(),
            "the block in column 0 of line 2 has nothing under it"
        );
    }

    /// A column holds at most 19 blocks (16 rows, an ojama row and a pack): 19 lines are a
    /// field, 20 are refused by their count.
    #[test]
    fn a_field_text_has_at_most_nineteen_rows() {
        let row = "1.........\n";
        assert_eq!(field(&row.repeat(CAPACITY)).height(0), CAPACITY);
        let err = Field::from_text(&row.repeat(CAPACITY + 1)).unwrap_err();
        assert_eq!(err, FieldError::TooManyRows { rows: 20 });
        assert_eq!(
            err.to_string(),
            "a field has at most 19 rows, this one has 20"
        );
    }

    /// Every block next to every block, in each of the four directions a pair is looked at
    /// from: the two vanish exactly when they sum to 10. (Ojama, in no pair, holds them up.)
    #[test]
    fn codes_pair_exactly_the_values_summing_to_ten() {
        let blocks = [1, 2, 3, 4, 5, 6, 7, 8, 9, OJAMA];
        for a in blocks {
            for b in blocks {
                // `a` at height 1 of column 0; `b` above it, or in column 1 at heights 0..=2.
                let above = field(&format!(
                    "{}.........\n{}.........\nX.........\n",
                    cell(b),
                    cell(a)
                ));
                let falling = field(&format!("{}.........\nX{}........\n", cell(a), cell(b)));
                let across = field(&format!("{}{}........\nXX........\n", cell(a), cell(b)));
                let rising = field(&format!(
                    ".{}........\n{}X........\nXX........\n",
                    cell(b),
                    cell(a)
                ));
                for (direction, before) in [
                    ("above", above),
                    ("falling", falling),
                    ("across", across),
                    ("rising", rising),
                ] {
                    let mut after = before.clone();
                    let chains = after.settle();
                    let blocks = |f: &Field| (0..WIDTH).map(|x| f.height(x)).sum::<usize>();
                    let pair = a + b == VANISH_SUM;
                    assert_eq!(chains, u32::from(pair), "{a} and {b} {direction}");
                    assert_eq!(
                        blocks(&before) - blocks(&after),
                        2 * usize::from(pair),
                        "{a} and {b} {direction}"
                    );
                }
            }
        }
    }

    fn cell(value: u8) -> char {
        if value == OJAMA {
            'X'
        } else {
            char::from(b'0' + value)
        }
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

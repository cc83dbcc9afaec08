//! The CODE VS 4.0 protocol (5 プログラムの入出力フォーマット): typed texts with a strict parser
//! and a printer each, `print(parse(x)) == x` for every valid text.
//!
//! - [`Prompt`]: the input of every turn (5.1), what one player sees (D-codevs4-7).
//! - [`Orders`]: a turn's output, a count and that many `id command` lines (5.2, D-codevs4-8);
//!   [`Orders::read_lenient`] is what the engine takes (D-codevs4-5).
//! - [`parse_name`]: the AI name printed once, before anything else (5.2).

use std::fmt::Write as _;

use super::rules::{Cell, Direction, Kind, CELLS, MAX_ID, RESOURCE_CELLS, SIZE, TURNS};
use super::state::{State, Unit};
use shinpan_core::text::{name_line, quote, Line, ParseError, Reader};

/// One line of the unit lists: `id y x hp type` (y first, D-codevs4-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitLine {
    pub id: u32,
    pub y: i32,
    pub x: i32,
    pub hp: i32,
    pub kind: Kind,
}

impl UnitLine {
    pub fn of(unit: &Unit) -> UnitLine {
        UnitLine {
            id: unit.id,
            y: unit.cell.y,
            x: unit.cell.x,
            hp: unit.hp,
            kind: unit.kind,
        }
    }
}

/// 5.1: the input of one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub time_left_ms: u64,
    pub stage: u32,
    pub turn: u32,
    pub resources: u32,
    /// Every own unit, in ascending id order.
    pub own: Vec<UnitLine>,
    /// The enemy units within vision of some own unit, in ascending id order.
    pub enemies: Vec<UnitLine>,
    /// The resource cells within vision of some own unit, as (y, x). Their order is not fixed
    /// (D-codevs4-13): the same cells in any order are the same input. [`Prompt::of`] lists
    /// them top row first.
    pub resource_cells: Vec<(i32, i32)>,
}

/// The most unit lines one list can hold: one per id.
const MAX_UNITS: u64 = MAX_ID as u64 + 1;

impl Prompt {
    /// What `player` is told (4.3 視野, D-codevs4-7): all its own units, and the enemy units
    /// and resource cells within the vision of at least one of them.
    pub fn of(state: &State, player: usize) -> Prompt {
        Prompt::seen(state, player, &Sight::of(state, player))
    }

    /// What `player` is told when it sees what `sight` covers: [`Prompt::of`] with another
    /// vision, for a variant of the rules.
    pub fn seen(state: &State, player: usize, sight: &Sight) -> Prompt {
        let own = state
            .units
            .iter()
            .filter(|u| u.owner == player)
            .map(UnitLine::of)
            .collect();
        let enemies = state
            .units
            .iter()
            .filter(|u| u.owner != player && sight.sees(u.cell))
            .map(UnitLine::of)
            .collect();
        let mut resource_cells: Vec<(i32, i32)> = state
            .resource_cells
            .iter()
            .filter(|c| sight.sees(**c))
            .map(|c| (c.y, c.x))
            .collect();
        resource_cells.sort_unstable();
        Prompt {
            time_left_ms: state.players[player].time_left_ms,
            stage: state.stage,
            turn: state.turn,
            resources: state.players[player].resources,
            own,
            enemies,
            resource_cells,
        }
    }

    /// D-codevs4-13: the resource cells in another order, at random; never the (y, x) order of
    /// [`Prompt::of`] when there are two or more, so that a bot relying on it is caught.
    pub fn shuffle_resource_cells(&mut self, rng: &mut dyn rand::RngCore) {
        use rand::seq::SliceRandom;
        self.resource_cells.shuffle(rng);
        if self.resource_cells.is_sorted() {
            self.resource_cells.reverse();
        }
    }

    /// D-codevs4-13: the one spelling of a prompt whose resource cells may come in any order,
    /// shinpan's own: by y, then x.
    pub fn with_resource_cells_sorted(mut self) -> Prompt {
        self.resource_cells.sort_unstable();
        self
    }

    pub fn print(&self) -> String {
        let mut out = String::with_capacity(64 + 24 * (self.own.len() + self.enemies.len()));
        let _ = writeln!(
            out,
            "{}\n{}\n{}\n{}",
            self.time_left_ms, self.stage, self.turn, self.resources
        );
        for list in [&self.own, &self.enemies] {
            let _ = writeln!(out, "{}", list.len());
            for u in list {
                let _ = writeln!(out, "{} {} {} {} {}", u.id, u.y, u.x, u.hp, u.kind.code());
            }
        }
        let _ = writeln!(out, "{}", self.resource_cells.len());
        for (y, x) in &self.resource_cells {
            let _ = writeln!(out, "{y} {x}");
        }
        out.push_str("END\n");
        out
    }

    pub fn parse(text: &str) -> Result<Prompt, ParseError> {
        let mut reader = Reader::new(text);
        let mut single = |what: &str, max: u64| -> Result<u64, ParseError> {
            let what = format!("{what} (0..{max})");
            let mut line = reader.line(&what)?;
            let n = line.number(&what, 0..=max)?;
            line.end()?;
            Ok(n)
        };
        let time_left_ms = single("the time left in ms", super::rules::THINKING_TIME_MS)?;
        let stage = single("the stage", u64::from(super::rules::STAGES - 1))? as u32;
        let turn = single("the turn", u64::from(TURNS - 1))? as u32;
        let resources = single("the resources", u64::from(u32::MAX))? as u32;
        let own = read_units(&mut reader, "own")?;
        let enemies = read_units(&mut reader, "visible enemy")?;
        let count = {
            let what = format!("the number of visible resource cells (0..{RESOURCE_CELLS})");
            let mut line = reader.line(&what)?;
            let n = line.number(&what, 0..=RESOURCE_CELLS as u64)?;
            line.end()?;
            n
        };
        let mut resource_cells = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let mut line = reader.line("a resource cell `y x`")?;
            let y = coordinate(&mut line, "its y (0..99)")?;
            let x = coordinate(&mut line, "its x (0..99)")?;
            line.end()?;
            resource_cells.push((y, x));
        }
        reader.keyword("END")?;
        reader.finish()?;
        Ok(Prompt {
            time_left_ms,
            stage,
            turn,
            resources,
            own,
            enemies,
            resource_cells,
        })
    }
}

fn coordinate(line: &mut Line, what: &str) -> Result<i32, ParseError> {
    Ok(line.number(what, 0..=(SIZE - 1) as u64)? as i32)
}

fn read_units(reader: &mut Reader, whose: &str) -> Result<Vec<UnitLine>, ParseError> {
    let what = format!("the number of {whose} units (0..{MAX_UNITS})");
    let mut line = reader.line(&what)?;
    let count = line.number(&what, 0..=MAX_UNITS)?;
    line.end()?;
    // Never trust a count for an allocation: the lines must be there.
    let mut units = Vec::new();
    for _ in 0..count {
        let mut line = reader.line(&format!("an {whose} unit `id y x hp type`"))?;
        let id = line.number("a unit id (0..20000)", 0..=u64::from(MAX_ID))? as u32;
        let y = coordinate(&mut line, "a y (0..99)")?;
        let x = coordinate(&mut line, "an x (0..99)")?;
        let hp_token = line.token("an HP (1..50000)")?;
        let hp = hp_token.number("an HP (1..50000)", 1..=50_000)? as i32;
        let kind_token = line.token("a unit type (0..6)")?;
        let kind = kind_token
            .number("a unit type (0..6)", 0..=6)
            .map(|code| Kind::from_code(code).unwrap_or(Kind::Worker))?;
        if hp > kind.max_hp() {
            return Err(ParseError::new(
                hp_token.line,
                hp_token.col,
                format!("an HP of at most {} for a {}", kind.max_hp(), kind.name()),
                quote(hp_token.text),
            ));
        }
        line.end()?;
        units.push(UnitLine { id, y, x, hp, kind });
    }
    Ok(units)
}

/// Which cells a player sees: those within the vision of at least one of its units.
pub struct Sight {
    seen: Vec<bool>,
}

impl Sight {
    pub fn of(state: &State, player: usize) -> Sight {
        Sight::reaching(state, player, Kind::vision)
    }

    /// What `player`'s units see when a unit of each kind sees as far as `vision` says (table
    /// 2's [`Kind::vision`] for the rules).
    pub fn reaching(state: &State, player: usize, vision: fn(Kind) -> i32) -> Sight {
        let mut seen = vec![false; CELLS];
        // The diamond of each unit, a row at a time: the cells of a row that it reaches are one
        // run of the table (a match of 1,000 turns with hundreds of units asks this twice a turn).
        for unit in state.units.iter().filter(|u| u.owner == player) {
            let (centre, radius) = (unit.cell, vision(unit.kind));
            for y in (centre.y - radius).max(0)..=(centre.y + radius).min(SIZE - 1) {
                let width = radius - (y - centre.y).abs();
                let row = |x: i32| Cell { x, y }.index();
                let (left, right) = ((centre.x - width).max(0), (centre.x + width).min(SIZE - 1));
                if left <= right {
                    seen[row(left)..=row(right)].fill(true);
                }
            }
        }
        Sight { seen }
    }

    pub fn sees(&self, cell: Cell) -> bool {
        cell.on_field() && self.seen[cell.index()]
    }
}

/// Table 6: what a unit may be told to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Move(Direction),
    /// Produce a unit of this kind (never a castle).
    Produce(Kind),
}

impl Command {
    /// Table 6: `U D L R`, or the number of the kind to produce (`0 1 2 3 5 6`).
    pub fn from_letter(letter: &str) -> Option<Command> {
        Some(match letter {
            "U" => Command::Move(Direction::Up),
            "D" => Command::Move(Direction::Down),
            "L" => Command::Move(Direction::Left),
            "R" => Command::Move(Direction::Right),
            "0" => Command::Produce(Kind::Worker),
            "1" => Command::Produce(Kind::Knight),
            "2" => Command::Produce(Kind::Fighter),
            "3" => Command::Produce(Kind::Assassin),
            "5" => Command::Produce(Kind::Village),
            "6" => Command::Produce(Kind::Base),
            _ => return None,
        })
    }

    pub fn letter(self) -> char {
        match self {
            Command::Move(direction) => direction.letter(),
            Command::Produce(kind) => char::from(b'0' + kind.code()),
        }
    }

    /// Whether a unit of `kind` may be given this command at all (tables 1 and 6).
    pub fn allowed_for(self, kind: Kind) -> bool {
        match self {
            Command::Move(_) => kind.moves(),
            Command::Produce(product) => kind.produces(product),
        }
    }
}

/// One output line: `id command`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Order {
    pub unit: u32,
    pub command: Command,
}

const COMMAND_WHAT: &str = "a command (U, D, L, R, 0, 1, 2, 3, 5 or 6)";

impl Order {
    pub fn print(&self) -> String {
        format!("{} {}", self.unit, self.command.letter())
    }

    /// The strict grammar of one line without building a position for an error: plain digits
    /// within 0..=20000, one space, one command letter. `None` sends the line to [`Order::read`],
    /// which says where it goes wrong (and accepts exactly the same lines).
    fn read_plain(text: &str) -> Option<Order> {
        let space = text.bytes().position(|b| b == b' ')?;
        let (id, letter) = (&text[..space], &text[space + 1..]);
        let plain = !id.is_empty()
            && id.len() <= 5
            && id.bytes().all(|b| b.is_ascii_digit())
            && (id == "0" || !id.starts_with('0'));
        let unit: u32 = if plain { id.parse().ok()? } else { return None };
        if unit > MAX_ID {
            return None;
        }
        let command = Command::from_letter(letter)?;
        Some(Order { unit, command })
    }

    /// The strict grammar of one line, as line `number` of a reply.
    fn read(line: &mut Line) -> Result<Order, ParseError> {
        let unit = line.number("a unit id (0..20000)", 0..=u64::from(MAX_ID))? as u32;
        let token = line.token(COMMAND_WHAT)?;
        let command = Command::from_letter(token.text).ok_or_else(|| {
            ParseError::new(token.line, token.col, COMMAND_WHAT, quote(token.text))
        })?;
        line.end()?;
        Ok(Order { unit, command })
    }

    /// What the engine reads in a line (D-codevs4-5): blanks and a CR around and between the
    /// two fields, and leading zeros in the id. `None`: the line is an invalid string, ignored.
    pub fn read_lenient(line: &str) -> Option<Order> {
        let mut fields = line
            .split([' ', '\t', '\r'])
            .filter(|field| !field.is_empty());
        let (Some(id), Some(letter), None) = (fields.next(), fields.next(), fields.next()) else {
            return None;
        };
        let unit = lenient_number(id)?;
        let command = Command::from_letter(letter)?;
        Some(Order { unit, command })
    }
}

/// Digits only, leading zeros allowed, within u32.
fn lenient_number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = text.trim_start_matches('0');
    if digits.len() > 10 {
        return None;
    }
    if digits.is_empty() {
        return Some(0);
    }
    digits.parse().ok()
}

/// 5.2: one turn's output.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Orders {
    pub orders: Vec<Order>,
}

/// A turn's output as the engine reads it (D-codevs4-5, D-codevs4-8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LenientOrders {
    /// The count of the first line; `None` when it is not a number.
    pub count: Option<u64>,
    /// Each of the first `count` lines after it (as many as there are): the order read, or the
    /// line's number and text when it is an invalid string.
    pub lines: Vec<Result<Order, (usize, String)>>,
    /// Lines beyond the count (not part of this turn's output).
    pub extra_lines: usize,
}

impl Orders {
    /// The text as a bot prints it, lines joined by `\n`, without the last line break.
    pub fn print(&self) -> String {
        let mut out = self.orders.len().to_string();
        for order in &self.orders {
            out.push('\n');
            out.push_str(&order.print());
        }
        out
    }

    /// The strict grammar: a count, then exactly that many `id command` lines, numbers in their
    /// plain form, single spaces, nothing else (the reply's lines joined by `\n`).
    pub fn parse(text: &str) -> Result<Orders, ParseError> {
        let mut lines = text.split('\n').enumerate();
        let (_, first) = lines.next().unwrap_or((0, ""));
        let mut count_line = Line::whole(first);
        let count = count_line.number("the number of orders", 0..=u64::from(u32::MAX))?;
        count_line.end()?;
        let mut orders = Vec::new();
        for (i, text) in lines {
            if orders.len() as u64 == count {
                return Err(ParseError::new(i + 1, 1, "end of the output", quote(text)));
            }
            let order = match Order::read_plain(text) {
                Some(order) => order,
                None => Order::read(&mut Line::whole(text))
                    .map_err(|e| ParseError { line: i + 1, ..e })?,
            };
            orders.push(order);
        }
        if (orders.len() as u64) < count {
            let line = orders.len() + 2;
            return Err(ParseError::new(
                line,
                1,
                format!("{count} orders (the count of line 1)"),
                "end of the output",
            ));
        }
        Ok(Orders { orders })
    }

    /// The engine's reading.
    pub fn read_lenient(text: &str) -> LenientOrders {
        let mut lines = text.split('\n');
        let count = lines.next().and_then(|first| {
            let trimmed = first.trim_matches([' ', '\t', '\r']);
            lenient_number(trimmed).map(u64::from)
        });
        let Some(n) = count else {
            return LenientOrders {
                count: None,
                lines: Vec::new(),
                extra_lines: lines.count(),
            };
        };
        let mut read = Vec::new();
        let mut extra_lines = 0;
        for (i, line) in lines.enumerate() {
            if read.len() as u64 >= n {
                extra_lines += 1;
                continue;
            }
            read.push(Order::read_lenient(line).ok_or_else(|| (i + 2, line.to_string())));
        }
        LenientOrders {
            count,
            lines: read,
            extra_lines,
        }
    }
}

impl LenientOrders {
    /// Whether the engine takes every line of the text as an order, the count agreeing.
    pub fn is_whole(&self) -> bool {
        self.count == Some(self.lines.len() as u64)
            && self.extra_lines == 0
            && self.lines.iter().all(Result::is_ok)
    }
}

/// 5.2: the AI name, one line of half-width letters and digits, `-`, `_` and `@`.
pub fn parse_name(text: &str) -> Result<&str, ParseError> {
    name_line(
        text,
        "an AI name",
        |c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '@'),
        "a letter, a digit, `-`, `_` or `@`",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_input_example_parses_and_prints_back() {
        let text = "3598517\n0\n27\n29\n13\n0 7 16 50000 4\n1 16 23 2000 0\n2 16 23 2000 0\n\
                    3 16 23 2000 0\n4 7 43 2000 0\n5 16 23 2000 0\n12 20 9 2000 0\n\
                    14 16 23 2000 0\n16 13 24 2000 0\n18 16 17 2000 0\n20 5 12 2000 0\n\
                    22 9 17 2000 0\n24 7 16 2000 0\n0\n1\n16 23\nEND\n";
        let prompt = Prompt::parse(text).unwrap();
        assert_eq!(prompt.own.len(), 13);
        assert_eq!(prompt.own[0].kind, Kind::Castle);
        assert_eq!((prompt.own[0].y, prompt.own[0].x), (7, 16));
        assert_eq!(prompt.print(), text);
    }

    #[test]
    fn document_output_example_first_turn() {
        let text =
            "14\n12 R\n16 R\n22 D\n24 R\n25 R\n27 R\n29 D\n32 D\n20 D\n30 R\n34 R\n35 R\n37 D\n0 0";
        let orders = Orders::parse(text).unwrap();
        assert_eq!(orders.orders.len(), 14);
        assert_eq!(orders.print(), text);
        // The second turn of the example says 3 and gives 6 lines (D-codevs4-8).
        let second = "3\n12 D\n16 R\n22 L\n35 U\n37 R\n0 0";
        assert_eq!(Orders::parse(second).unwrap_err().line, 5);
        let lenient = Orders::read_lenient(second);
        assert_eq!((lenient.lines.len(), lenient.extra_lines), (3, 3));
    }

    #[test]
    fn the_plain_reading_accepts_exactly_the_strict_lines() {
        let mut lines: Vec<String> = vec![
            "0 0", "00 0", "01 U", "20000 U", "20001 U", "99999 U", "123456 U", "12  U", " 12 U",
            "12 U ", "12 U\r", "12\tU", "12 UU", "12 4", "12 u", "-1 U", "+1 U", "12", "12 ", " U",
            "", "1 6", "1 7",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        for id in [0, 1, 9, 10, 19_999, 20_000] {
            for letter in ["U", "D", "L", "R", "0", "1", "2", "3", "5", "6"] {
                lines.push(format!("{id} {letter}"));
            }
        }
        for line in &lines {
            let slow = Order::read(&mut Line::whole(line)).ok();
            assert_eq!(Order::read_plain(line), slow, "{line:?}");
        }
    }

    #[test]
    fn lenient_lines() {
        assert_eq!(
            Order::read_lenient(" 012\tR\r"),
            Some(Order {
                unit: 12,
                command: Command::Move(Direction::Right)
            })
        );
        for bad in [
            "12 4",
            "12 r",
            "12",
            "12 R R",
            "-1 R",
            "x R",
            "99999999999 R",
        ] {
            assert_eq!(Order::read_lenient(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn names() {
        assert!(parse_name("cestAI").is_ok());
        assert!(parse_name("a-b_c@9").is_ok());
        assert_eq!(parse_name("a b").unwrap_err().col, 2);
        assert!(parse_name("").is_err());
    }
}

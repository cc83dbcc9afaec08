//! The TSG AUTO CHESS protocol (「入力」, 「出力」): typed texts with a strict parser and a printer
//! each, `print(parse(x)) == x` for every valid text, and the engine's lenient reading of a
//! reply (D-tsg-6), which never fails.
//!
//! - [`Prompt`]: what a player reads every turn, in its own frame.
//! - [`TurnReply`]: the command line, the move count and the move lines; joined by `\n`
//!   without a last line break, as a framed reply is. [`TurnReply::read_lenient`] is what the
//!   engine plays.
//! - [`parse_name`]: the name line a player prints before its first prompt.

use super::rules::{
    to_frame, Kind, BOARD, MAX_NUMBER, MAX_UNITS, PRICE_MAX, PRICE_MIN, THINKING_TIME_MS, TURNS,
};
use super::state::{ShopUnit, State};
use shinpan_core::text::{name_line, quote, Line, ParseError, Reader};

/// One unit line of a prompt, in the reader's frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitLine {
    pub id: u32,
    pub kind: Kind,
    pub hp: i64,
    pub atk: i64,
    pub x: i64,
    pub y: i64,
}

/// A whole prompt (「入力」).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub turn: u32,
    pub time_left_ms: u64,
    /// Mine, then the enemy's.
    pub levels: [i64; 2],
    /// Mine, then the enemy's.
    pub golds: [i64; 2],
    pub shop: [ShopUnit; 3],
    pub own: Vec<UnitLine>,
    pub enemy: Vec<UnitLine>,
}

impl Prompt {
    /// What `player` reads in `state`: its own numbers first, coordinates in its own frame.
    pub fn of(state: &State, player: usize) -> Prompt {
        let other = 1 - player;
        let lines = |owner: usize| {
            state
                .units
                .iter()
                .filter(|u| u.owner == owner)
                .map(|u| {
                    let (x, y) = to_frame(player, (i64::from(u.x), i64::from(u.y)));
                    UnitLine {
                        id: u.id,
                        kind: u.kind,
                        hp: u.hp,
                        atk: u.atk,
                        x,
                        y,
                    }
                })
                .collect()
        };
        let (me, them) = (&state.players[player], &state.players[other]);
        Prompt {
            turn: state.turn,
            time_left_ms: me.time_left_ms,
            levels: [me.level, them.level],
            golds: [me.gold, them.gold],
            shop: me.shop,
            own: lines(player),
            enemy: lines(other),
        }
    }

    pub fn print(&self) -> String {
        let mut out = String::with_capacity(96 + 24 * (self.own.len() + self.enemy.len()));
        push_number(&mut out, i64::from(self.turn));
        out.push('\n');
        push_number(&mut out, self.time_left_ms as i64);
        out.push('\n');
        push_numbers(&mut out, &self.levels);
        push_numbers(&mut out, &self.golds);
        for s in &self.shop {
            push_number(&mut out, i64::from(s.id));
            out.push(' ');
            out.push_str(s.kind.word());
            out.push(' ');
            push_numbers(&mut out, &[s.hp, s.atk, s.price]);
        }
        for units in [&self.own, &self.enemy] {
            push_numbers(&mut out, &[units.len() as i64]);
            for u in units {
                push_number(&mut out, i64::from(u.id));
                out.push(' ');
                out.push_str(u.kind.word());
                out.push(' ');
                push_numbers(&mut out, &[u.hp, u.atk, u.x, u.y]);
            }
        }
        out
    }

    /// The strict grammar: every number a plain natural number within the document's ranges,
    /// single spaces, every line ended by `\n`, nothing after the enemy's units.
    pub fn parse(text: &str) -> Result<Prompt, ParseError> {
        let mut reader = Reader::new(text);
        let max_turn = u64::from(TURNS - 1);
        let turn = single(&mut reader, "the turn (0..999)", 0..=max_turn)? as u32;
        let time_left_ms = single(
            &mut reader,
            "the time left in ms (0..180000)",
            0..=THINKING_TIME_MS,
        )?;
        let levels = pair(&mut reader, "a level (1..2147483647)", 1)?;
        let golds = pair(&mut reader, "a gold amount (0..2147483647)", 0)?;
        let mut shop = [ShopUnit::new(0, 0, 1, PRICE_MIN); 3];
        for slot in &mut shop {
            let mut line = reader.line("a shop line `ID TYPE HP ATK PRICE`")?;
            let id = line.number("a unit id (0..2147483647)", 0..=MAX_NUMBER as u64)? as u32;
            let kind = kind(&mut line, false)?;
            let hp = line.number("an HP (1..2147483647)", 1..=MAX_NUMBER as u64)? as i64;
            let atk = line.number("an ATK (1..2147483647)", 1..=MAX_NUMBER as u64)? as i64;
            let price = line.number("a price (2..4)", PRICE_MIN as u64..=PRICE_MAX as u64)? as i64;
            line.end()?;
            *slot = ShopUnit {
                id,
                kind,
                hp,
                atk,
                price,
            };
        }
        let own = units(&mut reader, "my unit count", MAX_UNITS)?;
        let enemy = units(&mut reader, "the enemy's unit count", MAX_UNITS - own.len())?;
        reader.finish()?;
        Ok(Prompt {
            turn,
            time_left_ms,
            levels,
            golds,
            shop,
            own,
            enemy,
        })
    }
}

/// Appends `n` in decimal: the printers' hot path, cheaper than `write!`.
fn push_number(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    let mut digits = [0u8; 20];
    let mut rest = n.unsigned_abs();
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// Appends `numbers` separated by single spaces, then a line break.
fn push_numbers(out: &mut String, numbers: &[i64]) {
    for (i, &n) in numbers.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_number(out, n);
    }
    out.push('\n');
}

fn single(
    reader: &mut Reader,
    what: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, ParseError> {
    let mut line = reader.line(what)?;
    let n = line.number(what, range)?;
    line.end()?;
    Ok(n)
}

fn pair(reader: &mut Reader, what: &str, min: u64) -> Result<[i64; 2], ParseError> {
    let mut line = reader.line(&format!("two values, {what}"))?;
    let mine = line.number(what, min..=MAX_NUMBER as u64)? as i64;
    let theirs = line.number(what, min..=MAX_NUMBER as u64)? as i64;
    line.end()?;
    Ok([mine, theirs])
}

fn kind(line: &mut Line, king_allowed: bool) -> Result<Kind, ParseError> {
    let what = if king_allowed {
        "a unit type (WARRIOR, ASSASSIN, MAGE or KING)"
    } else {
        "a type for sale (WARRIOR, ASSASSIN or MAGE)"
    };
    let token = line.token(what)?;
    match Kind::from_word(token.text) {
        Some(k) if king_allowed || k != Kind::King => Ok(k),
        _ => Err(ParseError::new(
            token.line,
            token.col,
            what,
            quote(token.text),
        )),
    }
}

fn units(reader: &mut Reader, what: &str, most: usize) -> Result<Vec<UnitLine>, ParseError> {
    let count = single(reader, &format!("{what} (0..{most})"), 0..=most as u64)? as usize;
    let mut units = Vec::with_capacity(count);
    let coordinate = format!("a coordinate (0..{})", BOARD - 1);
    for _ in 0..count {
        let mut line = reader.line("a unit line `ID TYPE HP ATK X Y`")?;
        let id = line.number("a unit id (0..2147483647)", 0..=MAX_NUMBER as u64)? as u32;
        let kind = kind(&mut line, true)?;
        let hp = line.number("an HP (1..2147483647)", 1..=MAX_NUMBER as u64)? as i64;
        let atk = line.number("an ATK (1..2147483647)", 1..=MAX_NUMBER as u64)? as i64;
        let x = line.number(&coordinate, 0..=(BOARD - 1) as u64)? as i64;
        let y = line.number(&coordinate, 0..=(BOARD - 1) as u64)? as i64;
        line.end()?;
        units.push(UnitLine {
            id,
            kind,
            hp,
            atk,
            x,
            y,
        });
    }
    Ok(units)
}

/// The command line (「出力」, D-tsg-6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Buy {
        id: i64,
        x: i64,
        y: i64,
    },
    Evolve([i64; 3]),
    Levelup,
    Nop,
    /// Any line that names no command: a no-op, exactly as `nop` is.
    Other(String),
}

/// One move line, `ID X Y`, in the writer's frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub id: i64,
    pub x: i64,
    pub y: i64,
}

/// A turn's reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnReply {
    pub command: Command,
    pub moves: Vec<Move>,
}

const BUY: &str = "buy";
const EVOLVE: &str = "evolve";
const LEVELUP: &str = "levelup";
const NOP: &str = "nop";
const KEYWORDS: [&str; 4] = [BUY, EVOLVE, LEVELUP, NOP];

const ID: &str = "a unit id (0..2147483647)";
const COORD: &str = "a coordinate (an integer)";

impl Command {
    pub fn print(&self) -> String {
        let mut out = String::new();
        self.print_into(&mut out);
        out
    }

    fn print_into(&self, out: &mut String) {
        let mut words = |word: &str, numbers: &[i64]| {
            out.push_str(word);
            for &n in numbers {
                out.push(' ');
                push_number(out, n);
            }
        };
        match self {
            Command::Buy { id, x, y } => words(BUY, &[*id, *x, *y]),
            Command::Evolve(ids) => words(EVOLVE, ids),
            Command::Levelup => words(LEVELUP, &[]),
            Command::Nop => words(NOP, &[]),
            Command::Other(text) => words(text, &[]),
        }
    }

    /// The strict grammar of one command line: a line whose first word is a command word must be
    /// exactly that command (single spaces, plain numbers); any other line is a no-op, as the
    /// document allows.
    fn parse_line(mut line: Line) -> Result<Command, ParseError> {
        let text = line.text();
        let Some(word) = first_word(text).filter(|w| KEYWORDS.contains(w)) else {
            return Ok(Command::Other(text.to_string()));
        };
        let quoted = match word {
            BUY => "`buy`",
            EVOLVE => "`evolve`",
            LEVELUP => "`levelup`",
            _ => "`nop`",
        };
        let token = line.token(quoted)?;
        if token.text != word {
            return Err(line.error_at(
                1,
                format!("`{word}` alone at the start of the line"),
                quote(text),
            ));
        }
        let command = match word {
            BUY => Command::Buy {
                id: line.number(ID, 0..=MAX_NUMBER as u64)? as i64,
                x: line.integer(COORD, -MAX_NUMBER - 1..=MAX_NUMBER)?,
                y: line.integer(COORD, -MAX_NUMBER - 1..=MAX_NUMBER)?,
            },
            EVOLVE => Command::Evolve([
                line.number(ID, 0..=MAX_NUMBER as u64)? as i64,
                line.number(ID, 0..=MAX_NUMBER as u64)? as i64,
                line.number(ID, 0..=MAX_NUMBER as u64)? as i64,
            ]),
            LEVELUP => Command::Levelup,
            _ => Command::Nop,
        };
        line.end()?;
        Ok(command)
    }

    /// What the engine makes of a command line: blanks and a CR around and between the words
    /// are ignored, numbers may carry a sign or leading zeros; a line that does not read as a
    /// command is a no-op (D-tsg-6).
    pub fn read_lenient(text: &str) -> Command {
        let mut words = text.split_ascii_whitespace();
        let first = words.next();
        let rest: Vec<Option<i64>> = words.by_ref().take(3).map(lenient_integer).collect();
        let numbers = match (rest.as_slice(), words.next()) {
            ([Some(a), Some(b), Some(c)], None) => Some([*a, *b, *c]),
            _ => None,
        };
        match (first, numbers) {
            (Some(NOP), None) if rest.is_empty() => Command::Nop,
            (Some(LEVELUP), None) if rest.is_empty() => Command::Levelup,
            (Some(BUY), Some([id, x, y])) => Command::Buy { id, x, y },
            (Some(EVOLVE), Some(ids)) => Command::Evolve(ids),
            _ => Command::Other(text.to_string()),
        }
    }
}

/// The first word of a line, blanks (space, tab, CR) separating words.
fn first_word(text: &str) -> Option<&str> {
    text.split_ascii_whitespace().next()
}

/// A number as the engine reads it: blanks around it, an optional sign, any leading zeros,
/// within 64 bits.
fn lenient_integer(token: &str) -> Option<i64> {
    let token = token.trim_ascii();
    let digits = token.strip_prefix(['+', '-']).unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

impl TurnReply {
    pub fn print(&self) -> String {
        let mut out = String::with_capacity(16 + 12 * self.moves.len());
        self.command.print_into(&mut out);
        out.push('\n');
        push_number(&mut out, self.moves.len() as i64);
        for m in &self.moves {
            out.push('\n');
            push_number(&mut out, m.id);
            out.push(' ');
            push_number(&mut out, m.x);
            out.push(' ');
            push_number(&mut out, m.y);
        }
        out
    }

    /// The strict grammar: the command line, a move count (a natural number), exactly that
    /// many lines `ID X Y`, nothing after, no CR anywhere.
    pub fn parse(text: &str) -> Result<TurnReply, ParseError> {
        let terminated = format!("{text}\n");
        let mut reader = Reader::new(&terminated);
        let command = Command::parse_line(reader.line("a command line")?)?;
        let mut line = reader.line("the number of moves")?;
        let count = line.number("the number of moves (0..2147483647)", 0..=MAX_NUMBER as u64)?;
        line.end()?;
        let mut moves = Vec::new();
        for _ in 0..count {
            let mut line = reader.line("a move line `ID X Y`")?;
            moves.push(Move {
                id: line.number(ID, 0..=MAX_NUMBER as u64)? as i64,
                x: line.integer(COORD, -MAX_NUMBER - 1..=MAX_NUMBER)?,
                y: line.integer(COORD, -MAX_NUMBER - 1..=MAX_NUMBER)?,
            });
            line.end()?;
        }
        reader.finish()?;
        Ok(TurnReply { command, moves })
    }

    /// What the engine plays (D-tsg-6): the command line read leniently; a missing or
    /// malformed count (or a negative one) is 0; a move line that is not three numbers is
    /// skipped; lines past the count, or a count past the lines, are ignored. Never fails.
    pub fn read_lenient(text: &str) -> TurnReply {
        let mut lines = text.split('\n');
        let command = Command::read_lenient(lines.next().unwrap_or(""));
        let count = lines.next().map_or(0, lenient_move_count);
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        let moves = lines
            .take(count)
            .filter_map(|line| {
                let mut words = line.split_ascii_whitespace().map(lenient_integer);
                match (words.next(), words.next(), words.next(), words.next()) {
                    (Some(Some(id)), Some(Some(x)), Some(Some(y)), None) => Some(Move { id, x, y }),
                    _ => None,
                }
            })
            .collect();
        TurnReply { command, moves }
    }
}

/// The move count as the engine reads it (D-tsg-6): a malformed or negative count is 0.
pub fn lenient_move_count(line: &str) -> u64 {
    lenient_integer(line).map_or(0, |n| u64::try_from(n).unwrap_or(0))
}

/// 「出力」: the name is one line; strictly, a non-empty one without control characters.
pub fn parse_name(text: &str) -> Result<&str, ParseError> {
    name_line(
        text,
        "a player name",
        |c| !c.is_control(),
        "a printable character",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_replies_print_back() {
        for text in [
            "nop\n0",
            "buy 2 7 1\n0",
            "evolve 8 9 10\n1\n8 7 2",
            "levelup\n2\n0 6 0\n8 -1 15",
            "hello there\n0",
            "\n0",
        ] {
            let reply = TurnReply::parse(text).unwrap();
            assert_eq!(reply.print(), text);
            assert_eq!(TurnReply::read_lenient(text), reply, "{text:?}");
        }
    }

    #[test]
    fn malformed_forms_are_not_strict_but_are_read() {
        for (text, command, moves) in [
            ("buy 2 7 1 \n0", Command::Buy { id: 2, x: 7, y: 1 }, 0),
            ("nop\nx\n8 7 2", Command::Nop, 0),
            ("nop\n2\n8 7\n9 7 3", Command::Nop, 1),
            ("nop\n-3", Command::Nop, 0),
            ("nop", Command::Nop, 0),
            ("levelup\r\n1\r\n8 7 2\r", Command::Levelup, 1),
            ("buy 2 7\n0", Command::Other("buy 2 7".into()), 0),
        ] {
            assert!(TurnReply::parse(text).is_err(), "{text:?}");
            let read = TurnReply::read_lenient(text);
            assert_eq!(
                (read.command, read.moves.len()),
                (command, moves),
                "{text:?}"
            );
        }
    }

    #[test]
    fn document_example_prompt_parses() {
        let text = "0\n180000\n1 1\n5 5\n2 WARRIOR 50 10 3\n3 MAGE 15 5 3\n4 ASSASSIN 20 20 3\n1\n0 KING 100 20 7 0\n1\n1 KING 100 20 7 14\n";
        assert_eq!(Prompt::parse(text).unwrap().print(), text);
    }
}

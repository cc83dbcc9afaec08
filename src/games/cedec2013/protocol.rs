//! The CEDEC 2013 protocol (QUICKSTART 「入力仕様」「コマンド列の出力方法」, D-cedec-10): typed
//! texts with a strict parser and a printer each, `print(parse(x)) == x` for every valid text.
//!
//! - [`Request`]: the block every player reads before its name and before each of its turns.
//! - [`Command`]: one line of a turn's reply; [`Command::parse_lenient`] is what the engine
//!   accepts, [`Command::parse`] the documented grammar.
//! - [`parse_name`]: the name line answered to the round-0 request.

use std::fmt::Write as _;

use super::rules::{
    Base, Direction, COORDS, FIELD_WIDTH, MAX_NAME_CHARS, PLAYERS, RADIUS, ROUNDS, TILES,
};
use super::state::{Landform, State};
use super::tally::resources_of;
use crate::text::{name_line, quote, Line, ParseError, Reader, Token};

/// One tile as a request shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileView {
    pub x: i8,
    pub y: i8,
    /// -1 for nobody.
    pub owner: i8,
    pub robots: u32,
    /// The owner's resources on the tile (0 when unowned).
    pub resources: u32,
    pub landform: Landform,
    /// `None` prints `none`; a hole prints `hole` (see `TileView::installation_name`).
    pub base: Option<Base>,
}

impl TileView {
    fn installation_name(&self) -> &'static str {
        match (self.landform, self.base) {
            (Landform::Hole, _) => "hole",
            (_, Some(base)) => base.name(),
            (_, None) => "none",
        }
    }
}

/// The request block: `START`, the round line, the field size, 127 tiles, `EOS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// 0 for the name request, then 1..=200.
    pub round: u32,
    pub max_round: u32,
    /// The id of the player reading it.
    pub player: u8,
    pub tiles: Vec<TileView>,
}

impl Request {
    pub fn of(state: &State, player: usize) -> Request {
        let tiles = state
            .tiles
            .0
            .iter()
            .enumerate()
            .map(|(i, tile)| {
                let (x, y) = COORDS[i];
                TileView {
                    x,
                    y,
                    owner: tile.owner.map_or(-1, |o| o as i8),
                    robots: tile.robots,
                    resources: tile
                        .owner
                        .map_or(0, |o| resources_of(&state.tiles, i, usize::from(o))),
                    landform: tile.landform(),
                    base: tile.base,
                }
            })
            .collect();
        Request {
            round: state.round,
            max_round: ROUNDS,
            player: player as u8,
            tiles,
        }
    }

    pub fn print(&self) -> String {
        let mut out = String::with_capacity(40 + 32 * self.tiles.len());
        out.push_str("START\n");
        let _ = writeln!(out, "{} {} {}", self.round, self.max_round, self.player);
        let _ = writeln!(out, "{FIELD_WIDTH} {TILES}");
        for t in &self.tiles {
            let _ = writeln!(
                out,
                "{} {} {} {} {} {} {}",
                t.x,
                t.y,
                t.owner,
                t.robots,
                t.resources,
                t.landform.name(),
                t.installation_name()
            );
        }
        out.push_str("EOS\n");
        out
    }

    /// The strict grammar: tiles in x-then-y order, numbers in range, each tile's landform,
    /// installation and owner consistent with each other; nothing after `EOS`.
    pub fn parse(text: &str) -> Result<Request, ParseError> {
        let mut reader = Reader::new(text);
        reader.keyword("START")?;
        let mut line = reader.line("the round line")?;
        let round = line.number("the round (0..200)", 0..=u64::from(ROUNDS))? as u32;
        let max_round = line.number(
            "the last round (200)",
            u64::from(ROUNDS)..=u64::from(ROUNDS),
        )? as u32;
        let player = line.number("the player id (0..2)", 0..=PLAYERS as u64 - 1)? as u8;
        line.end()?;
        let mut line = reader.line("the field size `7 127`")?;
        line.number(
            "the field width (7)",
            u64::from(FIELD_WIDTH)..=u64::from(FIELD_WIDTH),
        )?;
        line.number("the tile count (127)", TILES as u64..=TILES as u64)?;
        line.end()?;
        let mut tiles = Vec::with_capacity(TILES);
        for &(x, y) in &COORDS {
            tiles.push(read_tile(&mut reader, x, y)?);
        }
        reader.keyword("EOS")?;
        reader.finish()?;
        Ok(Request {
            round,
            max_round,
            player,
            tiles,
        })
    }
}

fn read_tile(reader: &mut Reader, x: i8, y: i8) -> Result<TileView, ParseError> {
    let mut line = reader.line(&format!("the tile line of ({x}, {y})"))?;
    let exact = |want: i8| i64::from(want)..=i64::from(want);
    let what_x = format!("x = {x} (tiles sorted by x then y)");
    signed(&line.token(&what_x)?, &what_x, exact(x))?;
    let what_y = format!("y = {y} (tiles sorted by x then y)");
    signed(&line.token(&what_y)?, &what_y, exact(y))?;
    let owner_token = line.token("an owner (-1..2)")?;
    let owner = signed(&owner_token, "an owner (-1..2)", -1..=PLAYERS as i64 - 1)? as i8;
    let robots_token = line.token("a robot count")?;
    let robots = robots_token.number("a robot count", 0..=u64::from(u32::MAX))? as u32;
    let resources = line.number("a resource count (0..7)", 0..=7)? as u32;
    let landform_token = line.token("a landform")?;
    let landform = Landform::ALL
        .into_iter()
        .find(|l| l.name() == landform_token.text)
        .ok_or_else(|| token_error(&landform_token, "wasteland, settlement, base or hole"))?;
    let installation = line.token("an installation")?;
    line.end()?;
    let base = match installation.text {
        "none" | "hole" => None,
        name => Some(
            [Base::Initial]
                .into_iter()
                .chain(Base::BUILDABLE)
                .find(|b| b.name() == name)
                .ok_or_else(|| token_error(&installation, "an installation name"))?,
        ),
    };
    let fits = match landform {
        Landform::Hole => installation.text == "hole",
        Landform::Base => base.is_some(),
        Landform::Wasteland | Landform::Settlement => installation.text == "none",
    };
    if !fits {
        let want = match landform {
            Landform::Hole => "`hole` on a hole",
            Landform::Base => "a base name on a base",
            _ => "`none` on wasteland and settlements",
        };
        return Err(token_error(&installation, want));
    }
    // 「地形」: wasteland has no owner and no robots; settlements and bases have an owner; a
    // hole nobody owns holds no robots.
    let owner_fits = match landform {
        Landform::Wasteland => owner == -1,
        Landform::Settlement | Landform::Base => owner >= 0,
        Landform::Hole => true,
    };
    if !owner_fits {
        return Err(token_error(&owner_token, "an owner that fits the landform"));
    }
    if owner == -1 && robots > 0 {
        return Err(token_error(&robots_token, "0 robots on a tile nobody owns"));
    }
    Ok(TileView {
        x,
        y,
        owner,
        robots,
        resources,
        landform,
        base,
    })
}

fn token_error(token: &Token, expected: &str) -> ParseError {
    ParseError::new(token.line, token.col, expected, quote(token.text))
}

/// A plain decimal integer with an optional `-` (no `+`, no leading zero, no `-0`) in `range`.
fn signed(
    token: &Token,
    what: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, ParseError> {
    let (negative, digits) = match token.text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.text),
    };
    let magnitude = Token {
        text: digits,
        line: token.line,
        col: token.col,
    }
    .number(what, 0..=u64::from(u32::MAX))
    .map_err(|_| token_error(token, what))? as i64;
    let value = if negative { -magnitude } else { magnitude };
    if (negative && magnitude == 0) || !range.contains(&value) {
        return Err(token_error(token, what));
    }
    Ok(value)
}

/// One command line of a turn (QUICKSTART 「コマンド列の出力仕様」).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Move {
        x: i32,
        y: i32,
        dir: Direction,
        robots: i32,
    },
    Build {
        x: i32,
        y: i32,
        base: Base,
    },
    Reset,
    Finish,
}

const COORD_WHAT: &str = "a coordinate (-6..6)";

impl Command {
    pub fn print(&self) -> String {
        match self {
            Command::Move { x, y, dir, robots } => {
                format!("move {x} {y} {} {robots}", dir.name())
            }
            Command::Build { x, y, base } => format!("build {x} {y} {}", base.name()),
            Command::Reset => "reset".into(),
            Command::Finish => "finish".into(),
        }
    }

    /// The documented grammar: one line, single spaces, plain integers, coordinates in -6..6,
    /// a robot count of at least 1, a base's full name.
    pub fn parse(text: &str) -> Result<Command, ParseError> {
        if let Some(i) = text.find(['\n', '\r']) {
            let col = text[..i].chars().count() + 1;
            return Err(ParseError::new(
                1,
                col,
                "a single line",
                quote(&text[i..=i]),
            ));
        }
        let mut line = Line::whole(text);
        let word = line.token("move, build, reset or finish")?;
        let radius = i64::from(RADIUS);
        let command = match word.text {
            "move" => {
                let x = signed(&line.token(COORD_WHAT)?, COORD_WHAT, -radius..=radius)? as i32;
                let y = signed(&line.token(COORD_WHAT)?, COORD_WHAT, -radius..=radius)? as i32;
                let dir_token = line.token("a direction (r l ur ul dr dl)")?;
                let dir = Direction::from_name(dir_token.text)
                    .ok_or_else(|| token_error(&dir_token, "a direction (r l ur ul dr dl)"))?;
                let robots = line.number("a robot count (1 or more)", 1..=i32::MAX as u64)? as i32;
                Command::Move { x, y, dir, robots }
            }
            "build" => {
                let x = signed(&line.token(COORD_WHAT)?, COORD_WHAT, -radius..=radius)? as i32;
                let y = signed(&line.token(COORD_WHAT)?, COORD_WHAT, -radius..=radius)? as i32;
                let what = "robotmaker, excavator, tower, bridge, house or town";
                let name = line.token(what)?;
                let base = Base::BUILDABLE
                    .into_iter()
                    .find(|b| b.name() == name.text)
                    .ok_or_else(|| token_error(&name, what))?;
                Command::Build { x, y, base }
            }
            "reset" => Command::Reset,
            "finish" => Command::Finish,
            _ => return Err(token_error(&word, "move, build, reset or finish")),
        };
        line.end()?;
        Ok(command)
    }

    /// What the reference engine accepts (D-cedec-6, rules.yaml `command.leniency`): blanks
    /// around the line and runs of spaces between words, integers as Java reads them (a sign,
    /// leading zeros, anything in the 32-bit range), a base named by an unambiguous prefix.
    /// Range checks (on the field, at least one robot) are the engine's, not the parser's.
    pub fn parse_lenient(text: &str) -> Result<Command, String> {
        // At most six words are looked at: a seventh only makes the arity wrong.
        let (mut slots, mut count) = ([""; 6], 0);
        for word in java_trim(text).split(' ').filter(|w| !w.is_empty()).take(6) {
            slots[count] = word;
            count += 1;
        }
        let words = &slots[..count];
        let int = |w: &str| -> Result<i32, String> {
            let digits = w.strip_prefix(['-', '+']).unwrap_or(w);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("{} is not an integer", quote(w)));
            }
            w.parse::<i32>()
                .map_err(|_| format!("{} is out of the 32-bit range", quote(w)))
        };
        let arity = |n: usize| -> Result<(), String> {
            if words.len() == n + 1 {
                Ok(())
            } else {
                Err(format!("`{}` takes {n} arguments", words[0]))
            }
        };
        match words.first().copied() {
            Some("move") => {
                arity(4)?;
                let dir = Direction::from_name(words[3])
                    .ok_or_else(|| format!("{} is not a direction", quote(words[3])))?;
                Ok(Command::Move {
                    x: int(words[1])?,
                    y: int(words[2])?,
                    dir,
                    robots: int(words[4])?,
                })
            }
            Some("build") => {
                arity(3)?;
                let base = Base::from_prefix(words[3]).map_err(|candidates| {
                    if candidates.is_empty() {
                        format!("{} names no base that can be built", quote(words[3]))
                    } else {
                        let names: Vec<&str> = candidates.iter().map(|b| b.name()).collect();
                        format!("{} is ambiguous: {}", quote(words[3]), names.join(", "))
                    }
                })?;
                Ok(Command::Build {
                    x: int(words[1])?,
                    y: int(words[2])?,
                    base,
                })
            }
            Some("reset") => arity(0).map(|_| Command::Reset),
            Some("finish") => arity(0).map(|_| Command::Finish),
            Some(other) => Err(format!("{} is not a command", quote(other))),
            None => Err("an empty line is not a command".into()),
        }
    }
}

/// Java's `String.trim`: drops every character up to U+0020 at both ends.
pub fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= ' ')
}

/// Whether a reply line ends the turn: `finish` with blanks around it, as the engine reads it.
pub fn is_finish(line: &str) -> bool {
    java_trim(line) == "finish"
}

/// The strict name line (D-cedec-10, rules.yaml `name.*`): 1 to 20 characters, no control
/// characters, no blank at either end.
pub fn parse_name(text: &str) -> Result<&str, ParseError> {
    name_line(text, "a name", |c| !c.is_control(), "a printable character")?;
    if text.starts_with(' ') {
        return Err(ParseError::new(
            1,
            1,
            "a name without a leading blank",
            quote(" "),
        ));
    }
    if text.ends_with(' ') {
        let col = text.chars().count();
        return Err(ParseError::new(
            1,
            col,
            "a name without a trailing blank",
            quote(" "),
        ));
    }
    if let Some((i, _)) = text.char_indices().nth(MAX_NAME_CHARS) {
        return Err(ParseError::new(
            1,
            MAX_NAME_CHARS + 1,
            "end of the name (at most 20 characters)",
            quote(&text[i..]),
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_commands() {
        assert_eq!(
            Command::parse("move -2 3 ul 5"),
            Ok(Command::Move {
                x: -2,
                y: 3,
                dir: Direction::UpLeft,
                robots: 5
            })
        );
        for bad in [
            "move 0 0 r 0",
            "move 0 0 x 1",
            "move  0 0 r 1",
            "move -0 0 r 1",
            "move 07 0 r 1",
            "build 0 0 h",
            "finish ",
            "Finish",
            "",
            "move 0 0 r 1\r",
        ] {
            assert!(Command::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn lenient_commands() {
        assert_eq!(
            Command::parse_lenient("  build 1  -1 h\r"),
            Ok(Command::Build {
                x: 1,
                y: -1,
                base: Base::House
            })
        );
        assert!(Command::parse_lenient("build 0 0 to").is_err());
        assert!(Command::parse_lenient("move 0 0 r 99999999999").is_err());
        assert_eq!(
            Command::parse_lenient("move +1 007 r -3"),
            Ok(Command::Move {
                x: 1,
                y: 7,
                dir: Direction::Right,
                robots: -3
            })
        );
    }

    #[test]
    fn names() {
        assert!(parse_name("SampleAI").is_ok());
        assert_eq!(parse_name(&"a".repeat(21)).unwrap_err().col, 21);
        assert!(parse_name(" a").is_err());
    }
}

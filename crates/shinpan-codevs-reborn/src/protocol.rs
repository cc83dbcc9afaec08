//! The CODE VS Reborn protocol (「AIの出力」, 「システムからの入力」): typed texts with a strict
//! parser and a printer each, `print(parse(x)) == x` for every valid text.
//!
//! - [`GameStart`]: the 500 packs sent once before the first turn.
//! - [`TurnInput`]: the block sent at the start of every turn.
//! - [`Command`]: the reply, `P R` or `S`; [`Command::parse_lenient`] is what the engine accepts.
//! - [`parse_ai_name`]: the name line the AI prints before anything else.

use std::fmt::Write as _;

use super::field::{Field, FieldError};
use super::rules::{
    GAUGE_MAX, HEIGHT, MAX_POSITION, MAX_ROTATION, OJAMA, PACKS, THINKING_TIME_MS, TURNS, WIDTH,
};
use super::state::{Pack, State};
use shinpan_core::text::{name_line, quote, Line, ParseError, Reader};

/// The game-start block: every pack of the match, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameStart {
    pub packs: Vec<Pack>,
}

/// What one player is told about a player (itself or its opponent) at the start of a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerView {
    pub time_left_ms: u64,
    pub ojama_stock: u64,
    pub skill_gauge: u64,
    pub score: u64,
    /// The 16 visible rows, top row first; 0 empty, 1..=9, 11 ojama.
    pub field: [[u8; WIDTH]; HEIGHT],
}

/// The per-turn block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnInput {
    pub turn: u64,
    pub me: PlayerView,
    pub opponent: PlayerView,
}

/// A reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Drop { position: u8, rotation: u8 },
    Skill,
}

const SKILL: &str = "S";

impl GameStart {
    pub fn print(&self, out: &mut String) {
        out.reserve(self.packs.len() * 12);
        for pack in &self.packs {
            for [left, right] in pack.0 {
                push_small(out, left);
                out.push(' ');
                push_small(out, right);
                out.push('\n');
            }
            out.push_str("END\n");
        }
    }

    /// Exactly [`PACKS`] packs; nothing may follow.
    pub fn parse(text: &str) -> Result<GameStart, ParseError> {
        let mut reader = Reader::new(text);
        let packs = read_packs(&mut reader, PACKS)?;
        reader.finish()?;
        Ok(GameStart { packs })
    }
}

fn read_packs(reader: &mut Reader, count: usize) -> Result<Vec<Pack>, ParseError> {
    let mut packs = Vec::with_capacity(count);
    for _ in 0..count {
        let mut pack = [[0u8; 2]; 2];
        for row in &mut pack {
            let mut line = reader.line("a pack row (two values 0..9)")?;
            for cell in row.iter_mut() {
                *cell = line.number("a pack cell (0..9)", 0..=9)? as u8;
            }
            line.end()?;
        }
        reader.keyword("END")?;
        packs.push(Pack(pack));
    }
    Ok(packs)
}

/// Appends a cell or pack value (0..=99) in decimal; faster than `write!` on the hot path of
/// prompt rendering.
fn push_small(out: &mut String, value: u8) {
    if value >= 10 {
        out.push(char::from(b'0' + value / 10 % 10));
    }
    out.push(char::from(b'0' + value % 10));
}

impl PlayerView {
    pub fn of(player: &super::state::Player) -> PlayerView {
        PlayerView {
            time_left_ms: player.time_left_ms,
            ojama_stock: u64::from(player.ojama_stock),
            skill_gauge: u64::from(player.skill_gauge),
            score: player.score,
            field: player.field.visible_rows(),
        }
    }

    fn print(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{}\n{}\n{}\n{}",
            self.time_left_ms, self.ojama_stock, self.skill_gauge, self.score
        );
        for row in &self.field {
            for (x, cell) in row.iter().enumerate() {
                if x > 0 {
                    out.push(' ');
                }
                push_small(out, *cell);
            }
            out.push('\n');
        }
        out.push_str("END\n");
    }

    fn read(reader: &mut Reader, whose: &str) -> Result<PlayerView, ParseError> {
        let mut number =
            |what: &str, range: std::ops::RangeInclusive<u64>| -> Result<u64, ParseError> {
                let what = format!("{whose} {what} ({}..{})", range.start(), range.end());
                let mut line = reader.line(&what)?;
                let n = line.number(&what, range)?;
                line.end()?;
                Ok(n)
            };
        let time_left_ms = number("thinking time left (ms)", 0..=THINKING_TIME_MS)?;
        let ojama_stock = number("ojama stock", 0..=u64::from(u32::MAX))?;
        let skill_gauge = number("skill gauge", 0..=u64::from(GAUGE_MAX))?;
        let score = number("score", 0..=u64::MAX)?;
        let mut field = [[0u8; WIDTH]; HEIGHT];
        for row in &mut field {
            let mut line = reader.line(&format!("{whose} field row ({WIDTH} values)"))?;
            for cell in row.iter_mut() {
                let token = line.token("a cell (0..9 or 11)")?;
                *cell = match token.number("a cell (0..9 or 11)", 0..=u64::from(OJAMA)) {
                    Ok(10) => {
                        return Err(ParseError::new(
                            token.line,
                            token.col,
                            "a cell (0..9 or 11)",
                            quote(token.text),
                        ))
                    }
                    Ok(v) => v as u8,
                    Err(e) => return Err(e),
                };
            }
            line.end()?;
        }
        reader.keyword("END")?;
        Ok(PlayerView {
            time_left_ms,
            ojama_stock,
            skill_gauge,
            score,
            field,
        })
    }

    /// The field as a [`Field`] (fails if a block floats: the protocol allows it, the game does not).
    pub fn to_field(&self) -> Result<Field, FieldError> {
        Field::from_rows(&self.field)
    }
}

impl TurnInput {
    pub fn of(state: &State, player: usize) -> TurnInput {
        TurnInput {
            turn: u64::from(state.turn),
            me: PlayerView::of(&state.players[player]),
            opponent: PlayerView::of(&state.players[1 - player]),
        }
    }

    pub fn print(&self, out: &mut String) {
        let _ = writeln!(out, "{}", self.turn);
        self.me.print(out);
        self.opponent.print(out);
    }

    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(2 * (HEIGHT + 6) * 2 * WIDTH);
        self.print(&mut out);
        out
    }

    pub fn parse(text: &str) -> Result<TurnInput, ParseError> {
        let mut reader = Reader::new(text);
        let input = TurnInput::read(&mut reader)?;
        reader.finish()?;
        Ok(input)
    }

    fn read(reader: &mut Reader) -> Result<TurnInput, ParseError> {
        let mut line = reader.line("the turn number")?;
        let turn = line.number("the turn number (0..499)", 0..=u64::from(TURNS - 1))?;
        line.end()?;
        let me = PlayerView::read(reader, "my")?;
        let opponent = PlayerView::read(reader, "the opponent's")?;
        Ok(TurnInput { turn, me, opponent })
    }
}

/// A whole prompt: the game-start block on the first turn only, then the turn block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub start: Option<GameStart>,
    pub turn: TurnInput,
}

impl Prompt {
    pub fn print(&self) -> String {
        let mut out = String::new();
        if let Some(start) = &self.start {
            start.print(&mut out);
        }
        self.turn.print(&mut out);
        out
    }

    /// A game-start block is present when the first line holds two values (a pack row) rather
    /// than one (a turn number). 「システムからの入力」: it comes before turn 0's block and
    /// before no other, so a block without it must be a later turn's.
    pub fn parse(text: &str) -> Result<Prompt, ParseError> {
        let mut reader = Reader::new(text);
        let start = match reader.peek() {
            Some(first) if first.contains(' ') => Some(GameStart {
                packs: read_packs(&mut reader, PACKS)?,
            }),
            _ => None,
        };
        let turn_line = reader.line_no() + 1;
        let turn = TurnInput::read(&mut reader)?;
        if start.is_some() != (turn.turn == 0) {
            let expected = if start.is_some() {
                "turn 0 after the game-start block (it comes before the first turn only)"
            } else {
                "the game-start block (500 packs) before turn 0"
            };
            return Err(ParseError::new(
                turn_line,
                1,
                expected,
                quote(&turn.turn.to_string()),
            ));
        }
        reader.finish()?;
        Ok(Prompt { start, turn })
    }
}

impl Command {
    pub fn print(&self) -> String {
        match self {
            Command::Drop { position, rotation } => format!("{position} {rotation}"),
            Command::Skill => SKILL.to_string(),
        }
    }

    /// The strict grammar: `S`, or `P R` with single digits and one space, nothing else.
    pub fn parse(text: &str) -> Result<Command, ParseError> {
        if text.contains('\n') {
            let col = text.find('\n').map_or(1, |i| text[..i].chars().count() + 1);
            return Err(ParseError::new(1, col, "a single line", quote("\n")));
        }
        let mut line = Line::whole(text);
        if text == SKILL {
            return Ok(Command::Skill);
        }
        let first = line.token("a position (0..8) or `S`")?;
        if first.text == SKILL {
            line.end()?;
        }
        let position = first.number("a position (0..8) or `S`", 0..=u64::from(MAX_POSITION))? as u8;
        let rotation = line.number("a rotation (0..3)", 0..=u64::from(MAX_ROTATION))? as u8;
        line.end()?;
        Ok(Command::Drop { position, rotation })
    }

    /// What the reference engine accepts (D-reborn-9): the strict forms, with blanks and a CR
    /// around them, any run of blanks between the two numbers, and leading zeros.
    pub fn parse_lenient(text: &str) -> Result<Command, Unreadable> {
        let trimmed = text.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\r');
        if trimmed == SKILL {
            return Ok(Command::Skill);
        }
        let mut tokens = trimmed.split([' ', '\t']).filter(|t| !t.is_empty());
        let (Some(p), Some(r), None) = (tokens.next(), tokens.next(), tokens.next()) else {
            return Err(Unreadable::NotACommand(text.into()));
        };
        let number = |token: &str, max: u8| -> Option<u8> {
            let digits = token.trim_start_matches('0');
            let in_range = token.bytes().all(|b| b.is_ascii_digit())
                && digits.len() <= 1
                && digits.parse::<u8>().unwrap_or(0) <= max;
            in_range.then(|| digits.parse::<u8>().unwrap_or(0))
        };
        Ok(Command::Drop {
            position: number(p, MAX_POSITION).ok_or_else(|| Unreadable::Position(p.into()))?,
            rotation: number(r, MAX_ROTATION).ok_or_else(|| Unreadable::Rotation(r.into()))?,
        })
    }
}

/// Why a reply is no command even as the engine reads it ([`Command::parse_lenient`]).
/// Displayed as the sentence a rejected reply's verdict gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("{} is neither `S` nor two numbers", quote(.0))]
    NotACommand(String),
    #[error("position {} is not in 0..={MAX_POSITION}", quote(.0))]
    Position(String),
    #[error("rotation {} is not in 0..={MAX_ROTATION}", quote(.0))]
    Rotation(String),
}

/// 「AI名について」 (D-reborn-11): one non-empty line without `\ / : * ? " < > |`.
pub fn parse_ai_name(text: &str) -> Result<&str, ParseError> {
    const FORBIDDEN: &[char] = &['\\', '/', ':', '*', '?', '"', '<', '>', '|'];
    name_line(
        text,
        "an AI name",
        |c| !(FORBIDDEN.contains(&c) || c == '\n' || c == '\r'),
        "a character other than \\ / : * ? \" < > | and line breaks",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_reply_forms() {
        assert_eq!(
            Command::parse("2 0"),
            Ok(Command::Drop {
                position: 2,
                rotation: 0
            })
        );
        assert_eq!(Command::parse("S"), Ok(Command::Skill));
        for bad in [
            "a 100", "9 0", "2 4", "2  0", " 2 0", "2 0 ", "2 0\r", "02 0", "S 1", "s", "", "2",
        ] {
            assert!(Command::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn lenient_reply_forms() {
        for ok in ["2 0\r", " 2 0", "2  0", "02 0", "2\t0", " S\r"] {
            assert!(Command::parse_lenient(ok).is_ok(), "{ok:?}");
        }
        for bad in [
            "a 100",
            "9 0",
            "2 4",
            "s",
            "",
            "2",
            "2 0 1",
            "-1 0",
            "+2 0",
            "99999999999999999999999 0",
        ] {
            assert!(Command::parse_lenient(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Command::parse_lenient("9 0"),
            Err(Unreadable::Position("9".into()))
        );
        let rotation = Command::parse_lenient("2 4");
        assert_eq!(rotation, Err(Unreadable::Rotation("4".into())));
        assert_eq!(
            rotation.unwrap_err().to_string(),
            "rotation \"4\" is not in 0..=3"
        );
        assert_eq!(
            Command::parse_lenient("2 0 1"),
            Err(Unreadable::NotACommand("2 0 1".into()))
        );
    }

    #[test]
    fn ai_name() {
        assert!(parse_ai_name("sample ai").is_ok());
        assert_eq!(parse_ai_name("a:b").unwrap_err().col, 2);
        assert!(parse_ai_name("").is_err());
    }
}

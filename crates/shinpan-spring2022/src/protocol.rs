//! The Spring Challenge 2022 protocol (D-spring-9): typed texts with a strict parser and a
//! printer each, `print(parse(x)) == x` for every valid text.
//!
//! - [`Prompt`]: what a player reads each turn, the start block (`baseX baseY`, `3`) first on
//!   turn 1.
//! - [`Order`]: one line of a reply; [`Reply`]: the three lines. The strict grammar is the
//!   referee's, written one way: single spaces, numbers as a printer writes them (`-?\d+`, no
//!   leading zero, no `-0`, within 32 bits), then nothing, trailing spaces, or one space and a
//!   message that does not start with a blank.
//!
//! What the engine accepts beyond that is [`read_order`]: the referee's regular expressions
//! (`^MOVE\s+(?<x>-?\d+)\s+(?<y>-?\d+)(?:\s+(?<message>.+))?\s*$` and its siblings), emulated
//! exactly, then Java's `Integer.valueOf`.

use std::fmt::Write as _;

use super::rules::{League, HEROES_PER_PLAYER, MAP_HEIGHT, MAP_WIDTH, SHIELD_DURATION};
use shinpan_core::text::{quote, Line, ParseError, Reader, Token};

/// The start block, sent once before the first turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    pub base_x: i32,
    pub base_y: i32,
    pub heroes_per_player: i32,
}

/// One entity line: `id type x y shieldLife isControlled health vx vy nearBase threatFor`
/// (a hero's last five are -1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntityLine {
    pub id: i32,
    pub kind: i32,
    pub x: i32,
    pub y: i32,
    pub shield: i32,
    pub controlled: i32,
    pub health: i32,
    pub vx: i32,
    pub vy: i32,
    pub near_base: i32,
    pub threat_for: i32,
}

/// A turn's prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub start: Option<Start>,
    /// `[health, mana]` of the reader, then of its opponent.
    pub bases: [[i32; 2]; 2],
    pub entities: Vec<EntityLine>,
}

/// At most this many entity lines are read: far more than any match shows, and a bound on
/// what a hostile count can make the parser allocate.
const MAX_ENTITIES: u64 = 10_000;

impl Prompt {
    pub fn print(&self) -> String {
        let mut out = String::with_capacity(64 + 40 * self.entities.len());
        if let Some(s) = self.start {
            let _ = writeln!(out, "{} {}\n{}", s.base_x, s.base_y, s.heroes_per_player);
        }
        for [health, mana] in self.bases {
            let _ = writeln!(out, "{health} {mana}");
        }
        let _ = writeln!(out, "{}", self.entities.len());
        for e in &self.entities {
            let _ = writeln!(
                out,
                "{} {} {} {} {} {} {} {} {} {} {}",
                e.id,
                e.kind,
                e.x,
                e.y,
                e.shield,
                e.controlled,
                e.health,
                e.vx,
                e.vy,
                e.near_base,
                e.threat_for
            );
        }
        out
    }

    /// The strict grammar: the start block when the second line holds one number; healths
    /// 0..=3, manas from 0; entities inside the map with increasing ids, heroes (0..=5) before
    /// mobs, exactly three of the reader's own heroes, all from one side.
    pub fn parse(text: &str) -> Result<Prompt, ParseError> {
        let mut reader = Reader::new(text);
        let second_is_single = text
            .split('\n')
            .nth(1)
            .is_some_and(|l| !l.is_empty() && !l.contains(' '));
        let start = if second_is_single {
            let mut line = reader.line("the base position `baseX baseY`")?;
            let at = line.line_number();
            let base_x = line.integer("0 or 17630", 0..=i64::from(MAP_WIDTH))? as i32;
            let base_y = line.integer("0 or 9000", 0..=i64::from(MAP_HEIGHT))? as i32;
            line.end()?;
            if !matches!((base_x, base_y), (0, 0) | (MAP_WIDTH, MAP_HEIGHT)) {
                let found = quote(&format!("{base_x} {base_y}"));
                return Err(ParseError::new(
                    at,
                    1,
                    "a corner: `0 0` or `17630 9000`",
                    found,
                ));
            }
            let mut line = reader.line("the heroes per player")?;
            let heroes = HEROES_PER_PLAYER as u64;
            line.number("3 heroes per player", heroes..=heroes)?;
            line.end()?;
            Some(Start {
                base_x,
                base_y,
                heroes_per_player: HEROES_PER_PLAYER as i32,
            })
        } else {
            None
        };
        let mut bases = [[0; 2]; 2];
        for (i, base) in bases.iter_mut().enumerate() {
            let who = if i == 0 { "your" } else { "the opponent's" };
            let mut line = reader.line(&format!("{who} base health and mana"))?;
            base[0] = line.integer("a base health (0..3)", 0..=3)? as i32;
            base[1] = line.integer("a mana count", 0..=i64::from(i32::MAX))? as i32;
            line.end()?;
        }
        let mut line = reader.line("the entity count")?;
        let count = line.number("an entity count", 0..=MAX_ENTITIES)?;
        line.end()?;
        let mut entities: Vec<EntityLine> = Vec::with_capacity(count.min(64) as usize);
        for _ in 0..count {
            let mut line = reader.line("an entity line")?;
            let entity = read_entity(&mut line, entities.last())?;
            entities.push(entity);
        }
        reader.finish()?;
        check_sides(&entities, reader.line_no())?;
        Ok(Prompt {
            start,
            bases,
            entities,
        })
    }
}

fn read_entity(line: &mut Line, previous: Option<&EntityLine>) -> Result<EntityLine, ParseError> {
    let id_token = line.token("an entity id")?;
    let id = id_token.integer("an entity id", 0..=i64::from(i32::MAX))? as i32;
    if previous.is_some_and(|p| p.id >= id) {
        return Err(token_error(&id_token, "ids in increasing order"));
    }
    let kind_token = line.token("a type (0 mob, 1 your hero, 2 enemy hero)")?;
    let kind = kind_token.integer("a type (0 mob, 1 your hero, 2 enemy hero)", 0..=2)? as i32;
    let hero = kind != 0;
    if hero && id >= 6 {
        return Err(token_error(&id_token, "a hero id (0..5)"));
    }
    if !hero && id < 6 {
        return Err(token_error(&id_token, "a mob id (6 and up)"));
    }
    if hero && previous.is_some_and(|p| p.kind == 0) {
        return Err(token_error(&kind_token, "heroes before mobs"));
    }
    let x = line.integer("x (0..17630)", 0..=i64::from(MAP_WIDTH))? as i32;
    let y = line.integer("y (0..9000)", 0..=i64::from(MAP_HEIGHT))? as i32;
    let shield = line.integer("a shield life (0..12)", 0..=i64::from(SHIELD_DURATION))? as i32;
    let controlled = line.integer("isControlled (0 or 1)", 0..=1)? as i32;
    let rest: [i32; 5] = if hero {
        for what in ["health", "vx", "vy", "nearBase", "threatFor"] {
            line.integer(&format!("-1 ({what} of a hero)"), -1..=-1)?;
        }
        [-1; 5]
    } else {
        let health = line.integer("a mob's health (1 and up)", 1..=i64::from(i32::MAX))? as i32;
        let speed = i64::from(i32::MIN)..=i64::from(i32::MAX);
        let vx = line.integer("vx", speed.clone())? as i32;
        let vy = line.integer("vy", speed)? as i32;
        let near = line.integer("nearBase (0 or 1)", 0..=1)? as i32;
        let threat = line.integer("threatFor (0..2)", 0..=2)? as i32;
        [health, vx, vy, near, threat]
    };
    line.end()?;
    Ok(EntityLine {
        id,
        kind,
        x,
        y,
        shield,
        controlled,
        health: rest[0],
        vx: rest[1],
        vy: rest[2],
        near_base: rest[3],
        threat_for: rest[4],
    })
}

/// A player always sees its own three heroes, and the two sides are ids 0..2 and 3..5.
fn check_sides(entities: &[EntityLine], last_line: usize) -> Result<(), ParseError> {
    let side = |id: i32| id / HEROES_PER_PLAYER as i32;
    let mine: Vec<i32> = entities
        .iter()
        .filter(|e| e.kind == 1)
        .map(|e| e.id)
        .collect();
    let mixed = entities
        .iter()
        .filter(|e| e.kind != 0)
        .any(|e| (e.kind == 1) != mine.first().is_some_and(|&m| side(m) == side(e.id)));
    if mine.len() != HEROES_PER_PLAYER || mixed {
        return Err(ParseError::new(
            last_line + 1,
            1,
            "your three heroes (ids 0..2 or 3..5) and only enemy heroes of the other side",
            format!("{} of your heroes", mine.len()),
        ));
    }
    Ok(())
}

fn token_error(token: &Token, expected: &str) -> ParseError {
    ParseError::new(token.line, token.col, expected, quote(token.text))
}

/// A hero's command (D-spring-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Wait,
    Move { x: i32, y: i32 },
    Wind { x: i32, y: i32 },
    Shield { id: i32 },
    Control { id: i32, x: i32, y: i32 },
}

impl Command {
    pub fn print(&self) -> String {
        let mut out = String::with_capacity(32);
        self.print_to(&mut out);
        out
    }

    /// Appends the command's text to `out`.
    pub fn print_to(&self, out: &mut String) {
        let (keyword, numbers): (_, &[i32]) = match self {
            Command::Wait => ("WAIT", &[]),
            Command::Move { x, y } => ("MOVE", &[*x, *y]),
            Command::Wind { x, y } => ("SPELL WIND", &[*x, *y]),
            Command::Shield { id } => ("SPELL SHIELD", &[*id]),
            Command::Control { id, x, y } => ("SPELL CONTROL", &[*id, *x, *y]),
        };
        out.push_str(keyword);
        let mut digits = itoa::Buffer::new();
        for &n in numbers {
            out.push(' ');
            out.push_str(digits.format(n));
        }
    }

    /// Whether `league` has the command (D-spring-10): the engine refuses it otherwise.
    pub fn open_in(self, league: League) -> bool {
        let kind = match self {
            Command::Wait => Kind::Wait,
            Command::Move { .. } => Kind::Move,
            Command::Wind { .. } => Kind::Wind,
            Command::Shield { .. } => Kind::Shield,
            Command::Control { .. } => Kind::Control,
        };
        kind.open_in(league)
    }

    pub fn is_spell(&self) -> bool {
        matches!(
            self,
            Command::Wind { .. } | Command::Shield { .. } | Command::Control { .. }
        )
    }
}

/// One reply line as the strict grammar reads it: a command, then a message or trailing spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub command: Command,
    /// After one space; never starts with a blank.
    pub message: Option<String>,
    /// Spaces after the command when there is no message.
    pub trailing_spaces: usize,
}

impl Order {
    pub fn print(&self) -> String {
        let mut out = self.command.print();
        match &self.message {
            Some(m) => {
                out.push(' ');
                out.push_str(m);
            }
            None => out.extend(std::iter::repeat_n(' ', self.trailing_spaces)),
        }
        out
    }

    pub fn parse(text: &str) -> Result<Order, ParseError> {
        let mut line = Line::whole(text);
        let word = line.token("WAIT, MOVE or SPELL")?;
        let int = |line: &mut Line, what: &str| -> Result<i32, ParseError> {
            Ok(line.integer(what, i64::from(i32::MIN)..=i64::from(i32::MAX))? as i32)
        };
        let command = match word.text {
            "WAIT" => Command::Wait,
            "MOVE" => Command::Move {
                x: int(&mut line, "x (a 32-bit integer)")?,
                y: int(&mut line, "y (a 32-bit integer)")?,
            },
            "SPELL" => {
                let spell = line.token("WIND, SHIELD or CONTROL")?;
                match spell.text {
                    "WIND" => Command::Wind {
                        x: int(&mut line, "x (a 32-bit integer)")?,
                        y: int(&mut line, "y (a 32-bit integer)")?,
                    },
                    "SHIELD" => Command::Shield {
                        id: int(&mut line, "an entity id (a 32-bit integer)")?,
                    },
                    "CONTROL" => Command::Control {
                        id: int(&mut line, "an entity id (a 32-bit integer)")?,
                        x: int(&mut line, "x (a 32-bit integer)")?,
                        y: int(&mut line, "y (a 32-bit integer)")?,
                    },
                    _ => return Err(token_error(&spell, "WIND, SHIELD or CONTROL")),
                }
            }
            _ => return Err(token_error(&word, "WAIT, MOVE or SPELL")),
        };
        let consumed = command.print().len();
        let rest = &text[consumed..];
        let col = text[..consumed].chars().count() + 1;
        if rest.is_empty() || rest.bytes().all(|b| b == b' ') {
            return Ok(Order {
                command,
                message: None,
                trailing_spaces: rest.len(),
            });
        }
        let message = &rest[1..];
        let first = message.chars().next();
        if !rest.starts_with(' ') || first.is_some_and(is_java_space) {
            let found = rest.chars().take(2).collect::<String>();
            return Err(ParseError::new(
                1,
                col,
                "one space before a message",
                quote(&found),
            ));
        }
        if let Some((i, c)) = message.char_indices().find(|&(_, c)| not_in_message(c)) {
            let col = col + 1 + message[..i].chars().count();
            return Err(ParseError::new(
                1,
                col,
                "a message character",
                quote(&c.to_string()),
            ));
        }
        Ok(Order {
            command,
            message: Some(message.to_string()),
            trailing_spaces: 0,
        })
    }
}

/// Whether `line` is in the strict grammar: the same answer as `Order::parse(line).is_ok()`,
/// without building anything (the engine asks it of every line it reads).
pub fn is_strict(line: &str) -> bool {
    let bytes = line.as_bytes();
    let (numbers, mut at) = if let Some(rest) = bytes.strip_prefix(b"WAIT") {
        (0, bytes.len() - rest.len())
    } else if let Some(rest) = bytes.strip_prefix(b"MOVE") {
        (2, bytes.len() - rest.len())
    } else if let Some(rest) = bytes.strip_prefix(b"SPELL WIND") {
        (2, bytes.len() - rest.len())
    } else if let Some(rest) = bytes.strip_prefix(b"SPELL SHIELD") {
        (1, bytes.len() - rest.len())
    } else if let Some(rest) = bytes.strip_prefix(b"SPELL CONTROL") {
        (3, bytes.len() - rest.len())
    } else {
        return false;
    };
    for _ in 0..numbers {
        if bytes.get(at) != Some(&b' ') {
            return false;
        }
        at += 1;
        let start = at;
        if bytes.get(at) == Some(&b'-') {
            at += 1;
        }
        let digits = at;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let text = &line[start..at];
        let canonical = at > digits
            && (at - digits == 1 || bytes[digits] != b'0')
            && text != "-0"
            && at - digits <= 10
            && text.parse::<i32>().is_ok();
        if !canonical || !matches!(bytes.get(at), None | Some(b' ')) {
            return false;
        }
    }
    let rest = &line[at..];
    if rest.bytes().all(|b| b == b' ') {
        return true;
    }
    let Some(message) = rest.strip_prefix(' ') else {
        return false;
    };
    !message.starts_with(is_java_space) && !message.contains(not_in_message)
}

/// A whole reply: one order per hero, in hero order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub orders: Vec<Order>,
}

impl Reply {
    pub fn print(&self) -> String {
        let lines: Vec<String> = self.orders.iter().map(Order::print).collect();
        lines.join("\n")
    }

    /// Exactly three lines (no line break after the last), each a strict [`Order`].
    pub fn parse(text: &str) -> Result<Reply, ParseError> {
        let mut orders = Vec::with_capacity(HEROES_PER_PLAYER);
        for (i, line) in text.split('\n').enumerate() {
            if i == HEROES_PER_PLAYER {
                return Err(ParseError::new(i + 1, 1, "end of the reply", quote(line)));
            }
            let order = Order::parse(line).map_err(|e| ParseError { line: i + 1, ..e })?;
            orders.push(order);
        }
        if orders.len() < HEROES_PER_PLAYER {
            let line = orders.len() + 1;
            return Err(ParseError::new(
                line,
                1,
                "a line for each of 3 heroes",
                "end of input",
            ));
        }
        Ok(Reply { orders })
    }
}

/// Java's `\s`: space, tab, line feed, vertical tab, form feed, carriage return.
pub fn is_java_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// What Java's `.` does not match: the line terminators.
pub fn not_in_message(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Why the engine refused a line; the referee deactivates the player (D-spring-9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No pattern of the league matches.
    NoMatch,
    /// A number the patterns accept but `Integer.valueOf` does not (beyond 32 bits).
    OutOfRange(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NoMatch => write!(f, "matches no command of the league"),
            Refusal::OutOfRange(n) => write!(f, "{} is not a 32-bit integer", quote(n)),
        }
    }
}

/// The engine's reading of one line in `league`: the referee's patterns, tried in its order
/// (WAIT, MOVE, then WIND, SHIELD, CONTROL where the league has them), and the message.
pub fn read_order(line: &str, league: League) -> Result<(Command, Option<&str>), Refusal> {
    for (kind, keyword, parts) in PATTERNS {
        if !kind.open_in(league) {
            continue;
        }
        let Some((numbers, message)) = match_pattern(line, keyword, parts) else {
            continue;
        };
        let mut values = [0i32; 3];
        for (value, digits) in values.iter_mut().zip(numbers.iter().flatten()) {
            *value = digits
                .parse::<i32>()
                .map_err(|_| Refusal::OutOfRange((*digits).to_string()))?;
        }
        return Ok((kind.command(values), message));
    }
    Err(Refusal::NoMatch)
}

/// The common line read at once: a keyword and its numbers in the strict grammar (one space
/// before each, no leading zero, no `-0`, within 32 bits), nothing after, its command open in
/// `league`. For such a line this is what [`read_order`] reads, with no message, and
/// [`is_strict`] holds; `None` for any other line, which takes the general path.
pub fn read_plain(line: &str, league: League) -> Option<Command> {
    let bytes = line.as_bytes();
    let (kind, rest) = if let Some(rest) = bytes.strip_prefix(b"MOVE") {
        (Kind::Move, rest)
    } else if bytes == b"WAIT" {
        return Some(Command::Wait);
    } else if let Some(rest) = bytes.strip_prefix(b"SPELL WIND") {
        (Kind::Wind, rest)
    } else if let Some(rest) = bytes.strip_prefix(b"SPELL SHIELD") {
        (Kind::Shield, rest)
    } else if let Some(rest) = bytes.strip_prefix(b"SPELL CONTROL") {
        (Kind::Control, rest)
    } else {
        return None;
    };
    if !kind.open_in(league) {
        return None;
    }
    let mut values = [0i32; 3];
    let mut at = 0;
    for value in values.iter_mut().take(kind.numbers()) {
        if rest.get(at) != Some(&b' ') {
            return None;
        }
        at += 1;
        let negative = rest.get(at) == Some(&b'-');
        at += usize::from(negative);
        let digits = at;
        let mut magnitude: i64 = 0;
        while let Some(&b) = rest.get(at).filter(|b| b.is_ascii_digit()) {
            if at - digits == 10 {
                return None;
            }
            magnitude = magnitude * 10 + i64::from(b - b'0');
            at += 1;
        }
        let length = at - digits;
        if length == 0 || (length > 1 && rest[digits] == b'0') || (negative && magnitude == 0) {
            return None;
        }
        *value = i32::try_from(if negative { -magnitude } else { magnitude }).ok()?;
    }
    (at == rest.len()).then(|| kind.command(values))
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Wait,
    Move,
    Wind,
    Shield,
    Control,
}

impl Kind {
    /// Whether `league` has the command (D-spring-10).
    fn open_in(self, league: League) -> bool {
        match self {
            Kind::Wait | Kind::Move => true,
            Kind::Wind => league.wind(),
            Kind::Shield | Kind::Control => league.shield_and_control(),
        }
    }

    /// How many numbers the command takes.
    fn numbers(self) -> usize {
        match self {
            Kind::Wait => 0,
            Kind::Shield => 1,
            Kind::Move | Kind::Wind => 2,
            Kind::Control => 3,
        }
    }

    /// The command with its numbers in order (unused ones ignored).
    fn command(self, [a, b, c]: [i32; 3]) -> Command {
        match self {
            Kind::Wait => Command::Wait,
            Kind::Move => Command::Move { x: a, y: b },
            Kind::Wind => Command::Wind { x: a, y: b },
            Kind::Shield => Command::Shield { id: a },
            Kind::Control => Command::Control { id: a, x: b, y: c },
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Part {
    Word(&'static str),
    Int,
}

/// The referee's five patterns in the order it tries them: the keyword, then each part after
/// blanks.
const PATTERNS: [(Kind, &str, &[Part]); 5] = [
    (Kind::Wait, "WAIT", &[]),
    (Kind::Move, "MOVE", &[Part::Int, Part::Int]),
    (
        Kind::Wind,
        "SPELL",
        &[Part::Word("WIND"), Part::Int, Part::Int],
    ),
    (Kind::Shield, "SPELL", &[Part::Word("SHIELD"), Part::Int]),
    (
        Kind::Control,
        "SPELL",
        &[Part::Word("CONTROL"), Part::Int, Part::Int, Part::Int],
    ),
];

/// The texts of up to three numbers of a pattern.
type Numbers<'a> = [Option<&'a str>; 3];

/// `^KEYWORD(\s+PART)*(?:\s+(?<message>.+))?\s*$` matched over the whole line: the numbers'
/// texts and the message. Neither `\s+` nor `-?\d+` can give back characters to what follows
/// them here, so a left-to-right scan finds what the backtracking matcher finds.
fn match_pattern<'a>(
    line: &'a str,
    keyword: &str,
    parts: &[Part],
) -> Option<(Numbers<'a>, Option<&'a str>)> {
    let mut rest = line.strip_prefix(keyword)?;
    let mut numbers: Numbers = [None; 3];
    let mut count = 0;
    for part in parts {
        let blanks = rest.len() - rest.trim_start_matches(is_java_space).len();
        if blanks == 0 {
            return None;
        }
        rest = &rest[blanks..];
        match part {
            Part::Word(w) => rest = rest.strip_prefix(w)?,
            Part::Int => {
                let unsigned = rest.strip_prefix('-').unwrap_or(rest);
                let digits = unsigned.len()
                    - unsigned
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .len();
                if digits == 0 {
                    return None;
                }
                let len = rest.len() - unsigned.len() + digits;
                numbers[count] = Some(&rest[..len]);
                count += 1;
                rest = &rest[len..];
            }
        }
    }
    let message = match_tail(rest)?;
    Some((numbers, message))
}

/// `(?:\s+(?<message>.+))?\s*$` on what follows the last token, with Java's backtracking: the
/// group's `\s+` takes as many blanks as it can, `.+` as many characters as it can (up to a line
/// terminator), and each gives back one at a time until the rest is blank to the end.
fn match_tail(rest: &str) -> Option<Option<&str>> {
    let lead = rest.len() - rest.trim_start_matches(is_java_space).len();
    // Where the blank suffix starts: `\s*$` can take everything from there.
    let blank_from = rest.trim_end_matches(is_java_space).len();
    // The end of `.+` when it starts at `lead`: the first line terminator from there.
    let mut dot_end = rest[lead..]
        .char_indices()
        .find(|&(_, c)| not_in_message(c))
        .map_or(rest.len(), |(i, _)| lead + i);
    let bytes = rest.as_bytes();
    for start in (1..=lead).rev() {
        if start < lead && matches!(bytes[start], b'\n' | b'\r') {
            dot_end = start;
        }
        if dot_end > start && dot_end >= blank_from {
            return Some(Some(&rest[start..dot_end]));
        }
    }
    (blank_from == 0).then_some(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_line_is_read_at_once_and_anything_else_is_left_to_the_patterns() {
        let plain = |line| read_plain(line, League::Bronze);
        assert_eq!(plain("WAIT"), Some(Command::Wait));
        assert_eq!(
            plain("MOVE 2147483647 -2147483648"),
            Some(Command::Move {
                x: i32::MAX,
                y: i32::MIN
            })
        );
        assert_eq!(
            plain("SPELL CONTROL 7 0 -9"),
            Some(Command::Control { id: 7, x: 0, y: -9 })
        );
        for general in [
            "MOVE 2147483648 0",
            "MOVE 01 2",
            "MOVE -0 1",
            "MOVE 1 2 ",
            "MOVE 1  2",
            "MOVE 1",
            "WAIT ",
            "WAIT go",
            "SPELL SHIELD 1 2",
            "SPELL SHIELD 12345678901",
        ] {
            assert_eq!(plain(general), None, "{general:?}");
        }
        assert_eq!(read_plain("SPELL WIND 1 2", League::Wood2), None);
        assert_eq!(read_plain("SPELL SHIELD 1", League::Wood1), None);
    }

    fn read(line: &str) -> Result<(Command, Option<&str>), Refusal> {
        read_order(line, League::Bronze)
    }

    #[test]
    fn the_referee_patterns_take_blanks_leading_zeros_and_messages() {
        assert_eq!(
            read("MOVE\t007  -0"),
            Ok((Command::Move { x: 7, y: 0 }, None))
        );
        assert_eq!(
            read("WAIT hi there  "),
            Ok((Command::Wait, Some("hi there  ")))
        );
        assert_eq!(read("WAIT "), Ok((Command::Wait, None)));
        assert_eq!(read("WAIT   "), Ok((Command::Wait, Some(" "))));
        assert_eq!(read("WAIT \r"), Ok((Command::Wait, None)));
        assert_eq!(
            read("MOVE 1 2 3"),
            Ok((Command::Move { x: 1, y: 2 }, Some("3")))
        );
        assert_eq!(read("WAITING"), Err(Refusal::NoMatch));
        assert_eq!(read(" WAIT"), Err(Refusal::NoMatch));
        assert_eq!(read("MOVE 1 2x"), Err(Refusal::NoMatch));
        assert_eq!(read("WAIT a\rb"), Err(Refusal::NoMatch));
        assert_eq!(
            read("MOVE 2147483648 0"),
            Err(Refusal::OutOfRange("2147483648".into()))
        );
        assert_eq!(
            read("SPELL CONTROL 7 -1 5 go"),
            Ok((Command::Control { id: 7, x: -1, y: 5 }, Some("go")))
        );
        assert_eq!(
            read_order("SPELL WIND 1 1", League::Wood2),
            Err(Refusal::NoMatch)
        );
        assert_eq!(
            read_order("SPELL SHIELD 1", League::Wood1),
            Err(Refusal::NoMatch)
        );
    }

    #[test]
    fn strict_orders_print_back() {
        for text in [
            "WAIT",
            "MOVE -5 0",
            "SPELL CONTROL 9 1 2 hello  ",
            "WAIT  ",
            "MOVE 1 2 3",
        ] {
            assert_eq!(Order::parse(text).map(|o| o.print()), Ok(text.to_string()));
            assert!(is_strict(text), "{text}");
        }
        for text in [
            "MOVE 01 2",
            "MOVE 1  2",
            "WAIT  x",
            "wait",
            "MOVE -0 1",
            "MOVE 1 2\tx",
            // Found by the reply fuzzer: the quick test took the tail "ING" for a message.
            "WAITING",
        ] {
            assert!(Order::parse(text).is_err(), "{text}");
            assert!(!is_strict(text), "{text}");
        }
    }
}

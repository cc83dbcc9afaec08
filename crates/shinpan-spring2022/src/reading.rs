//! How the step of Spring Challenge 2022 reads a reply and judges it (D-spring-9): the reply
//! split into its heroes' three lines, each read as the referee reads it, and, once the turn
//! has played them ([`super::engine`]), the verdict: a refused line, the lines the strict
//! grammar would not take, lines past the third. It plays nothing: the rules of the turn are
//! the engine's, from the lines read.

use super::protocol::{is_strict, read_order, read_plain, Command, Order, Refusal};
use super::rules::{League, FIRST_TURN_MS, HEROES_PER_PLAYER, TURN_MS};
use shinpan_core::seam::{Reply, ReplyVerdict};

/// A hero's line as the referee reads it: its command and message, or why it is refused.
pub(super) type HeroLine<'a> = Result<(Command, Option<&'a str>), Refusal>;

/// How a hero's line was taken this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Taken {
    Played,
    /// Not read: the hero is under CONTROL.
    UnderControl,
    /// Refused: the player is deactivated, the heroes after it not read.
    Refused,
    NotReached,
}

/// A reply as the step read it: its first three lines, each as the referee reads it, and how
/// many lines followed them.
pub(super) struct ReadReply<'a> {
    texts: [&'a str; HEROES_PER_PLAYER],
    pub(super) heroes: [HeroLine<'a>; HEROES_PER_PLAYER],
    extra: usize,
}

/// Splits a reply into its heroes' lines and reads each (D-spring-9). `Err`: the verdict of a
/// reply late, missing, or with fewer than three lines (the player is deactivated as timed
/// out).
pub(super) fn read_reply(
    turn: u32,
    reply: &Reply,
    league: League,
) -> Result<ReadReply<'_>, ReplyVerdict> {
    let limit = if turn == 1 { FIRST_TURN_MS } else { TURN_MS };
    let text = match reply.played() {
        Ok((text, elapsed_ms)) if elapsed_ms <= limit => text,
        // Late, timed out or crashed: deactivated as timed out, the verdict saying which.
        late_or_missing => return Err(late_or_missing.err().unwrap_or(ReplyVerdict::TimedOut)),
    };
    // `text.split('\n')`, by bytes: the engine reads a reply every turn.
    let mut rest = Some(text);
    let mut texts = [""; HEROES_PER_PLAYER];
    for slot in texts.iter_mut() {
        match rest.take() {
            Some(r) => match r.bytes().position(|b| b == b'\n') {
                Some(end) => {
                    *slot = &r[..end];
                    rest = Some(&r[end + 1..]);
                }
                None => *slot = r,
            },
            None => return Err(ReplyVerdict::TimedOut),
        }
    }
    let extra = rest.map_or(0, |r| 1 + r.bytes().filter(|&b| b == b'\n').count());
    let heroes = texts.map(|line| match read_plain(line, league) {
        Some(command) => Ok((command, None)),
        None => read_order(line, league),
    });
    Ok(ReadReply {
        texts,
        heroes,
        extra,
    })
}

impl ReadReply<'_> {
    /// How the reply was taken, once its lines were played as `taken` says.
    pub(super) fn verdict(&self, taken: [Taken; HEROES_PER_PLAYER]) -> ReplyVerdict {
        let mut loose = Vec::new();
        if self.extra > 0 {
            loose.push(format!(
                "{} lines: the referee reads 3 and leaves the rest for the next turn",
                HEROES_PER_PLAYER + self.extra
            ));
        }
        for (k, (line, taken)) in self.texts.iter().zip(taken).enumerate() {
            match taken {
                Taken::UnderControl if Order::parse(line).is_err() => loose.push(format!(
                    "line {}: not read (the hero is under CONTROL)",
                    k + 1
                )),
                // The line was read alone: its line 1 is the reply's line k + 1.
                Taken::Played if !is_strict(line) => {
                    if let Err(mut e) = Order::parse(line) {
                        e.line += k;
                        loose.push(e.to_string());
                    }
                }
                Taken::Refused => {
                    if let Err(refusal) = &self.heroes[k] {
                        return ReplyVerdict::Rejected(format!("line {}: {refusal}", k + 1));
                    }
                }
                _ => {}
            }
        }
        if loose.is_empty() {
            ReplyVerdict::Accepted
        } else {
            ReplyVerdict::NonStrict(loose.join("; "))
        }
    }
}

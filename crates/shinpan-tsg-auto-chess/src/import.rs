//! Reading the official engine's own record of a match, for `shinpan trace --import main-rb`.
//!
//! main.rb (fiord/tsg-auto-chess) writes two records. Its visualizer log keeps the players'
//! state at the start of every turn but no reply, so no turn can be replayed from it. Its
//! standard output has both: the two names, one a line, then every line it sends a player as
//! `NAME in:LINE` and every line it reads back as `NAME out:LINE`, one player after the other,
//! and at the end the result and where the visualizer log went. That is what is read here.
//!
//! What it echoes of a reply is what main.rb made of it: the command line as read, the move
//! count and each move line after its integer conversion (`x` reads as 0). So a trace of an
//! imported log checks the turns as main.rb played them but cannot see how a reply was spelt
//! (`reply.*` clauses); a tap recording sees both. There are no times in it.

use shinpan_core::seam::Imported;
use shinpan_core::text::{quote, ParseError};

/// The format name of main.rb's standard output.
pub const MAIN_RB: &str = "main-rb";

const IN: &str = " in:";
const OUT: &str = " out:";

/// The exchanges of main.rb's standard output, in the order main.rb had them.
///
/// Long (about 80 lines) because it is one pass over the log's lines, whose state (the open
/// exchange, the names seen) the branches share.
pub fn main_rb(log: &str) -> Result<Vec<Imported>, ParseError> {
    let lines: Vec<&str> = log.lines().collect();
    let names = [0, 1].map(|i| lines.get(i).copied());
    let [Some(first), Some(second)] = names else {
        return Err(ParseError::new(
            lines.len() + 1,
            1,
            "the two players' names, one a line",
            "the end of the log",
        ));
    };
    let names = [first, second];
    let mut exchanges: Vec<Imported> = Vec::new();
    // The exchange being read: its prompt lines, and its reply lines once it has any.
    let mut open: Option<(usize, Vec<&str>, Vec<&str>)> = None;
    // A line that is no echo: fine at the end (the result), an error before another echo.
    let mut stray: Option<(usize, &str)> = None;
    for (i, &line) in lines.iter().enumerate().skip(2) {
        // With two equal names, the player is the one whose turn it is: a reply is the open
        // exchange's; a prompt goes on the open one until it has a reply, then is the other's.
        let expected = |sent: bool| match &open {
            Some((p, _, reply)) if !sent || reply.is_empty() => *p,
            Some((p, _, _)) => 1 - *p,
            None => exchanges.last().map_or(0, |e| 1 - e.player),
        };
        let echo = [(IN, true), (OUT, false)]
            .into_iter()
            .find_map(|(mark, sent)| {
                let first = expected(sent);
                [first, 1 - first].into_iter().find_map(|p| {
                    let text = line.strip_prefix(names[p])?.strip_prefix(mark)?;
                    Some((p, sent, text))
                })
            });
        let Some((player, sent, text)) = echo else {
            stray.get_or_insert((i, line));
            continue;
        };
        if let Some((at, what)) = stray {
            return Err(ParseError::new(
                at + 1,
                1,
                format!("`{first} in:…` or `{second} out:…` (a line main.rb echoes)"),
                quote(what),
            ));
        }
        match (&mut open, sent) {
            (Some((p, prompt, reply)), true) if *p == player && reply.is_empty() => {
                prompt.push(text)
            }
            (Some((p, _, reply)), false) if *p == player => reply.push(text),
            (None, false) | (Some(_), false) => {
                return Err(ParseError::new(
                    i + 1,
                    1,
                    format!("`{} in:…` (a prompt before its reply)", names[player]),
                    quote(line),
                ))
            }
            (current, true) => {
                if let Some(done) = current.take() {
                    exchanges.push(close(done));
                }
                *current = Some((player, vec![text], Vec::new()));
            }
        }
    }
    if let Some(done) = open {
        exchanges.push(close(done));
    }
    // The result main.rb prints once the match is over (`p @result`: which kings lost): the
    // log is whole; each player's last exchange says so.
    if let Some((_, result)) = stray.filter(|(_, line)| line.starts_with('[')) {
        for player in 0..2 {
            if let Some(last) = exchanges.iter_mut().rev().find(|e| e.player == player) {
                last.end = Some(format!("main.rb ended the match: {result}"));
            }
        }
    }
    Ok(exchanges)
}

fn close((player, prompt, reply): (usize, Vec<&str>, Vec<&str>)) -> Imported {
    Imported {
        player,
        prompt: prompt.iter().map(|l| format!("{l}\n")).collect(),
        reply: (!reply.is_empty()).then(|| reply.join("\n")),
        end: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_make_exchanges_and_the_result_lines_are_skipped() {
        let log = "a\nb\na in:0\na in:1\na out:nop\na out:1\na out:2 4 7\nb in:0\nb in:2\nb out:levelup\nb out:0\n[false, true]\nlog was dumped to x.log\n";
        let read = main_rb(log).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!((read[0].player, read[0].prompt.as_str()), (0, "0\n1\n"));
        assert_eq!(read[0].reply.as_deref(), Some("nop\n1\n2 4 7"));
        assert_eq!(
            (read[1].player, read[1].reply.as_deref()),
            (1, Some("levelup\n0"))
        );
    }

    #[test]
    fn equal_names_take_turns() {
        let log = "x\nx\nx in:0\nx out:nop\nx out:0\nx in:1\nx out:nop\nx out:0\nx in:2\n";
        let read = main_rb(log).unwrap();
        let players: Vec<usize> = read.iter().map(|e| e.player).collect();
        assert_eq!(players, [0, 1, 0]);
        assert_eq!(read[2].reply, None);
    }

    #[test]
    fn what_is_no_echo_is_an_error_at_its_line() {
        let err = main_rb("a\nb\na in:0\ngarbage\na out:nop\n").unwrap_err();
        assert_eq!(err.line, 4);
        assert!(main_rb("a\n").is_err());
        let err = main_rb("a\nb\na out:nop\n").unwrap_err();
        assert_eq!(err.line, 3);
    }
}

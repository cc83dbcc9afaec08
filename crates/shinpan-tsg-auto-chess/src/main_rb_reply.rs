//! A reply as main.rb (fiord/tsg-auto-chess) reads it, for its model ([`super::main_rb`]).
//! Not the document's reading (that is [`super::protocol`]'s strict grammar and leniency):
//! main.rb reads the command line, the move count and each move line with Ruby's
//! `split(" ")` and `to_i`, so a number is whatever digits a word starts with (a word that
//! starts with none is 0), and a move line is its first three words, whatever follows
//! (spec-notes D-tsg-11).
//!
//! What main.rb cannot read at all (a move line of fewer than three words, a negative move
//! count) makes main.rb itself fail; the model reads no move from such a line and no moves
//! from such a count.

use super::protocol::{Command, Move, TurnReply};

/// The reply `text` as main.rb reads it: the command line, then the count line, then that
/// many move lines (lines past them are not this turn's). Without `to_i_commands` the command,
/// without `to_i_moves` the count and the moves, are read as the document reads them
/// ([`TurnReply::read_lenient`]), so that each of main.rb's readings can be played away.
pub fn read(text: &str, to_i_commands: bool, to_i_moves: bool) -> TurnReply {
    let document = TurnReply::read_lenient(text);
    // `gets.chomp`: a line without its `\n`, and one `\r` before it.
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let first = lines.next().unwrap_or("");
    let command = if to_i_commands {
        command(first)
    } else {
        document.command
    };
    if !to_i_moves {
        return TurnReply {
            command,
            moves: document.moves,
        };
    }
    let count = lines.next().map_or(0, ruby_to_i);
    let count = usize::try_from(count).unwrap_or(0);
    let moves = lines
        .take(count)
        .filter_map(|line| {
            let mut words = line.split_ascii_whitespace().map(ruby_to_i);
            let (id, x, y) = (words.next()?, words.next()?, words.next()?);
            Some(Move { id, x, y })
        })
        .collect();
    TurnReply { command, moves }
}

/// main.rb's command: `buy` and `evolve` with exactly three more words, each read with
/// `to_i`; `levelup` alone; anything else does nothing.
fn command(line: &str) -> Command {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    match words.as_slice() {
        ["buy", id, x, y] => Command::Buy {
            id: ruby_to_i(id),
            x: ruby_to_i(x),
            y: ruby_to_i(y),
        },
        ["evolve", a, b, c] => Command::Evolve([a, b, c].map(|w| ruby_to_i(w))),
        ["levelup"] => Command::Levelup,
        [] => Command::Nop,
        _ => Command::Other(line.to_string()),
    }
}

/// Ruby's `String#to_i`: blanks before it, an optional sign, then the digits the text starts
/// with (an underscore between two digits is skipped); no digit reads as 0. Held within 64
/// bits (Ruby's integers are not bounded; no board or id main.rb holds comes near).
pub fn ruby_to_i(text: &str) -> i64 {
    let text = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let bytes = digits.as_bytes();
    let mut value: i64 = 0;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
            }
            b'_' if i > 0
                && bytes[i - 1].is_ascii_digit()
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {}
            _ => break,
        }
    }
    if negative {
        -value
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_rb(text: &str) -> TurnReply {
        read(text, true, true)
    }

    #[test]
    fn to_i_reads_the_digits_a_word_starts_with() {
        assert_eq!(ruby_to_i("12"), 12);
        assert_eq!(ruby_to_i("-3"), -3);
        assert_eq!(ruby_to_i("+7"), 7);
        assert_eq!(ruby_to_i("7x"), 7);
        assert_eq!(ruby_to_i("x"), 0);
        assert_eq!(ruby_to_i(""), 0);
        assert_eq!(ruby_to_i("1_000"), 1000);
        assert_eq!(ruby_to_i("1__0"), 1);
        assert_eq!(ruby_to_i("_1"), 0);
        assert_eq!(ruby_to_i("--1"), 0);
        assert_eq!(ruby_to_i("007"), 7);
    }

    #[test]
    fn a_move_line_is_its_first_three_words() {
        let reply = read_rb("nop\n3\n2 4 6 7\n5 1 x\n9 9");
        assert_eq!(
            reply.moves,
            vec![Move { id: 2, x: 4, y: 6 }, Move { id: 5, x: 1, y: 0 }],
            "a fourth word is dropped, a word is 0, a short line moves nothing"
        );
    }

    #[test]
    fn commands_need_exactly_their_words() {
        assert_eq!(
            read_rb("buy 2 4x 6\n0").command,
            Command::Buy { id: 2, x: 4, y: 6 }
        );
        assert!(matches!(
            read_rb("buy 2 4 6 1\n0").command,
            Command::Other(_)
        ));
        assert_eq!(
            read_rb("evolve 0 0 0\n0").command,
            Command::Evolve([0, 0, 0])
        );
        assert!(matches!(
            read_rb("levelup now\n0").command,
            Command::Other(_)
        ));
        assert_eq!(read_rb("  levelup\r\n0").command, Command::Levelup);
    }

    #[test]
    fn without_its_readings_a_reply_is_read_as_the_document_reads_it() {
        let text = "buy 2 4x 6\n2\n2 4 6 7\n5 1 7";
        let document = read(text, false, false);
        assert!(matches!(document.command, Command::Other(_)));
        assert_eq!(document.moves, vec![Move { id: 5, x: 1, y: 7 }]);
        let commands_only = read(text, true, false);
        assert_eq!(commands_only.command, Command::Buy { id: 2, x: 4, y: 6 });
        assert_eq!(commands_only.moves, document.moves);
    }

    #[test]
    fn the_count_is_read_with_to_i_and_lines_past_it_are_not_this_turns() {
        let reply = read_rb("nop\n1 and more\n0 4 7\n1 4 1");
        assert_eq!(reply.moves, vec![Move { id: 0, x: 4, y: 7 }]);
        assert!(read_rb("nop\n-1\n0 4 7").moves.is_empty());
    }
}

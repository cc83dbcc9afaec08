//! A strict line-and-token reader shared by every game's protocol parser.
//!
//! The contest protocols are line based: numbers separated by exactly one space, each line ended
//! by `\n`. This reader enforces that grammar and reports the first departure from it as a
//! [`ParseError`] with a 1-based line and column (counted in characters). It never panics and
//! never allocates more than the error message it returns, whatever the input.
//!
//! Leniency (extra blanks, CRLF) is not this module's business: a game that accepts more than
//! the strict grammar does so in its own engine-side parser.

use serde::Serialize;

/// Longest excerpt of offending input quoted in an error message.
const MAX_FOUND_CHARS: usize = 24;

/// A positioned parse error: where the input departs from the grammar, what the grammar wanted
/// there and what was found instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("line {line}, column {col}: expected {expected}, found {found}")]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub expected: String,
    pub found: String,
}

impl ParseError {
    pub fn new(
        line: usize,
        col: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        ParseError {
            line,
            col,
            expected: expected.into(),
            found: found.into(),
        }
    }
}

/// Quotes a piece of hostile input for an error message: escaped, and cut short when long.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        if i == MAX_FOUND_CHARS {
            out.push_str("...");
            break;
        }
        out.extend(c.escape_debug());
    }
    out.push('"');
    out
}

/// A name line as a bot answers it: not empty (else "`what`, found an empty line"), and every
/// character one that `allowed` takes (else `expected`, at the first one it does not).
pub fn name_line<'t>(
    text: &'t str,
    what: &str,
    allowed: impl Fn(char) -> bool,
    expected: &str,
) -> Result<&'t str, ParseError> {
    if text.is_empty() {
        return Err(ParseError::new(1, 1, what, "an empty line"));
    }
    match text.char_indices().find(|&(_, c)| !allowed(c)) {
        None => Ok(text),
        Some((i, c)) => Err(ParseError::new(
            1,
            text[..i].chars().count() + 1,
            expected,
            quote(&c.to_string()),
        )),
    }
}

/// Reads a text one `\n`-terminated line at a time.
pub struct Reader<'a> {
    rest: &'a str,
    line_no: usize,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Self {
        Reader {
            rest: text,
            line_no: 0,
        }
    }

    /// The number of the last line handed out (0 before the first).
    pub fn line_no(&self) -> usize {
        self.line_no
    }

    pub fn at_end(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next line's content without consuming it (without its `\n`).
    pub fn peek(&self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        Some(self.rest.split('\n').next().unwrap_or(""))
    }

    /// The next line, which must exist and end with `\n`. `what` names what the line should hold.
    pub fn line(&mut self, what: &str) -> Result<Line<'a>, ParseError> {
        if self.rest.is_empty() {
            return Err(ParseError::new(self.line_no + 1, 1, what, "end of input"));
        }
        self.line_no += 1;
        match self.rest.find('\n') {
            Some(end) => {
                let text = &self.rest[..end];
                self.rest = &self.rest[end + 1..];
                Ok(Line {
                    text,
                    number: self.line_no,
                    pos: 0,
                })
            }
            None => {
                let col = self.rest.chars().count() + 1;
                Err(ParseError::new(
                    self.line_no,
                    col,
                    "a line break",
                    "end of input",
                ))
            }
        }
    }

    /// A line that must read exactly `keyword`.
    pub fn keyword(&mut self, keyword: &str) -> Result<(), ParseError> {
        let line = self.line(&format!("`{keyword}`"))?;
        if line.text != keyword {
            return Err(line.error_at(1, format!("`{keyword}`"), quote(line.text)));
        }
        Ok(())
    }

    /// Everything must have been read.
    pub fn finish(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(line) => Err(ParseError::new(
                self.line_no + 1,
                1,
                "end of input",
                quote(line),
            )),
        }
    }
}

/// One line, read token by token; tokens are separated by exactly one space.
#[derive(Debug)]
pub struct Line<'a> {
    text: &'a str,
    number: usize,
    /// Byte offset of the next unread character.
    pos: usize,
}

/// A token and the column of its first character.
#[derive(Debug, Clone, Copy)]
pub struct Token<'a> {
    pub text: &'a str,
    pub line: usize,
    pub col: usize,
}

impl<'a> Line<'a> {
    /// A single line with no line break of its own (a reply, a name).
    pub fn whole(text: &'a str) -> Self {
        Line {
            text,
            number: 1,
            pos: 0,
        }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    pub fn line_number(&self) -> usize {
        self.number
    }

    fn col_of(&self, byte: usize) -> usize {
        let before = &self.text[..byte];
        // Every token asks: most lines are ASCII, where a byte is a character.
        if before.is_ascii() {
            byte + 1
        } else {
            before.chars().count() + 1
        }
    }

    pub fn error_at(
        &self,
        col: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ParseError {
        ParseError::new(self.number, col, expected, found)
    }

    /// The next token. Before every token but the first there must be exactly one space.
    pub fn token(&mut self, what: &str) -> Result<Token<'a>, ParseError> {
        let rest = &self.text[self.pos..];
        if rest.is_empty() {
            return Err(self.error_at(self.col_of(self.pos), what, "end of line"));
        }
        if self.pos > 0 {
            // The separator: one space, and the token must follow it at once.
            if !rest.starts_with(' ') {
                let found = rest
                    .chars()
                    .next()
                    .map(|c| quote(&c.to_string()))
                    .unwrap_or_default();
                return Err(self.error_at(self.col_of(self.pos), "a single space", found));
            }
            self.pos += 1;
        }
        let start = self.pos;
        let rest = &self.text[start..];
        let len = rest.bytes().position(|b| b == b' ').unwrap_or(rest.len());
        if len == 0 {
            let found = if rest.is_empty() {
                "end of line".to_string()
            } else {
                quote(" ")
            };
            return Err(self.error_at(self.col_of(start), what, found));
        }
        self.pos = start + len;
        Ok(Token {
            text: &rest[..len],
            line: self.number,
            col: self.col_of(start),
        })
    }

    /// A token that is a plain decimal number (no sign, no leading zero) within `range`.
    pub fn number(
        &mut self,
        what: &str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<u64, ParseError> {
        let token = self.token(what)?;
        token.number(what, range)
    }

    /// A token that is a signed decimal integer within `range`; see [`Token::integer`].
    pub fn integer(
        &mut self,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<i64, ParseError> {
        let token = self.token(what)?;
        token.integer(what, range)
    }

    /// A token that is a decimal number within `range`; see [`Token::decimal`].
    pub fn decimal(
        &mut self,
        what: &str,
        range: std::ops::RangeInclusive<f64>,
    ) -> Result<f64, ParseError> {
        let token = self.token(what)?;
        token.decimal(what, range)
    }

    /// Nothing may follow on this line.
    pub fn end(&self) -> Result<(), ParseError> {
        let rest = &self.text[self.pos..];
        if rest.is_empty() {
            return Ok(());
        }
        Err(self.error_at(self.col_of(self.pos), "end of line", quote(rest)))
    }
}

impl Token<'_> {
    fn error(&self, expected: &str) -> ParseError {
        ParseError::new(self.line, self.col, expected, quote(self.text))
    }

    /// The token as a strict decimal number within `range`; `what` names it, range included,
    /// for the error message.
    pub fn number(
        &self,
        what: &str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<u64, ParseError> {
        let digits = self.text.as_bytes();
        let well_formed = !digits.is_empty()
            && digits.iter().all(u8::is_ascii_digit)
            && (digits == b"0" || digits.first() != Some(&b'0'));
        if !well_formed || digits.len() > 20 {
            return Err(self.error(what));
        }
        match self.text.parse::<u64>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(self.error(what)),
        }
    }

    /// The token as a strict signed decimal integer within `range`: digits with an optional
    /// leading `-`, in the one form a printer writes (no `+`, no leading zero, no `-0`).
    pub fn integer(
        &self,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<i64, ParseError> {
        let magnitude = self.text.strip_prefix('-').unwrap_or(self.text);
        if !is_canonical_digits(magnitude) || magnitude.len() > 19 || self.text == "-0" {
            return Err(self.error(what));
        }
        match self.text.parse::<i64>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(self.error(what)),
        }
    }

    /// The token as a strict decimal number within `range`: an optional `-`, an integer part
    /// without a leading zero, and an optional fraction `.digits`. No exponent, no `+`, no
    /// `-0`, nothing non-finite: what a printer of plain decimals writes.
    pub fn decimal(
        &self,
        what: &str,
        range: std::ops::RangeInclusive<f64>,
    ) -> Result<f64, ParseError> {
        let unsigned = self.text.strip_prefix('-').unwrap_or(self.text);
        let (int, fraction) = match unsigned.split_once('.') {
            Some((int, fraction)) => (int, Some(fraction)),
            None => (unsigned, None),
        };
        let well_formed = is_canonical_digits(int)
            && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
            && self.text.len() <= 64
            && self.text != "-0";
        if !well_formed {
            return Err(self.error(what));
        }
        match self.text.parse::<f64>() {
            Ok(x) if x.is_finite() && range.contains(&x) => Ok(x),
            _ => Err(self.error(what)),
        }
    }
}

/// Digits only, at least one, and no leading zero unless the number is 0.
fn is_canonical_digits(digits: &str) -> bool {
    let bytes = digits.as_bytes();
    !bytes.is_empty()
        && bytes.iter().all(u8::is_ascii_digit)
        && (bytes == b"0" || bytes.first() != Some(&b'0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_space_is_reported_at_the_second_space() {
        let mut line = Line::whole("2  0");
        line.number("position", 0..=8).unwrap();
        let err = line.number("rotation", 0..=3).unwrap_err();
        assert_eq!((err.line, err.col), (1, 3));
    }

    #[test]
    fn missing_line_break_is_reported_after_the_last_character() {
        let mut reader = Reader::new("END");
        let err = reader.line("`END`").unwrap_err();
        assert_eq!(
            (err.line, err.col, err.found.as_str()),
            (1, 4, "end of input")
        );
    }

    #[test]
    fn leading_zero_and_overflow_are_not_numbers() {
        for text in ["01", "99999999999999999999999", "-1", "+1", "1.0"] {
            assert!(
                Line::whole(text).number("n", 0..=u64::MAX).is_err(),
                "{text}"
            );
        }
        assert_eq!(Line::whole("0").number("n", 0..=0), Ok(0));
    }

    #[test]
    fn signed_integers_in_their_one_printed_form() {
        let read = |t: &str| Line::whole(t).integer("n", -100..=100);
        assert_eq!(read("-1"), Ok(-1));
        assert_eq!(read("0"), Ok(0));
        assert_eq!(read("100"), Ok(100));
        for text in [
            "-0", "+1", "01", "-01", "101", "-101", "1.0", "-", "", "--1",
        ] {
            assert!(read(text).is_err(), "{text}");
        }
        let wide = |t: &str| Line::whole(t).integer("n", i64::MIN..=i64::MAX);
        assert_eq!(wide("-9223372036854775808"), Ok(i64::MIN));
        assert!(wide("9223372036854775808").is_err());
        assert!(wide("-99999999999999999999").is_err());
    }

    #[test]
    fn decimals_without_exponents() {
        let read = |t: &str| Line::whole(t).decimal("x", -1e9..=1e9);
        assert_eq!(read("-0.5"), Ok(-0.5));
        assert_eq!(read("17630"), Ok(17630.0));
        assert_eq!(read("0.25"), Ok(0.25));
        for text in [
            "1e3", "NaN", "inf", ".5", "5.", "-0", "+1.5", "00.5", "1.2.3", "2e400",
        ] {
            assert!(read(text).is_err(), "{text}");
        }
    }

    #[test]
    fn quote_cuts_long_input() {
        let long = "x".repeat(1000);
        assert_eq!(quote(&long).len(), MAX_FOUND_CHARS + 5);
    }
}

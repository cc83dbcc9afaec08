//! Malformed prompts, made from a valid one at the text level: what a broken engine, a bad
//! network relay or a hostile environment could send a bot. Game-agnostic: it knows lines,
//! blanks and numeric tokens (`12`, `-3`, `0.25`), never a grammar. Which token a mutation hits is drawn from the
//! caller's seeded RNG, so a run is reproducible.

use rand::seq::IndexedRandom;
use rand::RngCore;

/// One malformed prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    /// Kebab-case: `crlf`, `non-numeric-token`, ...
    pub name: &'static str,
    /// What was done, where: `line 12, token "3" → "x"`.
    pub note: String,
    pub bytes: Vec<u8>,
}

/// Every mutation of `prompt` that applies to it (the token ones need a numeric token).
pub fn mutants(prompt: &str, rng: &mut dyn RngCore) -> Vec<Mutant> {
    let mut out = line_mutants(prompt);
    out.extend(token_mutants(prompt, rng));
    out
}

/// The mutations of `prompt`'s lines and blanks: nothing, cut short, CR LF, blanks added.
fn line_mutants(prompt: &str) -> Vec<Mutant> {
    let mut out = Vec::new();
    let lines: Vec<&str> = prompt.split_inclusive('\n').collect();
    let mut push = |name, note: String, bytes: Vec<u8>| out.push(Mutant { name, note, bytes });

    push("empty-prompt", "nothing at all".into(), Vec::new());
    if lines.len() >= 2 {
        let keep = lines.len() / 2;
        push(
            "truncated",
            format!("the first {keep} of {} lines", lines.len()),
            lines[..keep].concat().into_bytes(),
        );
        push(
            "missing-last-line",
            format!(
                "without its last line {:?} (the terminator, in most grammars)",
                lines[lines.len() - 1].trim_end()
            ),
            lines[..lines.len() - 1].concat().into_bytes(),
        );
    }
    if let Some(cut) = mid_line_cut(prompt) {
        push(
            "eof-mid-line",
            format!("cut after byte {cut}, inside a line"),
            prompt.as_bytes()[..cut].to_vec(),
        );
    }
    if prompt.contains('\n') {
        push(
            "crlf",
            "every line break is CR LF".into(),
            prompt.replace('\n', "\r\n").into_bytes(),
        );
    }
    push(
        "extra-blanks",
        "blanks doubled, a leading and a trailing blank on every line".into(),
        lines
            .iter()
            .map(|line| {
                let body = line.trim_end_matches('\n');
                let end = &line[body.len()..];
                format!(" {} {end}", body.replace(' ', "  "))
            })
            .collect::<String>()
            .into_bytes(),
    );
    out
}

/// The mutations of one numeric token each (drawn from `rng`, in this order): another word, a
/// number out of range or past 64 bits, other spellings of numbers, bytes that are no text.
fn token_mutants(prompt: &str, rng: &mut dyn RngCore) -> Vec<Mutant> {
    let mut out = Vec::new();
    let tokens = numeric_tokens(prompt);
    let small: Vec<(usize, usize)> = tokens.iter().copied().filter(|(s, e)| e - s == 1).collect();
    let mut replace = |name, pool: &[(usize, usize)], with: &str| {
        if let Some(&(start, end)) = pool.choose(rng) {
            let line = prompt[..start].matches('\n').count() + 1;
            let bytes = [&prompt[..start], with, &prompt[end..]]
                .concat()
                .into_bytes();
            let note = format!("line {line}: {:?} → {with:?}", &prompt[start..end]);
            out.push(Mutant { name, note, bytes });
        }
    };
    replace("non-numeric-token", &tokens, "x");
    replace("out-of-range-number", &small, "12345");
    replace("negative-number", &small, "-1");
    replace("number-past-64-bits", &tokens, "18446744073709551616");
    replace("exponent-number", &tokens, "1e3");
    replace("negative-zero", &tokens, "-0");
    replace("nan-token", &tokens, "NaN");
    replace("decimal-where-integer", &small, "0.5");
    replace("binary-bytes", &tokens, "\u{0}\u{7f}\u{1b}");
    if let Some(&(start, end)) = tokens.choose(rng) {
        let line = prompt[..start].matches('\n').count() + 1;
        let mut bytes = prompt.as_bytes()[..start].to_vec();
        bytes.extend_from_slice(&[0xff, 0xfe]);
        bytes.extend_from_slice(&prompt.as_bytes()[end..]);
        out.push(Mutant {
            name: "invalid-utf8",
            note: format!(
                "line {line}: {:?} → bytes FF FE (not UTF-8)",
                &prompt[start..end]
            ),
            bytes,
        });
    }
    out
}

/// Byte ranges of the numeric tokens: digits, with an optional leading `-` and an optional
/// fraction `.digits`.
fn numeric_tokens(text: &str) -> Vec<(usize, usize)> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, b) in text.bytes().enumerate().chain([(text.len(), b' ')]) {
        let blank = b == b' ' || b == b'\t' || b == b'\n' || b == b'\r';
        match (start, blank) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                if is_number(&text[s..i]) {
                    tokens.push((s, i));
                }
                start = None;
            }
            _ => {}
        }
    }
    tokens
}

fn is_number(token: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unsigned = token.strip_prefix('-').unwrap_or(token);
    match unsigned.split_once('.') {
        Some((int, fraction)) => digits(int) && digits(fraction),
        None => digits(unsigned),
    }
}

/// A cut near the middle of the text that falls inside a line (after at least one byte of it).
fn mid_line_cut(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (bytes.len() / 2..bytes.len())
        .chain(1..bytes.len() / 2)
        .find(|&i| bytes[i - 1] != b'\n' && bytes[i] != b'\n' && text.is_char_boundary(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const PROMPT: &str = "3\n1 2\n0 11\nEND\n";

    fn by_name(name: &str) -> Mutant {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        mutants(PROMPT, &mut rng)
            .into_iter()
            .find(|m| m.name == name)
            .unwrap()
    }

    #[test]
    fn line_level_mutations() {
        assert_eq!(by_name("empty-prompt").bytes, b"");
        assert_eq!(by_name("truncated").bytes, b"3\n1 2\n");
        assert_eq!(by_name("missing-last-line").bytes, b"3\n1 2\n0 11\n");
        assert_eq!(by_name("crlf").bytes, b"3\r\n1 2\r\n0 11\r\nEND\r\n");
        assert_eq!(
            by_name("extra-blanks").bytes,
            b" 3 \n 1  2 \n 0  11 \n END \n"
        );
        let cut = by_name("eof-mid-line").bytes;
        assert!(PROMPT.as_bytes().starts_with(&cut) && !cut.ends_with(b"\n"));
    }

    #[test]
    fn token_mutations_replace_one_number() {
        let m = by_name("negative-number");
        let text = String::from_utf8(m.bytes).unwrap();
        assert_eq!(text.matches("-1").count(), 1, "{text}");
        assert_eq!(text.len(), PROMPT.len() + 1);
        let m = by_name("number-past-64-bits");
        assert!(String::from_utf8(m.bytes)
            .unwrap()
            .contains("18446744073709551616"));
        assert!(String::from_utf8(by_name("invalid-utf8").bytes).is_err());
    }

    #[test]
    fn signed_and_decimal_tokens_are_numbers() {
        let text = "-3 0.25 x 7 -0.5 1-2\n";
        let found: Vec<&str> = numeric_tokens(text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect();
        assert_eq!(found, ["-3", "0.25", "7", "-0.5"]);
        let m = by_name("nan-token");
        assert!(String::from_utf8(m.bytes).unwrap().contains("NaN"));
    }

    #[test]
    fn the_seed_decides_the_token() {
        let prompt = (0..100).map(|i| format!("{i}\n")).collect::<String>();
        let run = |seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            mutants(&prompt, &mut rng)
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }
}

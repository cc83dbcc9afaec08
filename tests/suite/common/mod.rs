//! Helpers shared by the test files of several games.

use shinpan::game::{DynGame, ParseVerdict};

/// Each (protocol text kind, input) with what the game's parser says of it, one entry per
/// input, for a snapshot of the error messages users read.
pub fn describe_parses(game: &dyn DynGame, inputs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (kind, input) in inputs {
        let verdict = match game.parse(kind, input) {
            Some(ParseVerdict::Valid { printed }) => format!("valid, prints {printed:?}"),
            Some(ParseVerdict::NonStrict(e)) => format!("non-strict: {e}"),
            Some(ParseVerdict::Invalid(e)) => format!("invalid: {e}"),
            None => format!("no `{kind}` parser"),
        };
        out.push_str(&format!("{kind} {input:?}\n    {verdict}\n"));
    }
    out
}

//! Helpers shared by the test files of several games. Each test file uses some of them.
#![allow(dead_code)]

use shinpan::game::{DynGame, EdgeCase, Game, ParseVerdict, Reply};

/// Every edge case of a game is usable by the bot checker: each state valid, its prompt valid
/// under the parse kind `prompt_kind`, and `replies` play a step from it.
pub fn assert_edge_cases_playable<G: Game>(
    game: &G,
    cases: Vec<EdgeCase<G::State>>,
    prompt_kind: &str,
    replies: &[Reply],
) {
    for case in cases {
        for state in &case.states {
            game.validate(state)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            let prompt = game.prompt(state, case.seat);
            let verdict = game.parse(prompt_kind, &prompt);
            assert!(
                matches!(verdict, Some(ParseVerdict::Valid { .. })),
                "{}: {verdict:?}",
                case.name
            );
            let mut next = state.clone();
            game.step(&mut next, replies)
                .unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
        }
    }
}

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

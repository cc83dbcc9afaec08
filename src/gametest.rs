//! Checks every game's unit tests make alike, written once. Test code only.

use crate::game::{EdgeCase, Game, ParseVerdict, Reply};

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

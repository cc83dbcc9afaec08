//! The shared body of every game's `<game>_step` fuzz target: play a few steps from an arbitrary
//! state with arbitrary replies and check, after each, what must always hold. Each game brings
//! its own state generator, reply generator and invariants.

use arbitrary::Unstructured;

use crate::game::{Game, Reply};

/// Steps `game` from `state` up to four times with replies drawn by `replies`; panics when a
/// refused step changed the state or `check_invariants(before, after)` reports a broken one.
pub fn fuzz_steps<G: Game>(
    game: &G,
    mut state: G::State,
    u: &mut Unstructured,
    mut replies: impl FnMut(&mut Unstructured) -> arbitrary::Result<Vec<Reply>>,
    check_invariants: impl Fn(&G::State, &G::State) -> Result<(), String>,
) {
    assert_eq!(
        game.validate(&state),
        Ok(()),
        "the generator makes valid states"
    );
    for _ in 0..4 {
        if game.outcome(&state).is_some() {
            break;
        }
        let Ok(replies) = replies(u) else { return };
        let before = state.clone();
        if crate::game::checked_step(game, &mut state, &replies).is_err() {
            assert_eq!(state, before, "a refused step changes nothing");
            return;
        }
        if let Err(broken) = check_invariants(&before, &state) {
            panic!("{broken}\nreplies: {replies:?}\nbefore: {before:?}\nafter: {state:?}");
        }
    }
}

//! Matches between the built-in seeded random legal players, on any game: the golden
//! playthroughs, the benchmarks and the fuzzers' seed corpus come from here.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, Outcome, Reply};

/// One step of a self-play match: the prompts each awaited player read and its reply.
pub struct Exchange {
    pub prompts: Vec<String>,
    pub replies: Vec<String>,
}

/// Plays a whole match from `G::new_match(seed)` between random legal players (player p draws
/// from its own RNG seeded with `seed` and p), calling `watch` before each step. Returns the
/// outcome and the number of steps played.
pub fn play_random_match<G: Game>(
    game: &G,
    seed: u64,
    mut watch: impl FnMut(&G::State, &Exchange),
) -> (Outcome, usize) {
    let mut state = game.new_match(seed);
    let mut rngs: Vec<ChaCha8Rng> = (0..game.info().players)
        .map(|p| {
            ChaCha8Rng::seed_from_u64(seed ^ (p as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        })
        .collect();
    let mut steps = 0;
    loop {
        if let Some(outcome) = game.outcome(&state) {
            return (outcome, steps);
        }
        let awaiting = game.awaiting(&state);
        let prompts = awaiting.iter().map(|&p| game.prompt(&state, p)).collect();
        let replies: Vec<String> = awaiting
            .iter()
            .map(|&p| game.random_reply(&state, p, &mut rngs[p]))
            .collect();
        let exchange = Exchange { prompts, replies };
        watch(&state, &exchange);
        let replies: Vec<Reply> = exchange.replies.into_iter().map(Reply::text).collect();
        // The built-in players only make legal replies on a state the engine made itself.
        game.step(&mut state, &replies)
            .expect("a self-play step on a reachable state");
        steps += 1;
    }
}

/// The state of [`play_random_match`]'s match of `seed` after `steps` steps, or where it ended if
/// that comes first: reachable states for differential fuzzing.
pub fn random_prefix<G: Game>(game: &G, seed: u64, steps: usize) -> G::State {
    let mut state = game.new_match(seed);
    let mut played = 0;
    play_random_match_until(game, seed, |s, _| {
        if played == steps {
            state = s.clone();
            return false;
        }
        played += 1;
        true
    })
    .map_or(state, |last| last)
}

/// [`play_random_match`], stopping before the step where `go_on` says false. Returns the state
/// where the match ended, or `None` when it was stopped.
fn play_random_match_until<G: Game>(
    game: &G,
    seed: u64,
    mut go_on: impl FnMut(&G::State, &Exchange) -> bool,
) -> Option<G::State> {
    let mut state = game.new_match(seed);
    let mut rngs: Vec<ChaCha8Rng> = (0..game.info().players)
        .map(|p| {
            ChaCha8Rng::seed_from_u64(seed ^ (p as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        })
        .collect();
    loop {
        if game.outcome(&state).is_some() {
            return Some(state);
        }
        let awaiting = game.awaiting(&state);
        let replies: Vec<String> = awaiting
            .iter()
            .map(|&p| game.random_reply(&state, p, &mut rngs[p]))
            .collect();
        let exchange = Exchange {
            prompts: Vec::new(),
            replies,
        };
        if !go_on(&state, &exchange) {
            return None;
        }
        let replies: Vec<Reply> = exchange.replies.into_iter().map(Reply::text).collect();
        game.step(&mut state, &replies)
            .expect("a self-play step on a reachable state");
    }
}

/// The same match without prompts: what the engine alone costs per step.
pub fn play_random_match_fast<G: Game>(game: &G, seed: u64) -> (Outcome, usize) {
    let mut state = game.new_match(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut steps = 0;
    let mut replies = Vec::new();
    while game.outcome(&state).is_none() {
        replies.clear();
        replies.extend(
            game.awaiting(&state)
                .into_iter()
                .map(|p| Reply::text(game.random_reply(&state, p, &mut rng))),
        );
        game.step(&mut state, &replies)
            .expect("a self-play step on a reachable state");
        steps += 1;
    }
    (
        game.outcome(&state).unwrap_or(Outcome {
            winner: None,
            reason: String::new(),
        }),
        steps,
    )
}

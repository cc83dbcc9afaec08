//! Matches between the built-in seeded random legal players, on any game: the golden
//! playthroughs, the benchmarks, differential fuzzing's reachable states and the fuzzers' seed
//! corpus come from here. One loop serves them all ([`play_random_match`]); the others are views
//! of it.

use serde_json::Value;

use crate::rng::{player_stream, seeded};
use crate::seam::{DynGame, DynMatch, Game, MatchOptions, Outcome, PlayError, Reply};

/// One step of a self-play match: the prompts each awaited player read and its reply.
pub struct Exchange {
    pub prompts: Vec<String>,
    pub replies: Vec<String>,
}

/// Whether [`play_random_match`] renders the prompts of each step for its watcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompts {
    Rendered,
    /// What the engine alone costs: the watcher gets no prompts.
    Skipped,
}

/// Plays a match from `G::new_match(seed, options)` between random legal players (player p draws
/// from [`seeded`]`(seed, player_stream(p))`), calling `watch` before each step; `watch`
/// returning false stops the match there. Returns the outcome (`None` when stopped) and the
/// number of steps played.
pub fn play_random_match<G: Game>(
    game: &G,
    seed: u64,
    options: &G::Options,
    prompts: Prompts,
    mut watch: impl FnMut(&G::State, &Exchange) -> bool,
) -> (Option<Outcome>, usize) {
    let mut state = game.new_match(seed, options);
    let mut rngs: Vec<_> = (0..game.info().players)
        .map(|p| seeded(seed, player_stream(p)))
        .collect();
    let mut steps = 0;
    let mut replies = Vec::new();
    loop {
        if let Some(outcome) = game.outcome(&state) {
            return (Some(outcome), steps);
        }
        let awaiting = game.awaiting(&state);
        let exchange = Exchange {
            prompts: match prompts {
                Prompts::Rendered => awaiting.iter().map(|&p| game.prompt(&state, p)).collect(),
                Prompts::Skipped => Vec::new(),
            },
            replies: awaiting
                .iter()
                .map(|&p| game.random_reply(&state, p, &mut rngs[p]))
                .collect(),
        };
        if !watch(&state, &exchange) {
            return (None, steps);
        }
        replies.clear();
        replies.extend(exchange.replies.into_iter().map(Reply::text));
        // The built-in players only make legal replies on a state the engine made itself.
        game.step(&mut state, &replies)
            .expect("a self-play step on a reachable state");
        steps += 1;
    }
}

/// The whole match of `seed` with default options, prompts rendered: what golden playthroughs
/// record. Returns the outcome and the number of steps.
pub fn golden_match<G: Game>(
    game: &G,
    seed: u64,
    mut watch: impl FnMut(&G::State, &Exchange),
) -> (Outcome, usize) {
    let (outcome, steps) = play_random_match(
        game,
        seed,
        &G::Options::default(),
        Prompts::Rendered,
        |s, e| {
            watch(s, e);
            true
        },
    );
    (
        outcome.expect("a match played to its end has an outcome"),
        steps,
    )
}

/// The canonical state of the built-in players' match of `seed` after `steps` steps, or where it
/// ended if that comes first: reachable states for differential fuzzing, on any game.
pub fn random_prefix(
    game: &dyn DynGame,
    seed: u64,
    options: &MatchOptions,
    steps: usize,
) -> Result<Value, PlayError> {
    Ok(random_prefix_match(game, seed, options, steps)?.state()?)
}

/// The match of [`random_prefix`] itself, to see whether it is over and play on from it.
pub fn random_prefix_match<'g>(
    game: &'g dyn DynGame,
    seed: u64,
    options: &MatchOptions,
    steps: usize,
) -> Result<Box<dyn DynMatch + 'g>, PlayError> {
    Ok(prefix(game, seed, options, steps)?.0)
}

/// The match of [`random_prefix_match`] at a step that is still in play: `steps` in, or, where
/// the match ends first, after `e` steps, `steps % e` in (the same match played again that far).
/// Every draw of a step is then a state a turn can be played from.
pub fn random_prefix_match_in_play<'g>(
    game: &'g dyn DynGame,
    seed: u64,
    options: &MatchOptions,
    steps: usize,
) -> Result<Box<dyn DynMatch + 'g>, PlayError> {
    let (play, played) = prefix(game, seed, options, steps)?;
    if played < steps {
        return random_prefix_match(game, seed, options, steps % played.max(1));
    }
    Ok(play)
}

/// The self-play match of `seed` after `steps` steps, or where it ended before: the match and
/// the steps played.
fn prefix<'g>(
    game: &'g dyn DynGame,
    seed: u64,
    options: &MatchOptions,
    steps: usize,
) -> Result<(Box<dyn DynMatch + 'g>, usize), PlayError> {
    let mut play = game.start(seed, options)?;
    let mut rngs: Vec<_> = (0..game.info().players)
        .map(|p| seeded(seed, player_stream(p)))
        .collect();
    for turn in 0..steps {
        if play.outcome().is_some() {
            return Ok((play, turn));
        }
        let replies: Vec<Reply> = play
            .awaiting()
            .into_iter()
            .map(|p| Reply::text(play.random_reply(p, &mut rngs[p])))
            .collect();
        play.step(&replies).map_err(|error| PlayError::Step {
            turn: turn + 1,
            error,
        })?;
    }
    Ok((play, steps))
}

/// The number of steps of the match of `seed` with default options: what benchmarks time.
pub fn match_steps<G: Game>(game: &G, seed: u64, prompts: Prompts) -> usize {
    play_random_match(game, seed, &G::Options::default(), prompts, |_, _| true).1
}

//! A `play` log replayed on the reference engine: the match made again from the seed and the
//! options its `start` record names, each step played with the replies the log holds, in the
//! order the rules await the players. Every state is whole, where a trace sees only what the
//! prompts show (a fog, a hidden draw); a log of another tool names no seed, and is read by a
//! trace instead.

use crate::harness::log::MatchLog;
use crate::harness::trace::Seen;
use crate::seam::{DynGame, MatchOptions, PlayError, Reply, StateError, StepError};

/// Plays `read` again, showing `seen` each step's state before its replies and, last, the state
/// after the last step. Where the log holds no reply of an awaited player (the log ends first),
/// the replay ends there. Returns why it could not start or go on, if so.
pub fn replay_played(
    game: &dyn DynGame,
    read: &MatchLog,
    seen: &mut dyn FnMut(Seen<'_>),
) -> Result<(), ReplayError> {
    let seed = read.start.seed.ok_or(ReplayError::NoSeed)?;
    let options = MatchOptions(read.start.options.clone().unwrap_or_default());
    let mut play = game
        .start(seed, &options)
        .map_err(|why| ReplayError::Start { seed, why })?;
    let mut next = vec![0usize; game.info().players];
    let mut stopped = Ok(());
    for step in 0.. {
        let state = play.state()?;
        let awaiting = if play.outcome().is_some() {
            Vec::new()
        } else {
            play.awaiting()
        };
        let exchanges: Option<Vec<_>> = awaiting
            .iter()
            .map(|&p| {
                let exchange = read.players.get(&p)?.exchanges.get(*next.get(p)?)?;
                Some((p, exchange))
            })
            .collect();
        let exchanges = match exchanges {
            Some(exchanges) if !exchanges.is_empty() => exchanges,
            _ => {
                seen(Seen {
                    step,
                    state: &state,
                    exchanges: Vec::new(),
                    predicted: None,
                });
                break;
            }
        };
        let replies: Vec<Reply> = exchanges
            .iter()
            .map(|(p, e)| {
                next[*p] += 1;
                match &e.reply {
                    Some(text) => Reply::Text {
                        text: text.clone(),
                        elapsed_ms: e.elapsed_ms.unwrap_or(0),
                    },
                    None => Reply::Crashed,
                }
            })
            .collect();
        seen(Seen {
            step,
            state: &state,
            exchanges,
            predicted: None,
        });
        if let Err(why) = play.step(&replies) {
            stopped = Err(ReplayError::Step { step, why });
            let state = play.state()?;
            seen(Seen {
                step: step + 1,
                state: &state,
                exchanges: Vec::new(),
                predicted: None,
            });
            break;
        }
    }
    stopped
}

/// Why a replay could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the log names no seed: it is no `play` log")]
    NoSeed,
    #[error("the match of seed {seed} cannot be made: {why}")]
    Start { seed: u64, why: PlayError },
    /// The reference's own state could not be written canonically.
    #[error(transparent)]
    State(#[from] StateError),
    #[error("step {step}: the reference cannot play the replies ({why})")]
    Step { step: usize, why: StepError },
}

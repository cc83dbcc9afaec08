//! One step of a match between seats, as a contest engine plays it: every awaited bot is sent
//! its prompt first and then each reply is read, so bots of a simultaneous game think at the
//! same time, each on its own clock; the built-in player answers at once; the engine plays the
//! step. `play` and the bot checker's matches both run their matches through [`play_step`]; the
//! bot checker has the prompts varied ([`crate::seam::Game::prompt_varied`]).

use std::time::Duration;

use rand::RngCore;
use rand_chacha::ChaCha8Rng;

use crate::harness::log::now_us;
use crate::harness::session::{Failure, Session};
use crate::seam::{DynMatch, Reply, ReplyVerdict, StepError};

/// Who sits in a seat.
pub enum Seat {
    /// The game's built-in random legal player, with its own generator.
    Builtin(ChaCha8Rng),
    /// A bot program; once it has failed (`fault`), its replies are crashes.
    Bot {
        session: Session,
        fault: Option<Failure>,
    },
}

impl Seat {
    /// The bot's first failure, if it is a bot that failed.
    pub fn fault(&self) -> Option<&Failure> {
        match self {
            Seat::Bot { fault, .. } => fault.as_ref(),
            Seat::Builtin(_) => None,
        }
    }
}

/// What happened in one step, for each awaited seat in the order the game awaits them.
#[derive(Debug, Clone)]
pub struct StepRecord {
    pub awaiting: Vec<usize>,
    pub prompts: Vec<String>,
    pub replies: Vec<Reply>,
    /// How the engine took each reply.
    pub verdicts: Vec<ReplyVerdict>,
    /// How long each seat was waited for: its thinking time, or the time until its failure.
    pub waited: Vec<Duration>,
    /// A bot that failed in this step (not one that had failed before).
    pub new_faults: Vec<Option<Failure>>,
    /// When each prompt was sent and each reply read (µs since the Unix epoch), for logs.
    pub prompted_us: Vec<u64>,
    pub replied_us: Vec<u64>,
}

/// Plays one step of `game` with `seats` (indexed by seat). With `vary`, every prompt takes the
/// freedoms the document leaves at random from it, as another engine might print it.
pub fn play_step(
    game: &mut dyn DynMatch,
    seats: &mut [Seat],
    mut vary: Option<&mut dyn RngCore>,
) -> Result<StepRecord, StepError> {
    let awaiting = game.awaiting();
    let prompts: Vec<String> = awaiting
        .iter()
        .map(|&p| match vary.as_deref_mut() {
            Some(rng) => game.prompt_varied(p, rng),
            None => game.prompt(p),
        })
        .collect();
    let (mut new_faults, prompted_us) = send_prompts(seats, &awaiting, &prompts);
    let mut replies = Vec::with_capacity(awaiting.len());
    let mut waited = Vec::with_capacity(awaiting.len());
    let mut replied_us = Vec::with_capacity(awaiting.len());
    for (i, &seat) in awaiting.iter().enumerate() {
        let (reply, time) = take_reply(&*game, seats.get_mut(seat), seat, &mut new_faults[i]);
        replies.push(reply);
        waited.push(time);
        // Stamped at its prompt's time plus the time it was charged, not when it was read:
        // replies are read one seat after another, and the built-in player's is made only when
        // its turn to be read comes, so the clock at the read holds the other seats' thinking
        // (a trace of the log charged it to this seat, and under load found a time-out).
        replied_us.push(prompted_us[i].saturating_add(time.as_micros() as u64));
    }
    for (i, &seat) in awaiting.iter().enumerate() {
        if let (Some(failure), Some(Seat::Bot { fault, .. })) =
            (&new_faults[i], seats.get_mut(seat))
        {
            fault.get_or_insert_with(|| failure.clone());
        }
    }
    let report = game.step(&replies)?;
    Ok(StepRecord {
        awaiting,
        prompts,
        replies,
        verdicts: report.replies,
        waited,
        new_faults,
        prompted_us,
        replied_us,
    })
}

/// Sends each awaited bot that has not failed its prompt, every one before any reply is read:
/// the failure of each send (by place in `awaiting`), and when each prompt was sent.
fn send_prompts(
    seats: &mut [Seat],
    awaiting: &[usize],
    prompts: &[String],
) -> (Vec<Option<Failure>>, Vec<u64>) {
    let mut new_faults: Vec<Option<Failure>> = vec![None; awaiting.len()];
    let mut prompted_us = vec![0; awaiting.len()];
    for (i, (&seat, prompt)) in awaiting.iter().zip(prompts).enumerate() {
        prompted_us[i] = now_us();
        if let Some(Seat::Bot {
            session,
            fault: None,
        }) = seats.get_mut(seat)
        {
            if let Err(failure) = session.send_prompt(prompt.as_bytes()) {
                new_faults[i] = Some(failure);
            }
        }
    }
    (new_faults, prompted_us)
}

/// The reply of the `occupant` of `seat` and the time it took: the built-in player's at once;
/// a bot's, unless it has failed (before, or in this step: `new_fault`), read by the game's
/// frame, its failure kept in `new_fault`; a failed bot's is a crash.
fn take_reply(
    game: &dyn DynMatch,
    occupant: Option<&mut Seat>,
    seat: usize,
    new_fault: &mut Option<Failure>,
) -> (Reply, Duration) {
    match occupant {
        Some(Seat::Builtin(rng)) => (Reply::text(game.random_reply(seat, rng)), Duration::ZERO),
        Some(Seat::Bot {
            session,
            fault: None,
        }) if new_fault.is_none() => match session.read_answer(|lines| game.frame(seat, lines)) {
            Ok(answer) => (
                Reply::Text {
                    text: answer.text,
                    elapsed_ms: answer.elapsed.as_millis() as u64,
                },
                answer.elapsed,
            ),
            Err(failure) => {
                let reply = match failure {
                    Failure::TimedOut { waited, .. } => (Reply::TimedOut, waited),
                    _ => (Reply::Crashed, Duration::ZERO),
                };
                *new_fault = Some(failure);
                reply
            }
        },
        _ => (Reply::Crashed, Duration::ZERO),
    }
}

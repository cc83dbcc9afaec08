//! Driving programs that are not ours: child processes and their sessions, the bot checker,
//! local matches, adapters (engines under test behind the JSON-lines protocol), differential
//! fuzzing, and the match log that `play --log` and `tap` write and `trace` reads.

pub mod adapter;
pub mod arena;
pub mod bot;
pub mod diff;
pub mod guard;
pub mod interrupt;
pub mod log;
pub mod mutate;
pub mod play;
pub mod process;
pub mod reaper;
pub mod referee;
pub mod replay;
pub mod seat_failure;
pub mod session;
pub mod tap;
pub mod trace;

//! Driving programs that are not ours: child processes (bots, external engine adapters).

pub mod adapter;
pub mod bot;
pub mod bot_report;
pub mod engine;
pub mod mutate;
pub mod play;
pub mod process;
pub mod session;

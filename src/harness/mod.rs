//! Driving programs that are not ours: child processes (bots, external engine adapters).

pub mod adapter;
pub mod engine;
pub mod process;

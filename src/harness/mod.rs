//! Driving programs that are not ours: child processes (bots, external engine adapters).

pub mod process;

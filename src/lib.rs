//! shinpan (審判, "referee"): a spec-conformance suite and protocol fuzzer for game-AI contest
//! games. For each game: a reference engine written from the rule document ([`games`]), a YAML
//! case library transcribed from it (`cases/`, loaded by [`case`]), and a harness that runs the
//! cases ([`check`]) and reports on them ([`report`]). Games are known only through [`game::Game`].

pub mod baseline;
pub mod case;
pub mod check;
pub mod diff;
pub mod expect_fail;
pub mod game;
pub mod games;
pub mod harness;
pub mod report;
pub mod rng;
pub mod selfplay;
pub mod stepfuzz;
pub mod text;

/// The crate version, part of every report's suite version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

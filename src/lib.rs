//! shinpan (審判, "referee"): a spec-conformance suite and protocol fuzzer for game-AI contest
//! games. For each game: a reference engine written from the rule document ([`games`]), a YAML
//! case library transcribed from it (`cases/`, loaded by [`case`], built into the crate), one
//! case runner for any engine under test ([`run`]), a harness for programs that are not ours
//! ([`harness`]: bots, adapters, differential fuzzing) and every report ([`report`]). Games are
//! known only through [`seam::Game`]; [`Suite`] runs the library inside an engine author's own
//! `cargo test`.
//!
//! Layers, each using only those below it: `report` → `harness` → `run` → `case` → `games`
//! (the registry) → `selfplay`, `stepfuzz`, `canonical` → `seam` (the seam every game implements) → `text`, `bounded`
//! (reading the files a user names), `fault` (a disk that fills, for tests).

pub mod bounded;
pub mod case;
pub mod cores;
pub mod fault;
pub mod games;
pub mod harness;
pub mod report;
pub mod run;
pub mod suite;

/// The JSON values of the engine API ([`run::EngineUnderTest`]), so that an engine author's crate
/// uses the same version.
pub use serde_json;
pub use shinpan_core::{canonical, rng, seam, selfplay, stepfuzz, text};
pub use suite::Suite;

/// The crate version, part of every report's suite version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

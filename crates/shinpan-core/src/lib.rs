//! The core of shinpan: the seam every game is played through ([`seam::Game`]), the canonical
//! form of a state ([`canonical`]), self-play ([`selfplay`]) and, with the feature `fuzz`, the
//! step fuzzer's bodies (`stepfuzz`), text and random helpers. No I/O and no processes: a game
//! crate depends on this one alone, and the harness, the case runner and the command line on
//! both. The feature `schema` adds the JSON Schemas of states (`seam::schemas_of`).

pub mod canonical;
pub mod rng;
pub mod seam;
pub mod selfplay;
#[cfg(feature = "fuzz")]
pub mod stepfuzz;
pub mod text;

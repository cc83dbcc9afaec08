//! The core of shinpan: the seam every game is played through ([`seam::Game`]), the canonical
//! form of a state ([`canonical`]), self-play ([`selfplay`]) and the step fuzzer's bodies
//! ([`stepfuzz`]), text and random helpers. No I/O and no processes: a game crate depends on
//! this one alone, and the harness, the case runner and the command line on both.

pub mod canonical;
pub mod rng;
pub mod seam;
pub mod selfplay;
pub mod stepfuzz;
pub mod text;

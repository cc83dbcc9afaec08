//! The result of `play --matches` (an arena): one struct, [`ArenaReport`], that every rendering
//! is made from (`arena_table.rs`: the human table, JSON and JUnit; it reads back from its JSON,
//! so another rendering can be made from a saved report).
//!
//! **Pairs.** A row per pair of contenders (by command line, whatever their seats), from the
//! first's side: wins, losses, draws, games. In a match of more than two players, a contender
//! beats another when it won the match; the outcome names only the winner, so the others rank
//! level and their pair counts it a draw. The win rate is wins / (wins + losses): draws are
//! reported apart and take no part in it, nor in its 95% interval ([`wilson`]).
//!
//! **Failures.** A crash, a time-out or an illegal reply is counted per contender apart from
//! its losses (at most one a match: the first, which ends what the program can do), and listed
//! with its match, step and the log to replay it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::harness::arena::KeepLogs;
use crate::harness::play::{FailureKind, MatchResult};

/// The most failures a report lists: the first in plan order. The others are counted
/// ([`FailureCounts`]) and their logs kept, but not listed, so that a run of a million matches
/// against a bot that always crashes holds a bounded report.
pub const LISTED_FAILURES: usize = 10_000;

/// z for a two-sided 95% interval: the 0.975 quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval at 95% for `successes` of `n` trials (Wilson 1927; the interval
/// of every binomial proportion in this report): `None` for no trial.
///
/// centre = (p + z²/2n) / (1 + z²/n), half-width = z·√(p(1−p)/n + z²/4n²) / (1 + z²/n).
pub fn wilson(successes: usize, n: usize) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (k, n) = (successes as f64, n as f64);
    let p = k / n;
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / n;
    let centre = p + z2 / (2.0 * n);
    let half = Z_95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some((
        ((centre - half) / denominator).max(0.0),
        ((centre + half) / denominator).min(1.0),
    ))
}

/// The result of an arena.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArenaReport {
    /// What the arena is (its fields are the report's own in its JSON).
    #[serde(flatten)]
    pub arena: ArenaHeader,
    /// The matches played to their end (all planned, unless interrupted).
    pub played: usize,
    pub pairs: Vec<PairRecord>,
    /// Per contender, its failures counted by kind.
    pub failure_counts: Vec<FailureCounts>,
    /// Every failure, by match (seed, then order), then seat; the first [`LISTED_FAILURES`]
    /// when there are more.
    pub failures: Vec<FailureRecord>,
    /// The failures counted but not listed (after the first [`LISTED_FAILURES`]).
    pub failures_unlisted: usize,
    /// Why the run stopped before its last match, if it did.
    pub interrupted: Option<String>,
}

/// One pair of contenders, from `a`'s side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRecord {
    pub a: usize,
    pub b: usize,
    pub games: usize,
    pub wins: usize,
    pub losses: usize,
    pub draws: usize,
    /// Of the games, those in which `a` (resp. `b`) crashed, timed out or replied illegally.
    pub a_failed: usize,
    pub b_failed: usize,
    /// wins / (wins + losses); `None` when every game was a draw.
    pub win_rate: Option<f64>,
    /// The 95% Wilson interval of the win rate, `[low, high]`.
    pub ci95: Option<[f64; 2]>,
}

/// A contender's failures, by kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureCounts {
    pub contender: usize,
    pub games: usize,
    pub crashes: usize,
    pub time_outs: usize,
    pub illegal: usize,
}

/// One crash, time-out or illegal reply, and where to replay it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRecord {
    pub contender: usize,
    pub kind: FailureKind,
    /// The match: its place in the plan, its seed and its seat order.
    pub match_index: usize,
    pub seed: u64,
    pub seats: Vec<usize>,
    pub seat: usize,
    /// The step of the log (`None`: the handshake, before the first step).
    pub step: Option<usize>,
    pub detail: String,
    /// The match's log (`trace GAME LOG` replays it).
    pub log: Option<PathBuf>,
}

/// What an arena is, before its matches: the header of its report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArenaHeader {
    pub game: String,
    /// The command lines, contender `i` being `#i+1` in the human table.
    pub contenders: Vec<String>,
    pub first_seed: u64,
    /// How many seeds: `first_seed` and those after it.
    pub seeds: usize,
    /// The seat orders each seed is played in (`orders[k][s]`: the contender in seat `s`).
    pub orders: Vec<Vec<usize>>,
    /// Seeds times orders.
    pub planned: usize,
    pub jobs: usize,
    pub log_dir: PathBuf,
    pub logs_kept: KeepLogs,
}

impl ArenaReport {
    /// No match played yet.
    pub fn new(header: ArenaHeader) -> ArenaReport {
        let n = header.contenders.len();
        let pairs = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .map(|(a, b)| PairRecord {
                a,
                b,
                games: 0,
                wins: 0,
                losses: 0,
                draws: 0,
                a_failed: 0,
                b_failed: 0,
                win_rate: None,
                ci95: None,
            })
            .collect();
        ArenaReport {
            arena: header,
            played: 0,
            pairs,
            failure_counts: (0..n)
                .map(|contender| FailureCounts {
                    contender,
                    games: 0,
                    crashes: 0,
                    time_outs: 0,
                    illegal: 0,
                })
                .collect(),
            failures: Vec::new(),
            failures_unlisted: 0,
            interrupted: None,
        }
    }

    /// Adds the `index`th match of the plan, logged to `log` if its log was kept. Matches may
    /// come in any order: [`ArenaReport::finish`] puts the failures in plan order.
    pub fn add(&mut self, index: usize, m: &MatchResult, log: Option<PathBuf>) {
        self.played += 1;
        let failed = |c: usize| {
            m.seats
                .iter()
                .zip(&m.failures)
                .any(|(&s, f)| s == c && f.is_some())
        };
        for pair in &mut self.pairs {
            pair.games += 1;
            match m.winner {
                Some(w) if w == pair.a => pair.wins += 1,
                Some(w) if w == pair.b => pair.losses += 1,
                _ => pair.draws += 1,
            }
            pair.a_failed += usize::from(failed(pair.a));
            pair.b_failed += usize::from(failed(pair.b));
        }
        for (seat, (&contender, failure)) in m.seats.iter().zip(&m.failures).enumerate() {
            let counts = &mut self.failure_counts[contender];
            counts.games += 1;
            let Some(failure) = failure else { continue };
            *match failure.kind {
                FailureKind::Crash => &mut counts.crashes,
                FailureKind::TimeOut => &mut counts.time_outs,
                FailureKind::Illegal => &mut counts.illegal,
            } += 1;
            self.failures.push(FailureRecord {
                contender,
                kind: failure.kind,
                match_index: index,
                seed: m.seed,
                seats: m.seats.clone(),
                seat,
                step: failure.step,
                detail: failure.detail.clone(),
                log: log.clone(),
            });
        }
        if self.failures.len() >= 2 * LISTED_FAILURES {
            self.keep_the_first_failures();
        }
    }

    /// Keeps the first [`LISTED_FAILURES`] failures in plan order.
    fn keep_the_first_failures(&mut self) {
        self.failures.sort_by_key(|f| (f.match_index, f.seat));
        self.failures.truncate(LISTED_FAILURES);
    }

    /// Works out the win rates and their intervals, and puts the failures in plan order.
    pub fn finish(&mut self, interrupted: Option<String>) {
        for pair in &mut self.pairs {
            let decided = pair.wins + pair.losses;
            pair.win_rate = (decided > 0).then(|| pair.wins as f64 / decided as f64);
            pair.ci95 = wilson(pair.wins, decided).map(|(low, high)| [low, high]);
        }
        self.keep_the_first_failures();
        let counted: usize = self
            .failure_counts
            .iter()
            .map(|c| c.crashes + c.time_outs + c.illegal)
            .sum();
        self.failures_unlisted = counted - self.failures.len();
        self.interrupted = interrupted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(found: (f64, f64), expected: (f64, f64)) -> bool {
        (found.0 - expected.0).abs() < 5e-5 && (found.1 - expected.1).abs() < 5e-5
    }

    /// Worked by hand with z = 1.96 (z² = 3.8416); the last digit of each bound may move with
    /// z's further digits, within the tolerance of `close`.
    #[test]
    fn wilson_intervals_worked_by_hand() {
        // 5 of 10: p = 0.5; z²/n = 0.38416, so the denominator is 1.38416; the centre's
        // numerator 0.5 + 0.19208 = 0.69208; p(1-p)/n + z²/4n² = 0.025 + 0.009604 = 0.034604,
        // √ = 0.186021, × 1.96 = 0.364601. (0.69208 ∓ 0.364601) / 1.38416 = 0.23659, 0.76341.
        assert!(close(wilson(5, 10).unwrap(), (0.23659, 0.76341)));
        // 8 of 10: p = 0.8; numerator 0.8 + 0.19208 = 0.99208; 0.016 + 0.009604 = 0.025604,
        // √ = 0.160012, × 1.96 = 0.313624. (0.99208 ∓ 0.313624) / 1.38416 = 0.49016, 0.94332.
        assert!(close(wilson(8, 10).unwrap(), (0.49016, 0.94332)));
        // 0 of 40: p = 0; z²/n = 0.09604, denominator 1.09604; numerator 0 + 0.04802;
        // √(0 + 3.8416/6400) = 0.0245, × 1.96 = 0.04802. (0.04802 ∓ 0.04802) / 1.09604 = 0,
        // 0.087625. And 40 of 40 is its mirror: 1 − 0.087625 = 0.912375, 1.
        assert!(close(wilson(0, 40).unwrap(), (0.0, 0.087625)));
        assert!(close(wilson(40, 40).unwrap(), (0.912375, 1.0)));
        assert_eq!(wilson(0, 0), None);
    }
}

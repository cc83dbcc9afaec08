//! `play --matches`: an arena. Every seed of a range is played once in every seat order of the
//! contenders (two orders for two players, six for three), so that no contender gains by its
//! seat, and the matches run on `jobs` worker threads at once, each match with programs of its
//! own. Each match is logged to a file of its own in the log directory ([`log_name`]: by seed and
//! seat order), the format of `play --log` that `trace` reads, so that every failure can be
//! replayed; the logs of matches where no program failed are deleted unless all are kept.
//!
//! The matches are a queue: a worker takes the next one when it is free, so they end in an
//! order timing decides. What this module hands on carries the match's place in the plan (seed,
//! then seat order); whoever adds the results up puts them back in that order. Memory does not
//! grow with the number of matches: a match's log goes to its file as it is played, and a
//! result is handed on as soon as it ends.
//!
//! An interrupt stops every worker before its next match; a match under way is cut short (its
//! log ends with an `interrupted` record) and not counted. A program that cannot start stops the
//! run: the workers start no new match, and the error of the earliest such match in the plan is
//! returned.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::{Deserialize, Serialize};

use crate::harness::interrupt;
use crate::harness::play::{play_match, Contender, MatchError, MatchResult, PlayOptions, Round};
use crate::seam::{DynGame, MatchOptions};

/// Every seed of `first_seed..first_seed + seeds`, each in every seat order.
#[derive(Debug, Clone)]
pub struct ArenaPlan {
    pub first_seed: u64,
    pub seeds: usize,
    /// The seat orders: `orders[k][s]` is the contender in seat `s` in the `k`th order.
    pub orders: Vec<Vec<usize>>,
    pub options: MatchOptions,
}

impl ArenaPlan {
    pub fn new(first_seed: u64, seeds: usize, players: usize, options: MatchOptions) -> ArenaPlan {
        ArenaPlan {
            first_seed,
            seeds,
            orders: seat_orders(players),
            options,
        }
    }

    /// How many matches: seeds times orders (`None` if that does not fit a `usize`).
    pub fn matches(&self) -> Option<usize> {
        self.seeds.checked_mul(self.orders.len())
    }

    /// The `index`th match: seed by seed, and within a seed order by order.
    pub fn round(&self, index: usize) -> Round {
        let per_seed = self.orders.len().max(1);
        Round {
            seed: self.first_seed.wrapping_add((index / per_seed) as u64),
            seats: self.orders[index % per_seed].clone(),
            options: self.options.clone(),
            label: String::new(),
            in_series: false,
        }
    }
}

/// Every order of `players` contenders in their seats, in lexicographic order: `[0, 1]`,
/// `[1, 0]` for two; `[0, 1, 2]`, `[0, 2, 1]`, `[1, 0, 2]`, … for three.
pub fn seat_orders(players: usize) -> Vec<Vec<usize>> {
    fn extend(prefix: &mut Vec<usize>, players: usize, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == players {
            out.push(prefix.clone());
            return;
        }
        for c in 0..players {
            if !prefix.contains(&c) {
                prefix.push(c);
                extend(prefix, players, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::with_capacity(players), players, &mut out);
    out
}

/// Which match logs stay in the log directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeepLogs {
    /// Only those of matches where a program crashed, timed out or replied illegally.
    Failures,
    All,
}

/// Where the matches are logged, and which logs stay.
#[derive(Debug, Clone)]
pub struct ArenaLogs {
    pub dir: PathBuf,
    pub keep: KeepLogs,
}

/// The file a match is logged to: its seed and the contenders in seat order, numbered from 1
/// as the report numbers them (`seed-7-seats-2-1.jsonl`: #2 in seat 0, #1 in seat 1).
pub fn log_name(round: &Round) -> String {
    let seats: Vec<String> = round.seats.iter().map(|c| (c + 1).to_string()).collect();
    format!("seed-{}-seats-{}.jsonl", round.seed, seats.join("-"))
}

/// One match of the arena, ended.
#[derive(Debug, Clone)]
pub struct Played {
    /// Its place in the plan ([`ArenaPlan::round`]).
    pub index: usize,
    pub result: MatchResult,
    /// Its log, if it was kept.
    pub log: Option<PathBuf>,
}

/// How the run of an arena went, beside its matches.
#[derive(Debug, Clone, Default)]
pub struct ArenaRun {
    pub played: usize,
    /// Why it stopped before its last match (`interrupted by SIGINT after 12 of 40 matches`).
    pub interrupted: Option<String>,
}

/// What a worker sends back: a match's place and what became of it.
type Sent = (usize, Result<Option<Played>, MatchError>);

/// Plays every match of `plan` between `contenders` on `jobs` workers, logging each to `logs`,
/// and hands each to `ended` on the calling thread as it ends (in the order they end: see the
/// module's page).
pub fn run_arena(
    game: &dyn DynGame,
    contenders: &[Contender],
    plan: &ArenaPlan,
    options: &PlayOptions,
    jobs: usize,
    logs: &ArenaLogs,
    mut ended: impl FnMut(Played),
) -> Result<ArenaRun, MatchError> {
    let total = plan.matches().unwrap_or(usize::MAX);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<Sent>();
    let mut run = ArenaRun::default();
    let mut first_error: Option<(usize, MatchError)> = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) || interrupt::received().is_some() {
                    break;
                }
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= total {
                    break;
                }
                let played = play_logged(game, contenders, plan, index, options, logs);
                let go_on = matches!(played, Ok(Some(_)));
                if !go_on {
                    stop.store(true, Ordering::SeqCst);
                }
                if sender.send((index, played)).is_err() || !go_on {
                    break;
                }
            });
        }
        drop(sender);
        for (index, played) in results {
            match played {
                Ok(Some(played)) => {
                    run.played += 1;
                    ended(played);
                }
                Ok(None) => {}
                Err(e) => {
                    if first_error.as_ref().is_none_or(|(i, _)| index < *i) {
                        first_error = Some((index, e));
                    }
                }
            }
        }
    });
    if let Some((_, e)) = first_error {
        return Err(e);
    }
    if let Some(why) = interrupt::reason() {
        run.interrupted = Some(format!(
            "{why} after {} of {total} matches (a match under way is not counted)",
            run.played
        ));
    }
    Ok(run)
}

/// Plays the `index`th match of `plan` with its log in its own file; deletes the log when it
/// is not to be kept.
fn play_logged(
    game: &dyn DynGame,
    contenders: &[Contender],
    plan: &ArenaPlan,
    index: usize,
    options: &PlayOptions,
    logs: &ArenaLogs,
) -> Result<Option<Played>, MatchError> {
    let round = plan.round(index);
    let path = logs.dir.join(log_name(&round));
    let named = |e: std::io::Error| {
        MatchError::Log(std::io::Error::new(
            e.kind(),
            format!("{}: {e}", path.display()),
        ))
    };
    let mut file = File::create(&path).map(BufWriter::new).map_err(named)?;
    let result = play_match(game, contenders, index, &round, options, Some(&mut file));
    file.flush().map_err(named)?;
    drop(file);
    let result = match result {
        Ok(result) => result,
        Err(e) => {
            forget(&path, logs.keep);
            return Err(e);
        }
    };
    let Some(result) = result else {
        forget(&path, logs.keep);
        return Ok(None);
    };
    let failed = result.failures.iter().any(Option::is_some);
    let log = if failed || logs.keep == KeepLogs::All {
        Some(path)
    } else {
        forget(&path, logs.keep);
        None
    };
    Ok(Some(Played { index, result, log }))
}

/// Deletes a log that is not to be kept (any failure to is harmless: a file too many).
fn forget(path: &Path, keep: KeepLogs) {
    if keep == KeepLogs::Failures {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seat_order_once() {
        assert_eq!(seat_orders(2), vec![vec![0, 1], vec![1, 0]]);
        let three = seat_orders(3);
        assert_eq!(three.len(), 6);
        assert_eq!(three[0], [0, 1, 2]);
        assert_eq!(three[1], [0, 2, 1]);
        assert_eq!(three[5], [2, 1, 0]);
        let unique: std::collections::BTreeSet<&Vec<usize>> = three.iter().collect();
        assert_eq!(unique.len(), 6, "{three:?}");
        assert!(three.iter().all(|o| {
            let mut sorted = o.clone();
            sorted.sort_unstable();
            sorted == [0, 1, 2]
        }));
    }

    #[test]
    fn the_plan_goes_seed_by_seed_then_order_by_order() {
        let plan = ArenaPlan::new(5, 3, 2, MatchOptions::default());
        assert_eq!(plan.matches(), Some(6));
        let rounds: Vec<(u64, Vec<usize>)> = (0..6)
            .map(|i| plan.round(i))
            .map(|r| (r.seed, r.seats))
            .collect();
        assert_eq!(
            rounds,
            [
                (5, vec![0, 1]),
                (5, vec![1, 0]),
                (6, vec![0, 1]),
                (6, vec![1, 0]),
                (7, vec![0, 1]),
                (7, vec![1, 0]),
            ]
        );
        assert_eq!(log_name(&plan.round(3)), "seed-6-seats-2-1.jsonl");
    }
}

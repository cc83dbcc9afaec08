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
//! log ends with an `interrupted` record) and not counted. A program that cannot start, or a log
//! that cannot be written (a full disk), stops the run: the workers start no new match, and the
//! run says why, with the error of the earliest such match in the plan, beside the matches
//! played to their end. A log a write failed in is cut back to its last whole record and, when
//! there is room for it, ended with an `interrupted` record saying why (`conformance/TRACES.md`).
//!
//! A log is created as a new file, never through what is already at its name: a symbolic link
//! there is not followed. Only with [`ArenaLogs::replace`] is what is there (a file, a link)
//! removed first, and a link's target is left as it was.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::fault::Disk;
use crate::harness::interrupt;
use crate::harness::log::{now_us, record_line};
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
    /// Whether a match's log replaces what is at its name (`--replace-logs`): a file, or a
    /// symbolic link (the link, not its target). Otherwise a name already taken stops the run.
    pub replace: bool,
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
#[derive(Debug, Default)]
pub struct ArenaRun {
    pub played: usize,
    /// Why it stopped before its last match (`interrupted by SIGINT after 12 of 40 matches`,
    /// `stopped after 3 of 40 matches: …: No space left on device`).
    pub interrupted: Option<String>,
    /// What stopped it, when the tool could not do its job (a program that cannot start, a log
    /// that cannot be written): the error of the earliest such match in the plan.
    pub error: Option<MatchError>,
}

/// What a worker sends back: a match's place and what became of it.
type Sent = (usize, Result<Option<Played>, MatchError>);

/// Plays every match of `plan` between `contenders` on `jobs` workers, logging each to `logs`,
/// and hands each to `ended` on the calling thread as it ends (in the order they end: see the
/// module's page). What stopped the run early, if anything did, is in the [`ArenaRun`].
pub fn run_arena(
    game: &dyn DynGame,
    contenders: &[Contender],
    plan: &ArenaPlan,
    options: &PlayOptions,
    jobs: usize,
    logs: &ArenaLogs,
    mut ended: impl FnMut(Played),
) -> ArenaRun {
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
        run.interrupted = Some(format!(
            "stopped after {} of {total} matches: {e} (a match under way is not counted)",
            run.played
        ));
        run.error = Some(e);
    } else if let Some(why) = interrupt::reason() {
        run.interrupted = Some(format!(
            "{why} after {} of {total} matches (a match under way is not counted)",
            run.played
        ));
    }
    run
}

/// Plays the `index`th match of `plan` with its log in its own file; deletes the log when it
/// is not to be kept. A log a write failed in is cut back to its last whole record ([`cut`]).
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
    let file = create_log(&path, logs.replace).map_err(named)?;
    let mut log = BufWriter::new(LogFile {
        file: Disk::new(file),
        written: 0,
        whole: 0,
    });
    let result = play_match(game, contenders, index, &round, options, Some(&mut log));
    let result = match (result, log.flush()) {
        (Err(MatchError::Log(e)), _) | (Ok(_), Err(e)) => {
            let marked = cut(log, index, &e);
            return Err(MatchError::Log(std::io::Error::new(
                e.kind(),
                format!("{}: {e}; {marked}", path.display()),
            )));
        }
        (result, _) => result,
    };
    drop(log);
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

/// A new file at `path`, never what is there already: a name taken (by a file, or by a
/// symbolic link, which is not followed) is an error, unless `replace`, where the entry at the
/// name (the link itself, never its target) is removed first.
fn create_log(path: &Path, replace: bool) -> std::io::Result<File> {
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(path)
    };
    match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && replace => {
            std::fs::remove_file(path)?;
            create()
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(std::io::Error::new(
            e.kind(),
            "a file of this name is already in the log directory (written since the run \
             began?); it is not replaced without --replace-logs",
        )),
        created => created,
    }
}

/// A match's log file, which knows where its last whole record ends.
struct LogFile {
    file: Disk<File>,
    /// The bytes written, and those of whole records (up to the last line break written).
    written: u64,
    whole: u64,
}

impl Write for LogFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(bytes)?;
        if let Some(end) = bytes[..n].iter().rposition(|&b| b == b'\n') {
            self.whole = self.written + end as u64 + 1;
        }
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Cuts the log of match `index`, which `error` stopped, back to its last whole record (what
/// was not written of the buffer is dropped), and ends it with an `interrupted` record saying
/// why, when there is room for it: says which it did.
fn cut(log: BufWriter<LogFile>, index: usize, error: &std::io::Error) -> String {
    let (mut log, _unwritten) = log.into_parts();
    let whole = log.whole;
    let back = |file: &mut File| {
        file.set_len(whole)
            .and_then(|()| file.seek(SeekFrom::Start(whole)).map(|_| ()))
    };
    if back(log.file.get_mut()).is_err() {
        return "its log may end in a record cut short".into();
    }
    let record = json!({"event": "interrupted", "match": index, "t_us": now_us(),
                        "why": format!("the log could not be written: {error}")});
    let marked = log
        .file
        .write_all(record_line(&record).as_bytes())
        .and_then(|()| log.file.flush());
    match marked {
        Ok(()) => "its log ends with an `interrupted` record".into(),
        Err(_) => {
            let _ = back(log.file.get_mut());
            "its log ends at its last whole record, with no `end`".into()
        }
    }
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

//! Running the selected cases of a library: on one engine, or on several at once, one worker
//! thread each (`check --jobs N`).
//!
//! **The deal.** With N engines, each worker runs a fixed share of the cases, in library order:
//! a deal made before the run from the cases alone, not a queue. A generator case weighs its
//! seeds, any other case 1; the heaviest are dealt first, each to the worker with the least
//! weight so far (the lowest-numbered on a tie), so that a few generator cases of a thousand
//! seeds do not all fall to one worker; cases of equal weight are dealt in turn (worker `w` of N
//! gets the cases `w`, `w + N`, …). So each engine is asked the same requests in the same order
//! whatever the timing, and an engine whose answers depend on what it was asked before (an
//! adapter restarted after a failure, one that counts its requests, one that gives up) gives
//! the same report from run to run. The results are put back in library order; the report does
//! not depend on which worker finished first. One engine is the deal with N = 1, run on the
//! calling thread: the cases one after another, as before there were workers.
//!
//! **Stopping.** The report is always a prefix of the selected cases, in library order:
//! - an engine whose requests fail the same way [`GIVE_UP_AFTER`] times in a row is given up
//!   on, the requests counted over the cases in library order, whichever worker's engine was
//!   asked ([`EngineUnderTest::requests`]: a case whose requests all failed one way adds them
//!   to the count, when the count is of that way; one whose last request went well ends it):
//!   the run ends after the case where the count reaches it, whatever N (an adapter that
//!   crashes on every request: after 5 cases with one request each, at `--jobs 1` as at 4);
//! - an engine that gives up after case `k` ([`EngineUnderTest::gave_up`]) ends the run at
//!   `k`: every worker still runs its cases before `k` and starts none after it; the report
//!   has the cases up to `k` (`stopped after k + 1 of TOTAL cases: …`);
//! - an interrupt (`interrupted` gives a reason) stops every worker before its next case; a
//!   case under way when it came is cut short and left out. The report has the cases finished
//!   in library order up to the first one that did not (`… after i of TOTAL cases`, `i` that
//!   prefix), and says which case was cut short there and how many that finished later are
//!   left out;
//! - a worker that panics (outside an engine's request, which [`run_case`] already catches)
//!   stops the others before their next case, and the panic goes on in the calling thread
//!   once they have all ended (the engines, dropped there, end their processes).
//!
//! `progress` is called on the calling thread as each case finishes, in the order they finish,
//! with the number finished so far (it only grows) and the total.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use super::engine::Requests;
use super::{run_case, select, CaseResult, EngineUnderTest};
use crate::case::{Case, CaseBody, Library};
use crate::seam::DynGame;

/// After this many requests in a row that failed the same way, counted over the cases in
/// library order, the engine is given up on: it hangs on every request, or cannot start.
pub const GIVE_UP_AFTER: usize = 5;

/// The results of a run of the library.
#[derive(Debug, Clone)]
pub struct LibraryRun {
    /// The cases run, in library order: all those selected, or a prefix of them when the run
    /// stopped early.
    pub results: Vec<CaseResult>,
    /// Why the run stopped before its last case (the engine gave up, a signal), if it did.
    pub stopped: Option<String>,
    /// How many cases were selected.
    pub selected: usize,
}

/// Runs every case whose name contains `filter` on `engine`, calling `progress` after each
/// with its result, the number done and the total; stops early when the engine gives up.
pub fn run_library(
    library: &Library,
    filter: Option<&str>,
    engine: &mut dyn EngineUnderTest,
    progress: impl FnMut(&CaseResult, usize, usize),
) -> LibraryRun {
    run_library_until(library, filter, engine, progress, || None)
}

/// [`run_library`], also stopping when `interrupted` gives a reason (`interrupted by SIGINT`).
/// The case under way when it does is left out of the results: what it met was the stop.
pub fn run_library_until(
    library: &Library,
    filter: Option<&str>,
    engine: &mut dyn EngineUnderTest,
    progress: impl FnMut(&CaseResult, usize, usize),
    interrupted: impl Fn() -> Option<String>,
) -> LibraryRun {
    let cases = select(library, filter);
    let deal = Deal::new(&cases, 1);
    let mut collected = Collected::new(cases.len(), &deal.limit, progress);
    work(engine, 0, &deal, &interrupted, |event| {
        collected.take(event)
    });
    collected.finish(&cases)
}

/// [`run_library_until`] on every engine of `engines` at once, one worker thread each (see the
/// module's doc for who runs what and how the run stops). The results are the same as one
/// engine's, in the same order, for engines whose answers depend only on the request. With
/// one engine, it runs on the calling thread.
///
/// # Panics
///
/// When `engines` is empty, or (once every worker has ended) with a worker's own panic.
pub fn run_library_jobs(
    library: &Library,
    filter: Option<&str>,
    engines: &mut [Box<dyn EngineUnderTest + Send>],
    progress: impl FnMut(&CaseResult, usize, usize),
    interrupted: impl Fn() -> Option<String> + Sync,
) -> LibraryRun {
    assert!(!engines.is_empty(), "a run needs at least one engine");
    if let [engine] = engines {
        return run_library_until(library, filter, engine.as_mut(), progress, interrupted);
    }
    let cases = select(library, filter);
    let deal = Deal::new(&cases, engines.len());
    let mut collected = Collected::new(cases.len(), &deal.limit, progress);
    let panicked = std::thread::scope(|scope| {
        // Should `progress` panic here, the workers stop before their next case too.
        let _stop = StopOnPanic(&deal.limit);
        let (sender, events) = mpsc::channel();
        let workers: Vec<_> = engines
            .iter_mut()
            .enumerate()
            .map(|(worker, engine)| {
                let sender = sender.clone();
                let (deal, interrupted) = (&deal, &interrupted);
                scope.spawn(move || {
                    work(engine.as_mut(), worker, deal, interrupted, |event| {
                        // The receiver lives until every worker has ended.
                        let _ = sender.send(event);
                    })
                })
            })
            .collect();
        drop(sender);
        for event in events {
            collected.take(event);
        }
        // The first worker's panic, once all of them have ended.
        workers.into_iter().find_map(|worker| worker.join().err())
    });
    if let Some(panic) = panicked {
        std::panic::resume_unwind(panic);
    }
    collected.finish(&cases)
}

/// The selected cases, each worker's share of them, and the first case no worker may start.
struct Deal<'c, 'l> {
    cases: &'c [(&'static dyn DynGame, &'l Case)],
    /// The positions of each worker's cases, in library order.
    shares: Vec<Vec<usize>>,
    /// Lowered to `k + 1` when an engine gives up after case `k`, to 0 when a worker panics.
    limit: AtomicUsize,
}

impl<'c, 'l> Deal<'c, 'l> {
    fn new(cases: &'c [(&'static dyn DynGame, &'l Case)], workers: usize) -> Self {
        Deal {
            cases,
            shares: shares(cases, workers),
            limit: AtomicUsize::new(cases.len()),
        }
    }
}

/// Each of `workers` workers' cases, in library order: the heaviest dealt first (a generator
/// case weighs its seeds, any other case 1), each to the worker with the least weight so far,
/// the lowest-numbered on a tie. It depends on the cases alone, never on timing.
fn shares(cases: &[(&'static dyn DynGame, &Case)], workers: usize) -> Vec<Vec<usize>> {
    let weight = |index: usize| match &cases[index].1.body {
        CaseBody::Generate { seeds, .. } => (*seeds).max(1),
        _ => 1,
    };
    let mut heaviest_first: Vec<usize> = (0..cases.len()).collect();
    heaviest_first.sort_by_key(|&index| std::cmp::Reverse(weight(index)));
    let mut loads = vec![0u64; workers];
    let mut shares = vec![Vec::new(); workers];
    for index in heaviest_first {
        // `min_by_key` gives the first of equal loads: the lowest-numbered worker.
        let worker = (0..workers).min_by_key(|&w| loads[w]).unwrap_or(0);
        loads[worker] += weight(index);
        shares[worker].push(index);
    }
    for share in &mut shares {
        share.sort_unstable();
    }
    shares
}

/// What a worker tells the run, in the order it happened to that worker.
enum Event {
    /// Case `index` finished (boxed: a result is large, the other events small), and what
    /// became of its requests.
    Judged(usize, Box<CaseResult>, CaseRequests),
    /// The engine gave up after case `index` (already sent as judged): why.
    GaveUp(usize, String),
    /// The worker stopped for `why`; `cut_short`, the case under way when it came.
    Interrupted {
        why: String,
        cut_short: Option<usize>,
    },
}

/// One worker: the cases of its deal, in order, on `engine`, until they are done or the run
/// stops.
fn work(
    engine: &mut dyn EngineUnderTest,
    worker: usize,
    deal: &Deal,
    interrupted: &impl Fn() -> Option<String>,
    mut send: impl FnMut(Event),
) {
    let _stop = StopOnPanic(&deal.limit);
    for &index in &deal.shares[worker] {
        if index >= deal.limit.load(Ordering::SeqCst) {
            return;
        }
        if let Some(why) = interrupted() {
            return send(Event::Interrupted {
                why,
                cut_short: None,
            });
        }
        let (game, case) = deal.cases[index];
        let before = engine.requests();
        let judged = run_case(game, case, engine);
        let requests = CaseRequests::of(before, engine.requests());
        if let Some(why) = interrupted() {
            return send(Event::Interrupted {
                why,
                cut_short: Some(index),
            });
        }
        let result = CaseResult::of(case, game.info().id, judged);
        send(Event::Judged(index, Box::new(result), requests));
        if let Some(why) = engine.gave_up() {
            deal.limit.fetch_min(index + 1, Ordering::SeqCst);
            return send(Event::GaveUp(index, why));
        }
    }
}

/// Stops every worker before its next case when the thread holding it panics.
struct StopOnPanic<'a>(&'a AtomicUsize);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(0, Ordering::SeqCst);
        }
    }
}

/// What became of a case's requests, as the count of failures in a row takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CaseRequests {
    /// It asked nothing: the count is as it was.
    None,
    /// Its last request went well: the count ends.
    EndedWell,
    /// Every request it asked failed this way: so many more, if the count is of that way.
    AllFailed(&'static str, u64),
    /// Its last requests failed this way, after one that did not: the count starts again.
    EndedFailing(&'static str, u64),
}

impl CaseRequests {
    /// From the engine's requests before the case and after it.
    fn of(before: Requests, after: Requests) -> CaseRequests {
        let asked = after.asked.saturating_sub(before.asked);
        match after.failing {
            _ if asked == 0 => CaseRequests::None,
            None => CaseRequests::EndedWell,
            Some((kind, since)) if since <= before.asked => CaseRequests::AllFailed(kind, asked),
            Some((kind, since)) => CaseRequests::EndedFailing(kind, after.asked - since),
        }
    }
}

/// The results as they come, in library order, and what stopped the run.
struct Collected<'l, P> {
    results: Vec<Option<CaseResult>>,
    /// What became of each case's requests, kept until the count in library order reaches it.
    requests: Vec<Option<CaseRequests>>,
    /// The cases counted so far (a prefix of the library), and the failures in a row they end
    /// with: their way and number.
    counted: usize,
    in_a_row: Option<(&'static str, u64)>,
    /// The first case no worker may start, lowered when the count gives up.
    limit: &'l AtomicUsize,
    done: usize,
    progress: P,
    /// The earliest case an engine gave up after, and why.
    gave_up: Option<(usize, String)>,
    /// The first interrupt's reason.
    interrupted: Option<String>,
    cut_short: Vec<usize>,
}

impl<'l, P: FnMut(&CaseResult, usize, usize)> Collected<'l, P> {
    fn new(total: usize, limit: &'l AtomicUsize, progress: P) -> Self {
        Collected {
            results: vec![None; total],
            requests: vec![None; total],
            counted: 0,
            in_a_row: None,
            limit,
            done: 0,
            progress,
            gave_up: None,
            interrupted: None,
            cut_short: Vec::new(),
        }
    }

    fn take(&mut self, event: Event) {
        match event {
            Event::Judged(index, result, requests) => {
                self.done += 1;
                (self.progress)(&result, self.done, self.results.len());
                self.results[index] = Some(*result);
                self.requests[index] = Some(requests);
                self.count_failures();
            }
            Event::GaveUp(index, why) => {
                if self.gave_up.as_ref().is_none_or(|(k, _)| index < *k) {
                    self.gave_up = Some((index, why));
                }
            }
            Event::Interrupted { why, cut_short } => {
                self.interrupted.get_or_insert(why);
                self.cut_short.extend(cut_short);
            }
        }
    }

    /// Counts the failed requests in a row over the finished cases, in library order, as far
    /// as they go without a gap; gives up after the case where they reach [`GIVE_UP_AFTER`].
    fn count_failures(&mut self) {
        if self
            .in_a_row
            .is_some_and(|(_, n)| n >= GIVE_UP_AFTER as u64)
        {
            return;
        }
        while let Some(Some(requests)) = self.requests.get(self.counted) {
            let k = self.counted;
            self.counted += 1;
            self.in_a_row = match (*requests, self.in_a_row) {
                (CaseRequests::None, count) => count,
                (CaseRequests::EndedWell, _) => None,
                (CaseRequests::AllFailed(kind, n), Some((was, m))) if was == kind => {
                    Some((kind, m + n))
                }
                (CaseRequests::AllFailed(kind, n) | CaseRequests::EndedFailing(kind, n), _) => {
                    Some((kind, n))
                }
            };
            let Some((kind, n)) = self.in_a_row.filter(|(_, n)| *n >= GIVE_UP_AFTER as u64) else {
                continue;
            };
            if self.gave_up.as_ref().is_none_or(|(g, _)| k < *g) {
                self.limit.fetch_min(k + 1, Ordering::SeqCst);
                self.gave_up = Some((
                    k,
                    format!(
                        "the engine failed {n} requests in a row the same way ({kind}); the \
                         remaining cases were not run"
                    ),
                ));
            }
            return;
        }
    }

    /// The prefix of finished cases, in library order, up to the first gap (or to the case an
    /// engine gave up after), and why the run stopped there.
    fn finish(self, cases: &[(&'static dyn DynGame, &Case)]) -> LibraryRun {
        let total = self.results.len();
        let limit = self.gave_up.as_ref().map_or(total, |(k, _)| k + 1);
        let mut finished = self.results.into_iter().take(limit);
        let results: Vec<CaseResult> = finished.by_ref().map_while(|r| r).collect();
        let at = results.len();
        let stopped = if at < limit {
            let why = self.interrupted.unwrap_or_else(|| "stopped".into());
            let mut notes = Vec::new();
            if self.cut_short.contains(&at) {
                notes.push(format!("{} was cut short", cases[at].1.name));
            }
            let later = finished.flatten().count();
            if later > 0 {
                notes.push(format!(
                    "{later} later case(s) that finished are left out, to report a prefix"
                ));
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            };
            Some(format!("{why} after {at} of {total} cases{notes}"))
        } else {
            self.gave_up
                .map(|(_, why)| format!("stopped after {limit} of {total} cases: {why}"))
        };
        let mut results = results;
        super::refute::refute_by_passing_cases(cases, &mut results);
        LibraryRun {
            results,
            stopped,
            selected: total,
        }
    }
}

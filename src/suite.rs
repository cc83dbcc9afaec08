//! The case library as a test suite inside an engine author's own `cargo test`, in the manner
//! of toml-test-harness: shinpan as a dev-dependency, a test target with `harness = false`, and
//!
//! ```ignore
//! fn main() -> std::process::ExitCode {
//!     shinpan::Suite::new("codevs-reborn", MyEngine::default())
//!         .expect_fail("codevs-reborn/skill/*", "no skill yet")
//!         .run()
//! }
//! ```
//!
//! `MyEngine` implements [`EngineUnderTest`]: the adapter protocol's requests, in-process, in
//! canonical JSON. Every case is one libtest trial named `game/file/case-id`, so `cargo test --
//! three-chain` filters as usual. A case the engine answers `unsupported` is an ignored trial; a
//! listed expected failure passes; a listed case that passes fails, so the list cannot go stale.
//! The library is the one built into shinpan unless [`Suite::cases`] names a directory.

use std::path::PathBuf;
use std::process::ExitCode;

use libtest_mimic::{Arguments, Completion, Failed, Trial};

use crate::case::{load_library, Library, LoadError, LoadOptions, Source};
use crate::run::expect_fail::{Entry, ExpectFail};
use crate::run::{
    check_unmodelled, run_case, run_library_jobs, select, CaseResult, CaseVerdict, EngineUnderTest,
    LibraryRun, Reference,
};
use crate::seam::DynGame;

/// The case library of some games, to be run on one engine.
pub struct Suite<E> {
    games: Result<Vec<&'static dyn DynGame>, String>,
    engine: E,
    expect_fail: ExpectFail,
    source: Source,
    /// [`Suite::jobs`]: how many engines run the cases at once, and how one more is made.
    workers: Option<(usize, Fork<E>)>,
}

/// A copy of the engine for one more worker.
type Fork<E> = fn(&E) -> Box<dyn EngineUnderTest + Send>;

impl Suite<Reference> {
    /// Every game's cases on the reference engines, on every core: shinpan's own conformance
    /// target.
    pub fn reference() -> Suite<Reference> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Suite {
            games: Ok(crate::games::all()),
            engine: Reference,
            expect_fail: ExpectFail::default(),
            source: Source::Embedded,
            workers: None,
        }
        .jobs(cores)
    }
}

impl<E: EngineUnderTest + Clone + Send + 'static> Suite<E> {
    /// Runs the cases on `jobs` copies of the engine at once, as `check --jobs` does: the
    /// results are the same, in library order, for an engine whose answers depend only on the
    /// request. As in `check`, the run stops when an engine gives up
    /// ([`EngineUnderTest::gave_up`]); each case it did not reach is an error. Without `jobs`,
    /// the engine itself runs every case on the calling thread.
    pub fn jobs(mut self, jobs: usize) -> Suite<E> {
        let fork: Fork<E> = |engine| Box::new(engine.clone());
        self.workers = Some((jobs.max(1), fork));
        self
    }
}

impl<E: EngineUnderTest> Suite<E> {
    /// The cases of the game `game` (an id of `shinpan games`) on `engine`.
    pub fn new(game: &str, engine: E) -> Suite<E> {
        Suite {
            games: crate::games::by_id(game)
                .map(|g| vec![g])
                .ok_or_else(|| format!("no game `{game}` (see `shinpan games`)")),
            engine,
            expect_fail: ExpectFail::default(),
            source: Source::Embedded,
            workers: None,
        }
    }

    /// A known failure: the cases whose name matches `pattern` (`*` for any run of characters)
    /// are expected to fail, for `reason`.
    pub fn expect_fail(mut self, pattern: &str, reason: &str) -> Suite<E> {
        self.expect_fail.entries.push(Entry {
            pattern: pattern.to_string(),
            reason: reason.to_string(),
        });
        self
    }

    /// Reads the case library from `dir` (one folder per game) instead of the built-in one.
    pub fn cases(mut self, dir: impl Into<PathBuf>) -> Suite<E> {
        self.source = Source::Dir(dir.into());
        self
    }

    /// Runs every case whose name contains `filter` (all when `None`) and returns the results,
    /// the expected failures applied.
    pub fn results(mut self, filter: Option<&str>) -> Result<Vec<CaseResult>, LoadError> {
        self.run_selected(|name| filter.is_none_or(|f| name.contains(f)))
    }

    fn run_selected(
        &mut self,
        mut wanted: impl FnMut(&str) -> bool,
    ) -> Result<Vec<CaseResult>, LoadError> {
        let (games, library) = self.library()?;
        check_unmodelled(games.iter().copied(), &self.engine).map_err(|e| {
            LoadError::whole(
                &PathBuf::from("shinpan::Suite"),
                format!("the engine `{}` cannot be used: {e}", self.engine.name()),
            )
        })?;
        let mut results = match self.workers {
            Some((jobs, fork)) => {
                let mut library = library;
                for game in &mut library.games {
                    game.cases.retain(|case| wanted(&case.name));
                }
                let mut engines: Vec<_> = (0..jobs).map(|_| fork(&self.engine)).collect();
                let run = run_library_jobs(&library, None, &mut engines, |_, _, _| {}, || None);
                with_the_rest_unrun(&library, run)
            }
            _ => {
                let cases: Vec<_> = (select(&library, None).into_iter())
                    .filter(|(_, case)| wanted(&case.name))
                    .collect();
                let mut results: Vec<CaseResult> = (cases.iter())
                    .map(|(game, case)| {
                        let judged = run_case(*game, case, &mut self.engine);
                        CaseResult::of(case, game.info().id, judged)
                    })
                    .collect();
                crate::run::refute::refute_by_passing_cases(&cases, &mut results);
                results
            }
        };
        self.expect_fail.apply(&mut results);
        Ok(results)
    }

    /// Runs the suite as a libtest harness (the arguments of `cargo test -- ...`) and returns
    /// the exit code to end `main` with.
    pub fn run(mut self) -> ExitCode {
        let args = Arguments::from_args();
        let trials = if args.list {
            // Listing runs nothing: every case is named, none is judged.
            match self.case_names() {
                Ok(names) => names
                    .into_iter()
                    .map(|name| Trial::test(name, || Ok(())))
                    .collect(),
                Err(e) => vec![load_failure(e)],
            }
        } else {
            match self.run_selected(|name| libtest_selects(&args, name)) {
                Ok(results) => {
                    // The cases the filter leaves out are not judged, but they are trials, so
                    // that libtest counts them as filtered out.
                    let names = self.case_names().unwrap_or_default();
                    let judged: std::collections::HashSet<String> =
                        results.iter().map(|r| r.name.clone()).collect();
                    let mut trials: Vec<Trial> = results.into_iter().map(trial).collect();
                    trials.extend(
                        names
                            .into_iter()
                            .filter(|name| !judged.contains(name))
                            .map(|name| Trial::test(name, || Ok(()))),
                    );
                    trials
                }
                Err(e) => vec![load_failure(e)],
            }
        };
        libtest_mimic::run(&args, trials).exit_code()
    }

    /// The suite's games and their cases.
    fn library(&self) -> Result<(Vec<&'static dyn DynGame>, Library), LoadError> {
        let games = self
            .games
            .clone()
            .map_err(|message| LoadError::whole(&PathBuf::from("shinpan::Suite"), message))?;
        let options = LoadOptions::only(games.iter().map(|g| g.info().id));
        let library = load_library(&self.source, &crate::games::all(), &options)?;
        Ok((games, library))
    }

    fn case_names(&self) -> Result<Vec<String>, LoadError> {
        let (_, library) = self.library()?;
        Ok(select(&library, None)
            .into_iter()
            .map(|(_, c)| c.name.clone())
            .collect())
    }
}

/// The results of a run on several workers, and an error for each case it did not reach when
/// an engine gave up (a case not run must not pass as one filtered out).
fn with_the_rest_unrun(library: &Library, run: LibraryRun) -> Vec<CaseResult> {
    let mut results = run.results;
    if let Some(why) = run.stopped {
        let rest = select(library, None).into_iter().skip(results.len());
        results.extend(rest.map(|(game, case)| {
            let verdict = CaseVerdict::Error(format!("not run: {why}"));
            CaseResult::of(case, game.info().id, verdict.into())
        }));
    }
    results
}

/// Whether libtest, given `args`, would run the trial `name` (its filter, `--exact`, `--skip`),
/// so that a filtered run judges only what it shows.
fn libtest_selects(args: &Arguments, name: &str) -> bool {
    let matches = |pattern: &str| {
        if args.exact {
            name == pattern
        } else {
            name.contains(pattern)
        }
    };
    // `--ignored` runs only the trials flagged ignored, and no case is: an unsupported case is
    // ignored when it is run, with its reason.
    !args.ignored
        && args.filter.as_deref().is_none_or(matches)
        && !args.skip.iter().any(|s| matches(s))
}

/// A broken library is one failing trial that says where, not a panic.
fn load_failure(error: LoadError) -> Trial {
    Trial::test("load-case-library", move || {
        Err(Failed::from(error.to_string()))
    })
}

fn trial(result: CaseResult) -> Trial {
    let place = format!("{}:{}", result.file, result.line);
    match result.verdict {
        CaseVerdict::Pass | CaseVerdict::ExpectedFail(_) => Trial::test(result.name, || Ok(())),
        // Ignored when it runs, so that the reason is printed and `--include-ignored` cannot
        // make it a pass.
        CaseVerdict::Unsupported(why) => {
            Trial::ignorable_test(result.name, move || Ok(Completion::ignored_with(why)))
        }
        verdict @ (CaseVerdict::Fail(_) | CaseVerdict::Error(_) | CaseVerdict::Fixed(_)) => {
            Trial::test(result.name, move || {
                Err(Failed::from(format!(
                    "{place}: {}\n{}",
                    verdict.name(),
                    verdict.detail()
                )))
            })
        }
    }
}

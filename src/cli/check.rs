//! `shinpan check`: runs the case library on an engine and prints the report, with a progress
//! counter on a terminal, the known-failure list (`--expect-fail`) and the comparison with an
//! earlier report (`--baseline`). Interrupted, it reports the cases run so far as stopped.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use shinpan::case::{load_library, CaseBody, Library, LoadOptions};
use shinpan::games;
use shinpan::harness::adapter::{split_command, Adapter, AdapterConfig};
use shinpan::harness::interrupt;
use shinpan::report::check::{changes_human, Report, RunVerdict};
use shinpan::report::Render;
use shinpan::run::baseline::{compare, Baseline};
use shinpan::run::expect_fail::ExpectFail;
use shinpan::run::{
    check_unmodelled, run_library_jobs, select, CaseResult, CaseVerdict, EngineUnderTest,
    LibraryRun, Reference,
};

use super::args::{CheckArgs, CheckFormatArg, EngineArg, LibraryArg, OptionArgs};
use super::{game_by_id, out, warn, Finished, Usage};

pub fn run(args: CheckArgs) -> Result<Finished, Usage> {
    super::stop_on_interrupt()?;
    let CheckArgs {
        games,
        filter,
        partition,
        jobs,
        format,
        quiet,
        library,
        engine,
        expect_fail,
        baseline,
        max_list_bytes,
        max_baseline_bytes,
        options,
    } = args;
    let given_options = options.options.clone();
    let library_arg = library;
    let mut library = load(&library_arg, &games)?;
    with_options(&mut library, &options)?;
    let selected = select(&library, filter.as_deref()).len();
    if selected == 0 {
        return Err(no_case_matches(filter.as_deref()));
    }
    if let Some(partition) = &partition {
        partition.keep(&mut library, filter.as_deref());
    }
    let expect_fail = expect_fail
        .map(|path| ExpectFail::load(&path, max_list_bytes))
        .transpose()
        .map_err(|e| Usage(format!("--expect-fail: {e}")))?;
    let baseline = baseline
        .map(|path| Baseline::load(&path, max_baseline_bytes))
        .transpose()
        .map_err(|e| Usage(format!("--baseline: {e}")))?;
    let mut engines = engines_for(&library, filter.as_deref(), &engine, jobs)?;
    // Every worker's engine is the same program: the first names it.
    let name = engines[0].name();
    let run = run_cases(&library, filter.as_deref(), &mut engines, quiet);
    let mut results = run.results;
    if let Some(list) = &expect_fail {
        for pattern in list.apply(&mut results).unmatched {
            warn(&format!(
                "--expect-fail entry `{pattern}` matches no case run"
            ));
        }
    }
    let changes = baseline.map(|b| compare(&b, &results));
    let mut report = Report::new(
        &library.digest,
        &library_arg.source().describe(),
        &name,
        results,
    );
    report.stopped = run.stopped;
    report.partition = partition.map(|p| p.to_string());
    report.options = given_options;
    report.games = games;
    report.games.sort();
    report.games.dedup();
    report.filter = filter;
    report.selected = Some(selected);
    report.quote_clauses(&library);
    finish(&mut engines);
    match format.format() {
        Some(format) => out(&report.render(format))?,
        None => out(&super::html::page_of(&report, changes.as_ref()))?,
    }
    if let Some(changes) = changes {
        match format {
            CheckFormatArg::Human => out(&changes_human(&changes))?,
            _ => warn(&changes_human(&changes)),
        }
    }
    say_what_was_not_judged(&report, &name);
    Ok(super::finished(report.verdict()))
}

/// Runs the cases of `library` that `filter` selects on `engines` (one worker each), with a
/// progress line for people (unless `quiet`), until they are all run or a signal stops the run.
fn run_cases(
    library: &Library,
    filter: Option<&str>,
    engines: &mut [Box<dyn EngineUnderTest + Send>],
    quiet: bool,
) -> LibraryRun {
    let mut line = ProgressLine::new(quiet);
    let run = run_library_jobs(
        library,
        filter,
        engines,
        |result, done, total| line.update(result, done, total),
        interrupt::reason,
    );
    line.bar.finish_and_clear();
    run
}

/// The progress line of a run, on stderr: cases done of the total, failures so far, rate and
/// time left. Shown once the run has lasted a second, and only on a terminal (indicatif draws
/// nothing on a stderr that is not one); never with `--quiet`.
struct ProgressLine {
    bar: ProgressBar,
    started: Instant,
    quiet: bool,
    shown: bool,
    failed: usize,
}

impl ProgressLine {
    fn new(quiet: bool) -> ProgressLine {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("[{pos}/{len}] {msg}, {rate} cases/s, {eta} left")
            .expect("the template is valid")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}", state.per_sec());
                },
            );
        bar.set_style(style);
        bar.set_message("0 failed");
        ProgressLine {
            bar,
            started: Instant::now(),
            quiet,
            shown: false,
            failed: 0,
        }
    }

    fn update(&mut self, result: &CaseResult, done: usize, total: usize) {
        if matches!(result.verdict, CaseVerdict::Fail(_) | CaseVerdict::Error(_)) {
            self.failed += 1;
            self.bar.set_message(format!("{} failed", self.failed));
        }
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
        if !self.quiet && !self.shown && self.started.elapsed() >= Duration::from_secs(1) {
            self.shown = true;
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

fn no_case_matches(filter: Option<&str>) -> Usage {
    Usage(format!(
        "no case matches (filter: {})",
        filter.unwrap_or("none")
    ))
}

/// Nothing judged is not a pass (issue 22, item 10): a run whose every case was unsupported
/// checked nothing, and exits 3. A shard that holds no case (more shards than cases, or a hash
/// that dealt it none) had nothing to judge, judged all of it, and exits 0 (issue 40, item 11):
/// `report merge` counts the run's cases. Says which.
fn say_what_was_not_judged(report: &Report, engine: &str) {
    if report.results.is_empty() && report.stopped.is_none() {
        if let (Some(partition), Some(selected)) = (&report.partition, report.selected) {
            warn(&format!(
                "shard {partition} holds none of the {selected} cases selected: nothing to judge \
                 in it (`report merge` counts the run's cases)"
            ));
        }
    } else if report.verdict() == RunVerdict::Incomplete && report.stopped.is_none() {
        warn(&format!(
            "nothing was judged: the engine `{}` answered all {} cases `unsupported`; exit 3",
            engine,
            report.results.len()
        ));
    }
}

/// Loads the library for `games` (all when empty); an unknown game id is a usage error.
pub fn load(library: &LibraryArg, games: &[String]) -> Result<Library, Usage> {
    for id in games {
        game_by_id(id)?;
    }
    let options = LoadOptions {
        only: games.to_vec(),
        max_file_bytes: library.max_case_file_bytes,
    };
    load_library(&library.source(), &games::all(), &options).map_err(|e| Usage(e.to_string()))
}

/// Gives the command line's match options to every generator case (its own take precedence).
/// Options a game does not take are an error about the options, checked once per game; an
/// error after merging is about the case whose own options they were merged with.
fn with_options(library: &mut Library, options: &OptionArgs) -> Result<(), Usage> {
    let given = options.read()?;
    if given.is_empty() {
        return Ok(());
    }
    for game in &mut library.games {
        options.for_game(game.game)?;
        for case in &mut game.cases {
            if let CaseBody::Generate { options, .. } = &mut case.body {
                let merged = given.merged(options);
                game.game
                    .check_options(&merged)
                    .map_err(|e| Usage(format!("{}: {e}", case.name)))?;
                *options = merged;
            }
        }
    }
    Ok(())
}

/// An engine for each worker (`--jobs`, no more workers than cases: an adapter started for no
/// case is started for nothing), each checked for what it declares unmodelled.
fn engines_for(
    library: &Library,
    filter: Option<&str>,
    engine: &EngineArg,
    jobs: Option<usize>,
) -> Result<Vec<Box<dyn EngineUnderTest + Send>>, Usage> {
    let cases = select(library, filter).len();
    let jobs = jobs.unwrap_or_else(default_jobs).min(cases).max(1);
    let engines = start_jobs(engine, jobs)?;
    for engine in &engines {
        check_unmodelled(library.games.iter().map(|g| g.game), engine.as_ref()).map_err(|e| {
            Usage(format!(
                "the engine `{}` cannot be used: {e}",
                engine.name()
            ))
        })?;
    }
    Ok(engines)
}

/// `--jobs` when not given: the number of cores (1 when it cannot be known).
fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// An engine for each of `jobs` workers: the reference engine, or the adapter started `jobs`
/// times, all at once. A start that fails while others succeed (one adapter of many too slow to
/// say hello on a loaded machine) is tried once more, once the others have started; what still
/// fails is left out, and the run goes on with fewer workers, saying so. Exit 2 only when none
/// starts (those started are then ended).
fn start_jobs(
    engine: &EngineArg,
    jobs: usize,
) -> Result<Vec<Box<dyn EngineUnderTest + Send>>, Usage> {
    if engine.engine.is_none() || jobs == 1 {
        return (0..jobs).map(|_| start(engine)).collect();
    }
    let (mut started, failed) = start_at_once(engine, jobs);
    if started.is_empty() {
        return Err(first_error(failed));
    }
    if failed.is_empty() {
        return Ok(started);
    }
    let (again, still) = start_at_once(engine, failed.len());
    started.extend(again);
    if !still.is_empty() {
        let Usage(why) = first_error(still);
        warn(&format!(
            "{} of the {jobs} engines could not be started, twice: the run goes on with {} \
             workers (an engine whose answers depend on the requests before them may answer \
             as with --jobs {}); {why}",
            jobs - started.len(),
            started.len(),
            started.len()
        ));
    } else {
        warn(&format!(
            "{} of the {jobs} engines did not start at the first try, and did at the second",
            failed.len()
        ));
    }
    Ok(started)
}

/// Starts `count` engines at once: those that started, and the errors of those that did not.
fn start_at_once(
    engine: &EngineArg,
    count: usize,
) -> (Vec<Box<dyn EngineUnderTest + Send>>, Vec<Usage>) {
    let results: Vec<_> = std::thread::scope(|scope| {
        let starting: Vec<_> = (0..count).map(|_| scope.spawn(|| start(engine))).collect();
        starting
            .into_iter()
            .map(|started| {
                started
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut started = Vec::new();
    let mut failed = Vec::new();
    for result in results {
        match result {
            Ok(engine) => started.push(engine),
            Err(e) => failed.push(e),
        }
    }
    (started, failed)
}

/// The first of `errors` (there is one at least).
fn first_error(errors: Vec<Usage>) -> Usage {
    errors
        .into_iter()
        .next()
        .unwrap_or_else(|| Usage("the engine could not be started".into()))
}

/// Ends every worker's engine, and says what they have to say of themselves (which worker's,
/// when there are several).
fn finish(engines: &mut [Box<dyn EngineUnderTest + Send>]) {
    let count = engines.len();
    for (worker, engine) in engines.iter_mut().enumerate() {
        match engine.finish() {
            Some(remarks) if count > 1 => {
                warn(&format!("engine {} of {count}: {remarks}", worker + 1))
            }
            Some(remarks) => warn(&remarks),
            None => {}
        }
    }
}

/// The reference engine, or the adapter (exit 2 when it cannot be used at all).
pub fn start(engine: &EngineArg) -> Result<Box<dyn EngineUnderTest + Send>, Usage> {
    let Some(command) = &engine.engine else {
        return Ok(Box::new(Reference));
    };
    let argv = split_command(command).map_err(|e| Usage(e.to_string()))?;
    let mut config = AdapterConfig::new(argv);
    config.timeout = engine.timeout;
    config.start_timeout = engine.start_timeout;
    let adapter = Adapter::start(config)
        .map_err(|e| Usage(format!("the engine `{command}` cannot be used: {e}")))?;
    Ok(Box::new(adapter))
}

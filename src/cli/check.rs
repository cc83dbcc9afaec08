//! `shinpan check`: runs the case library on an engine and prints the report, with a progress
//! counter on a terminal, the known-failure list (`--expect-fail`) and the comparison with an
//! earlier report (`--baseline`). Interrupted, it reports the cases run so far as stopped.

use shinpan::case::{load_library, CaseBody, Library, LoadOptions};
use shinpan::games;
use shinpan::harness::adapter::{split_command, Adapter, AdapterConfig};
use shinpan::harness::interrupt;
use shinpan::report::check::{changes_human, Report};
use shinpan::report::{Format, Render};
use shinpan::run::baseline::{compare, Baseline};
use shinpan::run::expect_fail::ExpectFail;
use shinpan::run::{
    check_unmodelled, run_library_until, select, EngineUnderTest, LibraryRun, Reference,
};

use super::args::{CheckArgs, EngineArg, LibraryArg, OptionArgs};
use super::{game_by_id, out, progress, warn, Finished, Usage};

pub fn run(args: CheckArgs) -> Result<Finished, Usage> {
    super::stop_on_interrupt()?;
    let CheckArgs {
        games,
        filter,
        partition,
        format,
        library,
        engine,
        expect_fail,
        baseline,
        max_list_bytes,
        max_baseline_bytes,
        options,
    } = args;
    let format = format.format();
    let library_arg = library;
    let mut library = load(&library_arg, &games)?;
    with_options(&mut library, &options)?;
    if select(&library, filter.as_deref()).is_empty() {
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
    let mut engine = start(&engine)?;
    check_unmodelled(library.games.iter().map(|g| g.game), engine.as_ref()).map_err(|e| {
        Usage(format!(
            "the engine `{}` cannot be used: {e}",
            engine.name()
        ))
    })?;
    let run = run_cases(&library, filter.as_deref(), engine.as_mut(), format);
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
        &engine.name(),
        results,
    );
    report.stopped = run.stopped;
    report.partition = partition.map(|p| p.to_string());
    if let Some(remarks) = engine.finish() {
        warn(&remarks);
    }
    out(&report.render(format))?;
    if let Some(changes) = changes {
        match format {
            Format::Human => out(&changes_human(&changes))?,
            _ => warn(&changes_human(&changes)),
        }
    }
    if nothing_judged(&report, engine.as_ref()) {
        return Ok(Finished::Incomplete);
    }
    Ok(Finished::passed_if(report.all_passed()))
}

/// Runs the cases of `library` that `filter` selects on `engine`, with a progress counter for
/// people, until they are all run or a signal stops the run.
fn run_cases(
    library: &Library,
    filter: Option<&str>,
    engine: &mut dyn EngineUnderTest,
    format: Format,
) -> LibraryRun {
    let show_progress = format == Format::Human;
    let run = run_library_until(
        library,
        filter,
        engine,
        |done, total| {
            if show_progress && (done % 10 == 0 || done == total) {
                progress(&format!("\r[{done}/{total}]"));
                if done == total {
                    progress("\r\x1b[K");
                }
            }
        },
        interrupt::reason,
    );
    if run.stopped.is_some() {
        progress("\r\x1b[K");
    }
    run
}

fn no_case_matches(filter: Option<&str>) -> Usage {
    Usage(format!(
        "no case matches (filter: {})",
        filter.unwrap_or("none")
    ))
}

/// Nothing judged is not a pass (issue 22, item 10): a run whose every case was unsupported
/// checked nothing. Says so.
fn nothing_judged(report: &Report, engine: &dyn EngineUnderTest) -> bool {
    let nothing = report.all_passed() && report.counts.unsupported == report.results.len();
    if nothing {
        warn(&format!(
            "nothing was judged: the engine `{}` answered all {} cases `unsupported`; exit 3",
            engine.name(),
            report.results.len()
        ));
    }
    nothing
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

/// The reference engine, or the adapter (exit 2 when it cannot be used at all).
pub fn start(engine: &EngineArg) -> Result<Box<dyn EngineUnderTest>, Usage> {
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

//! `shinpan tap` (a recording proxy: it ends as the bot ends, or with status 3 when its log is
//! incomplete) and `shinpan trace` (a recorded match checked against the rules: exit 1 on a
//! departure, 3 when less was checked than the logs hold).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use shinpan::bounded::{self, Bound};
use shinpan::harness::guard::{watch, Marks};
use shinpan::harness::log::{from_imported, read_match, MatchLog, PlayerLog};
use shinpan::harness::tap::bot::exec_with_parent_death;
use shinpan::harness::tap::{exit_like, tap as run_tap, TapEnd, TapOptions, LOG_INCOMPLETE};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::{trace_with, TraceConfig, TraceReport};
use shinpan::report::Render;
use shinpan::seam::MatchOptions;
use shinpan::seam::{DynGame, Missing};

use super::args::{CheckFormatArg, GuardArgs, TapArgs, TapExecArgs, TraceArgs};
use super::cases_out::CasesOut;
use super::replay::{traced_page, Origin};
use super::{game_by_id, out, warn, Finished, Usage};

/// Between the signal a tap passes on (or its bot's exit, for what the bot left) and SIGKILL.
const TAP_GRACE: Duration = Duration::from_millis(500);

/// `shinpan tap`: never returns when the bot could be run; the process ends as the bot did,
/// or with status 3 when the log is incomplete.
pub fn tap(args: TapArgs) -> Result<Finished, Usage> {
    let options = TapOptions {
        log: args.log.clone(),
        player: args.player,
        append: args.append,
        helper: Some(PathBuf::from(super::SELF)),
        grace: TAP_GRACE,
    };
    let tapped = run_tap(&options, &args.command)
        .map_err(|e| Usage(format!("tap (log {}): {e}", args.log.display())))?;
    if !tapped.left_behind.is_empty() {
        warn(&format!(
            "tap: the bot left {} process(es) running; they were killed",
            tapped.left_behind.len()
        ));
    }
    if let Some(why) = &tapped.log_failure {
        let _ = writeln!(
            std::io::stderr(),
            "shinpan tap: the log {} is incomplete ({why}); the bot {}",
            args.log.display(),
            match tapped.end {
                TapEnd::Exited(code) => format!("exited with status {code}"),
                TapEnd::Signalled(signal) => format!("died by signal {signal}"),
            }
        );
        let _ = std::io::stdout().flush();
        std::process::exit(LOG_INCOMPLETE.into());
    }
    exit_like(tapped.end)
}

/// `shinpan tap-exec` (tap's helper): becomes the bot, or exits 127 (126 when it is not
/// executable) as a shell does when a command cannot run.
pub fn tap_exec(args: TapExecArgs) -> Result<Finished, Usage> {
    let error = exec_with_parent_death(args.parent, &args.path, &args.command);
    let _ = writeln!(
        std::io::stderr(),
        "shinpan tap: cannot start `{}`: {error}",
        args.command.join(" ")
    );
    let status = match error.kind() {
        std::io::ErrorKind::PermissionDenied => 126,
        _ => 127,
    };
    std::process::exit(status)
}

/// `shinpan guard` (the helper of `tap` and of the runs that start programs): see
/// [`watch`].
pub fn guard(args: GuardArgs) -> Result<Finished, Usage> {
    let marks = match (args.lineage, args.all_of) {
        (Some(lineage), _) => Marks::Lineage(lineage),
        (None, Some(pid)) => Marks::AllOf(pid),
        (None, None) => return Err(Usage("guard: --lineage or --all-of".into())),
    };
    watch(args.group, &marks, Duration::from_millis(args.grace_ms));
    Ok(Finished::AllPassed)
}

pub fn run(args: TraceArgs) -> Result<Finished, Usage> {
    let game = game_by_id(&args.game)?;
    let id = game.info().id;
    let read = read_recorded(game, &args)?;
    let (options, options_from) = options(game, &args, &read)?;
    let index = clause_index(id)?;
    let engine = known_engine(&args, &index, id)?;
    // Before the trace: a folder that cannot take the cases is refused now, not after it.
    let cases_out = args
        .cases_out
        .as_deref()
        .map(|dir| CasesOut::prepare(game, dir, &args.logs))
        .transpose()?;
    let mut page = None;
    let mut report = match args.match_index.filter(|m| !read.matches.contains(m)) {
        Some(wanted) if args.import.is_none() => TraceReport::nothing_checked(
            id,
            0,
            format!(
                "the log holds no match {wanted} ({}): nothing was checked",
                match (read.matches.first(), read.matches.last()) {
                    (Some(a), Some(b)) => format!("it holds matches {a} to {b}"),
                    _ => "it holds no numbered match".to_string(),
                }
            ),
        ),
        _ => {
            let config = TraceConfig {
                options,
                options_from,
                outcome: read.outcome.clone(),
                engine,
                step_cases: args.cases_out.is_some(),
                log_cut: !read.incomplete.is_empty(),
            };
            if args.format == CheckFormatArg::Html {
                let (report, html) = replay_page(game, &read, &index, &config, &args);
                page = Some(html);
                report
            } else {
                trace_with(game, &read.players, &index, &config)
            }
        }
    };
    // A writer that never ended its record (killed, interrupted, unable to write): what the
    // log holds was checked, but it may not be the whole match.
    if !read.incomplete.is_empty() {
        report.complete = false;
        let why = read.incomplete.join("; ");
        report.stopped = Some(match report.stopped.take() {
            Some(stopped) => format!("{stopped}; {why}"),
            None => why,
        });
    }
    // The report is printed whatever becomes of the cases; cases not written then exit 2.
    let mut not_written = None;
    if let Some(cases_out) = &cases_out {
        match cases_out.write(game, &index, &report.step_cases) {
            Ok(note) => report.notes.push(note),
            Err(why) => {
                report
                    .notes
                    .push(format!("the step cases were not written: {why}"));
                not_written = Some(why);
            }
        }
    }
    match (args.format.format(), page) {
        (Some(format), _) => out(&report.render(format))?,
        (None, Some(page)) => out(&page)?,
        // No match to replay: the report says why, on a page of its own.
        (None, None) => out(&format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>shinpan trace: {id}</title>\n</head>\n<body>\n<h1>shinpan trace: {id}</h1>\n<p id=\"end\">Nothing to replay.</p>\n<pre>{}</pre>\n</body>\n</html>\n",
            shinpan::seam::escape(&report.render(shinpan::report::Format::Human))
        ))?,
    }
    if let Some(why) = not_written {
        return Err(Usage(format!(
            "--cases-out: the step cases were not written: {why}"
        )));
    }
    // A departure fails the run (exit 1) even in a log cut short; only a clean but incomplete
    // log is "less was checked" (exit 3), as `--help` and conformance/TRACES.md say.
    Ok(if report.departures.is_empty() && report.incomplete() {
        Finished::Incomplete
    } else {
        Finished::passed_if(report.passed())
    })
}

/// The trace of `read` as a replay page, the departures on its timeline.
fn replay_page(
    game: &dyn DynGame,
    read: &MatchLog,
    index: &ClauseIndex,
    config: &TraceConfig,
    args: &TraceArgs,
) -> (TraceReport, String) {
    let title = format!("shinpan trace: {}", game.info().id);
    let logs: Vec<String> = args.logs.iter().map(|p| p.display().to_string()).collect();
    let mut facts = vec![
        ("game", game.info().id.to_string()),
        ("logs", logs.join(", ")),
    ];
    if let Some(format) = &args.import {
        facts.push(("imported from", format.clone()));
    }
    facts.push(("options", config.options_from.clone()));
    let origin = Origin {
        title: &title,
        facts,
        departures: true,
    };
    traced_page(game, read, index, config, origin)
}

/// The recorded match of `game` (the trace logs, or a log of another tool with `--import`),
/// each log first checked against `--max-log-bytes`; refused when it is another game's or
/// holds a player the game has not.
fn read_recorded(game: &dyn DynGame, args: &TraceArgs) -> Result<MatchLog, Usage> {
    let id = game.info().id;
    let bound = Bound {
        max: args.max_log_bytes,
        option: "--max-log-bytes",
        what: "a log",
    };
    // A device, a FIFO or a log over the bound is refused before anything is read.
    for path in &args.logs {
        bounded::check(path, &bound)
            .map_err(|e| Usage(format!("{}: cannot read the log: {e}", path.display())))?;
    }
    let read = match &args.import {
        None => read_match(&args.logs, args.match_index).map_err(|e| Usage(e.to_string()))?,
        Some(format) => MatchLog {
            players: import(game, format, &args.logs, &bound)?,
            ..MatchLog::default()
        },
    };
    // Refused before checking: another game's log, a player the game has not.
    if let Some(named) = read.start.game.as_deref().filter(|&g| g != id) {
        return Err(Usage(format!(
            "the log is of {named} (its start record says so), not of {id}"
        )));
    }
    let seats = game.info().players;
    if let Some(&p) = read.players.keys().find(|&&p| p >= seats) {
        return Err(Usage(format!(
            "the log holds player {p}, but {id} has players 0 to {}",
            seats - 1
        )));
    }
    Ok(read)
}

/// The match options to trace with: the start record's, then the command line's over them
/// (`None` when neither names any), checked by the game; and where they came from.
fn options(
    game: &dyn DynGame,
    args: &TraceArgs,
    read: &MatchLog,
) -> Result<(Option<MatchOptions>, String), Usage> {
    let given = args.options.for_game(game)?;
    let (options, options_from) = match (&read.start.options, given.0.is_empty()) {
        (None, true) => (
            None,
            "assumed: neither the log nor the command line names any; read as the first prompts show"
                .to_string(),
        ),
        (Some(logged), true) => (
            Some(MatchOptions(logged.clone())),
            "from the log's start record".to_string(),
        ),
        (None, false) => (Some(given), "from the command line".to_string()),
        (Some(logged), false) => {
            let mut merged = logged.clone();
            merged.extend(given.0);
            (
                Some(MatchOptions(merged)),
                "from the log's start record and the command line".to_string(),
            )
        }
    };
    if let Some(options) = &options {
        game.check_options(options)
            .map_err(|e| Usage(format!("the options {options_from}: {e}")))?;
    }
    Ok((options, options_from))
}

/// The clauses of game `id`'s built-in library by the fields their cases check.
fn clause_index(id: &str) -> Result<ClauseIndex, Usage> {
    ClauseIndex::built_in(&shinpan::games::all(), id)
        .map_err(|e| Usage(e.to_string()))?
        .ok_or_else(|| Usage(format!("no cases for {id}")))
}

/// Whose known departures are played: the engine `--engine-known` names (one the catalogue
/// records departures of), or the one whose log is imported.
fn known_engine(args: &TraceArgs, index: &ClauseIndex, id: &str) -> Result<Option<String>, Usage> {
    let engine = args.engine_known.clone().or_else(|| {
        args.import
            .as_deref()
            .map(|format| format.replace("-rb", ".rb"))
            .filter(|name| index.engines().contains(name))
    });
    if let Some(name) = engine.as_ref().filter(|n| !index.engines().contains(n)) {
        return Err(Usage(format!(
            "--engine-known {name}: the catalogue of {id} records departures of {}",
            match index.engines().join(", ") {
                known if known.is_empty() => "no engine".to_string(),
                known => known,
            }
        )));
    }
    Ok(engine)
}

/// `trace --import FORMAT LOG`: one log of another tool, read by the game.
fn import(
    game: &dyn DynGame,
    format: &str,
    paths: &[PathBuf],
    bound: &Bound,
) -> Result<BTreeMap<usize, PlayerLog>, Usage> {
    let [path] = paths else {
        return Err(Usage(format!(
            "--import {format} reads one log, with every player; {} given",
            paths.len()
        )));
    };
    let importer = game.info().capabilities.importer;
    let known = importer.map_or(&[][..], |importer| importer.formats());
    let Some(importer) = importer.filter(|_| known.contains(&format)) else {
        let known = match known {
            [] => "none".to_string(),
            known => known.join(", "),
        };
        let missing = Missing::new(game.info().id, format!("importer for {format:?}"));
        return Err(Usage(format!("{missing}; known: {known}")));
    };
    let bytes = bounded::read(path, bound)
        .map_err(|e| Usage(format!("{}: cannot read the log: {e}", path.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    match importer.import(format, &text) {
        Ok(exchanges) => Ok(from_imported(exchanges)),
        Err(e) => Err(Usage(format!("{}: {e}", path.display()))),
    }
}

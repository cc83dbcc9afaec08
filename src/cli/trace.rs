//! `shinpan tap` (a recording proxy: it ends as the bot ends) and `shinpan trace` (a recorded
//! match checked against the rules).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use shinpan::case::source::DEFAULT_MAX_FILE_BYTES;
use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::game::DynGame;
use shinpan::game::MatchOptions;
use shinpan::games;
use shinpan::harness::tap::{exit_like, tap as run_tap};
use shinpan::harness::trace::cases::case_file;
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::log::{from_imported, read_match, MatchLog, PlayerLog};
use shinpan::harness::trace::{trace_with, TraceConfig, TraceReport};
use shinpan::report::Render;

use super::args::{TapArgs, TraceArgs};
use super::{game_by_id, out, Finished, Usage};

/// `shinpan tap`: never returns when the bot could be run; the process ends as the bot did.
pub fn tap(args: TapArgs) -> Result<Finished, Usage> {
    let end = run_tap(&args.log, args.player, &args.command)
        .map_err(|e| Usage(format!("tap (log {}): {e}", args.log.display())))?;
    exit_like(end)
}

pub fn run(args: TraceArgs) -> Result<Finished, Usage> {
    let game = game_by_id(&args.game)?;
    let id = game.info().id;
    let read = match &args.import {
        None => read_match(&args.logs, args.match_index).map_err(|e| Usage(e.to_string()))?,
        Some(format) => MatchLog {
            players: import(game, format, &args.logs)?,
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
    // The options: the start record's, then the command line's over them.
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
    let library = load_library(
        &Source::Embedded,
        &games::all(),
        &LoadOptions {
            only: vec![id.to_string()],
            ..LoadOptions::default()
        },
    )
    .map_err(|e| Usage(e.to_string()))?;
    let index = match library.games.first() {
        Some(cases) => ClauseIndex::new(cases),
        None => return Err(Usage(format!("no cases for {id}"))),
    };
    // Whose known departures are played: the one named, or the one whose log is imported.
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
    let report = match args.match_index.filter(|m| !read.matches.contains(m)) {
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
        _ => trace_with(
            game,
            &read.players,
            &index,
            &TraceConfig {
                options,
                options_from,
                outcome: read.outcome.clone(),
                engine,
                step_cases: args.cases_out.is_some(),
            },
        ),
    };
    let mut report = report;
    if let Some(dir) = &args.cases_out {
        let note = write_cases(game, &index, dir, &args.logs, &report)?;
        report.notes.push(note);
    }
    out(&report.render(args.format.format()))?;
    Ok(if report.incomplete() {
        Finished::Incomplete
    } else {
        Finished::passed_if(report.passed())
    })
}

/// `trace --import FORMAT LOG`: one log of another tool, read by the game.
fn import(
    game: &dyn DynGame,
    format: &str,
    paths: &[PathBuf],
) -> Result<BTreeMap<usize, PlayerLog>, Usage> {
    let [path] = paths else {
        return Err(Usage(format!(
            "--import {format} reads one log, with every player; {} given",
            paths.len()
        )));
    };
    let bytes = std::fs::read(path)
        .map_err(|e| Usage(format!("{}: cannot read the log: {e}", path.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    match game.import(format, &text) {
        None => Err(Usage(format!(
            "{} cannot import logs of format {format:?}",
            game.info().id
        ))),
        Some(Err(e)) => Err(Usage(format!("{}: {e}", path.display()))),
        Some(Ok(exchanges)) => Ok(from_imported(exchanges)),
    }
}

/// `trace --cases-out DIR`: the checked steps as DIR/<game>/trace-<log>.yaml, with the game's
/// clause catalogue beside it (a library needs one). Returns what was written, for the notes.
fn write_cases(
    game: &dyn DynGame,
    index: &ClauseIndex,
    dir: &Path,
    logs: &[PathBuf],
    report: &TraceReport,
) -> Result<String, Usage> {
    let id = game.info().id;
    let folder = dir.join(id);
    std::fs::create_dir_all(&folder)
        .map_err(|e| Usage(format!("{}: cannot create it: {e}", folder.display())))?;
    let rules = folder.join("rules.yaml");
    if !rules.exists() {
        let files = Source::Embedded
            .files(DEFAULT_MAX_FILE_BYTES)
            .map_err(|e| Usage(e.to_string()))?;
        let Some(catalogue) = files.iter().find(|f| f.game == id && f.stem == "rules") else {
            return Err(Usage(format!("no rules.yaml for {id} in this shinpan")));
        };
        std::fs::write(&rules, &catalogue.text)
            .map_err(|e| Usage(format!("{}: {e}", rules.display())))?;
    }
    let name: String = logs
        .first()
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "match".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let name = format!("trace-{}", name.trim_matches('-'));
    let (text, written, left_out) = case_file(game, index, &name, &report.step_cases);
    let path = folder.join(format!("{name}.yaml"));
    std::fs::write(&path, text).map_err(|e| Usage(format!("{}: {e}", path.display())))?;
    Ok(format!(
        "wrote {written} step cases to {}{}",
        path.display(),
        if left_out > 0 {
            format!(" ({left_out} steps left out: the engine showed states the rules forbid)")
        } else {
            String::new()
        }
    ))
}

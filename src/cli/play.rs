//! `shinpan play`: splits the command lines into one contender per seat, hands an arena
//! (`--matches`) to [`super::arena`], else opens the log, plays the rounds (or the game's series)
//! with a progress line, prints each match as it ends (for
//! people; JSON and JUnit print them all at the end) and the summary (of the matches played to
//! their end, when a signal interrupted the run).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use shinpan::harness::arena::ArenaPlan;
use shinpan::harness::play::{play_each, rounds, series_rounds, Contender, PlayOptions, Round};
use shinpan::report::play::match_lines;
use shinpan::report::{Format, Render};
use shinpan::seam::{DynGame, MatchOptions};

use super::arena::Arena;
use super::args::PlayArgs;
use super::{game_by_id, out, progress, Finished, Usage};

pub fn run(args: PlayArgs) -> Result<Finished, Usage> {
    super::stop_on_interrupt()?;
    let PlayArgs {
        game,
        seed,
        rounds: count,
        series,
        matches,
        jobs,
        log_dir,
        replace_logs,
        keep_logs,
        log,
        format,
        limits,
        options,
        commands,
    } = args;
    let game = game_by_id(&game)?;
    let match_options = options.for_game(game)?;
    let players = game.info().players;
    let contenders = contenders(game, &commands)?;
    if let Some(seeds) = matches {
        let options = PlayOptions {
            limits: limits.overrides(),
            process: Default::default(),
            ranking: None,
        };
        let plan = ArenaPlan::new(seed, seeds, players, match_options);
        let arena = Arena {
            seed,
            seeds,
            jobs: jobs.unwrap_or(1),
            log_dir,
            keep: keep_logs.keep(),
            replace: replace_logs,
            format: format.format(),
        };
        return super::arena::run(game, &contenders, plan, &options, arena);
    }
    // A series is a few dozen matches, planned (and their options checked) up front; plain
    // rounds are made one at a time as they are played, however many are asked for.
    let (series_plan, ranking) = if series {
        let (plan, ranking) = series_plan(game, seed, &match_options)?;
        (Some(plan), Some(ranking))
    } else {
        (None, None)
    };
    let html = format.format().is_none();
    if html && log.is_none() {
        return Err(Usage(
            "`--format html` replays the match from its log: give `--log FILE`".into(),
        ));
    }
    let mut log_file = open_log(log.as_deref())?;
    let options = PlayOptions {
        limits: limits.overrides(),
        process: Default::default(),
        ranking,
    };
    let total = series_plan.as_ref().map_or(count, Vec::len);
    let labels: Vec<String> = series_plan
        .iter()
        .flatten()
        .map(|r| r.label.clone())
        .collect();
    let plan: Box<dyn Iterator<Item = Round>> = match series_plan {
        Some(plan) => Box::new(plan.into_iter()),
        None => Box::new(rounds(seed, count, players, &match_options)),
    };
    // Whatever stopped the run, with the log's name when there is a log.
    let log_error = |e: &dyn std::error::Error| match &log {
        Some(path) => Usage(format!("{}: {e}", path.display())),
        None => Usage(e.to_string()),
    };
    // People read each match as it ends; machines get every match in one document at the end.
    let format = format.format();
    let streamed = format == Some(Format::Human);
    let mut kept = Vec::new();
    let mut printing: Result<(), Usage> = Ok(());
    let mut summary = play_each(
        game,
        &contenders,
        plan,
        &options,
        log_file.as_mut().map(|f| f as &mut dyn Write),
        |round, step| show_progress(&labels, total, round, step),
        |m| {
            if !streamed {
                kept.push(m);
            } else if printing.is_ok() {
                progress("\r\x1b[K");
                printing = out(&match_lines(&m));
            }
        },
    )
    .map_err(|e| log_error(&e))?;
    printing?;
    summary.matches = kept;
    progress("\r\x1b[K");
    if let Some(mut file) = log_file {
        file.flush().map_err(|e| log_error(&e))?;
    }
    match (format, &log) {
        (Some(format), _) => out(&summary.render(format))?,
        (None, Some(path)) => out(&super::replay::page_of_log(game, path, None)?)?,
        (None, None) => {}
    }
    Ok(Finished::AllPassed)
}

/// One contender per seat of `game`: the command lines, each after its own `--`.
fn contenders(game: &dyn DynGame, commands: &[String]) -> Result<Vec<Contender>, Usage> {
    let players = game.info().players;
    let contenders: Vec<Contender> = commands
        .split(|arg| arg == "--")
        .map(|argv| Contender::from_argv(argv.to_vec()))
        .collect();
    if contenders.len() != players
        || contenders
            .iter()
            .any(|c| c == &Contender::Program(Vec::new()))
    {
        return Err(Usage(format!(
            "{} needs {players} players, each a command line after its own `--` (or `builtin`)",
            game.info().id
        )));
    }
    Ok(contenders)
}

/// The matches of `game`'s series from `seed`, each one's options checked, and the sentence
/// that ranks them.
fn series_plan(
    game: &dyn DynGame,
    seed: u64,
    match_options: &MatchOptions,
) -> Result<(Vec<Round>, &'static str), Usage> {
    let series = game
        .info()
        .capabilities
        .series
        .map(|s| s.series())
        .ok_or_else(|| {
            Usage(format!(
                "{} has no series: its document ranks no fixed set of matches",
                game.info().id
            ))
        })?;
    let plan = series_rounds(seed, &series, game.info().players, match_options);
    for round in &plan {
        game.check_options(&round.options)
            .map_err(|e| Usage(format!("{}: {e}", round.label)))?;
    }
    Ok((plan, series.ranking))
}

/// The `--log` file, created (emptied) before any match.
fn open_log(log: Option<&Path>) -> Result<Option<BufWriter<File>>, Usage> {
    log.map(|path| {
        File::create(path)
            .map(BufWriter::new)
            .map_err(|e| Usage(format!("cannot write the log {}: {e}", path.display())))
    })
    .transpose()
}

/// The progress line every ten steps: the match, its series label if any, the step.
fn show_progress(labels: &[String], total: usize, round: usize, step: usize) {
    if step.is_multiple_of(10) {
        let label = labels.get(round).map_or("", String::as_str);
        progress(&format!(
            "\r[match {}/{total}{}{label}] step {step}\x1b[K",
            round + 1,
            if label.is_empty() { "" } else { ", " },
        ));
    }
}

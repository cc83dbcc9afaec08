//! `shinpan tap` (a recording proxy: it ends as the bot ends) and `shinpan trace` (a recorded
//! match checked against the rules).

use std::collections::BTreeMap;
use std::path::PathBuf;

use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::game::DynGame;
use shinpan::games;
use shinpan::harness::tap::{exit_like, tap as run_tap};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::log::{from_imported, read_logs, PlayerLog};
use shinpan::harness::trace::trace;
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
    let logs = match &args.import {
        None => read_logs(&args.logs, args.match_index).map_err(|e| Usage(e.to_string()))?,
        Some(format) => import(game, format, &args.logs)?,
    };
    let library = load_library(
        &Source::Embedded,
        &games::all(),
        &LoadOptions {
            only: vec![game.info().id.to_string()],
            ..LoadOptions::default()
        },
    )
    .map_err(|e| Usage(e.to_string()))?;
    let index = match library.games.first() {
        Some(cases) => ClauseIndex::new(cases),
        None => return Err(Usage(format!("no cases for {}", game.info().id))),
    };
    let report = trace(game, &logs, &index);
    out(&report.render(args.format.format()))?;
    Ok(Finished::passed_if(report.passed()))
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

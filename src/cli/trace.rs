//! `shinpan tap` (a recording proxy: it ends as the bot ends) and `shinpan trace` (a recorded
//! match checked against the rules).

use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::games;
use shinpan::harness::tap::{exit_like, tap as run_tap};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::log::read_logs;
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
    let logs = read_logs(&args.logs, args.match_index).map_err(|e| Usage(e.to_string()))?;
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

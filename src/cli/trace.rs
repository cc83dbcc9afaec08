//! `shinpan tap` (a recording proxy: it ends as the bot ends, or with status 3 when its log is
//! incomplete) and `shinpan trace` (a recorded match checked against the rules: exit 1 on a
//! departure, else 3 when a log is incomplete).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::game::DynGame;
use shinpan::games;
use shinpan::harness::guard::{watch, Marks};
use shinpan::harness::tap::bot::exec_with_parent_death;
use shinpan::harness::tap::{exit_like, tap as run_tap, TapEnd, TapOptions, LOG_INCOMPLETE};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::log::{from_imported, read_logs, MatchLogs, PlayerLog};
use shinpan::harness::trace::trace;
use shinpan::report::Render;

use super::args::{GuardArgs, TapArgs, TapExecArgs, TraceArgs};
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
    let logs = match &args.import {
        None => read_logs(&args.logs, args.match_index).map_err(|e| Usage(e.to_string()))?,
        Some(format) => MatchLogs {
            players: import(game, format, &args.logs)?,
            incomplete: Vec::new(),
        },
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
    let mut report = trace(game, &logs.players, &index);
    report.incomplete = logs.incomplete;
    out(&report.render(args.format.format()))?;
    Ok(if !report.departures.is_empty() {
        Finished::SomethingFailed
    } else if !report.incomplete.is_empty() {
        Finished::Incomplete
    } else {
        Finished::AllPassed
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

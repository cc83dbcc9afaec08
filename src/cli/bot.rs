//! `shinpan bot`: runs the bot checker on a program and prints its report.

use shinpan::harness::bot::{
    check_bot, BotOptions, BotReport, CheckVerdict, MalformedCrash, Phase,
};
use shinpan::report::Render;

use super::args::{BotArgs, CrashArg, PhaseArg};
use super::{game_by_id, out, warn, Finished, Usage};

pub fn run(args: BotArgs) -> Result<Finished, Usage> {
    super::stop_on_interrupt()?;
    let BotArgs {
        game,
        seed,
        matches,
        budget,
        save_dir,
        format,
        malformed_crash,
        phases,
        fail_fast,
        only,
        limits,
        options,
        command,
    } = args;
    let game = game_by_id(&game)?;
    let match_options = options.for_game(game)?;
    let defaults = BotOptions::default();
    let options = BotOptions {
        seed,
        matches,
        budget,
        limits: limits.overrides(),
        match_options,
        save_dir: save_dir.unwrap_or(defaults.save_dir),
        malformed_crash: match malformed_crash {
            CrashArg::Fail => MalformedCrash::Fail,
            CrashArg::Info => MalformedCrash::Info,
        },
        phases: phases
            .into_iter()
            .map(|p| match p {
                PhaseArg::Matches => Phase::Matches,
                PhaseArg::Extreme => Phase::Extreme,
                PhaseArg::Malformed => Phase::Malformed,
            })
            .collect(),
        fail_fast,
        only,
        ..defaults
    };
    let report = check_bot(game, &command, &options).map_err(|e| Usage(e.to_string()))?;
    match format.format() {
        Some(format) => out(&report.render(format))?,
        None => out(&shinpan::report::html::bot::bot_page(&report))?,
    }
    warn_of_unknown_checks(&options.only, &report);
    Ok(Finished::passed_if(!report.failed()))
}

/// A name `--only` gave that no check of the run has: a typo, or a check of a phase not run
/// (or not reached: a bot that fails its handshake is given no other check).
fn warn_of_unknown_checks(only: &[String], report: &BotReport) {
    let unknown: Vec<&str> = only
        .iter()
        .filter(|name| !report.checks.iter().any(|c| &&c.name == name))
        .map(String::as_str)
        .collect();
    let past_handshake = !report
        .checks
        .iter()
        .any(|c| c.phase == Phase::Handshake && c.verdict == CheckVerdict::Fail);
    if !unknown.is_empty() && past_handshake {
        warn(&format!(
            "--only: no check of this run is named {}",
            unknown.join(", ")
        ));
    }
}

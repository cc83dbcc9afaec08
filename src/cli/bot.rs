//! `shinpan bot`: runs the bot checker on a program and prints its report.

use shinpan::harness::bot::{check_bot, BotOptions, MalformedCrash, Phase};
use shinpan::report::Render;

use super::args::{BotArgs, CrashArg, PhaseArg};
use super::{game_by_id, out, Finished, Usage};

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
        ..defaults
    };
    let report = check_bot(game, &command, &options).map_err(|e| Usage(e.to_string()))?;
    out(&report.render(format.format()))?;
    Ok(Finished::passed_if(!report.failed()))
}

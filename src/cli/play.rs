//! `shinpan play`: splits the command lines into one contender per seat, opens the log, plays
//! the rounds with a progress line and prints the summary.

use std::io::{IsTerminal, Write};

use shinpan::harness::play::{play, rounds, Contender, PlayOptions};

use super::print;
use crate::{game_by_id, Format, Outcome, PlayArgs, Usage};

pub fn run(args: PlayArgs) -> Result<Outcome, Usage> {
    let PlayArgs {
        game,
        seed,
        rounds: count,
        log,
        format,
        limits,
        options: option_args,
        commands,
    } = args;
    let game = game_by_id(&game)?;
    let match_options = option_args.for_game(game)?;
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
    let mut log_file = match &log {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| Usage(format!("cannot write {}: {e}", path.display())))?,
        )),
        None => None,
    };
    let plan = rounds(seed, count, players);
    let options = PlayOptions {
        limits: limits.overrides(),
        match_options,
        process: Default::default(),
    };
    let show_progress = std::io::stderr().is_terminal();
    let summary = play(
        game,
        &contenders,
        &plan,
        &options,
        log_file.as_mut().map(|f| f as &mut dyn Write),
        |round, step| {
            if show_progress && step % 10 == 0 {
                eprint!("\r[match {}/{count}] step {step}\x1b[K", round + 1);
            }
        },
    )
    .map_err(|e| Usage(e.to_string()))?;
    if show_progress {
        eprint!("\r\x1b[K");
    }
    if let Some(mut file) = log_file {
        file.flush()
            .map_err(|e| Usage(format!("cannot write the log: {e}")))?;
    }
    print(&match format {
        Format::Human => summary.human(),
        Format::Json | Format::Junit => {
            serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n"
        }
    });
    Ok(Outcome::AllPassed)
}

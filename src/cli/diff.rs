//! `shinpan diff`: checks the engine can play the game, fuzzes it against the reference engine
//! with a progress counter, and writes the case of a disagreement to a file or stdout.

use shinpan::harness::diff::{self, DiffConfig, DiffOutcome};
use shinpan::run::check_unmodelled;

use super::args::DiffArgs;
use super::check::start;
use super::{game_by_id, out, progress, Finished, Usage};

pub fn run(args: DiffArgs) -> Result<Finished, Usage> {
    let DiffArgs {
        game,
        engine,
        seed,
        runs,
        out: out_path,
        options,
    } = args;
    let game = game_by_id(&game)?;
    let match_options = options.for_game(game)?;
    let command = engine
        .engine
        .clone()
        .ok_or_else(|| Usage("`diff` needs --engine CMD".into()))?;
    let mut engine = start(&engine)?;
    if !engine.supports(game.info().id) {
        return Err(Usage(format!(
            "the engine `{command}` does not implement `{}`",
            game.info().id
        )));
    }
    check_unmodelled([game], engine.as_ref())
        .map_err(|e| Usage(format!("the engine `{command}` cannot be used: {e}")))?;
    let config = DiffConfig {
        seed,
        runs,
        options: match_options,
        ..DiffConfig::default()
    };
    let outcome = diff::run(game, engine.as_mut(), &config, |done| {
        if done % 20 == 0 {
            progress(&format!("\r[{done}/{runs}]"));
        }
    });
    progress("\r\x1b[K");
    match outcome {
        DiffOutcome::Agreed { runs, unsupported } => {
            out(&format!(
                "no disagreement in {runs} inputs ({unsupported} unsupported by the engine)\n"
            ))?;
            Ok(Finished::AllPassed)
        }
        DiffOutcome::Disagreed(finding) => {
            let case = diff::case_file(game, &finding, &command, seed);
            let summary = format!(
                "disagreement on run {} (shrunk in {} steps, {} requests):\n{}\n",
                finding.run, finding.shrink_steps, finding.shrink_requests, finding.difference
            );
            match out_path {
                Some(path) => {
                    std::fs::write(&path, case)
                        .map_err(|e| Usage(format!("cannot write {}: {e}", path.display())))?;
                    out(&format!("{summary}case written to {}\n", path.display()))?;
                }
                None => out(&format!("{summary}\n{case}"))?,
            }
            Ok(Finished::SomethingFailed)
        }
    }
}

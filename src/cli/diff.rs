//! `shinpan diff`: checks the adapter can play the game, fuzzes it against the reference engine
//! with a progress counter, and writes the case of a disagreement to a file or stdout.

use std::io::IsTerminal;

use shinpan::diff::{self, DiffConfig, DiffOutcome};
use shinpan::games;
use shinpan::harness::engine::Engine;

use super::print;
use crate::{DiffArgs, Outcome, Usage};

pub fn run(args: DiffArgs) -> Result<Outcome, Usage> {
    let DiffArgs {
        game,
        engine,
        seed,
        runs,
        out,
    } = args;
    let game = games::by_id(&game)
        .ok_or_else(|| Usage(format!("no game `{game}` (see `shinpan games`)")))?;
    let command = engine
        .engine
        .clone()
        .ok_or_else(|| Usage("`diff` needs --engine CMD".into()))?;
    let Engine::Adapter(mut adapter) = engine.start()? else {
        return Err(Usage("`diff` needs --engine CMD".into()));
    };
    if !adapter.supports(game.info().id) {
        return Err(Usage(format!(
            "the engine `{command}` does not implement `{}`",
            game.info().id
        )));
    }
    let config = DiffConfig {
        seed,
        runs,
        ..DiffConfig::default()
    };
    let show_progress = std::io::stderr().is_terminal();
    let outcome = diff::run(game, &mut adapter, &config, |done| {
        if show_progress && done % 20 == 0 {
            eprint!("\r[{done}/{runs}]");
        }
    });
    if show_progress {
        eprint!("\r\x1b[K");
    }
    match outcome {
        DiffOutcome::Agreed { runs, unsupported } => {
            print(&format!(
                "no disagreement in {runs} inputs ({unsupported} unsupported by the engine)\n"
            ));
            Ok(Outcome::AllPassed)
        }
        DiffOutcome::Disagreed(finding) => {
            let case = diff::case_file(game, &finding, &command, seed);
            let summary = format!(
                "disagreement on run {} (shrunk in {} steps, {} requests):\n{}\n",
                finding.run, finding.shrink_steps, finding.shrink_requests, finding.difference
            );
            match out {
                Some(path) => {
                    std::fs::write(&path, case)
                        .map_err(|e| Usage(format!("{}: {e}", path.display())))?;
                    print(&format!("{summary}case written to {}\n", path.display()));
                }
                None => print(&format!("{summary}\n{case}")),
            }
            Ok(Outcome::SomethingFailed)
        }
    }
}

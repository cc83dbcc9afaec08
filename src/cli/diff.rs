//! `shinpan diff`: checks where the cases will go and that the engine can play the game, fuzzes
//! it against the reference engine with a progress counter until it has found the departures
//! asked for, and writes each one's case to its own file (or stdout); the report, with a
//! one-line summary per departure, is rendered by `shinpan::report::diff` in the `--format`
//! asked for. Interrupted, it writes what it found so far.
//!
//! `--out DIR` makes DIR a case library that `shinpan check --cases DIR` runs as it is, with
//! only the installed binary: the cases go in `DIR/<game>/`, beside the game's catalogue
//! (`rules.yaml`, the built-in one, written when the folder has none). Every file is written
//! whole or not at all (a temporary file renamed into place), and a case that cannot be
//! written is printed to stdout with the summary, so that no departure found is lost.

use std::path::PathBuf;

use shinpan::harness::diff::{self, DiffConfig, DiffOutcome, Known};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::report::diff::{CaseOut, DiffReport};
use shinpan::report::Render;
use shinpan::run::{check_unmodelled, EngineUnderTest};
use shinpan::seam::DynGame;

use super::args::{DiffArgs, EngineArg};
use super::check::start;
use super::files::{
    output, temporary_beside, write_atomically, write_catalogue, write_output, Destination,
};
use super::{game_by_id, out, progress, warn, Finished, Usage};

/// Where the cases go.
enum Out {
    Stdout,
    /// One case file (`--out FILE.yaml`, one departure).
    File(PathBuf),
    /// A case library: the cases in `<root>/<game>/`, beside its `rules.yaml`.
    Library {
        game_dir: PathBuf,
    },
}

pub fn run(args: DiffArgs) -> Result<Finished, Usage> {
    super::stop_on_interrupt()?;
    let DiffArgs {
        game,
        engine,
        seed,
        runs,
        out: out_path,
        departures,
        known,
        max_list_bytes,
        shrink_requests,
        options,
        format,
    } = args;
    let game = game_by_id(&game)?;
    let match_options = options.for_game(game)?;
    let target = target(out_path, departures, game)?;
    // Before any run: a place that cannot take the cases fails now, not after the fuzzing.
    prepare(&target)?;
    let known = known
        .map(|path| Known::load(&path, max_list_bytes))
        .transpose()
        .map_err(|e| Usage(format!("--known: {e}")))?
        .unwrap_or_default();
    let (command, mut engine) = engine_for(&engine, game)?;
    let index = clause_index(game);
    let config = DiffConfig {
        seed,
        runs,
        shrink_requests,
        departures,
        options: match_options,
    };
    let outcome = diff::run(
        game,
        engine.as_mut(),
        &config,
        &known,
        index.as_ref(),
        |done, found| {
            if done % 20 == 0 {
                progress(&format!("\r[{done}/{runs}, {found} found]"));
            }
        },
    );
    progress("\r\x1b[K");
    for partly in &outcome.partly_known {
        warn(&partly.to_string());
    }
    for pattern in &outcome.unmatched_known {
        warn(&format!(
            "--known entry `{pattern}` matches no departure seen in {} inputs",
            outcome.runs
        ));
    }
    let (cases, failures) = write_cases(&target, game, &outcome, &command, seed);
    let report = DiffReport::new(game.info().id, &command, seed, runs, &outcome, cases);
    out(&report.render(format.format()))?;
    not_written(&failures)?;
    if report.nothing_judged() {
        return Ok(Finished::Incomplete);
    }
    Ok(Finished::passed_if(report.findings.is_empty()))
}

/// Where `--out` (if given) puts the cases of `game`: a `.yaml` file holds one departure, any
/// other path is a case library.
fn target(out_path: Option<PathBuf>, departures: usize, game: &dyn DynGame) -> Result<Out, Usage> {
    Ok(match out_path {
        None => Out::Stdout,
        Some(path) if path.extension().is_some_and(|e| e == "yaml" || e == "yml") => {
            if departures > 1 {
                return Err(Usage(format!(
                    "--out {} is one file; with --departures {departures} give a directory",
                    path.display()
                )));
            }
            Out::File(path)
        }
        Some(root) => Out::Library {
            game_dir: root.join(game.info().id),
        },
    })
}

/// Writes the case of each departure found where `target` says (with the game's catalogue in
/// a library folder), each whole or not at all; a case not written is kept to be printed.
/// Returns the cases and the write errors.
fn write_cases(
    target: &Out,
    game: &dyn DynGame,
    outcome: &DiffOutcome,
    command: &str,
    seed: u64,
) -> (Vec<CaseOut>, Vec<String>) {
    let mut failures: Vec<String> = Vec::new();
    if let (Out::Library { game_dir }, false) = (target, outcome.findings.is_empty()) {
        if let Err(e) = write_catalogue(game_dir, game.info().id) {
            failures.push(format!(
                "cannot write {}: {e}",
                game_dir.join("rules.yaml").display()
            ));
        }
    }
    let mut cases = Vec::with_capacity(outcome.findings.len());
    for finding in &outcome.findings {
        let case = diff::case_file(game, finding, command, seed);
        let path = match target {
            Out::Stdout => None,
            Out::File(path) => Some(path.clone()),
            Out::Library { game_dir } => {
                Some(game_dir.join(format!("diff-seed-{seed}-run-{}.yaml", finding.run)))
            }
        };
        // A case that is not in a file is printed, so that it is not lost.
        cases.push(match path {
            None => CaseOut::Stdout(case),
            Some(path) => match written(target, &path, &case) {
                Ok(()) => CaseOut::File(path.display().to_string()),
                Err(e) => {
                    let why = format!("cannot write {}: {e}", path.display());
                    failures.push(why.clone());
                    CaseOut::NotWritten { why, case }
                }
            },
        });
    }
    (cases, failures)
}

/// Writes `case` to `path`: an `--out FILE` the user named (which may be a FIFO or a link), or
/// a file shinpan names in the `--out DIR` library (never through what is already there).
fn written(target: &Out, path: &std::path::Path, case: &str) -> std::io::Result<()> {
    match target {
        Out::File(_) => write_output(path, case),
        _ => write_atomically(path, case),
    }
}

/// The engine under test (`--engine`, which `diff` needs) started, with its command line:
/// refused when it does not implement `game` or leaves unmodelled what `game` needs.
fn engine_for(
    engine: &EngineArg,
    game: &dyn DynGame,
) -> Result<(String, Box<dyn EngineUnderTest>), Usage> {
    let command = engine
        .engine
        .clone()
        .ok_or_else(|| Usage("`diff` needs --engine CMD".into()))?;
    let started: Box<dyn EngineUnderTest> = start(engine)?;
    if !started.supports(game.info().id) {
        return Err(Usage(format!(
            "the engine `{command}` does not implement `{}`",
            game.info().id
        )));
    }
    check_unmodelled([game], started.as_ref())
        .map_err(|e| Usage(format!("the engine `{command}` cannot be used: {e}")))?;
    Ok((command, started))
}

/// The clauses of `game`'s built-in library by the fields their cases check, which name each
/// departure's clauses; without the library, none are named.
fn clause_index(game: &dyn DynGame) -> Option<ClauseIndex> {
    ClauseIndex::built_in(&shinpan::games::all(), game.info().id).ok()?
}

/// A usage error for the cases that could not be written (printed with the report), if any.
fn not_written(failures: &[String]) -> Result<(), Usage> {
    let Some(first) = failures.first() else {
        return Ok(());
    };
    Err(Usage(format!(
        "{first}{}; the cases not written are printed above",
        match failures.len() {
            1 => String::new(),
            n => format!(" (and {} more write errors)", n - 1),
        }
    )))
}

/// Makes sure the cases can be written where `target` says, before anything runs: the
/// library's game folder is created, and a file is created in it (or beside `--out FILE`)
/// and removed again; an `--out FILE` that is a FIFO or a device is written through, and one
/// that cannot be written to at all (a directory, a link to nothing) is refused now.
fn prepare(target: &Out) -> Result<(), Usage> {
    let (dir, shown) = match target {
        Out::Stdout => return Ok(()),
        Out::File(path) => {
            if path.is_dir() {
                return Err(Usage(format!(
                    "--out {}: is a directory; give a file ending in .yaml, or a directory \
                     whose name does not",
                    path.display()
                )));
            }
            let replaced = match output(path) {
                Ok(Destination::Replace(replaced)) => replaced,
                Ok(Destination::Through(_) | Destination::Stdout | Destination::Stderr) => {
                    return Ok(())
                }
                Err(e) => return Err(Usage(format!("--out {}: {e}", path.display()))),
            };
            let parent = match replaced.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            (parent, path)
        }
        Out::Library { game_dir } => {
            std::fs::create_dir_all(game_dir).map_err(|e| {
                Usage(format!(
                    "--out: cannot create the folder {}: {e}",
                    game_dir.display()
                ))
            })?;
            (game_dir.clone(), game_dir)
        }
    };
    let probe = temporary_beside(&dir.join("probe"));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| {
            Usage(format!(
                "--out {}: cannot write in {}: {e}",
                shown.display(),
                dir.display()
            ))
        })
}

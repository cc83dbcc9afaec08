//! `shinpan diff`: checks the engine can play the game, fuzzes it against the reference engine
//! with a progress counter until it has found the departures asked for, and writes each one's
//! case to its own file (or stdout), with a one-line summary per departure.

use std::path::{Path, PathBuf};

use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::games;
use shinpan::harness::diff::{self, DiffConfig, Finding, Known};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::run::check_unmodelled;

use super::args::DiffArgs;
use super::check::start;
use super::{game_by_id, out, progress, Finished, Usage};

/// Where the cases go.
enum Out {
    Stdout,
    File(PathBuf),
    Dir(PathBuf),
}

pub fn run(args: DiffArgs) -> Result<Finished, Usage> {
    let DiffArgs {
        game,
        engine,
        seed,
        runs,
        out: out_path,
        departures,
        known,
        shrink_requests,
        options,
    } = args;
    let game = game_by_id(&game)?;
    let match_options = options.for_game(game)?;
    let target = match out_path {
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
        Some(dir) => Out::Dir(dir),
    };
    let known = known
        .map(|path| Known::load(&path))
        .transpose()
        .map_err(|e| Usage(format!("--known: {e}")))?
        .unwrap_or_default();
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
    // The built-in library names each departure's clauses; without it, none are named.
    let library = load_library(
        &Source::Embedded,
        &games::all(),
        &LoadOptions {
            only: vec![game.info().id.to_string()],
            ..LoadOptions::default()
        },
    )
    .ok();
    let index = library
        .as_ref()
        .and_then(|l| l.games.first())
        .map(ClauseIndex::new);
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
    let mut text = String::new();
    for skipped in &outcome.known {
        text.push_str(&known_line(skipped));
    }
    if outcome.findings.is_empty() {
        text.push_str(&format!(
            "no {}disagreement in {} inputs ({} unsupported by the engine)\n",
            if outcome.known.is_empty() { "" } else { "new " },
            outcome.runs,
            outcome.unsupported
        ));
        out(&text)?;
        return Ok(Finished::AllPassed);
    }
    if let Out::Dir(dir) = &target {
        std::fs::create_dir_all(dir)
            .map_err(|e| Usage(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut cases = String::new();
    let mut summaries = String::new();
    for (k, finding) in outcome.findings.iter().enumerate() {
        let case = diff::case_file(game, finding, &command, seed);
        let written = match &target {
            Out::Stdout => {
                cases.push_str(&format!("\n{case}"));
                None
            }
            Out::File(path) => Some(write(path, &case)?),
            Out::Dir(dir) => {
                let name = format!("diff-seed-{seed}-run-{}.yaml", finding.run);
                Some(write(&dir.join(name), &case)?)
            }
        };
        text.push_str(&details(k + 1, finding));
        summaries.push_str(&summary(
            k + 1,
            finding,
            outcome.seen[k],
            written.as_deref(),
        ));
    }
    text.push_str(&format!(
        "{} distinct departure{} in {} inputs, by the clause a variant that reproduces each \
         breaks ({} more showing departures already found, {} unsupported by the engine):\n\
         {summaries}",
        outcome.findings.len(),
        plural(outcome.findings.len()),
        outcome.runs,
        outcome.repeats,
        outcome.unsupported
    ));
    text.push_str(&cases);
    out(&text)?;
    Ok(Finished::SomethingFailed)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn write(path: &Path, case: &str) -> Result<PathBuf, Usage> {
    std::fs::write(path, case)
        .map_err(|e| Usage(format!("cannot write {}: {e}", path.display())))?;
    Ok(path.to_path_buf())
}

/// `known (PATTERN: REASON), seen on N inputs: NAME`
fn known_line(skipped: &diff::Skipped) -> String {
    format!(
        "known ({}: {}), seen on {} input{}: {}\n",
        skipped.pattern,
        skipped.reason,
        skipped.seen,
        plural(skipped.seen),
        skipped.describe
    )
}

/// The original disagreement next to the shrunk one, with the size of each.
fn details(k: usize, finding: &Finding) -> String {
    // The case file holds the whole difference; here, enough to recognise it.
    const SHOWN: usize = 24;
    let indent = |text: &str| -> String {
        let lines: Vec<&str> = text.lines().collect();
        let mut shown: String = lines
            .iter()
            .take(SHOWN)
            .map(|l| format!("    {l}\n"))
            .collect();
        if lines.len() > SHOWN {
            shown.push_str(&format!("    ... ({} more lines)\n", lines.len() - SHOWN));
        }
        shown
    };
    let stopped = if finding.minimal {
        "minimal"
    } else {
        "the request budget ran out first"
    };
    format!(
        "departure {k}: {} (run {}, shrunk in {} steps, {} requests, {stopped})\n  as found \
         ({}; showing {}):\n{}  shrunk ({}; showing {}):\n{}",
        finding.part.describe(),
        finding.run,
        finding.shrink_steps,
        finding.shrink_requests,
        finding.size_before,
        finding.original_departure,
        indent(&finding.original_difference),
        finding.size_after,
        finding.departure,
        indent(&finding.difference),
    )
}

/// `  1. score.chain · chain scores … · players[].score · seen on 7 inputs · turn 0 · FILE`;
/// a departure no variant reproduces names the clauses whose cases check its fields.
fn summary(k: usize, finding: &Finding, seen: usize, written: Option<&Path>) -> String {
    let what = match &finding.part.does {
        Some(does) => format!("{} · {does}", finding.part.name),
        None if finding.concerns.is_empty() => finding.part.name.clone(),
        None => format!(
            "{} · checked by {}",
            finding.part.name,
            finding.concerns.join(", ")
        ),
    };
    let fields = if finding.part.variant.is_some() {
        format!(" · {}", finding.part.fields.join(", "))
    } else {
        String::new()
    };
    let turn = finding
        .turn()
        .map_or("turn -".to_string(), |t| format!("turn {t}"));
    let file = written.map_or("stdout".to_string(), |p| p.display().to_string());
    format!(
        "  {k}. {what}{fields} · seen on {seen} input{} · {} → {} lines · {turn} · {file}\n",
        plural(seen),
        finding.size_before.lines,
        finding.size_after.lines
    )
}

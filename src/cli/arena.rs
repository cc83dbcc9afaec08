//! `shinpan play --matches`: the arena. Makes the log directory, plays the plan on the workers
//! with a progress line, adds each match to the report as it ends, warns when parallel matches
//! may have made replies late, and prints the report (interrupted: what it has).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shinpan::harness::arena::{run_arena, ArenaLogs, ArenaPlan, KeepLogs};
use shinpan::harness::log::now_us;
use shinpan::harness::play::{Contender, PlayOptions};
use shinpan::harness::session::Clock;
use shinpan::report::arena::{ArenaHeader, ArenaReport};
use shinpan::report::html::arena::arena_page;
use shinpan::report::{Format, Render};
use shinpan::seam::DynGame;

use super::files::write_atomically;
use super::{out, warn, Finished, Usage};

/// What an arena is asked to play.
pub struct Arena {
    pub seed: u64,
    pub seeds: usize,
    pub jobs: usize,
    pub log_dir: Option<PathBuf>,
    pub keep: KeepLogs,
    /// `None`: the HTML page.
    pub format: Option<Format>,
}

pub fn run(
    game: &dyn DynGame,
    contenders: &[Contender],
    plan: ArenaPlan,
    options: &PlayOptions,
    arena: Arena,
) -> Result<Finished, Usage> {
    let total = plan.matches().ok_or_else(|| {
        Usage(format!(
            "--matches {} in {} seat orders is more matches than can be counted",
            arena.seeds,
            plan.orders.len()
        ))
    })?;
    let defaulted = arena.log_dir.is_none();
    let dir = arena.log_dir.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("shinpan-play-{}-{}", std::process::id(), now_us()))
    });
    std::fs::create_dir_all(&dir).map_err(|e| {
        Usage(format!(
            "cannot make the log directory {}: {e}",
            dir.display()
        ))
    })?;
    // No more workers than matches: each one starts its own programs.
    let jobs = arena.jobs.min(total);
    let mut report = ArenaReport::new(ArenaHeader {
        game: game.info().id.to_string(),
        contenders: contenders.iter().map(Contender::label).collect(),
        first_seed: arena.seed,
        seeds: arena.seeds,
        orders: plan.orders.clone(),
        planned: total,
        jobs,
        log_dir: dir.clone(),
        logs_kept: arena.keep,
    });
    let bar = progress_bar(total);
    let mut slowest_ms = 0;
    let mut time_outs = 0;
    let logs = ArenaLogs {
        dir: dir.clone(),
        keep: arena.keep,
    };
    let run = run_arena(game, contenders, &plan, options, jobs, &logs, |played| {
        let m = &played.result;
        slowest_ms = m
            .slowest_reply_ms
            .iter()
            .copied()
            .fold(slowest_ms, u64::max);
        time_outs += m.late_replies.iter().sum::<usize>();
        report.add(played.index, m, played.log);
        bar.inc(1);
        bar.set_message(format!("{} failures", report.failures.len()));
    });
    bar.finish_and_clear();
    if defaulted && report.failures.is_empty() && arena.keep == KeepLogs::Failures {
        // Nothing kept: the directory made for the run goes too (only if it is empty).
        let _ = std::fs::remove_dir(&dir);
    }
    let run = run.map_err(|e| Usage(e.to_string()))?;
    report.finish(run.interrupted);
    match arena.format {
        Some(format) => out(&report.render(format))?,
        None => out(&html_page(game, &report))?,
    }
    if jobs > 1 {
        let turn = Clock::new(game.info().limits, options.limits).turn_limit();
        warn_if_late(jobs, turn, slowest_ms, time_outs);
    }
    Ok(Finished::AllPassed)
}

/// The arena's page, each failure linked to the replay page written beside its log (the links
/// are names in the log directory, which the page's `<base>` points at, so the page may be
/// saved anywhere on this machine). A log that cannot be replayed is named, not linked.
fn html_page(game: &dyn DynGame, report: &ArenaReport) -> String {
    let mut written = BTreeSet::new();
    for log in report.failures.iter().filter_map(|f| f.log.as_deref()) {
        if written.contains(log) {
            continue;
        }
        let page = super::replay::page_of_log(game, log, None);
        let path = log.with_extension("html");
        match page.map(|page| write_atomically(&path, &page)) {
            Ok(Ok(())) => {
                written.insert(log.to_path_buf());
            }
            Ok(Err(e)) => warn(&format!("cannot write {}: {e}", path.display())),
            Err(Usage(why)) => warn(&format!("no replay of {}: {why}", log.display())),
        }
    }
    let dir = std::path::absolute(&report.arena.log_dir).unwrap_or(report.arena.log_dir.clone());
    let base = file_url(&dir);
    let replay = |log: &Path| {
        let name = log.with_extension("html");
        let name = name.file_name()?.to_str()?;
        written.contains(log).then(|| url_escape(name))
    };
    arena_page(report, &base, &replay)
}

/// `dir` as a `file://` URL ending in `/`.
fn file_url(dir: &Path) -> String {
    format!("file://{}/", url_escape(&dir.to_string_lossy()))
}

/// `text` with what a URL path cannot hold as itself percent-encoded.
fn url_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Matches in parallel share the machine: says so when a reply took more than half the time for
/// one or came too late, since alone it might not have.
fn warn_if_late(jobs: usize, turn: Duration, slowest_ms: u64, time_outs: usize) {
    let turn_ms = turn.as_millis() as u64;
    let what = if time_outs > 0 {
        format!(
            "{time_outs} repl{} timed out",
            if time_outs == 1 { "y" } else { "ies" }
        )
    } else if slowest_ms.saturating_mul(2) > turn_ms {
        format!("a reply took {slowest_ms} ms of the {turn_ms} ms allowed")
    } else {
        return;
    };
    warn(&format!(
        "{what} with {jobs} matches at once: bots share the cores and may be late only because \
         of it; run again with --jobs 1 to confirm"
    ));
}

/// Matches done of the total and the failures so far, on stderr when it is a terminal
/// (indicatif draws nothing otherwise).
fn progress_bar(total: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("[{pos}/{len} matches] {msg}, {eta} left") {
        bar.set_style(style);
    }
    bar.set_message("0 failures");
    bar
}

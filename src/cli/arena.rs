//! `shinpan play --matches`: the arena. Makes the log directory (refusing one that holds
//! anything, unless `--replace-logs`), plays the plan on the workers with a progress line, adds
//! each match to the report as it ends, warns when parallel matches may have made replies late,
//! and prints the report: interrupted, or stopped by a program that cannot start or a log that
//! cannot be written, what it has (and then exits 2 for the latter). As a page, the arena's
//! own page is printed first, then each failure's replay page is written beside its log, with a
//! progress line: an interrupt then keeps the page and the replay pages written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shinpan::harness::arena::{run_arena, ArenaLogs, ArenaPlan, KeepLogs};
use shinpan::harness::interrupt;
use shinpan::harness::log::now_us;
use shinpan::harness::play::{Contender, PlayOptions};
use shinpan::harness::session::Clock;
use shinpan::report::arena::{ArenaHeader, ArenaReport};
use shinpan::report::html::arena::arena_page;
use shinpan::report::{Format, Render};
use shinpan::seam::DynGame;

use super::files::write_atomically;
use super::{out, progress, warn, Finished, Usage};

/// What an arena is asked to play.
pub struct Arena {
    pub seed: u64,
    pub seeds: usize,
    pub jobs: usize,
    pub log_dir: Option<PathBuf>,
    pub keep: KeepLogs,
    /// `--replace-logs`: write into a log directory that holds files already.
    pub replace: bool,
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
    check_log_dir(&dir, arena.replace)?;
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
        replace: arena.replace,
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
    report.finish(run.interrupted);
    match arena.format {
        Some(format) => out(&report.render(format))?,
        None => {
            out(&html_page(&report))?;
            write_replay_pages(game, &report);
        }
    }
    if jobs > 1 {
        let turn = Clock::new(game.info().limits, options.limits).turn_limit();
        warn_if_late(jobs, turn, slowest_ms, time_outs);
    }
    match run.error {
        Some(e) => Err(Usage(e.to_string())),
        None => Ok(Finished::AllPassed),
    }
}

/// A log directory given on the command line must hold nothing: a second run into the same
/// directory would replace (or, keeping only failures, delete) the logs of the first. With
/// `--replace-logs` it may, and the symbolic links in it are named: a log of their name
/// replaces the link, never what it points to.
fn check_log_dir(dir: &Path, replace: bool) -> Result<(), Usage> {
    let cannot = |e: std::io::Error| {
        Usage(format!(
            "cannot read the log directory {}: {e}",
            dir.display()
        ))
    };
    let mut names = Vec::new();
    let mut links = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let entry = entry.map_err(cannot)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().is_ok_and(|t| t.is_symlink()) {
            links.push(name.clone());
        }
        names.push(name);
    }
    names.sort();
    links.sort();
    if !replace && !names.is_empty() {
        return Err(Usage(format!(
            "the log directory {} is not empty ({} entr{}: {}{}): a run into it would replace \
             the logs there; give a new or empty directory, or --replace-logs",
            dir.display(),
            names.len(),
            if names.len() == 1 { "y" } else { "ies" },
            names[..names.len().min(3)].join(", "),
            if names.len() > 3 { ", …" } else { "" }
        )));
    }
    if !links.is_empty() {
        warn(&format!(
            "the log directory {} holds {} symbolic link(s) ({}): a log of this run of the same \
             name replaces the link, and what it points to is left as it is",
            dir.display(),
            links.len(),
            links[..links.len().min(3)].join(", ")
        ));
    }
    Ok(())
}

/// The arena's page, each failure linked to the replay page of its log, written beside the log
/// once this page is printed ([`write_replay_pages`]; the links are names in the log directory,
/// which the page's `<base>` points at, so the page may be saved anywhere on this machine).
fn html_page(report: &ArenaReport) -> String {
    let dir = std::path::absolute(&report.arena.log_dir).unwrap_or(report.arena.log_dir.clone());
    let base = file_url(&dir);
    let replay = |log: &Path| {
        let name = log.with_extension("html");
        let name = name.file_name()?.to_str()?;
        Some(url_escape(name))
    };
    arena_page(report, &base, &replay)
}

/// The replay page of each failure's log, beside it, one after the other with a progress line
/// on stderr, until done or interrupted (the pages written stay; each is written whole or not at
/// all). A log that cannot be replayed gets a page that says why, so that its link says it too.
fn write_replay_pages(game: &dyn DynGame, report: &ArenaReport) {
    let logs: Vec<&Path> = report
        .failures
        .iter()
        .filter_map(|f| f.log.as_deref())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let total = logs.len();
    let mut written = 0;
    for (k, log) in logs.iter().enumerate() {
        if let Some(signal) = interrupt::received() {
            progress("\r\x1b[K");
            warn(&format!(
                "interrupted by {} after {written} of {total} replay pages",
                interrupt::name(signal)
            ));
            return;
        }
        progress(&format!(
            "\r\x1b[Kwriting replay page {} of {total}: {}",
            k + 1,
            log.display()
        ));
        let path = log.with_extension("html");
        let page = super::replay::page_of_log(game, log, None).unwrap_or_else(|Usage(why)| {
            warn(&format!("no replay of {}: {why}", log.display()));
            no_replay_page(log, &why)
        });
        match write_atomically(&path, &page) {
            Ok(()) => written += 1,
            Err(e) => warn(&format!("cannot write {}: {e}", path.display())),
        }
    }
    progress("\r\x1b[K");
}

/// The page in the place of a replay that cannot be made.
fn no_replay_page(log: &Path, why: &str) -> String {
    let log = shinpan::seam::escape(&log.display().to_string());
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>shinpan: no \
         replay</title>\n</head>\n<body>\n<h1>No replay of {log}</h1>\n<p id=\"why\">{}</p>\n</body>\n\
         </html>\n",
        shinpan::seam::escape(why)
    )
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

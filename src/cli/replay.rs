//! The replay page of a recorded match (`trace --format html`, `play --log … --format html`,
//! the pages beside an arena's logs): the match read as `trace` reads it, each step drawn as
//! it is read.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use shinpan::cores::on_every_core;
use shinpan::harness::log::{LogIndex, MatchLog};
use shinpan::harness::replay::replay_played;
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::{trace_seen, Seen, TraceConfig, TraceReport};
use shinpan::report::html::replay::{
    departures_section, replay_page, ReplayBuilder, ReplayMatch, ReplayPage,
};
use shinpan::seam::{DynGame, MatchOptions};

use super::{progress, Usage};

/// What a replay page says of where the match came from.
pub struct Origin<'a> {
    pub title: &'a str,
    pub facts: Vec<(&'a str, String)>,
    /// Whether the departures a trace finds are shown (`trace`); a replay of shinpan's own
    /// match has none to show.
    pub departures: bool,
}

/// The match `read` traced as `config` says, and its replay page.
pub fn traced_page(
    game: &dyn DynGame,
    read: &MatchLog,
    index: &ClauseIndex,
    config: &TraceConfig,
    origin: Origin<'_>,
) -> (TraceReport, String) {
    let (report, traced) = traced_match(game, read, index, config);
    let departures = if origin.departures {
        departures_section(&report.departures, &traced.replay)
    } else {
        String::new()
    };
    let page = ReplayPage {
        title: origin.title,
        facts: &origin.facts,
        departures: &departures,
    };
    let page = replay_page(&page, &[traced.pack()]);
    (report, page)
}

/// The match `read` traced as `config` says, with what the page says of it.
fn traced_match(
    game: &dyn DynGame,
    read: &MatchLog,
    index: &ClauseIndex,
    config: &TraceConfig,
) -> (TraceReport, ReplayMatch) {
    let mut builder = ReplayBuilder::new(game);
    let mut see = |seen: Seen<'_>| builder.see(seen);
    let report = trace_seen(game, &read.players, index, config, Some(&mut see));
    let replay = builder.finish();
    let number = read.read.unwrap_or(0);
    let mut facts = vec![("match", number.to_string())];
    facts.push(("steps", report.steps.to_string()));
    if let Some(why) = &report.stopped {
        facts.push(("stopped", why.clone()));
    }
    let traced = ReplayMatch {
        label: format!("match {number}, {} steps", report.steps),
        facts,
        outcome: outcome(&report, read),
        replay,
    };
    (report, traced)
}

/// The end of the match as people read it: what the log records, and what the rules give.
fn outcome(report: &TraceReport, read: &MatchLog) -> String {
    let text = |v: &serde_json::Value| v.to_string();
    match (&report.outcome, &read.outcome) {
        (Some(check), _) => match (&check.log, &check.rules) {
            (Some(log), Some(rules)) if check.agrees == Some(true) => {
                format!("{} (the log and the rules agree)", text(log))
            }
            (Some(log), rules) => format!(
                "the log: {}; the rules: {}",
                text(log),
                rules.as_ref().map_or("the match goes on".into(), text)
            ),
            (None, Some(rules)) => format!("{} (by the rules)", text(rules)),
            (None, None) => "the match goes on".into(),
        },
        (None, Some(log)) => format!("{} (the log)", text(log)),
        (None, None) => "not in the log: it ends before the match does".into(),
    }
}

/// The replay page of the `play` log at `path`: its match `index`, or every match it holds
/// (`play --rounds 10 --format html`), each under its own entry of the page's match picker.
///
/// The matches are read a batch at a time ([`LogIndex::each`]), each batch drawn on every core
/// and packed as soon as it is drawn: a page of many long matches holds the packed matches and
/// one batch of matches read, not the whole log.
pub fn page_of_log(game: &dyn DynGame, path: &Path, index: Option<u64>) -> Result<String, Usage> {
    let paths = [path.to_path_buf()];
    let logs = LogIndex::open(&paths).map_err(|e| Usage(e.to_string()))?;
    let total = match index {
        Some(_) => 1,
        None => logs.matches().len().max(1),
    };
    let title = format!("shinpan replay: {}", game.info().id);
    let facts = vec![
        ("game", game.info().id.to_string()),
        ("log", path.display().to_string()),
        ("matches", total.to_string()),
    ];
    let page = ReplayPage {
        title: &title,
        facts: &facts,
        departures: "",
    };
    let drawn = AtomicUsize::new(0);
    let draw = |batch: &[MatchLog]| {
        let size = |read: &MatchLog| {
            read.players
                .values()
                .map(|p| p.exchanges.len() as u64)
                .sum()
        };
        on_every_core(batch, size, |read| {
            let packed = played_match(game, read).pack();
            let done = drawn.fetch_add(1, Ordering::Relaxed) + 1;
            if total > 1 {
                progress(&format!("\r\x1b[Kdrew match {done} of {total}"));
            }
            packed
        })
    };
    let mut matches = Vec::new();
    match index {
        Some(index) => {
            let read = logs.read(Some(index)).map_err(|e| Usage(e.to_string()))?;
            matches.extend(draw(&[read]));
        }
        None => {
            let mut batch = Vec::new();
            let mut exchanges = 0;
            logs.each(|read| {
                exchanges += read
                    .players
                    .values()
                    .map(|p| p.exchanges.len())
                    .sum::<usize>();
                batch.push(read);
                if batch.len() >= BATCH_MATCHES || exchanges >= BATCH_EXCHANGES {
                    matches.extend(draw(&batch));
                    batch.clear();
                    exchanges = 0;
                }
                ControlFlow::Continue(())
            })
            .map_err(|e| Usage(e.to_string()))?;
            matches.extend(draw(&batch));
        }
    }
    if total > 1 {
        progress("\r\x1b[K");
    }
    Ok(replay_page(&page, &matches))
}

/// The most matches read before a batch is drawn: enough to keep every core busy.
const BATCH_MATCHES: usize = 64;

/// The most exchanges (a prompt and its reply) read before a batch is drawn, so that a batch of
/// long matches is drawn before more are read.
const BATCH_EXCHANGES: usize = 50_000;

/// Match `read` of a `play` log made again by the reference engine from the log's seed, every
/// state whole; a log that names no seed is read as a trace reads it.
fn played_match(game: &dyn DynGame, read: &MatchLog) -> ReplayMatch {
    let Some(seed) = read.start.seed else {
        let config = TraceConfig {
            options: read.start.options.clone().map(MatchOptions),
            options_from: "from the log's start record".into(),
            outcome: read.outcome.clone(),
            log_cut: !read.incomplete.is_empty(),
            ..TraceConfig::default()
        };
        // A replay names no departure: no clause is looked up.
        return traced_match(game, read, &ClauseIndex::default(), &config).1;
    };
    let mut builder = ReplayBuilder::new(game);
    let played = replay_played(game, read, &mut |seen| builder.see(seen));
    let replay = builder.finish();
    let number = read.read.unwrap_or(0);
    let steps = replay.steps().saturating_sub(1);
    let mut facts = vec![
        ("match", number.to_string()),
        ("seed", seed.to_string()),
        ("steps", steps.to_string()),
    ];
    if let Err(why) = played {
        facts.push(("stopped", why.to_string()));
    }
    for why in &read.incomplete {
        facts.push(("incomplete", why.clone()));
    }
    let outcome = match &read.outcome {
        Some(outcome) => outcome.to_string(),
        None => "not in the log: it ends before the match does".into(),
    };
    ReplayMatch {
        label: format!("match {number}, seed {seed}, {steps} steps"),
        facts,
        outcome,
        replay,
    }
}

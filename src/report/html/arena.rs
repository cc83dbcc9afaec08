//! An arena's report (`play --matches … --format html`) as one self-contained page, with the
//! content of its JSON: what was played, the pairs with their win rates and 95% Wilson
//! intervals, each contender's failures by kind, and every failure listed, linked to the
//! replay page of its log where one was written.

use std::fmt::Write as _;
use std::path::Path;

use crate::report::arena::ArenaReport;
use crate::report::arena_table::percent;
use crate::seam::escape;

const STYLE: &str = include_str!("style.css");

/// The page of `report`; `replay` gives the link to the replay page of a log, if there is one,
/// relative to `base` (the URL of the log directory).
pub fn arena_page(
    report: &ArenaReport,
    base: &str,
    replay: &dyn Fn(&Path) -> Option<String>,
) -> String {
    let r = report;
    let mut out = String::with_capacity(16 * 1024);
    let title = format!("shinpan arena: {}", r.arena.game);
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<base href=\"{1}\">\n<style>\n{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{0}</h1>\n<dl class=\"meta\">",
        escape(&title),
        escape(base)
    );
    let last_seed = r
        .arena
        .first_seed
        .wrapping_add(r.arena.seeds.saturating_sub(1) as u64);
    let rows = [
        (
            "seeds",
            format!("{}..{} ({})", r.arena.first_seed, last_seed, r.arena.seeds),
        ),
        ("seat orders", r.arena.orders.len().to_string()),
        (
            "matches",
            format!("{} of {} played", r.played, r.arena.planned),
        ),
        ("at a time", r.arena.jobs.to_string()),
        ("logs", r.arena.log_dir.display().to_string()),
    ];
    for (name, value) in rows {
        let _ = writeln!(out, "<dt>{name}</dt><dd>{}</dd>", escape(&value));
    }
    for (c, label) in r.arena.contenders.iter().enumerate() {
        let _ = writeln!(
            out,
            "<dt>#{}</dt><dd><code>{}</code></dd>",
            c + 1,
            escape(label)
        );
    }
    if let Some(why) = &r.interrupted {
        let _ = writeln!(out, "<dt>INTERRUPTED</dt><dd>{}</dd>", escape(why));
    }
    out.push_str("</dl>\n</header>\n<h2>Pairs</h2>\n<table class=\"totals\" id=\"pairs\">\n<tr><th>pair</th><th>games</th><th>wins</th><th>losses</th><th>draws</th><th>win rate</th><th>95% CI (Wilson)</th><th>failed</th></tr>\n");
    for p in &r.pairs {
        let _ = writeln!(
            out,
            "<tr data-pair=\"{}-{}\"><td>#{} vs #{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} / {}</td></tr>",
            p.a + 1,
            p.b + 1,
            p.a + 1,
            p.b + 1,
            p.games,
            p.wins,
            p.losses,
            p.draws,
            p.win_rate.map_or("-".into(), percent),
            p.ci95.map_or("-".into(), |[low, high]| format!("{} – {}", percent(low), percent(high))),
            p.a_failed,
            p.b_failed
        );
    }
    out.push_str("</table>\n<p>win rate: wins / (wins + losses) of the first of the pair, draws apart; failed: games in which each of the pair crashed, timed out or replied illegally.</p>\n<h2>Failures, counted apart from losses</h2>\n<table class=\"totals\">\n<tr><th>contender</th><th>games</th><th>crashes</th><th>time-outs</th><th>illegal replies</th></tr>\n");
    for c in &r.failure_counts {
        let _ = writeln!(
            out,
            "<tr><td>#{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            c.contender + 1,
            c.games,
            c.crashes,
            c.time_outs,
            c.illegal
        );
    }
    out.push_str("</table>\n");
    failures(&mut out, r, replay);
    out.push_str("</body>\n</html>\n");
    out
}

/// Every failure listed, each with its log and the replay of it.
fn failures(out: &mut String, r: &ArenaReport, replay: &dyn Fn(&Path) -> Option<String>) {
    if r.failures.is_empty() {
        out.push_str("<p>No crash, time-out or illegal reply.</p>\n");
        return;
    }
    out.push_str("<table class=\"totals\" id=\"failures\">\n<tr><th>contender</th><th>what</th><th>seed</th><th>seats</th><th>seat</th><th>step</th><th>detail</th><th>replay</th></tr>\n");
    for f in &r.failures {
        let seats: Vec<String> = f.seats.iter().map(|c| format!("#{}", c + 1)).collect();
        let step = f.step.map_or("handshake".into(), |s| s.to_string());
        let link = match f.log.as_deref() {
            Some(log) => match replay(log) {
                Some(href) => format!(
                    "<a class=\"replay\" href=\"{}#step={}\">{}</a>",
                    escape(&href),
                    f.step.unwrap_or(0),
                    escape(&log.display().to_string())
                ),
                None => escape(&log.display().to_string()),
            },
            None => "no log".into(),
        };
        let _ = writeln!(
            out,
            "<tr data-failure=\"{}\"><td>#{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{step}</td><td>{}</td><td>{link}</td></tr>",
            f.kind.name(),
            f.contender + 1,
            f.kind.name(),
            f.seed,
            seats.join(" "),
            f.seat,
            escape(&f.detail)
        );
    }
    out.push_str("</table>\n");
    if r.failures_unlisted > 0 {
        let _ = writeln!(
            out,
            "<p>And {} more, not listed (their logs are in the directory).</p>",
            r.failures_unlisted
        );
    }
}

//! The human rendering of an arena's report ([`super::arena::ArenaReport`]): what was played,
//! the table of pairs with win rates and 95% intervals, each contender's failures by kind, and
//! every failure with the log to replay it.

use std::path::Path;

use super::arena::{ArenaReport, FailureRecord, PairRecord};
use crate::harness::arena::KeepLogs;

pub(super) fn human(r: &ArenaReport) -> String {
    let mut out = format!(
        "{} arena: seeds {}..{} ({}), {} seat order{} each: {} of {} matches played, {} at a time\n",
        r.game,
        r.first_seed,
        r.first_seed.wrapping_add(r.seeds.saturating_sub(1) as u64),
        r.seeds,
        r.orders.len(),
        if r.orders.len() == 1 { "" } else { "s" },
        r.played,
        r.planned,
        r.jobs,
    );
    for (c, label) in r.contenders.iter().enumerate() {
        out.push_str(&format!("  #{} {label}\n", c + 1));
    }
    out.push('\n');
    out.push_str(&pair_table(&r.pairs));
    out.push_str(
        "win rate: wins / (wins + losses) of the first of the pair, draws apart; \
         failed: games in which each of the pair crashed, timed out or replied illegally\n",
    );
    out.push_str("\nfailures (crashes, time-outs, illegal replies), counted apart from losses:\n");
    for counts in &r.failure_counts {
        out.push_str(&format!(
            "  #{}: {} crash{}, {} time-out{}, {} illegal repl{} in {} games\n",
            counts.contender + 1,
            counts.crashes,
            if counts.crashes == 1 { "" } else { "es" },
            counts.time_outs,
            if counts.time_outs == 1 { "" } else { "s" },
            counts.illegal,
            if counts.illegal == 1 { "y" } else { "ies" },
            counts.games,
        ));
    }
    match (r.logs_kept, r.failures.is_empty()) {
        (KeepLogs::Failures, true) => {}
        (KeepLogs::Failures, false) => out.push_str(&format!(
            "logs of the matches with a failure in {} (replay: shinpan trace {} LOG):\n",
            r.log_dir.display(),
            r.game
        )),
        (KeepLogs::All, _) => out.push_str(&format!(
            "logs of every match in {} (replay: shinpan trace {} LOG):\n",
            r.log_dir.display(),
            r.game
        )),
    }
    for failure in &r.failures {
        out.push_str(&format!("  {}\n", failure_line(failure, Some(&r.log_dir))));
    }
    if let Some(why) = &r.interrupted {
        out.push_str(&format!("INTERRUPTED: {why}\n"));
    }
    out
}

/// The pairs as aligned columns.
fn pair_table(pairs: &[PairRecord]) -> String {
    let mut rows = vec![[
        "pair".to_string(),
        "games".into(),
        "wins".into(),
        "losses".into(),
        "draws".into(),
        "win rate".into(),
        "95% CI (Wilson)".into(),
        "failed".into(),
    ]];
    for p in pairs {
        rows.push([
            format!("#{} vs #{}", p.a + 1, p.b + 1),
            p.games.to_string(),
            p.wins.to_string(),
            p.losses.to_string(),
            p.draws.to_string(),
            p.win_rate.map_or("-".into(), percent),
            p.ci95.map_or("-".into(), |[low, high]| {
                format!("{} - {}", percent(low), percent(high))
            }),
            format!("{} / {}", p.a_failed, p.b_failed),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                if i == 0 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        out.push_str(&format!("  {}\n", cells.join("  ").trim_end()));
    }
    out
}

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A failure in one line: who, what, where, and its log (named from `dir`, when it is there).
pub(super) fn failure_line(f: &FailureRecord, dir: Option<&Path>) -> String {
    let seats: Vec<String> = f.seats.iter().map(|c| format!("#{}", c + 1)).collect();
    let step = f
        .step
        .map_or("handshake".to_string(), |s| format!("step {s}"));
    let log = f.log.as_ref().map_or("no log".to_string(), |l| {
        let shown = dir.and_then(|d| l.strip_prefix(d).ok()).unwrap_or(l);
        format!("log {}", shown.display())
    });
    format!(
        "#{} {} seed {} [{}] seat {} {step}: {}; {log}",
        f.contender + 1,
        f.kind.name(),
        f.seed,
        seats.join(" "),
        f.seat,
        f.detail,
    )
}

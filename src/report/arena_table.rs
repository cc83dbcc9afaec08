//! The renderings of an arena's report ([`super::arena::ArenaReport`]). For people: what was
//! played, the table of pairs with win rates and 95% intervals, each contender's failures by
//! kind, and every failure with the log to replay it. JSON: the report itself. JUnit: a test
//! case per contender.

use std::path::Path;

use super::arena::{ArenaReport, FailureRecord, PairRecord};
use super::{JunitRow, JunitStatus, Render};
use crate::harness::arena::KeepLogs;

impl Render for ArenaReport {
    fn human(&self) -> String {
        human(self)
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One test case per contender: failed when it crashed, timed out or replied illegally,
    /// each failure with its log.
    fn junit(&self) -> String {
        let lines: Vec<(String, String)> = self
            .arena
            .contenders
            .iter()
            .enumerate()
            .map(|(c, label)| {
                let failures: Vec<String> = self
                    .failures
                    .iter()
                    .filter(|f| f.contender == c)
                    .map(|f| failure_line(f, None))
                    .collect();
                (format!("#{} {label}", c + 1), failures.join("\n"))
            })
            .collect();
        let rows = lines.iter().map(|(name, failures)| JunitRow {
            suite: &self.arena.game,
            name,
            classname: format!("{}/play", self.arena.game),
            status: if failures.is_empty() {
                JunitStatus::Passed
            } else {
                JunitStatus::Failed(failures)
            },
            stdout: None,
            stderr: None,
        });
        super::junit(&format!("shinpan play {}", self.arena.game), rows)
    }
}

fn human(r: &ArenaReport) -> String {
    let mut out = format!(
        "{} arena: seeds {}..{} ({}), {} seat order{} each: {} of {} matches played, {} at a time\n",
        r.arena.game,
        r.arena.first_seed,
        r.arena.first_seed.wrapping_add(r.arena.seeds.saturating_sub(1) as u64),
        r.arena.seeds,
        r.arena.orders.len(),
        if r.arena.orders.len() == 1 { "" } else { "s" },
        r.played,
        r.arena.planned,
        r.arena.jobs,
    );
    for (c, label) in r.arena.contenders.iter().enumerate() {
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
    match (r.arena.logs_kept, r.failures.is_empty()) {
        (KeepLogs::Failures, true) => {}
        (KeepLogs::Failures, false) => out.push_str(&format!(
            "logs of the matches with a failure in {} (replay: shinpan trace {} LOG):\n",
            r.arena.log_dir.display(),
            r.arena.game
        )),
        (KeepLogs::All, _) => out.push_str(&format!(
            "logs of every match in {} (replay: shinpan trace {} LOG):\n",
            r.arena.log_dir.display(),
            r.arena.game
        )),
    }
    for failure in &r.failures {
        out.push_str(&format!(
            "  {}\n",
            failure_line(failure, Some(&r.arena.log_dir))
        ));
    }
    if r.failures_unlisted > 0 {
        out.push_str(&format!(
            "  and {} more, not listed (their logs are in the directory)\n",
            r.failures_unlisted
        ));
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

pub(crate) fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A failure in one line: who, what, where, and its log (named from `dir`, when it is there).
fn failure_line(f: &FailureRecord, dir: Option<&Path>) -> String {
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::arena::{ArenaHeader, ArenaReport};
    use super::*;
    use crate::harness::play::{FailureKind, MatchResult, SeatFailure};
    use crate::seam::Outcome;

    /// A two-player match of seed `seed`, contender `seats[s]` in seat `s`, won by the contender
    /// `winner`, with `failures` per seat.
    fn ended(
        seed: u64,
        seats: [usize; 2],
        winner: Option<usize>,
        failures: [Option<SeatFailure>; 2],
    ) -> MatchResult {
        let winning_seat = winner.and_then(|w| seats.iter().position(|&c| c == w));
        MatchResult {
            seed,
            seats: seats.to_vec(),
            failures: failures.to_vec(),
            ..MatchResult::ended(Outcome::new(winning_seat, "danger-line"), winner, 10)
        }
    }

    fn crash(step: Option<usize>) -> Option<SeatFailure> {
        Some(SeatFailure {
            kind: FailureKind::Crash,
            step,
            detail: "the output ended".into(),
        })
    }

    /// Five matches, added out of plan order: #1 wins three, loses one (by a crash in its
    /// handshake), draws one; #2 crashes once at step 4 and loses that match.
    fn report() -> ArenaReport {
        let dir = PathBuf::from("/logs");
        let mut report = ArenaReport::new(ArenaHeader {
            game: "codevs-reborn".into(),
            contenders: vec!["python3 a.py".into(), "builtin".into()],
            first_seed: 1,
            seeds: 3,
            orders: vec![vec![0, 1], vec![1, 0]],
            planned: 6,
            jobs: 2,
            log_dir: dir.clone(),
            logs_kept: KeepLogs::Failures,
        });
        let log = |name: &str| Some(dir.join(name));
        report.add(
            3,
            &ended(2, [1, 0], Some(0), [crash(Some(4)), None]),
            log("seed-2-seats-2-1.jsonl"),
        );
        report.add(0, &ended(1, [0, 1], Some(0), [None, None]), None);
        report.add(
            1,
            &ended(1, [1, 0], Some(1), [None, crash(None)]),
            log("seed-1-seats-2-1.jsonl"),
        );
        report.add(2, &ended(2, [0, 1], Some(0), [None, None]), None);
        report.add(4, &ended(3, [0, 1], None, [None, None]), None);
        report.finish(Some("interrupted by SIGINT after 5 of 6 matches".into()));
        report
    }

    #[test]
    fn the_table_counts_each_pair_and_lists_failures_in_plan_order() {
        let text = report().human();
        // Win rate 3 / (3 + 1) = 75.0%. Wilson at 95% for 3 of 4, z² = 3.8416: z²/n = 0.9604,
        // denominator 1.9604; centre's numerator 0.75 + 0.4802 = 1.2302;
        // 0.75 × 0.25 / 4 + 3.8416 / 64 = 0.046875 + 0.060025 = 0.1069, √ = 0.326956,
        // × 1.96 = 0.640834; (1.2302 ∓ 0.640834) / 1.9604 = 0.30064, 0.95441.
        let row = text.lines().find(|l| l.contains("#1 vs #2")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells,
            ["#1", "vs", "#2", "5", "3", "1", "1", "75.0%", "30.1%", "-", "95.4%", "1", "/", "1"],
            "{text}"
        );
        assert!(text.contains("  #1: 1 crash, 0 time-outs, 0 illegal replies in 5 games\n"));
        assert!(text.contains("  #2: 1 crash, 0 time-outs, 0 illegal replies in 5 games\n"));
        // Plan order: match 1 (seed 1) before match 3 (seed 2), though added after it.
        let at = |line: &str| text.find(line).unwrap_or_else(|| panic!("{line}:\n{text}"));
        let first = at("#1 crash seed 1 [#2 #1] seat 1 handshake");
        let second = at("#2 crash seed 2 [#2 #1] seat 0 step 4");
        assert!(first < second, "{text}");
        assert!(text.contains("step 4: the output ended; log seed-2-seats-2-1.jsonl\n"));
        assert!(text.ends_with("INTERRUPTED: interrupted by SIGINT after 5 of 6 matches\n"));
    }

    /// A pair that only drew has no win rate and no interval (not 0 of 0), and nothing failed
    /// that is not listed.
    #[test]
    fn a_pair_of_draws_only_has_no_win_rate() {
        let mut report = ArenaReport::new(ArenaHeader {
            game: "codevs-reborn".into(),
            contenders: vec!["a".into(), "b".into()],
            first_seed: 1,
            seeds: 1,
            orders: vec![vec![0, 1], vec![1, 0]],
            planned: 2,
            jobs: 1,
            log_dir: PathBuf::from("/logs"),
            logs_kept: KeepLogs::Failures,
        });
        report.add(0, &ended(1, [0, 1], None, [None, None]), None);
        report.add(1, &ended(1, [1, 0], None, [None, None]), None);
        report.finish(None);
        let pair = &report.pairs[0];
        assert_eq!((pair.wins, pair.losses, pair.draws), (0, 0, 2));
        assert_eq!((pair.win_rate, pair.ci95), (None, None));
        assert_eq!(report.failures_unlisted, 0);
    }

    /// A bot that crashes in every match: the counts go on, the list stops at its bound, and
    /// what it holds is the first failures in plan order, whatever order they came in.
    #[test]
    fn the_failures_listed_are_bounded() {
        use super::super::arena::LISTED_FAILURES;
        let mut report = report();
        let matches = 2 * LISTED_FAILURES + 10;
        for index in (10..matches + 10).rev() {
            let m = ended(index as u64, [0, 1], Some(0), [None, crash(Some(0))]);
            report.add(index, &m, None);
        }
        report.finish(None);
        assert_eq!(report.failures.len(), LISTED_FAILURES);
        assert_eq!(report.failure_counts[1].crashes, 1 + matches);
        assert_eq!(report.failures_unlisted, 2 + matches - LISTED_FAILURES);
        let listed: Vec<usize> = report.failures.iter().map(|f| f.match_index).collect();
        assert_eq!(listed[..3], [1, 3, 10]);
        assert_eq!(listed.last(), Some(&(LISTED_FAILURES + 7)));
        assert!(report.human().contains(&format!(
            "and {} more, not listed",
            2 + matches - LISTED_FAILURES
        )));
    }

    #[test]
    fn the_report_reads_back_from_its_json() {
        let report = report();
        let read: ArenaReport = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(read, report);
        // JUnit: a case per contender, each failed by its crash, with its log's full path.
        let junit = report.junit();
        assert_eq!(junit.matches("<testcase").count(), 2, "{junit}");
        assert!(
            junit.contains("log /logs/seed-2-seats-2-1.jsonl"),
            "{junit}"
        );
    }
}

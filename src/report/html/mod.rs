//! The `check` report as one self-contained HTML page (`check --format html`, `report FILE
//! --html`): its CSS and script inline, every board an inline SVG, nothing fetched. A header
//! with the suite, the engine and the totals per game; with a baseline, the cases fixed and
//! broken and the new errors; then every case that did not pass, with its clauses' text, its
//! boards (the state given, the result expected and the engine's, the differing fields
//! highlighted) and the diff; filters by game, verdict and clause; `#case-<name>` selects a
//! case.
//!
//! Generic: a game's board is asked of its `Render` capability, and a game without one is said
//! to have no drawing.

pub mod arena;
pub mod bot;
mod case;
pub mod replay;
mod replay_page;

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use super::check::Report;
use crate::run::baseline::Changes;
use crate::seam::{escape, DynGame};

const STYLE: &str = include_str!("style.css");
const SCRIPT: &str = include_str!("filter.js");

/// How many failing cases of each cause get their boards drawn; the others show their diff and
/// a link to the first of their cause (issue 40, item 8: a forged 58 MB report made a 2.1 GB
/// page, a library of one long match's steps a 372 MB one no browser could render).
pub const BOARDS_PER_CAUSE: usize = 5;

/// How many cases in all get their boards drawn, whatever the number of causes.
pub const BOARDS_IN_ALL: usize = 60;

/// What a page is made of beyond the report.
pub struct Page<'a> {
    pub report: &'a Report,
    /// The games whose boards can be drawn (the registry).
    pub games: &'a [&'static dyn DynGame],
    /// What changed against a baseline report, when one was given.
    pub changes: Option<&'a Changes>,
    /// When the page was made, as people read it (`2026-11-27 07:30 UTC`).
    pub generated: &'a str,
}

/// The whole page.
pub fn page(page: &Page<'_>) -> String {
    let report = page.report;
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        out,
        "<title>shinpan check: {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>",
        escape(&report.counts.to_string())
    );
    header(&mut out, page);
    if let Some(changes) = page.changes {
        changes_section(&mut out, changes);
    }
    let listed: Vec<_> = report
        .results
        .iter()
        .filter(|r| r.verdict.name() != "pass")
        .collect();
    causes_section(&mut out, report);
    let bound = Bound::new(report, &listed);
    filters(&mut out, &listed);
    out.push_str("<section id=\"cases\">\n");
    if listed.is_empty() {
        out.push_str("<p>Every case passed.</p>\n");
    }
    bound.say(&mut out);
    for (result, first_of_cause) in listed.iter().zip(&bound.undrawn) {
        let game = page.games.iter().find(|g| g.info().id == result.game);
        case::article(
            &mut out,
            result,
            report,
            game.copied(),
            first_of_cause.as_deref(),
        );
    }
    let _ = write!(
        out,
        "</section>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

fn header(out: &mut String, page: &Page<'_>) {
    let report = page.report;
    let options = if report.options.is_empty() {
        "none".to_string()
    } else {
        report.options.join(" ")
    };
    out.push_str("<header>\n<h1>shinpan check report</h1>\n<dl class=\"meta\">\n");
    let rows = [
        ("shinpan", report.shinpan_version.clone()),
        ("case library", report.library.clone()),
        ("library digest", report.library_digest.clone()),
        ("engine", report.engine.clone()),
        ("options", options),
        ("generated", page.generated.to_string()),
    ];
    for (name, value) in rows {
        let _ = writeln!(
            out,
            "<dt>{name}</dt><dd><code>{}</code></dd>",
            escape(&value)
        );
    }
    if let Some(partition) = &report.partition {
        let _ = writeln!(out, "<dt>shard</dt><dd>{}</dd>", escape(partition));
    }
    if let Some(why) = &report.stopped {
        let _ = writeln!(out, "<dt>INCOMPLETE</dt><dd>{}</dd>", escape(why));
    }
    if let Some(unjudged) = &report.unjudged {
        let _ = writeln!(
            out,
            "<dt>INCOMPLETE</dt><dd id=\"unjudged\">{}</dd>",
            escape(&unjudged.line())
        );
    }
    out.push_str("</dl>\n<table class=\"totals\">\n<tr><th>game</th><th>passed</th><th>failed</th><th>errors</th><th>unsupported</th><th>expected-fail</th><th>fixed</th></tr>\n");
    let mut rows: Vec<(String, super::check::Counts, &str)> = report
        .per_game()
        .into_iter()
        .map(|(game, counts)| (game.to_string(), counts, ""))
        .collect();
    rows.push(("total".into(), report.counts, " class=\"total\""));
    for (game, c, class) in rows {
        let _ = writeln!(
            out,
            "<tr{class} data-totals=\"{0}\"><td>{0}</td><td>{1}</td><td>{2}</td><td>{3}</td><td>{4}</td><td>{5}</td><td>{6}</td></tr>",
            escape(&game), c.passed, c.failed, c.errors, c.unsupported, c.expected_failures, c.fixed
        );
    }
    out.push_str("</table>\n</header>\n");
}

/// `seconds` after 1970-01-01 00:00 UTC, to the minute, as the header says when the page was
/// made: `2026-11-27 07:30 UTC`. (The clock is read by the caller.)
pub fn utc_minute(seconds: u64) -> String {
    let (days, rest) = ((seconds / 86_400) as i64, seconds % 86_400);
    // The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let (era, doe) = (z.div_euclid(146_097), z.rem_euclid(146_097));
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// Fixed, broken and new errors against the baseline, each a list of links to the cases.
fn changes_section(out: &mut String, changes: &Changes) {
    let _ = writeln!(
        out,
        "<section class=\"changes\" id=\"changes\">\n<h2>Against the baseline ({})</h2>",
        escape(&changes.baseline_suite)
    );
    for (id, what, names) in [
        ("fixed", "Fixed", &changes.fixed),
        ("broken", "Broken", &changes.broken),
        ("new-errors", "New errors", &changes.new_errors),
    ] {
        let _ = writeln!(
            out,
            "<h3 id=\"changes-{id}\">{what}: {}</h3>\n<ul data-changes=\"{id}\">",
            names.len()
        );
        for name in names {
            let _ = writeln!(
                out,
                "<li><a href=\"#{0}\">{1}</a></li>",
                escape(&case::anchor(name)),
                escape(name)
            );
        }
        out.push_str("</ul>\n");
    }
    if !changes.new_cases.is_empty() {
        let _ = writeln!(
            out,
            "<p>Cases not in the baseline: {}</p>",
            changes.new_cases.len()
        );
    }
    out.push_str("</section>\n");
}

/// Which of the cases listed get their boards drawn: the first [`BOARDS_PER_CAUSE`] with states
/// of each cause (a group of failures, or the failures of a game no cause names), at most
/// [`BOARDS_IN_ALL`] in all.
struct Bound {
    /// Per case listed, `None` when its boards are drawn (or it has none); else the first case
    /// of its cause, which its note links to.
    undrawn: Vec<Option<String>>,
    /// How many cases listed have states to draw.
    with_states: usize,
}

impl Bound {
    fn new(report: &Report, listed: &[&crate::run::CaseResult]) -> Bound {
        let group_of: HashMap<&str, usize> = report
            .groups
            .iter()
            .enumerate()
            .flat_map(|(i, g)| g.cases.iter().map(move |case| (case.as_str(), i)))
            .collect();
        let mut drawn_of_cause: HashMap<(Option<usize>, &str), (usize, &str)> = HashMap::new();
        let (mut drawn, mut with_states) = (0, 0);
        let undrawn = listed
            .iter()
            .map(|result| {
                result.shown.as_ref()?;
                with_states += 1;
                let cause = (
                    group_of.get(result.name.as_str()).copied(),
                    result.game.as_str(),
                );
                let (of_cause, first) = drawn_of_cause
                    .entry(cause)
                    .or_insert((0, result.name.as_str()));
                if *of_cause < BOARDS_PER_CAUSE && drawn < BOARDS_IN_ALL {
                    *of_cause += 1;
                    drawn += 1;
                    return None;
                }
                Some(first.to_string())
            })
            .collect();
        Bound {
            undrawn,
            with_states,
        }
    }

    /// The bound, stated above the cases: how many have their boards drawn.
    fn say(&self, out: &mut String) {
        if self.with_states == 0 {
            return;
        }
        let undrawn = self.undrawn.iter().filter(|u| u.is_some()).count();
        let _ = writeln!(
            out,
            "<p class=\"undrawn\" id=\"boards-bound\">Boards are drawn for the first {BOARDS_PER_CAUSE} failing cases of each cause, {BOARDS_IN_ALL} in all: {} of the {} cases with states here; the other {undrawn} show their diff and link to the first of their cause.</p>",
            self.with_states - undrawn,
            self.with_states
        );
    }
}

/// The groups of failures that share a cause, each with links to its cases.
fn causes_section(out: &mut String, report: &Report) {
    if report.groups.is_empty() {
        return;
    }
    out.push_str("<section class=\"causes\" id=\"causes\">\n<h2>Failures by cause</h2>\n<ul>\n");
    for group in &report.groups {
        let _ = write!(
            out,
            "<li data-cause=\"{}\">{}: ",
            escape(&group.name),
            escape(&group.line())
        );
        for (i, name) in group.cases.iter().enumerate() {
            let _ = write!(
                out,
                "{}<a href=\"#{}\">{}</a>",
                if i == 0 { "" } else { ", " },
                escape(&case::anchor(name)),
                escape(name)
            );
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n</section>\n");
}

/// The filters: a game and a verdict among those listed, a clause by part of its id.
fn filters(out: &mut String, listed: &[&crate::run::CaseResult]) {
    let games: BTreeSet<&str> = listed.iter().map(|r| r.game.as_str()).collect();
    let verdicts: BTreeSet<&str> = listed.iter().map(|r| r.verdict.name()).collect();
    out.push_str("<nav class=\"filters\">\n<label>game <select id=\"filter-game\"><option value=\"\">all</option>");
    for game in games {
        let _ = write!(out, "<option>{}</option>", escape(game));
    }
    out.push_str("</select></label>\n<label>verdict <select id=\"filter-verdict\"><option value=\"\">all</option>");
    for verdict in verdicts {
        let _ = write!(out, "<option>{verdict}</option>");
    }
    out.push_str("</select></label>\n<label>clause <input id=\"filter-clause\" type=\"search\" placeholder=\"e.g. chain.score\"></label>\n<span id=\"filter-count\"></span>\n</nav>\n");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::run::{CaseResult, CaseVerdict, Shown};
    use crate::seam::count::Count;

    fn failing(name: &str) -> CaseResult {
        let mut result = CaseResult::named(name, CaseVerdict::Fail("-total: 3\n+total: 2".into()));
        result.game = "count".into();
        result.rules = vec!["count.add".into()];
        result.shown = Some(Box::new(Shown {
            given: json!({"total": 0, "turn": 0}),
            expected: json!({"total": 3, "turn": 1}),
            actual: json!({"total": 2, "turn": 1}),
            differing: vec!["total".into()],
        }));
        result
    }

    fn page_of(report: &Report, changes: Option<&Changes>) -> String {
        page(&Page {
            report,
            games: &[&Count],
            changes,
            generated: "2026-11-27 07:00 UTC",
        })
    }

    #[test]
    fn a_game_without_a_drawing_says_so_and_the_case_is_still_shown() {
        let mut report = Report::new(
            "abc",
            "built-in",
            "reference",
            vec![
                failing("count/add/one"),
                CaseResult::named("g/x/passes", CaseVerdict::Pass),
            ],
        );
        report.clauses.insert(
            "count".into(),
            [("count.add".to_string(), "A reply adds <one>.".to_string())].into(),
        );
        let html = page_of(&report, None);
        assert_eq!(html.matches("<article").count(), 1);
        assert!(html.contains("id=\"case-count/add/one\""));
        assert!(html.contains("No drawing for count."));
        assert!(html.contains("<code>count.add</code> A reply adds &lt;one&gt;."));
        assert!(html.contains("<pre class=\"detail\">-total: 3\n+total: 2</pre>"));
        assert!(html.contains("data-totals=\"count\""));
    }

    #[test]
    fn seconds_since_the_epoch_are_calendar_dates() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_minute(59 * 86_400 + 61), "1970-03-01 00:01 UTC");
        // 2000 was a leap year: 2000-02-29 is day 11016.
        assert_eq!(utc_minute(11_016 * 86_400), "2000-02-29 00:00 UTC");
        assert_eq!(
            utc_minute(20_784 * 86_400 + 7 * 3600 + 30 * 60),
            "2026-11-27 07:30 UTC"
        );
        assert_eq!(utc_minute(20_818 * 86_400 + 86_399), "2026-12-31 23:59 UTC");
    }

    #[test]
    fn names_from_a_report_are_escaped() {
        let report = Report::new(
            "abc",
            "built-in",
            "</code><script>alert(1)</script>",
            vec![failing("count/<img onerror=x>")],
        );
        let html = page_of(&report, None);
        assert_eq!(html.matches("<script>").count(), 1, "only the page's own");
        assert!(!html.contains("<img"));
    }

    #[test]
    fn a_baseline_shows_fixed_broken_and_new_errors_each_in_its_section() {
        let report = Report::new(
            "abc",
            "built-in",
            "reference",
            vec![failing("count/add/one")],
        );
        let changes = Changes {
            baseline_suite: "shinpan 0.1.0, cases abc".into(),
            fixed: vec!["count/a".into()],
            broken: vec!["count/add/one".into()],
            new_errors: vec![],
            new_cases: vec![],
        };
        let html = page_of(&report, Some(&changes));
        let section = |id: &str| {
            let list = html
                .split(&format!("data-changes=\"{id}\">"))
                .nth(1)
                .unwrap();
            list.split("</ul>").next().unwrap().matches("<li>").count()
        };
        assert_eq!(
            (section("fixed"), section("broken"), section("new-errors")),
            (1, 1, 0)
        );
        assert!(html.contains("<a href=\"#case-count/add/one\">"));
    }
}

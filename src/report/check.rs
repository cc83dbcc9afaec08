//! The report of a `check` run: a human summary, JSON for machines, JUnit XML for CI
//! dashboards. Every report names the suite version (crate version + case-library digest), so
//! results of two runs can be compared; every count line uses one vocabulary: passed, failed,
//! errors, unsupported, expected-fail, fixed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{JunitRow, JunitStatus, Render};
use crate::run::baseline::Changes;
use crate::run::departure::{general, unexplained_name};
use crate::run::{CaseResult, CaseVerdict};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    pub shinpan_version: String,
    /// sha256 of the case library's files.
    pub library_digest: String,
    /// Where the library came from: `built-in` or its directory.
    pub library: String,
    /// What ran the cases: `reference` for the built-in engines.
    pub engine: String,
    pub counts: Counts,
    /// The failed cases grouped by their departure's name: one group a cause.
    pub groups: Vec<Group>,
    pub results: Vec<CaseResult>,
    /// Why the run stopped before its last case, if it did: such a run never passes.
    pub stopped: Option<String>,
    /// The shard of the selected cases this run took (`check --partition`), if it took one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<String>,
    /// The match options given on the command line (`--option stage=30`), as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The games given on the command line (`check GAME…`), sorted; none for every game. With
    /// `filter`, which cases the run selected (before it took its shard).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<String>,
    /// The `--filter` the run was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// How many cases the run selected, before it took its shard: with the library digest,
    /// `games`, `filter`, `partition` and `options`, the run's plan, which `report merge`
    /// checks its shards against. `None` in a report of a shinpan before issue 40.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<usize>,
    /// The cases of the run that no report merged judged (`report merge` of fewer shards than
    /// the run had): such a run never passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unjudged: Option<Unjudged>,
    /// Per game, the text of each clause a case that did not pass names (`rules.yaml`), so that
    /// the report says what was broken without the library at hand.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub clauses: BTreeMap<String, BTreeMap<String, String>>,
}

/// What a merged report lacks: the shards of the run that were not merged, and every case of
/// the run that no merged report judged, in library order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unjudged {
    /// The shards not given (`K` of `count:K/N`), in order.
    pub shards: Vec<u64>,
    /// How many shards the run had (`N`).
    pub of: u64,
    /// How many cases the run selected.
    pub selected: usize,
    pub cases: Vec<String>,
}

impl Unjudged {
    /// `shards 2, 4-6 and 9 of 10 not merged: 126 of 185 cases not judged`
    pub fn line(&self) -> String {
        let cases = format!("{} of {} cases not judged", self.cases.len(), self.selected);
        // Runs of three or more shards as `first-last`.
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for &k in &self.shards {
            match runs.last_mut() {
                Some((_, last)) if *last + 1 == k => *last = k,
                _ => runs.push((k, k)),
            }
        }
        let shards: Vec<String> = runs
            .into_iter()
            .flat_map(|(first, last)| match last - first {
                0 => vec![first.to_string()],
                1 => vec![first.to_string(), last.to_string()],
                _ => vec![format!("{first}-{last}")],
            })
            .collect();
        let one = self.shards.len() == 1;
        match shards.as_slice() {
            [] => format!("{cases} (no report merged holds them)"),
            [only] if one => format!("shard {only} of {} not merged: {cases}", self.of),
            [only] => format!("shards {only} of {} not merged: {cases}", self.of),
            [rest @ .., last] => format!(
                "shards {} and {last} of {} not merged: {cases}",
                rest.join(", "),
                self.of
            ),
        }
    }
}

/// What a report says of its run, as its exit code says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunVerdict {
    /// Every case judged, none failed (exit 0); a shard that holds no case is one.
    Passed,
    /// A case failed, erred, or was listed as failing and passed (exit 1), whatever was not
    /// judged.
    Failed,
    /// Nothing failed, but less was judged than there was to judge (exit 3): the run stopped
    /// early, a shard was not merged, or the engine answered every case `unsupported`.
    Incomplete,
}

/// Failed cases that share a cause: their departures have one name (the clause a variant that
/// reproduces them breaks, or `unexplained, fields …`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub game: String,
    pub name: String,
    /// One line for people: what the variant does, and the clause.
    pub describe: String,
    /// The cases, by name, in the order run.
    pub cases: Vec<String>,
}

impl Group {
    /// `10 cases: all heroes visible through the fog (fog.vision)`
    pub fn line(&self) -> String {
        let n = self.cases.len();
        format!(
            "{n} case{}: {}",
            if n == 1 { "" } else { "s" },
            self.describe
        )
    }
}

/// The failed results grouped by their departure, groups in the order of their first case; a
/// case whose variant ties with a group's joins it. An unexplained departure joins the group
/// of the fields where it starts (`unexplained_key`); a failure with no departure (a result
/// that is no state of the game, a case that is not a step) is a group too, so that the groups
/// add up to the failures.
pub fn groups(results: &[CaseResult]) -> Vec<Group> {
    let failed = || (results.iter()).filter(|r| matches!(r.verdict, CaseVerdict::Fail(_)));
    let unexplained: Vec<Vec<String>> = failed()
        .filter_map(|r| r.departure.as_ref())
        .filter(|d| d.by.is_empty() && !d.unexplained.is_empty())
        .map(|d| departure_fields(&d.unexplained))
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    for r in failed() {
        let (name, describe, ties) = match &r.departure {
            Some(d) if d.by.is_empty() && !d.unexplained.is_empty() => {
                let name = unexplained_name(&unexplained_key(&d.unexplained, &unexplained));
                (name.clone(), name, Vec::new())
            }
            Some(d) => (d.name.clone(), d.describe.clone(), d.ties().to_vec()),
            None => {
                let name = match r.verdict.detail().starts_with(NO_STATE) {
                    true => "not named: the result is no state of the game",
                    false => "not named: a case that is not one step",
                };
                (name.to_string(), name.to_string(), Vec::new())
            }
        };
        let joins = |g: &Group| g.game == r.game && (g.name == name || ties.contains(&g.name));
        match groups.iter_mut().find(|g| joins(g)) {
            Some(group) => group.cases.push(r.name.clone()),
            None => groups.push(Group {
                game: r.game.clone(),
                name,
                describe,
                cases: vec![r.name.clone()],
            }),
        }
    }
    groups
}

/// How a failure says its result is no state of the game (`run::modelled_result`).
const NO_STATE: &str = "the engine's result is not a state of the game";

/// A departure's fields as groups compare them: general, the prompts only when nothing else
/// differs (a different state shows in its prompts too).
fn departure_fields(fields: &[String]) -> Vec<String> {
    let mut general = general(fields);
    if general.iter().any(|f| !f.starts_with("prompts")) {
        general.retain(|f| !f.starts_with("prompts"));
    }
    general
}

/// The fields an unexplained departure is grouped by: of the field sets of all the run's
/// unexplained failures (`all`), the first of the smallest (those holding no other) that its
/// own fields hold. One real departure shows on some cases alone and on others with what
/// follows from it (a gauge, then the skill it allows and the score the skill makes): the
/// cases are grouped by where it starts.
fn unexplained_key(fields: &[String], all: &[Vec<String>]) -> Vec<String> {
    let own = departure_fields(fields);
    let holds = |big: &[String], small: &[String]| small.iter().all(|f| big.contains(f));
    all.iter()
        .filter(|set| !all.iter().any(|other| other != *set && holds(set, other)))
        .find(|smallest| holds(&own, smallest))
        .cloned()
        .unwrap_or(own)
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    /// Cases the engine under test does not implement.
    pub unsupported: usize,
    /// Failures listed in the `--expect-fail` file.
    pub expected_failures: usize,
    /// Cases listed in the `--expect-fail` file that pass: the list is stale.
    pub fixed: usize,
}

impl Counts {
    pub fn add(&mut self, verdict: &CaseVerdict) {
        match verdict {
            CaseVerdict::Pass => self.passed += 1,
            CaseVerdict::Fail(_) => self.failed += 1,
            CaseVerdict::Error(_) => self.errors += 1,
            CaseVerdict::Unsupported(_) => self.unsupported += 1,
            CaseVerdict::ExpectedFail(_) => self.expected_failures += 1,
            CaseVerdict::Fixed(_) => self.fixed += 1,
        }
    }

    /// Whether nothing failed: no failure, no error, no stale expected failure.
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.errors == 0 && self.fixed == 0
    }
}

impl std::fmt::Display for Counts {
    /// `12 passed, 1 failed, 0 errors`, then `, 3 unsupported, 2 expected-fail, 1 fixed` for
    /// each of those that is not zero.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} errors",
            self.passed, self.failed, self.errors
        )?;
        for (n, what) in [
            (self.unsupported, "unsupported"),
            (self.expected_failures, "expected-fail"),
            (self.fixed, "fixed"),
        ] {
            if n > 0 {
                write!(f, ", {n} {what}")?;
            }
        }
        Ok(())
    }
}

impl Report {
    pub fn new(
        library_digest: &str,
        library: &str,
        engine: &str,
        results: Vec<CaseResult>,
    ) -> Report {
        let mut counts = Counts::default();
        results.iter().for_each(|r| counts.add(&r.verdict));
        Report {
            shinpan_version: crate::VERSION.to_string(),
            library_digest: library_digest.to_string(),
            library: library.to_string(),
            engine: engine.to_string(),
            counts,
            groups: groups(&results),
            results,
            stopped: None,
            partition: None,
            options: Vec::new(),
            games: Vec::new(),
            filter: None,
            selected: None,
            unjudged: None,
            clauses: BTreeMap::new(),
        }
    }

    /// Works the counts and the groups of failures out again from the results, as a report
    /// read from a file may say otherwise (issue 40, item 10); the counts the report had, when
    /// they were not those of its results.
    pub fn recount(&mut self) -> Option<Counts> {
        let mut counts = Counts::default();
        self.results.iter().for_each(|r| counts.add(&r.verdict));
        self.groups = groups(&self.results);
        (counts != self.counts).then(|| std::mem::replace(&mut self.counts, counts))
    }

    /// What the report says of its run (see [`RunVerdict`]).
    pub fn verdict(&self) -> RunVerdict {
        let every_case_unsupported =
            !self.results.is_empty() && self.counts.unsupported == self.results.len();
        if !self.counts.all_passed() {
            RunVerdict::Failed
        } else if self.stopped.is_some() || self.unjudged.is_some() || every_case_unsupported {
            RunVerdict::Incomplete
        } else {
            RunVerdict::Passed
        }
    }

    /// Writes into [`Report::clauses`] the text of every clause that a case that did not pass
    /// names, from the catalogues of `library`.
    pub fn quote_clauses(&mut self, library: &crate::case::Library) {
        for r in &self.results {
            if r.verdict == CaseVerdict::Pass {
                continue;
            }
            let Some(game) = library.games.iter().find(|g| g.game.info().id == r.game) else {
                continue;
            };
            for id in &r.rules {
                if let Some(clause) = game.catalogue.clauses.iter().find(|c| &c.id == id) {
                    self.clauses
                        .entry(r.game.clone())
                        .or_default()
                        .insert(id.clone(), clause.text.trim().to_string());
                }
            }
        }
    }

    pub fn all_passed(&self) -> bool {
        self.counts.all_passed() && self.stopped.is_none() && self.unjudged.is_none()
    }

    /// The suite version as one short string: `shinpan 0.1.0, cases 1a2b3c4d5e6f`.
    pub fn suite(&self) -> String {
        let digest = self
            .library_digest
            .get(..12)
            .unwrap_or(&self.library_digest);
        format!("shinpan {}, cases {digest}", self.shinpan_version)
    }

    /// Per game, each unmodelled path left out of some case compared on the rest, and in how
    /// many such cases (a case that checks nothing else is unsupported and says why itself).
    fn masked_per_game(&self) -> BTreeMap<&str, BTreeMap<&str, usize>> {
        let mut games: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
        for r in &self.results {
            if matches!(r.verdict, CaseVerdict::Unsupported(_)) {
                continue;
            }
            for path in &r.masked {
                *games
                    .entry(r.game.as_str())
                    .or_default()
                    .entry(path.as_str())
                    .or_default() += 1;
            }
        }
        games
    }

    /// The counts of each game, by game id.
    pub fn per_game(&self) -> BTreeMap<&str, Counts> {
        let mut games: BTreeMap<&str, Counts> = BTreeMap::new();
        for r in &self.results {
            games.entry(r.game.as_str()).or_default().add(&r.verdict);
        }
        games
    }
}

impl Render for Report {
    /// A line per group of failures that share a cause; every case that did not plainly pass,
    /// in full; then a line per game and the total, in the same words.
    fn human(&self) -> String {
        let mut out = String::new();
        if !self.groups.is_empty() {
            out.push_str("failures by cause:\n");
            for group in &self.groups {
                out.push_str(&format!("  {}\n", group.line()));
            }
        }
        for r in &self.results {
            if r.verdict == CaseVerdict::Pass {
                continue;
            }
            let tag = r.verdict.name().to_uppercase();
            out.push_str(&format!("{tag} {} ({}:{})\n", r.name, r.file, r.line));
            if let (CaseVerdict::Fail(_), Some(departure)) = (&r.verdict, &r.departure) {
                out.push_str(&format!("    cause: {}\n", departure.describe));
            }
            for line in r.verdict.detail().lines() {
                out.push_str(&format!("    {line}\n"));
            }
        }
        out.push_str(&format!(
            "{} ({}) · engine: {}\n",
            self.suite(),
            self.library,
            self.engine
        ));
        let masked = self.masked_per_game();
        if !masked.is_empty() {
            out.push_str(
                "left out as unmodelled by the engine (the cases compared on the rest):\n",
            );
            for (game, paths) in masked {
                let paths: Vec<String> = paths
                    .into_iter()
                    .map(|(path, n)| format!("{path} in {n} case{}", if n == 1 { "" } else { "s" }))
                    .collect();
                out.push_str(&format!("  {game}: {}\n", paths.join(", ")));
            }
        }
        for (game, counts) in self.per_game() {
            out.push_str(&format!("{game}: {counts}\n"));
        }
        out.push_str(&format!("total: {}\n", self.counts));
        if let Some(why) = &self.stopped {
            out.push_str(&format!("INCOMPLETE: {why}\n"));
        }
        if let Some(unjudged) = &self.unjudged {
            out.push_str(&format!("INCOMPLETE: {}\n", unjudged.line()));
        }
        out
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One test suite per game, one test case per case; a `failures-by-cause` property per
    /// group on its game's suite, and each failure's cause in its output.
    fn junit(&self) -> String {
        let properties: Vec<(&str, &str, String)> = self
            .groups
            .iter()
            .map(|g| (g.game.as_str(), "failures-by-cause", g.line()))
            .collect();
        let rows = self.results.iter().map(|r| JunitRow {
            suite: &r.game,
            name: &r.name,
            classname: format!("{}:{}", r.file, r.line),
            status: match &r.verdict {
                CaseVerdict::Pass => JunitStatus::Passed,
                CaseVerdict::Fail(d) | CaseVerdict::Fixed(d) => JunitStatus::Failed(d),
                CaseVerdict::Error(d) => JunitStatus::Error(d),
                CaseVerdict::Unsupported(d) | CaseVerdict::ExpectedFail(d) => {
                    JunitStatus::Skipped(d)
                }
            },
            stdout: {
                let mut out: Vec<String> = Vec::new();
                if let (CaseVerdict::Fail(_), Some(departure)) = (&r.verdict, &r.departure) {
                    out.push(format!("cause: {}", departure.describe));
                }
                if !r.masked.is_empty() {
                    out.push(format!(
                        "compared in part; left out as unmodelled by the engine: {}",
                        r.masked.join(", ")
                    ));
                }
                (!out.is_empty()).then(|| out.join("\n"))
            },
            stderr: None,
        });
        // A case no merged report judged is an error on the dashboard, not a case gone.
        let not_judged = self
            .unjudged
            .as_ref()
            .map(|u| format!("not judged: {}", u.line()));
        let unjudged = self.unjudged.iter().flat_map(|u| &u.cases);
        let unjudged = unjudged.zip(std::iter::repeat(not_judged.as_deref().unwrap_or("")));
        let rows = rows.chain(unjudged.map(|(name, why)| JunitRow {
            suite: name.split('/').next().unwrap_or(name),
            name,
            classname: "not judged".into(),
            status: JunitStatus::Error(why),
            stdout: None,
            stderr: None,
        }));
        super::junit_with_properties(&self.suite(), rows, &properties)
    }
}

/// What changed against a baseline report, for people.
pub fn changes_human(changes: &Changes) -> String {
    let mut out = format!("against the baseline ({}):\n", changes.baseline_suite);
    for (what, names) in [
        ("fixed", &changes.fixed),
        ("broken", &changes.broken),
        ("new errors", &changes.new_errors),
    ] {
        out.push_str(&format!("  {what}: {}\n", names.len()));
        for name in names {
            out.push_str(&format!("    {name}\n"));
        }
    }
    if !changes.new_cases.is_empty() {
        out.push_str(&format!(
            "  cases not in the baseline: {}\n",
            changes.new_cases.len()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::CaseDeparture;

    fn failed(name: &str, unexplained: &[&str]) -> CaseResult {
        let mut r = CaseResult::named(name, CaseVerdict::Fail("differs".into()));
        r.departure = (!unexplained.is_empty()).then(|| CaseDeparture {
            name: unexplained_name(&general(
                &unexplained
                    .iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>(),
            )),
            describe: String::new(),
            by: Vec::new(),
            unexplained: unexplained.iter().map(|f| f.to_string()).collect(),
            partly: Vec::new(),
        });
        r
    }

    #[test]
    fn unexplained_failures_group_where_they_start_and_every_failure_is_in_a_group() {
        let results = [
            failed("a", &["players[1].gauge", "players[0].score", "prompts[1]"]),
            failed("b", &["players[0].gauge"]),
            failed("c", &["players[0].time"]),
            failed("d", &[]),
            CaseResult::named("e", CaseVerdict::Pass),
        ];
        let groups = groups(&results);
        let names: Vec<(&str, Vec<&str>)> = (groups.iter())
            .map(|g| {
                (
                    g.name.as_str(),
                    g.cases.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                ("unexplained, fields players[].gauge", vec!["a", "b"]),
                ("unexplained, fields players[].time", vec!["c"]),
                ("not named: a case that is not one step", vec!["d"]),
            ]
        );
    }

    #[test]
    fn the_shards_not_merged_are_listed_with_runs_shortened() {
        let line = |shards: &[u64]| {
            Unjudged {
                shards: shards.to_vec(),
                of: 10,
                selected: 185,
                cases: vec!["g/f/a".into(); 126],
            }
            .line()
        };
        assert_eq!(
            line(&[4]),
            "shard 4 of 10 not merged: 126 of 185 cases not judged"
        );
        assert_eq!(
            line(&[4, 5]),
            "shards 4 and 5 of 10 not merged: 126 of 185 cases not judged"
        );
        assert_eq!(
            line(&[2, 4, 5, 6, 9]),
            "shards 2, 4-6 and 9 of 10 not merged: 126 of 185 cases not judged"
        );
        assert_eq!(
            line(&[1, 2, 3, 4, 5, 6, 7, 8, 9]),
            "shards 1-9 of 10 not merged: 126 of 185 cases not judged"
        );
        assert_eq!(
            line(&[]),
            "126 of 185 cases not judged (no report merged holds them)"
        );
    }

    #[test]
    fn per_game_and_total_lines_use_the_same_words() {
        let report = Report::new(
            "abc",
            "built-in",
            "reference",
            vec![
                CaseResult::named("a", CaseVerdict::Pass),
                CaseResult::named("b", CaseVerdict::Error("x".into())),
                CaseResult::named("c", CaseVerdict::Unsupported("y".into())),
            ],
        );
        let human = report.human();
        assert!(
            human.contains("g: 1 passed, 0 failed, 1 errors, 1 unsupported\n"),
            "{human}"
        );
        assert!(
            human.contains("total: 1 passed, 0 failed, 1 errors, 1 unsupported\n"),
            "{human}"
        );
        assert!(!report.all_passed());
    }
}

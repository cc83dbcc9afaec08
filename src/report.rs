//! Reports of a `check` run: a human summary, JSON for machines, JUnit XML for CI dashboards.
//! Every report names the suite version (crate version + case-library digest), so results of
//! two runs can be compared.

use std::collections::BTreeMap;

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use serde::Serialize;

use crate::check::{CaseResult, Verdict};

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub shinpan_version: String,
    /// sha256 of the case library's files.
    pub library_digest: String,
    /// What ran the cases: `reference` for the built-in engines.
    pub engine: String,
    pub counts: Counts,
    pub results: Vec<CaseResult>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    /// Cases the engine under test does not implement (`--engine` only).
    pub unsupported: usize,
    /// Failures listed in the `--expect-fail` file.
    pub expected_failures: usize,
    /// Cases listed in the `--expect-fail` file that pass: the list is stale.
    pub fixed: usize,
}

impl Counts {
    fn add(&mut self, verdict: &Verdict) {
        match verdict {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail(_) => self.failed += 1,
            Verdict::Error(_) => self.errors += 1,
            Verdict::Unsupported(_) => self.unsupported += 1,
            Verdict::ExpectedFail(_) => self.expected_failures += 1,
            Verdict::Fixed(_) => self.fixed += 1,
        }
    }

    /// `, 3 unsupported, 2 expected failures, 1 fixed`, each part only when it is not zero.
    fn extras(&self) -> String {
        [
            (self.unsupported, "unsupported"),
            (self.expected_failures, "expected failures"),
            (self.fixed, "fixed"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!(", {n} {what}"))
        .collect()
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} errors{}",
            self.passed,
            self.failed,
            self.errors,
            self.extras()
        )
    }
}

impl Report {
    pub fn new(library_digest: &str, engine: &str, results: Vec<CaseResult>) -> Report {
        let mut counts = Counts::default();
        results.iter().for_each(|r| counts.add(&r.verdict));
        Report {
            shinpan_version: crate::VERSION.to_string(),
            library_digest: library_digest.to_string(),
            engine: engine.to_string(),
            counts,
            results,
        }
    }

    pub fn all_passed(&self) -> bool {
        self.counts.failed == 0 && self.counts.errors == 0 && self.counts.fixed == 0
    }

    /// The suite version as one short string: `shinpan 0.1.0, cases 1a2b3c4d5e6f`.
    pub fn suite(&self) -> String {
        let digest = self
            .library_digest
            .get(..12)
            .unwrap_or(&self.library_digest);
        format!("shinpan {}, cases {digest}", self.shinpan_version)
    }

    fn per_game(&self) -> BTreeMap<&str, Counts> {
        let mut games: BTreeMap<&str, Counts> = BTreeMap::new();
        for r in &self.results {
            games.entry(r.game.as_str()).or_default().add(&r.verdict);
        }
        games
    }

    /// Failures and errors in full, then a line per game and the total.
    pub fn human(&self) -> String {
        let mut out = String::new();
        for r in &self.results {
            let (tag, detail) = match &r.verdict {
                Verdict::Pass => continue,
                Verdict::Fail(d) => ("FAIL", d),
                Verdict::Error(d) => ("ERROR", d),
                Verdict::Unsupported(d) => ("UNSUPPORTED", d),
                Verdict::ExpectedFail(d) => ("EXPECTED-FAIL", d),
                Verdict::Fixed(d) => ("FIXED", d),
            };
            out.push_str(&format!("{tag} {} ({}:{})\n", r.name, r.file, r.line));
            for line in detail.lines() {
                out.push_str(&format!("    {line}\n"));
            }
        }
        out.push_str(&format!("{} · engine: {}\n", self.suite(), self.engine));
        for (game, counts) in self.per_game() {
            out.push_str(&format!("{game}: {counts}\n"));
        }
        out.push_str(&format!(
            "{} passed, {} failed{}\n",
            self.counts.passed,
            self.counts.failed + self.counts.errors,
            self.counts.extras()
        ));
        out
    }

    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// One test suite per game, one test case per case.
    pub fn junit(&self) -> String {
        let mut report = quick_junit::Report::new(self.suite());
        let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
        for r in &self.results {
            let status = match &r.verdict {
                Verdict::Pass => TestCaseStatus::success(),
                Verdict::Fail(d) => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_description(d.as_str());
                    s
                }
                Verdict::Error(d) => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                    s.set_description(d.as_str());
                    s
                }
                Verdict::Fixed(d) => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_description(d.as_str());
                    s
                }
                Verdict::Unsupported(d) | Verdict::ExpectedFail(d) => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(d.as_str());
                    s
                }
            };
            let mut case = TestCase::new(r.name.as_str(), status);
            case.set_classname(format!("{}:{}", r.file, r.line));
            suites
                .entry(r.game.as_str())
                .or_insert_with(|| TestSuite::new(r.game.as_str()))
                .add_test_case(case);
        }
        report.add_test_suites(suites.into_values());
        report
            .to_string()
            .unwrap_or_else(|e| format!("<!-- cannot render JUnit: {e} -->"))
    }
}

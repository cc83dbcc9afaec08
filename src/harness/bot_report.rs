//! Reports of a `shinpan bot` run: a human table, JSON (the [`BotReport`] itself) and JUnit XML
//! (one suite per phase; FAIL is a failure, the other verdicts pass with the verdict in the
//! case's output).

use std::collections::BTreeMap;

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};

use super::bot::{BotReport, Verdict};

impl BotReport {
    /// One row per check, the FAIL details with their saved input, then the totals.
    pub fn human(&self) -> String {
        let mut out = format!(
            "shinpan {} · bot check of `{}` on {} · seed {}\n",
            self.shinpan_version,
            self.command.join(" "),
            self.game,
            self.seed
        );
        let width = self
            .checks
            .iter()
            .map(|c| c.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(5);
        out.push_str(&format!(
            "{:<10} {:<width$} {:<10} {:>8}  DETAIL\n",
            "PHASE", "CHECK", "VERDICT", "TIME"
        ));
        for c in &self.checks {
            out.push_str(&format!(
                "{:<10} {:<width$} {:<10} {:>6}ms  {}\n",
                c.phase.name(),
                c.name,
                c.verdict.label(),
                c.elapsed_ms,
                c.detail
            ));
            if let Some(path) = &c.saved {
                out.push_str(&format!(
                    "{:<10} {:<width$} {:<10} {:>8}  replay: {} < {}\n",
                    "",
                    "",
                    "",
                    "",
                    self.command.join(" "),
                    path.display()
                ));
            }
        }
        out.push_str(&format!(
            "{} PASS, {} NON-STRICT, {} FAIL, {} INFO",
            self.count(Verdict::Pass),
            self.count(Verdict::NonStrict),
            self.count(Verdict::Fail),
            self.count(Verdict::Info)
        ));
        if self.skipped > 0 {
            out.push_str(&format!(", {} not run", self.skipped));
        }
        out.push_str(&format!(" · {:.1} s", self.elapsed_ms as f64 / 1000.0));
        if let Some(dir) = &self.save_dir {
            out.push_str(&format!(" · failing inputs in {}", dir.display()));
        }
        out.push('\n');
        out
    }

    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    pub fn junit(&self) -> String {
        let mut report = quick_junit::Report::new(format!("shinpan bot {}", self.game));
        let mut suites: BTreeMap<_, TestSuite> = BTreeMap::new();
        for c in &self.checks {
            let status = match c.verdict {
                Verdict::Fail => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_description(c.detail.as_str());
                    s
                }
                _ => TestCaseStatus::success(),
            };
            let mut case = TestCase::new(c.name.as_str(), status);
            case.set_classname(format!("{}/{}", self.game, c.phase.name()));
            case.set_system_out(format!("{}: {}", c.verdict.label(), c.detail));
            if let Some(path) = &c.saved {
                case.set_system_err(format!("input saved in {}", path.display()));
            }
            suites
                .entry(c.phase)
                .or_insert_with(|| TestSuite::new(c.phase.name()))
                .add_test_case(case);
        }
        report.add_test_suites(suites.into_values());
        report
            .to_string()
            .unwrap_or_else(|e| format!("<!-- cannot render JUnit: {e} -->"))
    }
}

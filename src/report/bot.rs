//! Reports of a `shinpan bot` run: a human table, JSON (the [`BotReport`] itself) and JUnit XML
//! (one suite per phase; FAIL is a failure, the other verdicts pass with the verdict in the
//! case's output).

use super::{JunitRow, JunitStatus, Render};
use crate::harness::bot::{BotReport, CheckVerdict};

impl Render for BotReport {
    /// One row per check, the FAIL details with their saved input, then the totals.
    fn human(&self) -> String {
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
            self.count(CheckVerdict::Pass),
            self.count(CheckVerdict::NonStrict),
            self.count(CheckVerdict::Fail),
            self.count(CheckVerdict::Info)
        ));
        let incomplete = self.count(CheckVerdict::Incomplete);
        if incomplete > 0 {
            out.push_str(&format!(", {incomplete} INCOMPLETE"));
        }
        if self.skipped > 0 {
            out.push_str(&format!(", {} not run after a FAIL", self.skipped));
        }
        if self.not_run > 0 {
            out.push_str(&format!(", {} not run (budget)", self.not_run));
        }
        out.push_str(&format!(" · {:.1} s", self.elapsed_ms as f64 / 1000.0));
        if let Some(dir) = &self.save_dir {
            out.push_str(&format!(" · failing inputs in {}", dir.display()));
        }
        out.push('\n');
        if let Some(why) = &self.interrupted {
            out.push_str(&format!("INTERRUPTED: {why}\n"));
        }
        for warning in &self.warnings {
            out.push_str(&format!("warning: {warning}\n"));
        }
        out
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One suite per phase; FAIL is a failure, the other verdicts pass with the verdict in the
    /// case's output.
    fn junit(&self) -> String {
        let rows = self.checks.iter().map(|c| JunitRow {
            suite: c.phase.name(),
            name: &c.name,
            classname: format!("{}/{}", self.game, c.phase.name()),
            status: match c.verdict {
                CheckVerdict::Fail => JunitStatus::Failed(&c.detail),
                CheckVerdict::Incomplete => JunitStatus::Error(&c.detail),
                _ => JunitStatus::Passed,
            },
            stdout: Some(format!("{}: {}", c.verdict.label(), c.detail)),
            stderr: c
                .saved
                .as_ref()
                .map(|path| format!("input saved in {}", path.display())),
        });
        super::junit(&format!("shinpan bot {}", self.game), rows)
    }
}

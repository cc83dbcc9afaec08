//! Every rendering of a result for people and machines, in one place: the `check` report
//! ([`check`]), `coverage`'s ([`coverage`]), `diff`'s ([`diff`]), the bot checker's ([`bot`]),
//! `play`'s ([`play`]) and `trace`'s ([`trace`]), each as human text, JSON and JUnit XML; the
//! `check` report as a self-contained HTML page too ([`html`]).
//! Library code returns results; the CLI picks a [`Format`] and prints.
//!
//! The JUnit of every report is written by one function, [`junit`], from rows.

pub mod arena;
pub(crate) mod arena_table;
pub mod bot;
pub mod check;
pub mod coverage;
pub mod diff;
pub mod html;
pub mod merge;
pub mod play;
pub mod trace;

use std::collections::BTreeMap;

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use serde::Serialize;

/// How a report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Junit,
}

/// Something a report can be rendered from.
pub trait Render {
    fn human(&self) -> String;
    fn json(&self) -> String;
    fn junit(&self) -> String;

    fn render(&self, format: Format) -> String {
        match format {
            Format::Human => self.human(),
            Format::Json => self.json() + "\n",
            Format::Junit => self.junit(),
        }
    }
}

/// Pretty JSON of a report; a report that cannot be serialized says so in JSON.
pub fn json<T: Serialize>(report: &T) -> String {
    serde_json::to_string_pretty(report)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string())
}

/// How one JUnit test case ended.
pub enum JunitStatus<'a> {
    Passed,
    Failed(&'a str),
    Error(&'a str),
    Skipped(&'a str),
}

/// One JUnit test case: the suite it belongs to, its name and class name, how it ended, and
/// what goes to its output streams.
pub struct JunitRow<'a> {
    pub suite: &'a str,
    pub name: &'a str,
    pub classname: String,
    pub status: JunitStatus<'a>,
    pub stdout: Option<String>,
    pub stderr: Option<String>,
}

/// A JUnit XML report named `name`: one test suite per distinct `suite` (sorted by name), one
/// test case per row.
pub fn junit<'a>(name: &str, rows: impl IntoIterator<Item = JunitRow<'a>>) -> String {
    junit_with_properties(name, rows, &[])
}

/// [`junit`], with `properties` (suite, name, value) on their suites, in the order given.
pub fn junit_with_properties<'a>(
    name: &str,
    rows: impl IntoIterator<Item = JunitRow<'a>>,
    properties: &[(&str, &str, String)],
) -> String {
    let mut report = quick_junit::Report::new(name);
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for row in rows {
        let status = match row.status {
            JunitStatus::Passed => TestCaseStatus::success(),
            JunitStatus::Failed(d) => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_description(d);
                s
            }
            JunitStatus::Error(d) => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                s.set_description(d);
                s
            }
            JunitStatus::Skipped(m) => {
                let mut s = TestCaseStatus::skipped();
                s.set_message(m);
                s
            }
        };
        let mut case = TestCase::new(row.name, status);
        case.set_classname(row.classname);
        if let Some(out) = row.stdout {
            case.set_system_out(out);
        }
        if let Some(err) = row.stderr {
            case.set_system_err(err);
        }
        suites
            .entry(row.suite)
            .or_insert_with(|| TestSuite::new(row.suite))
            .add_test_case(case);
    }
    for (suite, name, value) in properties {
        if let Some(suite) = suites.get_mut(suite) {
            suite.add_property(quick_junit::Property::new(*name, value.as_str()));
        }
    }
    report.add_test_suites(suites.into_values());
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- cannot render JUnit: {e} -->\n"))
}

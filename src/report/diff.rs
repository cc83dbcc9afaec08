//! The report of `shinpan diff`: what the run tried and judged, the known departures it passed
//! over, and each departure it found, shrunk, with where its case went. As human text (each
//! departure as found and shrunk, then a line each, then the cases that are in no file), as
//! JSON (the [`DiffReport`] itself) and as JUnit XML (a failing test case per departure).
//!
//! The cases are written by the CLI before the report is made; the report only says where each
//! went ([`CaseOut`]) and carries the text of those that are in no file, so that none is lost.

use serde::Serialize;

use super::{JunitRow, JunitStatus, Render};
use crate::harness::diff::{DiffOutcome, Finding, PartlyKnown, Size, Skipped};

/// How many lines of a difference the human report shows: the case file holds it whole; here,
/// enough to recognise it.
const SHOWN: usize = 24;

/// Where the case of one finding went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseOut {
    /// Printed to stdout (no `--out`): the case's text.
    Stdout(String),
    /// Written to this file.
    File(String),
    /// Could not be written to its file: why, and the case's text, printed instead.
    NotWritten { why: String, case: String },
}

#[derive(Debug, Clone, Serialize)]
pub struct DiffReport {
    pub shinpan_version: String,
    pub game: String,
    /// The engine under test: its command.
    pub engine: String,
    pub seed: u64,
    /// Inputs asked for (`--runs`).
    pub runs_asked: usize,
    /// Inputs tried.
    pub inputs: usize,
    /// Inputs the engine's answer was compared on (agreeing or not).
    pub judged: usize,
    /// Inputs the engine answered `unsupported`.
    pub unsupported: usize,
    /// Inputs that showed only departures already found.
    pub repeats: usize,
    /// Why the run stopped before its last input, if a signal stopped it.
    pub interrupted: Option<String>,
    /// The `--known` patterns that matched no departure seen.
    pub unmatched_known: Vec<String>,
    /// The `--known` patterns that covered some fields of a departure found and not all: not
    /// applied.
    pub partly_known: Vec<PartlyKnown>,
    /// The departures passed over because `--known` lists them.
    pub known: Vec<Skipped>,
    /// The distinct departures found, in the order found.
    pub findings: Vec<DiffFinding>,
}

/// One departure found, shrunk to a case about it alone.
#[derive(Debug, Clone, Serialize)]
pub struct DiffFinding {
    /// The clause the variant that reproduces it breaks; `unexplained, fields …` when none does.
    pub name: String,
    /// The clauses of the variants that reproduce it: one, or two together.
    pub clauses: Vec<String>,
    /// The variant that reproduces it.
    pub variant: Option<String>,
    /// What the variant does instead of the rule.
    pub does: Option<String>,
    /// For a departure no variant reproduces: the clauses whose cases check its fields.
    pub concerns: Vec<String>,
    /// For a departure no variant reproduces: the clauses of variants that reproduce part of
    /// it, or all of it here but depart where the engine agreed. Leads, not causes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leads: Vec<String>,
    /// Its fields, general (`players[].score`).
    pub fields: Vec<String>,
    /// Inputs it showed on, found first or again.
    pub seen_on: usize,
    /// The run (0-based) whose input showed it first.
    pub run: usize,
    pub size_before: Size,
    pub size_after: Size,
    pub shrink_steps: usize,
    pub shrink_requests: usize,
    /// Whether shrinking stopped at a fixed point (else the request budget ran out first).
    pub minimal: bool,
    /// The turn the shrunk case starts at, where the game's state has one.
    pub turn: Option<u64>,
    /// The file its case was written to; `null` when it is in none.
    pub file: Option<String>,
    /// Why its case could not be written to its file.
    pub not_written: Option<String>,
    /// The case's text, when it is in no file.
    pub case: Option<String>,
    /// Every departure the original input showed, in one line, and what differed there.
    pub original_departure: String,
    pub original_difference: String,
    /// Every departure the shrunk input shows, in one line, and what differs there: a unified
    /// diff of the reference against the engine, or the engine's failure.
    pub departure: String,
    pub difference: String,
}

impl DiffFinding {
    /// `finding`, seen on `seen_on` inputs, its case gone to `out`.
    pub fn new(finding: &Finding, seen_on: usize, out: CaseOut) -> DiffFinding {
        let (file, not_written, case) = match out {
            CaseOut::Stdout(case) => (None, None, Some(case)),
            CaseOut::File(path) => (Some(path), None, None),
            CaseOut::NotWritten { why, case } => (None, Some(why), Some(case)),
        };
        DiffFinding {
            name: finding.part.name.clone(),
            clauses: finding.part.clauses.clone(),
            variant: finding.part.variant.clone(),
            does: finding.part.does.clone(),
            concerns: finding.concerns.clone(),
            leads: finding.part.leads.clone(),
            fields: finding.part.fields.clone(),
            seen_on,
            run: finding.run,
            size_before: finding.size_before,
            size_after: finding.size_after,
            shrink_steps: finding.shrink_steps,
            shrink_requests: finding.shrink_requests,
            minimal: finding.minimal,
            turn: finding.turn(),
            file,
            not_written,
            case,
            original_departure: finding.original_departure.to_string(),
            original_difference: finding.original_difference.clone(),
            departure: finding.departure.to_string(),
            difference: finding.difference.clone(),
        }
    }

    /// One line for people: `chain scores sum … (score.chain)`, or its name.
    pub fn describe(&self) -> String {
        match &self.does {
            Some(does) => format!("{does} ({})", self.name),
            None => self.name.clone(),
        }
    }

    /// The original disagreement next to the shrunk one, with the size of each.
    fn details(&self, k: usize) -> String {
        let stopped = if self.minimal {
            "minimal"
        } else {
            "the request budget ran out first"
        };
        format!(
            "departure {k}: {} (run {}, shrunk in {} steps, {} requests, {stopped})\n  as found \
             ({}; showing {}):\n{}  shrunk ({}; showing {}):\n{}",
            self.describe(),
            self.run,
            self.shrink_steps,
            self.shrink_requests,
            self.size_before,
            self.original_departure,
            indent(&self.original_difference),
            self.size_after,
            self.departure,
            indent(&self.difference),
        )
    }

    /// `  1. score.chain · chain scores … · players[].score · seen on 7 inputs · turn 0 · FILE`;
    /// a departure no variant reproduces names the clauses whose cases check its fields.
    /// (`stdout`, or `not written (why): printed below`, in place of the file.)
    fn summary(&self, k: usize) -> String {
        let what = match &self.does {
            Some(does) => format!("{} · {does}", self.name),
            None if self.concerns.is_empty() => self.name.clone(),
            None => format!("{} · checked by {}", self.name, self.concerns.join(", ")),
        };
        let what = match self.leads.as_slice() {
            [] => what,
            leads => format!("{what} · leads, not causes: {}", leads.join(", ")),
        };
        let fields = if self.variant.is_some() {
            format!(" · {}", self.fields.join(", "))
        } else {
            String::new()
        };
        let turn = self
            .turn
            .map_or("turn -".to_string(), |t| format!("turn {t}"));
        let file = match (&self.file, &self.not_written) {
            (Some(path), _) => path.clone(),
            (None, Some(why)) => format!("not written ({why}): printed below"),
            (None, None) => "stdout".to_string(),
        };
        format!(
            "  {k}. {what}{fields} · seen on {} input{} · {} → {} lines · {turn} · {file}\n",
            self.seen_on,
            plural(self.seen_on),
            self.size_before.lines,
            self.size_after.lines
        )
    }
}

impl DiffReport {
    /// The report of `outcome`, a run of `runs_asked` inputs from `seed` on the engine
    /// `engine`; `cases` says where each finding's case went, in the order of the findings.
    pub fn new(
        game: &str,
        engine: &str,
        seed: u64,
        runs_asked: usize,
        outcome: &DiffOutcome,
        cases: Vec<CaseOut>,
    ) -> DiffReport {
        let findings = outcome
            .findings
            .iter()
            .zip(cases)
            .enumerate()
            .map(|(k, (finding, out))| {
                DiffFinding::new(finding, outcome.seen.get(k).copied().unwrap_or(0), out)
            })
            .collect();
        DiffReport {
            shinpan_version: crate::VERSION.to_string(),
            game: game.to_string(),
            engine: engine.to_string(),
            seed,
            runs_asked,
            inputs: outcome.runs,
            judged: outcome.judged,
            unsupported: outcome.unsupported,
            repeats: outcome.repeats,
            interrupted: outcome.interrupted.clone(),
            unmatched_known: outcome.unmatched_known.clone(),
            partly_known: outcome.partly_known.clone(),
            known: outcome.known.clone(),
            findings,
        }
    }

    /// Whether the engine's answer was compared on no input and nothing was found: the run
    /// checked nothing, which is not a pass (issue 22, item 10).
    pub fn nothing_judged(&self) -> bool {
        self.findings.is_empty() && self.judged == 0
    }

    /// `no disagreement in 40 inputs (0 unsupported by the engine)`
    fn no_disagreement_line(&self) -> String {
        format!(
            "no {}disagreement in {} inputs ({} unsupported by the engine)",
            if self.known.is_empty() { "" } else { "new " },
            self.inputs,
            self.unsupported
        )
    }
}

impl Render for DiffReport {
    /// Whether the run was interrupted, the known departures seen, then each departure as found
    /// and shrunk, a line each, and the text of the cases that are in no file.
    fn human(&self) -> String {
        let mut text = String::new();
        if let Some(why) = &self.interrupted {
            text.push_str(&format!(
                "INTERRUPTED: {why} after {} of {} inputs\n",
                self.inputs, self.runs_asked
            ));
        }
        for skipped in &self.known {
            text.push_str(&known_line(skipped));
        }
        for partly in &self.partly_known {
            text.push_str(&format!("PARTLY KNOWN: {partly}\n"));
        }
        if self.findings.is_empty() {
            text.push_str(&self.no_disagreement_line());
            text.push('\n');
            if self.nothing_judged() {
                text.push_str(
                    "NOTHING JUDGED: the engine's answer was compared on no input (it answered \
                     every one `unsupported`); exit 3\n",
                );
            }
            return text;
        }
        let mut summaries = String::new();
        let mut cases = String::new();
        for (k, finding) in self.findings.iter().enumerate() {
            text.push_str(&finding.details(k + 1));
            summaries.push_str(&finding.summary(k + 1));
            if let Some(case) = &finding.case {
                cases.push_str(&format!("\n{case}"));
            }
        }
        text.push_str(&format!(
            "{} distinct departure{} in {} inputs, by the clause a variant that reproduces each \
             breaks ({} more showing departures already found, {} unsupported by the engine):\n\
             {summaries}",
            self.findings.len(),
            plural(self.findings.len()),
            self.inputs,
            self.repeats,
            self.unsupported
        ));
        text.push_str(&cases);
        text
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One test suite, the game's: a failing test case per departure found (its case file, or
    /// the case's text, in the output), a skipped one per known departure seen; an error case
    /// when the run was interrupted or judged nothing; a passing one when nothing departed.
    fn junit(&self) -> String {
        let classname = format!("{}/diff", self.game);
        let details: Vec<String> = self
            .findings
            .iter()
            .enumerate()
            .map(|(k, f)| f.details(k + 1))
            .collect();
        let known: Vec<String> = self
            .known
            .iter()
            .map(|s| known_line(s).trim_end().to_string())
            .collect();
        let mut rows: Vec<JunitRow> = Vec::new();
        for (finding, detail) in self.findings.iter().zip(&details) {
            rows.push(JunitRow {
                suite: &self.game,
                name: &finding.name,
                classname: classname.clone(),
                status: JunitStatus::Failed(detail),
                stdout: finding.file.clone().or_else(|| finding.case.clone()),
                stderr: finding.not_written.clone(),
            });
        }
        for (skipped, line) in self.known.iter().zip(&known) {
            rows.push(JunitRow {
                suite: &self.game,
                name: &skipped.name,
                classname: classname.clone(),
                status: JunitStatus::Skipped(line),
                stdout: None,
                stderr: None,
            });
        }
        let interrupted = self.interrupted.as_ref().map(|why| {
            format!(
                "INTERRUPTED: {why} after {} of {} inputs",
                self.inputs, self.runs_asked
            )
        });
        if let Some(why) = &interrupted {
            rows.push(JunitRow {
                suite: &self.game,
                name: "interrupted",
                classname: classname.clone(),
                status: JunitStatus::Error(why),
                stdout: None,
                stderr: None,
            });
        }
        let nothing = self.no_disagreement_line();
        let nothing_judged = format!(
            "{nothing}: the engine's answer was compared on no input (it answered every one \
             `unsupported`)"
        );
        if self.nothing_judged() {
            rows.push(JunitRow {
                suite: &self.game,
                name: "nothing-judged",
                classname: classname.clone(),
                status: JunitStatus::Error(&nothing_judged),
                stdout: None,
                stderr: None,
            });
        } else if self.findings.is_empty() {
            rows.push(JunitRow {
                suite: &self.game,
                name: "inputs",
                classname,
                status: JunitStatus::Passed,
                stdout: Some(nothing.clone()),
                stderr: None,
            });
        }
        super::junit(&format!("shinpan diff {}", self.game), rows)
    }
}

/// Each line of `text`, indented; the first [`SHOWN`] lines, then how many more there are.
fn indent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut shown: String = lines
        .iter()
        .take(SHOWN)
        .map(|l| format!("    {l}\n"))
        .collect();
    if lines.len() > SHOWN {
        shown.push_str(&format!("    ... ({} more lines)\n", lines.len() - SHOWN));
    }
    shown
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `known (PATTERN: REASON), seen on N inputs: NAME`
fn known_line(skipped: &Skipped) -> String {
    format!(
        "known ({}: {}), seen on {} input{}: {}\n",
        skipped.pattern,
        skipped.reason,
        skipped.seen,
        plural(skipped.seen),
        skipped.describe
    )
}

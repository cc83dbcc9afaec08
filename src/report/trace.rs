//! The report of `shinpan trace`: what was checked (steps in the log, steps checked, steps
//! agreeing, where checking stopped), each departure once (with the step, the fields, the
//! clauses and a diff of the reference's prediction against what the engine showed), the ones
//! that follow from it in a line each, the departures by clause (catalogued / unexplained), the
//! outcome, and a closing verdict: PASS only when every step of the log was checked.

use super::{JunitRow, JunitStatus, Render};
use crate::harness::trace::{Departure, OutcomeCheck, TraceReport};

impl TraceReport {
    /// What was checked, in one line: "every step checked" at a glance, or where it stopped.
    pub fn checked_line(&self) -> String {
        let what = if self.complete {
            format!(
                "every step checked ({} of {})",
                self.steps, self.steps_in_log
            )
        } else {
            format!(
                "INCOMPLETE: {} of {} steps checked",
                self.steps, self.steps_in_log
            )
        };
        format!("{what}, {} agreeing", self.agreeing)
    }

    /// The version, the game, what was checked, the options and whose known departures were
    /// played.
    fn human_header(&self) -> String {
        let mut out = format!(
            "shinpan {} · trace of a {} match: {}\n",
            crate::VERSION,
            self.game,
            self.checked_line()
        );
        if !self.options_from.is_empty() {
            out.push_str(&format!(
                "options: {} ({})\n",
                serde_json::to_string(&self.options).unwrap_or_default(),
                self.options_from
            ));
        }
        out.push_str(&match &self.engine {
            Some(engine) => format!("known departures played: {engine}'s\n"),
            None => "known departures played: none (--engine-known NAME plays an engine's)\n"
                .to_string(),
        });
        out
    }

    fn verdict(&self) -> &'static str {
        if self.incomplete() {
            "INCOMPLETE"
        } else if self.engine_failed.is_some() {
            "ENGINE FAILED"
        } else if self.departures.is_empty() {
            "PASS"
        } else {
            "DEPARTURES"
        }
    }
}

impl Render for TraceReport {
    fn human(&self) -> String {
        let mut out = self.human_header();
        for d in &self.departures {
            out.push_str(&match d.follows_from {
                Some(first) => format!(
                    "  step {}, player {}: {} again ({}, follows from step {first})\n",
                    d.step,
                    d.player,
                    d.fields.join(", "),
                    d.clause
                ),
                None => new_departure_human(d),
            });
        }
        for note in &self.notes {
            out.push_str(&format!("NOTE {note}\n"));
        }
        if let Some(stopped) = &self.stopped {
            out.push_str(&format!("STOPPED {stopped}\n"));
        }
        if let Some(failed) = &self.engine_failed {
            out.push_str(&format!("ENGINE FAILED {failed}\n"));
        }
        for c in &self.by_clause {
            out.push_str(&format!(
                "  {}: {} catalogued, {} unexplained\n",
                c.clause, c.catalogued, c.unexplained
            ));
        }
        if let Some(outcome) = &self.outcome {
            out.push_str(&outcome_human(outcome));
        }
        let new = self.new_departures().count();
        // The checked line of an incomplete trace starts with the verdict already.
        let checked = self.checked_line();
        let closing = match checked.starts_with(self.verdict()) {
            true => checked,
            false => format!("{}: {checked}", self.verdict()),
        };
        out.push_str(&format!(
            "{closing}; {new} departures ({} unexplained, {} steps affected in all), {} notes\n",
            self.unexplained(),
            self.departures.len(),
            self.notes.len()
        ));
        out
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One failing test case per new departure; an error case when the trace is incomplete;
    /// one passing case when there is neither.
    fn junit(&self) -> String {
        let names: Vec<(String, String)> = self
            .new_departures()
            .map(|d| {
                (
                    format!("step-{}-player-{}", d.step, d.player),
                    format!("{} ({})\n{}\n{}", d.clause, d.fields.join(", "), d.diff, ""),
                )
            })
            .collect();
        let mut rows: Vec<JunitRow> = names
            .iter()
            .map(|(name, detail)| JunitRow {
                suite: &self.game,
                name,
                classname: format!("{}/trace", self.game),
                status: JunitStatus::Failed(detail),
                stdout: None,
                stderr: None,
            })
            .collect();
        let stopped = self
            .stopped
            .as_ref()
            .map(|why| format!("{}: {why}", self.checked_line()));
        if let Some(why) = &self.engine_failed {
            rows.push(JunitRow {
                suite: &self.game,
                name: "engine-failed",
                classname: format!("{}/trace", self.game),
                status: JunitStatus::Failed(why),
                stdout: None,
                stderr: None,
            });
        }
        if let Some(why) = &stopped {
            rows.push(JunitRow {
                suite: &self.game,
                name: "incomplete",
                classname: format!("{}/trace", self.game),
                status: JunitStatus::Error(why),
                stdout: None,
                stderr: None,
            });
        }
        if rows.is_empty() {
            rows.push(JunitRow {
                suite: &self.game,
                name: "match",
                classname: format!("{}/trace", self.game),
                status: JunitStatus::Passed,
                stdout: Some(self.checked_line()),
                stderr: None,
            });
        }
        super::junit(&format!("shinpan trace {}", self.game), rows)
    }
}

/// A departure that starts something new: its step, fields and clause, the clauses and known
/// departures that name it, and the reference's prediction against what the engine showed.
fn new_departure_human(d: &Departure) -> String {
    // An unexplained departure's name says so already.
    let status = match (d.catalogued, d.clause.starts_with("unexplained")) {
        (true, _) => ", catalogued",
        (false, true) => "",
        (false, false) => ", unexplained",
    };
    let mut out = format!(
        "DEPARTURE at step {}, player {}: {} ({}{status})\n",
        d.step,
        d.player,
        d.fields.join(", "),
        d.clause,
    );
    if !d.clauses.is_empty() {
        out.push_str(&format!("    clauses: {}\n", d.clauses.join(", ")));
    }
    if !d.reproduced.is_empty() {
        out.push_str(&format!(
            "    reproduced by playing the known departure of: {}\n",
            d.reproduced.join(", ")
        ));
    }
    for (clause, engine, note) in &d.known {
        out.push_str(&format!(
            "    known departure of {engine} ({clause}): {note}\n"
        ));
    }
    for line in d
        .diff
        .replace("expected", "reference")
        .replace("actual", "engine")
        .lines()
    {
        out.push_str(&format!("    {line}\n"));
    }
    out
}

/// The outcome the rules give against the one the log shows, in one line.
fn outcome_human(outcome: &OutcomeCheck) -> String {
    let rules = outcome
        .rules
        .as_ref()
        .map_or("the match goes on".to_string(), |v| v.to_string());
    let log = match (&outcome.log, outcome.agrees) {
        (Some(v), _) => v.to_string(),
        (None, Some(false)) => "the engine ended the match".to_string(),
        (None, _) => "no outcome recorded".to_string(),
    };
    format!(
        "outcome: rules {rules}, log {log}: {}\n",
        match outcome.agrees {
            Some(true) => "agree",
            Some(false) => "DISAGREE",
            None => "not in the log, not checked",
        }
    )
}

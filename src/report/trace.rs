//! The report of `shinpan trace`: each departure once (with the turn, the fields, the clauses
//! and a diff of the reference's prediction against what the engine showed), the ones that
//! follow from it in a line each, what could not be checked, why the logs are incomplete, and a
//! closing count.

use super::{JunitRow, JunitStatus, Render};
use crate::harness::trace::TraceReport;

impl Render for TraceReport {
    fn human(&self) -> String {
        let mut out = format!(
            "shinpan {} · trace of a {} match: {} steps checked\n",
            crate::VERSION,
            self.game,
            self.steps
        );
        for d in &self.departures {
            match d.follows_from {
                Some(first) => out.push_str(&format!(
                    "  step {}, player {}: {} again (follows from step {first})\n",
                    d.step,
                    d.player,
                    d.fields.join(", ")
                )),
                None => {
                    out.push_str(&format!(
                        "DEPARTURE at step {}, player {}: {}\n",
                        d.step,
                        d.player,
                        d.fields.join(", ")
                    ));
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
                }
            }
        }
        for note in &self.notes {
            out.push_str(&format!("NOTE {note}\n"));
        }
        for why in &self.incomplete {
            out.push_str(&format!("INCOMPLETE {why}\n"));
        }
        let new = self.new_departures().count();
        out.push_str(&format!(
            "{new} departures ({} steps affected in all), {} notes\n",
            self.departures.len(),
            self.notes.len()
        ));
        out
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One failing test case per new departure; one passing case when there is none.
    fn junit(&self) -> String {
        let names: Vec<(String, String)> = self
            .new_departures()
            .map(|d| {
                (
                    format!("step-{}-player-{}", d.step, d.player),
                    format!("{}\n{}", d.fields.join(", "), d.diff),
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
        let incomplete = self.incomplete.join("\n");
        if !incomplete.is_empty() {
            rows.push(JunitRow {
                suite: &self.game,
                name: "log",
                classname: format!("{}/trace", self.game),
                status: JunitStatus::Error(&incomplete),
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
                stdout: Some(format!("{} steps checked", self.steps)),
                stderr: None,
            });
        }
        super::junit(&format!("shinpan trace {}", self.game), rows)
    }
}

//! The report of `shinpan play`: a line per match and the wins per contender for people,
//! JSON, and JUnit (a test case per match; a match where a program broke is a failure).

use super::{JunitRow, JunitStatus, Render};
use crate::harness::play::{MatchResult, PlaySummary};

impl Render for PlaySummary {
    /// A line per match kept (and per fault, per seat out of time, and what a series match
    /// hands on), then the wins per contender.
    fn human(&self) -> String {
        let mut out: String = self.matches.iter().map(match_lines).collect();
        for (i, c) in self.contenders.iter().enumerate() {
            out.push_str(&format!("#{} {c}: {} wins\n", i + 1, self.wins[i]));
        }
        if let Some(ranking) = &self.ranking {
            out.push_str(&format!("ranking ({ranking}):\n"));
            for (place, s) in self.standings.iter().enumerate() {
                out.push_str(&format!(
                    "  {}. #{} {}: {} points, tiebreak {}\n",
                    place + 1,
                    s.contender + 1,
                    self.contenders[s.contender],
                    s.points,
                    s.tiebreak
                ));
            }
        }
        out.push_str(&format!("{} matches, {} draws\n", self.played, self.draws));
        if let Some(why) = &self.interrupted {
            out.push_str(&format!("INTERRUPTED: {why}\n"));
        }
        out
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One test case per match, in one suite: a match where a program broke (its faults) is
    /// a failure, any other a pass whose output says how it ended.
    fn junit(&self) -> String {
        let cases: Vec<(String, String)> = self
            .matches
            .iter()
            .map(|m| {
                let faults: Vec<String> = m
                    .faults
                    .iter()
                    .enumerate()
                    .filter_map(|(s, f)| f.as_ref().map(|f| format!("seat {s}: {f}")))
                    .collect();
                (
                    format!("match-{}-seed-{}", m.round + 1, m.seed),
                    faults.join("\n"),
                )
            })
            .collect();
        let rows = self
            .matches
            .iter()
            .zip(&cases)
            .map(|(m, (name, faults))| JunitRow {
                suite: &self.game,
                name,
                classname: format!("{}/play", self.game),
                status: if faults.is_empty() {
                    JunitStatus::Passed
                } else {
                    JunitStatus::Failed(faults)
                },
                stdout: Some(
                    std::iter::once(result_line(m))
                        .chain(m.non_strict.iter().enumerate().filter_map(|(s, n)| {
                            n.as_ref().map(|n| format!("seat {s}: NON-STRICT: {n}"))
                        }))
                        .collect::<Vec<_>>()
                        .join("\n"),
                ),
                stderr: None,
            });
        super::junit(&format!("shinpan play {}", self.game), rows)
    }
}

/// A match's line, and a line per fault and per NON-STRICT ending: what `play` prints as each
/// match ends.
pub fn match_lines(m: &MatchResult) -> String {
    let seats: Vec<String> = m
        .seats
        .iter()
        .enumerate()
        .map(|(s, &c)| format!("seat {s}: #{}", c + 1))
        .collect();
    let label = if m.label.is_empty() {
        String::new()
    } else {
        format!(" ({})", m.label)
    };
    let mut out = format!(
        "match {}{label} seed {} [{}]: {}; time used {:?} ms\n",
        m.round + 1,
        m.seed,
        seats.join(", "),
        result_line(m),
        m.time_used_ms
    );
    for (s, fault) in m.faults.iter().enumerate() {
        if let Some(fault) = fault {
            out.push_str(&format!("    seat {s}: {fault}\n"));
        }
    }
    for (s, note) in m.non_strict.iter().enumerate() {
        if let Some(note) = note {
            out.push_str(&format!("    seat {s}: NON-STRICT: {note}\n"));
        }
    }
    for (s, (&late, first)) in m.late_replies.iter().zip(&m.first_late_step).enumerate() {
        if let (true, Some(first)) = (late > 0, first) {
            out.push_str(&format!(
                "    seat {s}: out of time from step {first}: {late} late repl{} ignored\n",
                if late == 1 { "y" } else { "ies" }
            ));
        }
    }
    if !m.carried.is_empty() {
        let carried: Vec<String> = m
            .carried
            .0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        out.push_str(&format!("    hands on: {}\n", carried.join(" ")));
    }
    out
}

/// How a match ended, in words: `#1 wins (danger-line) after 42 steps`.
fn result_line(m: &MatchResult) -> String {
    let result = match (&m.outcome, m.winner) {
        (Some(o), Some(w)) => format!("#{} wins ({})", w + 1, o.reason),
        (Some(o), None) if o.reason == "draw" => "draw".into(),
        (Some(o), None) => format!("draw ({})", o.reason),
        (None, _) => "unfinished".into(),
    };
    format!("{result} after {} steps", m.steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seam::Outcome;

    fn ended(winner: Option<usize>, reason: &str) -> MatchResult {
        MatchResult::ended(Outcome::new(winner, reason), winner, 220)
    }

    /// Issue 22 (item 17): `play` printed "draw (draw)".
    #[test]
    fn a_draw_is_said_once() {
        assert_eq!(result_line(&ended(None, "draw")), "draw after 220 steps");
        assert_eq!(
            result_line(&ended(None, "time-over")),
            "draw (time-over) after 220 steps"
        );
        assert_eq!(
            result_line(&ended(Some(1), "base-destroyed")),
            "#2 wins (base-destroyed) after 220 steps"
        );
    }
}

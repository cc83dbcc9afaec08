//! The report of `shinpan coverage`: per game, each rule clause of its catalogue with the
//! number of cases that name it, and the ones no case names (uncovered). As human text (a line
//! per game and one per uncovered clause), as JSON (the [`CoverageReport`] itself) and as JUnit
//! XML (a test case per clause, failing when it is uncovered).

use serde::Serialize;

use super::{JunitRow, JunitStatus, Render};
use crate::case::Library;

#[derive(Debug, Clone, Serialize)]
pub struct CoverageReport {
    pub shinpan_version: String,
    /// sha256 of the case library's files.
    pub library_digest: String,
    /// Where the library came from: `built-in` or its directory.
    pub library: String,
    pub games: Vec<GameCoverage>,
}

/// The clauses of one game's catalogue, in its order.
#[derive(Debug, Clone, Serialize)]
pub struct GameCoverage {
    pub game: String,
    pub clauses: Vec<ClauseCoverage>,
    /// The ids of the clauses no case names, in the catalogue's order.
    pub uncovered: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClauseCoverage {
    pub id: String,
    pub text: String,
    /// The section of the rule document it comes from.
    pub section: String,
    /// How many cases name it in their `rules`.
    pub cases: usize,
}

impl CoverageReport {
    /// The coverage of `library`, loaded from `source` (`built-in` or its directory).
    pub fn new(library: &Library, source: &str) -> CoverageReport {
        let games = library
            .games
            .iter()
            .map(|g| {
                let clauses: Vec<ClauseCoverage> = g
                    .catalogue
                    .clauses
                    .iter()
                    .map(|clause| ClauseCoverage {
                        id: clause.id.clone(),
                        text: clause.text.clone(),
                        section: clause.section.clone(),
                        cases: g
                            .cases
                            .iter()
                            .filter(|c| c.rules.contains(&clause.id))
                            .count(),
                    })
                    .collect();
                GameCoverage {
                    game: g.game.info().id.to_string(),
                    uncovered: clauses
                        .iter()
                        .filter(|c| c.cases == 0)
                        .map(|c| c.id.clone())
                        .collect(),
                    clauses,
                }
            })
            .collect();
        CoverageReport {
            shinpan_version: crate::VERSION.to_string(),
            library_digest: library.digest.clone(),
            library: source.to_string(),
            games,
        }
    }

    /// Whether every clause of every game is named by some case.
    pub fn all_covered(&self) -> bool {
        self.games.iter().all(|g| g.uncovered.is_empty())
    }
}

impl Render for CoverageReport {
    /// `codevs-reborn: 70 of 71 clauses covered`, then `  uncovered: ID — TEXT` for each
    /// uncovered clause.
    fn human(&self) -> String {
        let mut text = String::new();
        for game in &self.games {
            text.push_str(&format!(
                "{}: {} of {} clauses covered\n",
                game.game,
                game.clauses.len() - game.uncovered.len(),
                game.clauses.len()
            ));
            for clause in game.clauses.iter().filter(|c| c.cases == 0) {
                text.push_str(&format!("  uncovered: {} — {}\n", clause.id, clause.text));
            }
        }
        text
    }

    fn json(&self) -> String {
        super::json(self)
    }

    /// One test suite per game, one test case per clause (its class name the document's
    /// section): passing with its case count in the output, failing when no case names it.
    fn junit(&self) -> String {
        let details: Vec<Vec<String>> = self
            .games
            .iter()
            .map(|g| {
                g.clauses
                    .iter()
                    .map(|c| format!("no case names this clause: {}", c.text))
                    .collect()
            })
            .collect();
        let rows = self.games.iter().zip(&details).flat_map(|(g, details)| {
            g.clauses.iter().zip(details).map(|(c, detail)| JunitRow {
                suite: &g.game,
                name: &c.id,
                classname: format!("{}/{}", g.game, c.section),
                status: if c.cases == 0 {
                    JunitStatus::Failed(detail)
                } else {
                    JunitStatus::Passed
                },
                stdout: (c.cases > 0)
                    .then(|| format!("{} case{}", c.cases, if c.cases == 1 { "" } else { "s" })),
                stderr: None,
            })
        });
        super::junit(&format!("shinpan coverage ({})", self.library), rows)
    }
}

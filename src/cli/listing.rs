//! The subcommands that only list what the library knows: `shinpan games` (one line per game)
//! and `shinpan coverage` (the rule clauses no case checks, per game).

use shinpan::case::load_library;
use shinpan::games;

use super::print;
use crate::{CoverageArgs, Outcome, Usage};

/// `shinpan games`.
pub fn games() -> Result<Outcome, Usage> {
    let mut out = String::new();
    for game in games::all() {
        let info = game.info();
        out.push_str(&format!(
            "{:<16} {} — {} players, document {}, protocol texts: {}\n",
            info.id,
            info.title,
            info.players,
            info.document,
            info.parse_kinds.join(", ")
        ));
    }
    print(&out);
    Ok(Outcome::AllPassed)
}

/// `shinpan coverage`: fails when a clause is uncovered.
pub fn coverage(args: CoverageArgs) -> Result<Outcome, Usage> {
    let CoverageArgs { game, library } = args;
    let only: Vec<String> = game.into_iter().collect();
    let library = load_library(&library.cases, &only).map_err(|e| Usage(e.to_string()))?;
    let mut out = String::new();
    let mut uncovered = 0;
    for (id, missing) in library.uncovered() {
        let total = library
            .games
            .iter()
            .find(|g| g.game.info().id == id)
            .map_or(0, |g| g.catalogue.clauses.len());
        out.push_str(&format!(
            "{id}: {} of {total} clauses covered\n",
            total - missing.len()
        ));
        for clause in &missing {
            out.push_str(&format!("  uncovered: {} — {}\n", clause.id, clause.text));
        }
        uncovered += missing.len();
    }
    print(&out);
    Ok(Outcome::passed_if(uncovered == 0))
}

//! The subcommands that only show what shinpan knows: `shinpan games` (each game and its match
//! options), `shinpan coverage` (the rule clauses no case checks) and `shinpan schema`.

use serde_json::Value;

use shinpan::games;

use super::args::{CoverageArgs, SchemaArgs};
use super::{game_by_id, out, Finished, Usage};

/// `shinpan games`.
pub fn games() -> Result<Finished, Usage> {
    let mut text = String::new();
    for game in games::all() {
        let info = game.info();
        text.push_str(&format!(
            "{:<16} {} — {} players, document {}, protocol texts: {}\n",
            info.id,
            info.title,
            info.players,
            info.document,
            info.parse_kinds.join(", ")
        ));
        for (name, doc) in option_docs(&game.options_schema()) {
            text.push_str(&format!("{:<16}   --option {name}=…  {doc}\n", ""));
        }
    }
    out(&text)?;
    Ok(Finished::AllPassed)
}

/// Each match option of a schema: its name and its description (with its default).
fn option_docs(schema: &Value) -> Vec<(String, String)> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| {
            let doc = property
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .replace('\n', " ");
            let default = property
                .get("default")
                .map(|d| format!(" [default: {d}]"))
                .unwrap_or_default();
            (name.clone(), format!("{doc}{default}"))
        })
        .collect()
}

/// `shinpan coverage`: fails when a clause is uncovered.
pub fn coverage(args: CoverageArgs) -> Result<Finished, Usage> {
    let CoverageArgs { game, library } = args;
    let only: Vec<String> = game.into_iter().collect();
    let library = super::check::load(&library, &only)?;
    let mut text = String::new();
    let mut uncovered = 0;
    for (id, missing) in library.uncovered() {
        let total = library
            .games
            .iter()
            .find(|g| g.game.info().id == id)
            .map_or(0, |g| g.catalogue.clauses.len());
        text.push_str(&format!(
            "{id}: {} of {total} clauses covered\n",
            total - missing.len()
        ));
        for clause in &missing {
            text.push_str(&format!("  uncovered: {} — {}\n", clause.id, clause.text));
        }
        uncovered += missing.len();
    }
    out(&text)?;
    Ok(Finished::passed_if(uncovered == 0))
}

/// `shinpan schema`: the canonical state's schema, the match options under `x-match-options`.
pub fn schema(args: SchemaArgs) -> Result<Finished, Usage> {
    let game = game_by_id(&args.game)?;
    let mut schema = game.schema();
    if let Value::Object(map) = &mut schema {
        map.insert("x-match-options".into(), game.options_schema());
    }
    let text = serde_json::to_string_pretty(&schema).map_err(|e| Usage(e.to_string()))?;
    out(&(text + "\n"))?;
    Ok(Finished::AllPassed)
}

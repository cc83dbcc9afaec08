//! The subcommands that only show what shinpan knows: `shinpan games` (each game, its rule
//! document, its protocol page and its match options; with a game, that game's protocol page
//! itself), `shinpan coverage` (the rule clauses no case checks, rendered in `report::coverage`) and `shinpan schema`.

use serde_json::Value;

use shinpan::games;
use shinpan::report::coverage::CoverageReport;
use shinpan::report::Render;
use shinpan::seam::DynGame;

use super::args::{CoverageArgs, GamesArgs, SchemaArgs};
use super::{game_by_id, out, Finished, Usage};

/// `shinpan games [GAME]`: every game's entry, or one game's entry and its protocol page.
pub fn games(args: GamesArgs) -> Result<Finished, Usage> {
    let text = match args.game {
        None => games::all().into_iter().map(entry).collect(),
        Some(id) => {
            let game = game_by_id(&id)?;
            format!("{}\n{}", entry(game), game.info().protocol.text)
        }
    };
    out(&text)?;
    Ok(Finished::AllPassed)
}

/// A game's entry in `shinpan games`: id and title, rule document, protocol page, the protocol
/// texts parse cases can name, match options.
fn entry(game: &dyn DynGame) -> String {
    let info = game.info();
    let indent = format!("{:<16}   ", "");
    let mut text = format!(
        "{:<16} {} — {} players\n",
        info.id, info.title, info.players
    );
    text.push_str(&format!("{indent}rules:    {}\n", info.document.title));
    text.push_str(&format!("{indent}source:   {}\n", info.document.source));
    text.push_str(&format!(
        "{indent}protocol: {} (`shinpan games {}` prints it)\n",
        info.protocol.path, info.id
    ));
    text.push_str(&format!(
        "{indent}protocol texts: {}\n",
        info.parse_kinds.join(", ")
    ));
    if let Some(schemas) = game.schemas() {
        for (name, doc) in option_docs(&schemas.options) {
            text.push_str(&format!("{indent}--option {name}=…  {doc}\n"));
        }
    }
    text
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
    let CoverageArgs {
        game,
        library,
        format,
    } = args;
    let only: Vec<String> = game.into_iter().collect();
    let loaded = super::check::load(&library, &only)?;
    let report = CoverageReport::new(&loaded, &library.source().describe());
    out(&report.render(format.format()))?;
    Ok(Finished::passed_if(report.all_covered()))
}

/// `shinpan schema`: the canonical state's schema, the match options under `x-match-options`.
pub fn schema(args: SchemaArgs) -> Result<Finished, Usage> {
    let game = game_by_id(&args.game)?;
    let schemas = game.schemas().ok_or_else(|| {
        Usage(format!(
            "{} is built without its `schema` feature: it has no schema to print",
            args.game
        ))
    })?;
    let mut schema = schemas.state;
    if let Value::Object(map) = &mut schema {
        map.insert("x-match-options".into(), schemas.options);
    }
    let text = serde_json::to_string_pretty(&schema).map_err(|e| Usage(e.to_string()))?;
    out(&(text + "\n"))?;
    Ok(Finished::AllPassed)
}

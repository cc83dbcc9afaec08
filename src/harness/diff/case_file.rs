//! Writing a shrunk disagreement as a case file the library can load: YAML with the shrunk
//! input as `given`/`when`, the reference engine's result as `then`, and the difference as a
//! comment on top. The case is marked for review; naming its rule clauses is left to a person.

use serde_json::Value;

use super::Finding;
use crate::case::UNCLASSIFIED;
use crate::game::{DynGame, Reply};

/// The finding as a ready-to-commit case file: the shrunk input, the reference engine's result
/// as the expectation, `needs-review: true` and `rules: [unclassified]` until someone names the
/// clauses.
pub fn case_file(game: &dyn DynGame, finding: &Finding, command: &str, seed: u64) -> String {
    let id = format!("diff-seed-{seed}-run-{}", finding.run);
    let note = format!(
        "Found by `shinpan diff {} --seed {seed}` against `{command}` on run {}, shrunk in {} \
         steps. The expectation is the reference engine's result on the parts where the engine \
         disagreed; check it against the rule document, name the clauses in `rules:`, then drop \
         `needs-review`.",
        game.info().id,
        finding.run,
        finding.shrink_steps
    );
    let to_yaml_value = |v: &Value| serde_yaml::to_value(v).unwrap_or(serde_yaml::Value::Null);
    let mut case = serde_yaml::Mapping::new();
    case.insert("id".into(), id.into());
    case.insert("rules".into(), vec![UNCLASSIFIED].into());
    case.insert("needs-review".into(), true.into());
    case.insert("note".into(), note.into());
    case.insert("given".into(), to_yaml_value(&finding.shrunk.state));
    // A reply answered in no time is written bare, as cases write it: `["3 0", "7 2"]`.
    let when: Vec<Vec<serde_yaml::Value>> = finding
        .shrunk
        .turns
        .iter()
        .map(|turn| {
            turn.iter()
                .map(|reply| match reply {
                    Reply::Text {
                        text,
                        elapsed_ms: 0,
                    } => text.as_str().into(),
                    other => serde_yaml::to_value(other).unwrap_or(serde_yaml::Value::Null),
                })
                .collect()
        })
        .collect();
    let when = serde_yaml::to_value(when).unwrap_or(serde_yaml::Value::Null);
    case.insert("when".into(), when);
    case.insert("then".into(), to_yaml_value(&finding.expectation));
    let mut file = serde_yaml::Mapping::new();
    file.insert("game".into(), game.info().id.into());
    file.insert(
        "cases".into(),
        serde_yaml::Value::Sequence(vec![serde_yaml::Value::Mapping(case)]),
    );
    let body = serde_yaml::to_string(&file).unwrap_or_default();
    let difference: String = finding
        .difference
        .lines()
        .map(|l| format!("#   {l}\n"))
        .collect();
    format!(
        "# Written by `shinpan diff`. What differed (reference -, engine +):\n{difference}{body}"
    )
}

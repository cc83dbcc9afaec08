//! A named departure checked against the rest of the run: a variant credited with an engine's
//! failure on one case must also be what the engine does on the others. Where the variant
//! departs from a case's expectation and the engine passed that case, the engine does not do
//! what the variant does: the variant agreed on the failing case by coincidence (a king's
//! range and a phase order can leave the same health), and it names nothing. The departure is
//! then unexplained, the variant kept as a lead (`partly`). No engine request is made: the
//! variant is played on the passing cases' own inputs.

use std::collections::BTreeMap;

use super::departure::unexplained_name;
use super::{modelled_result, CaseResult, CaseVerdict, Mask, StepResponse};
use crate::case::expect::check_subset;
use crate::case::{Case, CaseBody};
use crate::seam::DynGame;

/// Takes back, in `results` (those of `cases`, in the same order), every name given by a
/// variant that a passing case refutes.
pub(crate) fn refute_by_passing_cases(
    cases: &[(&'static dyn DynGame, &Case)],
    results: &mut [CaseResult],
) {
    let mut verdicts: BTreeMap<(String, String), bool> = BTreeMap::new();
    for i in 0..results.len() {
        let Some(departure) = &results[i].departure else {
            continue;
        };
        let (game, _) = cases[i];
        let refuted = departure.by.iter().any(|by| {
            by.variants.iter().any(|variant| {
                let key = (game.info().id.to_string(), variant.clone());
                *(verdicts.entry(key)).or_insert_with(|| refuted(game, variant, cases, results))
            })
        });
        if refuted {
            let departure = results[i].departure.as_mut().expect("checked above");
            let mut fields = departure.unexplained.clone();
            fields.extend(departure.by.iter().flat_map(|b| b.fields.clone()));
            fields.sort();
            fields.dedup();
            departure.partly.append(&mut departure.by);
            departure.name = unexplained_name(&fields);
            departure.describe = format!(
                "{}; {} would also fail cases this engine passes",
                departure.name,
                departure
                    .partly
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            departure.unexplained = fields;
        }
    }
}

/// Whether a step case the engine passed in full (nothing masked) fails with `variant` played.
fn refuted(
    game: &'static dyn DynGame,
    variant: &str,
    cases: &[(&'static dyn DynGame, &Case)],
    results: &[CaseResult],
) -> bool {
    let Some(playable) = game.info().capabilities.variants else {
        return false;
    };
    let Some(v) = playable.variants().iter().position(|x| x.name == variant) else {
        return false;
    };
    let passed = |r: &CaseResult| r.verdict == CaseVerdict::Pass && r.masked.is_empty();
    cases.iter().zip(results).any(|((g, case), result)| {
        let CaseBody::Step {
            given, when, then, ..
        } = &case.body
        else {
            return false;
        };
        if g.info().id != game.info().id || !passed(result) {
            return false;
        }
        let (given, then) = (given.value(), then.value());
        let Ok(played) = playable.play_variant(&given, when, &[v]) else {
            return false;
        };
        match modelled_result(game, &then, StepResponse::from(played), &Mask::default()) {
            Ok(actual) => check_subset(&then, &actual).is_err(),
            Err(_) => false,
        }
    })
}

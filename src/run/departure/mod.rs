//! Naming a departure by reproducing it: one mechanism for `trace`, `diff` and `check`.
//!
//! An engine departs from the rules on some fields of a result. Each way the game knows of
//! getting a clause wrong ([`crate::seam::DynVariants::variants`]: the planted bugs, made playable; in `trace`
//! also a named engine's known departures, [`crate::seam::DynKnownDepartures::departures_played`]) is played on the
//! same input, and a way *reproduces* a field when its result there equals the engine's. A way
//! that also changes a field the engine got right ([`collateral`]) explains nothing: its
//! agreement on the differing fields is the coincidence of a wrong rule. Of the ways left, the
//! one that reproduces the most fields names the departure by its clause; ways that reproduce
//! exactly the same fields are a tie, and the name says so (`one of a, b`); the ways after it
//! that reproduce fields it does not are the other departures the same input shows. A field
//! nothing reproduces is unexplained: a departure with no reproducing way is
//! `unexplained, fields …`, never given a clause it does not break.
//!
//! [`reproduce`] is the rule, shared by all three; [`name`] plays the variants on one input
//! (`diff`'s, or a case's `given` and `when`) and applies it. [`paths`] holds the field paths.

pub mod paths;
pub mod printer;

use serde::Serialize;
use serde_json::Value;

use crate::run::StepResponse;
use crate::seam::{DynGame, PlayedDeparture, Reply, Variant};
pub use paths::{at, differing_fields, differing_leaves, general, owner_of, same_at};

/// Which of some played ways reproduce which of a departure's fields ([`reproduce`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reproduction {
    /// The ways that reproduce at least one field: the index of the way and the indices of
    /// the fields it is credited with, the way credited with the most first (a tie keeps the
    /// order the ways were given in).
    pub ranked: Vec<(usize, Vec<usize>)>,
    /// The indices of the fields no way reproduces.
    pub unexplained: Vec<usize>,
}

impl Reproduction {
    /// The ranked ways that each reproduce a field the ones before them do not: the
    /// departures the input shows, the one that names it first.
    pub fn cover(&self) -> Vec<&(usize, Vec<usize>)> {
        let mut covered: Vec<usize> = Vec::new();
        let mut parts = Vec::new();
        for way in &self.ranked {
            if way.1.iter().any(|f| !covered.contains(f)) {
                covered.extend(&way.1);
                parts.push(way);
            }
        }
        parts
    }
}

/// Which of the `played` ways reproduce which of the `fields` where the engine's result
/// `shown` departs. A way reproduces a field when its state there is the engine's; one played
/// together with an engine's other ways ([`PlayedDeparture::without`]) only where, without it,
/// the thing the field belongs to (`units[#5]` of `units[#5].x`) is no longer as shown (a
/// single number may agree by chance where the whole thing does not). Of the ways that
/// reproduce a field, those naming the fewest clauses are credited with it (a pair played away
/// together names a field only where no single way does).
pub fn reproduce(
    fields: &[String],
    shown: &Value,
    played: &[PlayedDeparture<Value>],
) -> Reproduction {
    let shows = |state: &Value, field: &str| same_at(at(state, field), at(shown, field));
    let reproduces = |p: &PlayedDeparture<Value>, field: &String| {
        let owner = owner_of(field);
        shows(&p.state, field) && !p.without.as_ref().is_some_and(|w| shows(w, &owner))
    };
    let fewest: Vec<Option<usize>> = fields
        .iter()
        .map(|f| {
            played
                .iter()
                .filter(|p| reproduces(p, f))
                .map(|p| p.clauses.len())
                .min()
        })
        .collect();
    let mut ranked: Vec<(usize, Vec<usize>)> = played
        .iter()
        .enumerate()
        .map(|(w, p)| {
            let credited = (0..fields.len())
                .filter(|&i| fewest[i] == Some(p.clauses.len()) && reproduces(p, &fields[i]))
                .collect::<Vec<usize>>();
            (w, credited)
        })
        .filter(|(_, credited)| !credited.is_empty())
        .collect();
    ranked.sort_by_key(|(_, credited)| std::cmp::Reverse(credited.len()));
    let unexplained = (0..fields.len()).filter(|&i| fewest[i].is_none()).collect();
    Reproduction {
        ranked,
        unexplained,
    }
}

/// A variant (or two played together) that reproduces part of a departure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Reproducer {
    /// The variants' names (`chain-score-rounded`): one, or two that reproduce together what
    /// neither does alone.
    pub variants: Vec<String>,
    /// The clauses they break, in the same order.
    pub clauses: Vec<String>,
    /// What they do instead of the rules.
    pub does: String,
    /// The fields they reproduce.
    pub fields: Vec<String>,
    /// The clauses of other variants that reproduce exactly the same fields: a tie, which the
    /// catalogue's order broke.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub ties: Vec<String>,
}

impl Reproducer {
    /// Its name: the clause, or two joined by ` + `; a tie is `one of a, b` (the clauses in
    /// order, so that the same tie is one name whichever way came first).
    pub fn name(&self) -> String {
        if self.ties.is_empty() {
            return self.clauses.join(" + ");
        }
        let mut all: Vec<String> = self.ties.clone();
        all.push(self.clauses.join(" + "));
        all.sort();
        all.dedup();
        format!("one of {}", all.join(", "))
    }

    /// One line for people, about the variant and not the engine: `a variant where chain
    /// scores sum round(1.3^i), not floor(1.3^i), reproduces this (score.chain)`.
    pub fn describe(&self) -> String {
        let what = if self.variants.len() > 1 {
            "two variants together"
        } else {
            "a variant"
        };
        format!(
            "{what} where {}, reproduces this ({})",
            self.does,
            self.name()
        )
    }
}

/// The fields a way changes that the engine got right: where the way's result departs from the
/// rules' (`reference`) and the engine's does not. A way with any explains nothing.
pub fn collateral(way: &Value, reference: &Value, engine: &Value) -> Vec<String> {
    differing_leaves(reference, way)
        .into_iter()
        .filter(|f| same_at(at(engine, f), at(reference, f)))
        .collect()
}

/// A departure on one input, named by the variants that reproduce it ([`name`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Named {
    /// The fields that differ.
    pub fields: Vec<String>,
    /// The variants that reproduce it: the one reproducing the most fields first (it names the
    /// departure), then each that reproduces fields the ones before do not (other departures
    /// the same input shows). Two variants played together reproduce only fields no single
    /// one does.
    pub by: Vec<Reproducer>,
    /// The fields no variant reproduces: every field, unless `by` reproduces them all.
    pub unexplained: Vec<String>,
    /// Ways that reproduce some of the fields, where nothing reproduces the rest: not a name
    /// (a partial agreement proved a coincidence too often), only a lead.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub partly: Vec<Reproducer>,
}

/// The name of a departure no variant reproduces: `unexplained, fields …` with its fields made
/// general, a coordinate written as its position ([`paths::quantity`]: `units[].x|y`).
pub fn unexplained_name(fields: &[String]) -> String {
    let mut quantities: Vec<String> = general(fields).iter().map(|f| paths::quantity(f)).collect();
    quantities.sort();
    quantities.dedup();
    format!("unexplained, fields {}", quantities.join(", "))
}

impl Named {
    /// What the departure is grouped by: the clause of the variant that reproduces it (two
    /// joined by ` + `), or `unexplained, fields …`.
    pub fn name(&self) -> String {
        match self.by.first() {
            Some(by) => by.name(),
            None => unexplained_name(&self.fields),
        }
    }

    /// One line for people: what reproduces it ([`Reproducer::describe`]) and, when some
    /// fields stay unexplained, which; or the unexplained name.
    pub fn describe(&self) -> String {
        match self.by.first() {
            Some(by) if self.unexplained.is_empty() => by.describe(),
            Some(by) => format!(
                "{}; unexplained: {}",
                by.describe(),
                general(&self.unexplained).join(", ")
            ),
            None => self.name(),
        }
    }

    /// The clauses of the variants that reproduce it, the naming one first.
    pub fn clauses(&self) -> Vec<String> {
        let mut clauses: Vec<String> = Vec::new();
        for clause in self.by.iter().flat_map(|b| &b.clauses) {
            if !clauses.contains(clause) {
                clauses.push(clause.clone());
            }
        }
        clauses
    }

    /// Whether some variant reproduces it.
    pub fn is_named(&self) -> bool {
        !self.by.is_empty()
    }
}

/// Names the departure of an engine whose result, `engine`, differs on `fields` from what the
/// rules give after playing `turns` from `state`: each of the game's variants is played on the
/// same input and its result made comparable by `shape` (as the engine's was: the same mask,
/// the same read-back), then [`reproduce`] decides. Where fields are left that no variant
/// reproduces alone, every two variants are played together too (two bugs on one input). A
/// variant reproduces a field only where it departs from the rules (the reference's result,
/// played and shaped the same way), so that a case whose expectation is itself wrong is not
/// named by every variant that leaves the field alone. A variant the input cannot be played
/// with reproduces nothing.
pub fn name(
    game: &dyn DynGame,
    input: (&Value, &[Vec<Reply>]),
    fields: Vec<String>,
    engine: &Value,
    shape: &dyn Fn(StepResponse) -> Value,
) -> Named {
    // A game without variants names nothing: every field is left unexplained.
    let variants = game
        .info()
        .capabilities
        .variants
        .map_or(&[][..], |playable| playable.variants());
    let (played, reproduction) = play_variants(game, input, &fields, engine, shape);
    let by: Vec<Reproducer> = reproduction
        .cover()
        .into_iter()
        .map(|(w, credited)| {
            let mut by = reproducer(variants, &played[*w], credited, &fields);
            // The other ways that reproduce exactly the same fields: a tie, shown.
            by.ties = (reproduction.ranked.iter())
                .filter(|(other, c)| other != w && c == credited)
                .map(|(other, _)| reproducer(variants, &played[*other], &[], &fields).name())
                .filter(|clause| !by.clauses.contains(clause))
                .collect();
            by.ties.sort();
            by.ties.dedup();
            by
        })
        .collect();
    if reproduction.unexplained.is_empty() {
        return Named {
            fields,
            by,
            unexplained: Vec::new(),
            partly: Vec::new(),
        };
    }
    // Ways that reproduce part of a departure and leave the rest unexplained name nothing: on
    // engines written from the document, such a part was a coincidence of a wrong rule on a
    // field that follows from the real departure (a stock fed by a score the engine got wrong).
    Named {
        unexplained: fields.clone(),
        fields,
        by: Vec::new(),
        partly: by,
    }
}

/// Plays each of the game's variants on the input alone and, where fields are left that no
/// variant reproduces alone, every two that break clauses of the same rule (`gauge.gain` and
/// `gauge.decrease`) together: the sets of variants played (by their place in the game's
/// list) that change no field the engine got right ([`collateral`]), and which of them
/// reproduce which of the engine's `fields`.
fn play_variants(
    game: &dyn DynGame,
    (state, turns): (&Value, &[Vec<Reply>]),
    fields: &[String],
    engine: &Value,
    shape: &dyn Fn(StepResponse) -> Value,
) -> (Vec<Vec<usize>>, Reproduction) {
    let playable = game.info().capabilities.variants;
    let variants = playable.map_or(&[][..], |playable| playable.variants());
    let reference = game
        .play(state, turns)
        .ok()
        .map(|played| shape(StepResponse::from(played)));
    let play = |set: &[usize]| {
        let played = playable?.play_variant(state, turns, set).ok()?;
        let state = shape(StepResponse::from(played));
        if let Some(reference) = &reference {
            if !collateral(&state, reference, engine).is_empty() {
                return None;
            }
        }
        Some(PlayedDeparture {
            clauses: set
                .iter()
                .map(|&v| variants[v].clause.to_string())
                .collect(),
            state,
            without: reference.clone(),
        })
    };
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut ways: Vec<PlayedDeparture<Value>> = Vec::new();
    for v in 0..variants.len() {
        if let Some(way) = play(&[v]) {
            sets.push(vec![v]);
            ways.push(way);
        }
    }
    let reproduction = reproduce(fields, engine, &ways);
    if reproduction.unexplained.is_empty() || variants.len() <= 1 {
        return (sets, reproduction);
    }
    let rule = |v: usize| variants[v].clause.split('.').next().unwrap_or_default();
    for first in 0..variants.len() {
        for second in first + 1..variants.len() {
            if rule(first) != rule(second) {
                continue;
            }
            if let Some(way) = play(&[first, second]) {
                sets.push(vec![first, second]);
                ways.push(way);
            }
        }
    }
    let reproduction = reproduce(fields, engine, &ways);
    (sets, reproduction)
}

/// The variants of `set` as the reproducer of the `credited` fields.
fn reproducer(
    variants: &[Variant],
    set: &[usize],
    credited: &[usize],
    fields: &[String],
) -> Reproducer {
    Reproducer {
        variants: set.iter().map(|&v| variants[v].name.to_string()).collect(),
        clauses: set
            .iter()
            .map(|&v| variants[v].clause.to_string())
            .collect(),
        does: set
            .iter()
            .map(|&v| variants[v].does)
            .collect::<Vec<&str>>()
            .join(", and "),
        fields: credited.iter().map(|&i| fields[i].clone()).collect(),
        ties: Vec::new(),
    }
}

/// The fields where two results differ, as a departure is named by: the prompts only when
/// nothing else differs (a different state shows in its prompts too).
pub fn departing_fields(reference: &Value, engine: &Value) -> Vec<String> {
    let mut fields = differing_leaves(reference, engine);
    if fields.iter().any(|f| !f.starts_with("prompts")) {
        fields.retain(|f| !f.starts_with("prompts"));
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_unexplained_name_writes_a_coordinate_as_its_position_once() {
        let fields = ["units[3].y", "units[1].x", "units[2].xp", "units[2].y"].map(String::from);
        assert_eq!(
            unexplained_name(&fields),
            "unexplained, fields units[].xp, units[].x|y"
        );
        assert_eq!(
            unexplained_name(&["units[0].y".to_string()]),
            unexplained_name(&["units[4].x".to_string()])
        );
    }

    fn way(clause: &str, state: Value) -> PlayedDeparture<Value> {
        PlayedDeparture {
            clauses: vec![clause.into()],
            state,
            without: None,
        }
    }

    #[test]
    fn the_way_reproducing_most_fields_names_it_and_the_rest_is_unexplained() {
        let fields: Vec<String> = ["score", "stock", "field"].map(String::from).to_vec();
        let shown = json!({"score": 3, "stock": 10, "field": "X"});
        let played = [
            way("a", json!({"score": 3, "stock": 0, "field": "."})),
            way("b", json!({"score": 2, "stock": 10, "field": "X"})),
            way("c", json!({"score": 2, "stock": 10, "field": "."})),
        ];
        let r = reproduce(&fields, &shown, &played);
        assert_eq!(r.ranked, [(1, vec![1, 2]), (0, vec![0]), (2, vec![1])]);
        assert_eq!(r.cover(), [&(1, vec![1, 2]), &(0, vec![0])]);
        assert!(r.unexplained.is_empty());
        let r = reproduce(&fields, &json!({"score": 9}), &played);
        assert!(r.ranked.is_empty());
        assert_eq!(r.unexplained, [0, 1, 2]);
    }

    #[test]
    fn a_tie_goes_to_the_first_way() {
        let fields = vec!["score".to_string()];
        let played = [
            way("a", json!({"score": 3})),
            way("b", json!({"score": 3.0})),
        ];
        let r = reproduce(&fields, &json!({"score": 3}), &played);
        assert_eq!(r.cover(), [&(0, vec![0])]);
    }

    #[test]
    fn prompts_count_only_when_nothing_else_differs() {
        let a = json!({"score": 1, "prompts": ["1"]});
        let b = json!({"score": 2, "prompts": ["2"]});
        assert_eq!(departing_fields(&a, &b), ["score"]);
        let b = json!({"score": 1, "prompts": ["2"]});
        assert_eq!(departing_fields(&a, &b), ["prompts[0]"]);
    }
}

//! Engines that misread a rule document, written from the document by someone who had not read
//! shinpan's naming code (issue 38, item 7), and the tally that judges what `check` and `diff`
//! name on them against the departures worked out by hand (`tests/fixtures/misreading-engines/`).
//!
//! A game's module describes each engine ([`Spec`]): its misreadings, each with the clauses that
//! are its right cause and the general fields it makes wrong. A departure's part is attributed
//! to the misreadings whose fields it touches (or, for a `check` case whose fields do not tell
//! them apart, to those the spec's overrides give by hand); a name is right when every clause
//! it names is a right clause of a misreading it is attributed to. Where the engine's
//! misreadings can be played one at a time ([`Spec::alone`]), a diff finding is attributed by
//! playing each alone on its shrunk input instead: the lists credit a field such as
//! `players[].gold` to every misreading that can touch it, and so count one group once per
//! misreading that could have made it.
//!
//! **A real departure** is a misreading, except that where a misreading's engine prints the
//! prompts wrong in its printer *and* plays wrong in its step (a seat in the wrong frame: two
//! places in the engine's code, each marked), the printer's half is a real departure of its
//! own, `M1 (printer)`: a finding on the prompts alone ([`Part::is_printer`]) is attributed to
//! the misreadings whose engine, played alone, prints prompts that are not the rules' for its
//! own state. Fixing one half leaves the other, and shinpan reports them apart.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use shinpan::harness::diff::{self, DiffConfig, Input, Known};
use shinpan::run::departure::paths::{covered_by, held_by};
use shinpan::run::departure::printer::printer_departure;
use shinpan::run::departure::{differing_leaves, general, Reproducer};
use shinpan::run::{Answered, EngineUnderTest, Reference, StepRequest, StepResponse};
use shinpan::Suite;

/// A spec's own attribution: the misreadings a part with these general fields comes from,
/// or `None` to go by the fields' lists.
pub type ByHand = fn(&[String]) -> Option<Vec<&'static str>>;

/// The engine with one misreading alone, by its id (`M2`), where the engine is made of
/// misreadings that can be switched on one at a time.
pub type Alone = fn(&str) -> Option<Box<dyn EngineUnderTest>>;

/// One misreading of an engine.
pub struct Misreading {
    /// `M1`, as in DEPARTURES.md.
    pub id: &'static str,
    /// The clauses that are its right cause.
    pub right: &'static [&'static str],
    /// The general fields it makes wrong (`players[].skill_gauge`; a prefix such as `prompts`
    /// covers every field under it).
    pub fields: &'static [&'static str],
}

/// An engine and what it gets wrong, by hand.
pub struct Spec {
    pub game: &'static str,
    pub engine: &'static str,
    pub misreadings: &'static [Misreading],
    /// `check` cases whose fields do not say which misreading they show: case name → ids.
    pub overrides: &'static [(&'static str, &'static [&'static str])],
    /// Where the fields' lists do not tell misreadings apart: the misreadings a part with
    /// these general fields comes from, by hand, or `None` to go by the lists.
    pub attribute: Option<ByHand>,
    /// Where the engine's misreadings can be played alone: a diff finding is attributed to
    /// those that alone depart on its shrunk input on its fields (which real departure it
    /// is, by playing each), and by the lists only where none does (two together).
    pub alone: Option<Alone>,
}

impl Spec {
    /// The misreadings a part with these fields comes from.
    fn attribute(&self, fields: &[String], case: Option<&str>) -> BTreeSet<&'static str> {
        if let Some((_, ids)) = case.and_then(|c| self.overrides.iter().find(|(n, _)| *n == c)) {
            return ids.iter().copied().collect();
        }
        if let Some(ids) = self.attribute.and_then(|by_hand| by_hand(&general(fields))) {
            return ids.into_iter().collect();
        }
        let touches = |pattern: &str, field: &str| {
            field == pattern
                || field.starts_with(&format!("{pattern}."))
                || field.starts_with(&format!("{pattern}["))
        };
        self.misreadings
            .iter()
            .filter(|m| {
                let general = general(fields);
                m.fields
                    .iter()
                    .any(|p| general.iter().any(|f| touches(p, f)))
            })
            .map(|m| m.id)
            .collect()
    }

    /// The misreadings that, each played alone on `input`, depart from the rules on some of
    /// `fields` (general), or, for the prompts alone (`printer`), print prompts that are not
    /// the rules' for their own state; `None` without [`Spec::alone`] or where none does.
    fn causes(
        &self,
        input: &Input,
        fields: &[String],
        printer: bool,
    ) -> Option<BTreeSet<&'static str>> {
        let alone = self.alone?;
        let game = shinpan::games::by_id(self.game)?;
        let request = StepRequest {
            id: "attribution",
            game,
            state: &input.state,
            turns: &input.turns,
            reachable: true,
        };
        let result = |response: StepResponse| {
            let state = shinpan::seam::load_state(game, &response.state).ok()?;
            Some(shinpan::run::actual(&state, &response))
        };
        let Answered::Done(rules) = Reference.step(request) else {
            return None;
        };
        let rules = result(rules)?;
        let departs_on_fields = |m: &&Misreading| {
            let Some(mut engine) = alone(m.id) else {
                return false;
            };
            let Answered::Done(response) = engine.step(request) else {
                return fields.is_empty();
            };
            let Some(shown) = result(response) else {
                return false;
            };
            if printer {
                return printer_departure(game, &rules, &shown).is_some();
            }
            general(&differing_leaves(&rules, &shown)).iter().any(|f| {
                covered_by(f, fields)
                    || fields
                        .iter()
                        .any(|p| covered_by(p, std::slice::from_ref(f)))
            })
        };
        let ids: BTreeSet<&'static str> = (self.misreadings.iter())
            .filter(departs_on_fields)
            .map(|m| m.id)
            .collect();
        (!ids.is_empty()).then_some(ids)
    }

    fn right_for(&self, ids: &BTreeSet<&'static str>) -> BTreeSet<&'static str> {
        self.misreadings
            .iter()
            .filter(|m| ids.contains(m.id))
            .flat_map(|m| m.right.iter().copied())
            .collect()
    }
}

/// What one command named on one engine, judged.
#[derive(Debug, Default)]
pub struct Tally {
    pub engine: String,
    pub command: String,
    /// Failing cases, or diff findings.
    pub departures: usize,
    pub names: usize,
    pub right: usize,
    /// Each wrong name: where, what was named, what would have been right.
    pub wrong: Vec<String>,
    /// Parts no variant explains (fields left unexplained).
    pub unexplained: usize,
    /// Names given as a tie ("one of …").
    pub ties: usize,
    /// Departures attributed to no misreading: the engine departs where the hand list says
    /// it does not (either the list or the engine is wrong).
    pub strays: Vec<String>,
    /// For each real departure (a misreading, or the printer's half of one): the groups
    /// (departure names) it came back under.
    pub groups: BTreeMap<String, BTreeSet<String>>,
    /// For each group: its finding's fields and the fields the whole group showed (diff),
    /// to join two seeds' groups as one run would ([`over_seeds`]).
    pub group_fields: BTreeMap<String, (Vec<String>, Vec<String>)>,
    /// diff: the shrinks that ended at a fixed point, and each shrunk case's lines.
    pub minimal: usize,
    pub shrunk_lines: Vec<usize>,
}

impl Tally {
    fn new(spec: &Spec, command: String) -> Tally {
        Tally {
            engine: spec.engine.into(),
            command,
            ..Tally::default()
        }
    }

    /// Judges one name (a reproducer) of a departure attributed to `ids`.
    fn judge(&mut self, spec: &Spec, at: &str, by: &Reproducer, case: Option<&str>) {
        let ids = spec.attribute(&by.fields, case);
        self.judge_as(spec, at, by, &ids);
    }

    /// Judges one name of a departure that comes from the misreadings `ids`.
    fn judge_as(&mut self, spec: &Spec, at: &str, by: &Reproducer, ids: &BTreeSet<&'static str>) {
        let right = spec.right_for(ids);
        self.names += 1;
        if !by.ties.is_empty() {
            self.ties += 1;
        }
        // A tie is right when the right clause is among those it offers.
        let offered: Vec<&String> = by.clauses.iter().chain(&by.ties).collect();
        let is_right = if by.ties.is_empty() {
            by.clauses.iter().all(|c| right.contains(c.as_str()))
        } else {
            offered.iter().any(|c| right.contains(c.as_str()))
        };
        if is_right {
            self.right += 1;
        } else {
            self.wrong.push(format!(
                "{at}: named {} (ties {:?}) for {:?}; right: {:?}",
                by.name(),
                by.ties,
                by.fields,
                right
            ));
        }
    }

    fn group(&mut self, ids: &BTreeSet<&'static str>, name: &str) {
        for id in ids {
            self.groups
                .entry(id.to_string())
                .or_default()
                .insert(name.to_string());
        }
    }

    /// Groups per real departure found: the groups each misreading came back under, averaged.
    pub fn groups_per_departure(&self) -> f64 {
        if self.groups.is_empty() {
            return 0.0;
        }
        let total: usize = self.groups.values().map(BTreeSet::len).sum();
        total as f64 / self.groups.len() as f64
    }

    /// The groups that came back under more than one misreading: one name for two real
    /// departures (or a finding that needs both to show).
    pub fn shared(&self) -> BTreeSet<&String> {
        let mut seen = BTreeSet::new();
        let mut shared = BTreeSet::new();
        for name in self.groups.values().flatten() {
            if !seen.insert(name) {
                shared.insert(name);
            }
        }
        shared
    }

    /// `minimal/shrinks, median N lines` (diff), or `-` (check).
    pub fn shrinks(&self) -> String {
        if self.shrunk_lines.is_empty() {
            return "-".into();
        }
        let mut lines = self.shrunk_lines.clone();
        lines.sort_unstable();
        let median = lines[lines.len() / 2];
        format!("{}/{}, median {median} lines", self.minimal, lines.len())
    }

    /// The misreadings found (a printer's half, its misreading).
    pub fn found(&self) -> BTreeSet<&str> {
        (self.groups.keys())
            .map(|id| id.trim_end_matches(PRINTER))
            .collect()
    }

    /// Issue 38's bar: no wrong name, no stray departure, and for `diff` over all its seeds
    /// ([`over_seeds`]) at most `groups_at_most` groups per real departure ([`GROUPS_BAR`]). `check`'s groups are printed
    /// but not bounded: a case is one input, and one real departure shows differently on
    /// inputs that do different things.
    pub fn assert_issue_38(&self, groups_at_most: f64) {
        assert!(
            self.wrong.is_empty(),
            "{self}\nwrong names:\n{}",
            self.wrong.join("\n")
        );
        assert!(
            self.strays.is_empty(),
            "{self}\ndepartures no misreading explains:\n{}",
            self.strays.join("\n")
        );
        assert!(
            !self.command.starts_with("diff, all") || self.groups_per_departure() <= groups_at_most,
            "{self}\ngroups: {:?}",
            self.groups
        );
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {} |",
            self.engine,
            self.command,
            self.departures,
            self.names,
            self.right,
            self.wrong.len(),
            self.unexplained,
            self.ties,
            self.groups_per_departure(),
            self.shrinks()
        )
    }
}

/// The table's header, for [`Tally`]'s rows.
pub const HEADER: &str = "| engine | command | failing / findings | names | right | wrong | unexplained | ties | groups per real departure | shrinks minimal, median lines |\n|---|---|---|---|---|---|---|---|---|---|";

/// The key of a misreading's printer half: `M1 (printer)`.
const PRINTER: &str = " (printer)";

/// The diff rows of one engine as one: the groups each real departure came back under over all
/// the seeds, two seeds' groups joined as diff joins them in one run: named alike, or,
/// unexplained both, one's fields all among those the other's group showed (`units[].hp` on
/// seed 2, where seed 1's group showed `players[].kills, units[], units[].hp`).
pub fn over_seeds(rows: &[Tally]) -> Tally {
    let mut all = Tally {
        engine: rows.first().map_or_else(String::new, |r| r.engine.clone()),
        command: "diff, all seeds".into(),
        ..Tally::default()
    };
    for row in rows.iter().filter(|r| r.command != "check") {
        all.departures += row.departures;
        all.names += row.names;
        all.right += row.right;
        all.wrong.extend(row.wrong.iter().cloned());
        all.unexplained += row.unexplained;
        all.ties += row.ties;
        all.strays.extend(row.strays.iter().cloned());
        all.minimal += row.minimal;
        all.shrunk_lines.extend(&row.shrunk_lines);
        for (id, names) in &row.groups {
            all.groups
                .entry(id.clone())
                .or_default()
                .extend(names.iter().cloned());
        }
        for (name, fields) in &row.group_fields {
            let (own, group) = all.group_fields.entry(name.clone()).or_default();
            own.clone_from(&fields.0);
            group.extend(fields.1.iter().cloned());
        }
    }
    let group_fields = &all.group_fields;
    let joins = |small: &String, big: &String| {
        let (Some((own, _)), Some((_, shown))) = (group_fields.get(small), group_fields.get(big))
        else {
            return false;
        };
        small != big && !own.is_empty() && own.iter().all(|f| held_by(f, shown))
    };
    for names in all.groups.values_mut() {
        let kept: Vec<String> = (names.iter())
            .filter(|small| {
                !names
                    .iter()
                    .any(|big| joins(small, big) && !joins(big, small))
            })
            .cloned()
            .collect();
        // Two groups that each hold the other are one: the first by name stands for both.
        let mut one: BTreeSet<String> = BTreeSet::new();
        for name in kept {
            if !one.iter().any(|other| joins(&name, other)) {
                one.insert(name);
            }
        }
        *names = one;
    }
    all
}

/// Runs every case of the spec's game on `engine` and judges the names of the failures.
pub fn tally_check(spec: &Spec, engine: impl EngineUnderTest + 'static) -> Tally {
    let results = Suite::new(spec.game, engine)
        .results(Some(&format!("{}/", spec.game)))
        .expect("the library loads");
    let mut tally = Tally::new(spec, "check".into());
    // The groups of the report's "failures by cause".
    let groups = shinpan::report::check::groups(&results);
    let group_of = |case: &str| {
        (groups.iter())
            .find(|g| g.cases.iter().any(|c| c == case))
            .map_or_else(|| "(no group)".to_string(), |g| g.name.clone())
    };
    for result in results.iter().filter(|r| r.verdict.name() == "fail") {
        tally.departures += 1;
        let case = result.name.as_str();
        let Some(departure) = &result.departure else {
            // A generator case, or a result that is no state: judged by its case alone.
            let ids = spec.attribute(&[], Some(case));
            if ids.is_empty() {
                tally.strays.push(format!("{case}: no departure named"));
            }
            tally.group(&ids, &group_of(case));
            continue;
        };
        for by in &departure.by {
            tally.judge(spec, case, by, Some(case));
        }
        let mut fields: Vec<String> = departure.unexplained.clone();
        fields.extend(departure.by.iter().flat_map(|b| b.fields.clone()));
        if !departure.unexplained.is_empty() {
            tally.unexplained += 1;
        }
        let ids = spec.attribute(&fields, Some(case));
        if ids.is_empty() {
            tally
                .strays
                .push(format!("{case}: fields {:?}", general(&fields)));
        }
        tally.group(&ids, &group_of(case));
    }
    tally
}

/// Fuzzes `engine` against the reference on `seed` for `runs` inputs, finding up to 30
/// departures, and judges the name of each.
pub fn tally_diff(spec: &Spec, engine: &mut dyn EngineUnderTest, seed: u64, runs: usize) -> Tally {
    let game = shinpan::games::by_id(spec.game).expect("a game");
    let config = DiffConfig {
        seed,
        runs,
        departures: 30,
        ..DiffConfig::default()
    };
    let outcome = diff::run(game, engine, &config, &Known::default(), None, |_, _| {});
    let mut tally = Tally::new(spec, format!("diff seed {seed}"));
    for finding in &outcome.findings {
        tally.departures += 1;
        tally.minimal += usize::from(finding.minimal);
        tally.shrunk_lines.push(finding.size_after.lines);
        let at = format!("diff {seed}/{}", finding.run);
        for part in &finding.departure.parts {
            if let (Some(variant), Some(does)) = (&part.variant, &part.does) {
                let by = Reproducer {
                    variants: vec![variant.clone()],
                    clauses: part.clauses.clone(),
                    does: does.clone(),
                    fields: part.fields.clone(),
                    ties: part.ties.clone(),
                };
                let ids = (spec.causes(&finding.shrunk, &by.fields, false))
                    .unwrap_or_else(|| spec.attribute(&by.fields, None));
                tally.judge_as(spec, &at, &by, &ids);
            }
        }
        if !finding.departure.unexplained.is_empty() {
            tally.unexplained += 1;
        }
        let printer = finding.part.is_printer();
        let ids = (spec.causes(&finding.shrunk, &finding.part.fields, printer))
            .unwrap_or_else(|| spec.attribute(&finding.part.fields, None));
        if std::env::var_os("MISREADING_VERBOSE").is_some() {
            eprintln!(
                "{at}: {} (leads {:?}) ← original {:?}, shrunk {:?} ({} lines){}",
                finding.part.name,
                finding.part.leads,
                finding.original_departure.fields,
                finding.departure.fields,
                finding.size_after.lines,
                if finding.minimal { "" } else { ", not minimal" }
            );
        }
        if ids.is_empty() {
            tally
                .strays
                .push(format!("{at}: fields {:?}", finding.part.fields));
        }
        if finding.part.variant.is_none() {
            tally.group_fields.insert(
                finding.part.name.clone(),
                (finding.part.fields.clone(), finding.group_fields.clone()),
            );
        }
        if printer {
            for half in ids.iter().map(|id| format!("{id}{PRINTER}")) {
                (tally.groups.entry(half).or_default()).insert(finding.part.name.clone());
            }
        } else {
            tally.group(&ids, &finding.part.name);
        }
    }
    tally
}
/// Issue 38's bar for groups per real departure over all seeds. An engine that does not meet
/// it yet passes its own measured figure instead (a ratchet: it may fall, never rise), and the
/// issue stays open.
pub const GROUPS_BAR: f64 = 1.2;

/// The whole judgement of one engine: `check`, then `diff` of `runs` inputs on seeds 1, 2 and
/// 3 (each on a fresh engine from `make`), the table printed with each wrong name, stray and
/// group; then every misreading must be found by one of them, and issue 38's bar hold
/// ([`Tally::assert_issue_38`]) on every row and on the diff rows taken together.
pub fn judged<E: EngineUnderTest + 'static>(
    spec: &Spec,
    make: impl Fn() -> E,
    runs: usize,
    groups_at_most: f64,
) {
    let started = std::time::Instant::now();
    let mut rows = vec![tally_check(spec, make())];
    eprintln!("{} ({:.0?})", rows[0], started.elapsed());
    for seed in 1..=3 {
        rows.push(tally_diff(spec, &mut make(), seed, runs));
        eprintln!("{} ({:.0?})", rows[rows.len() - 1], started.elapsed());
    }
    rows.push(over_seeds(&rows));
    println!("{HEADER}");
    for row in &rows {
        println!("{row}");
    }
    for row in &rows {
        for wrong in row.wrong.iter().chain(&row.strays) {
            println!("  {} {}: {wrong}", row.engine, row.command);
        }
        println!("  {} {} groups: {:?}", row.engine, row.command, row.groups);
        println!(
            "  {} {} groups under more than one misreading: {:?}",
            row.engine,
            row.command,
            row.shared()
        );
    }
    let found: BTreeSet<&str> = rows.iter().flat_map(Tally::found).collect();
    for m in spec.misreadings {
        assert!(
            found.contains(m.id),
            "{}: {} never found",
            spec.engine,
            m.id
        );
    }
    for row in &rows {
        row.assert_issue_38(groups_at_most);
    }
}

pub mod cedec2013;
pub mod codevs4;
pub mod codevs_reborn;
pub mod spring2022;
pub mod tsg_auto_chess;

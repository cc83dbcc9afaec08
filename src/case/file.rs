//! The rules of a case file: its shape, its ids, the clauses it names, and for each case the
//! fields of its kind (step, parse, generator), with `given` read as the game's state and
//! `then` checked against the game's schema. Every error names the line and column of what is
//! wrong, found by path in one more pass over the text ([`yaml::locate`]).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::catalogue::is_slug;
use super::parts::Part;
use super::source::SourceFile;
use super::then_schema::{Kind, ThenError, ThenSchema};
use super::yaml::{self, join, parse_path, Position, Segment};
use super::{Across, Case, CaseBody, Expected, LoadError, Reduce, Stored, UNCLASSIFIED};
use crate::seam::{DynGame, MatchOptions, Reply};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    game: String,
    /// A file of a library written in parts ([`super::parts`]).
    #[serde(default)]
    part: Option<Part>,
    cases: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: String,
    rules: Vec<String>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default, rename = "needs-review")]
    needs_review: bool,
    #[serde(default)]
    given: Option<Value>,
    /// `reachable: false`: `given` cannot occur in play (the document's own example gives it).
    #[serde(default)]
    reachable: Option<bool>,
    #[serde(default)]
    when: Option<Vec<Vec<Reply>>>,
    #[serde(default)]
    then: Option<Value>,
    #[serde(default)]
    parse: Option<String>,
    #[serde(default)]
    input: Option<String>,
    #[serde(default)]
    expect: Option<Expected>,
    #[serde(default)]
    at: Option<[usize; 2]>,
    #[serde(default)]
    generate: Option<Generate>,
    /// Facts over all the seeds of a generator case, by path.
    #[serde(default)]
    across: Option<std::collections::BTreeMap<String, RawAcross>>,
}

/// `generate: {seeds: N, options: {...}}`: a case about every new match.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    seeds: u64,
    /// Match options, as `--option` gives them.
    #[serde(default)]
    options: Map<String, Value>,
}

/// One entry of `across:`: `facts.holes: {mean: {$gte: 7.6, $lte: 8.8}}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAcross {
    #[serde(default)]
    mean: Option<Value>,
    #[serde(default)]
    sum: Option<Value>,
    #[serde(default)]
    min: Option<Value>,
    #[serde(default)]
    max: Option<Value>,
}

fn locate(text: &str, path: &str) -> Position {
    yaml::locate(text, &parse_path(path)).unwrap_or(TOP)
}

/// The start of a file: where an error about the whole file is placed.
const TOP: Position = Position { line: 1, col: 1 };

/// Loads the cases of one file, and what it says it is a part of: a case at a time as the file
/// is read ([`load_each`]); a file with anything wrong in it is read again whole
/// ([`load_whole`]), to report its first problem in the order a reader of the file meets them
/// (the YAML, then the shape of every case, then the game, then each case's rules).
pub(super) fn load(
    game: &dyn DynGame,
    schema: &ThenSchema,
    file: &SourceFile,
    clauses: &BTreeSet<&str>,
) -> Result<(Vec<Case>, Option<Part>), LoadError> {
    match load_each(game, schema, file, clauses) {
        Some(loaded) => Ok(loaded),
        None => load_whole(game, schema, file, clauses),
    }
}

/// The cases of a file with nothing wrong in it, each made as soon as it is read, so that
/// loading takes the room of the cases made and a few being read; `None` at the first problem
/// of any kind.
///
/// Reading the YAML and making the cases run side by side: this thread reads the text and hands
/// each case's value over a short queue ([`IN_FLIGHT`]) to a thread that makes the cases, in
/// order, so a large file takes about as long as its reading alone; the queue's bound keeps
/// memory to a few cases read ahead.
fn load_each(
    game: &dyn DynGame,
    schema: &ThenSchema,
    file: &SourceFile,
    clauses: &BTreeSet<&str>,
) -> Option<(Vec<Case>, Option<Part>)> {
    let (read, made) = std::sync::mpsc::sync_channel::<(Position, Value)>(IN_FLIGHT);
    let (top, cases) = std::thread::scope(|scope| {
        let maker = scope.spawn(move || {
            let (mut cases, mut ids) = (Vec::new(), BTreeMap::new());
            for (at, item) in made {
                let place = (cases.len(), at);
                // Returning drops the queue's end: the reader's next hand-over fails and it stops.
                cases.push(one_case(
                    game, schema, file, clauses, place, item, &mut ids,
                )?);
            }
            Some(cases)
        });
        let mut each = |at: Position, item: Value| match read.send((at, item)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        };
        let top = yaml::parse_each(&file.text, "cases", &mut each);
        drop(read);
        let cases = maker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (top, cases)
    });
    let (top, cases) = (top.ok()??, cases?);
    // Anything but `game: <this game>`, `cases: [...]` and a `part` is for `load_whole` to
    // explain.
    let top = top.as_object()?;
    let part = match top.get("part") {
        None => None,
        Some(part) => Some(serde_json::from_value::<Part>(part.clone()).ok()?),
    };
    let shape_is_known = top.len() == 2 + usize::from(part.is_some())
        && top.get("cases").is_some_and(Value::is_array);
    (shape_is_known && top.get("game")?.as_str()? == game.info().id).then_some((cases, part))
}

/// How many cases [`load_each`] reads ahead of the ones it has made.
const IN_FLIGHT: usize = 8;

/// Case `i` of a file, at `at`, read from `item`; `None` if anything is wrong with it.
fn one_case(
    game: &dyn DynGame,
    schema: &ThenSchema,
    file: &SourceFile,
    clauses: &BTreeSet<&str>,
    (i, at): (usize, Position),
    item: Value,
    ids: &mut BTreeMap<String, usize>,
) -> Option<Case> {
    let Value::Object(mut fields) = item else {
        return None;
    };
    // `given` and `then` are any value to serde: taken out, they are not rebuilt.
    // (`null` is no value, as serde reads an `Option`.)
    let mut take = |key| fields.remove(key).filter(|v: &Value| !v.is_null());
    let (given, then) = (take("given"), take("then"));
    let mut rc: RawCase = serde_json::from_value(Value::Object(fields)).ok()?;
    (rc.given, rc.then) = (given, then);
    let place = CasePlace {
        file,
        here: format!("cases[{i}]"),
        at,
    };
    check_id_and_rules(&rc, &place, ids, clauses).ok()?;
    let body = body(game, schema, &mut rc).ok()?;
    Some(case(game, file, &place, rc, body))
}

/// The case made of `rc` and its `body`.
fn case(
    game: &dyn DynGame,
    file: &SourceFile,
    place: &CasePlace,
    rc: RawCase,
    body: CaseBody,
) -> Case {
    Case {
        name: format!("{}/{}/{}", game.info().id, file.stem, rc.id),
        id: rc.id,
        rules: rc.rules,
        note: rc.note,
        needs_review: rc.needs_review,
        path: file.path.clone(),
        line: place.at.line,
        body,
    }
}

/// Loads the cases of one file read whole: every problem is found in the order of [`load`].
fn load_whole(
    game: &dyn DynGame,
    schema: &ThenSchema,
    file: &SourceFile,
    clauses: &BTreeSet<&str>,
) -> Result<(Vec<Case>, Option<Part>), LoadError> {
    let (raw, marks) = read_raw(game, file)?;
    let mut cases = Vec::with_capacity(raw.cases.len());
    let mut ids = BTreeMap::new();
    for (i, mut rc) in raw.cases.into_iter().enumerate() {
        let place = CasePlace {
            file,
            here: format!("cases[{i}]"),
            at: marks.get(i).copied().unwrap_or(TOP),
        };
        check_id_and_rules(&rc, &place, &mut ids, clauses)?;
        let body = body(game, schema, &mut rc).map_err(|e| {
            let at = locate(&file.text, &join(&place.here, &e.field));
            LoadError::at(&file.path, at, format!("case `{}`: {}", rc.id, e.message))
        })?;
        cases.push(case(game, file, &place, rc, body));
    }
    Ok((cases, raw.part))
}

/// The file read as a mapping of `game:` (this game's id) and `cases:` (each a mapping), with
/// the position of each case.
fn read_raw(game: &dyn DynGame, file: &SourceFile) -> Result<(RawFile, Vec<Position>), LoadError> {
    let (path, text) = (&file.path, file.text.as_str());
    let is_case = |p: &[Segment]| p.len() == 2 && p[0] == Segment::Key("cases".into());
    let parsed = yaml::parse(text, &is_case).map_err(|e| LoadError::at(path, e.at, e.message))?;
    let Value::Object(top_level) = &parsed.value else {
        return Err(LoadError::at(
            path,
            TOP,
            "a case file is a mapping with `game:` and `cases:`",
        ));
    };
    if let Some(Value::Array(items)) = top_level.get("cases") {
        if let Some(i) = items.iter().position(|item| !item.is_object()) {
            return Err(LoadError::at(
                path,
                locate(text, &format!("cases[{i}]")),
                "each case is a mapping (`- id: ...`, `rules: [...]`, ...)",
            ));
        }
    }
    let raw: RawFile = match serde_path_to_error::deserialize(parsed.value) {
        Ok(raw) => raw,
        // Read again from the text for the error's place: only on the way out.
        Err(e) => {
            let at = locate(text, &e.path().to_string());
            return Err(LoadError::at(path, at, e.into_inner().to_string()));
        }
    };
    let id = game.info().id;
    if raw.game != id {
        return Err(LoadError::at(
            path,
            locate(text, "game"),
            format!(
                "the file is for `{}` but lives in the `{id}` directory",
                raw.game
            ),
        ));
    }
    let marks = parsed.marks.into_iter().map(|(_, at)| at).collect();
    Ok((raw, marks))
}

/// Where a case is: its file, its path in the file (`cases[3]`) and the position of its entry.
struct CasePlace<'f> {
    file: &'f SourceFile,
    here: String,
    at: Position,
}

impl CasePlace<'_> {
    /// An error about case `id`, placed at its `field` (at the case itself when empty).
    fn error(&self, id: &str, field: &str, message: String) -> LoadError {
        let at = if field.is_empty() {
            self.at
        } else {
            locate(&self.file.text, &format!("{}.{field}", self.here))
        };
        LoadError::at(&self.file.path, at, format!("case `{id}`: {message}"))
    }
}

/// A case's id (kebab-case, once a file: `ids` holds the line of each seen) and its rules
/// (at least one, each a clause of the catalogue, or `unclassified` in a case under review).
fn check_id_and_rules(
    rc: &RawCase,
    place: &CasePlace,
    ids: &mut BTreeMap<String, usize>,
    clauses: &BTreeSet<&str>,
) -> Result<(), LoadError> {
    let err = |field: &str, message: String| place.error(&rc.id, field, message);
    if !is_slug(&rc.id, false) {
        return Err(err("id", "the id must be kebab-case (a-z, 0-9, -)".into()));
    }
    if let Some(first) = ids.insert(rc.id.clone(), place.at.line) {
        return Err(err(
            "id",
            format!("the id is used twice (first at line {first})"),
        ));
    }
    if rc.rules.is_empty() {
        return Err(err("rules", "it names no rule clause".into()));
    }
    let known = |r: &String| {
        clauses.contains(r.as_str()) || (rc.needs_review && r.as_str() == UNCLASSIFIED)
    };
    if let Some(unknown) = rc.rules.iter().find(|r| !known(r)) {
        let hint = if unknown == UNCLASSIFIED {
            " (`unclassified` is only for a case marked `needs-review: true`)"
        } else {
            ""
        };
        return Err(err(
            "rules",
            format!("it names clause `{unknown}`, which rules.yaml does not list{hint}"),
        ));
    }
    Ok(())
}

/// A field of a case that is wrong: its path below the case (empty: the case itself) and why.
#[derive(Debug)]
struct FieldError {
    field: String,
    message: String,
}

impl FieldError {
    fn at(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl From<ThenError> for FieldError {
    fn from(e: ThenError) -> FieldError {
        FieldError {
            field: join("then", &e.path),
            message: e.message,
        }
    }
}

/// The `across:` entries, each with exactly one reduction.
fn across(raw: std::collections::BTreeMap<String, RawAcross>) -> Result<Vec<Across>, FieldError> {
    raw.into_iter()
        .map(|(path, entry)| {
            let reductions = [
                (Reduce::Mean, entry.mean),
                (Reduce::Sum, entry.sum),
                (Reduce::Min, entry.min),
                (Reduce::Max, entry.max),
            ];
            let mut given = reductions
                .into_iter()
                .filter_map(|(r, e)| e.map(|e| (r, e)));
            match (given.next(), given.next()) {
                (Some((over, expect)), None) => Ok(Across { path, over, expect }),
                _ => Err(FieldError::at(
                    format!("across.{path}"),
                    "give exactly one of mean, sum, min, max",
                )),
            }
        })
        .collect()
}

/// A case's body by its kind: a generator case (`generate`), a parse case (`parse`, `input`,
/// `expect`) or a step case (`given`, `when`, `then`).
fn body(game: &dyn DynGame, schema: &ThenSchema, rc: &mut RawCase) -> Result<CaseBody, FieldError> {
    if let Some(generate) = rc.generate.take() {
        return generate_body(game, schema, rc, generate);
    }
    if rc.across.is_some() {
        return Err(FieldError::at(
            "across",
            "`across` is for a `generate` case",
        ));
    }
    match (&rc.parse, &rc.input, rc.expect) {
        (Some(kind), Some(input), Some(expect)) => parse_body(game, rc, kind, input, expect),
        (None, None, None) => step_body(game, schema, rc),
        _ => Err(FieldError::at(
            "",
            "a parse case needs all of `parse`, `input` and `expect`",
        )),
    }
}

/// A generator case: `generate` and its options, `then` (checked against the schema) or
/// `across`, nothing of the other kinds.
fn generate_body(
    game: &dyn DynGame,
    schema: &ThenSchema,
    rc: &mut RawCase,
    generate: Generate,
) -> Result<CaseBody, FieldError> {
    if rc.given.is_some() || rc.when.is_some() || rc.parse.is_some() || rc.input.is_some() {
        return Err(FieldError::at(
            "generate",
            "a `generate` case has only `then`",
        ));
    }
    if rc.reachable.is_some() {
        return Err(FieldError::at(
            "reachable",
            "`reachable` is for a step case's `given`",
        ));
    }
    if !(1..=10_000).contains(&generate.seeds) {
        return Err(FieldError::at(
            "generate.seeds",
            "`generate: {seeds: N}` needs N in 1..=10000",
        ));
    }
    let options = MatchOptions(generate.options);
    game.check_options(&options)
        .map_err(|e| FieldError::at("generate.options", e.to_string()))?;
    let across = across(rc.across.take().unwrap_or_default())?;
    let then = match rc.then.take() {
        Some(mut then) => {
            game.info().capabilities.normalize_expectation(&mut then);
            then
        }
        None if !across.is_empty() => Value::Object(Map::new()),
        None => {
            return Err(FieldError::at(
                "",
                "a `generate` case needs `then` or `across`",
            ))
        }
    };
    schema.check(&then, Kind::Generate)?;
    Ok(CaseBody::Generate {
        seeds: generate.seeds,
        options,
        then: Stored::new(&then),
        across,
    })
}

/// A parse case: one of the game's protocol texts, an input and what is expected of it, with
/// no `given`, `when` or `then`.
fn parse_body(
    game: &dyn DynGame,
    rc: &RawCase,
    kind: &str,
    input: &str,
    expect: Expected,
) -> Result<CaseBody, FieldError> {
    if rc.given.is_some() || rc.when.is_some() || rc.then.is_some() || rc.reachable.is_some() {
        return Err(FieldError::at(
            "parse",
            "a parse case has no `given`, `reachable`, `when` or `then`",
        ));
    }
    if !game.info().parse_kinds.contains(&kind) {
        return Err(FieldError::at(
            "parse",
            format!(
                "`parse: {kind}` is not one of the game's protocol texts {:?}",
                game.info().parse_kinds
            ),
        ));
    }
    if rc.at.is_some() && expect == Expected::Valid {
        return Err(FieldError::at(
            "at",
            "`at` locates an error; a valid input has none",
        ));
    }
    Ok(CaseBody::Parse {
        kind: kind.to_string(),
        input: input.to_string(),
        expect,
        at: rc.at,
    })
}

/// A step case: `given` read as the game's state (one play can reach, unless `reachable:
/// false`), `when` with the game's replies a step, `then` checked against the schema.
fn step_body(
    game: &dyn DynGame,
    schema: &ThenSchema,
    rc: &mut RawCase,
) -> Result<CaseBody, FieldError> {
    let mut then = rc.then.take().ok_or_else(|| {
        FieldError::at(
            "",
            "a step case needs `then` (or `parse`, `input` and `expect`)",
        )
    })?;
    game.info().capabilities.normalize_expectation(&mut then);
    let given = rc.given.take().unwrap_or_else(|| Value::Object(Map::new()));
    let given = crate::seam::load_state(game, &given).map_err(|e| {
        let path = join("given", e.path.as_deref().unwrap_or(""));
        FieldError::at(path, format!("`given` is not a valid state: {}", e.message))
    })?;
    let reachable = rc.reachable.unwrap_or(true);
    if reachable {
        if let Err(e) = game.info().capabilities.reachable(&given) {
            let path = join("given", e.path.as_deref().unwrap_or(""));
            return Err(FieldError::at(
                path,
                format!(
                    "`given` cannot occur in play: {}; a case that means to start \
                     there (the document's own example does) says `reachable: false`",
                    e.message
                ),
            ));
        }
    }
    let per_step = game.info().replies_per_step;
    let when = rc.when.take().unwrap_or_default();
    if let Some(t) = when.iter().position(|turn| turn.len() != per_step) {
        return Err(FieldError::at(
            format!("when[{t}]"),
            format!(
                "turn {} of `when` has {} replies; this game takes {per_step} a step",
                t + 1,
                when[t].len()
            ),
        ));
    }
    schema.check(&then, Kind::Step)?;
    Ok(CaseBody::Step {
        given: Stored::new(&given),
        reachable,
        when,
        then: Stored::new(&then),
    })
}

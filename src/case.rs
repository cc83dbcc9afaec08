//! The case library: `cases/<game>/rules.yaml` (the clause catalogue) and `cases/<game>/*.yaml`
//! (the cases), loaded and validated before anything runs.
//!
//! Every problem in a file is a [`LoadError`] naming the file, line and column. Game-specific
//! checks (is `given` a valid state? is `parse: kind` a protocol text of this game?) go through
//! [`DynGame`], so this module knows no game.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::game::{DynGame, MatchOptions, Reply};
use crate::games;

pub mod expect;

/// The clause id a case names when nobody has yet said which clause it checks: allowed only in
/// a case marked `needs-review: true` (what `shinpan diff` writes), never counted as coverage.
pub const UNCLASSIFIED: &str = "unclassified";

/// A problem with a case or catalogue file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{col}: {message}", path.display())]
pub struct LoadError {
    pub path: PathBuf,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// One game's clause catalogue.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    pub game: String,
    pub document: String,
    pub clauses: Vec<Clause>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clause {
    pub id: String,
    pub text: String,
    pub section: String,
    pub status: ClauseStatus,
    #[serde(default)]
    pub settled_by: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
    /// Known departures of named engines from this clause: the engine (`main.rb`) and what it
    /// does instead, citing the spec-notes item. `shinpan trace` names them when it sees them.
    #[serde(default)]
    pub departures: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClauseStatus {
    Explicit,
    Inferred,
    Settled,
}

/// A case, validated.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    /// `<game>/<file stem>/<case id>`: the trial name everywhere.
    pub name: String,
    pub rules: Vec<String>,
    pub note: Option<String>,
    pub needs_review: bool,
    pub path: PathBuf,
    pub line: usize,
    pub body: CaseBody,
}

#[derive(Debug, Clone)]
pub enum CaseBody {
    /// Play `when` from `given` and compare the result with `then`.
    Step {
        given: Value,
        when: Vec<Vec<Reply>>,
        then: Value,
    },
    /// Generate `seeds` new matches (seeds 0, 1, ...) with `options` and match `then` against
    /// each.
    Generate {
        seeds: u64,
        options: MatchOptions,
        then: Value,
    },
    /// Parse `input` as the protocol text `kind`.
    Parse {
        kind: String,
        input: String,
        expect: Expected,
        at: Option<[usize; 2]>,
    },
}

/// What a parse case expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expected {
    Valid,
    NonStrict,
    Invalid,
}

/// The cases and catalogue of one game.
pub struct GameCases {
    pub game: &'static dyn DynGame,
    pub catalogue: Catalogue,
    pub cases: Vec<Case>,
}

/// The whole library as loaded from a directory.
pub struct Library {
    pub games: Vec<GameCases>,
    /// sha256 over every file read, in path order: two reports with the same digest ran the
    /// same cases.
    pub digest: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    game: String,
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
    given: Option<serde_yaml::Value>,
    #[serde(default)]
    when: Option<Vec<Vec<RawReply>>>,
    #[serde(default)]
    then: Option<serde_yaml::Value>,
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
}

/// `generate: {seeds: N}`: a case about every new match.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    seeds: u64,
    /// Match options, as `--option` gives them.
    #[serde(default)]
    options: serde_json::Map<String, Value>,
}

/// A reply as written in a case: a string, or a mapping for timing and failures.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawReply {
    Text(String),
    Timed { text: String, elapsed_ms: u64 },
    TimedOut { timed_out: bool },
    Crashed { crashed: bool },
}

impl RawReply {
    fn into_reply(self) -> Result<Reply, String> {
        Ok(match self {
            RawReply::Text(text) => Reply::text(text),
            RawReply::Timed { text, elapsed_ms } => Reply::Text { text, elapsed_ms },
            RawReply::TimedOut { timed_out: true } => Reply::TimedOut,
            RawReply::Crashed { crashed: true } => Reply::Crashed,
            RawReply::TimedOut { .. } | RawReply::Crashed { .. } => {
                return Err("`timed_out` and `crashed` can only be true".into())
            }
        })
    }
}

fn yaml_error(path: &Path, err: &serde_yaml::Error) -> LoadError {
    let (line, col) = err.location().map_or((1, 1), |l| (l.line(), l.column()));
    let mut message = err.to_string();
    // serde_yaml repeats the position at the end of its message; ours leads with it.
    if let Some(at) = message.rfind(" at line ") {
        message.truncate(at);
    }
    LoadError {
        path: path.to_path_buf(),
        line,
        col,
        message,
    }
}

fn read(path: &Path) -> Result<String, LoadError> {
    std::fs::read_to_string(path).map_err(|e| LoadError {
        path: path.to_path_buf(),
        line: 1,
        col: 1,
        message: e.to_string(),
    })
}

/// Loads every game directory under `root` (`root/<game id>/`), or only those in `only`.
pub fn load_library(root: &Path, only: &[String]) -> Result<Library, LoadError> {
    let at_root = |message: String| LoadError {
        path: root.to_path_buf(),
        line: 1,
        col: 1,
        message,
    };
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map_err(|e| at_root(format!("cannot read the case library: {e}")))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for id in only {
        if games::by_id(id).is_none() {
            return Err(at_root(format!("no game `{id}` (see `shinpan games`)")));
        }
    }
    let mut hasher = Sha256::new();
    let mut games = Vec::new();
    for dir in dirs {
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(game) = games::by_id(&id) else {
            return Err(at_root(format!(
                "directory `{id}` names no game (see `shinpan games`)"
            )));
        };
        if !only.is_empty() && !only.contains(&id) {
            continue;
        }
        games.push(load_game(game, &dir, &mut hasher)?);
    }
    let digest = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(Library { games, digest })
}

fn load_game(
    game: &'static dyn DynGame,
    dir: &Path,
    hasher: &mut Sha256,
) -> Result<GameCases, LoadError> {
    let id = game.info().id;
    let catalogue_path = dir.join("rules.yaml");
    let text = read(&catalogue_path)?;
    hasher.update(format!("{id}/rules.yaml\0{}\0", text.len()));
    hasher.update(&text);
    let catalogue = load_catalogue(&catalogue_path, &text, id)?;
    let clause_ids: BTreeSet<&str> = catalogue.clauses.iter().map(|c| c.id.as_str()).collect();

    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| LoadError {
            path: dir.to_path_buf(),
            line: 1,
            col: 1,
            message: e.to_string(),
        })?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "yaml")
                && p.file_name().is_some_and(|n| n != "rules.yaml")
        })
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text = read(&path)?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        hasher.update(format!("{id}/{stem}.yaml\0{}\0", text.len()));
        hasher.update(&text);
        cases.extend(load_case_file(game, &path, &text, &stem, &clause_ids)?);
    }
    let catalogue = catalogue.clone();
    Ok(GameCases {
        game,
        catalogue,
        cases,
    })
}

fn load_catalogue(path: &Path, text: &str, game: &str) -> Result<Catalogue, LoadError> {
    let catalogue: Catalogue = serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
    let at = |needle: &str, message: String| {
        let (line, col) = locate(text, needle, 0);
        LoadError {
            path: path.to_path_buf(),
            line,
            col,
            message,
        }
    };
    if catalogue.game != game {
        return Err(at(
            "game:",
            format!(
                "catalogue is for `{}` but lives in the `{game}` directory",
                catalogue.game
            ),
        ));
    }
    let mut seen = BTreeSet::new();
    for clause in &catalogue.clauses {
        let needle = format!("id: {}", clause.id);
        if !is_slug(&clause.id, true) {
            return Err(at(
                &needle,
                format!(
                    "clause id `{}` must be lower-case letters, digits, `.` and `-`",
                    clause.id
                ),
            ));
        }
        if !seen.insert(clause.id.as_str()) {
            return Err(at(
                &needle,
                format!("clause `{}` is listed twice", clause.id),
            ));
        }
        if clause.status == ClauseStatus::Settled && clause.settled_by.is_none() {
            return Err(at(
                &needle,
                format!(
                    "clause `{}` is settled but names no `settled_by`",
                    clause.id
                ),
            ));
        }
    }
    Ok(catalogue)
}

fn is_slug(s: &str, dots: bool) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || (dots && b == b'.')
        })
}

/// Line and column of the first occurrence of `needle` at or after `from_line` (1-based);
/// (1, 1) when it is not there.
fn locate(text: &str, needle: &str, from_line: usize) -> (usize, usize) {
    text.lines()
        .enumerate()
        .skip(from_line.saturating_sub(1))
        .find_map(|(i, l)| l.find(needle).map(|c| (i + 1, l[..c].chars().count() + 1)))
        .unwrap_or((1, 1))
}

fn load_case_file(
    game: &dyn DynGame,
    path: &Path,
    text: &str,
    stem: &str,
    clauses: &BTreeSet<&str>,
) -> Result<Vec<Case>, LoadError> {
    let raw: RawFile = serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
    let info = game.info();
    if raw.game != info.id {
        let (line, col) = locate(text, "game:", 0);
        let message = format!(
            "file is for `{}` but lives in the `{}` directory",
            raw.game, info.id
        );
        return Err(LoadError {
            path: path.to_path_buf(),
            line,
            col,
            message,
        });
    }

    let mut cases = Vec::with_capacity(raw.cases.len());
    let mut ids = BTreeMap::new();
    let mut from_line = 1;
    for rc in raw.cases {
        let (line, col) = locate(text, &format!("id: {}", rc.id), from_line);
        from_line = line;
        let err = |message: String| LoadError {
            path: path.to_path_buf(),
            line,
            col,
            message,
        };
        if !is_slug(&rc.id, false) {
            return Err(err(format!(
                "case id `{}` must be kebab-case (a-z, 0-9, -)",
                rc.id
            )));
        }
        if let Some(first) = ids.insert(rc.id.clone(), line) {
            return Err(err(format!(
                "case id `{}` is used twice (first at line {first})",
                rc.id
            )));
        }
        if rc.rules.is_empty() {
            return Err(err(format!("case `{}` names no rule clause", rc.id)));
        }
        let known = |r: &&String| {
            clauses.contains(r.as_str()) || (rc.needs_review && r.as_str() == UNCLASSIFIED)
        };
        if let Some(unknown) = rc.rules.iter().find(|r| !known(r)) {
            let hint = if unknown == UNCLASSIFIED {
                " (`unclassified` is only for a case marked `needs-review: true`)"
            } else {
                ""
            };
            return Err(err(format!(
                "case `{}` names clause `{unknown}`, which rules.yaml does not list{hint}",
                rc.id
            )));
        }
        let body = match rc.generate {
            Some(generate) => generate_body(&rc.given, &rc.when, &rc.parse, generate, rc.then),
            None => case_body(
                game, rc.given, rc.when, rc.then, rc.parse, rc.input, rc.expect, rc.at,
            ),
        }
        .map_err(|m| {
            // Point at the field a state error names, when it names one.
            let field = m
                .split_once("valid state: ")
                .and_then(|(_, rest)| rest.split_once(": "))
                .map(|(path, _)| path.rsplit(['.', ']']).next().unwrap_or(path).to_string());
            let (line, col) = field
                .filter(|f| !f.is_empty())
                .map(|f| locate(text, &format!("{f}:"), line))
                .unwrap_or((line, col));
            LoadError {
                path: path.to_path_buf(),
                line,
                col,
                message: format!("case `{}`: {m}", rc.id),
            }
        })?;
        cases.push(Case {
            name: format!("{}/{stem}/{}", info.id, rc.id),
            id: rc.id,
            rules: rc.rules,
            note: rc.note,
            needs_review: rc.needs_review,
            path: path.to_path_buf(),
            line,
            body,
        });
    }
    Ok(cases)
}

fn generate_body(
    given: &Option<serde_yaml::Value>,
    when: &Option<Vec<Vec<RawReply>>>,
    parse: &Option<String>,
    generate: Generate,
    then: Option<serde_yaml::Value>,
) -> Result<CaseBody, String> {
    if given.is_some() || when.is_some() || parse.is_some() {
        return Err("a `generate` case has only `then`".into());
    }
    if !(1..=10_000).contains(&generate.seeds) {
        return Err("`generate: {seeds: N}` needs N in 1..=10000".into());
    }
    let then = then.ok_or("a `generate` case needs `then`")?;
    let then = serde_json::to_value(then).map_err(|e| e.to_string())?;
    Ok(CaseBody::Generate {
        seeds: generate.seeds,
        options: MatchOptions(generate.options),
        then,
    })
}

#[allow(clippy::too_many_arguments)]
fn case_body(
    game: &dyn DynGame,
    given: Option<serde_yaml::Value>,
    when: Option<Vec<Vec<RawReply>>>,
    then: Option<serde_yaml::Value>,
    parse: Option<String>,
    input: Option<String>,
    expect: Option<Expected>,
    at: Option<[usize; 2]>,
) -> Result<CaseBody, String> {
    let to_json = |v: serde_yaml::Value| serde_json::to_value(v).map_err(|e| e.to_string());
    match (parse, input, expect) {
        (Some(kind), Some(input), Some(expect)) => {
            if given.is_some() || when.is_some() || then.is_some() {
                return Err("a parse case has no `given`, `when` or `then`".into());
            }
            if !game.info().parse_kinds.contains(&kind.as_str()) {
                return Err(format!(
                    "`parse: {kind}` is not one of {:?}",
                    game.info().parse_kinds
                ));
            }
            if at.is_some() && expect == Expected::Valid {
                return Err("`at` locates an error; a valid input has none".into());
            }
            Ok(CaseBody::Parse {
                kind,
                input,
                expect,
                at,
            })
        }
        (None, None, None) => {
            let then = then.ok_or("a step case needs `then` (or `parse`, `input` and `expect`)")?;
            let given = to_json(given.unwrap_or(serde_yaml::Value::Mapping(Default::default())))?;
            let given = game
                .load_state(&given)
                .map_err(|e| format!("`given` is not a valid state: {e}"))?;
            let per_step = game.replies_per_step();
            let mut turns = Vec::new();
            for (t, raw_turn) in when.unwrap_or_default().into_iter().enumerate() {
                if raw_turn.len() != per_step {
                    return Err(format!(
                        "turn {} of `when` has {} replies, this game takes {per_step} a step",
                        t + 1,
                        raw_turn.len()
                    ));
                }
                turns.push(
                    raw_turn
                        .into_iter()
                        .map(RawReply::into_reply)
                        .collect::<Result<Vec<_>, _>>()?,
                );
            }
            Ok(CaseBody::Step {
                given,
                when: turns,
                then: to_json(then)?,
            })
        }
        _ => Err("a parse case needs all of `parse`, `input` and `expect`".into()),
    }
}

impl Library {
    /// Clauses that no case names, per game.
    pub fn uncovered(&self) -> Vec<(&str, Vec<&Clause>)> {
        self.games
            .iter()
            .map(|g| {
                let named: BTreeSet<&str> = g
                    .cases
                    .iter()
                    .flat_map(|c| c.rules.iter().map(String::as_str))
                    .collect();
                let missing = g
                    .catalogue
                    .clauses
                    .iter()
                    .filter(|c| !named.contains(c.id.as_str()))
                    .collect();
                (g.game.info().id, missing)
            })
            .collect()
    }

    pub fn case_count(&self) -> usize {
        self.games.iter().map(|g| g.cases.len()).sum()
    }
}

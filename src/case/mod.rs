//! The case library: `cases/<game>/rules.yaml` (the clause catalogue) and `cases/<game>/*.yaml`
//! (the cases), loaded and validated before anything runs.
//!
//! Every problem in a file is a [`LoadError`] naming the file, line and column. The loader does
//! not look games up: whoever loads a library passes the games in, and game-specific checks (is
//! `given` a state of this game? does `then` name its fields?) go through [`DynGame`].
//!
//! - [`source`] finds the files (the built-in library or a directory) and checks their size
//!   and encoding;
//! - [`yaml`] reads YAML into JSON in one pass, with positions on demand;
//! - [`catalogue`] reads `rules.yaml`;
//! - `file` applies the rules of a case file;
//! - [`parts`] refuses the parts of a library written in parts without their manifest;
//! - [`then_schema`] checks a case's `then` against the game's schema (a walk of the keywords
//!   schemars writes);
//! - [`schema`] checks the paths an engine declares unmodelled against it;
//! - [`expect`] matches `then` against a result.

pub mod catalogue;
pub mod expect;
mod file;
pub mod parts;
pub mod schema;
pub mod source;
pub mod then_schema;
pub mod yaml;

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::seam::{DynGame, MatchOptions, Reply};
pub use catalogue::{Catalogue, Clause, ClauseStatus};
pub use source::{Source, DEFAULT_MAX_FILE_BYTES};
use yaml::Position;

/// The clause id a case names when nobody has yet said which clause it checks: allowed only in
/// a case marked `needs-review: true` (what `shinpan diff` writes), never counted as coverage.
pub const UNCLASSIFIED: &str = "unclassified";

/// A problem with a case or catalogue file: the file, where in it when known, and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    pub path: PathBuf,
    pub at: Option<Position>,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some(at) => write!(
                f,
                "{}:{}:{}: {}",
                self.path.display(),
                at.line,
                at.col,
                self.message
            ),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl LoadError {
    pub fn at(path: &Path, at: Position, message: impl Into<String>) -> LoadError {
        LoadError {
            path: path.to_path_buf(),
            at: Some(at),
            message: message.into(),
        }
    }

    /// A problem with a file or directory as a whole.
    pub fn whole(path: &Path, message: impl Into<String>) -> LoadError {
        LoadError {
            path: path.to_path_buf(),
            at: None,
            message: message.into(),
        }
    }
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
    /// Play `when` from `given` (its canonical state) and compare the result with `then`.
    Step {
        given: Stored,
        /// False for `reachable: false`: `given` cannot occur in play, and an engine may answer
        /// `unsupported` without blame.
        reachable: bool,
        when: Vec<Vec<Reply>>,
        then: Stored,
    },
    /// Generate `seeds` new matches (seeds 0, 1, ...) with `options`, match `then` against
    /// each, and check the `across` facts over all of them.
    Generate {
        seeds: u64,
        options: MatchOptions,
        then: Stored,
        across: Vec<Across>,
    },
    /// Parse `input` as the protocol text `kind`.
    Parse {
        kind: String,
        input: String,
        expect: Expected,
        at: Option<[usize; 2]>,
    },
}

/// A JSON value kept as its compact text until a case runs: a parsed `serde_json::Value` takes
/// about ten times the room of its text, and a library of thousands of whole-field cases must
/// stay small once loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored(Box<str>);

impl Stored {
    pub fn new(value: &Value) -> Stored {
        Stored(value.to_string().into_boxed_str())
    }

    /// The value again.
    pub fn value(&self) -> Value {
        // The text is what `Value`'s own Display wrote: it reads back, numbers to the same bits
        // (shortest round-trip out, serde_json's `float_roundtrip` in: D-spring-13).
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }

    /// The compact JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A fact about all the new matches of a generator case together: a number (or a flag, counted
/// as 1 or 0) at `path` in every match (its state with `facts`), reduced by `over` and matched
/// against `expect` (a number or a bound such as `{$gte: 7.6}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Across {
    /// Dotted, as `facts.holes` or `players[0].score`.
    pub path: String,
    pub over: Reduce,
    pub expect: Value,
}

/// How the values of a path over the seeds are reduced to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reduce {
    Mean,
    Sum,
    Min,
    Max,
}

impl Reduce {
    pub fn apply(self, values: &[f64]) -> f64 {
        match self {
            Reduce::Sum => values.iter().sum(),
            Reduce::Mean => values.iter().sum::<f64>() / values.len().max(1) as f64,
            Reduce::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
            Reduce::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Reduce::Mean => "mean",
            Reduce::Sum => "sum",
            Reduce::Min => "min",
            Reduce::Max => "max",
        }
    }
}

/// What a parse case expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expected {
    Valid,
    NonStrict,
    Invalid,
}

impl Expected {
    pub fn label(self) -> &'static str {
        match self {
            Expected::Valid => "valid",
            Expected::NonStrict => "non-strict",
            Expected::Invalid => "invalid",
        }
    }
}

/// The cases and catalogue of one game.
pub struct GameCases {
    pub game: &'static dyn DynGame,
    pub catalogue: Catalogue,
    pub cases: Vec<Case>,
}

/// The whole library as loaded.
pub struct Library {
    pub games: Vec<GameCases>,
    /// sha256 over every file of the library, in path order, whichever games were selected: two
    /// reports with the same digest drew on the same library.
    pub digest: String,
}

/// How to load a library.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Only these game ids; every game of the library when empty.
    pub only: Vec<String>,
    /// The largest case file accepted.
    pub max_file_bytes: u64,
}

impl LoadOptions {
    /// The games `ids` alone, every other option its default.
    pub fn only<S: Into<String>>(ids: impl IntoIterator<Item = S>) -> LoadOptions {
        LoadOptions {
            only: ids.into_iter().map(Into::into).collect(),
            ..LoadOptions::default()
        }
    }
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            only: Vec::new(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        }
    }
}

/// Loads the library of `source` for `games` (every game directory must be one of them).
pub fn load_library(
    source: &Source,
    games: &[&'static dyn DynGame],
    options: &LoadOptions,
) -> Result<Library, LoadError> {
    let max = options.max_file_bytes;
    let entries = source.entries(max)?;
    let mut digests = Vec::with_capacity(entries.len());
    let mut loaded: Vec<GameCases> = Vec::new();
    let mut group_start = 0;
    while group_start < entries.len() {
        let dir = &entries[group_start].game;
        let group_end = entries[group_start..]
            .iter()
            .position(|f| &f.game != dir)
            .map_or(entries.len(), |n| group_start + n);
        let group = &entries[group_start..group_end];
        group_start = group_end;
        let Some(game) = games.iter().copied().find(|g| g.info().id == dir) else {
            let path = group[0].path.parent().unwrap_or(&group[0].path);
            return Err(LoadError::whole(
                path,
                format!("the directory `{dir}` names no game (see `shinpan games`)"),
            ));
        };
        if !options.only.is_empty() && !options.only.iter().any(|o| o == dir) {
            // Not loaded, but part of the library all the same.
            for entry in group {
                digests.push(FileDigest::of(&entry.read(max)?));
            }
            continue;
        }
        let (cases, of_files) = load_game(game, group, max)?;
        digests.extend(of_files);
        loaded.push(cases);
    }
    Ok(Library {
        games: loaded,
        digest: library_digest(&digests),
    })
}

/// What the library's digest takes of one file: its place and size, and a hash of its text.
struct FileDigest {
    name: String,
    len: usize,
    text: [u8; 32],
}

impl FileDigest {
    fn of(file: &source::SourceFile) -> FileDigest {
        FileDigest {
            name: format!("{}/{}.yaml", file.game, file.stem),
            len: file.text.len(),
            text: Sha256::digest(&file.text).into(),
        }
    }
}

/// sha256 over every file of the library in path order (its place, size and text's own sha256),
/// whichever games were selected: two reports with the same digest drew on the same library.
/// Each file's text is hashed by the worker that reads it.
fn library_digest(files: &[FileDigest]) -> String {
    let mut hasher = Sha256::new();
    for file in files {
        hasher.update(format!("{}\0{}\0", file.name, file.len));
        hasher.update(file.text);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A game's cases, and the digest of each of its files in path order.
fn load_game(
    game: &'static dyn DynGame,
    files: &[source::SourceEntry],
    max_file_bytes: u64,
) -> Result<(GameCases, Vec<FileDigest>), LoadError> {
    let id = game.info().id;
    let Some(rules) = files.iter().find(|f| f.stem == "rules") else {
        let path = files[0].path.with_file_name("rules.yaml");
        return Err(LoadError::whole(
            &path,
            "every game directory needs its clause catalogue, rules.yaml",
        ));
    };
    let rules = rules.read(max_file_bytes)?;
    let catalogue = catalogue::load(&rules.path, &rules.text, id)?;
    let clause_ids: BTreeSet<&str> = catalogue.clauses.iter().map(|c| c.id.as_str()).collect();
    let Some(schemas) = game.schemas() else {
        let why = format!("{id} is built without its `schema` feature: no `then` can be checked");
        return Err(LoadError::whole(&rules.path, why));
    };
    let schema = then_schema::ThenSchema::new(&schemas.state)
        .map_err(|e| LoadError::whole(&rules.path, format!("{id}: {e}")))?;
    let case_files: Vec<&source::SourceEntry> =
        files.iter().filter(|f| f.stem != "rules").collect();
    let loaded = on_every_core(&case_files, |entry| {
        // Read here, and dropped once its cases are made: the library's text is never all in
        // memory at once.
        let file = entry.read(max_file_bytes)?;
        let (cases, part) = file::load(game, &schema, &file, &clause_ids)?;
        Ok((FileDigest::of(&file), cases, part))
    });
    let mut cases = Vec::new();
    let mut digests = Vec::with_capacity(files.len());
    let mut found_parts = Vec::new();
    let mut loaded = loaded.into_iter();
    for entry in files {
        if entry.stem == "rules" {
            digests.push(FileDigest::of(&rules));
            continue;
        }
        let (digest, file_cases, part) = loaded.next().expect("one result a case file")?;
        if let Some(part) = part {
            found_parts.push(parts::FoundPart {
                path: entry.path.clone(),
                part,
                bytes: digest.len as u64,
                sha256: digest.text,
            });
        }
        digests.push(digest);
        cases.extend(file_cases);
    }
    let present: Vec<String> = files
        .iter()
        .filter_map(|f| Some(f.path.file_name()?.to_string_lossy().into_owned()))
        .collect();
    parts::check(&found_parts, &present)?;
    let cases = GameCases {
        game,
        catalogue,
        cases,
    };
    Ok((cases, digests))
}

/// `load` of each file, on every core: files are independent. The largest are taken first; the
/// results are in file order (and the first bad file in that order is the one reported).
fn on_every_core<T: Send>(
    files: &[&source::SourceEntry],
    load: impl Fn(&source::SourceEntry) -> T + Sync,
) -> Vec<T> {
    crate::cores::on_every_core(files, |f| f.size, |f| load(f))
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

//! Where a case library's files come from: the library built into shinpan, or a directory
//! (`--cases DIR`). Either way the loader sees the same list of files, `<game>/<name>.yaml`
//! ([`Source::entries`]), and reads each when it loads it ([`SourceEntry::read`]): whole,
//! checked for size and for UTF-8 before any YAML is parsed. So a library takes the room of the
//! files being loaded, not of all its text at once (84 MB for a library of recorded matches).

use std::path::{Path, PathBuf};

use super::yaml::Position;
use super::LoadError;
use crate::bounded::{self, Bound};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_cases.rs"));
}

/// The largest case file read by default: 4 MiB. The largest file of the library is under
/// 100 KiB, and a hundred whole-field CEDEC cases take about 2.7 MB; a bigger file is a mistake
/// or an attack, refused on its size before it is parsed (a 15 MB file of one line took 8 s and
/// 1 GB to parse before it was refused). A whole traced match is bigger (`trace --cases-out`
/// writes up to 16 MB for CEDEC 2013, benches/library.rs loads files of 12 MB): it needs
/// `--max-case-file-bytes`.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The text of `<game>/<stem>.yaml` in the library built into shinpan (`rules` is a game's
/// clause catalogue), if it has that file.
pub fn built_in_file(game: &str, stem: &str) -> Option<&'static str> {
    embedded::FILES
        .iter()
        .find(|(relative, _)| split(relative) == (game.to_string(), stem.to_string()))
        .map(|(_, text)| *text)
}

/// A case library to load.
#[derive(Debug, Clone)]
pub enum Source {
    /// The library this shinpan was built with.
    Embedded,
    /// `DIR/<game>/*.yaml` (and `*.yml`).
    Dir(PathBuf),
}

/// One file of a library, found but not read yet: [`SourceEntry::read`] reads it.
#[derive(Debug, Clone)]
pub struct SourceEntry {
    /// The game directory it lives in.
    pub game: String,
    /// The file name without `.yaml` (or `.yml`).
    pub stem: String,
    /// Where it lives, for messages: `cases/codevs-reborn/chains.yaml` for the built-in library.
    pub path: PathBuf,
    /// Its size in bytes when it was listed (to load the largest first).
    pub size: u64,
    /// The text of a built-in file; `None` for one on disk.
    built_in: Option<&'static str>,
}

/// One file of a library, read.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The game directory it lives in.
    pub game: String,
    /// The file name without `.yaml` (or `.yml`).
    pub stem: String,
    /// Where it lives, for messages: `cases/codevs-reborn/chains.yaml` for the built-in library.
    pub path: PathBuf,
    pub text: String,
}

impl SourceEntry {
    /// The file's text: at most `max_file_bytes`, UTF-8, no NUL byte; a file that cannot be
    /// read (a dangling link, a device) is an error naming it.
    pub fn read(&self, max_file_bytes: u64) -> Result<SourceFile, LoadError> {
        let path = &self.path;
        let text = match self.built_in {
            Some(text) => check_text(path, text.as_bytes(), max_file_bytes)?.to_string(),
            None => {
                let bound = Bound {
                    max: max_file_bytes,
                    option: "--max-case-file-bytes",
                    what: "a case file",
                };
                let bytes = bounded::read(path, &bound).map_err(|e| unreadable(path, &e))?;
                check_text(path, &bytes, max_file_bytes)?;
                // Checked just above: the bytes are the text, taken without a copy.
                String::from_utf8(bytes).unwrap_or_default()
            }
        };
        Ok(SourceFile {
            game: self.game.clone(),
            stem: self.stem.clone(),
            path: path.clone(),
            text,
        })
    }
}

impl Source {
    /// Every `*.yaml` (or `*.yml`) file one level below the root, sorted by game then name, not
    /// read yet; a game folder or a case file name that cannot be listed, and a file larger
    /// than `max_file_bytes`, are errors (the size is checked again as the file is read).
    pub fn entries(&self, max_file_bytes: u64) -> Result<Vec<SourceEntry>, LoadError> {
        let entries = match self {
            Source::Embedded => built_in(embedded::FILES)?,
            Source::Dir(root) => list_dir(root)?,
        };
        match entries.iter().find(|e| e.size > max_file_bytes) {
            Some(large) => Err(too_big(&large.path, large.size, max_file_bytes)),
            None => Ok(entries),
        }
    }

    /// Every file of [`Source::entries`], read; files above `max_file_bytes`, files that cannot
    /// be read (a dangling link, a device), and files that are not UTF-8 or hold a NUL byte, are
    /// errors.
    pub fn files(&self, max_file_bytes: u64) -> Result<Vec<SourceFile>, LoadError> {
        self.entries(max_file_bytes)?
            .iter()
            .map(|entry| entry.read(max_file_bytes))
            .collect()
    }

    /// For reports: `built-in` or the directory.
    pub fn describe(&self) -> String {
        match self {
            Source::Embedded => "built-in".into(),
            Source::Dir(root) => root.display().to_string(),
        }
    }
}

/// The files built into shinpan. None at all is an error, not an empty library that every
/// engine passes: the crate was built without its `cases/` directory.
fn built_in(files: &'static [(&'static str, &'static str)]) -> Result<Vec<SourceEntry>, LoadError> {
    if files.is_empty() {
        return Err(LoadError::whole(
            Path::new("cases"),
            "the built-in case library is empty: this shinpan was built without its cases/ \
             directory (give one with --cases DIR)",
        ));
    }
    Ok(files
        .iter()
        .map(|(relative, text)| {
            let (game, stem) = split(relative);
            SourceEntry {
                game,
                stem,
                path: Path::new("cases").join(relative),
                size: text.len() as u64,
                built_in: Some(text),
            }
        })
        .collect())
}

fn split(relative: &str) -> (String, String) {
    let (game, file) = relative.split_once('/').unwrap_or(("", relative));
    (game.to_string(), stem_of(file).to_string())
}

/// Whether a file name is a case file's: `*.yaml` or `*.yml`, not hidden (a name starting with
/// `.` is an editor's lock or a temporary file).
fn is_case_file_name(name: &str) -> bool {
    !name.starts_with('.') && (name.ends_with(".yaml") || name.ends_with(".yml"))
}

/// The file name without `.yaml` or `.yml`.
fn stem_of(name: &str) -> &str {
    name.strip_suffix(".yaml")
        .or_else(|| name.strip_suffix(".yml"))
        .unwrap_or(name)
}

/// Why `path`, which cannot be read as a file, cannot: a dangling link names its target.
fn unreadable(path: &Path, error: &bounded::ReadError) -> LoadError {
    let dangling = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::metadata(path).is_err();
    if dangling {
        let target = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        return LoadError::whole(
            path,
            format!(
                "a symbolic link to {target}, which does not exist: a case file must be readable"
            ),
        );
    }
    match error {
        bounded::ReadError::NotAFile { .. } => {
            LoadError::whole(path, format!("{error}; a case file must be a file"))
        }
        _ => LoadError::whole(path, error.to_string()),
    }
}

/// The entries of `dir` by name, sorted; an entry that cannot be listed is an error.
fn listing(dir: &Path) -> Result<Vec<(String, PathBuf)>, LoadError> {
    let error = |e: std::io::Error| {
        LoadError::whole(dir, format!("cannot read the case library directory: {e}"))
    };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(error)? {
        let entry = entry.map_err(error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        entries.push((name, entry.path()));
    }
    entries.sort();
    Ok(entries)
}

/// `root/<game>/*.yaml` and `*.yml`. Every entry that should be read and cannot is an error
/// naming it: a dangling link where a game folder would be, the same case file as `.yaml` and
/// `.yml` (a case file that cannot be read is one when [`SourceEntry::read`] reads it). Other
/// files (a README beside the game folders) are no part of the library.
fn list_dir(root: &Path) -> Result<Vec<SourceEntry>, LoadError> {
    let mut dirs = Vec::new();
    for (name, path) in listing(root)? {
        if name.starts_with('.') {
            continue;
        }
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => dirs.push((name, path)),
            Ok(_) => {}
            Err(e) => {
                return Err(unreadable(&path, &bounded::ReadError::Io(e)));
            }
        }
    }
    let mut files: Vec<SourceEntry> = Vec::new();
    for (game, dir) in dirs {
        let first_of_game = files.len();
        for (name, path) in listing(&dir)? {
            if !is_case_file_name(&name) {
                continue;
            }
            let stem = stem_of(&name).to_string();
            if let Some(twin) = files[first_of_game..].iter().find(|f| f.stem == stem) {
                return Err(LoadError::whole(
                    &path,
                    format!(
                        "{} is the same case file `{stem}`: keep one of them",
                        twin.path.display()
                    ),
                ));
            }
            files.push(SourceEntry {
                game: game.clone(),
                stem,
                size: std::fs::metadata(&path).map_or(0, |m| m.len()),
                path,
                built_in: None,
            });
        }
    }
    Ok(files)
}

fn too_big(path: &Path, size: u64, max: u64) -> LoadError {
    LoadError::whole(
        path,
        format!(
            "the file is {size} bytes, more than the {max} a case file may have \
             (--max-case-file-bytes raises the limit)"
        ),
    )
}

/// The bytes as text: at most `max` of them, UTF-8, no NUL; errors at the offending byte.
fn check_text<'b>(path: &Path, bytes: &'b [u8], max: u64) -> Result<&'b str, LoadError> {
    if bytes.len() as u64 > max {
        return Err(too_big(path, bytes.len() as u64, max));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let good = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            return Err(LoadError::at(
                path,
                position_after(good),
                format!(
                    "byte {:#04x} is not UTF-8: a case file is UTF-8 text",
                    bytes[e.valid_up_to()]
                ),
            ));
        }
    };
    if let Some(nul) = text.find('\0') {
        return Err(LoadError::at(
            path,
            position_after(&text[..nul]),
            "a NUL byte: a case file is text",
        ));
    }
    Ok(text)
}

/// The position of the character that follows `prefix`.
fn position_after(prefix: &str) -> Position {
    let line = prefix.matches('\n').count() + 1;
    let start = prefix.rfind('\n').map_or(0, |i| i + 1);
    Position {
        line,
        col: prefix[start..].chars().count() + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_library_holds_the_games() {
        let files = Source::Embedded.files(DEFAULT_MAX_FILE_BYTES).unwrap();
        assert!(files
            .iter()
            .any(|f| f.game == "codevs-reborn" && f.stem == "rules"));
        assert!(files.iter().all(|f| f.path.starts_with("cases")));
    }

    /// A build without `cases/` must not give an empty library that every engine passes.
    #[test]
    fn an_empty_built_in_library_is_an_error() {
        let error = built_in(&[]).unwrap_err();
        assert!(
            error.message.contains("built without its cases/"),
            "{error}"
        );
    }

    #[test]
    fn bad_bytes_are_placed_by_line_and_column() {
        let err = check_text(Path::new("f.yaml"), b"ab\ncd\xffe", 100).unwrap_err();
        assert_eq!(err.at, Some(Position { line: 2, col: 3 }));
        let err = check_text(Path::new("f.yaml"), b"a\n\nx\0", 100).unwrap_err();
        assert_eq!(err.at, Some(Position { line: 3, col: 2 }));
        assert!(check_text(Path::new("f.yaml"), b"12345", 4).is_err());
    }
}

//! Files the commands write into a case library (`diff --out`, `trace --cases-out`): whole or
//! not at all, with the game's catalogue beside the cases so that `check --cases DIR` runs them.

use std::io::Write;
use std::path::{Path, PathBuf};

use shinpan::case::source::built_in_file;

/// The built-in catalogue of `game` as `<game_dir>/rules.yaml`, unless the folder has one:
/// what `check --cases` needs beside the cases.
pub fn write_catalogue(game_dir: &Path, game: &str) -> std::io::Result<()> {
    let path = game_dir.join("rules.yaml");
    if path.exists() {
        return Ok(());
    }
    let text = built_in_file(game, "rules").ok_or_else(|| {
        std::io::Error::other(format!("this shinpan has no built-in catalogue for {game}"))
    })?;
    write_atomically(&path, text)
}

/// A hidden name beside `path`, unique to this process.
pub fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes `text` to `path` whole or not at all: into a temporary file beside it, flushed to
/// disk, then renamed over it. On a failure (a full disk) the temporary file is removed and
/// `path` is left as it was: never a case file cut short or empty.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let temporary = temporary_beside(path);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .and_then(|file| {
            let mut file = shinpan::fault::Disk::new(file);
            file.write_all(text.as_bytes())?;
            file.get_ref().sync_all()
        })
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// A `check --format json` report read back (`report merge`, `report FILE --html`): at most
/// `max_bytes` (`--max-report-bytes`), an error naming the file when it is not one.
pub fn read_check_report(
    path: &Path,
    max_bytes: u64,
) -> Result<shinpan::report::check::Report, super::Usage> {
    let bound = shinpan::bounded::Bound {
        max: max_bytes,
        option: "--max-report-bytes",
        what: "a check report",
    };
    let text = shinpan::bounded::read_to_string(path, &bound)
        .map_err(|e| super::Usage(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        super::Usage(format!(
            "{}: not a `check --format json` report: {e}",
            path.display()
        ))
    })
}

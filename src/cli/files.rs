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
        .and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

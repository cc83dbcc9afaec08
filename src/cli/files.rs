//! Files the commands write: an OUTPUT the user names (`report FILE --html OUT`, `diff --out
//! FILE`) and the files shinpan names inside an output folder (`diff --out DIR`, `trace
//! --cases-out`, the replay pages beside an arena's logs), with the game's catalogue beside the
//! cases so that `check --cases DIR` runs them.
//!
//! A regular file (or none) is written whole or not at all: into a temporary file beside it,
//! then renamed over it. What is not a regular file is never replaced by one (issue 40, item 2):
//!
//! - an OUTPUT the user names that is the file this process's stdout or stderr already is
//!   (`/dev/stdout`, whatever it leads to) is written through that stream; one that is a FIFO
//!   or a character device (`/dev/null`, a terminal) is written through, as `cat > OUT` would
//!   (a FIFO waits for its reader); a symbolic link is
//!   followed, as the user named it, and what it points at is written as if named itself (a
//!   regular file replaced whole, the link left a link; `/dev/stdout` written through); a link
//!   to nothing, a directory, a block device or a socket is refused, naming it;
//! - a file shinpan names in an output folder that is already there as anything but a regular
//!   file (a link, whether or not it leads out of the folder, a FIFO, a device) is refused,
//!   naming it and where a link leads: nothing is written through a link the user did not name.

use std::io::{ErrorKind, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
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

/// Where and how a file is written.
#[derive(Debug, PartialEq, Eq)]
pub enum Destination {
    /// A regular file, or none: replaced whole ([`replace`]).
    Replace(PathBuf),
    /// A FIFO or a character device: opened and written to, never made anew.
    Through(PathBuf),
    /// The very file this process's stdout (or stderr) is (`/dev/stdout`, or the file stdout
    /// is redirected to): written through that stream, so that its place and append mode hold
    /// (`--html /dev/stdout >> log` appends).
    Stdout,
    Stderr,
}

impl Destination {
    /// Writes `text` as `self` says.
    pub fn write(&self, text: &str) -> std::io::Result<()> {
        match self {
            Destination::Replace(path) => replace(path, text),
            Destination::Through(path) => {
                // No `create`, no `truncate`: what is there is written to.
                let mut through = std::fs::OpenOptions::new().write(true).open(path)?;
                through
                    .write_all(text.as_bytes())
                    .and_then(|()| through.flush())
            }
            Destination::Stdout => {
                let mut stdout = std::io::stdout().lock();
                stdout
                    .write_all(text.as_bytes())
                    .and_then(|()| stdout.flush())
            }
            Destination::Stderr => std::io::stderr().lock().write_all(text.as_bytes()),
        }
    }
}

/// Whether `there` is the very file `stream` is (the same device and inode).
fn is_stream(there: &std::fs::Metadata, stream: std::os::fd::BorrowedFd<'_>) -> bool {
    let Ok(ours) = stream
        .try_clone_to_owned()
        .and_then(|fd| std::fs::File::from(fd).metadata())
    else {
        return false;
    };
    ours.dev() == there.dev() && ours.ino() == there.ino()
}

/// Writes `text` to `path`, a file shinpan names in an output folder (see [`in_folder`]).
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    in_folder(path)?.write(text)
}

/// How `path`, a file shinpan names in an output folder, is written: whole or not at all.
/// Something there already that is not a regular file is refused, naming what it is (and where
/// a link leads): never replaced, never written through.
pub fn in_folder(path: &Path) -> std::io::Result<Destination> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Destination::Replace(path.to_path_buf())),
        Err(e) => Err(e),
        Ok(meta) if meta.is_file() => Ok(Destination::Replace(path.to_path_buf())),
        Ok(meta) if meta.file_type().is_symlink() => Err(std::io::Error::other(format!(
            "it is a symbolic link (to {}), which shinpan does not follow out of the folder it \
             writes in: remove it, or write elsewhere",
            link_target(path)
        ))),
        Ok(meta) => Err(std::io::Error::other(format!(
            "it is {}, not a regular file, which shinpan does not replace: remove it, or \
             write elsewhere",
            kind(&meta.file_type())
        ))),
    }
}

/// Writes `text` to OUTPUT, a path the user named (see [`output`]).
pub fn write_output(path: &Path, text: &str) -> std::io::Result<()> {
    output(path)?.write(text)
}

/// How OUTPUT, a path the user named (`report --html OUT`, `diff --out FILE`), is written: a
/// regular file (or none) whole or not at all, a FIFO or a character device through, a symbolic
/// link followed to what it points at (see the module's documentation); anything else refused.
pub fn output(path: &Path) -> std::io::Result<Destination> {
    let there = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Ok(Destination::Replace(path.to_path_buf()))
        }
        Err(e) => return Err(e),
        Ok(meta) => meta.file_type(),
    };
    if let Ok(meta) = std::fs::metadata(path) {
        if is_stream(&meta, std::io::stdout().as_fd()) {
            return Ok(Destination::Stdout);
        }
        if is_stream(&meta, std::io::stderr().as_fd()) {
            return Ok(Destination::Stderr);
        }
    }
    if !there.is_symlink() {
        return written_as(path, there, "");
    }
    let via = format!(" (where the link {} leads)", path.display());
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => Err(std::io::Error::other(format!(
            "it is a symbolic link to {}, which does not exist: shinpan writes through a link \
             only to what is there",
            link_target(path)
        ))),
        Err(e) => Err(e),
        // A link to a regular file: the file it ends at is replaced whole, the link stays.
        // (`/dev/stdout` of a program whose output is a file ends at that file; a pipe's ends
        // at no path, and is written through.)
        Ok(meta) => match std::fs::canonicalize(path) {
            Ok(target) if meta.is_file() => written_as(&target, meta.file_type(), &via),
            _ => written_as(path, meta.file_type(), &via),
        },
    }
}

/// How `at`, which is of `kind_there` (a link already followed), is written: a regular file
/// replaced, a FIFO or a character device written through; anything else refused (`via`
/// saying through which link it was reached, if any).
fn written_as(at: &Path, kind_there: std::fs::FileType, via: &str) -> std::io::Result<Destination> {
    if kind_there.is_file() {
        Ok(Destination::Replace(at.to_path_buf()))
    } else if kind_there.is_fifo() || kind_there.is_char_device() {
        Ok(Destination::Through(at.to_path_buf()))
    } else {
        Err(std::io::Error::other(format!(
            "it is {}{via}: shinpan writes to a file, a FIFO or a character device, and never \
             replaces anything else",
            kind(&kind_there)
        )))
    }
}

/// What a file that is not a regular file is, for a message.
fn kind(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Where the link `path` points, as it is written in the link.
fn link_target(path: &Path) -> String {
    std::fs::read_link(path).map_or_else(
        |e| format!("somewhere unreadable: {e}"),
        |to| to.display().to_string(),
    )
}

/// Writes `text` to `path` whole or not at all: into a temporary file beside it, flushed to
/// disk, then renamed over it. On a failure (a full disk) the temporary file is removed and
/// `path` is left as it was: never a file cut short or empty. `path` is a regular file or none.
fn replace(path: &Path, text: &str) -> std::io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_in_an_output_folder_is_refused_and_what_it_leads_to_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.yaml");
        std::fs::write(&outside, "not shinpan's").unwrap();
        let link = dir.path().join("case.yaml");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let refused = write_atomically(&link, "a case").unwrap_err().to_string();
        assert!(
            refused.starts_with(&format!("it is a symbolic link (to {})", outside.display())),
            "{refused}"
        );
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "not shinpan's");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn a_fifo_in_an_output_folder_is_refused_and_left_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("case.yaml");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let refused = write_atomically(&fifo, "a case").unwrap_err().to_string();
        assert!(
            refused.starts_with("it is a FIFO, not a regular file"),
            "{refused}"
        );
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
    }

    #[test]
    fn an_output_named_is_replaced_written_through_or_refused_by_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("page.html");
        std::fs::write(&file, "old").unwrap();
        assert_eq!(output(&file).unwrap(), Destination::Replace(file.clone()));
        let missing = dir.path().join("new.html");
        assert_eq!(output(&missing).unwrap(), Destination::Replace(missing));
        // Not /dev/null, which may be this test's own stdout.
        let zero = Path::new("/dev/zero");
        assert_eq!(output(zero).unwrap(), Destination::Through(zero.into()));
        let link = dir.path().join("link.html");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let target = std::fs::canonicalize(&file).unwrap();
        assert_eq!(output(&link).unwrap(), Destination::Replace(target));
        let refused = output(dir.path()).unwrap_err().to_string();
        assert!(refused.starts_with("it is a directory:"), "{refused}");
        let to_dir = dir.path().join("to-dir");
        std::os::unix::fs::symlink(dir.path(), &to_dir).unwrap();
        let refused = output(&to_dir).unwrap_err().to_string();
        assert!(
            refused.starts_with(&format!(
                "it is a directory (where the link {} leads)",
                to_dir.display()
            )),
            "{refused}"
        );
    }
}

//! Reading a file the user names (a case file, an expect-fail or known list, a baseline report,
//! a log) with a bound on its size, so that no argument can make shinpan read without end.
//!
//! A path that is not a regular file (`/dev/zero`, a FIFO, a directory, a socket) is refused at
//! once: it is looked at before it is opened, and opened without blocking, so a FIFO nobody
//! writes cannot hang the tool. A file over the bound is refused on its size before it is read,
//! and one that grows past the bound while it is read is refused there; the message names the
//! option that raises the bound. Nothing here parses: callers check the text.

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// How much of what kind of file may be read, and the option that says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// The most bytes read.
    pub max: u64,
    /// The command-line option that sets `max`, named in the message (`--max-log-bytes`).
    pub option: &'static str,
    /// What the file is, with its article, for the message (`a log`).
    pub what: &'static str,
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A device, a FIFO, a directory or a socket: never read.
    #[error("not a regular file ({kind}): give the path of a file")]
    NotAFile { kind: &'static str },
    /// More bytes than the bound allows.
    #[error("{}", too_big(*size, bound))]
    TooBig {
        /// The size on disk, or `None` when the file grew past the bound as it was read.
        size: Option<u64>,
        bound: Bound,
    },
    /// Text that is not UTF-8, at this byte offset.
    #[error("byte {offset} is not UTF-8: the file must be UTF-8 text")]
    NotUtf8 { offset: usize },
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
}

fn too_big(size: Option<u64>, bound: &Bound) -> String {
    let Bound { max, option, what } = bound;
    match size {
        Some(size) => format!(
            "the file is {size} bytes, more than the {max} {what} may have ({option} raises \
             the limit)"
        ),
        None => format!(
            "the file grew past the {max} bytes {what} may have as it was read ({option} raises \
             the limit)"
        ),
    }
}

/// What kind of thing a path that is not a regular file is, in words.
fn kind(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// Refuses `path` unless it is a regular file (symbolic links followed) of at most
/// `bound.max` bytes; never opens it. A dangling link is an `Io` error (not found).
pub fn check(path: &Path, bound: &Bound) -> Result<u64, ReadError> {
    let metadata = std::fs::metadata(path)?;
    if !metadata.file_type().is_file() {
        return Err(ReadError::NotAFile {
            kind: kind(metadata.file_type()),
        });
    }
    if metadata.len() > bound.max {
        return Err(ReadError::TooBig {
            size: Some(metadata.len()),
            bound: *bound,
        });
    }
    Ok(metadata.len())
}

/// `path` opened to be read, and its size: a regular file of at most `bound.max` bytes when it
/// was looked at (a reader takes no more than that size of it).
pub fn open(path: &Path, bound: &Bound) -> Result<(std::fs::File, u64), ReadError> {
    let size = check(path, bound)?;
    // Opened without blocking, in case it was swapped for a FIFO since it was looked at, and
    // looked at again once open.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)?;
    let metadata = file.metadata()?;
    if !metadata.file_type().is_file() {
        return Err(ReadError::NotAFile {
            kind: kind(metadata.file_type()),
        });
    }
    Ok((file, size))
}

/// The bytes of `path`: a regular file of at most `bound.max` bytes.
pub fn read(path: &Path, bound: &Bound) -> Result<Vec<u8>, ReadError> {
    let (file, size) = open(path, bound)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(bound.max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > bound.max {
        return Err(ReadError::TooBig {
            size: None,
            bound: *bound,
        });
    }
    Ok(bytes)
}

/// The text of `path` (see [`read`]); bytes that are not UTF-8 are an error at their offset.
pub fn read_to_string(path: &Path, bound: &Bound) -> Result<String, ReadError> {
    let bytes = read(path, bound)?;
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Bound = Bound {
        max: 8,
        option: "--max-thing-bytes",
        what: "a thing",
    };

    #[test]
    fn devices_and_directories_are_refused_without_reading() {
        let err = read(Path::new("/dev/zero"), &SMALL).unwrap_err();
        assert!(
            matches!(
                err,
                ReadError::NotAFile {
                    kind: "a character device"
                }
            ),
            "{err}"
        );
        let err = read(Path::new("/"), &SMALL).unwrap_err();
        assert!(err.to_string().contains("a directory"), "{err}");
    }

    #[test]
    fn a_file_over_the_bound_names_the_option() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        std::fs::write(&path, b"123456789").unwrap();
        let err = read(&path, &SMALL).unwrap_err().to_string();
        assert!(
            err.contains("9 bytes, more than the 8 a thing may have"),
            "{err}"
        );
        assert!(err.contains("--max-thing-bytes"), "{err}");
        std::fs::write(&path, b"12345678").unwrap();
        assert_eq!(read(&path, &SMALL).unwrap(), b"12345678");
    }
}

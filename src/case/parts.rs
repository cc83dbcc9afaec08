//! A library written in parts: what `trace --cases-out` writes of a match too long for one case
//! file (`trace-<log>-part-1.yaml`, `-part-2`, …). Each part says what it is a part of
//! (`part: {of: trace-<log>, number: 2, parts: 5}`), and a manifest beside them
//! (`trace-<log>.manifest.json`, not a case file) lists every file written, with its size and
//! sha256. The parts are written first and the manifest last, so a run stopped on the way (a
//! full disk, a signal) leaves parts without a manifest, which `check` refuses (this module's `check`): a
//! library missing some of its parts never loads as if it were whole (issue 40, item 9).
//!
//! The manifest also names the logs the cases were traced from, so that `trace` tells a second
//! run of the same log (which replaces the files) from another log of the same file name (which
//! gets files of its own).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::LoadError;

/// What a case file written in parts says of itself: `part: {of, number, parts}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// The name of the whole, whose manifest is `<of>.manifest.json` beside the part.
    pub of: String,
    /// Which part this is, from 1, of how many.
    pub number: usize,
    pub parts: usize,
}

/// The manifest of files written together, written after them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// What wrote it (`shinpan trace --cases-out`).
    pub written_by: String,
    pub game: String,
    /// The logs the cases were made from, as absolute paths.
    pub logs: Vec<PathBuf>,
    /// Every file written, in order: a whole written in parts lists its parts in their order.
    pub files: Vec<ManifestFile>,
}

/// A file a manifest lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestFile {
    /// Its name in the game's folder.
    pub name: String,
    pub bytes: u64,
    /// The sha256 of its text, in lowercase hex.
    pub sha256: String,
}

/// The name of the manifest of the whole named `of`.
pub fn manifest_name(of: &str) -> String {
    format!("{of}.manifest.json")
}

/// The largest manifest read: a list of a few files.
const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

/// Reads the manifest at `path`: a regular file of at most 1 MiB, JSON of [`Manifest`].
pub fn read_manifest(path: &Path) -> Result<Manifest, ManifestError> {
    let bound = crate::bounded::Bound {
        max: MAX_MANIFEST_BYTES,
        option: "(none)",
        what: "a manifest",
    };
    let text = crate::bounded::read_to_string(path, &bound)?;
    Ok(serde_json::from_str(&text)?)
}

/// Why a manifest could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error(transparent)]
    Read(#[from] crate::bounded::ReadError),
    #[error("not a manifest of `trace --cases-out`: {0}")]
    NotAManifest(#[from] serde_json::Error),
}

/// `bytes` as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A part as the loader found it: its file, what it says of itself, its size and sha256.
pub(super) struct FoundPart {
    pub path: PathBuf,
    pub part: Part,
    pub bytes: u64,
    pub sha256: [u8; 32],
}

/// Refuses parts that are not a whole: a part whose manifest is missing or does not list it as
/// it is (its place, size and hash), and a manifest whose files are not all in the library.
/// `present` holds the file names of the game's folder that the library loads.
pub(super) fn check(found: &[FoundPart], present: &[String]) -> Result<(), LoadError> {
    let mut wholes: BTreeMap<PathBuf, Vec<&FoundPart>> = BTreeMap::new();
    for part in found {
        let manifest = part.path.with_file_name(manifest_name(&part.part.of));
        wholes.entry(manifest).or_default().push(part);
    }
    for (manifest_path, parts) in wholes {
        let first = parts[0];
        let Part {
            of, parts: count, ..
        } = &first.part;
        let manifest = match std::fs::symlink_metadata(&manifest_path) {
            Err(_) => {
                return Err(LoadError::whole(
                    &first.path,
                    format!(
                        "part {} of {count} of `{of}`, but its manifest {} is missing: `trace \
                         --cases-out` writes it after every part, so this library may lack parts \
                         (a full disk, an interrupted run); trace the match again, or remove the \
                         parts of `{of}`",
                        first.part.number,
                        manifest_name(of)
                    ),
                ))
            }
            Ok(_) => read_manifest(&manifest_path)
                .map_err(|why| LoadError::whole(&manifest_path, why.to_string()))?,
        };
        if manifest.files.len() != *count {
            return Err(LoadError::whole(
                &first.path,
                format!(
                    "part {} of {count} of `{of}`, but its manifest lists {} files",
                    first.part.number,
                    manifest.files.len()
                ),
            ));
        }
        for part in &parts {
            let name = part
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let listed = part
                .part
                .number
                .checked_sub(1)
                .and_then(|k| manifest.files.get(k))
                .filter(|f| f.name == name && part.part.parts == *count);
            let Some(listed) = listed else {
                return Err(LoadError::whole(
                    &part.path,
                    format!(
                        "says it is part {} of {} of `{of}`, which its manifest {} does not list \
                         it as",
                        part.part.number,
                        part.part.parts,
                        manifest_name(of)
                    ),
                ));
            };
            if listed.bytes != part.bytes || listed.sha256 != hex(&part.sha256) {
                return Err(LoadError::whole(
                    &part.path,
                    format!(
                        "is not the part {} of `{of}` its manifest lists ({} bytes, sha256 {}): \
                         it was changed, or written by another run, since",
                        part.part.number, listed.bytes, listed.sha256
                    ),
                ));
            }
        }
        if let Some(missing) = manifest
            .files
            .iter()
            .find(|f| !present.iter().any(|p| p == &f.name))
        {
            return Err(LoadError::whole(
                &manifest_path,
                format!(
                    "lists {}, which is not in the library: `{of}` is not whole",
                    missing.name
                ),
            ));
        }
    }
    Ok(())
}

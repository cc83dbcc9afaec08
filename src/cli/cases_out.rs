//! `trace --cases-out DIR`: the checked steps of a match as step cases in `DIR/<game>/`, with the
//! game's clause catalogue beside them (a library needs one), so that `check --cases DIR` runs
//! them.
//!
//! - The folder is made, and shown to take files, before the trace ([`CasesOut::prepare`]).
//! - The cases are one file, `trace-<log>.yaml`, or, when they outgrow the 4 MiB a case file may
//!   have by default, consecutive parts `trace-<log>-part-<k>.yaml`, each saying which part it
//!   is. A manifest, `trace-<log>.manifest.json`, lists the files written with their sizes and
//!   hashes, and the logs they came from; it is written last, after the manifest of an earlier
//!   run was removed first, so that parts without a manifest are a library not written whole,
//!   which `check` refuses (`shinpan::case::parts`). What this run wrote is removed when a
//!   write fails (a full disk): no part of it is left to look whole.
//! - Another log of the same file name (`a/p0.jsonl`, then `b/p0.jsonl`) gets files of its own
//!   (`trace-p0-2.yaml`), never those of the first: the manifest says which logs a name holds.
//!   The same log traced again replaces its files.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use shinpan::case::parts::{hex, manifest_name, read_manifest, Manifest, ManifestFile, Part};
use shinpan::case::DEFAULT_MAX_FILE_BYTES;
use shinpan::harness::trace::cases::{case_file, StepCase};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::seam::DynGame;

use super::files::{write_atomically, write_catalogue};
use super::Usage;

/// Where the step cases of a trace go.
pub struct CasesOut {
    /// `DIR/<game>`.
    folder: PathBuf,
    /// The logs traced, as absolute paths: what the manifest says the cases came from.
    logs: Vec<PathBuf>,
    /// `trace-<first log's name>`.
    base: String,
}

impl CasesOut {
    /// Makes `dir/<game>/` with the game's catalogue in it, and shows that it takes a new file:
    /// a folder that cannot take the cases is refused before the trace.
    pub fn prepare(game: &dyn DynGame, dir: &Path, logs: &[PathBuf]) -> Result<CasesOut, Usage> {
        let id = game.info().id;
        let folder = dir.join(id);
        let refused = |path: &Path, e: std::io::Error| {
            Usage(format!(
                "--cases-out: {}: {e}; nothing was traced",
                path.display()
            ))
        };
        std::fs::create_dir_all(&folder).map_err(|e| refused(&folder, e))?;
        write_catalogue(&folder, id).map_err(|e| refused(&folder.join("rules.yaml"), e))?;
        let probe = folder.join(format!(".shinpan-probe.{}", std::process::id()));
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
            .and_then(|_| std::fs::remove_file(&probe))
            .map_err(|e| refused(&folder, e))?;
        let name: String = logs
            .first()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "match".into())
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let logs = logs
            .iter()
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
            .collect();
        Ok(CasesOut {
            folder,
            logs,
            base: format!("trace-{}", name.trim_matches('-')),
        })
    }

    /// Writes `steps` (the parts, then the manifest) and says what it wrote; on a failure,
    /// removes what it wrote and says why.
    pub fn write(
        &self,
        game: &dyn DynGame,
        index: &ClauseIndex,
        steps: &[StepCase],
    ) -> Result<String, String> {
        let (name, taken) = self.own_name();
        let manifest = self.folder.join(manifest_name(&name));
        remove(&manifest)?;
        let files = case_files(game, index, &name, steps);
        let mut written: Vec<PathBuf> = Vec::new();
        let mut listed = Vec::new();
        for file in &files {
            let path = self.folder.join(format!("{}.yaml", file.name));
            if let Err(e) = write_atomically(&path, &file.text) {
                return Err(self.undo(&written, &path, &e));
            }
            written.push(path);
            listed.push(ManifestFile {
                name: format!("{}.yaml", file.name),
                bytes: file.text.len() as u64,
                sha256: hex(&Sha256::digest(&file.text)),
            });
        }
        self.remove_stale(&name, files.len())?;
        let list = Manifest {
            written_by: "shinpan trace --cases-out".into(),
            game: game.info().id.into(),
            logs: self.logs.clone(),
            files: listed,
        };
        let text = serde_json::to_string_pretty(&list).unwrap_or_default() + "\n";
        if let Err(e) = write_atomically(&manifest, &text) {
            return Err(self.undo(&written, &manifest, &e));
        }
        let (cases, left_out) = files
            .iter()
            .fold((0, 0), |(c, l), f| (c + f.written, l + f.left_out));
        let first = &written[0];
        let place = match written.len() {
            1 => first.display().to_string(),
            n => format!("{} and {} more files beside it", first.display(), n - 1),
        };
        let mut note = format!("wrote {cases} step cases to {place}");
        if left_out > 0 {
            note.push_str(&format!(
                " ({left_out} steps left out: the engine showed states the rules forbid)"
            ));
        }
        if let Some(taken) = taken {
            note.push_str(&format!(
                " (`{taken}` holds the cases of another log of the same file name)"
            ));
        }
        Ok(note)
    }

    /// The name this run's files take: `trace-<log>` when it is free or holds the cases of the
    /// same logs (which it replaces), else `trace-<log>-2`, `-3`, …; and, when the first name
    /// is another log's, that name.
    fn own_name(&self) -> (String, Option<String>) {
        let name = |k: usize| match k {
            1 => self.base.clone(),
            k => format!("{}-{k}", self.base),
        };
        let k = (1..).find(|&k| self.is_ours(&name(k))).unwrap_or(1);
        let taken = (k > 1).then(|| self.base.clone());
        (name(k), taken)
    }

    /// Whether the files named `name` are free for this run: none is there, or they hold the
    /// cases of the same logs (their manifest says so).
    fn is_ours(&self, name: &str) -> bool {
        let manifest = self.folder.join(manifest_name(name));
        match read_manifest(&manifest) {
            Ok(manifest) => manifest.logs == self.logs,
            // No manifest: free, unless files of the name are there (written by hand, or by a
            // shinpan that wrote no manifest): whose they are is not known.
            Err(_) if !manifest.exists() => {
                let whole = self.folder.join(format!("{name}.yaml"));
                let part = self.folder.join(format!("{name}-part-1.yaml"));
                !whole.exists() && !part.exists()
            }
            Err(_) => false,
        }
    }

    /// What an earlier run of the same logs left that this one did not write (the whole file,
    /// or parts past the last one written) would repeat its steps in the library.
    fn remove_stale(&self, name: &str, files: usize) -> Result<(), String> {
        let first_stale_part = if files > 1 { files + 1 } else { 1 };
        let mut stale: Vec<PathBuf> = (first_stale_part..)
            .map(|k| self.folder.join(format!("{name}-part-{k}.yaml")))
            .take_while(|path| path.exists())
            .collect();
        if files > 1 {
            stale.push(self.folder.join(format!("{name}.yaml")));
        }
        stale.iter().try_for_each(|path| remove(path))
    }

    /// Removes the files this run wrote before `failed` could not be written: says why, and
    /// that nothing of it is left.
    fn undo(&self, written: &[PathBuf], failed: &Path, error: &std::io::Error) -> String {
        let kept: Vec<String> = written
            .iter()
            .filter(|path| std::fs::remove_file(path).is_err())
            .map(|path| path.display().to_string())
            .collect();
        let left = match kept.as_slice() {
            [] if written.is_empty() => String::new(),
            [] => format!(
                "; the {} file(s) written before it were removed",
                written.len()
            ),
            kept => format!(
                "; {} could not be removed: without their manifest `check` refuses them",
                kept.join(", ")
            ),
        };
        format!("{}: {error}{left}", failed.display())
    }
}

/// Removes `path` if it is there.
fn remove(path: &Path) -> Result<(), String> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: cannot remove it: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

/// A case file to write: its name (without `.yaml`), its text, the cases written and the steps
/// left out.
struct CaseFile {
    name: String,
    text: String,
    written: usize,
    left_out: usize,
}

/// The step cases as case files no larger than `check` reads by default
/// ([`DEFAULT_MAX_FILE_BYTES`]): one, `name`, when they fit (a whole CEDEC 2013 match of
/// whole-field steps takes 12 to 16 MB, which `check` would refuse without
/// `--max-case-file-bytes`), else consecutive parts, `name-part-1`, `name-part-2`, …, each
/// saying which part of `name` it is.
fn case_files(
    game: &dyn DynGame,
    index: &ClauseIndex,
    name: &str,
    steps: &[StepCase],
) -> Vec<CaseFile> {
    let max = DEFAULT_MAX_FILE_BYTES as usize;
    let (text, written, left_out) = case_file(game, index, name, None, steps);
    if text.len() <= max || steps.len() < 2 {
        return vec![CaseFile {
            name: name.to_string(),
            text,
            written,
            left_out,
        }];
    }
    let mut parts = text.len().div_ceil(max) + 1;
    loop {
        let chunks: Vec<&[StepCase]> = steps.chunks(steps.len().div_ceil(parts)).collect();
        let files: Vec<CaseFile> = chunks
            .iter()
            .enumerate()
            .map(|(i, chunk)| {
                let part_name = format!("{name}-part-{}", i + 1);
                let part = Part {
                    of: name.to_string(),
                    number: i + 1,
                    parts: chunks.len(),
                };
                let (text, written, left_out) =
                    case_file(game, index, &part_name, Some(&part), chunk);
                CaseFile {
                    name: part_name,
                    text,
                    written,
                    left_out,
                }
            })
            .collect();
        if files.iter().all(|f| f.text.len() <= max) || parts >= steps.len() {
            return files;
        }
        parts *= 2;
    }
}

//! The planted bugs, `conformance/planted/<game>/*.patch`, still apply to the reference engines.
//! `conformance/planted/run.sh` shows that each bug fails a case, but nothing ran it when an
//! engine was restructured, and 33 of the 71 patches stopped applying (stale since 634902d)
//! without anyone noticing: a patch that no longer applies proves nothing. This test runs
//! `git apply --check` for every patch against the checkout and names each one that does not
//! apply; re-create it for today's code (the same bug, same file name) and run `run.sh` on it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every `conformance/planted/<game>/*.patch`, sorted.
fn patches(root: &Path) -> Vec<PathBuf> {
    let planted = root.join("conformance/planted");
    let games = std::fs::read_dir(&planted)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", planted.display()));
    let mut patches = Vec::new();
    for game in games {
        let game = game.expect("an entry of conformance/planted").path();
        if !game.is_dir() {
            continue;
        }
        let entries = std::fs::read_dir(&game)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", game.display()));
        for entry in entries {
            let path = entry.expect("an entry of a game's planted bugs").path();
            if path.extension().is_some_and(|ext| ext == "patch") {
                patches.push(path);
            }
        }
    }
    patches.sort();
    patches
}

#[test]
fn every_planted_bug_still_applies_to_the_engines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let patches = patches(root);
    assert!(
        !patches.is_empty(),
        "no planted bug found under {}/conformance/planted",
        root.display()
    );
    let mut stale = Vec::new();
    for patch in &patches {
        // The checkout's own repository (or none, for a copy without `.git`): never one named by
        // the environment of whoever runs the tests.
        let out = Command::new("git")
            .args(["apply", "--check"])
            .arg(patch)
            .current_dir(root)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "git is not available ({e}): it is needed to check that the planted bugs apply"
                )
            });
        if !out.status.success() {
            let name = patch.strip_prefix(root).unwrap_or(patch);
            let why = String::from_utf8_lossy(&out.stderr);
            let why = why.lines().last().unwrap_or("").trim();
            stale.push(format!("{} ({why})", name.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "{} of {} planted bugs no longer apply to the engines (re-create each for today's code, \
         then run conformance/planted/run.sh on it):\n  {}",
        stale.len(),
        patches.len(),
        stale.join("\n  ")
    );
}

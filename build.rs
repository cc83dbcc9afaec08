//! Embeds the case library (`cases/`) in the crate, so that an installed `shinpan` binary and a
//! crate that depends on shinpan both carry it without a checkout (`--cases DIR` still reads
//! another one). Writes `$OUT_DIR/embedded_cases.rs`: every `cases/<game>/*.yaml` (and `*.yml`) as
//! `(relative path, include_str!(absolute path))`, in path order. With the `test-games` feature,
//! a test game's cases come from its own crate too: `crates/shinpan-<game>/cases/<game>/*.yaml`.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read when the script runs, not when it was compiled: cargo may reuse a compiled build
    // script for a copy of the package at another path (a shared CARGO_TARGET_DIR), and the
    // compile-time path can then name a directory that no longer exists.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let library = Path::new(&manifest_dir).join("cases");
    // Cargo scans a directory given here for changes in anything below it.
    println!("cargo:rerun-if-changed={}", library.display());
    let mut roots = vec![library];
    if std::env::var_os("CARGO_FEATURE_TEST_GAMES").is_some() {
        let games = Path::new(&manifest_dir).join("crates");
        println!("cargo:rerun-if-changed={}", games.display());
        if let Ok(entries) = std::fs::read_dir(&games) {
            roots.extend(entries.flatten().map(|game| game.path().join("cases")));
        }
    }
    let mut files = Vec::new();
    for root in &roots {
        collect(root, &mut files);
    }
    files.sort();
    let mut out = String::from("/// Every file of the case library at build time.\n");
    out.push_str("pub static FILES: &[(&str, &str)] = &[\n");
    for (relative, path) in &files {
        writeln!(
            out,
            "    ({relative:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded_cases.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// Every `<game>/*.yaml` (and `*.yml`) below `root`, each with its path relative to `root`.
fn collect(root: &Path, files: &mut Vec<(String, std::path::PathBuf)>) {
    let Ok(games) = std::fs::read_dir(root) else {
        return;
    };
    for game in games.flatten().filter(|e| e.path().is_dir()) {
        let Ok(entries) = std::fs::read_dir(game.path()) else {
            continue;
        };
        for file in entries.flatten() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                let relative = path
                    .strip_prefix(root)
                    .expect("under the root")
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push((relative, path));
            }
        }
    }
}

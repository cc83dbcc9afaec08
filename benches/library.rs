//! Loading a large case library: a synthetic library shaped like replays of real CEDEC 2013
//! matches (every case gives the whole 127-tile field, plays one turn and expects the whole
//! field, the scores and the next exact request), generated in a temporary directory at the
//! size of the library that once took 21 s and 1.1 GB to load: about 3,700 step cases in 84 MB.
//!
//! - `case-library-load/<MB>`: `load_library` on a quarter, a half and the whole of it, to see
//!   that time grows linearly with size (target: the whole under 5 s).
//!
//! The peak resident memory of loading the whole library once is printed before the timings
//! (target: under 500 MB).

use std::fmt::Write as _;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::games;
use shinpan::seam::{DynGame, MatchOptions};
use shinpan::selfplay::random_prefix;

const CASES_PER_FILE: usize = 100;
const WHOLE_BYTES: usize = 84 * 1024 * 1024;

/// A step case from a reachable CEDEC state: the whole field given and expected.
fn case_text(game: &dyn DynGame, id: usize, seed: u64) -> String {
    let state = random_prefix(
        game,
        seed,
        &MatchOptions::default(),
        30 + (seed as usize % 200),
    )
    .expect("a self-play prefix");
    let next = game
        .play(&state, &[vec![shinpan::seam::Reply::text("finish")]])
        .expect("finish is always a legal turn");
    let indent =
        |yaml: String, by: &str| -> String { yaml.lines().map(|l| format!("{by}{l}\n")).collect() };
    let given = serde_yaml::to_string(&state).expect("a state is YAML");
    let mut then_value = next.state.clone();
    then_value["prompts"] = next.prompts.into();
    let then = serde_yaml::to_string(&then_value).expect("a result is YAML");
    let mut out = String::new();
    let _ = write!(
        out,
        "  - id: replay-{id}\n    rules: [turn.order]\n    note: >\n      Turn {id} of a \
         recorded match, replayed whole.\n    given:\n{}    when:\n      - [\"finish\"]\n    \
         then:\n{}",
        indent(given, "      "),
        indent(then, "      ")
    );
    out
}

/// Writes files of CASES_PER_FILE cases to `dir/cedec2013/` until `bytes` are written; returns
/// the bytes written and the number of cases.
fn write_library(dir: &Path, samples: &[String], bytes: usize) -> (usize, usize) {
    let game_dir = dir.join("cedec2013");
    std::fs::create_dir_all(&game_dir).expect("a temporary directory");
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/cedec2013/rules.yaml");
    std::fs::copy(rules, game_dir.join("rules.yaml")).expect("the catalogue copies");
    let (mut written, mut cases, mut file) = (0, 0, 0);
    while written < bytes {
        let mut text = String::from("game: cedec2013\ncases:\n");
        for _ in 0..CASES_PER_FILE {
            text.push_str(
                &samples[cases % samples.len()]
                    .replace("id: replay-0\n", &format!("id: replay-{cases}\n")),
            );
            cases += 1;
        }
        written += text.len();
        std::fs::write(game_dir.join(format!("replays-{file:03}.yaml")), text)
            .expect("the library writes");
        file += 1;
    }
    (written, cases)
}

fn peak_rss_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn load(c: &mut Criterion) {
    let game = games::by_id("cedec2013").expect("the registry has CEDEC 2013");
    let samples: Vec<String> = (0..40).map(|seed| case_text(game, 0, seed)).collect();
    let mut group = c.benchmark_group("case-library-load");
    group.sample_size(10);
    for fraction in [4, 2, 1] {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let (bytes, cases) = write_library(dir.path(), &samples, WHOLE_BYTES / fraction);
        let source = Source::Dir(dir.path().to_path_buf());
        let load = || {
            load_library(&source, &games::all(), &LoadOptions::default())
                .expect("the synthetic library loads")
        };
        if fraction == 1 {
            let before = peak_rss_mb();
            let started = std::time::Instant::now();
            let library = load();
            eprintln!(
                "whole library: {cases} cases, {} MB, loaded once in {:.2?}; peak RSS {} MB \
                 (before loading: {} MB)",
                bytes / (1024 * 1024),
                started.elapsed(),
                peak_rss_mb().unwrap_or(0),
                before.unwrap_or(0),
            );
            assert_eq!(library.case_count(), cases);
        }
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{}MB", bytes / (1024 * 1024))),
            &source,
            |b, _| b.iter(|| load().case_count()),
        );
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);

//! Loading a case library of the shape real matches give (issue 25): what `trace --cases-out`
//! writes from a recorded CEDEC 2013 match, one file a match, each case one step of it with the
//! whole state given and the whole state after it expected. The files hold consecutive turns of
//! one match each (a few to 456 cases), from 100 KB to 12 MB, 84 MB in all: the library that once
//! took 4.4-5.6 s and 535 MB to load.
//!
//! Before criterion runs, the figures the issue sets targets for are printed beside them: the
//! whole library and its largest file (MB, cases, seconds, MB/s, cases/s, peak resident
//! memory), and the YAML parser alone on the same bytes (its events, then its events made into
//! JSON values), to see how close the whole load comes to reading the bytes at all. Then:
//!
//! - `case-library-load/<MB>`: `load_library` on a quarter, a half and the whole library, to
//!   see that time grows linearly with size;
//! - `case-library-largest-file`: the 12 MB file alone;
//! - `case-library-yaml-events`: the YAML parser alone over the whole library.

/// The command line's allocator (`src/main.rs`), so that the figures are the ones `check` gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use saphyr_parser::Parser;
use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::games;
use shinpan::harness::trace::cases::{case_file, StepCase};
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::rng::{player_stream, seeded};
use shinpan::seam::{DynGame, MatchOptions, Reply};

const MB: f64 = 1024.0 * 1024.0;
const GAME: &str = "cedec2013";
/// The size of each file, in KB: a spread from a few turns to most of a match, 84 MB in all.
const FILE_KB: [usize; 19] = [
    12_288, 100, 4_096, 10_240, 256, 3_072, 9_216, 512, 2_048, 8_192, 1_024, 5_120, 7_168, 1_536,
    6_144, 512, 3_072, 2_048, 511,
];
/// The whole library, in bytes.
const WHOLE_BYTES: usize = 84 * 1024 * 1024;
/// Large enough for the largest file (the default refuses files over 4 MiB).
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The steps of the built-in players' match of `seed`, from the first, as `trace --cases-out`
/// turns them into step cases, until the file reaches `bytes`: `given` the whole state before
/// the step, `when` the replies, `then` the whole state after it.
fn match_file(game: &dyn DynGame, index: &ClauseIndex, seed: u64, bytes: usize) -> (String, usize) {
    let mut play = game
        .start(seed, &MatchOptions::default())
        .expect("a match starts");
    let mut rngs: Vec<_> = (0..game.info().players)
        .map(|p| seeded(seed, player_stream(p)))
        .collect();
    let (mut steps, mut written) = (Vec::new(), 0);
    while play.outcome().is_none() && written < bytes {
        let given = play.state().expect("a canonical state");
        let replies: Vec<Reply> = play
            .awaiting()
            .into_iter()
            .map(|p| Reply::text(play.random_reply(p, &mut rngs[p])))
            .collect();
        play.step(&replies)
            .expect("the built-in players play legal turns");
        let then = play.state().expect("a canonical state");
        let step = StepCase {
            step: steps.len(),
            given,
            replies,
            then,
            departs: false,
        };
        written += case_file(game, index, "size", None, std::slice::from_ref(&step))
            .0
            .len();
        steps.push(step);
    }
    let (text, count, _) = case_file(game, index, &format!("match-{seed}"), None, &steps);
    (text, count)
}

/// One written file of the library.
struct Written {
    path: PathBuf,
    bytes: usize,
    cases: usize,
}

/// Writes the library to `dir/cedec2013/` with the game's catalogue.
fn write_library(dir: &Path) -> Vec<Written> {
    let game = games::by_id(GAME).expect("the registry has CEDEC 2013");
    let built_in = load_library(&Source::Embedded, &games::all(), &LoadOptions::only([GAME]))
        .expect("the built-in library loads");
    let index = ClauseIndex::new(&built_in.games[0]);
    let game_dir = dir.join(GAME);
    std::fs::create_dir_all(&game_dir).expect("a temporary directory");
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/cedec2013/rules.yaml");
    std::fs::copy(rules, game_dir.join("rules.yaml")).expect("the catalogue copies");
    let (mut files, mut total) = (Vec::new(), 0);
    for (n, kb) in FILE_KB.iter().cycle().enumerate() {
        // What is left under 100 KB is left out: no file is smaller than the shape's smallest.
        if total + 100 * 1024 > WHOLE_BYTES {
            break;
        }
        // A match may end before its file is full: the next files make up the difference.
        let want = (kb * 1024).min(WHOLE_BYTES - total);
        let (text, cases) = match_file(game, &index, n as u64 + 1, want);
        let path = game_dir.join(format!("trace-match-{n:02}.yaml"));
        std::fs::write(&path, &text).expect("the library writes");
        total += text.len();
        files.push(Written {
            path,
            bytes: text.len(),
            cases,
        });
    }
    files
}

/// A library of the first files of `files` (with the catalogue), linked into `dir`.
fn sub_library(dir: &Path, files: &[Written]) -> Source {
    let game_dir = dir.join(GAME);
    std::fs::create_dir_all(&game_dir).expect("a temporary directory");
    let whole = files[0].path.parent().expect("a game directory");
    std::fs::hard_link(whole.join("rules.yaml"), game_dir.join("rules.yaml")).expect("a link");
    for file in files {
        let name = file.path.file_name().expect("a file name");
        std::fs::hard_link(&file.path, game_dir.join(name)).expect("a link");
    }
    Source::Dir(dir.to_path_buf())
}

fn load(source: &Source) -> usize {
    let options = LoadOptions {
        max_file_bytes: MAX_FILE_BYTES,
        ..LoadOptions::default()
    };
    load_library(source, &games::all(), &options)
        .expect("the library loads")
        .case_count()
}

/// `count` over every text, on every core as loading is (a file at a time each), summed.
fn on_every_core(texts: &[String], count: impl Fn(&str) -> usize + Sync) -> usize {
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut sum = 0;
                    while let Some(text) = texts.get(next.fetch_add(1, Ordering::Relaxed)) {
                        sum += count(text);
                    }
                    sum
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    })
}

/// The YAML parser alone: every event of every text.
fn yaml_events(texts: &[String]) -> usize {
    on_every_core(texts, |text| {
        let mut parser = Parser::new_from_str(text);
        let mut events = 0;
        while let Some(event) = parser.next_event() {
            event.expect("the library is YAML");
            events += 1;
        }
        events
    })
}

/// The YAML parser and the reader that makes its events JSON values, as loading does.
fn yaml_values(texts: &[String]) -> usize {
    on_every_core(texts, |text| {
        let parsed = shinpan::case::yaml::parse(text, &|_| false).expect("the library reads");
        parsed.value.is_object() as usize
    })
}

/// `VmHWM` of this process, in MB.
fn peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

/// The environment variable that makes this program a measuring child: `<what> <dir>`.
const MEASURE: &str = "SHINPAN_BENCH_LIBRARY_MEASURE";

/// In a child of its own, so that the peak is of the work alone: runs `what` (`load`,
/// `events`, `values`) once on the library in `dir` and prints its seconds and peak MB.
fn measured_child(job: &str) {
    let (what, dir) = job.split_once(' ').expect("<what> <dir>");
    let texts = || -> Vec<String> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(Path::new(dir).join(GAME))
            .expect("the library")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.file_name().is_some_and(|n| n != "rules.yaml"))
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("a file"))
            .collect()
    };
    let started;
    match what {
        "load" => {
            started = Instant::now();
            load(&Source::Dir(dir.into()));
        }
        "events" => {
            let texts = texts();
            started = Instant::now();
            yaml_events(&texts);
        }
        _ => {
            let texts = texts();
            started = Instant::now();
            yaml_values(&texts);
        }
    }
    println!("{} {}", started.elapsed().as_secs_f64(), peak_mb());
}

/// The fastest of three children running `what` on `dir`, and the highest peak of the three.
fn measure(what: &str, dir: &Path) -> (f64, f64) {
    let (mut fastest, mut peak) = (f64::INFINITY, 0.0f64);
    for _ in 0..3 {
        let out = std::process::Command::new(std::env::current_exe().expect("this program"))
            .env(MEASURE, format!("{what} {}", dir.display()))
            .output()
            .expect("the measuring child runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut figures = text
            .split_whitespace()
            .map(|f| f.parse::<f64>().unwrap_or(0.0));
        let (s, mb) = (figures.next(), figures.next());
        assert!(
            out.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        fastest = fastest.min(s.unwrap_or(f64::NAN));
        peak = peak.max(mb.unwrap_or(0.0));
    }
    (fastest, peak)
}

fn report(what: &str, bytes: usize, cases: usize, (s, peak): (f64, f64)) {
    let mb = bytes as f64 / MB;
    eprintln!(
        "{what:<16} {mb:>7.1} {cases:>7} {s:>7.2} {:>7.1} {:>8.0} {peak:>8.0}",
        mb / s,
        cases as f64 / s
    );
}

/// Prints the figures the issue sets targets for, beside the targets: each measured in a
/// process of its own (the fastest of three), its peak the process's `VmHWM`.
fn print_figures(whole: &Path, largest: &Path, files: &[Written]) {
    let bytes: usize = files.iter().map(|f| f.bytes).sum();
    let cases: usize = files.iter().map(|f| f.cases).sum();
    let big = files.iter().max_by_key(|f| f.bytes).expect("files");
    eprintln!(
        "\nreal-shape library: {GAME}, {} files of {:.1} to {:.1} MB (each line: the fastest of \
         three processes, and the highest peak)\n{:<16} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}",
        files.len(),
        files.iter().map(|f| f.bytes).min().unwrap_or(0) as f64 / MB,
        big.bytes as f64 / MB,
        "",
        "MB",
        "cases",
        "s",
        "MB/s",
        "cases/s",
        "peak MB"
    );
    let largest_run = measure("load", largest);
    report("largest file", big.bytes, big.cases, largest_run);
    let whole_run = measure("load", whole);
    report("whole library", bytes, cases, whole_run);
    let events = measure("events", whole);
    report("YAML events", bytes, cases, events);
    report("YAML to values", bytes, cases, measure("values", whole));
    eprintln!(
        "targets: whole library under 2 s (at least 40 MB/s), under 250 MB; largest file under \
         0.5 s\nthe whole load takes {:.1} times the YAML parser's events alone (both on every \
         core, a file at a time; the parser's peak holds the texts it reads)\n",
        whole_run.0 / events.0,
    );
}

fn library(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = write_library(&dir.path().join("whole"));
    let by_size = files.iter().max_by_key(|f| f.bytes).expect("files");
    let largest = sub_library(&dir.path().join("largest"), std::slice::from_ref(by_size));
    print_figures(
        &dir.path().join("whole"),
        &dir.path().join("largest"),
        &files,
    );

    let mut group = c.benchmark_group("case-library-load");
    group.sample_size(10);
    let total: usize = files.iter().map(|f| f.bytes).sum();
    for fraction in [4, 2, 1] {
        let mut bytes = 0;
        let count = files
            .iter()
            .take_while(|f| {
                bytes += f.bytes;
                bytes - f.bytes < total / fraction
            })
            .count();
        let part = &files[..count];
        let source = sub_library(&dir.path().join(format!("part-{fraction}")), part);
        let bytes: usize = part.iter().map(|f| f.bytes).sum();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{:.0}MB", bytes as f64 / MB)),
            &source,
            |b, source| b.iter(|| load(source)),
        );
    }
    group.finish();
    let mut group = c.benchmark_group("case-library-largest-file");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(by_size.bytes as u64));
    group.bench_function("load", |b| b.iter(|| load(&largest)));
    group.finish();
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(&f.path).expect("the library reads back"))
        .collect();
    let mut group = c.benchmark_group("case-library-yaml-events");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(total as u64));
    group.bench_function("whole", |b| b.iter(|| yaml_events(&texts)));
    group.finish();
}

criterion_group!(benches, library);

fn main() {
    if let Ok(job) = std::env::var(MEASURE) {
        return measured_child(&job);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

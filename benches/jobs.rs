//! `check --jobs`: the same run of the built-in case library on one worker and on two.
//!
//! - `jobs/reference/<N>`: every case of every game on N reference engines.
//! - `jobs/python-adapter/<N>`: the codevs-reborn cases on N example Python adapters
//!   (`conformance/adapters/codevs_reborn.py`), started once before the timings, as `check`
//!   starts them before its run (their start-up is not measured).
//!
//! The library is loaded once; only the run is timed. Throughput in cases. On a machine with
//! fewer than two cores, two workers cannot be faster than one.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shinpan::case::{load_library, Library, LoadOptions, Source};
use shinpan::games;
use shinpan::harness::adapter::{Adapter, AdapterConfig};
use shinpan::run::{run_library_jobs, select, EngineUnderTest, Reference};

/// The runs timed: one worker, then two.
const WORKERS: [usize; 2] = [1, 2];

fn library(only: &[&str]) -> Library {
    let options = LoadOptions {
        only: only.iter().map(|id| id.to_string()).collect(),
        ..LoadOptions::default()
    };
    load_library(&Source::Embedded, &games::all(), &options).expect("the case library loads")
}

/// Times `library` on the engines `make` gives for each number of workers.
fn bench_workers(
    c: &mut Criterion,
    name: &str,
    library: &Library,
    make: impl Fn(usize) -> Vec<Box<dyn EngineUnderTest + Send>>,
) {
    let cases = select(library, None).len();
    let mut group = c.benchmark_group(format!("jobs/{name}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(cases as u64));
    for workers in WORKERS {
        let mut engines = make(workers);
        group.bench_function(BenchmarkId::from_parameter(workers), |b| {
            b.iter(|| {
                let run = run_library_jobs(library, None, &mut engines, |_, _, _| {}, || None);
                assert_eq!(run.results.len(), cases, "{:?}", run.stopped);
            })
        });
        for engine in &mut engines {
            engine.finish();
        }
    }
    group.finish();
}

fn reference(c: &mut Criterion) {
    bench_workers(c, "reference", &library(&[]), |n| {
        (0..n)
            .map(|_| Box::new(Reference) as Box<dyn EngineUnderTest + Send>)
            .collect()
    });
}

fn python_adapter(c: &mut Criterion) {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/adapters/codevs_reborn.py");
    let argv = vec!["python3".to_string(), script.display().to_string()];
    bench_workers(c, "python-adapter", &library(&["codevs-reborn"]), |n| {
        (0..n)
            .map(|_| {
                let adapter = Adapter::start(AdapterConfig::new(argv.clone()))
                    .expect("the example adapter starts");
                Box::new(adapter) as Box<dyn EngineUnderTest + Send>
            })
            .collect()
    });
}

criterion_group!(benches, reference, python_adapter);
criterion_main!(benches);

//! The adapter protocol's own cost: case requests per second through a trivial adapter
//! (`tests/fixtures/adapters/unsupported.py`, which answers every request `unsupported`), so
//! what is measured is serialization, the pipes, the reader threads and the response check.
//!
//! - `adapter/step-case-requests`: the step cases of the library, each sent as a `step`
//!   request (throughput in requests).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shinpan::case::{load_library, CaseBody, LoadOptions, Source};
use shinpan::games;
use shinpan::harness::adapter::{Adapter, AdapterConfig};
use shinpan::run::{Answered, EngineUnderTest, StepRequest};

fn adapter(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = load_library(&Source::Embedded, &games::all(), &LoadOptions::default())
        .expect("the case library loads");
    let cases: Vec<_> = library
        .games
        .iter()
        .flat_map(|g| g.cases.iter().map(move |c| (g.game, c)))
        .filter_map(|(game, case)| match &case.body {
            CaseBody::Step { given, when, .. } => {
                Some((game, case.name.as_str(), given.value(), when))
            }
            _ => None,
        })
        .collect();
    let script = root.join("tests/fixtures/adapters/unsupported.py");
    let argv = vec!["python3".to_string(), script.display().to_string()];
    let mut adapter = Adapter::start(AdapterConfig::new(argv)).expect("the trivial adapter starts");
    let mut group = c.benchmark_group("adapter");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("step-case-requests", |b| {
        b.iter(|| {
            for (game, name, given, when) in &cases {
                let request = StepRequest {
                    id: name,
                    game: *game,
                    state: given,
                    turns: when,
                    reachable: true,
                };
                assert!(matches!(adapter.step(request), Answered::Unsupported(_)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, adapter);
criterion_main!(benches);

//! diff's own cost beside the engine's (issue 38): `diff` against a fast native engine, in
//! process, and the same engine answering the same requests alone. Their ratio is what shinpan
//! spends per request on drawing inputs, playing the reference, comparing and naming; the
//! adapter protocol's own cost (pipes, serialization) is `benches/adapter.rs`.
//!
//! - `diff/1000-inputs`: `diff` of CODE VS Reborn, seed 1, 1,000 inputs, against the reference
//!   with the variant `chain-score-rounded` switched on (every departure found is shrunk).
//! - `diff/same-requests-engine-alone`: the step requests that run sent, answered by the same
//!   engine with nothing else done.

use criterion::{criterion_group, criterion_main, Criterion};
use shinpan::harness::diff::{self, DiffConfig, Known};
use shinpan::run::{
    Answered, EngineUnderTest, NewMatchRequest, ParseRequest, Planted, StepRequest, StepResponse,
};
use shinpan::seam::{ParseVerdict, Reply};
use shinpan::serde_json::Value;

/// The planted engine, keeping each step request it is sent.
struct Recording {
    engine: Planted,
    requests: Vec<(Value, Vec<Vec<Reply>>)>,
}

impl EngineUnderTest for Recording {
    fn name(&self) -> String {
        self.engine.name()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        (self.requests).push((request.state.clone(), request.turns.to_vec()));
        self.engine.step(request)
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        self.engine.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        self.engine.new_match(request)
    }
}

fn planted() -> Planted {
    Planted {
        variant: "chain-score-rounded".into(),
    }
}

fn diff_overhead(c: &mut Criterion) {
    let game = shinpan::games::by_id("codevs-reborn").expect("the game");
    let config = DiffConfig {
        seed: 1,
        runs: 1000,
        departures: 1000,
        ..DiffConfig::default()
    };
    let run = |engine: &mut dyn EngineUnderTest| {
        diff::run(game, engine, &config, &Known::default(), None, |_, _| {})
    };
    let mut recording = Recording {
        engine: planted(),
        requests: Vec::new(),
    };
    let outcome = run(&mut recording);
    assert!(
        !outcome.findings.is_empty(),
        "the planted departure is found"
    );
    let requests = recording.requests;
    eprintln!(
        "diff/1000-inputs sends {} step requests ({} findings)",
        requests.len(),
        outcome.findings.len()
    );
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    group.bench_function("1000-inputs", |b| b.iter(|| run(&mut planted())));
    group.bench_function("same-requests-engine-alone", |b| {
        b.iter(|| {
            let mut engine = planted();
            for (state, turns) in &requests {
                let request = StepRequest {
                    id: "bench",
                    game,
                    state,
                    turns,
                    reachable: true,
                };
                assert!(matches!(engine.step(request), Answered::Done(_)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, diff_overhead);
criterion_main!(benches);

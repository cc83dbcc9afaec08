//! diff's own cost beside the engine's (issue 38): `diff` against a fast engine, in process and
//! as a native adapter, and the same engine answering the same requests alone. Their ratio is
//! what shinpan spends per request on drawing inputs, playing the reference, comparing and
//! naming.
//!
//! - `diff/1000-inputs`: `diff` of CODE VS Reborn, seed 1, 1,000 inputs, against the reference
//!   with the variant `chain-score-rounded` switched on, in process (every departure found is
//!   shrunk).
//! - `diff/same-requests-engine-alone`: the step requests that run sent, answered by the same
//!   engine with nothing else done.
//! - `diff/1000-inputs-adapter`: the same run against the same engine behind the adapter
//!   protocol: a native (Rust) adapter process, so pipes and serialization are paid as a fast
//!   native simulator's adapter pays them (issue 38's bar: at most 2× the next figure).
//! - `diff/same-requests-adapter-alone`: the same recorded requests sent through [`Adapter`] to
//!   the same adapter process, nothing else done.
//!
//! The native adapter is this benchmark's own executable run again with [`SERVE`] as its first
//! argument: `cargo bench` builds nothing else, and no user-facing program exists for it.

use std::io::{BufRead, Write};

use criterion::{criterion_group, Criterion};
use shinpan::harness::adapter::{Adapter, AdapterConfig, PROTOCOL};
use shinpan::harness::diff::{self, DiffConfig, Known};
use shinpan::run::{
    Answered, EngineUnderTest, NewMatchRequest, ParseRequest, Planted, StepRequest, StepResponse,
};
use shinpan::seam::{ParseVerdict, Reply};
use shinpan::serde_json::{self, json, Value};

/// The command line's allocator (`src/main.rs`), in the benchmark and in its native adapter, so
/// that the figures are the ones `shinpan diff` and a Rust adapter get.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The first argument that makes this executable the native adapter instead of the benchmark.
const SERVE: &str = "--serve-native-adapter";

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

/// The native adapter: the planted engine behind the adapter protocol, one JSON request a line
/// on stdin, one response a line on stdout, until stdin closes. It answers `step` only (all
/// `diff` asks); anything else is `unsupported`.
fn serve() {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let mut engine = planted();
    for line in stdin.lines() {
        let Ok(line) = line else { return };
        let response = match serde_json::from_str::<Value>(&line) {
            Ok(request) => answer(&mut engine, &request),
            Err(e) => json!({"id": "", "error": format!("not JSON: {e}")}),
        };
        let mut out = response.to_string();
        out.push('\n');
        if stdout
            .write_all(out.as_bytes())
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return;
        }
    }
}

fn answer(engine: &mut Planted, request: &Value) -> Value {
    let id = request["id"].clone();
    match request["kind"].as_str() {
        Some("hello") => json!({
            "id": id, "protocol": PROTOCOL, "engine": engine.name(), "games": ["codevs-reborn"],
        }),
        Some("step") => {
            let game = request["game"].as_str().and_then(shinpan::games::by_id);
            let turns = serde_json::from_value::<Vec<Vec<Reply>>>(request["turns"].clone());
            let (Some(game), Ok(turns)) = (game, turns) else {
                return json!({"id": id, "error": "no such game, or turns that are no replies"});
            };
            let step = StepRequest {
                id: "native",
                game,
                state: &request["state"],
                turns: &turns,
                reachable: request["reachable"].as_bool().unwrap_or(true),
            };
            match engine.step(step) {
                Answered::Done(r) => json!({
                    "id": id, "state": r.state, "prompts": r.prompts,
                    "last_replies": r.last_replies, "turns_played": r.turns_played,
                }),
                Answered::Unsupported(why) => json!({"id": id, "unsupported": why}),
                Answered::Error(why) => json!({"id": id, "error": why.to_string()}),
            }
        }
        _ => json!({"id": id, "unsupported": "the native adapter answers step requests only"}),
    }
}

fn native_adapter() -> Adapter {
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let argv = vec![exe.display().to_string(), SERVE.to_string()];
    Adapter::start(AdapterConfig::new(argv)).expect("the native adapter starts")
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
    let mut adapter = native_adapter();
    let through_adapter = run(&mut adapter);
    assert_eq!(
        through_adapter.findings.len(),
        outcome.findings.len(),
        "the native adapter is the same engine"
    );
    let alone = |engine: &mut dyn EngineUnderTest| {
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
    };
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    group.bench_function("1000-inputs", |b| b.iter(|| run(&mut planted())));
    group.bench_function("same-requests-engine-alone", |b| {
        b.iter(|| alone(&mut planted()))
    });
    group.bench_function("1000-inputs-adapter", |b| b.iter(|| run(&mut adapter)));
    group.bench_function("same-requests-adapter-alone", |b| {
        b.iter(|| alone(&mut adapter))
    });
    group.finish();
    assert_eq!(
        adapter.restarts, 0,
        "the native adapter never failed a request"
    );
}

criterion_group!(benches, diff_overhead);

fn main() {
    if std::env::args().nth(1).as_deref() == Some(SERVE) {
        serve();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

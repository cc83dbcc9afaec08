//! Throughput of the TSG AUTO CHESS reference engine (issue 10 asks for at least 200,000 turns
//! a second on seeded random matches).
//!
//! - `tsg-auto-chess/random-matches`: whole seeded matches between the built-in random legal
//!   players, engine and players only (no prompt text); throughput in turns (steps: one turn is
//!   both players' replies played together).
//! - `tsg-auto-chess/random-matches-with-prompts`: the same with both prompts rendered every
//!   turn, as the bot harness does.
//! - `tsg-auto-chess/trace-main-rb-1000-steps`: `trace --engine-known main.rb` of a recorded
//!   main.rb match of 1,000 busy turns (`tests/fixtures/tsg-auto-chess/main-rb-odd-1000`, the
//!   bots of `odd_bot.py`): main.rb modelled from the first step to the last, 1,342 departures
//!   named (issue 39 asks for no more than twice the time of the 64-step window before it).

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shinpan::games::tsg_auto_chess::TsgAutoChess;
use shinpan::harness::log::read_match;
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::{trace_with, TraceConfig};
use shinpan::selfplay::{match_steps, Prompts};

const SEEDS: std::ops::Range<u64> = 0..20;

fn tsg(c: &mut Criterion) {
    let game = TsgAutoChess;
    let mut group = c.benchmark_group("tsg-auto-chess");
    for (name, prompts) in [
        ("random-matches", Prompts::Skipped),
        ("random-matches-with-prompts", Prompts::Rendered),
    ] {
        let turns: usize = SEEDS.map(|s| match_steps(&game, s, prompts)).sum();
        group.throughput(Throughput::Elements(turns as u64));
        group.bench_function(name, |b| {
            b.iter(|| SEEDS.map(|s| match_steps(&game, s, prompts)).sum::<usize>())
        });
    }
    group.finish();
}

fn trace_main_rb(c: &mut Criterion) {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tsg-auto-chess/main-rb-odd-1000"
    ));
    let logs = [dir.join("p0.jsonl"), dir.join("p1.jsonl")];
    let read = read_match(&logs, None).expect("the fixture reads");
    let games = shinpan::games::all();
    let index = ClauseIndex::built_in(&games, "tsg-auto-chess")
        .expect("the library loads")
        .expect("TSG has cases");
    let config = TraceConfig {
        engine: Some("main.rb".into()),
        ..TraceConfig::default()
    };
    let mut group = c.benchmark_group("tsg-auto-chess");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1000));
    group.bench_function("trace-main-rb-1000-steps", |b| {
        b.iter(|| {
            let report = trace_with(&TsgAutoChess, &read.players, &index, &config);
            assert_eq!(report.steps, 1000);
            report.departures.len()
        })
    });
    group.finish();
}

criterion_group!(benches, tsg, trace_main_rb);
criterion_main!(benches);

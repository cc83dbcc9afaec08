//! Throughput of the reference engines and of the case library.
//!
//! - `codevs-reborn/random-matches`: whole seeded matches between the built-in random legal
//!   players, engine only (no prompt text); throughput in player-turns (2 per step).
//! - `codevs-reborn/random-matches-with-prompts`: the same with both prompts rendered every turn,
//!   as the bot harness does.
//! - `cedec2013/random-matches`: whole seeded CEDEC 2013 matches between the built-in random
//!   players, engine only; throughput in player-turns (one per step, the name steps included).
//! - `case-library/load-and-run`: loading and running every case on the reference engines.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shinpan::case::{load_library, LoadOptions, Source};
use shinpan::games;
use shinpan::games::cedec2013::Cedec2013;
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::run::{run_library, Reference};
use shinpan::selfplay::{match_steps, Prompts};

const SEEDS: std::ops::Range<u64> = 0..20;

fn reborn(c: &mut Criterion) {
    let game = CodevsReborn;
    let steps: usize = SEEDS.map(|s| match_steps(&game, s, Prompts::Skipped)).sum();
    let mut group = c.benchmark_group("codevs-reborn");
    group.throughput(Throughput::Elements(2 * steps as u64));
    group.bench_function("random-matches", |b| {
        b.iter(|| {
            SEEDS
                .map(|s| match_steps(&game, s, Prompts::Skipped))
                .sum::<usize>()
        })
    });
    let steps: usize = SEEDS
        .map(|s| match_steps(&game, s, Prompts::Rendered))
        .sum();
    group.throughput(Throughput::Elements(2 * steps as u64));
    group.bench_function("random-matches-with-prompts", |b| {
        b.iter(|| {
            SEEDS
                .map(|s| match_steps(&game, s, Prompts::Rendered))
                .sum::<usize>()
        })
    });
    group.finish();
}

fn cedec(c: &mut Criterion) {
    let game = Cedec2013;
    let seeds = 0..5u64;
    let steps: usize = seeds
        .clone()
        .map(|s| match_steps(&game, s, Prompts::Skipped))
        .sum();
    let mut group = c.benchmark_group("cedec2013");
    group.throughput(Throughput::Elements(steps as u64));
    group.bench_function("random-matches", |b| {
        b.iter(|| {
            seeds
                .clone()
                .map(|s| match_steps(&game, s, Prompts::Skipped))
                .sum::<usize>()
        })
    });
    group.finish();
}

fn library(c: &mut Criterion) {
    c.bench_function("case-library/load-and-run", |b| {
        b.iter(|| {
            let library = load_library(&Source::Embedded, &games::all(), &LoadOptions::default())
                .expect("the case library loads");
            run_library(&library, None, &mut Reference, |_, _, _| {})
                .results
                .len()
        })
    });
}

criterion_group!(benches, reborn, cedec, library);
criterion_main!(benches);

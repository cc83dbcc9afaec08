//! Throughput of the TSG AUTO CHESS reference engine (issue 10 asks for at least 200,000 turns
//! a second on seeded random matches).
//!
//! - `tsg-auto-chess/random-matches`: whole seeded matches between the built-in random legal
//!   players, engine and players only (no prompt text); throughput in turns (steps: one turn is
//!   both players' replies played together).
//! - `tsg-auto-chess/random-matches-with-prompts`: the same with both prompts rendered every
//!   turn, as the bot harness does.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shinpan::games::tsg_auto_chess::TsgAutoChess;
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

criterion_group!(benches, tsg);
criterion_main!(benches);

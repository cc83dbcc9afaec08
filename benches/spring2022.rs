//! Throughput of the Spring Challenge 2022 engine: whole seeded matches (up to 220 turns; these
//! 20 last 200 on average, many ending when a base falls) between the built-in players, which
//! cast every spell kind. The figure is matches a second (target: 2,000); criterion
//! reports the time of one batch of 20 matches, so matches a second are 20 / that time. Turns a
//! second are the `Elements` throughput. Built with the `bench` profile (see Cargo.toml).
//!
//! - `spring2022/random-matches`: engine and built-in players only (no prompt text).
//! - `spring2022/random-matches-with-prompts`: both prompts rendered every turn, as the bot
//!   harness does.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shinpan::games::spring2022::Spring2022;
use shinpan::selfplay::{match_steps, Prompts};

const SEEDS: std::ops::Range<u64> = 0..20;

fn matches(c: &mut Criterion) {
    let game = Spring2022;
    let mut group = c.benchmark_group("spring2022");
    for (name, prompts) in [
        ("random-matches", Prompts::Skipped),
        ("random-matches-with-prompts", Prompts::Rendered),
    ] {
        let turns: usize = SEEDS.map(|s| match_steps(&game, s, prompts)).sum();
        eprintln!(
            "{name}: {} matches, {turns} turns a batch",
            SEEDS.end - SEEDS.start
        );
        group.throughput(Throughput::Elements(turns as u64));
        group.bench_function(name, |b| {
            b.iter(|| SEEDS.map(|s| match_steps(&game, s, prompts)).sum::<usize>())
        });
    }
    group.finish();
}

criterion_group!(benches, matches);
criterion_main!(benches);

//! Throughput of the CODE VS 4.0 engine (issue 9's figure: turns per second with 200 units a
//! side in contact; the target is 20,000 turns/s, a 1000-turn stage in under 50 ms).
//!
//! - `codevs4/contact-200-a-side`: one turn from a state where each player has 200 fighting
//!   units on a 20×20 checkerboard, every unit with about a dozen enemies in its range; both
//!   players order every unit to move (the built-in player's orders, parsed by the engine).
//!   Throughput in turns.
//! - `codevs4/contact-200-a-side-idle`: the same turn with no orders: the battle alone.
//! - `codevs4/random-stages`: whole seeded stages between the built-in players, engine only (no
//!   input text); throughput in turns.

mod common;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use shinpan::games::codevs4::Codevs4;
use shinpan::seam::{Game, Reply};
use shinpan::selfplay::{match_steps, Prompts};

fn contact_turns(c: &mut Criterion) {
    let game = Codevs4;
    let (state, replies) = common::codevs4_contact_turn();
    let idle = vec![Reply::text("0"), Reply::text("0")];
    let mut group = c.benchmark_group("codevs4");
    group.throughput(Throughput::Elements(1));
    group.bench_function("contact-200-a-side", |b| {
        b.iter_batched(
            || state.clone(),
            |mut s| game.step(&mut s, &replies).map(|_| s.units.0.len()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("contact-200-a-side-idle", |b| {
        b.iter_batched(
            || state.clone(),
            |mut s| game.step(&mut s, &idle).map(|_| s.units.0.len()),
            BatchSize::SmallInput,
        )
    });
    let seeds = 0..3u64;
    let turns: usize = seeds
        .clone()
        .map(|s| match_steps(&game, s, Prompts::Skipped))
        .sum();
    group.throughput(Throughput::Elements(turns as u64));
    group.sample_size(10);
    group.bench_function("random-stages", |b| {
        b.iter(|| {
            seeds
                .clone()
                .map(|s| match_steps(&game, s, Prompts::Skipped))
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, contact_turns);
criterion_main!(benches);

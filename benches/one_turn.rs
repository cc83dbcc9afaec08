//! The smallest public step of CODE VS Reborn: one player's turn on their own field
//! ([`play_own_field`]), timed on the positions of seeded self-play matches, so that an engine
//! author can time theirs against it in one process.
//!
//! - `codevs-reborn/play-own-field`: every player-turn of a few self-played matches (the
//!   player as it was before the turn, the turn's pack and the built-in player's command),
//!   replayed on copies; throughput in player-turns.
//!
//! Before criterion runs, the bench prints shinpan's player-turns per second beside the figure
//! of issue 27's target: a contestant's bitboard simulator (tanzaku/codevs-reborn-lib, Rust,
//! column bitboards and pext) measured on this workload at 7.93 M player-turns/s. That peer is
//! measured only in a scratch harness outside the repository (its code is never part of
//! shinpan), so the figure here is a constant from that measurement, on that machine.

use std::time::{Duration, Instant};

mod common;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use shinpan::games::codevs_reborn::engine::play_own_field;
use shinpan::games::codevs_reborn::protocol::Command;
use shinpan::games::codevs_reborn::state::{Pack, Player};

/// Player-turns per second of tanzaku/codevs-reborn-lib on this workload, as measured side by
/// side with shinpan in one process (issue 27), in the scratch harness only.
const PEER_TURNS_PER_SECOND: f64 = 7.93e6;

/// Player-turns per second over `turns`, the best of a few passes on fresh copies.
fn turns_per_second(turns: &[(Player, Pack, Command)]) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..200 {
        let mut copies = turns.to_vec();
        let start = Instant::now();
        for (player, pack, command) in copies.iter_mut() {
            play_own_field(std::hint::black_box(player), *pack, *command);
        }
        best = best.min(start.elapsed());
        std::hint::black_box(&copies);
    }
    turns.len() as f64 / best.as_secs_f64()
}

fn one_turn(c: &mut Criterion) {
    let turns = common::reborn_turns(0..5);
    let rate = turns_per_second(&turns);
    println!(
        "codevs-reborn play-own-field: {:.2} M player-turns/s; target {:.2} M (tanzaku/codevs-reborn-lib \
         measured in the scratch harness of issue 27, not here): {:.2}x",
        rate / 1e6,
        PEER_TURNS_PER_SECOND / 1e6,
        rate / PEER_TURNS_PER_SECOND
    );
    let mut group = c.benchmark_group("codevs-reborn");
    group.throughput(Throughput::Elements(turns.len() as u64));
    group.bench_function("play-own-field", |b| {
        b.iter_batched_ref(
            || turns.clone(),
            |turns| {
                for (player, pack, command) in turns.iter_mut() {
                    play_own_field(player, *pack, *command);
                }
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, one_turn);
criterion_main!(benches);

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

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use shinpan::games::codevs4::rules::{Cell, Kind};
use shinpan::games::codevs4::state::{State, Unit, Units};
use shinpan::games::codevs4::{random_orders, Codevs4};
use shinpan::rng::seeded;
use shinpan::seam::{Game, Reply};
use shinpan::selfplay::{match_steps, Prompts};

/// 200 units a side on a 20×20 checkerboard at (40..60, 40..60): player 0 on the even cells,
/// player 1 on the odd, knights, fighters and assassins in turn; castles far away.
fn contact() -> State {
    let kinds = [Kind::Knight, Kind::Fighter, Kind::Assassin];
    let mut units = vec![
        Unit::new(0, 0, Kind::Castle, Cell { x: 0, y: 0 }),
        Unit::new(6, 1, Kind::Castle, Cell { x: 99, y: 99 }),
    ];
    let mut id = 12;
    for y in 40..60 {
        for x in 40..60 {
            let owner = ((x + y) % 2) as usize;
            units.push(Unit::new(
                id,
                owner,
                kinds[(id % 3) as usize],
                Cell { x, y },
            ));
            id += 1;
        }
    }
    State {
        units: Units(units),
        ..State::default()
    }
}

fn contact_turns(c: &mut Criterion) {
    let game = Codevs4;
    let state = contact();
    let mut rngs = [seeded(9, 1), seeded(9, 2)];
    let replies: Vec<Reply> = (0..2)
        .map(|p| Reply::text(random_orders(&state, p, &mut rngs[p]).print()))
        .collect();
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

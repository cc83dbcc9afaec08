//! The smallest public step of CODE VS Reborn: one player's turn on their own field
//! ([`play_own_field`]), timed on the positions of seeded self-play matches, so that an engine
//! author can time theirs against it in one process.
//!
//! - `codevs-reborn/play-own-field`: every player-turn of a few self-played matches (the
//!   player as it was before the turn, the turn's pack and the built-in player's command),
//!   replayed on copies; throughput in player-turns.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use shinpan::games::codevs_reborn::engine::play_own_field;
use shinpan::games::codevs_reborn::protocol::Command;
use shinpan::games::codevs_reborn::state::{Pack, Player};
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::selfplay::{play_random_match, Prompts};

/// Every player-turn of the matches of `seeds`: the player before it, the pack, the command.
fn turns(seeds: std::ops::Range<u64>) -> Vec<(Player, Pack, Command)> {
    let mut out = Vec::new();
    for seed in seeds {
        play_random_match(
            &CodevsReborn,
            seed,
            &Default::default(),
            Prompts::Skipped,
            |state, exchange| {
                let pack = state.packs[state.turn as usize];
                for (player, reply) in state.players.iter().zip(&exchange.replies) {
                    if let Ok(command) = Command::parse(reply) {
                        out.push((player.clone(), pack, command));
                    }
                }
                true
            },
        );
    }
    out
}

fn one_turn(c: &mut Criterion) {
    let turns = turns(0..5);
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

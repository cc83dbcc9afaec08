//! Workloads more than one benchmark times (each bench is a crate of its own; `mod common;`).

#![allow(dead_code, reason = "each bench uses some of these workloads, not all")]

use shinpan::games::codevs4::random_orders;
use shinpan::games::codevs4::rules::{Cell, Kind};
use shinpan::games::codevs4::state::{State as Codevs4State, Unit, Units};
use shinpan::games::codevs_reborn::protocol::Command;
use shinpan::games::codevs_reborn::state::{Pack, Player};
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::rng::seeded;
use shinpan::seam::Reply;
use shinpan::selfplay::{play_random_match, Prompts};

/// CODE VS Reborn: every player-turn of the self-played matches of `seeds`: the player before
/// it, the pack, the command.
pub fn reborn_turns(seeds: std::ops::Range<u64>) -> Vec<(Player, Pack, Command)> {
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

/// CODE VS 4.0: 200 units a side on a 20×20 checkerboard at (40..60, 40..60), player 0 on the
/// even cells, player 1 on the odd, knights, fighters and assassins in turn; castles far away.
pub fn codevs4_contact() -> Codevs4State {
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
    Codevs4State {
        units: Units(units),
        ..Codevs4State::default()
    }
}

/// CODE VS 4.0: [`codevs4_contact`] and both players' outputs for it, every unit ordered (the
/// built-in player's orders, as text the engine reads).
pub fn codevs4_contact_turn() -> (Codevs4State, Vec<Reply>) {
    let state = codevs4_contact();
    let mut rngs = [seeded(9, 1), seeded(9, 2)];
    let replies = (0..2)
        .map(|p| Reply::text(random_orders(&state, p, &mut rngs[p]).print()))
        .collect();
    (state, replies)
}

//! The public one-turn step of CODE VS Reborn (issue 16): a speed comparison had to stitch
//! private steps together. `play_own_field` is public now; this checks it is the turn the
//! whole engine plays, on every player-turn of a few self-played matches.

use shinpan::games::codevs_reborn::engine::play_own_field;
use shinpan::games::codevs_reborn::protocol::Command;
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::seam::{Game, Reply};
use shinpan::selfplay::{play_random_match, Prompts};

#[test]
fn one_players_turn_is_the_turn_the_engine_plays() {
    let mut compared = 0;
    for seed in 0..3 {
        play_random_match(
            &CodevsReborn,
            seed,
            &Default::default(),
            Prompts::Skipped,
            |state, exchange| {
                let mut whole = state.clone();
                let replies: Vec<Reply> = exchange.replies.iter().map(Reply::text).collect();
                CodevsReborn.step(&mut whole, &replies).unwrap();
                let pack = state.packs[state.turn as usize];
                for (p, reply) in exchange.replies.iter().enumerate() {
                    let mut own = state.players[p].clone();
                    play_own_field(&mut own, pack, Command::parse(reply).unwrap());
                    let after = &whole.players[p];
                    // What the opponent changes (gauge decrease, stock) is left to the step.
                    assert_eq!(own.field, after.field, "seed {seed}, turn {}", state.turn);
                    assert_eq!(
                        (own.score, own.turn_score, own.chains, own.ojama_sent),
                        (
                            after.score,
                            after.turn_score,
                            after.chains,
                            after.ojama_sent
                        ),
                        "seed {seed}, turn {}",
                        state.turn
                    );
                    assert_eq!(
                        (own.skill_used, own.exploded_blocks),
                        (after.skill_used, after.exploded_blocks)
                    );
                    compared += 1;
                }
                true
            },
        );
    }
    assert!(compared > 100, "{compared}");
}

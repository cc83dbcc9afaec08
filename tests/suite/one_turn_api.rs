//! The public one-turn step of each game (issue 16 for CODE VS Reborn, issue 27 for the
//! others): a bot author plays a turn from typed commands without a match or reply text. Each
//! test checks, on every turn of a few self-played matches, that the one-turn function on a
//! copy of the state before the turn, fed the parsed replies, leaves the state `Game::step`
//! leaves with the text replies; and that the commands changed something (against the same
//! turn with commands that do nothing), so that a one-turn function which dropped them, and the
//! step with it, would not pass. The last test keeps README's snippets the example's code.

use std::ops::Range;

use shinpan::games::cedec2013::Cedec2013;
use shinpan::games::codevs4::Codevs4;
use shinpan::games::codevs_reborn::engine::play_own_field;
use shinpan::games::codevs_reborn::protocol::Command;
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::games::spring2022::Spring2022;
use shinpan::games::tsg_auto_chess::TsgAutoChess;
use shinpan::games::{cedec2013, codevs4, spring2022, tsg_auto_chess};
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

/// Plays the self-played matches of `seeds` to their end (or `max_steps` steps), and for each
/// step hands `turn` where it is (`seed S, step N`), the state before it, the replies' texts
/// and the state `Game::step` left with them; `turn` checks its one-turn function and says
/// whether the commands changed anything. Checks that at least half the turns it compared had
/// commands that mattered.
fn each_turn<G: Game>(
    game: &G,
    seeds: Range<u64>,
    max_steps: usize,
    mut turn: impl FnMut(&str, &G::State, &[String], &G::State) -> Option<bool>,
) {
    let (mut compared, mut mattered) = (0, 0);
    for seed in seeds {
        let mut steps = 0;
        play_random_match(
            game,
            seed,
            &Default::default(),
            Prompts::Skipped,
            |state, exchange| {
                let mut whole = state.clone();
                let replies: Vec<Reply> = exchange.replies.iter().map(Reply::text).collect();
                game.step(&mut whole, &replies).unwrap();
                let at = format!("seed {seed}, step {steps}");
                if let Some(changed) = turn(&at, state, &exchange.replies, &whole) {
                    compared += 1;
                    mattered += usize::from(changed);
                }
                steps += 1;
                steps < max_steps
            },
        );
    }
    assert!(compared >= 50, "only {compared} turns compared");
    assert!(
        mattered * 2 >= compared,
        "the commands changed the state on {mattered} of {compared} turns"
    );
}

#[test]
fn a_cedec2013_turn_is_the_turn_the_engine_plays() {
    use cedec2013::engine::play_turn;
    use cedec2013::protocol::Command;
    each_turn(&Cedec2013, 0..3, usize::MAX, |at, state, replies, whole| {
        // Round 0 is the name exchange, which `play_turn` does not play.
        if state.round == 0 {
            return None;
        }
        let commands: Vec<Command> = replies[0]
            .split('\n')
            .map(|line| Command::parse(line).unwrap())
            .collect();
        let mut own = state.clone();
        let results = play_turn(&mut own, &commands);
        assert_eq!(&own, whole, "{at}");
        assert!(results.iter().all(Result::is_ok), "{at}: {results:?}");
        let mut idle = state.clone();
        play_turn(&mut idle, &[]);
        Some(idle != own)
    });
}

#[test]
fn a_codevs4_turn_is_the_turn_the_engine_plays() {
    use codevs4::engine::play_turn;
    use codevs4::protocol::Orders;
    each_turn(&Codevs4, 0..2, 400, |at, state, replies, whole| {
        let orders = [0, 1].map(|p| Orders::parse(&replies[p]).unwrap());
        let mut own = state.clone();
        play_turn(&mut own, [&orders[0], &orders[1]]);
        assert_eq!(&own, whole, "{at}");
        let mut idle = state.clone();
        let none = Orders::default();
        play_turn(&mut idle, [&none, &none]);
        Some(idle != own)
    });
}

#[test]
fn a_tsg_auto_chess_turn_is_the_turn_the_engine_plays() {
    use tsg_auto_chess::engine::play_turn;
    use tsg_auto_chess::protocol::{Command, TurnReply};
    each_turn(
        &TsgAutoChess,
        0..3,
        usize::MAX,
        |at, state, replies, whole| {
            let read = [0, 1].map(|p| TurnReply::parse(&replies[p]).unwrap());
            let mut own = state.clone();
            play_turn(&mut own, [&read[0], &read[1]]);
            assert_eq!(&own, whole, "{at}");
            let mut idle = state.clone();
            let nop = TurnReply {
                command: Command::Nop,
                moves: Vec::new(),
            };
            play_turn(&mut idle, [&nop, &nop]);
            Some(idle != own)
        },
    );
}

#[test]
fn a_spring2022_turn_is_the_turn_the_engine_plays() {
    use spring2022::engine::play_turn;
    use spring2022::protocol::Reply as HeroOrders;
    each_turn(
        &Spring2022,
        0..3,
        usize::MAX,
        |at, state, replies, whole| {
            let read = [0, 1].map(|p| HeroOrders::parse(&replies[p]).unwrap());
            let mut own = state.clone();
            play_turn(&mut own, [&read[0], &read[1]]);
            assert_eq!(&own, whole, "{at}");
            let mut idle = state.clone();
            let wait = HeroOrders::parse("WAIT\nWAIT\nWAIT").unwrap();
            play_turn(&mut idle, [&wait, &wait]);
            Some(idle != own)
        },
    );
}

/// README's section "One-turn API" shows a function of `examples/one_turn.rs` for each game,
/// word for word: the example is compiled by `cargo test`, the README is not.
#[test]
fn readme_shows_the_compiled_one_turn_example() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example = std::fs::read_to_string(format!("{root}/examples/one_turn.rs")).unwrap();
    let start = readme.find("\n## One-turn API\n").expect("the section");
    let section = &readme[start + 1..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let snippets: Vec<&str> = section
        .split("```rust\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap())
        .collect();
    assert_eq!(snippets.len(), 5, "one snippet a game");
    for snippet in snippets {
        assert!(
            snippet.starts_with("fn ") && example.contains(snippet),
            "README's snippet is not a function of examples/one_turn.rs:\n{snippet}"
        );
    }
}

/// The example runs to its end: a command it builds that a game refuses would show in what it
/// prints, but a panic (an `expect` that found nothing) fails here.
#[test]
fn the_one_turn_example_runs() {
    let exe = std::env::current_exe().unwrap();
    let examples = exe.parent().unwrap().parent().unwrap().join("examples");
    let output = std::process::Command::new(examples.join("one_turn"))
        .output()
        .expect("cargo test builds the example");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 5, "{stdout}");
}

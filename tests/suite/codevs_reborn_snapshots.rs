//! Snapshots (insta) of what a person reads of CODE VS Reborn: prompts, parser error messages,
//! and a golden playthrough of a whole seeded match. A change shows up as a diff to review
//! with `cargo insta review`.

use shinpan::game::{DynGame, Game};
use shinpan::games::codevs_reborn::state::State;
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::selfplay::golden_match;

use crate::common;

fn state(yaml: &str) -> State {
    serde_yaml::from_str(yaml).unwrap()
}

#[test]
fn prompt_after_the_first_turn() {
    let s = state(
        "turn: 3\n\
         players:\n\
         - {ojama_stock: 12, skill_gauge: 80, score: 7, time_left_ms: 179000, field: \"X.........\\n19.5......\\n\"}\n\
         - {score: 2, field: \"........55\\n\"}\n",
    );
    common::game_snapshots("codevs-reborn").bind(|| {
        insta::assert_snapshot!("prompt_after_the_first_turn", CodevsReborn.prompt(&s, 0))
    });
}

#[test]
fn parser_error_messages() {
    let game = &CodevsReborn as &dyn DynGame;
    let inputs: &[(&str, &str)] = &[
        ("reply", "a 100"),
        ("reply", "9 0"),
        ("reply", "2  0"),
        ("reply", "2 0\r"),
        ("reply", ""),
        ("reply", "S 1"),
        ("reply", "8 3"),
        ("name", "bad:name"),
        ("name", ""),
        ("turn", "0\n"),
        ("turn", "500\n"),
        ("turn", "0\n180000\n0\n0\n0\n0 0 0\n"),
        ("packs", "1 2\n3 4\nEND\n"),
        ("packs", "1 2\n3 10\nEND\n"),
        ("packs", "1 2 3\n"),
    ];
    common::game_snapshots("codevs-reborn").bind(|| {
        insta::assert_snapshot!(
            "parser_error_messages",
            common::describe_parses(game, inputs)
        )
    });
}

#[test]
fn golden_playthrough_seed_1() {
    let game = CodevsReborn;
    let mut out = String::new();
    let (outcome, steps) = golden_match(&game, 1, |state, exchange| {
        out.push_str(&format!("=== turn {} ===\n", state.turn));
        for (p, (prompt, reply)) in exchange.prompts.iter().zip(&exchange.replies).enumerate() {
            out.push_str(&format!(
                "--- prompt to player {p} ---\n{prompt}--- reply of player {p} ---\n{reply}\n"
            ));
        }
    });
    out.push_str(&format!("=== end after {steps} turns: {outcome:?} ===\n"));
    common::game_snapshots("codevs-reborn")
        .bind(|| insta::assert_snapshot!("golden_playthrough_seed_1", out));
}

//! Snapshots (insta) of what a person reads of CODE VS Reborn: a prompt after the first turn. A
//! change shows up as a diff to review with `cargo insta review`. Its parser error messages and
//! golden playthrough, as every game's, are in `every_game.rs`.

use shinpan::games::codevs_reborn::state::State;
use shinpan::games::codevs_reborn::CodevsReborn;
use shinpan::seam::Game;

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

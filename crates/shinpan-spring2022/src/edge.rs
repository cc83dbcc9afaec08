//! Valid prompts at the extremes of Spring Challenge 2022, for the bot checker: the most
//! entities a prompt can hold, entities on every border and corner of the map, shields and
//! CONTROLs at their limits, the largest mana and the smallest base health, negative speeds,
//! the last turn.
//!
//! Each case's first state is turn 1, whose prompt carries the start block a fresh bot reads
//! first; a later state follows where the extreme belongs to a later turn.

use super::rules::{League, MAP_HEIGHT, MAP_WIDTH, SHIELD_DURATION, TURNS};
use super::state::{Mob, MobStatus, State};
use super::vision::remember_statuses;
use super::Spring2022;
use shinpan_core::seam::{EdgeCase, EdgeCases};

/// The largest mana the state allows (`validate`).
const MOST_MANA: i32 = 100_000_000;

impl EdgeCases for Spring2022 {
    fn edge_cases(&self) -> Vec<EdgeCase<State>> {
        let mut cases = Vec::new();
        for seat in 0..2 {
            let suffix = if seat == 0 { "" } else { "-seat-1" };
            let case = |name: &str, states: Vec<State>| EdgeCase {
                name: format!("{name}{suffix}"),
                seat,
                states: states.into_iter().map(with_statuses).collect(),
            };
            cases.push(case("most-entities", vec![crowded()]));
            cases.push(case("entities-on-every-border", vec![borders()]));
            cases.push(case("shields-and-controls-at-their-limits", vec![limits()]));
            cases.push(case(
                "first-turn-then-the-last",
                vec![State::default(), last_turn()],
            ));
            let mut wood2 = crowded();
            wood2.league = League::Wood2;
            cases.push(case("wood2-no-fog", vec![wood2]));
        }
        cases
    }
}

fn with_statuses(mut state: State) -> State {
    remember_statuses(&mut state);
    state
}

fn mob(id: i32, x: i32, y: i32) -> Mob {
    Mob {
        id,
        x,
        y,
        vx: -283.0,
        vy: 400.0,
        health: 30,
        ..Mob::default()
    }
}

/// 200 mobs inside the map, each within sight of a hero or a base: far more than a match
/// makes (4 a wave), every line a prompt may carry.
fn crowded() -> State {
    let mut state = State::default();
    for (i, hero) in state.heroes.iter_mut().enumerate() {
        hero.x = 2_000 + 2_700 * i as i32;
        hero.y = 4_500;
    }
    for k in 0..200 {
        let x = (k * 88) % (MAP_WIDTH + 1);
        let y = 2_500 + (k * 37) % 4_000;
        state.mobs.push(mob(6 + k, x, y));
    }
    state.next_id = Some(206);
    state
}

/// Heroes and mobs on the four borders and at the four corners (each side sees its own base's
/// corner and its heroes' borders).
fn borders() -> State {
    let mut state = State::default();
    let spots = [
        (0, 0),
        (MAP_WIDTH, 0),
        (0, MAP_HEIGHT),
        (MAP_WIDTH, MAP_HEIGHT),
        (MAP_WIDTH / 2, 0),
        (MAP_WIDTH / 2, MAP_HEIGHT),
        (0, MAP_HEIGHT / 2),
        (MAP_WIDTH, MAP_HEIGHT / 2),
    ];
    let heroes = [
        (0, 4_500),
        (8_815, 0),
        (0, 9_000),
        (17_630, 4_500),
        (8_815, 9_000),
        (17_630, 0),
    ];
    for (hero, &(x, y)) in state.heroes.iter_mut().zip(&heroes) {
        hero.x = x;
        hero.y = y;
    }
    for (k, &(x, y)) in spots.iter().enumerate() {
        state.mobs.push(mob(6 + k as i32, x, y));
    }
    state.next_id = Some(6 + spots.len() as i32);
    state
}

/// Shields at 12 (just cast) and 1 (last turn), heroes and mobs under CONTROL, huge mana,
/// bases at 1 health, a mob with the referee's fractional speed after a redirection.
fn limits() -> State {
    let mut state = State::default();
    for (i, hero) in state.heroes.iter_mut().enumerate() {
        hero.shield = if i % 2 == 0 { SHIELD_DURATION } else { 1 };
        if i % 3 == 0 {
            hero.controls = vec![[0, 0], [MAP_WIDTH, MAP_HEIGHT]];
        }
    }
    for player in &mut state.players {
        player.mana = MOST_MANA;
        player.wild_mana = MOST_MANA;
        player.base_health = 1;
    }
    let mut shielded = mob(6, 3_000, 3_000);
    shielded.shield = SHIELD_DURATION;
    let mut controlled = mob(7, 14_630, 6_000);
    controlled.controls = vec![[0, 0]; 6];
    let mut redirected = mob(8, 4_000, 1_000);
    redirected.vx = -399.99;
    redirected.vy = -2.5;
    redirected.status = Some(MobStatus {
        near_base: false,
        target: None,
    });
    state.mobs = vec![shielded, controlled, redirected];
    state.next_id = Some(9);
    state
}

/// Turn 220, sudden death's mobs heading for both bases.
fn last_turn() -> State {
    let mut state = State {
        turn: TURNS,
        ..State::default()
    };
    state.spawner.last_turn = 216;
    state.spawner.max_health = 31.5;
    state.mobs = vec![mob(300, 2_000, 2_000), mob(301, 15_630, 7_000)];
    state.next_id = Some(302);
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Prompt;
    use crate::Spring2022;
    use shinpan_core::seam::Game;

    #[test]
    fn every_edge_case_is_valid_and_prints_a_strict_prompt() {
        for case in Spring2022.edge_cases() {
            for state in &case.states {
                assert_eq!(Spring2022.validate(state), Ok(()), "{}", case.name);
                let text = Spring2022.prompt(state, case.seat);
                assert_eq!(
                    Prompt::parse(&text).map(|p| p.print()),
                    Ok(text),
                    "{}",
                    case.name
                );
            }
            assert_eq!(case.states[0].turn, 1, "{}", case.name);
        }
    }
}

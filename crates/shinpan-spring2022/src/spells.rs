//! The three spells (D-spring-5, -6, -7), each resolved for every caster in turn — all CONTROLs,
//! then all SHIELDs, then (after the heroes moved and fought) all WINDs; within a spell player
//! 0's heroes before player 1's, hero by hero. Mana is checked as each spell resolves, and a
//! spell that finds its target spends its mana even when the target's shield stops it.

use super::geometry::Vector;
use super::rules::{
    base_wall_intersection, in_attraction_zone, inside_visible_map, owner_of_hero, redirect_speed,
    snap_to_map, CENTRE, SHIELD_DURATION, SPELL_COST, WIND_DISTANCE, WIND_RADIUS,
};
use super::state::State;
use super::vision::hero_sees;

/// An entity a spell can reach: a hero by index, or a mob by its place in the mob list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Hero(usize),
    Mob(usize),
}

/// D-spring-7: a shield cast this turn shows 13 until the end of the turn and is not active
/// yet; active from 12 down to 1.
pub fn shield_active(shield: i32) -> bool {
    shield > 0 && shield < SHIELD_DURATION + 1
}

fn position(state: &State, target: Target) -> Vector {
    match target {
        Target::Hero(i) => state.heroes[i].pos(),
        Target::Mob(i) => state.mobs[i].pos(),
    }
}

fn shield_of(state: &State, target: Target) -> i32 {
    match target {
        Target::Hero(i) => state.heroes[i].shield,
        Target::Mob(i) => state.mobs[i].shield,
    }
}

/// The entity with this id among those inside the map, heroes first.
fn find(state: &State, id: i32) -> Option<Target> {
    let hero = (0..state.heroes.len())
        .find(|&i| i as i32 == id && inside_visible_map(state.heroes[i].pos()))
        .map(Target::Hero);
    hero.or_else(|| {
        state
            .mobs
            .iter()
            .position(|m| m.id == id && inside_visible_map(m.pos()))
            .map(Target::Mob)
    })
}

/// The target of a SHIELD or CONTROL by `caster`, with its mana spent, or `None` when the
/// spell fails before that: too little mana, no such entity in the map, or out of the caster's
/// sight (D-spring-7: checked in that order, nothing spent).
fn reach(state: &mut State, caster: usize, id: i32) -> Option<Target> {
    let owner = owner_of_hero(caster);
    if state.players[owner].mana < SPELL_COST {
        return None;
    }
    let target = find(state, id)?;
    if !hero_sees(
        state.league,
        state.heroes[caster].pos(),
        position(state, target),
    ) {
        return None;
    }
    state.players[owner].mana -= SPELL_COST;
    Some(target)
}

/// D-spring-6: CONTROL `id` toward `(x, y)`. A hero obeys on its next reply; a mob's control
/// waits for the next turn (`next_controls`, by mob index).
pub fn control(
    state: &mut State,
    next_controls: &mut [Vec<[i32; 2]>],
    caster: usize,
    id: i32,
    destination: [i32; 2],
) {
    let Some(target) = reach(state, caster, id) else {
        return;
    };
    if shield_active(shield_of(state, target)) {
        return;
    }
    match target {
        Target::Hero(i) => state.heroes[i].controls.push(destination),
        Target::Mob(i) => next_controls[i].push(destination),
    }
}

/// D-spring-7: SHIELD `id`: 13 now (12 after this turn's decay); refused, mana spent, when a
/// shield is already active.
pub fn shield(state: &mut State, caster: usize, id: i32) {
    shield_lasting(state, caster, id, SHIELD_DURATION + 1);
}

/// [`shield`] set to `duration` (the variant `shield-one-turn-short` sets 12).
pub fn shield_lasting(state: &mut State, caster: usize, id: i32, duration: i32) {
    let Some(target) = reach(state, caster, id) else {
        return;
    };
    if shield_active(shield_of(state, target)) {
        return;
    }
    match target {
        Target::Hero(i) => state.heroes[i].shield = duration,
        Target::Mob(i) => state.mobs[i].shield = duration,
    }
}

/// One WIND cast: the caster and where it points.
#[derive(Debug, Clone, Copy)]
pub struct Wind {
    pub caster: usize,
    pub toward: [i32; 2],
}

/// D-spring-5: every WIND in order, then every push. Returns which mobs were pushed (they do
/// not move this turn).
pub fn winds(state: &mut State, casts: &[Wind], pushed: &mut [bool]) {
    // Each pushed entity with its pushes, in the order it was first pushed.
    let mut pushes: Vec<(Target, Vec<Vector>)> = Vec::new();
    for cast in casts {
        let owner = owner_of_hero(cast.caster);
        if state.players[owner].mana < SPELL_COST {
            continue;
        }
        state.players[owner].mana -= SPELL_COST;
        let from = state.heroes[cast.caster].pos();
        let toward = Vector::from_ints(cast.toward[0], cast.toward[1]);
        let push = Vector::between(from, toward)
            .normalize()
            .mult(f64::from(WIND_DISTANCE));
        let heroes = (0..state.heroes.len())
            .filter(|&i| owner_of_hero(i) != owner)
            .map(Target::Hero);
        let mobs = (0..state.mobs.len()).map(Target::Mob);
        for target in heroes.chain(mobs) {
            let at = position(state, target);
            if !inside_visible_map(at)
                || !at.in_range(from, f64::from(WIND_RADIUS))
                || shield_active(shield_of(state, target))
            {
                continue;
            }
            match pushes.iter_mut().find(|(t, _)| *t == target) {
                Some((_, list)) => list.push(push),
                None => pushes.push((target, vec![push])),
            }
        }
    }
    // Point-symmetric landing places share one draw (D-spring-5), within this turn.
    let mut draws: Vec<([(i64, i64); 2], f64)> = Vec::new();
    let mut rng = state.random();
    for (target, list) in pushes {
        let from = position(state, target);
        let mut sum = list[0];
        for &p in &list[1..] {
            sum = sum.plus(p);
        }
        let mut landing = from.plus(sum).symmetric_truncate(CENTRE);
        let wall = base_wall_intersection(from, landing);
        match target {
            Target::Hero(i) => {
                landing = snap_to_map(wall.unwrap_or(landing));
                state.heroes[i].set_pos(landing);
            }
            Target::Mob(i) => {
                if let Some(w) = wall {
                    landing = snap_to_map(w);
                } else if in_attraction_zone(from) && !in_attraction_zone(landing) {
                    let key = pair_key(landing);
                    let (draw, mirrored) = match draws.iter().find(|(k, _)| *k == key) {
                        Some(&(_, d)) => (d, true),
                        None => {
                            let d = rng.next_double();
                            draws.push((key, d));
                            (d, false)
                        }
                    };
                    state.mobs[i].set_speed(redirect_speed(draw, mirrored));
                }
                state.mobs[i].set_pos(landing);
                state.mobs[i].status = None;
                pushed[i] = true;
            }
        }
    }
    state.rng = rng.seed;
}

/// The unordered pair {p, p mirrored through the centre}, as a key.
fn pair_key(p: Vector) -> [(i64, i64); 2] {
    let m = p.symmetric(CENTRE);
    let a = (p.x as i64, p.y as i64);
    let b = (m.x as i64, m.y as i64);
    if a <= b {
        [a, b]
    } else {
        [b, a]
    }
}

//! The built-in player: a seeded random player that plays like a weak real bot — heroes chase
//! the nearest mob or wander, and with mana cast every spell its league has (WIND at what is
//! near toward the enemy base, SHIELD on an own hero or a mob, CONTROL of a mob or an enemy
//! hero). Every reply is legal and strictly well formed; failing spells are legal too.

use rand::{Rng, RngCore};

use super::geometry::Vector;
use super::protocol::Command;
use super::rules::{
    base_of, owner_of_hero, HEROES, HEROES_PER_PLAYER, HERO_VIEW_RADIUS, MAP_HEIGHT, MAP_WIDTH,
    SPELL_COST, WIND_RADIUS,
};
use super::state::{Mob, State};
use super::vision::{mob_status, Sight};

/// The three lines of `player`'s reply.
pub fn reply(state: &State, player: usize, rng: &mut dyn RngCore) -> String {
    let mut mana = state.players[player].mana;
    let enemy_base = base_of(1 - player);
    let mut out = String::with_capacity(64);
    // What the heroes go for, from the mobs the player sees: mobs heading for the own base
    // first (nearest the base), else the mob nearest the hero.
    let sight = Sight::of(state, player);
    let home = base_of(player);
    let heroes: [Vector; HEROES_PER_PLAYER] =
        std::array::from_fn(|k| state.heroes[player * HEROES_PER_PLAYER + k].pos());
    let mut threat = None;
    let mut nearest = [None; HEROES_PER_PLAYER];
    for mob in state.mobs.iter().filter(|m| sight.sees(m.pos())) {
        if mob_status(mob).target == Some(player) {
            keep_closer(&mut threat, home, mob);
        }
        for (best, &at) in nearest.iter_mut().zip(&heroes) {
            keep_closer(best, at, mob);
        }
    }
    for k in 0..HEROES_PER_PLAYER {
        let at = heroes[k];
        if k > 0 {
            out.push('\n');
        }
        if mana >= SPELL_COST && rng.random_ratio(1, 3) && spell(state, player, at, rng, &mut out) {
            mana -= SPELL_COST;
            continue;
        }
        let roll = rng.random_range(0..20u32);
        if roll == 0 {
            Command::Wait.print_to(&mut out);
            continue;
        }
        let (x, y) = match threat.or(nearest[k]) {
            Some((_, x, y)) if roll > 3 => (x, y),
            _ if roll == 1 => (enemy_base.x as i32, enemy_base.y as i32),
            _ => {
                // A post within 6000 of the own base.
                let dx = rng.random_range(1_000..=6_000);
                let dy = rng.random_range(1_000..=6_000);
                if player == 0 {
                    (dx, dy)
                } else {
                    (MAP_WIDTH - dx, MAP_HEIGHT - dy)
                }
            }
        };
        Command::Move { x, y }.print_to(&mut out);
        if roll == 2 {
            out.push_str(" go");
        }
    }
    out
}

/// A mob, its squared distance from where it is looked for: the nearest, first of equals.
type Closest = Option<(f64, i32, i32)>;

fn keep_closer(best: &mut Closest, from: Vector, mob: &Mob) {
    let d = Vector::between(from, mob.pos()).length_squared();
    if best.is_none_or(|(b, _, _)| d.total_cmp(&b).is_lt()) {
        *best = Some((d, mob.x, mob.y));
    }
}

/// Writes a spell for hero `h` when one makes sense; false when none does.
fn spell(
    state: &State,
    player: usize,
    at: Vector,
    rng: &mut dyn RngCore,
    out: &mut String,
) -> bool {
    let league = state.league;
    if !league.wind() {
        return false;
    }
    let kind = if league.shield_and_control() {
        rng.random_range(0..3u32)
    } else {
        0
    };
    let enemy_base = base_of(1 - player);
    let near = |p: Vector, r: i32| at.in_range(p, f64::from(r));
    match kind {
        0 => {
            let pushable = state.mobs.iter().any(|m| near(m.pos(), WIND_RADIUS))
                || (0..HEROES).any(|i| {
                    owner_of_hero(i) != player && near(state.heroes[i].pos(), WIND_RADIUS)
                });
            if !pushable {
                return false;
            }
            Command::Wind {
                x: enemy_base.x as i32,
                y: enemy_base.y as i32,
            }
            .print_to(out);
        }
        1 => {
            let mobs: Vec<i32> = state
                .mobs
                .iter()
                .filter(|m| near(m.pos(), HERO_VIEW_RADIUS))
                .map(|m| m.id)
                .collect();
            let id = if mobs.is_empty() || rng.random_bool(0.5) {
                (player * HEROES_PER_PLAYER + rng.random_range(0..HEROES_PER_PLAYER)) as i32
            } else {
                mobs[rng.random_range(0..mobs.len())]
            };
            Command::Shield { id }.print_to(out);
        }
        _ => {
            let mut targets: Vec<i32> = state
                .mobs
                .iter()
                .filter(|m| near(m.pos(), HERO_VIEW_RADIUS))
                .map(|m| m.id)
                .collect();
            targets.extend(
                (0..HEROES)
                    .filter(|&i| {
                        owner_of_hero(i) != player && near(state.heroes[i].pos(), HERO_VIEW_RADIUS)
                    })
                    .map(|i| i as i32),
            );
            if targets.is_empty() {
                return false;
            }
            let id = targets[rng.random_range(0..targets.len())];
            let (x, y) = if rng.random_bool(0.7) {
                (enemy_base.x as i32, enemy_base.y as i32)
            } else {
                (
                    rng.random_range(0..=MAP_WIDTH),
                    rng.random_range(0..=MAP_HEIGHT),
                )
            };
            Command::Control { id, x, y }.print_to(out);
        }
    }
    true
}

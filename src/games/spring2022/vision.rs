//! What a player sees (D-spring-1, D-spring-10: the fog) and what the prompt says of a mob
//! (D-spring-9: `nearBase`, `threatFor`), worked out as the referee works them out.

use super::geometry::Vector;
use super::protocol::{EntityLine, Prompt, Start};
use super::rules::{
    base_of, control_target, inside_visible_map, owner_of_hero, League, BASES,
    BASE_ATTRACTION_RADIUS, BASE_VIEW_RADIUS, CENTRE, HEROES_PER_PLAYER, HERO_VIEW_RADIUS,
    MOB_SPEED, NEAR_BASE, PLAYERS, STATUS_HORIZON, THREAT_ENEMY, THREAT_NONE, THREAT_YOU,
    TYPE_ENEMY_HERO, TYPE_MOB, TYPE_MY_HERO,
};
use super::state::{Mob, MobStatus, State};

/// Whether a hero at `hero` sees a point (and reaches it with SHIELD and CONTROL): within 2200,
/// or anywhere without fog.
pub fn hero_sees(league: League, hero: Vector, p: Vector) -> bool {
    !league.fog() || hero.in_range(p, f64::from(HERO_VIEW_RADIUS))
}

/// Whether `player` sees an entity at `p` (owned by `owner`): it must be inside the map; then
/// its own entities, anything within 6000 of its base, and anything one of its heroes sees.
pub fn player_sees(state: &State, player: usize, p: Vector, owner: Option<usize>) -> bool {
    Sight::of(state, player).sees_entity(p, owner)
}

/// What one player sees, taken once for many points: its base and its heroes' positions.
pub struct Sight {
    player: usize,
    league: League,
    base: Vector,
    heroes: [Vector; HEROES_PER_PLAYER],
}

impl Sight {
    pub fn of(state: &State, player: usize) -> Sight {
        Sight {
            player,
            league: state.league,
            base: base_of(player),
            heroes: std::array::from_fn(|k| state.heroes[player * HEROES_PER_PLAYER + k].pos()),
        }
    }

    /// Whether the player sees an entity of `owner` at `p`.
    pub fn sees_entity(&self, p: Vector, owner: Option<usize>) -> bool {
        owner == Some(self.player) && inside_visible_map(p) || self.sees(p)
    }

    /// Whether the player sees a point where no entity of its own stands: inside the map, and
    /// within 6000 of its base or seen by one of its heroes.
    pub fn sees(&self, p: Vector) -> bool {
        inside_visible_map(p)
            && (p.in_range(self.base, f64::from(BASE_VIEW_RADIUS))
                || self.heroes.iter().any(|&h| hero_sees(self.league, h, p)))
    }
}

/// The sights of the players still playing: the referee works out the status of every mob it
/// prints to one of them.
fn sights_of_the_active(state: &State) -> [Option<Sight>; PLAYERS] {
    std::array::from_fn(|p| {
        state.players[p]
            .deactivated
            .is_none()
            .then(|| Sight::of(state, p))
    })
}

/// The referee's status of a mob: kept while its speed is unchanged, worked out again under a
/// CONTROL (from the step toward the controls' average, not normalised).
pub fn mob_status(mob: &Mob) -> MobStatus {
    match mob.status {
        Some(status) if mob.controls.is_empty() => status,
        _ => work_out_status(mob),
    }
}

/// Fills in the status of every mob someone sees, as sending the prompts does. A kept status
/// of a mob under no CONTROL would be kept again: such mobs are skipped.
pub fn remember_statuses(state: &mut State) {
    let sights = sights_of_the_active(state);
    for mob in &mut state.mobs {
        if mob.status.is_some() && mob.controls.is_empty() {
            continue;
        }
        if sights.iter().flatten().any(|sight| sight.sees(mob.pos())) {
            mob.status = Some(mob_status(mob));
        }
    }
}

/// D-spring-9: follows the mob's path a turn at a time (the way it would move) until it is
/// inside an attraction zone (`nearBase` 1 if already there, and that base is the target) or
/// outside the map (no target; this wins when both hold). A standing mob has no target.
fn work_out_status(mob: &Mob) -> MobStatus {
    let position = mob.pos();
    let speed = match control_target(position, &mob.controls, MOB_SPEED) {
        Some(target) => Vector::between(position, target),
        None => mob.speed(),
    };
    let wandering = MobStatus {
        near_base: false,
        target: None,
    };
    if speed.is_zero() {
        return wandering;
    }
    let mut cur = position;
    for turns in 0..STATUS_HORIZON {
        let mut status = None;
        for (player, &base) in BASES.iter().enumerate() {
            if cur.in_range(base, f64::from(BASE_ATTRACTION_RADIUS)) {
                status = Some(MobStatus {
                    near_base: turns == 0,
                    target: Some(player),
                });
                break;
            }
        }
        if !inside_visible_map(cur) {
            status = Some(wandering);
        }
        if let Some(status) = status {
            return status;
        }
        cur = cur.plus(speed).symmetric_truncate(CENTRE);
    }
    wandering
}

/// The prompt `player` reads next.
pub fn prompt_of(state: &State, player: usize) -> Prompt {
    let opponent = 1 - player;
    let start = (state.turn == 1).then(|| {
        let base = base_of(player);
        Start {
            base_x: base.x as i32,
            base_y: base.y as i32,
            heroes_per_player: HEROES_PER_PLAYER as i32,
        }
    });
    let sight = Sight::of(state, player);
    let mut entities = Vec::with_capacity(HEROES_PER_PLAYER * 2 + state.mobs.len());
    for (i, hero) in state.heroes.iter().enumerate() {
        let owner = owner_of_hero(i);
        if !sight.sees_entity(hero.pos(), Some(owner)) {
            continue;
        }
        entities.push(EntityLine {
            id: i as i32,
            kind: if owner == player {
                TYPE_MY_HERO
            } else {
                TYPE_ENEMY_HERO
            },
            x: hero.x,
            y: hero.y,
            shield: hero.shield,
            controlled: i32::from(!hero.controls.is_empty()),
            health: -1,
            vx: -1,
            vy: -1,
            near_base: -1,
            threat_for: -1,
        });
    }
    for mob in &state.mobs {
        if !sight.sees(mob.pos()) {
            continue;
        }
        let status = mob_status(mob);
        let threat = match status.target {
            None => THREAT_NONE,
            Some(t) if t == player => THREAT_YOU,
            Some(_) => THREAT_ENEMY,
        };
        entities.push(EntityLine {
            id: mob.id,
            kind: TYPE_MOB,
            x: mob.x,
            y: mob.y,
            shield: mob.shield,
            controlled: i32::from(!mob.controls.is_empty()),
            health: mob.health,
            vx: mob.speed().int_x(),
            vy: mob.speed().int_y(),
            near_base: if status.near_base { NEAR_BASE } else { 0 },
            threat_for: threat,
        });
    }
    let me = &state.players[player];
    let them = &state.players[opponent];
    Prompt {
        start,
        bases: [[me.base_health, me.mana], [them.base_health, them.mana]],
        entities,
    }
}

//! What a player sees (D-spring-1, D-spring-10: the fog) and what the prompt says of a mob
//! (D-spring-9: `nearBase`, `threatFor`), worked out as the referee works them out.

use super::geometry::Vector;
use super::protocol::{EntityLine, Prompt, Start};
use super::rules::{
    base_of, control_target, inside_visible_map, owner_of_hero, League, BASES,
    BASE_ATTRACTION_RADIUS, BASE_VIEW_RADIUS, CENTRE, HEROES_PER_PLAYER, HERO_VIEW_RADIUS,
    MAP_HEIGHT, MAP_WIDTH, MOB_SPEED, NEAR_BASE, PLAYERS, STATUS_HORIZON, THREAT_ENEMY,
    THREAT_NONE, THREAT_YOU, TYPE_ENEMY_HERO, TYPE_MOB, TYPE_MY_HERO,
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
    /// `[min x, min y, max x, max y]` of what the base and the heroes can see, one unit wider
    /// all round: a point outside it is seen by none of them, whatever the rounding of the
    /// squares (a coordinate more than `r + 1` away has a square beyond `r * r` even rounded).
    reach: [f64; 4],
}

impl Sight {
    pub fn of(state: &State, player: usize) -> Sight {
        let league = state.league;
        let base = base_of(player);
        let heroes = std::array::from_fn(|k| state.heroes[player * HEROES_PER_PLAYER + k].pos());
        let reach = if league.fog() {
            let around = |c: Vector, r: i32| {
                let r = f64::from(r) + 1.0;
                [c.x - r, c.y - r, c.x + r, c.y + r]
            };
            heroes.iter().fold(around(base, BASE_VIEW_RADIUS), |b, &h| {
                let h = around(h, HERO_VIEW_RADIUS);
                [
                    b[0].min(h[0]),
                    b[1].min(h[1]),
                    b[2].max(h[2]),
                    b[3].max(h[3]),
                ]
            })
        } else {
            [
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::INFINITY,
            ]
        };
        Sight {
            player,
            league,
            base,
            heroes,
            reach,
        }
    }

    /// Whether the player sees an entity of `owner` at `p`.
    pub fn sees_entity(&self, p: Vector, owner: Option<usize>) -> bool {
        owner == Some(self.player) && inside_visible_map(p) || self.sees(p)
    }

    /// Whether the player sees a point where no entity of its own stands: inside the map, and
    /// within 6000 of its base or seen by one of its heroes.
    pub fn sees(&self, p: Vector) -> bool {
        let [min_x, min_y, max_x, max_y] = self.reach;
        inside_visible_map(p)
            && p.within_bounds(min_x, min_y, max_x, max_y)
            && (p.in_range(self.base, f64::from(BASE_VIEW_RADIUS))
                | (self.heroes.map(|h| hero_sees(self.league, h, p)) != [false; HEROES_PER_PLAYER]))
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
#[inline]
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
#[inline(never)]
fn work_out_status(mob: &Mob) -> MobStatus {
    let position = mob.pos();
    let speed = match control_target(position, &mob.controls, MOB_SPEED) {
        Some(target) => Vector::between(position, target),
        None => mob.speed(),
    };
    if speed.is_zero() {
        return WANDERING;
    }
    walk_whole(position, speed).unwrap_or_else(|| walk(position, speed))
}

const WANDERING: MobStatus = MobStatus {
    near_base: false,
    target: None,
};

/// The status of a mob at `position` moving at `speed`, as the referee walks it: `f64` points,
/// truncated toward the centre after each step.
fn walk(position: Vector, speed: Vector) -> MobStatus {
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
            status = Some(WANDERING);
        }
        if let Some(status) = status {
            return status;
        }
        cur = cur.plus(speed).symmetric_truncate(CENTRE);
    }
    WANDERING
}

/// Whole coordinates and speeds within this bound take [`walk_whole`].
const WHOLE_BOUND: f64 = 1_000_000.0;

/// [`walk`] in integers, when the position and the speed are whole and within a million: every
/// point of the walk is then whole (the truncation changes nothing) and within a few million,
/// so the sums and squares are exact both in `f64` and in `i64`, and the answer is the same.
/// `None` for other walks. Most mobs walk with a whole speed, and integers are quicker.
fn walk_whole(position: Vector, speed: Vector) -> Option<MobStatus> {
    // (`as i64` rather than `fract`, which is a library call on baseline x86-64.)
    let whole = |v: f64| v.abs() <= WHOLE_BOUND && v as i64 as f64 == v;
    if ![position.x, position.y, speed.x, speed.y]
        .into_iter()
        .all(whole)
    {
        return None;
    }
    let (mut x, mut y) = (position.x as i64, position.y as i64);
    let (vx, vy) = (speed.x as i64, speed.y as i64);
    let reach = i64::from(BASE_ATTRACTION_RADIUS).pow(2);
    let (width, height) = (i64::from(MAP_WIDTH), i64::from(MAP_HEIGHT));
    for turns in 0..STATUS_HORIZON {
        if !(0..=width).contains(&x) || !(0..=height).contains(&y) {
            return Some(WANDERING);
        }
        for (player, base) in BASES.iter().enumerate() {
            let (dx, dy) = (x - base.x as i64, y - base.y as i64);
            if dx * dx + dy * dy <= reach {
                return Some(MobStatus {
                    near_base: turns == 0,
                    target: Some(player),
                });
            }
        }
        x += vx;
        y += vy;
    }
    Some(WANDERING)
}

/// The prompt `player` reads next.
pub fn prompt_of(state: &State, player: usize) -> Prompt {
    prompt_seeing(state, player, false)
}

/// [`prompt_of`], with every hero shown wherever it stands when `heroes_through_fog` (the
/// variant `heroes-seen-through-fog`, never the rules).
pub fn prompt_seeing(state: &State, player: usize, heroes_through_fog: bool) -> Prompt {
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
        if !heroes_through_fog && !sight.sees_entity(hero.pos(), Some(owner)) {
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn coordinate() -> impl Strategy<Value = f64> {
        prop_oneof![
            (-1_000i32..19_000).prop_map(f64::from),
            (-2_000_000i32..2_000_000).prop_map(f64::from),
        ]
    }

    fn speed() -> impl Strategy<Value = f64> {
        prop_oneof![
            (-400i32..=400).prop_map(f64::from),
            (-3i32..=3).prop_map(f64::from),
            (-2_000_000i32..2_000_000).prop_map(f64::from),
        ]
    }

    proptest! {
        #[test]
        fn the_whole_walk_is_the_referees_walk(
            x in coordinate(), y in coordinate(), vx in speed(), vy in speed()
        ) {
            let (position, speed) = (Vector::new(x, y), Vector::new(vx, vy));
            prop_assume!(!speed.is_zero());
            if let Some(status) = walk_whole(position, speed) {
                prop_assert_eq!(status, walk(position, speed));
            }
        }
    }

    #[test]
    fn the_whole_walk_agrees_at_the_zone_and_map_borders() {
        let points = [
            (3000.0, 4000.0),
            (3000.0, 4001.0),
            (14630.0, 5000.0),
            (14630.0, 4999.0),
            (0.0, 0.0),
            (17630.0, 9000.0),
            (-1.0, 5000.0),
            (17631.0, 5000.0),
            (8000.0, -1.0),
            (8000.0, 9001.0),
        ];
        let speeds = [
            (-1.0, 0.0),
            (0.0, 1.0),
            (1.0, 1.0),
            (-282.0, -282.0),
            (400.0, 0.0),
        ];
        for (x, y) in points {
            for (vx, vy) in speeds {
                let (at, v) = (Vector::new(x, y), Vector::new(vx, vy));
                assert_eq!(walk_whole(at, v), Some(walk(at, v)), "{at:?} {v:?}");
            }
        }
        assert_eq!(
            walk(Vector::new(3000.0, 4000.0), Vector::new(1.0, 0.0)),
            MobStatus {
                near_base: true,
                target: Some(0)
            }
        );
    }

    #[test]
    fn a_fractional_or_far_walk_is_left_to_the_referees_walk() {
        let at = Vector::new(100.0, 100.0);
        assert_eq!(walk_whole(at, Vector::new(0.5, 1.0)), None);
        assert_eq!(walk_whole(at, Vector::new(2e6, 1.0)), None);
        assert_eq!(
            walk_whole(Vector::new(3e6, 0.0), Vector::new(1.0, 1.0)),
            None
        );
        assert!(walk_whole(at, Vector::new(-1.0, 0.0)).is_some());
    }
}

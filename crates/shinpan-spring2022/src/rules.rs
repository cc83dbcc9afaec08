//! The numbers of Spring Challenge 2022 and the small rules built on them, each with the
//! `D-spring-*` decision of `shared/spec-notes.md` (the official referee, final commit of
//! 2022-04-28, summarised) or the section of seed 003 it comes from. Pure data and functions
//! only: the engine composes them.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::geometry::Vector;

/// D-spring-1: two players.
pub const PLAYERS: usize = 2;
/// D-spring-1, D-spring-9: three heroes each; hero `i` has id `i` and belongs to `i / 3`.
pub const HEROES_PER_PLAYER: usize = 3;
/// All heroes, player 0's first.
pub const HEROES: usize = PLAYERS * HEROES_PER_PLAYER;

/// D-spring-1: the visible map is `0..=17630` × `0..=9000`.
pub const MAP_WIDTH: i32 = 17_630;
pub const MAP_HEIGHT: i32 = 9_000;
/// D-spring-8: how far outside the visible map a mob may be before it is removed.
pub const MAP_LIMIT: i32 = 800;
/// D-spring-3: positions are truncated toward this point, the centre (integer halves).
pub const CENTRE: Vector = Vector::new((MAP_WIDTH / 2) as f64, (MAP_HEIGHT / 2) as f64);
/// D-spring-1: the bases, player 0's at the top-left corner, player 1's at the bottom-right.
pub const BASES: [Vector; PLAYERS] = [
    Vector::new(0.0, 0.0),
    Vector::new(MAP_WIDTH as f64, MAP_HEIGHT as f64),
];

/// D-spring-1: each base starts with 3 health.
pub const BASE_HEALTH: i32 = 3;
/// D-spring-1, D-spring-8: a mob within this distance of a base (inside the map) heads for it.
pub const BASE_ATTRACTION_RADIUS: i32 = 5_000;
/// D-spring-1, D-spring-8: a living mob this close to a base after moving damages it.
pub const BASE_RADIUS: i32 = 300;
/// D-spring-1: a player sees everything this close to its base ...
pub const BASE_VIEW_RADIUS: i32 = 6_000;
/// ... and this close to one of its heroes; also the range of SHIELD and CONTROL.
pub const HERO_VIEW_RADIUS: i32 = 2_200;

/// D-spring-1: a hero moves at most this far a turn.
pub const HERO_SPEED: i32 = 800;
/// D-spring-1, D-spring-4: a hero hits every mob this close ...
pub const HERO_ATTACK_RANGE: i32 = 800;
/// ... for this much damage, and its owner earns as much mana.
pub const HERO_DAMAGE: i32 = 2;
/// D-spring-1: a mob moves this far a turn.
pub const MOB_SPEED: i32 = 400;

/// D-spring-1: every spell costs 10 mana.
pub const SPELL_COST: i32 = 10;
/// D-spring-5: WIND pushes what is this close to the caster ...
pub const WIND_RADIUS: i32 = 1_280;
/// ... this far.
pub const WIND_DISTANCE: i32 = 2_200;
/// D-spring-7: a shield lasts 12 turns after the turn it is cast.
pub const SHIELD_DURATION: i32 = 12;

/// D-spring-1: the match has 220 turns.
pub const TURNS: u32 = 220;
/// D-spring-1: 1000 ms for the first reply ...
pub const FIRST_TURN_MS: u64 = 1_000;
/// ... and 50 ms for every other.
pub const TURN_MS: u64 = 50;

/// D-spring-8: a wave every 5 turns, the first at turn 1 (the spawner starts 5 turns back).
pub const SPAWN_RATE: i32 = 5;
/// D-spring-8: the first wave's health ...
pub const MOB_START_HEALTH: f64 = 10.0;
/// ... grows by this much a wave (kept as a fraction, truncated when a mob is made).
pub const MOB_HEALTH_GROWTH: f64 = 0.5;
/// D-spring-8: from this turn on, waves aim at the bases.
pub const SUDDEN_DEATH_TURN: u32 = 200;
/// D-spring-8: spawn points, each with its mirror image through the centre; a spawn's
/// direction turns at most this far (75°) either way from straight into the map.
pub const SPAWN_MAX_DELTA: f64 = 5.0 * std::f64::consts::PI / 12.0;
/// D-spring-8: the two spawn points above the map (their mirrors lie below it).
pub const SPAWN_POINTS: [(i32, i32); 2] = [
    (MAP_WIDTH / 2, -MAP_LIMIT + 1),
    (MAP_WIDTH / 2 + 4_000, -MAP_LIMIT + 1),
];

/// D-spring-9: the prompt's entity types.
pub const TYPE_MOB: i32 = 0;
pub const TYPE_MY_HERO: i32 = 1;
pub const TYPE_ENEMY_HERO: i32 = 2;
/// D-spring-9: `nearBase` of a mob inside an attraction zone, and `threatFor` values.
pub const NEAR_BASE: i32 = 1;
pub const THREAT_NONE: i32 = 0;
pub const THREAT_YOU: i32 = 1;
pub const THREAT_ENEMY: i32 = 2;

/// The referee gives up projecting a mob's path after this many turns (D-spring-9's
/// `threatFor`; never reached by a mob that moves).
pub const STATUS_HORIZON: u32 = 8_000;
/// The referee shows at most 48 characters of a message, else 46 and `...`.
pub const MESSAGE_MAX: usize = 48;
pub const MESSAGE_CUT: usize = 46;

/// D-spring-10: the league, a match option. Each league opens more of the game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub enum League {
    /// MOVE and WAIT only, no fog, a draw on equal base health.
    #[serde(rename = "wood2")]
    Wood2,
    /// WIND and fog; the wild-mana tie-break.
    #[serde(rename = "wood1")]
    Wood1,
    /// The full game: WIND, SHIELD, CONTROL.
    #[default]
    #[serde(rename = "bronze+", alias = "bronze")]
    Bronze,
}

impl League {
    pub const ALL: [League; 3] = [League::Wood2, League::Wood1, League::Bronze];

    pub fn name(self) -> &'static str {
        match self {
            League::Wood2 => "wood2",
            League::Wood1 => "wood1",
            League::Bronze => "bronze+",
        }
    }

    pub fn fog(self) -> bool {
        self != League::Wood2
    }
    pub fn wind(self) -> bool {
        self != League::Wood2
    }
    pub fn shield_and_control(self) -> bool {
        self == League::Bronze
    }
    pub fn tie_break(self) -> bool {
        self != League::Wood2
    }
}

/// D-spring-1: player `p`'s base.
pub fn base_of(player: usize) -> Vector {
    BASES[player]
}

/// D-spring-9: heroes `3p..3p+3` are player `p`'s.
pub fn owner_of_hero(hero: usize) -> usize {
    hero / HEROES_PER_PLAYER
}

/// D-spring-3: inside the visible map, borders included.
pub fn inside_visible_map(p: Vector) -> bool {
    p.within_bounds(0.0, 0.0, MAP_WIDTH as f64, MAP_HEIGHT as f64)
}

/// D-spring-8: within 800 of the visible map, borders included; beyond it a mob is removed.
pub fn inside_map(p: Vector) -> bool {
    let limit = f64::from(MAP_LIMIT);
    p.within_bounds(
        -limit,
        -limit,
        f64::from(MAP_WIDTH) + limit,
        f64::from(MAP_HEIGHT) + limit,
    )
}

/// D-spring-3: clamps a point into the visible map (hero moves, pushed heroes, controlled mobs).
pub fn snap_to_map(p: Vector) -> Vector {
    Vector::new(
        p.x.clamp(0.0, f64::from(MAP_WIDTH)),
        p.y.clamp(0.0, f64::from(MAP_HEIGHT)),
    )
}

/// D-spring-8: within 5000 of either base (wherever the point is).
pub fn in_attraction_zone(p: Vector) -> bool {
    BASES
        .iter()
        .any(|&base| p.in_range(base, f64::from(BASE_ATTRACTION_RADIUS)))
}

/// The referee's step toward `destination` of at most `speed` (hero MOVE, CONTROL targets):
/// the whole way when it is within `speed` (squared lengths, inclusive), else `speed` along
/// the normalised direction. Not truncated.
pub fn step_to(position: Vector, destination: Vector, speed: i32) -> Vector {
    let v = Vector::between(position, destination);
    let target = if v.length_squared() <= f64::from(speed * speed) {
        v
    } else {
        v.normalize().mult(f64::from(speed))
    };
    position.plus(target)
}

/// D-spring-6: where several CONTROLs move an entity: the average of each control's step
/// target, summed in casting order, times `1 / n`. Not truncated. `None` without controls.
pub fn control_target(position: Vector, controls: &[[i32; 2]], speed: i32) -> Option<Vector> {
    let mut sum: Option<Vector> = None;
    for &[x, y] in controls {
        let step = step_to(position, Vector::new(f64::from(x), f64::from(y)), speed);
        sum = Some(match sum {
            None => step,
            Some(s) => s.plus(step),
        });
    }
    sum.map(|s| s.mult(1.0 / controls.len() as f64))
}

/// D-spring-5: a push stops where it crosses a border segment that belongs to a base: the
/// 5000 units of the top and left borders next to base 0, of the bottom and right borders next
/// to base 1. The crossing point, truncated toward the centre; `None` when the push crosses
/// no such segment. The referee tries the horizontal border the end point lies beyond, then the
/// vertical one.
pub fn base_wall_intersection(from: Vector, to: Vector) -> Option<Vector> {
    let w = f64::from(MAP_WIDTH);
    let h = f64::from(MAP_HEIGHT);
    let r = f64::from(BASE_ATTRACTION_RADIUS);
    let mut hit = None;
    if to.y > h {
        hit = segment_intersection(from, to, Vector::new(w - r, h), Vector::new(w, h));
    } else if to.y < 0.0 {
        hit = segment_intersection(from, to, Vector::new(0.0, 0.0), Vector::new(r, 0.0));
    }
    if hit.is_none() {
        if to.x > w {
            hit = segment_intersection(from, to, Vector::new(w, h - r), Vector::new(w, h));
        } else if to.x < 0.0 {
            hit = segment_intersection(from, to, Vector::new(0.0, 0.0), Vector::new(0.0, r));
        }
    }
    hit.map(|p| p.symmetric_truncate(CENTRE))
}

/// The crossing point of segments `a1 a2` and `b1 b2` (ends included), in the referee's order
/// of floating-point operations; `None` for parallel segments or a crossing outside either.
pub fn segment_intersection(a1: Vector, a2: Vector, b1: Vector, b2: Vector) -> Option<Vector> {
    let (x1, y1, x2, y2) = (a1.x, a1.y, a2.x, a2.y);
    let (x3, y3, x4, y4) = (b1.x, b1.y, b2.x, b2.y);
    let d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4);
    if d == 0.0 {
        return None;
    }
    let xi = ((x3 - x4) * (x1 * y2 - y1 * x2) - (x1 - x2) * (x3 * y4 - y3 * x4)) / d;
    let yi = ((y3 - y4) * (x1 * y2 - y1 * x2) - (y1 - y2) * (x3 * y4 - y3 * x4)) / d;
    let outside = |v: f64, a: f64, b: f64| v < a.min(b) || v > a.max(b);
    if outside(xi, x1, x2) || outside(xi, x3, x4) || outside(yi, y1, y2) || outside(yi, y3, y4) {
        return None;
    }
    Some(Vector::new(xi, yi))
}

/// D-spring-8: the speed of a mob that detects a base from `position` (inside the map, within
/// 5000): straight at the base, `min(distance, 400)` long (truncated to an integer first),
/// each component truncated.
pub fn speed_toward_base(position: Vector, base: Vector) -> Vector {
    let distance = Vector::between(position, base).length();
    let step = distance.min(f64::from(MOB_SPEED)) as i32;
    base.minus(position)
        .normalize()
        .mult(f64::from(step))
        .truncate()
}

/// D-spring-8: the speed of a mob within 5000 of a base but outside the map: diagonally
/// away, `(282, 282)`, or `(-282, -282)` when it is left of or above the map.
pub fn drift_speed(position: Vector) -> Vector {
    let mut objective = Vector::new(1.0, 1.0);
    if position.x < 0.0 || position.y < 0.0 {
        objective = objective.mult(-1.0);
    }
    objective.normalize().mult(f64::from(MOB_SPEED)).truncate()
}

/// D-spring-6: a CONTROLled mob's new speed toward its target: 400 long, truncated; `None` when
/// the target is its own position (the speed is then kept).
pub fn controlled_speed(position: Vector, target: Vector) -> Option<Vector> {
    let v = Vector::between(position, target);
    (!v.is_zero()).then(|| v.normalize().mult(f64::from(MOB_SPEED)).truncate())
}

/// D-spring-8: the health of a wave's mobs: 10, then 0.5 more each wave, truncated.
pub fn wave_health(max_health: f64) -> i32 {
    max_health as i32
}

/// D-spring-5: the direction a mob pushed out of every attraction zone takes: the draw
/// `r` (in `[0, 1)`) times 2π, plus π for the second of a point-symmetric pair; 400 long and
/// not truncated.
pub fn redirect_speed(draw: f64, mirrored: bool) -> Vector {
    let mut angle = draw * std::f64::consts::PI * 2.0;
    if mirrored {
        angle += std::f64::consts::PI;
    }
    Vector::from_angle(angle)
        .normalize()
        .mult(f64::from(MOB_SPEED))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_goes_toward_the_centre() {
        assert_eq!(
            Vector::new(100.7, 8000.7).symmetric_truncate(CENTRE),
            Vector::new(101.0, 8000.0)
        );
    }

    #[test]
    fn a_push_up_through_base_0s_border_stops_on_it() {
        let hit = base_wall_intersection(Vector::new(1000.0, 1000.0), Vector::new(1000.0, -1200.0));
        assert_eq!(hit, Some(Vector::new(1000.0, 0.0)));
        let far = base_wall_intersection(Vector::new(9000.0, 1000.0), Vector::new(9000.0, -1200.0));
        assert_eq!(far, None);
    }
}

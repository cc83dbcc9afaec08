//! Waves of mobs (D-spring-8), drawn from the referee's `java.util.Random` in its order: for
//! each of the two spawn points, in sudden death two `nextInt(5000)` and a `nextBoolean` for a
//! target, then always one `nextDouble` for the direction; the mob at the point, then its
//! mirror image through the centre.

use super::geometry::Vector;
use super::jrandom::JavaRandom;
use super::rules::{
    wave_health, BASE_ATTRACTION_RADIUS, MAP_HEIGHT, MAP_WIDTH, MOB_HEALTH_GROWTH, MOB_SPEED,
    SPAWN_MAX_DELTA, SPAWN_POINTS, SPAWN_RATE, SUDDEN_DEATH_TURN,
};
use super::state::{Mob, Spawner};

/// One mob of a wave, before it gets its id.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spawn {
    pub position: Vector,
    pub speed: Vector,
    pub health: i32,
}

/// Whether a wave comes at the end of `turn`: every 5 turns since the last.
pub fn wave_due(spawner: &Spawner, turn: u32) -> bool {
    turn as i32 - spawner.last_turn >= SPAWN_RATE
}

/// The wave made at the end of `turn` (four mobs), drawing from `rng`; updates the spawner.
pub fn wave(spawner: &mut Spawner, rng: &mut JavaRandom, turn: u32) -> [Spawn; 4] {
    spawner.last_turn = turn as i32;
    let sudden_death = turn >= SUDDEN_DEATH_TURN;
    let health = wave_health(spawner.max_health);
    let mut spawns = [Spawn {
        position: Vector::ZERO,
        speed: Vector::ZERO,
        health,
    }; 4];
    for (pair, &(x, y)) in SPAWN_POINTS.iter().enumerate() {
        let position = Vector::from_ints(x, y);
        let mirror = Vector::from_ints(MAP_WIDTH - x, MAP_HEIGHT - y);
        let direction = Vector::new(0.0, if y <= MAP_HEIGHT / 2 { 1.0 } else { -1.0 });
        let target = sudden_death.then(|| {
            let mut tx = rng.next_int(BASE_ATTRACTION_RADIUS);
            let mut ty = rng.next_int(BASE_ATTRACTION_RADIUS);
            if rng.next_boolean() {
                tx = MAP_WIDTH - tx;
                ty = MAP_HEIGHT - ty;
            }
            Vector::from_ints(tx, ty)
        });
        let delta = rng.next_double() * SPAWN_MAX_DELTA * 2.0 - SPAWN_MAX_DELTA;
        for i in 0..2 {
            let (from, heading) = if i == 0 {
                (position, direction)
            } else {
                (mirror, direction.symmetric(Vector::ZERO))
            };
            let speed = match target {
                Some(t) => {
                    let aim = if i == 0 {
                        t
                    } else {
                        Vector::new(f64::from(MAP_WIDTH) - t.x, f64::from(MAP_HEIGHT) - t.y)
                    };
                    Vector::between(from, aim)
                        .normalize()
                        .mult(f64::from(MOB_SPEED))
                        .truncate()
                }
                None => heading
                    .rotate(delta)
                    .normalize()
                    .mult(f64::from(MOB_SPEED))
                    .truncate(),
            };
            spawns[pair * 2 + i] = Spawn {
                position: from,
                speed,
                health,
            };
        }
    }
    spawner.max_health += MOB_HEALTH_GROWTH;
    spawns
}

impl Spawn {
    pub fn into_mob(self, id: i32) -> Mob {
        Mob {
            id,
            x: self.position.x as i32,
            y: self.position.y as i32,
            vx: self.speed.x,
            vy: self.speed.y,
            health: self.health,
            shield: 0,
            controls: Vec::new(),
            status: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jrandom::JavaRandom;

    #[test]
    fn a_wave_is_two_mirrored_pairs() {
        let mut spawner = Spawner::default();
        let mut rng = JavaRandom::new(42);
        let w = wave(&mut spawner, &mut rng, 1);
        assert_eq!(w[0].position, Vector::new(8815.0, -799.0));
        assert_eq!(w[1].position, Vector::new(8815.0, 9799.0));
        assert_eq!(w[2].position, Vector::new(12815.0, -799.0));
        assert_eq!(w[3].position, Vector::new(4815.0, 9799.0));
        assert_eq!(w[1].speed, w[0].speed.mult(-1.0));
        assert_eq!(w[3].speed, w[2].speed.mult(-1.0));
        assert_eq!((spawner.last_turn, spawner.max_health), (1, 10.5));
    }
}

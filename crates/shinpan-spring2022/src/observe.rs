//! Reading a prompt back into the state it shows, for `shinpan trace`. A Spring Challenge 2022
//! prompt (D-spring-9) shows both bases' health and mana, the reader's three heroes, and the
//! enemy heroes and mobs it sees (D-spring-1: within 6000 of its base or 2200 of one of its
//! heroes, inside the map; everything inside the map in wood2); the start block only on turn 1.
//! So:
//!
//! - both players' `base_health` and `mana` are compared, and each hero shown (`x`, `y`,
//!   `shield`; its CONTROLs only where the `isControlled` flag disagrees with them);
//! - a mob shown that the known state has is compared field by field, named by its id
//!   (`mobs[#59].x`, ...), and a known mob that the prompt's vision reaches but the prompt lacks
//!   is a departure (`mobs[#59].id`);
//! - a mob shown for the first time is taken as shown (`drawn`). The waves come from the
//!   referee's `java.util.Random` and the match seed, which no prompt shows, and most mobs stay
//!   in the fog for a while: the state read back spawns nothing (its spawner is put off a turn
//!   at a time), so that every mob the trace knows came from a prompt;
//! - the same generator gives a mob pushed out of the attraction zones by WIND a new direction
//!   (D-spring-5), not a whole number, so the state's stand-in generator draws another: when a
//!   prompt shows the mob, its speed (and the status worked out from it) is taken as shown,
//!   with where it went since, its fraction put back halfway (positions are truncated toward
//!   the centre every turn, so only the whole part and the fraction's sign matter to the
//!   rules); where the prompt's vision reaches but does not show it, it is put aside (outside
//!   the map, standing still, see `LOST_AT`) until a prompt shows it again. Out of
//!   both players' sight such a mob touches nothing a prompt shows: a hero hits, and a spell
//!   reaches, only what its player saw, and a base takes damage only from what it sees.
//!
//! The speed is printed truncated: a known speed whose truncation the prompt shows is kept as
//! known. A known mob whose speed changed where no prompt showed it (redirected out of both
//! players' sight) shows only that speed's truncation: it is kept with its fraction put back
//! halfway, as seen only truncated, and until the rules give the mob a speed exactly again its
//! position is checked to within one (a position one off where the prediction put it is taken
//! as shown; more is a departure). Not shown, and kept as known: the turn (except turn 1, the start block), the wild
//! mana, the messages, the deactivations, the outcome and the league — read onto nothing, a
//! prompt that shows something the fog would hide is from wood2, any other is read as bronze+
//! (wood1's prompts are the same; only a SHIELD or CONTROL reply would be judged otherwise).

use super::protocol::{EntityLine, Prompt};
use super::rules::{League, HEROES, SPAWN_RATE, TURNS, TYPE_MOB};
use super::state::{Mob, MobStatus, State};
use super::vision::{mob_status, player_sees};
use super::{Options, Spring2022};
use shinpan_core::seam::{Observation, Observed, Recorded};

/// Mob fields a prompt shows (`vx`, `vy` truncated; `controls` as a flag; `status` as
/// `nearBase` and `threatFor`).
const MOB_FIELDS: [&str; 9] = [
    "id", "x", "y", "shield", "health", "vx", "vy", "controls", "status",
];

/// Beyond these, a mob line makes a state the engine refuses (`State::validate`): it is left
/// out, and the trace's comparison of the whole prompt reports it.
const MOB_HEALTH_LIMIT: i32 = 1_000_000;
const MOB_SPEED_LIMIT: i32 = 100_000;

impl Recorded for Spring2022 {
    /// The state the prompt shows to `player`, on top of `known`: bases and own heroes in full;
    /// enemy heroes and mobs where the player sees; a mob shown for the first time, or a speed
    /// WIND drew, taken as shown (see the module doc).
    ///
    /// Long (about 130 lines) because it reads the prompt in its own order, one block a part of it,
    /// each writing what it shows into the state and the `shown` and `drawn` lists they share.
    fn observe(&self, prompt: &str, player: usize, known: Option<&State>) -> Observed<State> {
        let prompt = Prompt::parse(prompt)?;
        let me = player.min(1);
        let them = 1 - me;
        let mut state = known.cloned().unwrap_or_default();
        state.statuses.forget();
        let mut shown: Vec<String> = Vec::new();
        let mut drawn: Vec<String> = Vec::new();
        if prompt.start.is_some() {
            state.turn = 1;
            shown.push("turn".into());
        }
        for (who, [health, mana]) in [(me, prompt.bases[0]), (them, prompt.bases[1])] {
            state.players[who].base_health = health;
            state.players[who].mana = mana;
            shown.push(format!("players[{who}].base_health"));
            shown.push(format!("players[{who}].mana"));
        }

        for e in prompt.entities.iter().filter(|e| e.kind != TYPE_MOB) {
            let Some(hero) = usize::try_from(e.id).ok().filter(|&i| i < HEROES) else {
                continue;
            };
            let h = &mut state.heroes[hero];
            h.x = e.x;
            h.y = e.y;
            h.shield = e.shield;
            for field in ["x", "y", "shield"] {
                shown.push(format!("heroes[{hero}].{field}"));
            }
            if (e.controlled == 1) == h.controls.is_empty() {
                // The destinations are not shown: a CONTROL toward where the hero stands.
                h.controls = if e.controlled == 1 {
                    vec![[e.x, e.y]]
                } else {
                    Vec::new()
                };
                shown.push(format!("heroes[{hero}].controls"));
            }
        }
        if known.is_none() {
            let fogged = prompt
                .entities
                .iter()
                .any(|e| !player_sees(&state, me, point(e), None));
            if fogged {
                state.league = League::Wood2;
            }
        }

        let lines: Vec<&EntityLine> = prompt
            .entities
            .iter()
            .filter(|e| e.kind == TYPE_MOB)
            .filter(|e| e.health <= MOB_HEALTH_LIMIT)
            .filter(|e| e.vx.abs() <= MOB_SPEED_LIMIT && e.vy.abs() <= MOB_SPEED_LIMIT)
            .collect();
        let before = std::mem::take(&mut state.mobs);
        let mut missing = Vec::new();
        let mut mobs: Vec<Mob> = Vec::with_capacity(before.len() + lines.len());
        for (k, mob) in before.iter().enumerate() {
            if lines.iter().any(|e| e.id == mob.id) {
                continue;
            }
            if !player_sees(&state, me, mob.pos(), None) {
                mobs.push(mob.clone());
            } else if drawn_here(mob) {
                // Its speed came from the state's stand-in generator: it may be anywhere.
                mobs.push(lost(mob));
            } else {
                missing.push(k);
            }
        }
        // What each shown mob drew: its speed and the status worked out from it.
        let mut fresh: Vec<(i32, bool)> = Vec::with_capacity(lines.len());
        for e in &lines {
            let (mob, drew) = match before.iter().find(|m| m.id == e.id) {
                Some(mob) => read_known(mob.clone(), e, me),
                None => (new_mob(e, me), true),
            };
            fresh.push((e.id, drew));
            mobs.push(mob);
        }
        mobs.sort_by_key(|m| m.id);
        // Mobs are named by id (`mobs[#59].x`), so that a field is compared with the same mob's
        // in the prediction wherever the list put it.
        for mob in &mobs {
            let Some(&(_, drew)) = fresh.iter().find(|(id, _)| *id == mob.id) else {
                continue;
            };
            let at = |field: &str| format!("mobs[#{}].{field}", mob.id);
            for field in MOB_FIELDS {
                shown.push(at(field));
            }
            // A speed the prompts only ever showed truncated moves the mob to within one of
            // where its exact speed would: its position is checked to that precision.
            if let Some(was) = before.iter().find(|m| m.id == mob.id && seen_truncated(m)) {
                if (was.x - mob.x).abs() <= 1 && (was.y - mob.y).abs() <= 1 {
                    drawn.extend([at("x"), at("y")]);
                }
            }
            // Out of the fog or a fresh wave (nothing predicted it), or a speed drawn here.
            if drew || !before.iter().any(|m| m.id == mob.id) {
                let fields: &[&str] = if before.iter().any(|m| m.id == mob.id) {
                    &["x", "y", "vx", "vy", "status"]
                } else {
                    &MOB_FIELDS
                };
                drawn.extend(fields.iter().map(|f| at(f)));
            }
        }
        for k in missing {
            shown.push(format!("mobs[#{}].id", before[k].id));
        }
        state.mobs = mobs;
        if let (Some(next), Some(max)) = (state.next_id, state.mobs.iter().map(|m| m.id).max()) {
            if max >= next {
                state.next_id = Some(max.saturating_add(1));
            }
        }
        // No wave at the end of this turn: the next mobs come from the prompts.
        state.spawner.last_turn = (state.turn.min(TURNS) as i32).max(-SPAWN_RATE);
        Ok(Observation {
            state,
            shown,
            drawn,
        })
    }

    /// The league (D-spring-10), which no prompt shows.
    fn set_up_observed(&self, state: &mut State, options: &Options) {
        state.league = options.league;
    }
}

fn point(e: &EntityLine) -> super::geometry::Vector {
    super::geometry::Vector::from_ints(e.x, e.y)
}

/// The status a mob line shows, for `reader`.
fn status_of(e: &EntityLine, reader: usize) -> MobStatus {
    MobStatus {
        near_base: e.near_base == 1,
        target: match e.threat_for {
            1 => Some(reader),
            2 => Some(1 - reader),
            _ => None,
        },
    }
}

fn new_mob(e: &EntityLine, reader: usize) -> Mob {
    Mob {
        id: e.id,
        x: e.x,
        y: e.y,
        vx: f64::from(e.vx),
        vy: f64::from(e.vy),
        health: e.health,
        shield: e.shield,
        controls: if e.controlled == 1 {
            vec![[e.x, e.y]]
        } else {
            Vec::new()
        },
        status: Some(status_of(e, reader)),
    }
}

/// A known mob with what its line shows written over it; whether its speed (and so where it
/// went since) was a fresh draw.
fn read_known(mut mob: Mob, e: &EntityLine, reader: usize) -> (Mob, bool) {
    mob.x = e.x;
    mob.y = e.y;
    mob.shield = e.shield;
    mob.health = e.health;
    let drew = drawn_here(&mob);
    if drew {
        mob.vx = with_fraction(e.vx, mob.vx);
        mob.vy = with_fraction(e.vy, mob.vy);
    } else if (mob.vx as i32, mob.vy as i32) != (e.vx, e.vy) {
        // The speed changed where no prompt showed it: only its truncation is known, and its
        // fraction is put back halfway, which marks it as seen only truncated
        // ([`seen_truncated`]).
        mob.vx = with_fraction(e.vx, mob.vx);
        mob.vy = with_fraction(e.vy, mob.vy);
    }
    if (e.controlled == 1) == mob.controls.is_empty() {
        mob.controls = if e.controlled == 1 {
            vec![[e.x, e.y]]
        } else {
            Vec::new()
        };
    }
    let status = status_of(e, reader);
    if mob_status(&mob) != status {
        mob.status = Some(status);
    }
    (mob, drew)
}

/// Where a mob the trace has lost track of waits until a prompt shows it again: outside the
/// map (no prompt shows it, no hero hits it), within the 800 a mob may stray (not removed),
/// far from both bases (not attracted), on the centre's column with a speed that the
/// truncation toward the centre cancels (it stands still), a fraction that [`drawn_here`]
/// still reads as drawn: when it shows again, where it went and its speed are taken as shown.
const LOST_AT: (i32, i32) = (super::rules::MAP_WIDTH / 2, -400);
const LOST_SPEED: (f64, f64) = (0.25, -0.25);

fn lost(mob: &Mob) -> Mob {
    Mob {
        x: LOST_AT.0,
        y: LOST_AT.1,
        vx: LOST_SPEED.0,
        vy: LOST_SPEED.1,
        status: None,
        controls: Vec::new(),
        ..mob.clone()
    }
}

/// Whether a mob's speed is one the state's generator drew (WIND's redirection, D-spring-5):
/// such a speed is not whole, and its fractions are not the halves [`with_fraction`] gives
/// a speed read from a prompt (every other speed of the game is truncated).
fn drawn_here(mob: &Mob) -> bool {
    let drawn = |v: f64| !matches!(v.fract().abs(), 0.0 | 0.5);
    drawn(mob.vx) || drawn(mob.vy)
}

/// Whether a mob's speed is one read from prompts, which show it truncated ([`with_fraction`]:
/// a fraction of one half), rather than one the rules gave it exactly (whole, or a fresh
/// draw): where it took the mob is known only to within one.
fn seen_truncated(mob: &Mob) -> bool {
    let half = |v: f64| v.fract().abs() == 0.5;
    half(mob.vx) || half(mob.vy)
}

/// A speed component the prompt shows truncated as `shown`, with a fraction of the sign of the
/// whole part (of `guess` when the whole part is 0).
fn with_fraction(shown: i32, guess: f64) -> f64 {
    let sign = if shown != 0 {
        f64::from(shown.signum())
    } else if guess > 0.0 {
        1.0
    } else if guess < 0.0 {
        -1.0
    } else {
        0.0
    };
    f64::from(shown) + 0.5 * sign
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, Spring2022};
    use shinpan_core::seam::{Game, Reply};

    #[test]
    fn prompts_read_back_into_states_that_print_them() {
        let game = Spring2022;
        let mut state = game.new_match(11, &Options::default());
        let mut seen: Option<State> = None;
        for _ in 0..40 {
            for player in [0, 1] {
                let prompt = game.prompt(&state, player);
                let read = Spring2022.observe(&prompt, player, seen.as_ref()).unwrap();
                assert_eq!(game.prompt(&read.state, player), prompt);
                seen = Some(read.state);
            }
            let replies = [0, 1].map(|_| Reply::text("WAIT\nWAIT\nWAIT"));
            game.step(&mut state, &replies).unwrap();
            let mut next = seen.clone().unwrap();
            game.step(&mut next, &replies).unwrap();
            seen = Some(next);
        }
    }

    #[test]
    fn a_prompt_without_fog_is_read_as_wood2() {
        let state = Spring2022.new_match(
            2,
            &Options {
                league: League::Wood2,
            },
        );
        let read = Spring2022
            .observe(&Spring2022.prompt(&state, 0), 0, None)
            .unwrap();
        assert_eq!(read.state.league, League::Wood2);
        let state = Spring2022.new_match(2, &Options::default());
        let read = Spring2022
            .observe(&Spring2022.prompt(&state, 0), 0, None)
            .unwrap();
        assert_eq!(read.state.league, League::Bronze);
    }

    #[test]
    fn a_lost_mob_stands_still_out_of_sight_and_stays_marked() {
        let game = Spring2022;
        let mut state = game.new_match(4, &Options::default());
        state.mobs.push(lost(&Mob {
            id: 6,
            ..Mob::default()
        }));
        state.next_id = Some(7);
        state.spawner.last_turn = 100;
        state.turn = 100;
        for _ in 0..10 {
            let replies = [0, 1].map(|_| Reply::text("WAIT\nWAIT\nWAIT"));
            game.step(&mut state, &replies).unwrap();
            assert_eq!((state.mobs[0].x, state.mobs[0].y), LOST_AT);
            assert!(drawn_here(&state.mobs[0]));
            assert!(!game.prompt(&state, 0).contains("\n6 0 "));
        }
    }

    #[test]
    fn a_redirected_speed_keeps_a_fraction_of_its_sign() {
        assert_eq!(with_fraction(283, 100.2), 283.5);
        assert_eq!(with_fraction(-283, 5.0), -283.5);
        assert_eq!(with_fraction(0, -0.3), -0.5);
    }

    /// Issue 39: a mob redirected where no prompt showed it comes back showing its speed
    /// truncated (`382 118` for 118.3877…): the speed is kept as seen only truncated, and the
    /// mob's position is then checked to within one, not to the unit.
    #[test]
    fn a_speed_seen_only_truncated_checks_the_position_to_within_one() {
        let game = Spring2022;
        let mut known = game.new_match(4, &Options::default());
        known.turn = 50;
        known.spawner.last_turn = 50;
        known.mobs.push(Mob {
            id: 59,
            x: 3000,
            y: 2000,
            vx: 400.0,
            vy: 0.0,
            health: 10,
            ..Mob::default()
        });
        known.next_id = Some(60);
        // The engine's own record: the same mob, redirected unseen.
        let mut real = known.clone();
        (real.mobs[0].vx, real.mobs[0].vy) = (382.0772, 118.3877);
        let read = Spring2022
            .observe(&game.prompt(&real, 0), 0, Some(&known))
            .unwrap();
        let mob = read.state.mobs.iter().find(|m| m.id == 59).unwrap();
        assert_eq!((mob.vx, mob.vy), (382.5, 118.5));
        assert!(seen_truncated(mob));
        // One off where the prediction put it: within what a truncated speed allows.
        let mut predicted = read.state.clone();
        predicted.mobs[0].y = 2118;
        let at = |y: i32| {
            let mut shown = real.clone();
            shown.mobs[0].y = y;
            Spring2022
                .observe(&game.prompt(&shown, 0), 0, Some(&predicted))
                .unwrap()
        };
        let y = "mobs[#59].y".to_string();
        let read = at(2119);
        assert!(
            read.shown.contains(&y) && read.drawn.contains(&y),
            "{:?}",
            read.drawn
        );
        // Two off is a departure: the field is compared.
        let read = at(2120);
        assert!(
            read.shown.contains(&y) && !read.drawn.contains(&y),
            "{:?}",
            read.drawn
        );
    }

    #[test]
    fn a_malformed_prompt_is_an_error() {
        assert!(Spring2022.observe("3 0\n", 0, None).is_err());
        assert!(Spring2022.observe("", 1, None).is_err());
    }
}

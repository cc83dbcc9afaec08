//! What the Spring Challenge 2022 fuzz bodies check that is its own, as its [`Fuzzed`] (the bodies
//! are [`stepfuzz::targets`]). It lives here, not in `fuzz/`, so that proptest runs the very same
//! checks under `cargo test`; each check panics on a broken property.

use arbitrary::{Arbitrary, Unstructured};

use super::protocol::{is_strict, read_order, read_plain, Order, Reply as ReplyText};
use super::rules::{League, HEROES, MAP_HEIGHT, MAP_LIMIT, MAP_WIDTH, SHIELD_DURATION, TURNS};
use super::state::{Mob, MobStatus, State};
use super::Spring2022;
use shinpan_core::seam::{Game, Reply};
use shinpan_core::stepfuzz::{self, prints_back, Broken, FuzzTargets, Fuzzed, Play};

/// The bodies the fuzz targets of `fuzz/` run for this game.
pub static TARGETS: FuzzTargets = stepfuzz::targets::<Spring2022>();

impl Fuzzed for Spring2022 {
    const GAME: Self = Spring2022;
    type Play = Lines;

    /// Every line through the reply parsers: a strict line prints back to itself and the engine
    /// reads it as the same command in every league that has it; a strict reply prints back too.
    fn replies(text: &str) {
        for line in text.split('\n') {
            let engine = read_order(line, League::Bronze);
            assert_eq!(
                is_strict(line),
                Order::parse(line).is_ok(),
                "the engine's quick strictness test agrees with the grammar"
            );
            if let Some(order) = prints_back(line, "a line", Order::parse, Order::print) {
                let (command, _) = engine.expect("strict implies what the engine accepts");
                assert_eq!(
                    command, order.command,
                    "the engine reads what the grammar reads"
                );
            }
            for league in League::ALL {
                let general = read_order(line, league);
                if let Some(command) = read_plain(line, league) {
                    assert_eq!(
                        general,
                        Ok((command, None)),
                        "the quick reading of a plain line is the engine's reading"
                    );
                    assert!(is_strict(line), "a plain line is strict");
                }
            }
        }
        prints_back(text, "a reply", ReplyText::parse, ReplyText::print);
    }

    /// What must hold after any step from `before` to `after`.
    fn check_invariants(before: &State, after: &State) -> Result<(), Broken> {
        Self::GAME.validate(after).map_err(|e| e.to_string())?;
        if after.turn != before.turn + 1 {
            return Err("a step is one turn".into());
        }
        for (p, (b, a)) in before.players.iter().zip(&after.players).enumerate() {
            if a.base_health > b.base_health {
                return Err(format!("player {p}: the base healed").into());
            }
            if a.wild_mana < b.wild_mana {
                return Err(format!("player {p}: wild mana went down").into());
            }
            if a.wild_mana - b.wild_mana > a.mana - b.mana + 10 * 3 {
                return Err(format!("player {p}: more wild mana than mana earned").into());
            }
        }
        let mut last = i32::MIN;
        for mob in &after.mobs {
            if mob.id >= before.next_mob_id() {
                if mob.id <= last {
                    return Err("new mobs get increasing ids".into());
                }
                last = mob.id;
            } else if !before.mobs.iter().any(|m| m.id == mob.id) {
                return Err(format!("mob {} came back", mob.id).into());
            }
            // Removal is checked before moving: a mob may end a turn up to one step (at most
            // 400·√2 in these states) beyond the 800.
            let (x, y) = (mob.x, mob.y);
            let limit = MAP_LIMIT + 600;
            if x < -limit || y < -limit || x > MAP_WIDTH + limit || y > MAP_HEIGHT + limit {
                return Err(format!("mob {} kept far beyond 800 outside the map", mob.id).into());
            }
        }
        if after.outcome.is_none() && after.turn > TURNS {
            return Err("the match outlived turn 220".into());
        }
        stepfuzz::canonical_round_trip(after)
    }

    fn arbitrary_state(u: &mut Unstructured) -> arbitrary::Result<State> {
        let mut state = State {
            league: *u.choose(&League::ALL)?,
            turn: u.int_in_range(1..=TURNS)?,
            rng: u.arbitrary::<u64>()? >> 16,
            ..State::default()
        };
        state.spawner.last_turn = u.int_in_range(-5..=state.turn as i32)?;
        state.spawner.max_health = f64::from(u.int_in_range(20..=80u8)?) / 2.0;
        for player in &mut state.players {
            player.base_health = u.int_in_range(1..=3)?;
            player.mana = u.int_in_range(0..=60)?;
            player.wild_mana = u.int_in_range(0..=60)?;
        }
        for hero in &mut state.heroes {
            if u.ratio(1, 2)? {
                hero.x = u.int_in_range(0..=MAP_WIDTH)?;
                hero.y = u.int_in_range(0..=MAP_HEIGHT)?;
            }
            hero.shield = u.int_in_range(0..=SHIELD_DURATION)?;
            if u.ratio(1, 6)? {
                hero.controls = vec![coordinate(u)?; u.int_in_range(1..=3)?];
            }
        }
        let mobs = u.int_in_range(0..=24usize)?;
        for k in 0..mobs {
            let near = u.ratio(1, 2)?;
            let (x, y) = if near {
                // Around a base, where attraction, damage and the base borders matter.
                let base = *u.choose(&[(0, 0), (MAP_WIDTH, MAP_HEIGHT)])?;
                let dx = u.int_in_range(-800..=5_200)?;
                let dy = u.int_in_range(-800..=5_200)?;
                if base.0 == 0 {
                    (dx, dy)
                } else {
                    (base.0 - dx, base.1 - dy)
                }
            } else {
                (
                    u.int_in_range(-MAP_LIMIT..=MAP_WIDTH + MAP_LIMIT)?,
                    u.int_in_range(-MAP_LIMIT..=MAP_HEIGHT + MAP_LIMIT)?,
                )
            };
            let mut mob = Mob {
                id: HEROES as i32 + k as i32,
                x,
                y,
                vx: f64::from(u.int_in_range(-400..=400)?),
                vy: f64::from(u.int_in_range(-400..=400)?),
                health: u.int_in_range(1..=30)?,
                shield: u.int_in_range(0..=SHIELD_DURATION)?,
                ..Mob::default()
            };
            if u.ratio(1, 6)? {
                mob.controls = vec![coordinate(u)?; u.int_in_range(1..=3)?];
            }
            if u.ratio(1, 4)? {
                mob.status = Some(MobStatus {
                    near_base: u.arbitrary()?,
                    target: *u.choose(&[None, Some(0), Some(1)])?,
                });
            }
            state.mobs.push(mob);
        }
        state.next_id = Some(HEROES as i32 + mobs as i32 + u.int_in_range(0..=3)?);
        Ok(state)
    }
}

fn coordinate(u: &mut Unstructured) -> arbitrary::Result<[i32; 2]> {
    Ok([
        u.int_in_range(-3_000..=MAP_WIDTH + 3_000)?,
        u.int_in_range(-3_000..=MAP_HEIGHT + 3_000)?,
    ])
}

/// The game's own part of a fuzzed reply (see [`stepfuzz::ArbitraryReply`]): three lines
/// mostly well formed, now and then anything at all.
#[derive(Debug, Arbitrary)]
pub struct Lines {
    lines: [ArbitraryLine; 3],
    elapsed_ms: u8,
}

#[derive(Debug, Arbitrary)]
enum ArbitraryLine {
    Wait,
    Move(i16, i16),
    Wind(i16, i16),
    Shield(u8),
    Control(u8, i16, i16),
    Raw(String),
}

impl Play<State> for Lines {
    fn into_reply(self, _start: &State) -> Reply {
        let text: Vec<String> = self.lines.into_iter().map(line_text).collect();
        Reply::Text {
            text: text.join("\n"),
            elapsed_ms: u64::from(self.elapsed_ms),
        }
    }
}

fn line_text(line: ArbitraryLine) -> String {
    // Coordinates spread over the map and beyond it.
    let x = |v: i16| i32::from(v) + MAP_WIDTH / 2;
    let y = |v: i16| i32::from(v) / 2 + MAP_HEIGHT / 2;
    match line {
        ArbitraryLine::Wait => "WAIT".into(),
        ArbitraryLine::Move(a, b) => format!("MOVE {} {}", x(a), y(b)),
        ArbitraryLine::Wind(a, b) => format!("SPELL WIND {} {}", x(a), y(b)),
        ArbitraryLine::Shield(id) => format!("SPELL SHIELD {}", id % 40),
        ArbitraryLine::Control(id, a, b) => {
            format!("SPELL CONTROL {} {} {}", id % 40, x(a), y(b))
        }
        ArbitraryLine::Raw(text) => text,
    }
}

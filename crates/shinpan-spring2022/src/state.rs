//! The canonical state of a Spring Challenge 2022 match: what cases give and check, and what
//! adapters exchange. Every field has a default, so a case names only what matters: a state
//! with nothing given is turn 1 of a bronze+ match, both bases at 3 health, no mana, the six
//! heroes at their starting points, no mob, and the generator of `new Random(0)`.
//!
//! The state is taken where the referee stands when it sends the prompts of a turn: the mobs
//! removed at the end of the last turn are gone, the CONTROLs cast on mobs last turn are active
//! (and their speed set), and every mob a player sees has its `nearBase`/`threatFor` status
//! worked out and kept, as the referee keeps it until the mob's speed changes.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use super::geometry::{java_round, Vector};
use super::jrandom::{scramble, JavaRandom};
use super::rules::{
    owner_of_hero, League, BASES, BASE_HEALTH, HEROES, HEROES_PER_PLAYER, MAP_HEIGHT, MAP_WIDTH,
    MOB_START_HEALTH, PLAYERS, SHIELD_DURATION, SPAWN_RATE, TURNS,
};
use shinpan_core::canonical::list_up_to;
use shinpan_core::seam::{GameState, Outcome, StateError};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct State {
    /// The league the match is played in (D-spring-10), from the match options.
    pub league: League,
    /// The turn whose prompts come next, 1..=220; 221 once turn 220 has been played.
    pub turn: u32,
    /// The referee's `java.util.Random` state: 48 bits (D-spring-8). `new Random(s)` starts at
    /// `(s ^ 0x5DEECE66D) mod 2^48`; the default is that of seed 0.
    pub rng: u64,
    pub spawner: Spawner,
    /// The id the next mob gets (ids count up from 0 over heroes, then mobs); `null` (the
    /// default) stands for one past the highest id in the state, at least 6.
    pub next_id: Option<i32>,
    /// Up to two players may be given; a missing one is a default player.
    #[serde(deserialize_with = "shinpan_core::canonical::players_up_to")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Player>", length(max = 2)))]
    pub players: [Player; PLAYERS],
    /// The six heroes in id order, player 0's three first. Up to six may be given; each given
    /// field replaces that of the hero's starting state, the rest stay as at the start.
    #[serde(deserialize_with = "heroes_over_the_start")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Hero>", length(max = 6)))]
    pub heroes: [Hero; HEROES],
    /// The mobs in the referee's order (order of spawning), which is the order of the prompt's
    /// lines and of every rule that goes through them.
    pub mobs: Vec<Mob>,
    /// `null` while the match goes on.
    pub outcome: Option<Outcome>,
    /// Left by `step` on the state it makes; never read from a case, never written, never
    /// compared.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub statuses: StatusesKept,
}

/// Whether every mob a player sees has its status worked out, as the prompts of the turn need:
/// so on the states `step` leaves, which the next `step` can take as they are; not known of a
/// state read from a case (a case may leave statuses out) or built or changed by hand, which
/// `step` completes first. Any change to a stepped state's entities must `forget` it.
#[derive(Debug, Clone, Copy, Default)]
pub struct StatusesKept(bool);

impl StatusesKept {
    pub(super) fn known(self) -> bool {
        self.0
    }

    pub(super) fn mark(&mut self) {
        self.0 = true;
    }

    pub(super) fn forget(&mut self) {
        self.0 = false;
    }
}

/// A note about the state, not part of it: two states are equal whatever it says.
impl PartialEq for StatusesKept {
    fn eq(&self, _: &StatusesKept) -> bool {
        true
    }
}

impl Default for State {
    fn default() -> Self {
        State {
            league: League::default(),
            turn: 1,
            rng: scramble(0),
            spawner: Spawner::default(),
            next_id: None,
            players: [Player::default(), Player::default()],
            heroes: starting_heroes(),
            mobs: Vec::new(),
            outcome: None,
            statuses: StatusesKept::default(),
        }
    }
}

/// The spawner's memory (D-spring-8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Spawner {
    /// The turn of the last wave; a wave comes when `turn - last_turn >= 5`. Starts at -5.
    pub last_turn: i32,
    /// The next wave's health before truncation: 10, then +0.5 a wave.
    #[serde(with = "number")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub max_health: f64,
}

impl Default for Spawner {
    fn default() -> Self {
        Spawner {
            last_turn: -SPAWN_RATE,
            max_health: MOB_START_HEALTH,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Player {
    pub base_health: i32,
    pub mana: i32,
    /// Mana earned by heroes more than 5000 from their own base: the tie-break (D-spring-4).
    pub wild_mana: i32,
    /// Why the player stopped playing; `null` while it plays. Such a player loses (D-spring-9).
    pub deactivated: Option<Deactivation>,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            base_health: BASE_HEALTH,
            mana: 0,
            wild_mana: 0,
            deactivated: None,
        }
    }
}

/// D-spring-9, D-spring-11: why the referee deactivated a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Deactivation {
    InvalidReply,
    TimedOut,
    BaseDestroyed,
}

impl Deactivation {
    pub fn name(self) -> &'static str {
        match self {
            Deactivation::InvalidReply => "invalid-reply",
            Deactivation::TimedOut => "timed-out",
            Deactivation::BaseDestroyed => "base-destroyed",
        }
    }
}

/// A hero; its id is its index and its owner `index / 3`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Hero {
    pub x: i32,
    pub y: i32,
    /// Turns of shield left as the prompt shows it (0..=12); active while above 0 (D-spring-7).
    pub shield: i32,
    /// CONTROL destinations cast on this hero last turn, in casting order: its next reply line
    /// is replaced by a move toward their average (D-spring-6).
    pub controls: Vec<[i32; 2]>,
    /// The message of the hero's last command, as the referee keeps it: emoji and other symbols
    /// removed, cut to 46 characters and `...` when longer than 48.
    pub message: Option<String>,
}

/// A mob ("spider").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Mob {
    pub id: i32,
    pub x: i32,
    pub y: i32,
    /// The speed, kept as the referee keeps it: integers, except after a redirection by WIND
    /// (D-spring-5). The prompt prints each component truncated.
    #[serde(with = "number")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub vx: f64,
    #[serde(with = "number")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub vy: f64,
    pub health: i32,
    pub shield: i32,
    /// The CONTROL destinations cast on this mob last turn, active this turn (D-spring-6).
    pub controls: Vec<[i32; 2]>,
    /// `nearBase`/`threatFor` as last worked out; `null` when not worked out since the speed
    /// last changed (the next prompt works it out).
    pub status: Option<MobStatus>,
}

impl Default for Mob {
    fn default() -> Self {
        Mob {
            id: HEROES as i32,
            x: 0,
            y: 0,
            vx: 0.0,
            vy: 0.0,
            health: MOB_START_HEALTH as i32,
            shield: 0,
            controls: Vec::new(),
            status: None,
        }
    }
}

/// D-spring-9: a mob's `nearBase` and the base its path enters (by player, not relative).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MobStatus {
    pub near_base: bool,
    pub target: Option<usize>,
}

impl Hero {
    pub fn pos(&self) -> Vector {
        Vector::from_ints(self.x, self.y)
    }

    pub fn set_pos(&mut self, p: Vector) {
        self.x = p.x as i32;
        self.y = p.y as i32;
    }
}

impl Mob {
    pub fn pos(&self) -> Vector {
        Vector::from_ints(self.x, self.y)
    }

    pub fn set_pos(&mut self, p: Vector) {
        self.x = p.x as i32;
        self.y = p.y as i32;
    }

    pub fn speed(&self) -> Vector {
        Vector::new(self.vx, self.vy)
    }

    /// A new speed forgets the worked-out status, as in the referee.
    pub fn set_speed(&mut self, v: Vector) {
        self.vx = v.x;
        self.vy = v.y;
        self.status = None;
    }
}

/// The referee's hero placement (D-spring-1): 1600 along the diagonal from each corner, the
/// second and third 400 to either side across it, rounded.
pub fn starting_heroes() -> [Hero; HEROES] {
    let root_half = Vector::new(1.0, 1.0).normalize();
    std::array::from_fn(|i| {
        let player = owner_of_hero(i);
        let across = Vector::new(1.0, -1.0).normalize();
        let across = if player == 1 {
            across.mult(-1.0)
        } else {
            across
        };
        let along = if player == 1 {
            Vector::new(-1.0, -1.0).normalize()
        } else {
            root_half
        };
        let offset = [0.0, 1.0, -1.0][i % HEROES_PER_PLAYER];
        let p = across
            .mult(offset * 400.0)
            .plus(BASES[player])
            .plus(along.mult(1600.0));
        Hero {
            x: java_round(p.x) as i32,
            y: java_round(p.y) as i32,
            shield: 0,
            controls: Vec::new(),
            message: None,
        }
    })
}

/// A hero as a case gives it: every field optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeroPatch {
    x: Option<i32>,
    y: Option<i32>,
    shield: Option<i32>,
    controls: Option<Vec<[i32; 2]>>,
    message: Option<Option<String>>,
}

fn heroes_over_the_start<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<[Hero; HEROES], D::Error> {
    let given = list_up_to::<D, HeroPatch, HEROES>(deserializer, "heroes")?;
    let mut heroes = starting_heroes();
    for (hero, patch) in heroes.iter_mut().zip(given) {
        hero.x = patch.x.unwrap_or(hero.x);
        hero.y = patch.y.unwrap_or(hero.y);
        hero.shield = patch.shield.unwrap_or(hero.shield);
        hero.controls = patch.controls.unwrap_or_default();
        hero.message = patch.message.unwrap_or_default();
    }
    Ok(heroes)
}

/// Positions and speeds far beyond anything reachable are refused, so that no arithmetic of
/// the engine can overflow on a given state.
const FAR: i32 = 100_000;
/// More mana than a match could ever earn.
const MANA_LIMIT: i32 = 100_000_000;
/// At most this many CONTROLs can land on one entity in a turn (every hero casting one).
const MAX_CONTROLS: usize = HEROES;

impl State {
    /// The id the next mob gets.
    pub fn next_mob_id(&self) -> i32 {
        self.next_id.unwrap_or_else(|| {
            let highest = self.mobs.iter().map(|m| m.id + 1).max();
            highest.unwrap_or(HEROES as i32).max(HEROES as i32)
        })
    }

    /// The generator the state holds.
    pub fn random(&self) -> JavaRandom {
        JavaRandom::from_state(self.rng)
    }
}

impl GameState for State {
    /// What serde cannot check: ranges, ids, and the relations between fields.
    ///
    /// Long (about 90 lines) because it is one check per field, in the order of the struct, so
    /// that it reads against the struct line by line.
    fn validate(&self) -> Result<(), StateError> {
        let playing = self.outcome.is_none();
        if self.turn == 0 || self.turn > TURNS + 1 || (playing && self.turn > TURNS) {
            return Err(StateError::at(
                "turn",
                format!(
                    "{}: 1..=220 while the match goes on, 221 after it",
                    self.turn
                ),
            ));
        }
        if self.rng >> 48 != 0 {
            return Err(StateError::at("rng", "java.util.Random keeps 48 bits"));
        }
        let s = &self.spawner;
        if !(-SPAWN_RATE..=TURNS as i32).contains(&s.last_turn) {
            return Err(StateError::at("spawner.last_turn", "must be -5..=220"));
        }
        if !(0.0..=1e6).contains(&s.max_health) {
            return Err(StateError::at("spawner.max_health", "must be 0..=1000000"));
        }
        for (p, player) in self.players.iter().enumerate() {
            let at = |f: &str| format!("players[{p}].{f}");
            if !(0..=BASE_HEALTH).contains(&player.base_health) {
                return Err(StateError::at(at("base_health"), "must be 0..=3"));
            }
            if !(0..=MANA_LIMIT).contains(&player.mana) {
                return Err(StateError::at(at("mana"), "must be 0..=100000000"));
            }
            if !(0..=MANA_LIMIT).contains(&player.wild_mana) {
                return Err(StateError::at(at("wild_mana"), "must be 0..=100000000"));
            }
            if playing && player.deactivated.is_some() {
                return Err(StateError::at(
                    at("deactivated"),
                    "a deactivated player ends the match: give the outcome too",
                ));
            }
        }
        for (i, hero) in self.heroes.iter().enumerate() {
            let at = |f: &str| format!("heroes[{i}].{f}");
            if !(0..=MAP_WIDTH).contains(&hero.x) || !(0..=MAP_HEIGHT).contains(&hero.y) {
                return Err(StateError::at(at("x"), "heroes stay inside the map"));
            }
            check_shield(hero.shield, &at("shield"))?;
            check_controls(&hero.controls, &at("controls"))?;
        }
        let mut ids = Vec::with_capacity(self.mobs.len());
        for (i, mob) in self.mobs.iter().enumerate() {
            let at = |f: &str| format!("mobs[{i}].{f}");
            if mob.id < HEROES as i32 || mob.id >= self.next_mob_id() {
                return Err(StateError::at(
                    at("id"),
                    format!("{}: mob ids run from 6 to next_id - 1", mob.id),
                ));
            }
            if ids.contains(&mob.id) {
                return Err(StateError::at(at("id"), format!("{} is taken", mob.id)));
            }
            ids.push(mob.id);
            if mob.x.abs() > FAR || mob.y.abs() > FAR {
                return Err(StateError::at(at("x"), "farther than 100000 from the map"));
            }
            if mob.vx.abs() > f64::from(FAR) || mob.vy.abs() > f64::from(FAR) {
                return Err(StateError::at(at("vx"), "a speed beyond 100000"));
            }
            if !(1..=1_000_000).contains(&mob.health) {
                return Err(StateError::at(
                    at("health"),
                    "must be 1..=1000000 (dead mobs are removed)",
                ));
            }
            check_shield(mob.shield, &at("shield"))?;
            check_controls(&mob.controls, &at("controls"))?;
            if mob
                .status
                .is_some_and(|s| s.target.is_some_and(|t| t >= PLAYERS))
            {
                return Err(StateError::at(at("status.target"), "0, 1 or null"));
            }
        }
        if !(HEROES as i32..=1_000_000).contains(&self.next_mob_id()) {
            return Err(StateError::at("next_id", "must be 6..=1000000"));
        }
        if let Some(winner) = self.outcome.as_ref().and_then(|o| o.winner) {
            if winner >= PLAYERS {
                return Err(StateError::at("outcome.winner", "0, 1 or null"));
            }
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }
}

fn check_shield(shield: i32, at: &str) -> Result<(), StateError> {
    if (0..=SHIELD_DURATION).contains(&shield) {
        Ok(())
    } else {
        Err(StateError::at(at, "0..=12 between turns"))
    }
}

fn check_controls(controls: &[[i32; 2]], at: &str) -> Result<(), StateError> {
    if controls.len() <= MAX_CONTROLS {
        Ok(())
    } else {
        Err(StateError::at(at, "at most 6 CONTROLs land in one turn"))
    }
}

/// A finite `f64` in the canonical state, written as an integer when it is one (`-282`, not
/// `-282.0`), so that cases can give either; read through [`shinpan_core::seam::finite`].
/// A speed component: written as an integer when it is one (as the referee keeps most speeds),
/// else as the float; either reads back to the same bits (D-spring-13). Negative zero is a
/// float: as the integer 0 it would read back as +0.
mod number {
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        let negative_zero = *value == 0.0 && value.is_sign_negative();
        if value.fract() == 0.0 && value.abs() < 9e15 && !negative_zero {
            serializer.serialize_i64(*value as i64)
        } else {
            shinpan_core::seam::finite::serialize(value, serializer)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        shinpan_core::seam::finite::deserialize(deserializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heroes_start_1600_along_the_diagonal() {
        let heroes = starting_heroes();
        let at: Vec<(i32, i32)> = heroes.iter().map(|h| (h.x, h.y)).collect();
        assert_eq!(
            at,
            [
                (1131, 1131),
                (1414, 849),
                (849, 1414),
                (16499, 7869),
                (16216, 8151),
                (16781, 7586)
            ]
        );
    }

    #[test]
    fn given_heroes_keep_the_start_for_what_is_not_given() {
        let state: State = serde_json::from_str(r#"{"heroes": [{"x": 5}, {}]}"#).unwrap();
        assert_eq!((state.heroes[0].x, state.heroes[0].y), (5, 1131));
        assert_eq!((state.heroes[5].x, state.heroes[5].y), (16781, 7586));
    }
}

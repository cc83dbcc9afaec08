//! The canonical state of a CEDEC 2013 match: what cases give and check, and what adapters
//! exchange. Every field has a default so that a case names only what matters: a state with
//! nothing given is round 1, player 0 to move, on an empty field of wasteland.
//!
//! The state is taken *between* player turns: the awaited player's turn start (production,
//! towers) has already been applied, exactly as that player's request shows it. What lives only
//! inside one turn (which robots moved, whether the turn moves or builds, the snapshot `reset`
//! goes back to) is not part of it: a step is a whole turn.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::rules::{on_field, Base, BASE_SCORE, COORDS, PLAYERS, ROUNDS, SETTLEMENT_SCORE, TILES};
use crate::canonical::at_most;
use crate::seam::{GameState, Outcome, StateError};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct State {
    /// 0 while the players give their names; then the round being played, 1..=200.
    pub round: u32,
    /// The player whose name or turn comes next (0, 1 or 2).
    pub player: usize,
    /// Up to three players may be given; a missing one is a default player.
    #[serde(deserialize_with = "crate::canonical::players_up_to")]
    #[schemars(with = "Vec<Player>", length(max = 3))]
    pub players: [Player; PLAYERS],
    /// Every tile, keyed `"x,y"` (axial coordinates, e.g. `"-3,2"`). A tile not given is
    /// unowned wasteland without robots; the engine always writes all 127.
    pub tiles: Field,
    /// Each player's score (D-cedec-9) as of the end of the last step. Derived from `tiles`:
    /// leave it out of a given state (all zeros) or give the right values.
    pub scores: [u32; PLAYERS],
    /// `null` while the match goes on.
    pub outcome: Option<Outcome>,
}

impl Default for State {
    fn default() -> Self {
        State {
            round: 1,
            player: 0,
            players: Default::default(),
            tiles: Field::default(),
            scores: [0; PLAYERS],
            outcome: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Player {
    /// `null` until the player has given its name in round 0.
    pub name: Option<String>,
    /// No name within 5000 ms (D-cedec-11): every turn is `finish` only and it cannot win. A
    /// program whose output ended before its name is not disqualified.
    pub disqualified: bool,
    /// Time used beyond 1000 ms per turn, summed over the match (D-cedec-11).
    pub overrun_ms: u64,
    /// The overrun went past 5000 ms (or a reply never came): every turn is `finish` only.
    pub out_of_time: bool,
}

impl Player {
    /// Whether the player's commands are all ignored.
    pub fn finish_only(&self) -> bool {
        self.disqualified || self.out_of_time
    }
}

/// One tile. Its landform (D-cedec-10) follows from the fields: `hole` → hole; a `base` → base;
/// else an `owner` → settlement; else wasteland.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Tile {
    /// 0, 1 or 2; `null` for nobody.
    pub owner: Option<u8>,
    /// The owner's robots on the tile.
    pub robots: u32,
    /// A hole (no base: a bridge fills the hole).
    pub hole: bool,
    pub base: Option<Base>,
    /// A town's extra points, fixed when it was built.
    pub bonus: u32,
}

impl Tile {
    pub fn owned_by(&self, player: usize) -> bool {
        self.owner.map(usize::from) == Some(player)
    }

    /// An owned tile without a base that is not a hole: where resources are (D-cedec-4).
    pub fn is_plain_settlement(&self) -> bool {
        self.owner.is_some() && self.base.is_none() && !self.hole
    }

    pub fn landform(&self) -> Landform {
        if self.hole {
            Landform::Hole
        } else if self.base.is_some() {
            Landform::Base
        } else if self.owner.is_some() {
            Landform::Settlement
        } else {
            Landform::Wasteland
        }
    }
}

/// 「地形」: the four landforms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Landform {
    Wasteland,
    Settlement,
    Base,
    Hole,
}

impl Landform {
    pub const ALL: [Landform; 4] = [
        Landform::Wasteland,
        Landform::Settlement,
        Landform::Base,
        Landform::Hole,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Landform::Wasteland => "wasteland",
            Landform::Settlement => "settlement",
            Landform::Base => "base",
            Landform::Hole => "hole",
        }
    }
}

/// The 127 tiles, indexed in x-then-y order (`rules::COORDS`).
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[schemars(with = "BTreeMap<String, Tile>")]
pub struct Field(pub [Tile; TILES]);

impl Default for Field {
    fn default() -> Self {
        Field([Tile::default(); TILES])
    }
}

fn key(i: usize) -> String {
    let (x, y) = COORDS[i];
    format!("{x},{y}")
}

/// Every tile's key with the tile's index, in the order a case file lists them (the keys
/// sorted as text), made once: a state is written at every step and every new match.
fn keys_in_order() -> &'static [(String, usize)] {
    static KEYS: OnceLock<Vec<(String, usize)>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys: Vec<(String, usize)> = (0..TILES).map(|i| (key(i), i)).collect();
        keys.sort_unstable();
        keys
    })
}

impl Field {
    /// D-cedec-9: 1 per own settlement, 3 (+ a town's bonus) per own base, 0 per hole.
    pub fn scores(&self) -> [u32; PLAYERS] {
        let mut scores = [0u32; PLAYERS];
        for tile in &self.0 {
            let Some(owner) = tile.owner else { continue };
            let points = match (tile.hole, tile.base) {
                (true, _) => 0,
                (false, Some(_)) => BASE_SCORE + tile.bonus,
                (false, None) => SETTLEMENT_SCORE,
            };
            if let Some(score) = scores.get_mut(usize::from(owner)) {
                *score = score.saturating_add(points);
            }
        }
        scores
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(keys_in_order().iter().map(|(key, i)| (key, &self.0[*i])))
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let given = BTreeMap::<String, Tile>::deserialize(deserializer)?;
        let mut field = Field::default();
        for (name, tile) in given {
            let index = parse_key(&name).ok_or_else(|| {
                D::Error::custom(format!(
                    "tile key `{name}` is not \"x,y\" on the 127-tile field"
                ))
            })?;
            field.0[index] = tile;
        }
        Ok(field)
    }
}

/// `"x,y"` → the tile's index; exactly that form, both numbers plain integers.
fn parse_key(name: &str) -> Option<usize> {
    let (x, y) = name.split_once(',')?;
    let number = |s: &str| -> Option<i32> {
        let digits = s.strip_prefix('-').unwrap_or(s);
        let plain = !digits.is_empty()
            && digits.len() <= 2
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && s != "-0";
        plain.then(|| s.parse().ok()).flatten()
    };
    let (x, y) = (number(x)?, number(y)?);
    on_field(x, y).then(|| super::rules::index(x, y)).flatten()
}

impl GameState for State {
    /// What serde cannot check: ranges, that each tile is in a shape the game can reach, and
    /// that the scores are the tiles' (D-cedec-9).
    fn validate(&self) -> Result<(), StateError> {
        at_most("round", self.round, ROUNDS)?;
        if self.player >= PLAYERS {
            return Err(StateError::at(
                "player",
                format!("{}, at most 2", self.player),
            ));
        }
        for (i, tile) in self.tiles.0.iter().enumerate() {
            let at = format!("tiles.{}", key(i));
            if tile.owner.is_some_and(|o| usize::from(o) >= PLAYERS) {
                return Err(StateError::at(at, "owner must be 0, 1, 2 or null"));
            }
            if tile.owner.is_none() && tile.robots > 0 {
                return Err(StateError::at(at, "robots on a tile nobody owns"));
            }
            if tile.base.is_some() && tile.owner.is_none() {
                return Err(StateError::at(at, "a base nobody owns"));
            }
            if tile.base.is_some() && tile.hole {
                return Err(StateError::at(at, "a base on a hole (a bridge fills it)"));
            }
            if tile.bonus > 0 && tile.base != Some(Base::Town) {
                return Err(StateError::at(at, "a bonus on a tile that is not a town"));
            }
        }
        if let Some(outcome) = &self.outcome {
            if outcome.winner.is_some_and(|w| w >= PLAYERS) {
                return Err(StateError::at("outcome.winner", "must be 0, 1, 2 or null"));
            }
        }
        // D-cedec-9: the scores a state gives must be the ones its tiles are worth.
        let scores = self.tiles.scores();
        if self.scores != [0; PLAYERS] && self.scores != scores {
            return Err(StateError::at(
                "scores",
                format!(
                    "{:?} but the tiles give {scores:?} (leave scores out to derive them)",
                    self.scores
                ),
            ));
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }
}

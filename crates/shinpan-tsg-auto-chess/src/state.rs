//! The canonical state of a TSG AUTO CHESS match: what cases give and check, and what adapters
//! exchange. Every field has a default so that a case names only what matters: a state with
//! nothing given is turn 0 of a fresh match (kings at home, level 1, 5 gold, full clocks, the
//! shops holding ids 2..=7 at level 1 for 3 gold each).
//!
//! The state is taken *between* turns, where the prompts are read: the turn-start income and the
//! shop refills of the turn about to be played are already in it. Coordinates are absolute
//! (player 0's frame); what lives only inside a turn (which units were just bought) is not part
//! of it.

use std::collections::BTreeSet;

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use super::rules::{
    on_board, shop_atk, shop_hp, unit_limit, Kind, BOARD, FIRST_SHOP_ID, KING_ATK, KING_HOME_Y,
    KING_HP, KING_X, MAX_NUMBER, PRICE_MAX, PRICE_MIN, START_GOLD, START_LEVEL, THINKING_TIME_MS,
    TURNS,
};
use shinpan_core::canonical::{at_most, check_two_player_outcome, list_up_to};
use shinpan_core::seam::{GameState, Outcome, StateError};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct State {
    /// The turn whose prompts come next, 0..=999 (the prompt's `turn`); once a turn is played it
    /// counts, so a finished match shows the number of turns played (1000 at the turn limit).
    pub turn: u32,
    /// Up to two players may be given; a missing one, or a missing field of one, takes that
    /// player's default (its shop ids differ: 2..=4 for player 0, 5..=7 for player 1).
    #[serde(deserialize_with = "players_over_defaults")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Player>", length(max = 2)))]
    pub players: [Player; 2],
    /// Every unit on the board, both players' kings included, in the order they came onto it:
    /// each prompt lists the player's own units, then the enemy's, in this order.
    pub units: Vec<Unit>,
    /// The id the next unit put in a shop takes (one counter for the whole match, D-tsg-5).
    pub next_id: u32,
    /// The state of the price generator: SplitMix64 (add 0x9E3779B97F4A7C15, then the usual
    /// mix); the price is 2 + output mod 3. A new match starts it at its seed.
    pub price_rng: u64,
    /// `null` while the match goes on.
    pub outcome: Option<Outcome>,
}

impl Default for State {
    fn default() -> Self {
        State {
            turn: 0,
            players: [Player::default_for(0), Player::default_for(1)],
            units: vec![Unit::king(0), Unit::king(1)],
            next_id: FIRST_SHOP_ID + 6,
            price_rng: 0,
            outcome: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Player {
    pub level: i64,
    pub gold: i64,
    /// Thinking time left for the rest of the match, in milliseconds.
    pub time_left_ms: u64,
    /// The three units for sale to this player: an assassin, a warrior and a mage, in that order.
    pub shop: [ShopUnit; 3],
    /// Enemy units this player destroyed in the last turn played (each paid it 1 gold at the
    /// start of this turn).
    pub kills: i64,
}

impl Default for Player {
    fn default() -> Self {
        Player::default_for(0)
    }
}

impl Player {
    /// A fresh player of seat `p`, its shop at level 1 for 3 gold a unit.
    pub fn default_for(p: usize) -> Player {
        let first = FIRST_SHOP_ID + 3 * p as u32;
        Player {
            level: START_LEVEL,
            gold: START_GOLD,
            time_left_ms: THINKING_TIME_MS,
            shop: [0, 1, 2].map(|slot| ShopUnit::new(first + slot as u32, slot, START_LEVEL, 3)),
            kills: 0,
        }
    }
}

/// A unit for sale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ShopUnit {
    pub id: u32,
    #[serde(rename = "type")]
    pub kind: Kind,
    pub hp: i64,
    pub atk: i64,
    pub price: i64,
}

impl ShopUnit {
    /// A unit for shop slot `slot` at a buyer's `level` (D-tsg-5).
    pub fn new(id: u32, slot: usize, level: i64, price: i64) -> ShopUnit {
        ShopUnit {
            id,
            kind: Kind::SOLD[slot],
            hp: shop_hp(level),
            atk: shop_atk(level),
            price,
        }
    }
}

/// A unit on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(from = "UnitForm")]
pub struct Unit {
    pub id: u32,
    pub owner: usize,
    #[serde(rename = "type")]
    pub kind: Kind,
    pub hp: i64,
    pub atk: i64,
    pub x: i32,
    pub y: i32,
}

/// A unit as a case may write it: HP and ATK may be left out.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
struct UnitForm {
    id: u32,
    /// 0 or 1.
    owner: usize,
    #[serde(rename = "type")]
    kind: Kind,
    /// Defaults to 100 for a king, 50 (a level-1 shop unit) otherwise.
    #[serde(default)]
    hp: Option<i64>,
    /// Defaults to 20 for a king, 10 (a level-1 shop unit) otherwise.
    #[serde(default)]
    atk: Option<i64>,
    /// Absolute column (player 0's frame), 0..=14.
    x: i32,
    /// Absolute row (player 0's frame), 0..=14.
    y: i32,
}

impl From<UnitForm> for Unit {
    fn from(form: UnitForm) -> Unit {
        let king = form.kind == Kind::King;
        Unit {
            id: form.id,
            owner: form.owner,
            kind: form.kind,
            hp: form
                .hp
                .unwrap_or(if king { KING_HP } else { shop_hp(START_LEVEL) }),
            atk: form.atk.unwrap_or(if king {
                KING_ATK
            } else {
                shop_atk(START_LEVEL)
            }),
            x: form.x,
            y: form.y,
        }
    }
}

impl Unit {
    /// Player `p`'s king at its starting cell.
    pub fn king(p: usize) -> Unit {
        Unit {
            id: p as u32,
            owner: p,
            kind: Kind::King,
            hp: KING_HP,
            atk: KING_ATK,
            x: KING_X,
            y: KING_HOME_Y[p],
        }
    }

    pub fn at(&self) -> (i32, i32) {
        (self.x, self.y)
    }
}

/// Reads up to two players, each over its own seat's defaults.
fn players_over_defaults<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<[Player; 2], D::Error> {
    use serde::de::Error;
    let given = list_up_to::<D, serde_json::Value, 2>(deserializer, "players")?;
    let mut players = [Player::default_for(0), Player::default_for(1)];
    for (p, value) in given.into_iter().enumerate() {
        let serde_json::Value::Object(fields) = value else {
            return Err(D::Error::custom(format!("players[{p}] must be a mapping")));
        };
        let mut merged = serde_json::to_value(&players[p]).map_err(D::Error::custom)?;
        if let serde_json::Value::Object(base) = &mut merged {
            base.extend(fields);
        }
        players[p] = serde_json::from_value(merged)
            .map_err(|e| D::Error::custom(format!("players[{p}]: {e}")))?;
    }
    Ok(players)
}

impl State {
    /// The king of `player`, if it is on the board.
    pub fn king(&self, player: usize) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.owner == player && u.kind == Kind::King)
    }

    /// Every id in sight: the units' on the board, then both shops'.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        let shops = self
            .players
            .iter()
            .flat_map(|p| p.shop.iter().map(|s| s.id));
        self.units.iter().map(|u| u.id).chain(shops)
    }

    /// The units an `evolve` of `player` names (「evolve」): the index of the first in `units`,
    /// and the three; `None` when one is not an own unit on the board or their types differ.
    pub fn evolving(&self, player: usize, ids: [i64; 3]) -> Option<(usize, [Unit; 3])> {
        let find = |id: i64| {
            self.units
                .iter()
                .position(|u| u.owner == player && i64::from(u.id) == id)
        };
        let first = find(ids[0])?;
        let three = [first, find(ids[1])?, find(ids[2])?].map(|i| self.units[i]);
        let one_type = three.iter().all(|u| u.kind == three[0].kind);
        one_type.then_some((first, three))
    }

    /// Non-king units of `player` on the board.
    pub fn army_size(&self, player: usize) -> i64 {
        self.units
            .iter()
            .filter(|u| u.owner == player && u.kind != Kind::King)
            .count() as i64
    }

    /// What serde cannot check: ranges, one unit a cell, unique ids below the counter, one king
    /// a player with ids 0 and 1, the unit limit, and a finished match exactly when it is over.
    /// What the engine needs of a state a recorded engine showed (`Game::validate_recorded`):
    /// a turn it can play, owners 0 and 1. Ids used twice, shared cells and armies past the
    /// limit are held as shown.
    pub fn validate_recorded(&self) -> Result<(), StateError> {
        at_most("turn", self.turn, TURNS)?;
        match self.units.iter().position(|u| u.owner > 1) {
            Some(i) => Err(StateError::at(
                format!("units[{i}].owner"),
                "must be 0 or 1",
            )),
            None => Ok(()),
        }
    }
}

impl GameState for State {
    /// What serde cannot check: ranges, ids, and the relations between fields.
    ///
    /// Long (about 115 lines) because it is one check per field, in the order of the struct, so
    /// that it reads against the struct line by line.
    fn validate(&self) -> Result<(), StateError> {
        let number = |path: String, value: i64, min: i64| {
            if (min..=MAX_NUMBER).contains(&value) {
                Ok(())
            } else {
                Err(StateError::at(
                    path,
                    format!("{value}, not in {min}..={MAX_NUMBER}"),
                ))
            }
        };
        at_most("turn", self.turn, TURNS)?;
        let mut ids = BTreeSet::new();
        for (p, player) in self.players.iter().enumerate() {
            number(format!("players[{p}].level"), player.level, START_LEVEL)?;
            number(format!("players[{p}].gold"), player.gold, 0)?;
            number(format!("players[{p}].kills"), player.kills, 0)?;
            at_most(
                format!("players[{p}].time_left_ms"),
                player.time_left_ms,
                THINKING_TIME_MS,
            )?;
            for (slot, unit) in player.shop.iter().enumerate() {
                let path = format!("players[{p}].shop[{slot}]");
                if unit.kind != Kind::SOLD[slot] {
                    return Err(StateError::at(
                        format!("{path}.type"),
                        format!("slot {slot} sells {:?}", Kind::SOLD[slot].word()),
                    ));
                }
                number(format!("{path}.hp"), unit.hp, 1)?;
                number(format!("{path}.atk"), unit.atk, 1)?;
                if !(PRICE_MIN..=PRICE_MAX).contains(&unit.price) {
                    return Err(StateError::at(
                        format!("{path}.price"),
                        format!("{}, not in {PRICE_MIN}..={PRICE_MAX}", unit.price),
                    ));
                }
                if !ids.insert(unit.id) {
                    return Err(StateError::at(
                        format!("{path}.id"),
                        format!("id {} is used twice", unit.id),
                    ));
                }
            }
        }
        let mut cells = BTreeSet::new();
        for (i, unit) in self.units.iter().enumerate() {
            let path = format!("units[{i}]");
            if unit.owner > 1 {
                return Err(StateError::at(format!("{path}.owner"), "must be 0 or 1"));
            }
            if !on_board(unit.at()) {
                return Err(StateError::at(
                    format!("{path}.x"),
                    format!("({}, {}) is off the {BOARD}×{BOARD} board", unit.x, unit.y),
                ));
            }
            if !cells.insert(unit.at()) {
                return Err(StateError::at(
                    format!("{path}.x"),
                    format!("({}, {}) holds another unit", unit.x, unit.y),
                ));
            }
            if !ids.insert(unit.id) {
                return Err(StateError::at(
                    format!("{path}.id"),
                    format!("id {} is used twice", unit.id),
                ));
            }
            if (unit.kind == Kind::King) != (unit.id as usize == unit.owner) {
                return Err(StateError::at(
                    format!("{path}.type"),
                    "the kings are ids 0 (player 0) and 1 (player 1), and only they",
                ));
            }
            number(format!("{path}.hp"), unit.hp, 1)?;
            number(format!("{path}.atk"), unit.atk, 1)?;
        }
        if let Some(&top) = ids.last() {
            if top >= self.next_id {
                return Err(StateError::at(
                    "next_id",
                    format!("{}, but id {top} is already taken", self.next_id),
                ));
            }
        }
        // Every id fits an int (「入力」); the counter may stand one past the largest.
        at_most("next_id", i64::from(self.next_id), MAX_NUMBER + 1)?;
        for (p, player) in self.players.iter().enumerate() {
            let limit = unit_limit(player.level);
            if self.army_size(p) > limit {
                return Err(StateError::at(
                    "units",
                    format!(
                        "player {p} has {} units besides its king, at most 2 + level {} = {limit}",
                        self.army_size(p),
                        player.level
                    ),
                ));
            }
        }
        check_two_player_outcome(self.outcome.as_ref(), self.turn, TURNS)?;
        if self.outcome.is_none() {
            for p in 0..2 {
                if self.king(p).is_none() {
                    return Err(StateError::at(
                        "units",
                        format!("player {p}'s king is missing but outcome is null"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }
}

//! The canonical state of a CODE VS 4.0 stage: what cases give and check, and what adapters
//! exchange. Every field has a default so that a case names only what matters; the one thing a
//! case must always give is a castle for each player (a stage without one is over).
//!
//! Units are a map from id to unit (`units: {0: {owner: 0, kind: castle, x: 3, y: 4}}`), in
//! ascending id order; a unit given without `hp` has the full HP of its kind (table 2).

use std::collections::BTreeMap;

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::rules::{Cell, Kind, MAX_ID, RESOURCE_CELLS, STAGES, THINKING_TIME_MS, TURNS};
use shinpan_core::canonical::{at_most, check_two_player_outcome};
use shinpan_core::seam::{GameState, Outcome, StateError};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct State {
    /// The stage, 0..=40: the match option `stage`. It decides player 1's income (table 4).
    pub stage: u32,
    /// The turn about to be played, 0..=999; 1000 once the last turn has been played.
    pub turn: u32,
    /// Up to two players may be given; a missing one is a default player.
    #[serde(deserialize_with = "shinpan_core::canonical::players_up_to")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Player>", length(max = 2)))]
    pub players: [Player; 2],
    /// Every unit on the field, by id.
    pub units: Units,
    /// The resource cells (4.1, 4.5).
    pub resource_cells: Vec<Cell>,
    /// The id the next unit produced takes (4.2, D-codevs4-4). When left out: one more than
    /// the largest id given, and at least 12 (the first id after the set-up).
    pub next_id: Option<u32>,
    /// `null` while the stage goes on.
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Player {
    /// The player's resources (資源数).
    pub resources: u32,
    /// Thinking time left of the one hour for the whole game (D-codevs4-11), shown first in
    /// every input. A stage starts with what the earlier ones left (the match option `time`).
    pub time_left_ms: u64,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            resources: super::rules::START_RESOURCES,
            time_left_ms: THINKING_TIME_MS,
        }
    }
}

/// One unit. Its id is its key in [`Units`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    pub id: u32,
    /// 0 or 1.
    pub owner: usize,
    pub kind: Kind,
    pub cell: Cell,
    /// Always ≥ 1 between turns: a unit at 0 or below is removed (3.3.4).
    pub hp: i32,
}

impl Unit {
    /// A unit of `kind` at full HP (4.3: units appear with full HP).
    pub fn new(id: u32, owner: usize, kind: Kind, cell: Cell) -> Unit {
        Unit {
            id,
            owner,
            kind,
            cell,
            hp: kind.max_hp(),
        }
    }
}

/// A unit as a case writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
struct UnitForm {
    /// 0 or 1.
    owner: usize,
    kind: Kind,
    x: i32,
    y: i32,
    /// Left out: the full HP of the kind (table 2).
    #[serde(default)]
    hp: Option<i32>,
}

/// The units in ascending id order; serialized as a map from id to unit.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[cfg_attr(feature = "schema", schemars(with = "BTreeMap<u32, UnitForm>"))]
pub struct Units(pub Vec<Unit>);

impl Units {
    /// The position of unit `id`, if it is on the field.
    pub fn position(&self, id: u32) -> Option<usize> {
        self.0.binary_search_by_key(&id, |u| u.id).ok()
    }

    pub fn get(&self, id: u32) -> Option<&Unit> {
        self.position(id).map(|i| &self.0[i])
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Unit> {
        self.0.iter()
    }

    /// The largest id on the field.
    pub fn max_id(&self) -> Option<u32> {
        self.0.last().map(|u| u.id)
    }
}

impl Serialize for Units {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for unit in &self.0 {
            let form = UnitForm {
                owner: unit.owner,
                kind: unit.kind,
                x: unit.cell.x,
                y: unit.cell.y,
                hp: Some(unit.hp),
            };
            map.serialize_entry(&unit.id, &form)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Units {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let given = BTreeMap::<u32, UnitForm>::deserialize(deserializer)?;
        Ok(Units(
            given
                .into_iter()
                .map(|(id, form)| Unit {
                    id,
                    owner: form.owner,
                    kind: form.kind,
                    cell: Cell {
                        x: form.x,
                        y: form.y,
                    },
                    hp: form.hp.unwrap_or(form.kind.max_hp()),
                })
                .collect(),
        ))
    }
}

impl State {
    /// The id the next unit produced takes (see [`State::next_id`]).
    pub fn next_id(&self) -> u32 {
        self.next_id.unwrap_or_else(|| {
            self.units
                .max_id()
                .map_or(0, |id| id + 1)
                .max(super::rules::FIRST_PRODUCED_ID)
        })
    }
}

impl GameState for State {
    /// What serde cannot check: ranges, and that the stage is in a shape the game can reach.
    ///
    /// Long (about 90 lines) because it is one check per field, in the order of the struct, so
    /// that it reads against the struct line by line.
    fn validate(&self) -> Result<(), StateError> {
        at_most("stage", self.stage, STAGES - 1)?;
        at_most("turn", self.turn, TURNS)?;
        for (p, player) in self.players.iter().enumerate() {
            at_most(
                format!("players[{p}].time_left_ms"),
                player.time_left_ms,
                THINKING_TIME_MS,
            )?;
        }
        for unit in self.units.iter() {
            let at = |field: &str| format!("units.{}.{field}", unit.id);
            if unit.id > MAX_ID {
                return Err(StateError::at(
                    format!("units.{}", unit.id),
                    format!("ids run 0..={MAX_ID}"),
                ));
            }
            if unit.owner > 1 {
                return Err(StateError::at(at("owner"), "must be 0 or 1"));
            }
            if !(0..super::rules::SIZE).contains(&unit.cell.x) {
                return Err(StateError::at(at("x"), "must be 0..=99"));
            }
            if !(0..super::rules::SIZE).contains(&unit.cell.y) {
                return Err(StateError::at(at("y"), "must be 0..=99"));
            }
            if unit.hp < 1 || unit.hp > unit.kind.max_hp() {
                return Err(StateError::at(
                    at("hp"),
                    format!(
                        "{}, but a {} has 1..={} (a unit at 0 is removed)",
                        unit.hp,
                        unit.kind.name(),
                        unit.kind.max_hp()
                    ),
                ));
            }
        }
        if let Some(next) = self.next_id {
            if self.units.max_id().is_some_and(|max| next <= max) {
                return Err(StateError::at(
                    "next_id",
                    format!("{next}, but a unit already has an id at least that large"),
                ));
            }
            at_most("next_id", next, MAX_ID + 1)?;
        }
        if self.resource_cells.len() > RESOURCE_CELLS {
            return Err(StateError::at(
                "resource_cells",
                format!(
                    "{} cells, the document places {RESOURCE_CELLS}",
                    self.resource_cells.len()
                ),
            ));
        }
        for (i, cell) in self.resource_cells.iter().enumerate() {
            if !cell.on_field() {
                return Err(StateError::at(
                    format!("resource_cells[{i}]"),
                    "not on the 100×100 field",
                ));
            }
            if self.resource_cells[..i].contains(cell) {
                return Err(StateError::at(
                    format!("resource_cells[{i}]"),
                    "the same cell twice",
                ));
            }
        }
        check_two_player_outcome(self.outcome.as_ref(), self.turn, TURNS)?;
        if self.outcome.is_none() {
            for p in 0..2 {
                let castles = self
                    .units
                    .iter()
                    .filter(|u| u.owner == p && u.kind == Kind::Castle)
                    .count();
                if castles != 1 {
                    return Err(StateError::at(
                        "units",
                        format!(
                            "player {p} has {castles} castles; a stage in play has exactly one each"
                        ),
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

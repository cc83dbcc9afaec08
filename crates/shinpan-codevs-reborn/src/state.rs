//! The canonical state of a CODE VS Reborn match: what cases give and check, and what adapters
//! exchange. Every field has a default so that a case names only what matters to it.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::field::Field;
use super::rules::{DANGER_HEIGHT, GAUGE_MAX, THINKING_TIME_MS, TURNS};
use shinpan_core::canonical::{at_most, check_two_player_outcome};
use shinpan_core::seam::{GameState, Outcome, StateError};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct State {
    /// The turn about to be played, 0-based; 500 once the last turn has been played.
    pub turn: u32,
    /// `packs[t]` is dropped in turn t by both players.
    pub packs: Vec<Pack>,
    /// Up to two players may be given; a missing one is an empty default player.
    #[serde(deserialize_with = "shinpan_core::canonical::players_up_to")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Player>", length(max = 2)))]
    pub players: [Player; 2],
    /// `null` while the match goes on.
    pub outcome: Option<Outcome>,
}

/// A 2×2 pack, top row first; 0 is an empty cell, 1..=9 a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(transparent)]
pub struct Pack(pub [[u8; 2]; 2]);

impl Pack {
    /// 「パックの回転数」 (D-reborn-6): one clockwise quarter turn per step,
    /// `[[a,b],[c,d]]` → `[[c,a],[d,b]]`.
    pub fn rotated(self, rotation: u8) -> Pack {
        let mut p = self.0;
        for _ in 0..rotation % 4 {
            let [[a, b], [c, d]] = p;
            p = [[c, a], [d, b]];
        }
        Pack(p)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Player {
    pub field: Field,
    /// Ojama waiting to fall on this player, as shown in the next prompt (before the drop).
    pub ojama_stock: u32,
    /// 0..=100.
    pub skill_gauge: u32,
    pub score: u64,
    /// Thinking time left for the rest of the match.
    pub time_left_ms: u64,
    /// Chain count of the last turn: C on a normal turn, SC (after the explosion) on a skill turn.
    pub chains: u32,
    /// Whether the last turn used the skill.
    pub skill_used: bool,
    /// b: blocks removed by the last turn's explosion.
    pub exploded_blocks: u32,
    /// Score gained in the last turn.
    pub turn_score: u64,
    /// Ojama the last turn added to the opponent's stock, before offsetting.
    pub ojama_sent: u32,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            field: Field::default(),
            ojama_stock: 0,
            skill_gauge: 0,
            score: 0,
            time_left_ms: THINKING_TIME_MS,
            chains: 0,
            skill_used: false,
            exploded_blocks: 0,
            turn_score: 0,
            ojama_sent: 0,
        }
    }
}

impl GameState for State {
    /// What serde cannot check: ranges, and that a match in progress is in a reachable shape.
    fn validate(&self) -> Result<(), StateError> {
        at_most("turn", self.turn, TURNS)?;
        for (t, pack) in self.packs.iter().enumerate() {
            if pack.0.iter().flatten().any(|&v| v > 9) {
                return Err(StateError::at(
                    format!("packs[{t}]"),
                    "holds a value above 9",
                ));
            }
        }
        for (p, player) in self.players.iter().enumerate() {
            at_most(
                format!("players[{p}].skill_gauge"),
                player.skill_gauge,
                GAUGE_MAX,
            )?;
        }
        check_two_player_outcome(self.outcome.as_ref(), self.turn, TURNS)?;
        if self.outcome.is_none() {
            for (p, player) in self.players.iter().enumerate() {
                if player.field.max_height() >= DANGER_HEIGHT {
                    return Err(StateError::at(
                        format!("players[{p}].field"),
                        "reaches the danger line but outcome is null",
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

//! The ways CODE VS 4.0's rules are got wrong that shinpan can play
//! ([`crate::game::Game::variants`]), from the planted bugs of `conformance/planted/codevs4/`
//! (each patch's number in its doc): each breaks one clause of `rules.yaml`. The reference never
//! plays them; `check`, `diff` and `trace` play them to name a departure by the variant that
//! reproduces it. Two are variants of the prompt ([`Wrong::VisionOneShort`],
//! [`Wrong::InputPrintsXBeforeY`]); the others of the turn. A planted bug whose result is no
//! state of the game is no variant (10, a unit left at HP 0: such a result is refused before it
//! is compared, so it could name nothing).

use crate::game::Variant;

/// One way of getting a rule wrong, switched on in the engine's step or the prompt; its number
/// is its place in [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrong {
    /// `order.first-wins` (planted 14): every order of a unit counts, not only the first.
    EveryOrderOfAUnitCounts,
    /// `move.edge-stays` (planted 21): a move off the field wraps around to the other side.
    MovesWrapAround,
    /// `produce.fights-at-once` (planted 12): a unit produced this turn sits out the battle.
    NewUnitsSitOutTheBattle,
    /// `battle.range` (planted 04): every unit but the castle reaches 3, not 2.
    AttackRangeOnePast,
    /// `battle.damage-table` (planted 18): table 3's knight-on-fighter and fighter-on-knight
    /// factors swapped (1600 and 200).
    FighterAndKnightSwapped,
    /// `battle.k-divisor` (planted 03): the table's factor divided by k is rounded up.
    DamageRoundedUp,
    /// `battle.cell-cap` (planted 01): every enemy on a cell counts in k, not at most 10.
    NoCellCap,
    /// `battle.enemies-only` (planted 20): an attacker's own units in range count in its k too
    /// (they are not hit).
    KCountsOwnUnitsToo,
    /// `resources.income` (planted 06): the income is paid before the orders, so it pays for
    /// this turn's productions.
    IncomeBeforeProduction,
    /// `resources.extra-stages` (planted 15): player 1's income of 20 starts at stage 28, not 27.
    ExtraStagesFrom28,
    /// `resources.cell-cap` (planted 08): a resource cell yields up to 6 a player, not 5.
    GatherCapAt6,
    /// `resources.after-removal` (planted 09): the resources phase comes before the battle, so
    /// a worker removed this turn gathers.
    GatherBeforeRemoval,
    /// `vision.radius` (planted 05): units of vision 4 see 3 (prompts only).
    VisionOneShort,
    /// `input.unit-line` (planted 19): a prompt's unit line is `id x y hp type`.
    InputPrintsXBeforeY,
    /// `end.both-castles` (planted 16): both castles removed in one turn: player 0 wins.
    BothCastlesDownPlayer0Wins,
    /// `end.turn-limit` (planted 17): the stage ends as a draw after turn 998, not 999.
    TurnLimitOneEarly,
}

/// Every [`Wrong`], in the order of [`VARIANTS`] (the catalogue's order of their clauses).
pub const ALL: [Wrong; 16] = [
    Wrong::EveryOrderOfAUnitCounts,
    Wrong::MovesWrapAround,
    Wrong::NewUnitsSitOutTheBattle,
    Wrong::AttackRangeOnePast,
    Wrong::FighterAndKnightSwapped,
    Wrong::DamageRoundedUp,
    Wrong::NoCellCap,
    Wrong::KCountsOwnUnitsToo,
    Wrong::IncomeBeforeProduction,
    Wrong::ExtraStagesFrom28,
    Wrong::GatherCapAt6,
    Wrong::GatherBeforeRemoval,
    Wrong::VisionOneShort,
    Wrong::InputPrintsXBeforeY,
    Wrong::BothCastlesDownPlayer0Wins,
    Wrong::TurnLimitOneEarly,
];

/// What [`ALL`] does, for reports.
pub static VARIANTS: [Variant; 16] = [
    Variant {
        name: "every-order-of-a-unit-counts",
        clause: "order.first-wins",
        does: "every order of a unit is carried out, not only the first",
    },
    Variant {
        name: "moves-wrap-around",
        clause: "move.edge-stays",
        does: "a move off the field wraps around to the other side, not stays",
    },
    Variant {
        name: "new-units-sit-out-the-battle",
        clause: "produce.fights-at-once",
        does: "a unit produced this turn appears after the battle",
    },
    Variant {
        name: "attack-range-one-past",
        clause: "battle.range",
        does: "units other than the castle attack within 3, not 2",
    },
    Variant {
        name: "fighter-and-knight-swapped",
        clause: "battle.damage-table",
        does: "knight deals 1600 to a fighter and fighter 200 to a knight (table 3 swapped)",
    },
    Variant {
        name: "damage-rounded-up",
        clause: "battle.k-divisor",
        does: "damage is the factor / k rounded up, not down",
    },
    Variant {
        name: "no-cell-cap",
        clause: "battle.cell-cap",
        does: "k counts every enemy on a cell, not at most 10",
    },
    Variant {
        name: "k-counts-own-units-too",
        clause: "battle.enemies-only",
        does: "own units in range count in k (not hit)",
    },
    Variant {
        name: "income-before-production",
        clause: "resources.income",
        does: "the income is paid before the orders, not in the resources phase",
    },
    Variant {
        name: "extra-stages-from-28",
        clause: "resources.extra-stages",
        does: "player 1 receives 20 from stage 28, not 27",
    },
    Variant {
        name: "gather-cap-at-6",
        clause: "resources.cell-cap",
        does: "a resource cell yields at most 6, not 5",
    },
    Variant {
        name: "gather-before-removal",
        clause: "resources.after-removal",
        does: "workers gather before the battle and removal",
    },
    Variant {
        name: "vision-one-short",
        clause: "vision.radius",
        does: "units of vision 4 see only 3",
    },
    Variant {
        name: "input-prints-x-before-y",
        clause: "input.unit-line",
        does: "unit lines print x before y",
    },
    Variant {
        name: "both-castles-down-player-0-wins",
        clause: "end.both-castles",
        does: "both castles down in one turn: player 0 wins, not a draw",
    },
    Variant {
        name: "turn-limit-one-early",
        clause: "end.turn-limit",
        does: "the stage ends after turn 998, not 999",
    },
];

/// Some of the [`Wrong`]s, played together (none: the rules).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wrongs(u32);

impl Wrongs {
    /// The rules.
    pub const NONE: Wrongs = Wrongs(0);

    /// The variants at `indices` of [`VARIANTS`] (an index past the end is none).
    pub fn of(indices: &[usize]) -> Wrongs {
        Wrongs(
            indices
                .iter()
                .filter(|&&i| i < ALL.len())
                .fold(0, |set, &i| set | 1 << i),
        )
    }

    /// Whether `wrong` is played.
    pub fn has(self, wrong: Wrong) -> bool {
        self.0 & 1 << wrong as u32 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_names_a_clause_of_the_catalogue_in_its_order() {
        let catalogue = include_str!("../../../cases/codevs4/rules.yaml");
        let at = |clause: &str| {
            catalogue
                .find(&format!("- id: {clause}\n"))
                .unwrap_or_else(|| panic!("{clause} is not in rules.yaml"))
        };
        let places: Vec<usize> = VARIANTS.iter().map(|v| at(v.clause)).collect();
        assert!(places.windows(2).all(|w| w[0] < w[1]), "{VARIANTS:?}");
        assert_eq!(ALL.len(), VARIANTS.len());
        for (i, wrong) in ALL.iter().enumerate() {
            assert_eq!(*wrong as usize, i);
            assert!(Wrongs::of(&[i]).has(*wrong));
        }
    }
}

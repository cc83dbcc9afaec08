//! The ways TSG AUTO CHESS's rules are got wrong that shinpan can play
//! ([`crate::game::Game::variants`]), from the planted bugs of
//! `conformance/planted/tsg-auto-chess/` (each patch's number in its doc): each breaks one clause
//! of `rules.yaml`. The reference never plays them; `check`, `diff` and `trace` play them to name
//! a departure by the variant that reproduces it. main.rb's own departures are played apart
//! ([`super::known`]), as the whole engine they make. A planted bug whose result is no state of
//! the game (two units on a cell: 09, `buy.empty-cell`; more units than the limit: 07,
//! `buy.unit-limit`) is no variant: such a result is refused before it is compared, so it
//! could name nothing.

use crate::game::Variant;

/// One way of getting a rule wrong, switched on in the engine's step; its number is its place
/// in [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrong {
    /// `shop.refill` (planted 17): a refilled slot gets a level-1 unit, not the buyer's level.
    RefillAtLevelOne,
    /// `gold.interest` (planted 10): interest is not capped at 5.
    InterestUncapped,
    /// `gold.kill-income` (planted 20): a player earns kill income for its own units lost.
    KillIncomeForOwnLosses,
    /// `buy.range` (planted 08): max(x − kx, y − ky) ≤ 3 with signed differences.
    BuyRangeSigned,
    /// `evolve.three-own-units` (planted 21): one unit named three times is taken as three.
    EvolveWithOneIdThrice,
    /// `evolve.result` (planted 04): ⌊sum / 3.5 · 2⌋, not twice the average rounded half up.
    EvolveSumOverThreeAndAHalf,
    /// `levelup.cost` (planted 16): a levelup is taken with 3 gold.
    LevelupForThreeGold,
    /// `move.once` (planted 06): every move line naming a unit moves it.
    UnitsMoveTwice,
    /// `move.id-order` (planted 14): moves are carried out in player order, then line order.
    MovesInPlayerOrder,
    /// `attack.king-range` (planted 12): a king hits within 2, not 3.
    KingRangeTwo,
    /// `attack.multiplier` (planted 18): a warrior deals double to a mage, not to an assassin.
    WarriorDoublesOnMage,
    /// `attack.half-rounds-up` (planted 05): a halved attack is rounded down.
    HalvesRoundedDown,
    /// `attack.fresh-units` (planted 13): a unit bought this turn attacks.
    FreshUnitsAttack,
    /// `end.turn-limit` (planted 19): the match ends after 999 turns, not 1000.
    TurnLimitATurnEarly,
    /// `end.time-over` (planted 15): a reply that uses exactly all the time left does not lose.
    ExactlyAllTheTimeAllowed,
}

/// Every [`Wrong`], in the order of [`VARIANTS`] (the catalogue's order of their clauses).
pub const ALL: [Wrong; 15] = [
    Wrong::RefillAtLevelOne,
    Wrong::InterestUncapped,
    Wrong::KillIncomeForOwnLosses,
    Wrong::BuyRangeSigned,
    Wrong::EvolveWithOneIdThrice,
    Wrong::EvolveSumOverThreeAndAHalf,
    Wrong::LevelupForThreeGold,
    Wrong::UnitsMoveTwice,
    Wrong::MovesInPlayerOrder,
    Wrong::KingRangeTwo,
    Wrong::WarriorDoublesOnMage,
    Wrong::HalvesRoundedDown,
    Wrong::FreshUnitsAttack,
    Wrong::TurnLimitATurnEarly,
    Wrong::ExactlyAllTheTimeAllowed,
];

/// What [`ALL`] does, for reports.
pub static VARIANTS: [Variant; 15] = [
    Variant {
        name: "refill-at-level-one",
        clause: "shop.refill",
        does: "a refilled slot gets a level-1 unit, not one at the buyer's level",
    },
    Variant {
        name: "interest-uncapped",
        clause: "gold.interest",
        does: "interest of 1 gold a full 10, without the cap of 5",
    },
    Variant {
        name: "kill-income-for-own-losses",
        clause: "gold.kill-income",
        does: "kill income for the player's own units lost, not the enemy's",
    },
    Variant {
        name: "buy-range-signed",
        clause: "buy.range",
        does: "a buy within max(x - kx, y - ky) <= 3, signed, not Chebyshev",
    },
    Variant {
        name: "evolve-with-one-id-thrice",
        clause: "evolve.three-own-units",
        does: "an evolve naming one unit three times is taken (and the unit leaves)",
    },
    Variant {
        name: "evolve-sum-over-three-and-a-half",
        clause: "evolve.result",
        does: "an evolved value is floor(sum / 3.5 * 2), not twice the average rounded",
    },
    Variant {
        name: "levelup-for-three-gold",
        clause: "levelup.cost",
        does: "a levelup is taken with 3 gold (and leaves -1)",
    },
    Variant {
        name: "units-move-twice",
        clause: "move.once",
        does: "every move line naming a unit moves it, not only the first",
    },
    Variant {
        name: "moves-in-player-order",
        clause: "move.id-order",
        does: "moves carried out player 1's first, each in line order, not in ascending id",
    },
    Variant {
        name: "king-range-two",
        clause: "attack.king-range",
        does: "a king hits enemies within 2, not 3",
    },
    Variant {
        name: "warrior-doubles-on-mage",
        clause: "attack.multiplier",
        does: "a warrior deals double to a mage (and half to an assassin)",
    },
    Variant {
        name: "halves-rounded-down",
        clause: "attack.half-rounds-up",
        does: "a halved attack rounded down (ATK 7 deals 3)",
    },
    Variant {
        name: "fresh-units-attack",
        clause: "attack.fresh-units",
        does: "a unit bought this turn attacks",
    },
    Variant {
        name: "turn-limit-a-turn-early",
        clause: "end.turn-limit",
        does: "the match ends after 999 turns, not 1000",
    },
    Variant {
        name: "exactly-all-the-time-allowed",
        clause: "end.time-over",
        does: "a reply using exactly the time left does not lose",
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
        let catalogue = include_str!("../../../cases/tsg-auto-chess/rules.yaml");
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

//! The ways TSG AUTO CHESS's rules are got wrong that shinpan can play
//! ([`shinpan_core::seam::Variants`]), from the planted bugs of
//! `conformance/planted/tsg-auto-chess/` (each patch's number in its doc): each breaks one clause
//! of `rules.yaml`. The reference never plays them; `check`, `diff` and `trace` play them to name
//! a departure by the variant that reproduces it. main.rb's own departures are played apart
//! ([`super::known`]), as the whole engine they make. A planted bug whose result is no state of
//! the game (two units on a cell: 09, `buy.empty-cell`; more units than the limit: 07,
//! `buy.unit-limit`) is no variant: such a result is refused before it is compared, so it
//! could name nothing.

shinpan_core::seam::variants! {
    /// One way of getting a rule wrong, switched on in the engine's step; its number is its place
    /// in `Wrong::VARIANTS`.
    pub enum Wrong {
        /// `shop.refill` (planted 17): a refilled slot gets a level-1 unit, not the buyer's level.
        RefillAtLevelOne = (
            "refill-at-level-one",
            "shop.refill",
            "a refilled slot gets a level-1 unit, not one at the buyer's level",
        ),
        /// `gold.interest` (planted 10): interest is not capped at 5.
        InterestUncapped = (
            "interest-uncapped",
            "gold.interest",
            "interest of 1 gold a full 10, without the cap of 5",
        ),
        /// `gold.kill-income` (planted 20): a player earns kill income for its own units lost.
        KillIncomeForOwnLosses = (
            "kill-income-for-own-losses",
            "gold.kill-income",
            "kill income for the player's own units lost, not the enemy's",
        ),
        /// `buy.range` (planted 08): max(x − kx, y − ky) ≤ 3 with signed differences.
        BuyRangeSigned = (
            "buy-range-signed",
            "buy.range",
            "a buy within max(x - kx, y - ky) <= 3, signed, not Chebyshev",
        ),
        /// `evolve.three-own-units` (planted 21): one unit named three times is taken as three.
        EvolveWithOneIdThrice = (
            "evolve-with-one-id-thrice",
            "evolve.three-own-units",
            "an evolve naming one unit three times is taken (and the unit leaves)",
        ),
        /// `evolve.result` (planted 04): ⌊sum / 3.5 · 2⌋, not twice the average rounded half up.
        EvolveSumOverThreeAndAHalf = (
            "evolve-sum-over-three-and-a-half",
            "evolve.result",
            "an evolved value is floor(sum / 3.5 * 2), not twice the average rounded",
        ),
        /// `levelup.cost` (planted 16): a levelup is taken with 3 gold.
        LevelupForThreeGold = (
            "levelup-for-three-gold",
            "levelup.cost",
            "a levelup is taken with 3 gold (and leaves -1)",
        ),
        /// `move.once` (planted 06): every move line naming a unit moves it.
        UnitsMoveTwice = (
            "units-move-twice",
            "move.once",
            "every move line naming a unit moves it, not only the first",
        ),
        /// `move.id-order` (planted 14): moves are carried out in player order, then line order.
        MovesInPlayerOrder = (
            "moves-in-player-order",
            "move.id-order",
            "moves carried out player 1's first, each in line order, not in ascending id",
        ),
        /// `attack.king-range` (planted 12): a king hits within 2, not 3.
        KingRangeTwo = (
            "king-range-two",
            "attack.king-range",
            "a king hits enemies within 2, not 3",
        ),
        /// `attack.multiplier` (planted 18): a warrior deals double to a mage, not to an assassin.
        WarriorDoublesOnMage = (
            "warrior-doubles-on-mage",
            "attack.multiplier",
            "a warrior deals double to a mage (and half to an assassin)",
        ),
        /// `attack.half-rounds-up` (planted 05): a halved attack is rounded down.
        HalvesRoundedDown = (
            "halves-rounded-down",
            "attack.half-rounds-up",
            "a halved attack rounded down (ATK 7 deals 3)",
        ),
        /// `attack.fresh-units` (planted 13): a unit bought this turn attacks.
        FreshUnitsAttack = (
            "fresh-units-attack",
            "attack.fresh-units",
            "a unit bought this turn attacks",
        ),
        /// `end.turn-limit` (planted 19): the match ends after 999 turns, not 1000.
        TurnLimitATurnEarly = (
            "turn-limit-a-turn-early",
            "end.turn-limit",
            "the match ends after 999 turns, not 1000",
        ),
        /// `end.time-over` (planted 15): a reply that uses exactly all the time left does not lose.
        ExactlyAllTheTimeAllowed = (
            "exactly-all-the-time-allowed",
            "end.time-over",
            "a reply using exactly the time left does not lose",
        ),
    }
}

/// The variants played together (none: the rules).
pub type Wrongs = shinpan_core::seam::VariantSet;

//! The ways CODE VS 4.0's rules are got wrong that shinpan can play
//! ([`shinpan_core::seam::Variants`]), from the planted bugs of `conformance/planted/codevs4/`
//! (each patch's number in its doc): each breaks one clause of `rules.yaml`. The reference never
//! plays them; `check`, `diff` and `trace` play them to name a departure by the variant that
//! reproduces it. Two are variants of the prompt ([`Wrong::VisionOneShort`],
//! [`Wrong::InputPrintsXBeforeY`]); the others of the turn. A planted bug whose result is no
//! state of the game is no variant (10, a unit left at HP 0: such a result is refused before it
//! is compared, so it could name nothing).

shinpan_core::seam::variants! {
    /// One way of getting a rule wrong, switched on in the engine's step or the prompt; its number
    /// is its place in `Wrong::VARIANTS`.
    pub enum Wrong {
        /// `order.first-wins` (planted 14): every order of a unit counts, not only the first.
        EveryOrderOfAUnitCounts = (
            "every-order-of-a-unit-counts",
            "order.first-wins",
            "every order of a unit is carried out, not only the first",
        ),
        /// `move.edge-stays` (planted 21): a move off the field wraps around to the other side.
        MovesWrapAround = (
            "moves-wrap-around",
            "move.edge-stays",
            "a move off the field wraps around to the other side, not stays",
        ),
        /// `produce.fights-at-once` (planted 12): a unit produced this turn sits out the battle.
        NewUnitsSitOutTheBattle = (
            "new-units-sit-out-the-battle",
            "produce.fights-at-once",
            "a unit produced this turn appears after the battle",
        ),
        /// `battle.range` (planted 04): every unit but the castle reaches 3, not 2.
        AttackRangeOnePast = (
            "attack-range-one-past",
            "battle.range",
            "units other than the castle attack within 3, not 2",
        ),
        /// `battle.damage-table` (planted 18): table 3's knight-on-fighter and fighter-on-knight
        /// factors swapped (1600 and 200).
        FighterAndKnightSwapped = (
            "fighter-and-knight-swapped",
            "battle.damage-table",
            "knight deals 1600 to a fighter and fighter 200 to a knight (table 3 swapped)",
        ),
        /// `battle.k-divisor` (planted 03): the table's factor divided by k is rounded up.
        DamageRoundedUp = (
            "damage-rounded-up",
            "battle.k-divisor",
            "damage is the factor / k rounded up, not down",
        ),
        /// `battle.cell-cap` (planted 01): every enemy on a cell counts in k, not at most 10.
        NoCellCap = (
            "no-cell-cap",
            "battle.cell-cap",
            "k counts every enemy on a cell, not at most 10",
        ),
        /// `battle.enemies-only` (planted 20): an attacker's own units in range count in its k too
        /// (they are not hit).
        KCountsOwnUnitsToo = (
            "k-counts-own-units-too",
            "battle.enemies-only",
            "own units in range count in k (not hit)",
        ),
        /// `resources.income` (planted 06): the income is paid before the orders, so it pays for
        /// this turn's productions.
        IncomeBeforeProduction = (
            "income-before-production",
            "resources.income",
            "the income is paid before the orders, not in the resources phase",
        ),
        /// `resources.extra-stages` (planted 15): player 1's income of 20 starts at stage 28, not 27.
        ExtraStagesFrom28 = (
            "extra-stages-from-28",
            "resources.extra-stages",
            "player 1 receives 20 from stage 28, not 27",
        ),
        /// `resources.cell-cap` (planted 08): a resource cell yields up to 6 a player, not 5.
        GatherCapAt6 = (
            "gather-cap-at-6",
            "resources.cell-cap",
            "a resource cell yields at most 6, not 5",
        ),
        /// `resources.after-removal` (planted 09): the resources phase comes before the battle, so
        /// a worker removed this turn gathers.
        GatherBeforeRemoval = (
            "gather-before-removal",
            "resources.after-removal",
            "workers gather before the battle and removal",
        ),
        /// `vision.radius` (planted 05): units of vision 4 see 3 (prompts only).
        VisionOneShort = (
            "vision-one-short",
            "vision.radius",
            "units of vision 4 see only 3",
        ),
        /// `input.unit-line` (planted 19): a prompt's unit line is `id x y hp type`.
        InputPrintsXBeforeY = (
            "input-prints-x-before-y",
            "input.unit-line",
            "unit lines print x before y",
        ),
        /// `end.both-castles` (planted 16): both castles removed in one turn: player 0 wins.
        BothCastlesDownPlayer0Wins = (
            "both-castles-down-player-0-wins",
            "end.both-castles",
            "both castles down in one turn: player 0 wins, not a draw",
        ),
        /// `end.turn-limit` (planted 17): the stage ends as a draw after turn 998, not 999.
        TurnLimitOneEarly = (
            "turn-limit-one-early",
            "end.turn-limit",
            "the stage ends after turn 998, not 999",
        ),
    }
}

/// The variants played together (none: the rules).
pub type Wrongs = shinpan_core::seam::VariantSet;

//! The ways CEDEC CHALLENGE 2013's rules are got wrong that shinpan can play
//! ([`crate::seam::Variants`]). The game has no planted bugs; these are the slips a
//! reading of the rule document (and of `rules.yaml`'s settled clauses) invites, each one
//! switch in the engine: a boundary off by one, a limit not kept, a tie the wrong way. Each
//! breaks one clause of `rules.yaml` (the decision or section it comes from in its doc). The
//! reference never plays them; `check`, `diff` and `trace` play them to name a departure by the
//! variant that reproduces it.

crate::seam::variants! {
    /// One way of getting a rule wrong, switched on in the engine's step; its number is its place
    /// in `Wrong::VARIANTS`.
    pub enum Wrong {
        /// `turn.start-only-owner` (D-cedec-3): every player's factory and robotmakers produce at
        /// the start of any player's turn.
        EveryPlayersBasesProduce = (
            "every-players-bases-produce",
            "turn.start-only-owner",
            "every player's factory and robotmakers produce at each player's turn start",
        ),
        /// `tower.reach` (D-cedec-3): a tower fires at distance 3 too.
        TowerRangeThree = (
            "tower-range-three",
            "tower.reach",
            "a tower fires up to distance 3, not 2",
        ),
        /// `turn.move-or-build` (D-cedec-6): a turn may both move robots and build.
        MoveAndBuildInOneTurn = (
            "move-and-build-in-one-turn",
            "turn.move-or-build",
            "a turn may both move robots and build",
        ),
        /// `turn.one-build` (「Build / 建造」): a turn may build more than once.
        TwoBuildsATurn = (
            "two-builds-a-turn",
            "turn.one-build",
            "a second build in a turn is taken",
        ),
        /// `move.attack` (D-cedec-5): as many attackers as defenders take the tile, holding 0 robots.
        TieTakesTheTile = (
            "tie-takes-the-tile",
            "move.attack",
            "as many attackers as defenders take the tile (with 0 robots)",
        ),
        /// `move.once` (D-cedec-5): robots that arrived or took a tile this turn may move on.
        ArrivedRobotsMoveAgain = (
            "arrived-robots-move-again",
            "move.once",
            "robots that moved this turn may move again",
        ),
        /// `build.robots` (「Build / 建造」): a build needs more robots on the tile than its robot
        /// cost, not as many.
        BuildNeedsMoreThanTheCost = (
            "build-needs-more-than-the-cost",
            "build.robots",
            "a build needs more robots than its cost, not as many",
        ),
        /// `town.houses` (D-cedec-3): a town leaves its neighbouring settlements as they are.
        NoHousesAroundATown = (
            "no-houses-around-a-town",
            "town.houses",
            "a town does not turn its neighbouring settlements into houses",
        ),
        /// `town.bonus` (D-cedec-3): a town scores its 3 points only, without the resources around it.
        NoTownBonus = (
            "no-town-bonus",
            "town.bonus",
            "a town scores 3 only, without its bonus for the resources around it",
        ),
        /// `end.hundred` (D-cedec-1): the match ends when a player has more than 100 points, not 100.
        EndsAbove100 = (
            "ends-above-100",
            "end.hundred",
            "the match ends above 100 points, not at 100",
        ),
        /// `end.rounds` (D-cedec-1): the match ends after round 199, not 200.
        RoundLimitARoundEarly = (
            "round-limit-a-round-early",
            "end.rounds",
            "the match ends after round 199, not 200",
        ),
        /// `end.winner` (「得点計算と勝敗」): players tied for first: the lower id wins.
        TieGoesToTheLowerId = (
            "tie-goes-to-the-lower-id",
            "end.winner",
            "a tie for first goes to the lower id, not the higher",
        ),
    }
}

/// The variants played together (none: the rules).
pub type Wrongs = crate::seam::VariantSet;

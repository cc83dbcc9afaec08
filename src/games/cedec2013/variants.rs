//! The ways CEDEC CHALLENGE 2013's rules are got wrong that shinpan can play
//! ([`crate::game::Game::variants`]). The game has no planted bugs; these are the slips a
//! reading of the rule document (and of `rules.yaml`'s settled clauses) invites, each one
//! switch in the engine: a boundary off by one, a limit not kept, a tie the wrong way. Each
//! breaks one clause of `rules.yaml` (the decision or section it comes from in its doc). The
//! reference never plays them; `check`, `diff` and `trace` play them to name a departure by the
//! variant that reproduces it.

use crate::game::Variant;

/// One way of getting a rule wrong, switched on in the engine's step; its number is its place
/// in [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrong {
    /// `turn.start-only-owner` (D-cedec-3): every player's factory and robotmakers produce at
    /// the start of any player's turn.
    EveryPlayersBasesProduce,
    /// `tower.reach` (D-cedec-3): a tower fires at distance 3 too.
    TowerRangeThree,
    /// `turn.move-or-build` (D-cedec-6): a turn may both move robots and build.
    MoveAndBuildInOneTurn,
    /// `turn.one-build` (「Build / 建造」): a turn may build more than once.
    TwoBuildsATurn,
    /// `move.attack` (D-cedec-5): as many attackers as defenders take the tile, holding 0 robots.
    TieTakesTheTile,
    /// `move.once` (D-cedec-5): robots that arrived or took a tile this turn may move on.
    ArrivedRobotsMoveAgain,
    /// `build.robots` (「Build / 建造」): a build needs more robots on the tile than its robot
    /// cost, not as many.
    BuildNeedsMoreThanTheCost,
    /// `town.houses` (D-cedec-3): a town leaves its neighbouring settlements as they are.
    NoHousesAroundATown,
    /// `town.bonus` (D-cedec-3): a town scores its 3 points only, without the resources around it.
    NoTownBonus,
    /// `end.hundred` (D-cedec-1): the match ends when a player has more than 100 points, not 100.
    EndsAbove100,
    /// `end.rounds` (D-cedec-1): the match ends after round 199, not 200.
    RoundLimitARoundEarly,
    /// `end.winner` (「得点計算と勝敗」): players tied for first: the lower id wins.
    TieGoesToTheLowerId,
}

/// Every [`Wrong`], in the order of [`VARIANTS`] (the catalogue's order of their clauses).
pub const ALL: [Wrong; 12] = [
    Wrong::EveryPlayersBasesProduce,
    Wrong::TowerRangeThree,
    Wrong::MoveAndBuildInOneTurn,
    Wrong::TwoBuildsATurn,
    Wrong::TieTakesTheTile,
    Wrong::ArrivedRobotsMoveAgain,
    Wrong::BuildNeedsMoreThanTheCost,
    Wrong::NoHousesAroundATown,
    Wrong::NoTownBonus,
    Wrong::EndsAbove100,
    Wrong::RoundLimitARoundEarly,
    Wrong::TieGoesToTheLowerId,
];

/// What [`ALL`] does, for reports.
pub static VARIANTS: [Variant; 12] = [
    Variant {
        name: "every-players-bases-produce",
        clause: "turn.start-only-owner",
        does: "every player's factory and robotmakers produce at each player's turn start",
    },
    Variant {
        name: "tower-range-three",
        clause: "tower.reach",
        does: "a tower fires up to distance 3, not 2",
    },
    Variant {
        name: "move-and-build-in-one-turn",
        clause: "turn.move-or-build",
        does: "a turn may both move robots and build",
    },
    Variant {
        name: "two-builds-a-turn",
        clause: "turn.one-build",
        does: "a second build in a turn is taken",
    },
    Variant {
        name: "tie-takes-the-tile",
        clause: "move.attack",
        does: "as many attackers as defenders take the tile (with 0 robots)",
    },
    Variant {
        name: "arrived-robots-move-again",
        clause: "move.once",
        does: "robots that moved this turn may move again",
    },
    Variant {
        name: "build-needs-more-than-the-cost",
        clause: "build.robots",
        does: "a build needs more robots than its cost, not as many",
    },
    Variant {
        name: "no-houses-around-a-town",
        clause: "town.houses",
        does: "a town does not turn its neighbouring settlements into houses",
    },
    Variant {
        name: "no-town-bonus",
        clause: "town.bonus",
        does: "a town scores 3 only, without its bonus for the resources around it",
    },
    Variant {
        name: "ends-above-100",
        clause: "end.hundred",
        does: "the match ends above 100 points, not at 100",
    },
    Variant {
        name: "round-limit-a-round-early",
        clause: "end.rounds",
        does: "the match ends after round 199, not 200",
    },
    Variant {
        name: "tie-goes-to-the-lower-id",
        clause: "end.winner",
        does: "a tie for first goes to the lower id, not the higher",
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
        let catalogue = include_str!("../../../cases/cedec2013/rules.yaml");
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

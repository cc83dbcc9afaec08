//! The ways Spring Challenge 2022's rules are got wrong that shinpan can play
//! ([`crate::game::Game::variants`]), from the planted bugs of `conformance/planted/spring2022/`
//! (each patch's number in its doc) and the fog a simulator forgets: each breaks one clause of
//! `rules.yaml`. The reference never plays them; `check`, `diff` and `trace` play them to name
//! a departure by the variant that reproduces it.

use crate::game::Variant;

/// One way of getting a rule wrong, switched on in the engine's step or the prompt; its number
/// is its place in [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrong {
    /// `combat.wild-mana` (planted 13): wild mana from 4999 from home, not beyond 5000.
    WildManaFrom4999,
    /// `shield.duration` (planted 12): a shield lasts one turn less.
    ShieldOneTurnShort,
    /// `fog.hero`: every hero is shown, wherever it stands (the fog forgotten for heroes).
    HeroesSeenThroughFog,
}

/// Every [`Wrong`], in the order of [`VARIANTS`] (the catalogue's order of their clauses).
pub const ALL: [Wrong; 3] = [
    Wrong::WildManaFrom4999,
    Wrong::ShieldOneTurnShort,
    Wrong::HeroesSeenThroughFog,
];

/// What [`ALL`] does, for reports.
pub static VARIANTS: [Variant; 3] = [
    Variant {
        name: "wild-mana-from-4999",
        clause: "combat.wild-mana",
        does: "a hit counts as wild mana from 4999 from home, not beyond 5000",
    },
    Variant {
        name: "shield-one-turn-short",
        clause: "shield.duration",
        does: "a shield lasts one turn less",
    },
    Variant {
        name: "heroes-seen-through-fog",
        clause: "fog.hero",
        does: "all heroes visible through the fog",
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
        let catalogue = include_str!("../../../cases/spring2022/rules.yaml");
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

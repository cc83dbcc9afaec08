//! The ways Spring Challenge 2022's rules are got wrong that shinpan can play
//! ([`shinpan_core::seam::Variants`]), from the planted bugs of `conformance/planted/spring2022/`
//! (each patch's number in its doc) and the fog a simulator forgets: each breaks one clause of
//! `rules.yaml`. The reference never plays them; `check`, `diff` and `trace` play them to name
//! a departure by the variant that reproduces it.

shinpan_core::seam::variants! {
    /// One way of getting a rule wrong, switched on in the engine's step or the prompt; its number
    /// is its place in `Wrong::VARIANTS`.
    pub enum Wrong {
        /// `combat.wild-mana` (planted 13): wild mana from 4999 from home, not beyond 5000.
        WildManaFrom4999 = (
            "wild-mana-from-4999",
            "combat.wild-mana",
            "a hit counts as wild mana from 4999 from home, not beyond 5000",
        ),
        /// `shield.duration` (planted 12): a shield lasts one turn less.
        ShieldOneTurnShort = (
            "shield-one-turn-short",
            "shield.duration",
            "a shield lasts one turn less",
        ),
        /// `fog.hero`: every hero is shown, wherever it stands (the fog forgotten for heroes).
        HeroesSeenThroughFog = (
            "heroes-seen-through-fog",
            "fog.hero",
            "all heroes visible through the fog",
        ),
    }
}

/// The variants played together (none: the rules).
pub type Wrongs = shinpan_core::seam::VariantSet;

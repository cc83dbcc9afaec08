//! The ways CODE VS Reborn's rules are got wrong that shinpan can play ([`Game::variants`]):
//! each breaks one clause of `rules.yaml`, the way a contestant's simulator or the example
//! adapter's planted bugs (`conformance/adapters/codevs_reborn.py --bug …`) break it. The
//! reference never plays them; `check`, `diff` and `trace` play them to name a departure by
//! the variant that reproduces it.
//!
//! [`Game::variants`]: crate::game::Game::variants

use crate::game::Variant;

/// One way of getting a rule wrong, switched on in the engine's step ([`super::engine`]); its
/// number is its place in [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrong {
    /// `field.danger-line`: a column of 16 blocks already loses.
    DangerLineAt16,
    /// `vanish.directions`: pairs vanish across and up-down only, never diagonally.
    NoDiagonalVanish,
    /// `score.chain`: Σ round(1.3^i), not floor (the adapter's `--bug chain-round`).
    ChainScoreRounded,
    /// `drop.rotation`: the pack turns anticlockwise.
    RotationAnticlockwise,
    /// `gauge.gain`: +8 for every chain, not once a turn.
    GaugeGainPerChain,
    /// `skill.explosion-score`: 25·2^(b/12) rounded, not floored.
    ExplosionScoreRounded,
    /// `ojama.offset`: both stocks kept, never offset.
    NoOffset,
    /// `ojama.drop`: a row falls at a stock of 11, not 10 (the adapter's `--bug ojama-cap-11`).
    OjamaRowAt11,
    /// `turn.order`: the danger line judged after the pack lands, before anything vanishes.
    DangerLineBeforeChains,
    /// `time.exceeded`: a reply that takes exactly the time left is too late.
    TimeUpAtTheLimit,
    /// `reply.lenient`: a reply the strict grammar flags (blanks, CR, leading zeros) is refused.
    StrictRepliesOnly,
}

/// Every [`Wrong`], in the order of [`VARIANTS`] (the catalogue's order of their clauses).
pub const ALL: [Wrong; 11] = [
    Wrong::DangerLineAt16,
    Wrong::NoDiagonalVanish,
    Wrong::ChainScoreRounded,
    Wrong::RotationAnticlockwise,
    Wrong::GaugeGainPerChain,
    Wrong::ExplosionScoreRounded,
    Wrong::NoOffset,
    Wrong::OjamaRowAt11,
    Wrong::DangerLineBeforeChains,
    Wrong::TimeUpAtTheLimit,
    Wrong::StrictRepliesOnly,
];

/// What [`ALL`] does, for reports.
pub static VARIANTS: [Variant; 11] = [
    Variant {
        name: "danger-line-at-16",
        clause: "field.danger-line",
        does: "a column of 16 blocks loses, not 17",
    },
    Variant {
        name: "no-diagonal-vanish",
        clause: "vanish.directions",
        does: "diagonal neighbours never vanish",
    },
    Variant {
        name: "chain-score-rounded",
        clause: "score.chain",
        does: "chain scores sum round(1.3^i), not floor(1.3^i)",
    },
    Variant {
        name: "rotation-anticlockwise",
        clause: "drop.rotation",
        does: "packs turn anticlockwise",
    },
    Variant {
        name: "gauge-gain-per-chain",
        clause: "gauge.gain",
        does: "the gauge gains 8 per chain, not once a turn",
    },
    Variant {
        name: "explosion-score-rounded",
        clause: "skill.explosion-score",
        does: "the explosion scores 25·2^(b/12) rounded, not floored",
    },
    Variant {
        name: "no-offset",
        clause: "ojama.offset",
        does: "ojama stocks are never offset",
    },
    Variant {
        name: "ojama-row-at-11",
        clause: "ojama.drop",
        does: "an ojama row falls at a stock of 11, not 10",
    },
    Variant {
        name: "danger-line-before-chains",
        clause: "turn.order",
        does: "the danger line is judged before the chains vanish",
    },
    Variant {
        name: "time-up-at-the-limit",
        clause: "time.exceeded",
        does: "a reply taking exactly the time left is too late",
    },
    Variant {
        name: "strict-replies-only",
        clause: "reply.lenient",
        does: "replies the strict grammar flags are refused",
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
        let catalogue = include_str!("../../../cases/codevs-reborn/rules.yaml");
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
        assert!(!Wrongs::NONE.has(Wrong::NoOffset));
    }
}

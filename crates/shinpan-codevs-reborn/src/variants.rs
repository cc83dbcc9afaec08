//! The ways CODE VS Reborn's rules are got wrong that shinpan can play ([`Game::variants`]):
//! each breaks one clause of `rules.yaml`, the way a contestant's simulator or the example
//! adapter's planted bugs (`conformance/adapters/codevs_reborn.py --bug …`) break it. The
//! reference never plays them; `check`, `diff` and `trace` play them to name a departure by
//! the variant that reproduces it.
//!
//! [`Game::variants`]: shinpan_core::seam::Variants

shinpan_core::seam::variants! {
    /// One way of getting a rule wrong, switched on in the engine's step ([`super::engine`]); its
    /// number is its place in `Wrong::VARIANTS`.
    pub enum Wrong {
        /// `field.danger-line`: a column of 16 blocks already loses.
        DangerLineAt16 = (
            "danger-line-at-16",
            "field.danger-line",
            "a column of 16 blocks loses, not 17",
        ),
        /// `vanish.directions`: pairs vanish across and up-down only, never diagonally.
        NoDiagonalVanish = (
            "no-diagonal-vanish",
            "vanish.directions",
            "diagonal neighbours never vanish",
        ),
        /// `score.chain`: Σ round(1.3^i), not floor (the adapter's `--bug chain-round`).
        ChainScoreRounded = (
            "chain-score-rounded",
            "score.chain",
            "chain scores sum round(1.3^i), not floor(1.3^i)",
        ),
        /// `drop.rotation`: the pack turns anticlockwise.
        RotationAnticlockwise = (
            "rotation-anticlockwise",
            "drop.rotation",
            "packs turn anticlockwise",
        ),
        /// `gauge.gain`: +8 for every chain, not once a turn.
        GaugeGainPerChain = (
            "gauge-gain-per-chain",
            "gauge.gain",
            "the gauge gains 8 per chain, not once a turn",
        ),
        /// `skill.explosion-score`: 25·2^(b/12) rounded, not floored.
        ExplosionScoreRounded = (
            "explosion-score-rounded",
            "skill.explosion-score",
            "the explosion scores 25·2^(b/12) rounded, not floored",
        ),
        /// `ojama.offset`: both stocks kept, never offset.
        NoOffset = (
            "no-offset",
            "ojama.offset",
            "ojama stocks are never offset",
        ),
        /// `ojama.drop`: a row falls at a stock of 11, not 10 (the adapter's `--bug ojama-cap-11`).
        OjamaRowAt11 = (
            "ojama-row-at-11",
            "ojama.drop",
            "an ojama row falls at a stock of 11, not 10",
        ),
        /// `turn.order`: the danger line judged after the pack lands, before anything vanishes.
        DangerLineBeforeChains = (
            "danger-line-before-chains",
            "turn.order",
            "the danger line is judged before the chains vanish",
        ),
        /// `time.exceeded`: a reply that takes exactly the time left is too late.
        TimeUpAtTheLimit = (
            "time-up-at-the-limit",
            "time.exceeded",
            "a reply taking exactly the time left is too late",
        ),
        /// `reply.lenient`: a reply the strict grammar flags (blanks, CR, leading zeros) is refused.
        StrictRepliesOnly = (
            "strict-replies-only",
            "reply.lenient",
            "replies the strict grammar flags are refused",
        ),
    }
}

/// The variants played together (none: the rules).
pub type Wrongs = shinpan_core::seam::VariantSet;

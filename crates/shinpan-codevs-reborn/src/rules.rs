//! The numbers and formulas of CODE VS Reborn, each with the section of the rule document
//! (seed 004) it comes from. Pure functions only: the engine composes them.

/// 「フィールドについて」: the field is 10 blocks wide.
pub const WIDTH: usize = 10;
/// 「フィールドについて」: the field is 16 blocks high; these rows are shown in the prompt.
pub const HEIGHT: usize = 16;
/// 「フィールドについて」: a column reaching the 17th row at the end of a turn loses (D-reborn-5).
pub const DANGER_HEIGHT: usize = 17;
/// The most a column can hold during a turn: 16 at the start of a turn (else the match is
/// over), one ojama row, two blocks of a pack.
pub const CAPACITY: usize = HEIGHT + 1 + 2;

/// 「ターンについて」: a match lasts at most 500 turns, numbered 0..=499.
pub const TURNS: u32 = 500;
/// 「パックの生成について」: one pack per turn.
pub const PACKS: usize = 500;
/// 「ブロックについて」: 180 blocks of each value 1..=9 over the whole match.
pub const BLOCKS_PER_VALUE: usize = 180;
/// 「パックの生成について」: 380 packs hold 3 blocks ...
pub const THREE_BLOCK_PACKS: usize = 380;
/// ... and 120 packs hold 4.
pub const FOUR_BLOCK_PACKS: usize = 120;

/// 「消滅条件の和について」: two adjacent blocks summing to this vanish.
pub const VANISH_SUM: u8 = 10;
/// 「お邪魔ブロックについて」: ojama blocks are given as VANISH_SUM + 1.
pub const OJAMA: u8 = VANISH_SUM + 1;
/// 「スキルの効果」: blocks of this value explode when the skill is used.
pub const EXPLODING_VALUE: u8 = 5;

/// 「パックの投下位置」: positions 0..=8.
pub const MAX_POSITION: u8 = (WIDTH - 2) as u8;
/// 「パックの回転数」: rotations 0..=3, a quarter turn clockwise each.
pub const MAX_ROTATION: u8 = 3;

/// 「スキルゲージ」: the gauge runs from 0 to 100.
pub const GAUGE_MAX: u32 = 100;
/// 「スキルゲージの増加」: +8 on a turn with a sum-10 vanish on my field.
pub const GAUGE_GAIN: u32 = 8;
/// 「スキルの使用」: the skill needs a gauge of at least 80 at the end of the previous turn.
pub const SKILL_THRESHOLD: u32 = 80;

/// 「お邪魔ブロックの投下」: a row of ojama falls when the stock reaches the field's width.
pub const OJAMA_ROW: u32 = WIDTH as u32;

/// 「思考時間の制限について」: 3 minutes of thinking time for the whole match.
pub const THINKING_TIME_MS: u64 = 180_000;
/// 「思考時間の制限について」: the online qualifier's limit per turn (not applied by the
/// engine, which models the local client; the bot checker applies it).
pub const QUALIFIER_TURN_LIMIT_MS: u64 = 20_000;

/// 「スキルゲージの減少」 (D-reborn-1): the opponent's chain of `c` ≥ 3 costs me 12 + 2c.
pub fn gauge_decrease(opponent_chains: u32) -> u32 {
    if opponent_chains >= 3 {
        12 + 2 * opponent_chains
    } else {
        0
    }
}

/// The largest chain count possible: every chain removes at least two of the at most
/// `WIDTH * CAPACITY` blocks on a field.
pub const MAX_CHAINS: usize = WIDTH * CAPACITY / 2;

/// `FLOOR_POW_1_3[i]` = ⌊1.3^i⌋, exactly: ⌊13^i / 10^i⌋ is 13^i in decimal with its last `i`
/// digits dropped.
const FLOOR_POW_1_3: [u64; MAX_CHAINS + 1] = powers_of_1_3(false);

/// `ROUND_POW_1_3[i]` = 1.3^i rounded half up, for the variant `chain-score-rounded`: ⌊1.3^i⌋,
/// plus one where the first digit dropped is 5 or more.
const ROUND_POW_1_3: [u64; MAX_CHAINS + 1] = powers_of_1_3(true);

const fn powers_of_1_3(round: bool) -> [u64; MAX_CHAINS + 1] {
    // 13^95 has 106 decimal digits.
    const DIGITS: usize = 128;
    let mut table = [0u64; MAX_CHAINS + 1];
    let mut power = [0u8; DIGITS]; // little-endian decimal digits of 13^i
    power[0] = 1;
    table[0] = 1;
    let mut i = 1;
    while i <= MAX_CHAINS {
        let mut carry = 0u32;
        let mut d = 0;
        while d < DIGITS {
            let v = power[d] as u32 * 13 + carry;
            power[d] = (v % 10) as u8;
            carry = v / 10;
            d += 1;
        }
        let mut value = 0u64;
        let mut d = DIGITS;
        while d > i {
            d -= 1;
            value = value * 10 + power[d] as u64;
        }
        if round && power[i - 1] >= 5 {
            value += 1;
        }
        table[i] = value;
        i += 1;
    }
    table
}

/// 「チェインによるスコアについて」: Σ_{i=1..C} ⌊1.3^i⌋ for a chain of `chains`; the skill chain
/// score uses the same sum over SC.
pub fn chain_score(chains: u32) -> u64 {
    let c = (chains as usize).min(MAX_CHAINS);
    FLOOR_POW_1_3[1..=c].iter().sum()
}

/// [`chain_score`] played wrong (the variant `chain-score-rounded`, `score.chain`): the sum of
/// 1.3^i each rounded half up.
pub fn chain_score_rounded(chains: u32) -> u64 {
    let c = (chains as usize).min(MAX_CHAINS);
    ROUND_POW_1_3[1..=c].iter().sum()
}

/// [`explosion_score`] played wrong (the variant `explosion-score-rounded`): rounded, not
/// floored.
pub fn explosion_score_rounded(blocks: u32) -> u64 {
    if blocks == 0 {
        return 0;
    }
    (25.0 * (f64::from(blocks) / 12.0).exp2()).round() as u64
}

/// 「スキルの効果」: ⌊25·2^(b/12)⌋ for `b` ≥ 1 blocks removed by the explosion, and no score at
/// all when nothing explodes (D-reborn-8).
///
/// For b not a multiple of 12 the exact value is irrational, so it is never within rounding
/// distance of an integer for the b a field allows; the test below proves it with integers.
pub fn explosion_score(blocks: u32) -> u64 {
    if blocks == 0 {
        return 0;
    }
    (25.0 * (f64::from(blocks) / 12.0).exp2()).floor() as u64
}

/// 「お邪魔ブロックをお邪魔ストックに追加」: ojama sent for a turn's score (applied separately to
/// the explosion score and the skill chain score on a skill turn).
pub fn ojama_for(score: u64) -> u64 {
    score / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_powers_of_1_3_by_hand() {
        // 1.3, 1.69, 2.197, 2.8561, 3.71293, 4.826809, 6.2748517, 8.15730721
        assert_eq!(FLOOR_POW_1_3[1..=8], [1, 1, 2, 2, 3, 4, 6, 8]);
    }

    #[test]
    fn document_examples_for_chain_score() {
        assert_eq!(chain_score(0), 0);
        assert_eq!(chain_score(3), 4); // 「通常の3チェインの時」
        assert_eq!(chain_score(5), 9); // 「スキルチェインスコア」 for SC = 5
    }

    #[test]
    fn rounded_chain_scores_are_the_adapters_planted_bug() {
        // round(1.3) + round(1.69) + round(2.197) + round(2.8561) = 1 + 2 + 2 + 3
        assert_eq!(ROUND_POW_1_3[1..=4], [1, 2, 2, 3]);
        assert_eq!(chain_score_rounded(2), 3);
        assert_eq!(chain_score_rounded(3), 5);
        // As the adapter computes it, exactly: (2·13^i + 10^i) div (2·10^i).
        for c in 0..=30u32 {
            let exact: u128 = (1..=c)
                .map(|i| (2 * 13u128.pow(i) + 10u128.pow(i)) / (2 * 10u128.pow(i)))
                .sum();
            assert_eq!(u128::from(chain_score_rounded(c)), exact, "{c}");
        }
    }

    #[test]
    fn document_example_for_explosion_score() {
        assert_eq!(explosion_score(5), 33); // floor(33.370...)
        assert_eq!(explosion_score(0), 0);
        assert_eq!(explosion_score(12), 50);
    }

    #[test]
    fn gauge_decrease_starts_at_three_chains() {
        assert_eq!(gauge_decrease(2), 0);
        assert_eq!(gauge_decrease(3), 18);
        assert_eq!(gauge_decrease(5), 22);
    }

    /// Little-endian base-2^32 integers: just enough to compare k^12 with 25^12 · 2^b.
    fn big_mul(a: &mut Vec<u32>, m: u32) {
        let mut carry = 0u64;
        for limb in a.iter_mut() {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            a.push(carry as u32);
        }
    }

    fn big_cmp(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
        let trim = |x: &[u32]| x.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
        let (la, lb) = (trim(a), trim(b));
        la.cmp(&lb)
            .then_with(|| a[..la].iter().rev().cmp(b[..lb].iter().rev()))
    }

    fn pow12(k: u64) -> Vec<u32> {
        let mut v = vec![1u32];
        for _ in 0..12 {
            big_mul(&mut v, k as u32);
        }
        v
    }

    #[test]
    fn explosion_score_is_exact_for_every_field_size() {
        // k = floor(25·2^(b/12))  ⇔  k^12 ≤ 25^12·2^b < (k+1)^12.
        for b in 1..=(WIDTH * CAPACITY) as u32 {
            let k = explosion_score(b);
            let mut target = vec![1u32];
            for _ in 0..12 {
                big_mul(&mut target, 25);
            }
            for _ in 0..b {
                big_mul(&mut target, 2);
            }
            assert_ne!(
                big_cmp(&pow12(k), &target),
                std::cmp::Ordering::Greater,
                "b = {b}"
            );
            assert_eq!(
                big_cmp(&pow12(k + 1), &target),
                std::cmp::Ordering::Greater,
                "b = {b}"
            );
        }
    }
}

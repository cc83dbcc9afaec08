//! The numbers and formulas of TSG AUTO CHESS, each with the section of the rule document (seed
//! 001, the repository README) or the `D-tsg-*` decision of `shared/spec-notes.md` it comes from.
//! Pure data and functions only: the engine composes them.
//!
//! Coordinates here are *absolute*: player 0's own frame (its king starts at (7, 0)). Player 1
//! reads and writes the board turned half a turn ([`to_frame`]).

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// 「ルール説明」: the board is 15×15 (D-tsg, main.rb: 9×9).
pub const BOARD: i32 = 15;
/// 「入力」: each king starts in the middle column of its home row ...
pub const KING_X: i32 = 7;
/// ... player 0's at y = 0, player 1's at y = 14 (each sees its own at (7, 0)).
pub const KING_HOME_Y: [i32; 2] = [0, BOARD - 1];

/// 「ユニットのステータスと販売価格について」: the king's HP ...
pub const KING_HP: i64 = 100;
/// ... ATK ...
pub const KING_ATK: i64 = 20;
/// ... and range, Chebyshev 3 (D-tsg-2).
pub const KING_RANGE: i32 = 3;
/// 「ユニットのステータスと販売価格について」: every other unit hits at Chebyshev 1 (D-tsg-2).
pub const UNIT_RANGE: i32 = 1;

/// 「buy」: a bought unit goes on an empty cell within this Chebyshev distance of its king.
pub const BUY_RANGE: i32 = 3;
/// 「levelup」: a level costs 4 gold.
pub const LEVELUP_COST: i64 = 4;
/// 「levelup」: every player starts at level 1.
pub const START_LEVEL: i64 = 1;
/// 「levelup」: non-king units a player may have on the board are 2 + its level.
pub const BASE_UNIT_LIMIT: i64 = 2;

/// 「goldについて」, D-tsg-4: 5 gold shown in the first prompt.
pub const START_GOLD: i64 = 5;
/// 「goldについて」: +1 gold every turn ...
pub const BASE_INCOME: i64 = 1;
/// ... +1 for every 10 gold already held ...
pub const GOLD_PER_INTEREST: i64 = 10;
/// ... at most 5 of those.
pub const MAX_INTEREST: i64 = 5;

/// 「ユニットのステータスと販売価格について」: prices are drawn uniformly from 2..=4.
pub const PRICE_MIN: i64 = 2;
pub const PRICE_MAX: i64 = 4;

/// 「ルール説明」, D-tsg-7: at most 1000 turns, numbered 0..=999.
pub const TURNS: u32 = 1000;
/// 「制約・提出方法」: 3 minutes of thinking time for the whole match.
pub const THINKING_TIME_MS: u64 = 180_000;

/// 「入力」: every number sent fits a C `int`; the engine never lets a count grow past it.
pub const MAX_NUMBER: i64 = i32::MAX as i64;
/// The most units the board can hold: one a cell.
pub const MAX_UNITS: usize = (BOARD * BOARD) as usize;
/// Ids 0 and 1 are the kings (「ユニットについて」); the shops start with the next six.
pub const FIRST_SHOP_ID: u32 = 2;

/// 「ユニットについて」: the unit types. KING is never sold and has no type affinity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Kind {
    King,
    Assassin,
    Warrior,
    Mage,
}

impl Kind {
    /// The shop's three slots, in order (D-tsg-5; the order is settled in rules.yaml
    /// `shop.slot-order`).
    pub const SOLD: [Kind; 3] = [Kind::Assassin, Kind::Warrior, Kind::Mage];

    /// The word of the protocol (「入力」).
    pub fn word(self) -> &'static str {
        match self {
            Kind::King => "KING",
            Kind::Assassin => "ASSASSIN",
            Kind::Warrior => "WARRIOR",
            Kind::Mage => "MAGE",
        }
    }

    pub fn from_word(word: &str) -> Option<Kind> {
        [Kind::King, Kind::Assassin, Kind::Warrior, Kind::Mage]
            .into_iter()
            .find(|k| k.word() == word)
    }

    /// The type this one deals double damage to (D-tsg-1): assassin → mage → warrior →
    /// assassin. `None` for the king.
    pub fn prey(self) -> Option<Kind> {
        match self {
            Kind::King => None,
            Kind::Assassin => Some(Kind::Mage),
            Kind::Warrior => Some(Kind::Assassin),
            Kind::Mage => Some(Kind::Warrior),
        }
    }

    /// Attack range in Chebyshev distance (D-tsg-2).
    pub fn range(self) -> i32 {
        if self == Kind::King {
            KING_RANGE
        } else {
            UNIT_RANGE
        }
    }
}

/// 「ユニットの攻撃」, D-tsg-1: what `attacker` with `atk` takes from `target`: ×2 on its prey,
/// half (rounded up) on the type that preys on it, ATK otherwise; kings neither give nor take a
/// multiplier.
pub fn damage(attacker: Kind, atk: i64, target: Kind) -> i64 {
    if attacker == Kind::King || target == Kind::King || attacker == target {
        atk
    } else if attacker.prey() == Some(target) {
        atk * 2
    } else {
        half_rounded_up(atk)
    }
}

/// D-tsg-1: a halved attack keeps its half point (7 → 4).
pub fn half_rounded_up(atk: i64) -> i64 {
    (atk + 1).div_euclid(2)
}

/// 「ユニットのステータスと販売価格について」: a shop unit's HP at its buyer's level.
pub fn shop_hp(level: i64) -> i64 {
    (43 + 7 * level).min(MAX_NUMBER)
}

/// 「ユニットのステータスと販売価格について」: a shop unit's ATK at its buyer's level.
pub fn shop_atk(level: i64) -> i64 {
    (7 + 3 * level).min(MAX_NUMBER)
}

/// 「evolve」: twice the average of three values, rounded half up (D-tsg; main.rb uses
/// ⌊sum / 3.5 · 2⌋). 2·sum/3 is never exactly half-way, so this is the nearest integer.
pub fn evolved(values: [i64; 3]) -> i64 {
    let sum: i64 = values.iter().sum();
    ((2 * sum + 1).div_euclid(3)).min(MAX_NUMBER)
}

/// 「goldについて」, D-tsg-4: the gold paid at the start of a turn to a player holding `gold`
/// who destroyed `kills` enemy units in the turn before.
pub fn income(gold: i64, kills: i64) -> i64 {
    BASE_INCOME + (gold / GOLD_PER_INTEREST).min(MAX_INTEREST) + kills
}

/// 「levelup」: non-king units allowed on the board at `level`.
pub fn unit_limit(level: i64) -> i64 {
    BASE_UNIT_LIMIT + level
}

pub fn chebyshev((ax, ay): (i32, i32), (bx, by): (i32, i32)) -> i32 {
    (ax - bx).abs().max((ay - by).abs())
}

pub fn on_board((x, y): (i32, i32)) -> bool {
    (0..BOARD).contains(&x) && (0..BOARD).contains(&y)
}

/// 「入力」: every player sees its own king at (7, 0). Player 0's frame is the absolute one;
/// player 1's is the board turned half a turn, (x, y) → (14 − x, 14 − y), which is its own
/// inverse. Settled in rules.yaml `board.frames`.
pub fn to_frame(player: usize, (x, y): (i64, i64)) -> (i64, i64) {
    if player == 0 {
        (x, y)
    } else {
        (i64::from(BOARD - 1) - x, i64::from(BOARD - 1) - y)
    }
}

/// The price draw (D-tsg-5, the generator settled in rules.yaml `shop.price-draw`): SplitMix64
/// on `state`, the output taken modulo 3 and added to 2.
pub fn draw_price(state: &mut u64) -> i64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    PRICE_MIN + (z % (PRICE_MAX - PRICE_MIN + 1) as u64) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_triangle_both_ways() {
        use Kind::*;
        assert_eq!(damage(Assassin, 10, Mage), 20);
        assert_eq!(damage(Assassin, 7, Warrior), 4);
        assert_eq!(damage(Warrior, 10, Assassin), 20);
        assert_eq!(damage(Warrior, 9, Mage), 5);
        assert_eq!(damage(Mage, 10, Warrior), 20);
        assert_eq!(damage(Mage, 11, Assassin), 6);
        assert_eq!(damage(Mage, 11, Mage), 11);
        assert_eq!(damage(King, 20, Mage), 20);
        assert_eq!(damage(Assassin, 13, King), 13);
    }

    #[test]
    fn evolve_rounds_to_nearest() {
        assert_eq!(evolved([50, 50, 50]), 100);
        assert_eq!(evolved([50, 50, 51]), 101); // 100.67
        assert_eq!(evolved([50, 51, 51]), 101); // 101.33
    }

    #[test]
    fn income_by_hand() {
        assert_eq!(income(5, 0), 1);
        assert_eq!(income(10, 0), 2);
        assert_eq!(income(49, 2), 7);
        assert_eq!(income(60, 0), 6);
        assert_eq!(income(1000, 0), 6);
    }

    #[test]
    fn frames_are_their_own_inverse() {
        assert_eq!(to_frame(1, (7, 14)), (7, 0));
        assert_eq!(to_frame(1, to_frame(1, (3, 9))), (3, 9));
        assert_eq!(to_frame(0, (3, 9)), (3, 9));
    }

    #[test]
    fn prices_stay_in_range_and_use_all_three() {
        let mut state = 0;
        let mut seen = [0; 3];
        for _ in 0..300 {
            let p = draw_price(&mut state);
            seen[(p - PRICE_MIN) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    }
}

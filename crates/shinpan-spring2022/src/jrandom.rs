//! A bit-exact port of `java.util.Random` (D-spring-8): the 48-bit linear congruential
//! generator the referee seeds with the match seed, and the three draws the game makes of it.
//! Its whole state is one 48-bit number, which the canonical state keeps (`rng`), so that any
//! engine given a state draws what the referee would.

/// The LCG's multiplier, increment and modulus (2^48), as the Java platform documents them.
const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const INCREMENT: u64 = 0xB;
const MASK: u64 = (1 << 48) - 1;
/// `nextDouble` builds a 53-bit fraction.
const DOUBLE_UNIT: f64 = 1.0 / (1u64 << 53) as f64;

/// The generator's state: always below 2^48.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JavaRandom {
    pub seed: u64,
}

impl JavaRandom {
    /// `new Random(seed)`: the seed scrambled with the multiplier.
    pub fn new(seed: i64) -> JavaRandom {
        JavaRandom {
            seed: scramble(seed),
        }
    }

    /// A generator resumed from a state (any bits above the 48th are dropped).
    pub fn from_state(state: u64) -> JavaRandom {
        JavaRandom { seed: state & MASK }
    }

    /// `next(bits)`: one LCG step, the top `bits` of the 48.
    pub fn next(&mut self, bits: u32) -> i32 {
        self.seed = (self.seed.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT)) & MASK;
        (self.seed >> (48 - bits)) as i64 as i32
    }

    /// `nextInt(bound)` for `bound > 0`: a power of two takes the top bits; any other bound
    /// draws again while the 31-bit draw falls in the last, incomplete run of `bound` values.
    pub fn next_int(&mut self, bound: i32) -> i32 {
        debug_assert!(bound > 0);
        let mut r = self.next(31);
        let m = bound - 1;
        if bound & m == 0 {
            return ((i64::from(bound) * i64::from(r)) >> 31) as i32;
        }
        let mut u = r;
        loop {
            r = u % bound;
            // Java's `u - r + m < 0`, an int overflow test.
            if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                return r;
            }
            u = self.next(31);
        }
    }

    /// `nextDouble()`: 26 and 27 bits joined into a fraction in `[0, 1)`.
    pub fn next_double(&mut self) -> f64 {
        let high = i64::from(self.next(26)) << 27;
        let low = i64::from(self.next(27));
        (high + low) as f64 * DOUBLE_UNIT
    }

    /// `nextBoolean()`: the top bit of one step.
    pub fn next_boolean(&mut self) -> bool {
        self.next(1) != 0
    }
}

/// What `new Random(seed)` keeps of its seed.
pub fn scramble(seed: i64) -> u64 {
    (seed as u64 ^ MULTIPLIER) & MASK
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by a JVM for `new Random(42)` (OpenJDK 17): `nextInt()` twice as
    /// `next(32)`, then `nextInt(5000)`, `nextDouble()`, `nextBoolean()`.
    #[test]
    fn draws_of_seed_42_match_the_jvm() {
        let mut r = JavaRandom::new(42);
        assert_eq!(r.next(32), -1170105035);
        assert_eq!(r.next(32), 234785527);
        assert_eq!(r.next_int(5000), 1248);
        assert_eq!(r.next_double(), 0.047939305137387644);
        assert!(r.next_boolean());
        assert_eq!(JavaRandom::new(0).next_double(), 0.730967787376657);
    }

    /// `new Random(1).nextInt(1500000000)` five times, from the same JVM: a bound just above
    /// 2^30 makes the rejection loop draw again about a third of the time.
    #[test]
    fn next_int_rejects_the_incomplete_run() {
        let mut r = JavaRandom::new(1);
        let draws: Vec<i32> = (0..5).map(|_| r.next_int(1_500_000_000)).collect();
        assert_eq!(
            draws,
            [215764588, 880641847, 874970313, 446064254, 77814904]
        );
    }

    #[test]
    fn a_power_of_two_bound_takes_the_top_bits() {
        let mut a = JavaRandom::new(7);
        let mut b = JavaRandom::new(7);
        assert_eq!(a.next_int(16), (b.next(31) >> 27));
    }
}

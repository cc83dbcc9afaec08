//! The one way shinpan seeds a random number generator for its own players and fuzzers: a seed
//! and a stream. The same seed gives the same draws on every machine (ChaCha8); different streams
//! of one seed are independent, so player 1's draws never depend on player 0's.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The generator of `stream` under `seed`.
pub fn seeded(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// The stream of the built-in player in seat `player`: the same in self-play, in `play` and
/// in the bot checker, so a seed names one opponent everywhere.
pub fn player_stream(player: usize) -> u64 {
    player as u64 + 1
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;

    #[test]
    fn streams_of_one_seed_differ_and_repeat() {
        let draw = |seed, stream| seeded(seed, stream).random::<u64>();
        assert_eq!(draw(7, 1), draw(7, 1));
        assert_ne!(draw(7, 1), draw(7, 2));
        assert_ne!(draw(7, 1), draw(8, 1));
    }
}

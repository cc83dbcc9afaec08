//! What the TSG AUTO CHESS fuzz bodies check that is its own, as its [`Fuzzed`] (the bodies
//! are [`stepfuzz::targets`]). It lives here, not in `fuzz/`, so that proptest runs the very same
//! checks under `cargo test`; each check panics on a broken property.

use std::collections::BTreeSet;

use arbitrary::{Arbitrary, Unstructured};

use super::protocol::{Prompt, TurnReply};
use super::rules::{
    chebyshev, shop_atk, shop_hp, unit_limit, Kind, BOARD, PRICE_MAX, PRICE_MIN, TURNS,
};
use super::state::{ShopUnit, State, Unit};
use super::TsgAutoChess;
use shinpan_core::seam::{Game, Reply};
use shinpan_core::stepfuzz::{self, prints_back, Broken, FuzzTargets, Fuzzed, Play};

/// The bodies the fuzz targets of `fuzz/` run for this game.
pub static TARGETS: FuzzTargets = stepfuzz::targets::<TsgAutoChess>();

impl Fuzzed for TsgAutoChess {
    const GAME: Self = TsgAutoChess;
    type Play = Turn;

    /// The reply parsers: a strict reply prints back to itself and the engine reads it as the
    /// strict parser does.
    fn replies(text: &str) {
        let lenient = TurnReply::read_lenient(text);
        if let Some(reply) = prints_back(text, "a reply", TurnReply::parse, TurnReply::print) {
            assert_eq!(lenient, reply, "strict implies lenient, read alike");
        }
    }

    /// What must hold after any step from `before` to `after`.
    fn check_invariants(before: &State, after: &State) -> Result<(), Broken> {
        Self::GAME.validate(after).map_err(|e| e.to_string())?;
        if after.turn != before.turn + 1 {
            return Err("the turn did not advance by one".into());
        }
        let known: BTreeSet<u32> = before.ids().collect();
        for unit in &after.units {
            if !known.contains(&unit.id) {
                return Err(format!("unit {} came from nowhere", unit.id).into());
            }
            if let Some(old) = before.units.iter().find(|b| b.id == unit.id) {
                if chebyshev(old.at(), unit.at()) > 1 {
                    return Err(format!("unit {} moved more than one cell", unit.id).into());
                }
                if old.owner != unit.owner || old.kind != unit.kind {
                    return Err(format!("unit {} changed owner or type", unit.id).into());
                }
            }
        }
        for (p, (b, a)) in before.players.iter().zip(&after.players).enumerate() {
            if a.time_left_ms > b.time_left_ms {
                return Err(format!("player {p}: thinking time went up").into());
            }
            if a.level < b.level || a.level > b.level + 1 {
                return Err(format!("player {p}: level {} after {}", a.level, b.level).into());
            }
            if after.army_size(p) > before.army_size(p) + 1 {
                return Err(format!("player {p}: more than one unit bought").into());
            }
        }
        stepfuzz::canonical_round_trip(after)?;
        if after.outcome.is_none() {
            for p in 0..2 {
                let text = Prompt::of(after, p).print();
                if Prompt::parse(&text).map(|q| q.print()).as_ref() != Ok(&text) {
                    return Err(format!("player {p}'s prompt does not parse back").into());
                }
            }
        }
        Ok(())
    }

    /// A small valid state: a few levels, a little gold, kings anywhere, each army under its limit.
    fn arbitrary_state(u: &mut Unstructured) -> arbitrary::Result<State> {
        let mut state = State {
            turn: u.int_in_range(0..=TURNS - 1)?,
            price_rng: u64::arbitrary(u)?,
            ..State::default()
        };
        let mut next_id = 2u32;
        for player in &mut state.players {
            player.level = u.int_in_range(1..=5)?;
            player.gold = u.int_in_range(0..=70)?;
            player.time_left_ms = u.int_in_range(0..=180_000)?;
            player.kills = u.int_in_range(0..=3)?;
            for (slot, unit) in player.shop.iter_mut().enumerate() {
                let price = u.int_in_range(PRICE_MIN..=PRICE_MAX)?;
                *unit = ShopUnit::new(next_id, slot, player.level, price);
                next_id += 1;
            }
        }
        let mut taken = BTreeSet::new();
        // A free cell. Once the bytes run out every draw is the same cell: stop there instead of
        // drawing it again for ever (the step fuzzer found this hang).
        let mut cell = |u: &mut Unstructured| -> arbitrary::Result<(i32, i32)> {
            loop {
                if u.is_empty() {
                    return Err(arbitrary::Error::NotEnoughData);
                }
                let at = (
                    u.int_in_range(0..=BOARD - 1)?,
                    u.int_in_range(0..=BOARD - 1)?,
                );
                if taken.insert(at) {
                    return Ok(at);
                }
            }
        };
        state.units.clear();
        for p in 0..2 {
            let (x, y) = cell(u)?;
            state.units.push(Unit {
                hp: u.int_in_range(1..=100)?,
                x,
                y,
                ..Unit::king(p)
            });
        }
        for p in 0..2 {
            let count = u.int_in_range(0..=unit_limit(state.players[p].level))?;
            for _ in 0..count {
                let (x, y) = cell(u)?;
                let level = u.int_in_range(1..=5)?;
                state.units.push(Unit {
                    id: next_id,
                    owner: p,
                    kind: Kind::SOLD[u.int_in_range(0..=2)?],
                    hp: u.int_in_range(1..=shop_hp(level) * 2)?,
                    atk: shop_atk(level),
                    x,
                    y,
                });
                next_id += 1;
            }
        }
        state.next_id = next_id;
        Ok(state)
    }
}

/// The game's own part of a fuzzed reply (see [`stepfuzz::ArbitraryReply`]): mostly well formed,
/// with ids and cells near the game's.
#[derive(Debug, Arbitrary)]
pub struct Turn {
    command: u8,
    ids: [u8; 3],
    cell: (i8, i8),
    moves: Vec<(u8, i8, i8)>,
    elapsed_ms: u16,
}

impl Play<State> for Turn {
    fn into_reply(self, _start: &State) -> Reply {
        let [a, b, c] = self.ids.map(|id| id % 24);
        let (x, y) = (self.cell.0 % 17, self.cell.1 % 17);
        let command = match self.command % 5 {
            0 => format!("buy {a} {x} {y}"),
            1 => format!("evolve {a} {b} {c}"),
            2 => "levelup".to_string(),
            3 => "nop".to_string(),
            _ => format!("buy {a} {x}"),
        };
        let mut text = format!("{command}\n{}", self.moves.len());
        for (id, x, y) in self.moves.iter().take(40) {
            text.push_str(&format!("\n{} {} {}", id % 24, x % 17, y % 17));
        }
        Reply::Text {
            text,
            elapsed_ms: u64::from(self.elapsed_ms) * 4,
        }
    }
}

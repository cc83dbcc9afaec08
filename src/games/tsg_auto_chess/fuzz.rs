//! Bodies of the TSG AUTO CHESS fuzz targets. They live here, not in `fuzz/`, so that proptest
//! runs the very same checks under `cargo test`; each panics on a broken property.

use std::collections::BTreeSet;

use arbitrary::{Arbitrary, Unstructured};

use super::protocol::{parse_name, Prompt, TurnReply};
use super::rules::{
    chebyshev, shop_atk, shop_hp, unit_limit, Kind, BOARD, PRICE_MAX, PRICE_MIN, TURNS,
};
use super::state::{ShopUnit, State, Unit};
use super::TsgAutoChess;
use crate::game::Reply;

/// Any bytes through the prompt parser: no panic, and a parsed text prints back to itself.
pub fn prompt(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(prompt) = Prompt::parse(&text) {
        assert_eq!(prompt.print(), text, "print(parse(x)) == x for a prompt");
    }
}

/// Any bytes through the reply and name parsers: no panic; a strict reply prints back to itself
/// and the engine reads it as the strict parser does.
pub fn reply(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lenient = TurnReply::read_lenient(&text);
    if let Ok(reply) = TurnReply::parse(&text) {
        assert_eq!(reply.print(), text, "print(parse(x)) == x for a reply");
        assert_eq!(lenient, reply, "strict implies lenient, read alike");
    }
    if let Ok(name) = parse_name(&text) {
        assert_eq!(name, text);
    }
}

/// An arbitrary valid state and arbitrary replies through `step`, several turns: no panic, and
/// the invariants hold after every step.
pub fn step(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(state) = arbitrary_state(&mut u) else {
        return;
    };
    let replies = |u: &mut Unstructured| {
        Ok(<[ArbitraryReply; 2]>::arbitrary(u)?
            .map(ArbitraryReply::into_reply)
            .to_vec())
    };
    crate::stepfuzz::fuzz_steps(&TsgAutoChess, state, &mut u, replies, check_invariants);
}

/// What must hold after any step from `before` to `after`.
pub fn check_invariants(before: &State, after: &State) -> Result<(), String> {
    after.validate().map_err(|e| e.to_string())?;
    if after.turn != before.turn + 1 {
        return Err("the turn did not advance by one".into());
    }
    let known: BTreeSet<u32> = before
        .units
        .iter()
        .map(|u| u.id)
        .chain(
            before
                .players
                .iter()
                .flat_map(|p| p.shop.iter().map(|s| s.id)),
        )
        .collect();
    for unit in &after.units {
        if !known.contains(&unit.id) {
            return Err(format!("unit {} came from nowhere", unit.id));
        }
        if let Some(old) = before.units.iter().find(|b| b.id == unit.id) {
            if chebyshev(old.at(), unit.at()) > 1 {
                return Err(format!("unit {} moved more than one cell", unit.id));
            }
            if old.owner != unit.owner || old.kind != unit.kind {
                return Err(format!("unit {} changed owner or type", unit.id));
            }
        }
    }
    for (p, (b, a)) in before.players.iter().zip(&after.players).enumerate() {
        if a.time_left_ms > b.time_left_ms {
            return Err(format!("player {p}: thinking time went up"));
        }
        if a.level < b.level || a.level > b.level + 1 {
            return Err(format!("player {p}: level {} after {}", a.level, b.level));
        }
        if after.army_size(p) > before.army_size(p) + 1 {
            return Err(format!("player {p}: more than one unit bought"));
        }
    }
    let json = serde_json::to_value(after).map_err(|e| e.to_string())?;
    let back: State = serde_json::from_value(json)
        .map_err(|e| format!("canonical state does not load back: {e}"))?;
    if &back != after {
        return Err("canonical state does not round-trip".into());
    }
    if after.outcome.is_none() {
        for p in 0..2 {
            let text = Prompt::of(after, p).print();
            if Prompt::parse(&text).map(|q| q.print()).as_ref() != Ok(&text) {
                return Err(format!("player {p}'s prompt does not parse back"));
            }
        }
    }
    Ok(())
}

/// A small valid state: a few levels, a little gold, kings anywhere, each army under its limit.
pub fn arbitrary_state(u: &mut Unstructured) -> arbitrary::Result<State> {
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

/// Replies as a fuzzer should send them: mostly well formed with ids and cells near the game's,
/// sometimes anything at all.
#[derive(Debug, Arbitrary)]
enum ArbitraryReply {
    Play {
        command: u8,
        ids: [u8; 3],
        cell: (i8, i8),
        moves: Vec<(u8, i8, i8)>,
        elapsed_ms: u16,
    },
    Raw(String),
    TimedOut,
    Crashed,
}

impl ArbitraryReply {
    fn into_reply(self) -> Reply {
        match self {
            ArbitraryReply::Play {
                command,
                ids: [a, b, c],
                cell: (x, y),
                moves,
                elapsed_ms,
            } => {
                let (a, b, c) = (a % 24, b % 24, c % 24);
                let (x, y) = (x % 17, y % 17);
                let command = match command % 5 {
                    0 => format!("buy {a} {x} {y}"),
                    1 => format!("evolve {a} {b} {c}"),
                    2 => "levelup".to_string(),
                    3 => "nop".to_string(),
                    _ => format!("buy {a} {x}"),
                };
                let mut text = format!("{command}\n{}", moves.len());
                for (id, x, y) in moves.iter().take(40) {
                    text.push_str(&format!("\n{} {} {}", id % 24, x % 17, y % 17));
                }
                Reply::Text {
                    text,
                    elapsed_ms: u64::from(elapsed_ms) * 4,
                }
            }
            ArbitraryReply::Raw(text) => Reply::text(text),
            ArbitraryReply::TimedOut => Reply::TimedOut,
            ArbitraryReply::Crashed => Reply::Crashed,
        }
    }
}

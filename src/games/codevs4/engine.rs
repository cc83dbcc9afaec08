//! One turn of CODE VS 4.0 in the document's phase order (3.2): orders, move & production,
//! battle, removal, resources, end.
//!
//! Orders (3.3.1, 5.2, D-codevs4-5): each player's output is read leniently; an order is
//! accepted when its line reads, the unit is the player's own and on the field, the unit may
//! be given that command (tables 1 and 6), and the unit has no accepted order yet this turn.
//! Everything else is ignored, never fatal. Move & production (3.3.2, 4.2): moves at once;
//! productions player 0's in its output's order, then player 1's, each paid when it comes and
//! failing silently when the player cannot pay (D-codevs4-4/5).

use super::battle::fight;
use super::protocol::{Command, Order, Orders};
use super::rules::{gathered, income, Kind, MAX_ID, TURNS};
use super::state::{State, Unit};
use crate::game::{Outcome, Reply, ReplyVerdict, StepError, StepReport};

pub const CASTLE_DESTROYED: &str = "castle-destroyed";
pub const BOTH_CASTLES_DESTROYED: &str = "both-castles-destroyed";
pub const TURN_LIMIT: &str = "turn-limit";

/// An accepted order: the unit's position in `state.units` and what it does.
#[derive(Debug, Clone, Copy)]
pub struct Accepted {
    pub index: usize,
    pub command: Command,
}

pub fn step(state: &mut State, replies: &[Reply]) -> Result<StepReport, StepError> {
    if state.outcome.is_some() {
        return Err(StepError::MatchOver);
    }
    if replies.len() != 2 {
        return Err(StepError::ReplyCount {
            expected: 2,
            got: replies.len(),
        });
    }
    if state.turn >= TURNS {
        return Err(StepError::BadState(format!(
            "turn {} is past the last turn",
            state.turn
        )));
    }

    // 1. Orders.
    let mut taken = vec![false; state.units.0.len()];
    let mut verdicts = Vec::with_capacity(2);
    let mut accepted: [Vec<Accepted>; 2] = [Vec::new(), Vec::new()];
    for (p, reply) in replies.iter().enumerate() {
        let (verdict, orders) = take_reply(state, p, reply, &mut taken);
        verdicts.push(verdict);
        accepted[p] = orders;
    }

    // 2. Move & production.
    let mut next_id = state.next_id();
    for orders in &accepted {
        for order in orders {
            if let Command::Move(direction) = order.command {
                let unit = &mut state.units.0[order.index];
                unit.cell = unit.cell.step(direction);
            }
        }
    }
    for (p, orders) in accepted.iter().enumerate() {
        for order in orders {
            if let Command::Produce(product) = order.command {
                let producer = state.units.0[order.index];
                let cost = product.cost().unwrap_or(u32::MAX);
                let resources = &mut state.players[p].resources;
                // 4.2: a production the player cannot pay fails and nothing happens; so does
                // one with no id left in 0..=20000.
                if *resources >= cost && next_id <= MAX_ID {
                    *resources -= cost;
                    state
                        .units
                        .0
                        .push(Unit::new(next_id, p, product, producer.cell));
                    next_id += 1;
                }
            }
        }
    }
    state.next_id = Some(next_id);

    // 3–4. Battle and removal.
    let castles_before = castles(state);
    fight(&mut state.units.0);

    // 5. Resources.
    gather(state);

    // 6. End.
    state.turn += 1;
    state.outcome = end_of_turn(state, castles_before);
    Ok(StepReport { replies: verdicts })
}

/// Reads one player's reply and accepts its orders (see the module doc). `taken` marks the
/// units that already have an accepted order.
fn take_reply(
    state: &mut State,
    player: usize,
    reply: &Reply,
    taken: &mut [bool],
) -> (ReplyVerdict, Vec<Accepted>) {
    let clock = &mut state.players[player].time_left_ms;
    let text = match reply {
        Reply::TimedOut => {
            *clock = 0;
            return (ReplyVerdict::TimedOut, Vec::new());
        }
        Reply::Crashed => return (ReplyVerdict::Crashed, Vec::new()),
        Reply::Text { text, elapsed_ms } => {
            // Settled (rules.yaml `time.over`): an output later than the time left is ignored
            // and the clock stays at 0; the stage goes on.
            if *elapsed_ms > *clock {
                *clock = 0;
                return (ReplyVerdict::TimedOut, Vec::new());
            }
            *clock -= elapsed_ms;
            text
        }
    };

    // A text in the strict grammar reads the same leniently (the fuzz target `reply` checks
    // it), so the lenient reading is needed only when the strict one fails.
    let strict = Orders::parse(text);
    let mut ignored = Vec::new();
    let mut orders = Vec::new();
    let mut take =
        |order: Order, ignored: &mut Vec<String>| match accept(state, player, order, taken) {
            Ok(accepted) => orders.push(accepted),
            Err(why) => ignored.push(why),
        };
    match &strict {
        Ok(parsed) => {
            for &order in &parsed.orders {
                take(order, &mut ignored);
            }
        }
        Err(_) => {
            let read = Orders::read_lenient(text);
            let Some(count) = read.count else {
                let first = text.split('\n').next().unwrap_or("");
                let why = format!(
                    "the first line {} is not a number of orders: nothing is done",
                    crate::text::quote(first)
                );
                return (ReplyVerdict::Rejected(why), Vec::new());
            };
            for line in &read.lines {
                match line {
                    Ok(order) => take(*order, &mut ignored),
                    Err((number, text)) => ignored.push(format!(
                        "line {number} {} is not `id command`",
                        crate::text::quote(text)
                    )),
                }
            }
            if (read.lines.len() as u64) < count {
                ignored.push(format!(
                    "the count says {count} orders, {} follow",
                    read.lines.len()
                ));
            }
            if read.extra_lines > 0 {
                ignored.push(format!(
                    "{} line(s) after the {count} orders counted",
                    read.extra_lines
                ));
            }
        }
    }
    let verdict = if let Some(first) = ignored.first() {
        let more = match ignored.len() {
            1 => String::new(),
            n => format!(" (and {} more ignored)", n - 1),
        };
        ReplyVerdict::Rejected(format!("ignored: {first}{more}"))
    } else {
        match strict {
            Ok(_) => ReplyVerdict::Accepted,
            Err(strict) => ReplyVerdict::NonStrict(strict.to_string()),
        }
    };
    (verdict, orders)
}

/// 5.2 and D-codevs4-5: whether `order` is accepted; the reason when it is ignored.
fn accept(
    state: &State,
    player: usize,
    order: Order,
    taken: &mut [bool],
) -> Result<Accepted, String> {
    let Some(index) = state.units.position(order.unit) else {
        return Err(format!("there is no unit {}", order.unit));
    };
    let unit = &state.units.0[index];
    if unit.owner != player {
        return Err(format!("unit {} is not the player's", order.unit));
    }
    if !order.command.allowed_for(unit.kind) {
        return Err(format!(
            "a {} cannot be told `{}` (unit {})",
            unit.kind.name(),
            order.command.letter(),
            order.unit
        ));
    }
    if taken[index] {
        return Err(format!(
            "unit {} already has an order this turn (the first one counts)",
            order.unit
        ));
    }
    taken[index] = true;
    Ok(Accepted {
        index,
        command: order.command,
    })
}

/// 4.5 and 4.6: each player's income, and on every resource cell min(5, its workers there).
fn gather(state: &mut State) {
    let cells = &state.resource_cells;
    let mut workers = vec![[0u32; 2]; cells.len()];
    for unit in state.units.iter().filter(|u| u.kind == Kind::Worker) {
        if let Some(r) = cells.iter().position(|&c| c == unit.cell) {
            workers[r][unit.owner] += 1;
        }
    }
    for (p, player) in state.players.iter_mut().enumerate() {
        let gain = workers.iter().fold(income(state.stage, p), |sum, on_cell| {
            sum.saturating_add(gathered(on_cell[p]))
        });
        player.resources = player.resources.saturating_add(gain);
    }
}

/// Whether each player had its castle.
fn castles(state: &State) -> [bool; 2] {
    let mut has = [false; 2];
    for unit in state.units.iter().filter(|u| u.kind == Kind::Castle) {
        has[unit.owner] = true;
    }
    has
}

/// 3.4, 3.5 (D-codevs4-3): a castle removed loses, both removed in one turn is a draw, both
/// standing after the last turn is a draw.
fn end_of_turn(state: &State, castles_before: [bool; 2]) -> Option<Outcome> {
    let standing = castles(state);
    let lost = [0, 1].map(|p| castles_before[p] && !standing[p]);
    match lost {
        [true, true] => Some(Outcome {
            winner: None,
            reason: BOTH_CASTLES_DESTROYED.into(),
        }),
        [true, false] => Some(Outcome {
            winner: Some(1),
            reason: CASTLE_DESTROYED.into(),
        }),
        [false, true] => Some(Outcome {
            winner: Some(0),
            reason: CASTLE_DESTROYED.into(),
        }),
        [false, false] if state.turn >= TURNS => Some(Outcome {
            winner: None,
            reason: TURN_LIMIT.into(),
        }),
        [false, false] => None,
    }
}

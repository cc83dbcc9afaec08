//! One turn of CODE VS 4.0 in the document's phase order (3.2): orders, move & production,
//! battle, removal, resources, end.
//!
//! Orders (3.3.1, 5.2, D-codevs4-5, D-codevs4-12): each player's output is read leniently,
//! player 0's first, and its orders are processed in their order. An order is accepted when its
//! line reads, the unit is the player's own and on the field, the unit may be given that command
//! (tables 1 and 6), the unit has no accepted order yet this turn, and it can be carried out: a
//! production needs the player to have its cost left at that moment and an id left (4.2,
//! D-codevs4-10). A production is paid, and given its id, as it is accepted (D-codevs4-4).
//! Everything else is ignored, never fatal; an order ignored does not take the unit's one order
//! of the turn. Move & production (3.3.2, 4.2): the accepted moves, then the accepted
//! productions appear, in the order they were accepted.
//!
//! The turn from orders already read is public, [`play_turn`]: what a bot author calls to play
//! a turn without printing it, and what the step plays once it has read both outputs.

use super::battle::fight_with;
use super::protocol::{Command, Order, Orders};
use super::rules::{gathered, income, Cell, Direction, Kind, BASE_INCOME, MAX_ID, SIZE, TURNS};
use super::state::{State, Unit};
use super::variants::{Wrong, Wrongs};
use shinpan_core::seam::{Outcome, Reply, ReplyVerdict, StepError, StepReport, StepResult};

pub const CASTLE_DESTROYED: &str = "castle-destroyed";
pub const BOTH_CASTLES_DESTROYED: &str = "both-castles-destroyed";
pub const TURN_LIMIT: &str = "turn-limit";

/// An accepted order: the unit's position in `state.units` and what it does; a production
/// also carries the id its product takes (given, and paid, when the order was accepted).
#[derive(Debug, Clone, Copy)]
pub struct Accepted {
    pub index: usize,
    pub command: Command,
    pub product_id: Option<u32>,
}

/// A step, with some rules played wrong ([`Wrongs`]) to name a departure; [`Wrongs::NONE`]
/// plays the rules.
pub fn step_with(state: &mut State, replies: &[Reply], wrong: Wrongs) -> StepResult {
    StepError::unless_before_the_end(state.turn, TURNS)?;

    let mut verdicts = Vec::with_capacity(2);
    let mut lines: [Vec<Result<Order, String>>; 2] = [Vec::new(), Vec::new()];
    let mut trailer: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for (p, reply) in replies.iter().enumerate() {
        let (verdict, read) = take_reply(&mut state.players[p].time_left_ms, reply);
        verdicts.push(verdict);
        if let Some(read) = read {
            (lines[p], trailer[p]) = read;
        }
    }
    let taken = play_lines(state, &lines, wrong);
    for ((verdict, taken), trailer) in verdicts.iter_mut().zip(taken).zip(trailer) {
        let ignored: Vec<String> = taken
            .into_iter()
            .filter_map(Result::err)
            .map(|why| why.to_string())
            .chain(trailer)
            .collect();
        if let Some(first) = ignored.first() {
            let more = match ignored.len() {
                1 => String::new(),
                n => format!(" (and {} more ignored)", n - 1),
            };
            *verdict = ReplyVerdict::Rejected(format!("ignored: {first}{more}"));
        }
    }
    Ok(StepReport { replies: verdicts })
}

/// One turn from both players' orders already read (player 0's first): the orders phase, then
/// move & production, battle, removal, resources and the end of the turn, as the step plays
/// them (see the module doc). What a bot author calls to play a turn without printing it; what
/// the step plays once it has read the replies.
///
/// Returns, for each player, one result per order in its order: `Ok` accepted, `Err` why it
/// was ignored. An ignored order is never fatal and does not take its unit's one order.
///
/// It does not check or charge thinking time, read text (the count line is the length of
/// `orders`), or guard the state: call it on a state `Game::validate` accepts whose match is
/// not over. `examples/one_turn.rs` plays a turn with it.
pub fn play_turn(state: &mut State, orders: [&Orders; 2]) -> [Vec<Result<(), Ignored>>; 2] {
    let lines = orders.map(|o| o.orders.iter().copied().map(Ok).collect());
    play_lines(state, &lines, Wrongs::NONE)
}

/// [`play_turn`] with some rules played wrong ([`Wrongs`]), on each player's lines as the
/// engine read them: a line that did not read is ignored, with why.
fn play_lines(
    state: &mut State,
    lines: &[Vec<Result<Order, String>>; 2],
    wrong: Wrongs,
) -> [Vec<Result<(), Ignored>>; 2] {
    if wrong.has(Wrong::IncomeBeforeProduction) {
        for (p, player) in state.players.iter_mut().enumerate() {
            player.resources = player.resources.saturating_add(income(state.stage, p));
        }
    }

    // 1. Orders, productions paid as they are accepted.
    let mut turn = OrdersPhase {
        taken: vec![false; state.units.0.len()],
        next_id: state.next_id(),
    };
    let mut accepted: [Vec<Accepted>; 2] = [Vec::new(), Vec::new()];
    let mut results: [Vec<Result<(), Ignored>>; 2] = [Vec::new(), Vec::new()];
    for (p, lines) in lines.iter().enumerate() {
        for line in lines {
            let result = match line {
                Ok(order) => accept(state, p, *order, &mut turn, wrong),
                Err(why) => Err(Ignored::Unread(why.clone())),
            };
            results[p].push(match result {
                Ok(order) => {
                    accepted[p].push(order);
                    Ok(())
                }
                Err(why) => Err(why),
            });
        }
    }

    // 2. Move & production.
    for orders in &accepted {
        for order in orders {
            if let Command::Move(direction) = order.command {
                let unit = &mut state.units.0[order.index];
                unit.cell = if wrong.has(Wrong::MovesWrapAround) {
                    wrapped_step(unit.cell, direction)
                } else {
                    unit.cell.step(direction)
                };
            }
        }
    }
    // Ids were given in acceptance order, above every id on the field: pushing the products in
    // that order keeps the units sorted by id.
    let mut products = Vec::new();
    for (p, orders) in accepted.iter().enumerate() {
        for order in orders {
            if let (Command::Produce(product), Some(id)) = (order.command, order.product_id) {
                let cell = state.units.0[order.index].cell;
                products.push(Unit::new(id, p, product, cell));
            }
        }
    }
    let sit_out = wrong.has(Wrong::NewUnitsSitOutTheBattle);
    if !sit_out {
        state.units.0.append(&mut products);
    }
    state.next_id = Some(turn.next_id);

    // 3–4. Battle and removal.
    let castles_before = castles(state);
    if wrong.has(Wrong::GatherBeforeRemoval) {
        gather(state, wrong);
    }
    fight_with(&mut state.units.0, wrong);
    if sit_out {
        state.units.0.append(&mut products);
    }

    // 5. Resources.
    if !wrong.has(Wrong::GatherBeforeRemoval) {
        gather(state, wrong);
    }

    // 6. End.
    state.turn += 1;
    state.outcome = end_of_turn(state, castles_before, wrong);
    results
}

/// What the orders phase keeps between orders: which units already have an accepted order
/// (by position in `state.units`), and the id the next accepted production takes.
struct OrdersPhase {
    taken: Vec<bool>,
    next_id: u32,
}

/// What the step reads of a player's output: its lines, each an order or why it is ignored,
/// and what else is ignored after them (a count the lines fall short of, lines past it).
type ReadOrders = (Vec<Result<Order, String>>, Vec<String>);

/// Charges one player's thinking time and reads its reply (time, the count, then each line:
/// the document's order). `None`: nothing of the reply is played. The verdict is the reading's;
/// the step makes it `Rejected` if an order is ignored.
fn take_reply(clock: &mut u64, reply: &Reply) -> (ReplyVerdict, Option<ReadOrders>) {
    let text = match reply.played() {
        Ok((text, elapsed_ms)) if *clock > 0 && elapsed_ms <= *clock => {
            *clock -= elapsed_ms;
            text
        }
        // A crash leaves the clock as it was.
        Err(ReplyVerdict::Crashed) => return (ReplyVerdict::Crashed, None),
        // D-codevs4-11 (rules.yaml `time.over`): no output, or one later than the time left, is
        // ignored and the clock stays at 0; with no time left every output is late. The stage
        // goes on.
        _ => {
            *clock = 0;
            return (ReplyVerdict::TimedOut, None);
        }
    };

    // A text in the strict grammar reads the same leniently (the fuzz target `reply` checks
    // it), so the lenient reading is needed only when the strict one fails.
    let strict = match Orders::parse(text) {
        Ok(parsed) => {
            let lines = parsed.orders.into_iter().map(Ok).collect();
            return (ReplyVerdict::Accepted, Some((lines, Vec::new())));
        }
        Err(strict) => strict,
    };
    let read = Orders::read_lenient(text);
    let Some(count) = read.count else {
        let first = text.split('\n').next().unwrap_or("");
        let why = format!(
            "the first line {} is not a number of orders: nothing is done",
            shinpan_core::text::quote(first)
        );
        return (ReplyVerdict::Rejected(why), None);
    };
    let mut trailer = Vec::new();
    if (read.lines.len() as u64) < count {
        trailer.push(format!(
            "the count says {count} orders, {} follow",
            read.lines.len()
        ));
    }
    if read.extra_lines > 0 {
        trailer.push(format!(
            "{} line(s) after the {count} orders counted",
            read.extra_lines
        ));
    }
    let lines = read
        .lines
        .into_iter()
        .map(|line| {
            line.map_err(|(number, text)| {
                format!(
                    "line {number} {} is not `id command`",
                    shinpan_core::text::quote(&text)
                )
            })
        })
        .collect();
    (
        ReplyVerdict::NonStrict(strict.to_string()),
        Some((lines, trailer)),
    )
}

/// Why an order was ignored (never fatal: the rest of the reply is played). Displayed as the
/// sentence a rejected reply's verdict gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Ignored {
    /// A line that does not read as an order (why, as the reader says it).
    #[error("{0}")]
    Unread(String),
    #[error("there is no unit {unit}")]
    NoSuchUnit { unit: u32 },
    #[error("unit {unit} is not the player's")]
    NotThePlayers { unit: u32 },
    #[error("a {} cannot be told `{}` (unit {unit})", .kind.name(), .command.letter())]
    NotForItsKind {
        unit: u32,
        kind: Kind,
        command: Command,
    },
    #[error("unit {unit} already has an order this turn (the first one counts)")]
    SecondOrder { unit: u32 },
    #[error("unit {unit}'s {} costs {cost}, the player has {had} left", .product.name())]
    CannotPay {
        unit: u32,
        product: Kind,
        cost: u32,
        had: u32,
    },
    #[error("unit {unit}'s {} would need id {id}, past the last id {MAX_ID}", .product.name())]
    NoIdLeft { unit: u32, product: Kind, id: u32 },
}

/// 5.2, D-codevs4-5 and D-codevs4-12: whether `order` is accepted now; the reason when it is
/// ignored. A production accepted is paid from the player's resources and takes the next id.
fn accept(
    state: &mut State,
    player: usize,
    order: Order,
    turn: &mut OrdersPhase,
    wrong: Wrongs,
) -> Result<Accepted, Ignored> {
    let unit_id = order.unit;
    let Some(index) = state.units.position(unit_id) else {
        return Err(Ignored::NoSuchUnit { unit: unit_id });
    };
    let unit = &state.units.0[index];
    if unit.owner != player {
        return Err(Ignored::NotThePlayers { unit: unit_id });
    }
    if !order.command.allowed_for(unit.kind) {
        return Err(Ignored::NotForItsKind {
            unit: unit_id,
            kind: unit.kind,
            command: order.command,
        });
    }
    if turn.taken[index] && !wrong.has(Wrong::EveryOrderOfAUnitCounts) {
        return Err(Ignored::SecondOrder { unit: unit_id });
    }
    let mut product_id = None;
    if let Command::Produce(product) = order.command {
        // 4.2 and D-codevs4-12: a production the player cannot pay for now, or one with no id
        // left in 0..=20000 (D-codevs4-10), cannot be carried out: not accepted, nothing paid.
        let cost = product.cost().unwrap_or(u32::MAX);
        let resources = &mut state.players[player].resources;
        if *resources < cost {
            return Err(Ignored::CannotPay {
                unit: unit_id,
                product,
                cost,
                had: *resources,
            });
        }
        if turn.next_id > MAX_ID {
            return Err(Ignored::NoIdLeft {
                unit: unit_id,
                product,
                id: turn.next_id,
            });
        }
        *resources -= cost;
        product_id = Some(turn.next_id);
        turn.next_id += 1;
    }
    turn.taken[index] = true;
    Ok(Accepted {
        index,
        command: order.command,
        product_id,
    })
}

/// 4.5 and 4.6: each player's income, and on every resource cell min(5, its workers there).
fn gather(state: &mut State, wrong: Wrongs) {
    let cells = &state.resource_cells;
    let mut workers = vec![[0u32; 2]; cells.len()];
    for unit in state.units.iter().filter(|u| u.kind == Kind::Worker) {
        if let Some(r) = cells.iter().position(|&c| c == unit.cell) {
            workers[r][unit.owner] += 1;
        }
    }
    for (p, player) in state.players.iter_mut().enumerate() {
        let income = match (p, state.stage) {
            _ if wrong.has(Wrong::IncomeBeforeProduction) => 0,
            (1, 27) if wrong.has(Wrong::ExtraStagesFrom28) => BASE_INCOME,
            _ => income(state.stage, p),
        };
        let gathered = |workers: u32| {
            if wrong.has(Wrong::GatherCapAt6) {
                workers.min(6)
            } else {
                gathered(workers)
            }
        };
        let gain = workers.iter().fold(income, |sum, on_cell| {
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
fn end_of_turn(state: &State, castles_before: [bool; 2], wrong: Wrongs) -> Option<Outcome> {
    let standing = castles(state);
    let lost = [0, 1].map(|p| castles_before[p] && !standing[p]);
    let last = if wrong.has(Wrong::TurnLimitOneEarly) {
        TURNS - 1
    } else {
        TURNS
    };
    match lost {
        [true, true] => Some(Outcome::new(
            wrong.has(Wrong::BothCastlesDownPlayer0Wins).then_some(0),
            BOTH_CASTLES_DESTROYED,
        )),
        [true, false] => Some(Outcome::won_by(1, CASTLE_DESTROYED)),
        [false, true] => Some(Outcome::won_by(0, CASTLE_DESTROYED)),
        [false, false] if state.turn >= last => Some(Outcome::draw(TURN_LIMIT)),
        [false, false] => None,
    }
}

/// [`Cell::step`] as [`Wrong::MovesWrapAround`] plays it: off one side of the field, onto the
/// other.
fn wrapped_step(cell: Cell, direction: Direction) -> Cell {
    let (dx, dy) = direction.delta();
    Cell {
        x: (cell.x + dx).rem_euclid(SIZE),
        y: (cell.y + dy).rem_euclid(SIZE),
    }
}

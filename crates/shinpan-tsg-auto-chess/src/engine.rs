//! One turn of TSG AUTO CHESS, in the order of 「ゲームの流れについて」 (D-tsg-8): the clocks and the
//! replies, each player's command (player 0 first), the moves, the attacks, the removal of the
//! dead, the result; then the shop refills and, when the match goes on, the next turn's income,
//! which comes before its prompts. The turn from replies already read is public,
//! [`play_turn`]: what a bot author calls to play a turn without printing it, and what the step
//! plays once it has read both replies.

use super::protocol::{Command, Move, TurnReply};
use super::rules::{
    chebyshev, damage, draw_price, evolved, half_rounded_up, income, on_board, to_frame,
    unit_limit, Kind, BASE_INCOME, BOARD, BUY_RANGE, GOLD_PER_INTEREST, KING_RANGE, LEVELUP_COST,
    MAX_NUMBER, MAX_UNITS, TURNS,
};
use super::state::{Player, ShopUnit, State, Unit};
use super::variants::{Wrong, Wrongs};
use shinpan_core::seam::{Outcome, Reply, ReplyVerdict, StepError, StepReport, StepResult};

pub const KING_DESTROYED: &str = "king-destroyed";
pub const TIME_OVER: &str = "time-over";
pub const BOTH: &str = "king-destroyed-and-time-over";
pub const TURN_LIMIT: &str = "turn-limit";

/// What happened inside one turn that the state between turns does not keep.
#[derive(Default)]
struct Turn {
    /// Ids bought this turn: on the board, but they neither move nor attack (「buy」).
    fresh: Vec<u32>,
    /// The shop slot each player bought from, refilled as the turn ends.
    bought_slot: [Option<usize>; 2],
}

/// A step, with some rules played wrong ([`Wrongs`]) to name a departure; [`Wrongs::NONE`]
/// plays the rules.
pub fn step_with(state: &mut State, replies: &[Reply], wrong: Wrongs) -> StepResult {
    StepError::unless_before_the_end(state.turn, TURNS)?;

    let mut verdicts = Vec::with_capacity(2);
    let mut read = [None, None];
    let mut out_of_time = [false; 2];
    for (p, reply) in replies.iter().enumerate() {
        let (verdict, reply) = take_reply(&mut state.players[p], reply, wrong);
        out_of_time[p] = matches!(verdict, ReplyVerdict::TimedOut | ReplyVerdict::Crashed);
        read[p] = reply;
        verdicts.push(verdict);
    }
    // A reply that never came is a turn without command or moves.
    let none = TurnReply {
        command: Command::Nop,
        moves: Vec::new(),
    };
    let replies = [0, 1].map(|p| read[p].as_ref().unwrap_or(&none));
    play_replies(state, replies, out_of_time, wrong);
    Ok(StepReport { replies: verdicts })
}

/// One turn from both players' replies already read: each player's command (player 0's
/// first), the moves, the attacks, the removal of the dead, the result; then the shop refills
/// and, when the match goes on, the next turn's income (「ゲームの流れについて」, D-tsg-8). What
/// a bot author calls to play a turn without printing it; what the step plays once it has
/// read both replies. A command or a move that cannot be carried out does nothing, as in the
/// step.
///
/// It does not check or charge thinking time (no player loses on time: the step passes the
/// clocks' verdicts to the result), read text, or guard the state: call it on a state
/// `Game::validate` accepts whose match is not over. `examples/one_turn.rs` plays a turn with
/// it.
pub fn play_turn(state: &mut State, replies: [&TurnReply; 2]) {
    play_replies(state, replies, [false; 2], Wrongs::NONE);
}

/// [`play_turn`] with some rules played wrong ([`Wrongs`]), and `out_of_time`: which players'
/// clocks ran out this turn (they lose as the turn ends, 「勝敗判定」).
fn play_replies(
    state: &mut State,
    replies: [&TurnReply; 2],
    out_of_time: [bool; 2],
    wrong: Wrongs,
) {
    let mut turn = Turn::default();
    for (p, reply) in replies.iter().enumerate() {
        command(state, p, &reply.command, &mut turn, wrong);
    }
    let moves = replies.map(|r| r.moves.as_slice());
    move_units(state, moves, &turn.fresh, wrong);
    attack(state, &turn.fresh, wrong);
    let kings_lost = remove_dead(state, wrong);

    state.turn += 1;
    state.outcome = result(state, kings_lost, out_of_time, wrong);
    refill(state, &turn, wrong);
    if state.outcome.is_none() {
        pay_income(state, wrong);
    }
}

/// Charges the thinking time and reads the reply. A reply that came after the clock ran out is
/// still played (the result is judged after the turn, 「ゲームの流れについて」 step 7); one that
/// never came is a turn without command or moves.
fn take_reply(
    player: &mut Player,
    reply: &Reply,
    wrong: Wrongs,
) -> (ReplyVerdict, Option<TurnReply>) {
    let (text, elapsed_ms) = match reply.played() {
        Ok(played) => played,
        Err(missing) => {
            player.time_left_ms = 0;
            return (missing, None);
        }
    };
    // A strict reply reads the same leniently (checked by the reply fuzz target).
    let (verdict, reply) = match TurnReply::parse(text) {
        Ok(reply) => (ReplyVerdict::Accepted, reply),
        Err(strict) => (
            ReplyVerdict::NonStrict(strict.to_string()),
            TurnReply::read_lenient(text),
        ),
    };
    // D-tsg-9 (「勝敗判定」: 残り時間が0以下): 3 minutes in all, and a player whose time left is 0
    // or less after its reply has lost, so using exactly all of it loses too.
    let out_of_time = if wrong.has(Wrong::ExactlyAllTheTimeAllowed) {
        elapsed_ms > player.time_left_ms
    } else {
        elapsed_ms >= player.time_left_ms
    };
    if out_of_time {
        player.time_left_ms = 0;
        return (ReplyVerdict::TimedOut, Some(reply));
    }
    player.time_left_ms -= elapsed_ms;
    (verdict, Some(reply))
}

/// 「各操作について」, D-tsg-6: one command; one that cannot be carried out does nothing.
fn command(state: &mut State, p: usize, command: &Command, turn: &mut Turn, wrong: Wrongs) {
    match *command {
        Command::Buy { id, x, y } => {
            if let Some(slot) = can_buy(state, p, id, (x, y), wrong) {
                let bought = state.players[p].shop[slot];
                let (x, y) = to_frame(p, (x, y));
                state.players[p].gold -= bought.price;
                state.units.push(Unit {
                    id: bought.id,
                    owner: p,
                    kind: bought.kind,
                    hp: bought.hp,
                    atk: bought.atk,
                    x: x as i32,
                    y: y as i32,
                });
                turn.fresh.push(bought.id);
                turn.bought_slot[p] = Some(slot);
            }
        }
        Command::Evolve(ids) => evolve(state, p, ids, wrong),
        Command::Levelup => {
            let player = &mut state.players[p];
            let afford = if wrong.has(Wrong::LevelupForThreeGold) {
                LEVELUP_COST - 1
            } else {
                LEVELUP_COST
            };
            if player.gold >= afford {
                player.gold -= LEVELUP_COST;
                player.level = (player.level + 1).min(MAX_NUMBER);
            }
        }
        Command::Nop | Command::Other(_) => {}
    }
}

/// 「buy」: the shop slot of `id` when player `p` may put it on `cell` (its own frame): a unit
/// of its own shop, gold for it, an empty cell on the board within 3 of its king, and room
/// under the unit limit.
fn can_buy(state: &State, p: usize, id: i64, cell: (i64, i64), wrong: Wrongs) -> Option<usize> {
    let player = &state.players[p];
    let slot = player.shop.iter().position(|s| i64::from(s.id) == id)?;
    let (x, y) = to_frame(p, cell);
    let (x, y) = (i32::try_from(x).ok()?, i32::try_from(y).ok()?);
    let king = state.king(p)?;
    let distance = if wrong.has(Wrong::BuyRangeSigned) {
        (x - king.x).max(y - king.y)
    } else {
        chebyshev(king.at(), (x, y))
    };
    let fits = player.gold >= player.shop[slot].price
        && on_board((x, y))
        && distance <= BUY_RANGE
        && !state.units.iter().any(|u| u.at() == (x, y))
        && state.army_size(p) < unit_limit(player.level);
    fits.then_some(slot)
}

/// 「evolve」: three different own units of one type; the first takes twice their average HP
/// and ATK (rounded half up), the other two leave the board.
fn evolve(state: &mut State, p: usize, ids: [i64; 3], wrong: Wrongs) {
    let repeated = ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == ids[2];
    if repeated && !wrong.has(Wrong::EvolveWithOneIdThrice) {
        return;
    }
    let find = |id: i64| {
        state
            .units
            .iter()
            .position(|u| u.owner == p && i64::from(u.id) == id)
    };
    let (Some(a), Some(b), Some(c)) = (find(ids[0]), find(ids[1]), find(ids[2])) else {
        return;
    };
    let three = [a, b, c].map(|i| state.units[i]);
    if three.iter().any(|u| u.kind != three[0].kind) {
        return;
    }
    let evolved = if wrong.has(Wrong::EvolveSumOverThreeAndAHalf) {
        evolved_over_three_and_a_half
    } else {
        evolved
    };
    state.units[a].hp = evolved(three.map(|u| u.hp));
    state.units[a].atk = evolved(three.map(|u| u.atk));
    let gone = [three[1].id, three[2].id];
    state.units.retain(|u| !gone.contains(&u.id));
}

/// 「ユニットの移動」, D-tsg-3: each player's entries in its own frame, for its own units that
/// were not bought this turn, the first entry for a unit only; then all of them in ascending id,
/// each to an empty cell on the board at Chebyshev distance 1, or not at all. `held`: the units
/// that take no orders (bought this turn).
fn move_units(state: &mut State, moves: [&[Move]; 2], held: &[u32], wrong: Wrongs) {
    // (id, index in `units`, target); indices hold: nothing leaves the board while units move.
    let mut entries: Vec<(u32, usize, (i64, i64))> = Vec::new();
    for (p, list) in moves.into_iter().enumerate() {
        for m in list {
            let Ok(id) = u32::try_from(m.id) else {
                continue;
            };
            let Some(i) = state.units.iter().position(|u| u.id == id && u.owner == p) else {
                continue;
            };
            let first =
                wrong.has(Wrong::UnitsMoveTwice) || !entries.iter().any(|&(e, _, _)| e == id);
            if first && !held.contains(&id) {
                entries.push((id, i, to_frame(p, (m.x, m.y))));
            }
        }
    }
    if !wrong.has(Wrong::MovesInPlayerOrder) {
        entries.sort_by_key(|&(id, _, _)| id);
    }
    let mut occupied = Occupancy::of(&state.units);
    for (_, i, (x, y)) in entries {
        let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else {
            continue;
        };
        let from = state.units[i].at();
        if on_board((x, y)) && chebyshev(from, (x, y)) == 1 && !occupied.holds((x, y)) {
            occupied.set(from, false);
            occupied.set((x, y), true);
            state.units[i].x = x;
            state.units[i].y = y;
        }
    }
}

/// Which cells of the board hold a unit.
pub struct Occupancy([bool; MAX_UNITS]);

impl Occupancy {
    pub fn of(units: &[Unit]) -> Occupancy {
        let mut cells = Occupancy([false; MAX_UNITS]);
        for unit in units {
            cells.set(unit.at(), true);
        }
        cells
    }

    fn index((x, y): (i32, i32)) -> Option<usize> {
        on_board((x, y)).then(|| (y * BOARD + x) as usize)
    }

    /// Whether the cell (on the board) holds a unit; off the board, false.
    pub fn holds(&self, cell: (i32, i32)) -> bool {
        Occupancy::index(cell).is_some_and(|i| self.0[i])
    }

    fn set(&mut self, cell: (i32, i32), taken: bool) {
        if let Some(i) = Occupancy::index(cell) {
            self.0[i] = taken;
        }
    }
}

/// 「ユニットの攻撃」, D-tsg-1/2: every unit not bought this turn hits every enemy in its range,
/// all from the positions after the moves, all at once.
fn attack(state: &mut State, fresh: &[u32], wrong: Wrongs) {
    let mut taken = vec![0i64; state.units.len()];
    let fights = |u: &&Unit| wrong.has(Wrong::FreshUnitsAttack) || !fresh.contains(&u.id);
    for attacker in state.units.iter().filter(fights) {
        let range = if wrong.has(Wrong::KingRangeTwo) && attacker.kind == Kind::King {
            KING_RANGE - 1
        } else {
            attacker.kind.range()
        };
        for (t, target) in state.units.iter().enumerate() {
            if target.owner != attacker.owner && chebyshev(attacker.at(), target.at()) <= range {
                taken[t] += if wrong == Wrongs::NONE {
                    damage(attacker.kind, attacker.atk, target.kind)
                } else {
                    damage_with(attacker.kind, attacker.atk, target.kind, wrong)
                };
            }
        }
    }
    for (unit, taken) in state.units.iter_mut().zip(taken) {
        unit.hp -= taken;
    }
}

/// 「死亡ユニットの除外」: units at HP 0 or less leave the board; each counts as a kill for the
/// other player (D-tsg-4). Returns which kings died.
fn remove_dead(state: &mut State, wrong: Wrongs) -> [bool; 2] {
    let mut kings = [false; 2];
    let mut kills = [0i64; 2];
    for unit in state.units.iter().filter(|u| u.hp <= 0) {
        if wrong.has(Wrong::KillIncomeForOwnLosses) {
            kills[unit.owner] += 1;
        } else {
            kills[1 - unit.owner] += 1;
        }
        if unit.kind == Kind::King {
            kings[unit.owner] = true;
        }
    }
    state.units.retain(|u| u.hp > 0);
    for (player, kills) in state.players.iter_mut().zip(kills) {
        player.kills = kills;
    }
    kings
}

/// 「勝敗判定」, D-tsg-7, D-tsg-9: a player whose king died or whose time left fell to 0 or less
/// loses; both: a draw.
/// After the last turn, the king with more HP wins.
fn result(
    state: &State,
    kings_lost: [bool; 2],
    out_of_time: [bool; 2],
    wrong: Wrongs,
) -> Option<Outcome> {
    let lost = [0, 1].map(|p| kings_lost[p] || out_of_time[p]);
    let reason = |kings: bool, time: bool| match (kings, time) {
        (true, true) => BOTH,
        (true, false) => KING_DESTROYED,
        _ => TIME_OVER,
    };
    if lost.iter().any(|&l| l) {
        let winner = match lost {
            [true, false] => Some(1),
            [false, true] => Some(0),
            _ => None,
        };
        let kings = (0..2).any(|p| lost[p] && kings_lost[p]);
        let time = (0..2).any(|p| lost[p] && out_of_time[p]);
        return Some(Outcome::new(winner, reason(kings, time)));
    }
    let last = if wrong.has(Wrong::TurnLimitATurnEarly) {
        TURNS - 1
    } else {
        TURNS
    };
    if state.turn < last {
        return None;
    }
    let hp = [0, 1].map(|p| state.king(p).map_or(0, |k| k.hp));
    let winner = match hp[0].cmp(&hp[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    Some(Outcome::new(winner, TURN_LIMIT))
}

/// A bought slot gets a unit of the same type at its buyer's level, with the next id and a new
/// price, player 1's first (D-tsg-5). The document refills it for the next turn; it is done as
/// this one ends, so that a finished match still shows three units for sale.
fn refill(state: &mut State, turn: &Turn, wrong: Wrongs) {
    for p in 0..2 {
        if let Some(slot) = turn.bought_slot[p] {
            let price = draw_price(&mut state.price_rng);
            let level = if wrong.has(Wrong::RefillAtLevelOne) {
                state.players[p].level.min(1)
            } else {
                state.players[p].level
            };
            state.players[p].shop[slot] = ShopUnit::new(state.next_id, slot, level, price);
            state.next_id = state.next_id.saturating_add(1);
        }
    }
}

/// The income at the start of the next turn, before its prompts (D-tsg-4).
fn pay_income(state: &mut State, wrong: Wrongs) {
    for player in &mut state.players {
        let income = if wrong.has(Wrong::InterestUncapped) {
            BASE_INCOME + player.gold / GOLD_PER_INTEREST + player.kills
        } else {
            income(player.gold, player.kills)
        };
        player.gold = (player.gold + income).min(MAX_NUMBER);
    }
}

/// [`damage`] with the type triangle or the halving played wrong
/// ([`Wrong::WarriorDoublesOnMage`], [`Wrong::HalvesRoundedDown`]).
fn damage_with(attacker: Kind, atk: i64, target: Kind, wrong: Wrongs) -> i64 {
    let prey = match attacker {
        Kind::Warrior if wrong.has(Wrong::WarriorDoublesOnMage) => Some(Kind::Mage),
        _ => attacker.prey(),
    };
    if attacker == Kind::King || target == Kind::King || attacker == target {
        atk
    } else if prey == Some(target) {
        atk * 2
    } else if wrong.has(Wrong::HalvesRoundedDown) {
        atk.div_euclid(2)
    } else {
        half_rounded_up(atk)
    }
}

/// [`evolved`] as [`Wrong::EvolveSumOverThreeAndAHalf`] plays it: ⌊sum / 3.5 · 2⌋.
fn evolved_over_three_and_a_half(values: [i64; 3]) -> i64 {
    let sum: i64 = values.iter().sum();
    (sum * 4).div_euclid(7).min(MAX_NUMBER)
}

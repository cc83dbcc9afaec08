//! Reading a prompt back into the state it shows, for `shinpan trace`. A TSG AUTO CHESS prompt
//! shows the turn, the reader's time left, both levels and both golds, the reader's shop, and
//! every unit on the board (the reader's, then the enemy's, in the reader's frame): the board is
//! never hidden. What it does not show stays as known: the enemy's shop and time, the kills of
//! the last turn (seen only through the next income), the id counter and the price generator.
//!
//! Two shown values no engine could predict are taken as shown (`drawn`): the time left, which
//! the engine measures, and the price of a unit that came into the shop since the last prompt
//! (a fresh draw; the rules fix its id, type and stats, not its price). Which slots those are
//! the state does not say, so a price counts as fresh in the prompts of turn 0 and whenever its unit
//! holds one of the last two ids the counter gave (at most two slots are refilled a turn): an
//! unchanged price may go unchecked for a turn, a fresh one is never taken for a departure.
//!
//! The prompts of turn 0 are checked too: the first one, read onto nothing, gives the start
//! the document sets (kings at home, 5 gold, level 1, the shops' ids and stats) with only its
//! drawn values written, so that an engine that starts otherwise is named at step 0.
//!
//! The state keeps every unit in one list in the order units came onto the board; a prompt
//! shows each player's part of that order, not how the two parts interleave. The units are put
//! back in the order of the known state, a unit it does not hold after those of both players it
//! does (the reader's first), so that a prompt the prediction agrees with reads back into the
//! predicted list exactly.

use super::protocol::{Prompt, UnitLine};
use super::rules::to_frame;
use super::state::{State, Unit};
use super::TsgAutoChess;
use shinpan_core::seam::{Observation, Observed, Recorded, StateError};

/// How many shop slots at most are refilled in one turn: one a player.
const REFILLS_A_TURN: u32 = 2;

impl Recorded for TsgAutoChess {
    /// Every prompt shows the whole board; the module doc says what it leaves out.
    fn observe(&self, prompt: &str, player: usize, known: Option<&State>) -> Observed<State> {
        let prompt = Prompt::parse(prompt)?;
        // The prompts of turn 0 are checked against the start the document gives: read onto
        // nothing, the first one gives only what is drawn (its prices, its time).
        let start = known.is_none() && prompt.turn == 0;
        let mut state = known.cloned().unwrap_or_default();
        let me = player.min(1);
        let them = 1 - me;
        let mut shown = vec!["turn".to_string()];
        let mut drawn = Vec::new();
        state.turn = prompt.turn;

        let time = format!("players[{me}].time_left_ms");
        state.players[me].time_left_ms = prompt.time_left_ms;
        shown.push(time.clone());
        drawn.push(time);
        for (seat, i) in [(me, 0), (them, 1)] {
            state.players[seat].level = prompt.levels[i];
            state.players[seat].gold = prompt.golds[i];
            shown.push(format!("players[{seat}].level"));
            shown.push(format!("players[{seat}].gold"));
        }

        let fresh_from = state.next_id.saturating_sub(REFILLS_A_TURN);
        for (slot, unit) in prompt.shop.iter().enumerate() {
            let path = format!("players[{me}].shop[{slot}]");
            for field in ["id", "type", "hp", "atk", "price"] {
                shown.push(format!("{path}.{field}"));
            }
            if prompt.turn == 0 || unit.id >= fresh_from {
                drawn.push(format!("{path}.price"));
            }
        }
        if start {
            for (slot, unit) in state.players[me].shop.iter_mut().enumerate() {
                unit.price = prompt.shop[slot].price;
            }
            return Ok(Observation {
                state,
                shown,
                drawn,
            });
        }
        state.players[me].shop = prompt.shop;

        let turned = half_turn(&state.units, &prompt, me);
        state.units = interleave(&state.units, &prompt.own, &prompt.enemy, me, turned);
        shown.push("units".into());

        // The counter stands past every id in sight; what it gave to units since gone is not seen.
        if let Some(highest) = state.ids().max() {
            state.next_id = state.next_id.max(highest.saturating_add(1));
        }
        Ok(Observation {
            state,
            shown,
            drawn,
        })
    }

    /// main.rb makes states the rules forbid (D-tsg-11: ids used twice, two units on a cell,
    /// more units than the limit): the engine steps them safely, so only what it needs holds.
    fn validate_recorded(&self, state: &State) -> Result<(), StateError> {
        state.validate_recorded()
    }
}

/// Where player 2's frame puts the board's far corner: (x, y) in its frame is (cx − x, cy − y)
/// on the board. By the document it is (14, 14) ([`to_frame`]); an engine on a board of
/// another size (main.rb's 9×9, `board.size`) turns the board about another centre, which would
/// make every one of player 2's prompts disagree with player 1's about every unit. So the corner
/// is the one most of the units `known` holds agree on, the document's when no other has more
/// votes: once the board itself is reported (at turn 0), the trace follows the engine's board.
fn half_turn(known: &[Unit], prompt: &Prompt, me: usize) -> (i64, i64) {
    let document = to_frame(1, (0, 0));
    if me == 0 {
        return document;
    }
    let mut votes: Vec<((i64, i64), usize)> = vec![(document, 0)];
    for line in prompt.own.iter().chain(&prompt.enemy) {
        let Some(unit) = known.iter().find(|u| u.id == line.id) else {
            continue;
        };
        let corner = (line.x + i64::from(unit.x), line.y + i64::from(unit.y));
        match votes.iter_mut().find(|(c, _)| *c == corner) {
            Some((_, n)) => *n += 1,
            None => votes.push((corner, 1)),
        }
    }
    // The first of the most voted: the document's on a tie.
    let most = votes.iter().map(|&(_, n)| n).max().unwrap_or(0);
    votes
        .into_iter()
        .find(|&(_, n)| n == most)
        .map_or(document, |(c, _)| c)
}

/// The units of the prompt (`own` of player `me`, then `enemy`) as one list: each player's in
/// the prompt's order, the two merged by their places in `known`; units `known` lacks come last,
/// player 0's before player 1's.
fn interleave(
    known: &[Unit],
    own: &[UnitLine],
    enemy: &[UnitLine],
    me: usize,
    turned: (i64, i64),
) -> Vec<Unit> {
    let place = |id: u32| known.iter().position(|u| u.id == id).unwrap_or(usize::MAX);
    let to_unit = |line: &UnitLine, owner: usize| {
        let (x, y) = if me == 0 {
            (line.x, line.y)
        } else {
            (turned.0 - line.x, turned.1 - line.y)
        };
        Unit {
            id: line.id,
            owner,
            kind: line.kind,
            hp: line.hp,
            atk: line.atk,
            // The strict parser keeps coordinates within the board.
            x: i32::try_from(x).unwrap_or(i32::MAX),
            y: i32::try_from(y).unwrap_or(i32::MAX),
        }
    };
    let mut lists = [Vec::new(), Vec::new()];
    lists[me] = own.iter().map(|l| to_unit(l, me)).collect();
    lists[1 - me] = enemy.iter().map(|l| to_unit(l, 1 - me)).collect();
    let [zero, one] = lists;
    let mut units = Vec::with_capacity(zero.len() + one.len());
    let (mut a, mut b) = (zero.into_iter().peekable(), one.into_iter().peekable());
    loop {
        let take_zero = match (a.peek(), b.peek()) {
            (Some(u), Some(v)) => place(u.id) <= place(v.id),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        units.extend(if take_zero { a.next() } else { b.next() });
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TsgAutoChess;
    use shinpan_core::seam::{Game, NoOptions, Reply};

    #[test]
    fn a_prompt_reads_back_into_the_state_it_came_from() {
        let mut state = TsgAutoChess.new_match(3, &NoOptions {});
        // A few turns of buys so that both players have units, in an interleaved order.
        for replies in [
            ["buy 2 6 1\n0", "buy 5 8 1\n0"],
            ["nop\n1\n2 6 2", "buy 6 6 1\n0"],
            ["buy 3 8 1\n0", "nop\n0"],
        ] {
            TsgAutoChess
                .step(&mut state, &replies.map(Reply::text))
                .unwrap();
        }
        assert!(state.units.len() > 4, "{state:?}");
        for player in [0, 1] {
            let prompt = TsgAutoChess.prompt(&state, player);
            let seen = TsgAutoChess.observe(&prompt, player, Some(&state)).unwrap();
            assert_eq!(seen.state, state, "player {player}");
            assert_eq!(TsgAutoChess.prompt(&seen.state, player), prompt);
        }
    }

    #[test]
    fn the_first_prompt_takes_every_price_as_drawn() {
        let state = TsgAutoChess.new_match(9, &NoOptions {});
        let prompt = TsgAutoChess.prompt(&state, 1);
        let seen = TsgAutoChess.observe(&prompt, 1, None).unwrap();
        assert_eq!(seen.state.players[1].shop, state.players[1].shop);
        assert_eq!(seen.state.units, state.units);
        for slot in 0..3 {
            assert!(seen
                .drawn
                .contains(&format!("players[1].shop[{slot}].price")));
        }
        assert_eq!(TsgAutoChess.prompt(&seen.state, 1), prompt);
    }

    #[test]
    fn a_prompt_that_is_no_prompt_is_an_error() {
        assert!(TsgAutoChess.observe("0\n180000\n1 1\n", 0, None).is_err());
    }
}

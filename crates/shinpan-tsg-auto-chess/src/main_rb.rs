//! main.rb's turn, as the official engine (fiord/tsg-auto-chess) plays it, for `shinpan trace`
//! to name what a main.rb recording shows by playing it (`Game::departures_played`). Never
//! followed by the reference: each way main.rb departs from the document is a flag
//! ([`Ways`]) tied to the clause it breaks, so that a departure shown is named by the flag
//! without which the play no longer shows it.
//!
//! main.rb keeps two records of the units: each player's list (what its prompts show) and a
//! grid (`@field`, what moves and attacks see). They drift apart (spec-notes, tsg preamble and
//! D-tsg-11): a bought unit is on the list but off the grid until it first moves; the dead and
//! the two units an evolve consumes leave the list but stay on the grid, where they block
//! moves and keep fighting (the dead as ghosts). The grid is [`Grid`].

use std::collections::{BTreeMap, BTreeSet};

use super::main_rb_grid::Grid;

use super::main_rb_reply;
use super::protocol::{Command, Move, TurnReply};
use super::rules::{damage, Kind, LEVELUP_COST};
use super::state::{ShopUnit, State, Unit};
use shinpan_core::seam::{Outcome, Reply};

/// main.rb's board: `$W = $H = 9`.
const MAIN_RB_BOARD: i32 = 9;
/// The document's board, for a play without `board_9`.
const DOCUMENT_BOARD: i32 = 15;

/// The ways main.rb departs from the document, each with the clause it breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ways {
    /// `board.size`: moves and buys within 9×9.
    pub board_9: bool,
    /// `board.frames`: player 2's moves read in main.rb's frame, (8 − x, 8 − y).
    pub frame_9: bool,
    /// `buy.frame`: player 2's buys read in the absolute frame.
    pub buy_absolute: bool,
    /// `buy.range`: max(x − kx, y − ky) ≤ 3, signed, not Chebyshev.
    pub buy_signed_range: bool,
    /// `buy.range`: measured from the first unit of the player's list, which is not the king
    /// once `evolve K K K` deleted it.
    pub buy_from_first_unit: bool,
    /// `buy.empty-cell`: no check that the cell is free.
    pub buy_any_cell: bool,
    /// `buy.unit-limit`: not enforced.
    pub no_unit_limit: bool,
    /// `buy.placed-at-once`: a bought unit stays off the grid until it moves.
    pub off_grid_until_moved: bool,
    /// `move.once`: every move line naming a unit moves it.
    pub every_move_line: bool,
    /// `evolve.three-own-units`: `evolve X X X` is taken, and deletes X from the list.
    pub evolve_same_id: bool,
    /// `evolve.result`: ⌊sum / 3.5 × 2⌋.
    pub evolve_floor: bool,
    /// `evolve.result`: the two consumed units stay on the grid.
    pub evolve_leaves_grid: bool,
    /// `removal.dead`: the dead stay on the grid as ghosts.
    pub ghosts: bool,
    /// `reply.lenient-command`: the command's numbers read with Ruby's `to_i` (`7x` is 7).
    pub to_i_commands: bool,
    /// `reply.malformed-move`: a move line read as its first three words with `to_i`
    /// (`2 4 6 7` moves unit 2 to (4, 6)), the count with `to_i` too.
    pub to_i_moves: bool,
}

impl Ways {
    /// Every way main.rb departs.
    pub const ALL: Ways = Ways {
        board_9: true,
        frame_9: true,
        buy_absolute: true,
        buy_signed_range: true,
        buy_from_first_unit: true,
        buy_any_cell: true,
        no_unit_limit: true,
        off_grid_until_moved: true,
        every_move_line: true,
        evolve_same_id: true,
        evolve_floor: true,
        evolve_leaves_grid: true,
        ghosts: true,
        to_i_commands: true,
        to_i_moves: true,
    };

    /// The ways both `self` and `o` hold: every way but the ones either lacks.
    pub fn and(self, o: Ways) -> Ways {
        Ways {
            board_9: self.board_9 && o.board_9,
            frame_9: self.frame_9 && o.frame_9,
            buy_absolute: self.buy_absolute && o.buy_absolute,
            buy_signed_range: self.buy_signed_range && o.buy_signed_range,
            buy_from_first_unit: self.buy_from_first_unit && o.buy_from_first_unit,
            buy_any_cell: self.buy_any_cell && o.buy_any_cell,
            no_unit_limit: self.no_unit_limit && o.no_unit_limit,
            off_grid_until_moved: self.off_grid_until_moved && o.off_grid_until_moved,
            every_move_line: self.every_move_line && o.every_move_line,
            evolve_same_id: self.evolve_same_id && o.evolve_same_id,
            evolve_floor: self.evolve_floor && o.evolve_floor,
            evolve_leaves_grid: self.evolve_leaves_grid && o.evolve_leaves_grid,
            ghosts: self.ghosts && o.ghosts,
            to_i_commands: self.to_i_commands && o.to_i_commands,
            to_i_moves: self.to_i_moves && o.to_i_moves,
        }
    }

    /// Each way alone: its clause, and every way but it.
    ///
    /// Long (about 80 lines) because it is a list, one entry a way, that rustfmt writes one field
    /// a line.
    pub fn each() -> Vec<(&'static str, Ways)> {
        let all = Ways::ALL;
        vec![
            (
                "board.size",
                Ways {
                    board_9: false,
                    ..all
                },
            ),
            (
                "board.frames",
                Ways {
                    frame_9: false,
                    ..all
                },
            ),
            (
                "buy.frame",
                Ways {
                    buy_absolute: false,
                    ..all
                },
            ),
            (
                "buy.range",
                Ways {
                    buy_signed_range: false,
                    ..all
                },
            ),
            (
                "buy.range",
                Ways {
                    buy_from_first_unit: false,
                    ..all
                },
            ),
            (
                "buy.empty-cell",
                Ways {
                    buy_any_cell: false,
                    ..all
                },
            ),
            (
                "buy.unit-limit",
                Ways {
                    no_unit_limit: false,
                    ..all
                },
            ),
            (
                "buy.placed-at-once",
                Ways {
                    off_grid_until_moved: false,
                    ..all
                },
            ),
            (
                "move.once",
                Ways {
                    every_move_line: false,
                    ..all
                },
            ),
            (
                "evolve.three-own-units",
                Ways {
                    evolve_same_id: false,
                    ..all
                },
            ),
            (
                "evolve.result",
                Ways {
                    evolve_floor: false,
                    evolve_leaves_grid: false,
                    ..all
                },
            ),
            (
                "removal.dead",
                Ways {
                    ghosts: false,
                    ..all
                },
            ),
            (
                "reply.lenient-command",
                Ways {
                    to_i_commands: false,
                    ..all
                },
            ),
            (
                "reply.malformed-move",
                Ways {
                    to_i_moves: false,
                    ..all
                },
            ),
        ]
    }
}

/// A match as main.rb holds it: the lists (`state.units`, in list order) and the grid.
#[derive(Debug, Clone)]
pub struct MainRb {
    pub state: State,
    /// What main.rb's grid holds (listed units or not), each where it stands.
    grid: Grid,
    /// Units off the lists but on the grid because they died (`ghosts`).
    ghosts: BTreeSet<u32>,
    /// Units off the lists but on the grid because an evolve consumed them (or deleted
    /// them: `evolve X X X`).
    consumed: BTreeSet<u32>,
    /// Why main.rb itself failed (a crash of its own), from the step it did on.
    pub failed: Option<String>,
}

impl MainRb {
    /// From a state shown by main.rb's prompts: every listed unit on the grid (what the
    /// prompts cannot tell: a unit bought and never moved is taken as on the grid).
    pub fn from_shown(state: &State) -> MainRb {
        let grid = Grid::of(&state.units);
        MainRb {
            state: state.clone(),
            grid,
            ghosts: BTreeSet::new(),
            consumed: BTreeSet::new(),
            failed: None,
        }
    }

    /// Takes what main.rb's next prompts showed (`shown`) as the lists, and keeps the grid:
    /// a listed unit's grid entry follows what is shown of it; a unit off the lists stays
    /// where main.rb left it; a listed unit the grid does not hold (bought, never moved) stays
    /// off it. Where the model played the step as main.rb did, this changes nothing.
    pub fn take_shown(&mut self, shown: &State) {
        let listed: BTreeMap<u32, &Unit> = shown.units.iter().map(|u| (u.id, u)).collect();
        for unit in self.grid.clone().units() {
            if let Some(&&now) = listed.get(&unit.id) {
                if now.at() == unit.at() {
                    *self.grid.get_mut(unit.id).expect("on the grid") = now;
                } else {
                    self.grid.set(now);
                }
            }
        }
        self.ghosts.retain(|id| !listed.contains_key(id));
        self.consumed.retain(|id| !listed.contains_key(id));
        self.state = shown.clone();
        // The prompts went on: whatever the model thought main.rb would fail on, it did not.
        self.failed = None;
    }

    /// The record main.rb would hold had it never departed the ways `ways` lacks: the dead
    /// and the consumed it left on the grid taken off it (without `ghosts`,
    /// `evolve_leaves_grid`, `evolve_same_id`), the listed units it left off the grid put on
    /// it (without `off_grid_until_moved`).
    pub fn without_leftovers(&self, ways: Ways) -> MainRb {
        let mut record = self.clone();
        let mut gone: BTreeSet<u32> = BTreeSet::new();
        if !ways.ghosts {
            gone.extend(&record.ghosts);
            record.ghosts.clear();
        }
        if !ways.evolve_leaves_grid || !ways.evolve_same_id {
            gone.extend(&record.consumed);
            record.consumed.clear();
        }
        record.grid.retain(|u| !gone.contains(&u.id));
        if !ways.off_grid_until_moved {
            for unit in &record.state.units {
                if !record.grid.has(unit.id) {
                    record.grid.stack(*unit);
                }
            }
        }
        record
    }

    /// Whether `without_leftovers(ways)` can differ from the record itself: main.rb keeps
    /// something of a way `ways` lacks.
    pub fn keeps_leftovers_of(ways: Ways) -> bool {
        !ways.ghosts
            || !ways.evolve_leaves_grid
            || !ways.evolve_same_id
            || !ways.off_grid_until_moved
    }

    /// One turn of main.rb's `run` loop, from the replies on: commands (player 1 first),
    /// moves in id order, attacks over the grid, the dead off the lists, the result; then the
    /// next turn's income. A refilled shop slot's price is main.rb's draw, which the next
    /// prompts show ([`MainRb::take_shown`]).
    pub fn step(&mut self, replies: &[Reply], ways: Ways) {
        if self.state.outcome.is_some() || replies.len() != 2 {
            return;
        }
        let board = if ways.board_9 {
            MAIN_RB_BOARD
        } else {
            DOCUMENT_BOARD
        };
        let replies: Vec<Option<TurnReply>> = replies
            .iter()
            .map(|r| {
                r.played()
                    .ok()
                    .map(|(text, _)| main_rb_reply::read(text, ways.to_i_commands, ways.to_i_moves))
            })
            .collect();
        let mut fresh: Vec<u32> = Vec::new();
        for (p, reply) in replies.iter().enumerate() {
            if let Some(reply) = reply {
                self.command(p, &reply.command, ways, board, &mut fresh);
            }
        }
        // Moves: player 2's in main.rb's frame; all in ascending id.
        let mut moves: Vec<(usize, Move)> = Vec::new();
        for (p, reply) in replies.iter().enumerate() {
            let Some(reply) = reply else { continue };
            let mut named: Vec<i64> = Vec::new();
            for m in &reply.moves {
                if !ways.every_move_line && named.contains(&m.id) {
                    continue;
                }
                named.push(m.id);
                let (x, y) = if p == 1 && m.x != -1 {
                    let corner = if ways.frame_9 {
                        MAIN_RB_BOARD - 1
                    } else {
                        DOCUMENT_BOARD - 1
                    };
                    (i64::from(corner) - m.x, i64::from(corner) - m.y)
                } else {
                    (m.x, m.y)
                };
                moves.push((p, Move { id: m.id, x, y }));
            }
        }
        moves.sort_by_key(|(_, m)| m.id);
        for (p, m) in moves {
            self.move_unit(p, m, board, ways, &fresh);
        }
        self.attack(&fresh);
        self.remove_dead(ways);
        self.state.turn += 1;
        if self.state.outcome.is_none() {
            for player in &mut self.state.players {
                player.gold += 1 + (player.gold / 10).min(5) + player.kills;
            }
        }
    }

    ///
    /// Long (about 110 lines) because it follows main.rb's handling of a command branch by
    /// branch, so that each of its ways can be read against main.rb's.
    fn command(
        &mut self,
        p: usize,
        command: &Command,
        ways: Ways,
        board: i32,
        fresh: &mut Vec<u32>,
    ) {
        let state = &mut self.state;
        match *command {
            Command::Buy { id, x, y } => {
                let (x, y) = if p == 1 && !ways.buy_absolute {
                    (i64::from(board - 1) - x, i64::from(board - 1) - y)
                } else {
                    (x, y)
                };
                // Off the board, main.rb looks no further (Ruby's `&&`).
                let on_board =
                    (0..i64::from(board)).contains(&x) && (0..i64::from(board)).contains(&y);
                if !on_board {
                    return;
                }
                // main.rb measures from the first unit of the player's list: the king, until
                // `evolve K K K` deletes it; with an empty list it fails.
                let from = if ways.buy_from_first_unit {
                    state.units.iter().find(|u| u.owner == p)
                } else {
                    state
                        .units
                        .iter()
                        .find(|u| u.owner == p && u.kind == Kind::King)
                };
                let Some(first) = from else {
                    if !ways.buy_from_first_unit {
                        return;
                    }
                    self.failed.get_or_insert_with(|| {
                        format!(
                            "player {p} bought with an empty unit list, and main.rb, which measures a buy's range from the list's first unit, crashed (`units[0]` is nil)"
                        )
                    });
                    return;
                };
                let (dx, dy) = (x - i64::from(first.x), y - i64::from(first.y));
                let in_range = if ways.buy_signed_range {
                    dx.max(dy) <= 3
                } else {
                    dx.abs().max(dy.abs()) <= 3
                };
                let (x, y) = (x as i32, y as i32);
                let free = ways.buy_any_cell
                    || (!state.units.iter().any(|u| u.at() == (x, y)) && !self.grid.holds((x, y)));
                let room = ways.no_unit_limit
                    || state.army_size(p) < super::rules::unit_limit(state.players[p].level);
                if !(in_range && free && room) {
                    return;
                }
                let player = &mut state.players[p];
                let Some(slot) = player.shop.iter().position(|s| i64::from(s.id) == id) else {
                    return;
                };
                let bought = player.shop[slot];
                if player.gold < bought.price {
                    return;
                }
                player.gold -= bought.price;
                let unit = Unit {
                    id: bought.id,
                    owner: p,
                    kind: bought.kind,
                    hp: bought.hp,
                    atk: bought.atk,
                    x,
                    y,
                };
                state.units.push(unit);
                if !ways.off_grid_until_moved {
                    // The rules' board: on at once, beside whatever main.rb let it be bought on.
                    self.grid.stack(unit);
                }
                fresh.push(bought.id);
                // Refilled at once with the same type at the buyer's level; the price is
                // main.rb's draw (taken from the next prompts when known).
                player.shop[slot] = ShopUnit::new(state.next_id, slot, player.level, bought.price);
                state.next_id += 1;
            }
            Command::Evolve(ids) => {
                if !ways.evolve_same_id
                    && (ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == ids[2])
                {
                    return;
                }
                let Some((a, three)) = state.evolving(p, ids) else {
                    return;
                };
                let evolved = |values: [i64; 3]| {
                    if ways.evolve_floor {
                        4 * values.iter().sum::<i64>() / 7
                    } else {
                        super::rules::evolved(values)
                    }
                };
                let (hp, atk) = (evolved(three.map(|u| u.hp)), evolved(three.map(|u| u.atk)));
                state.units[a].hp = hp;
                state.units[a].atk = atk;
                // main.rb's grid holds the same object as its list.
                if let Some(on_grid) = self.grid.get_mut(three[0].id) {
                    on_grid.hp = hp;
                    on_grid.atk = atk;
                }
                let gone = [three[1].id, three[2].id];
                state.units.retain(|u| !gone.contains(&u.id));
                if ways.evolve_leaves_grid {
                    self.consumed.extend(gone);
                } else {
                    self.grid.retain(|u| !gone.contains(&u.id));
                }
            }
            Command::Levelup => {
                let player = &mut state.players[p];
                if player.gold >= LEVELUP_COST {
                    player.gold -= LEVELUP_COST;
                    player.level += 1;
                }
            }
            Command::Nop | Command::Other(_) => {}
        }
    }

    /// main.rb's move: the listed unit (not bought this turn) one step onto a cell the grid
    /// holds nothing on; it clears the grid where it stood, whatever stood there.
    fn move_unit(&mut self, p: usize, m: Move, board: i32, ways: Ways, fresh: &[u32]) {
        if !(0..i64::from(board)).contains(&m.x) || !(0..i64::from(board)).contains(&m.y) {
            return;
        }
        let (x, y) = (m.x as i32, m.y as i32);
        let Some(i) = self
            .state
            .units
            .iter()
            .position(|u| u.owner == p && i64::from(u.id) == m.id)
        else {
            return;
        };
        let unit = self.state.units[i];
        if fresh.contains(&unit.id) {
            return;
        }
        let dist = (unit.x - x).abs().max((unit.y - y).abs());
        let blocked = self.grid.holds((x, y))
            || (!ways.off_grid_until_moved && self.state.units.iter().any(|u| u.at() == (x, y)));
        if dist != 1 || blocked {
            return;
        }
        self.grid.clear(unit.at());
        self.state.units[i].x = x;
        self.state.units[i].y = y;
        self.grid.set(self.state.units[i]);
    }

    /// Every unit on the grid (not bought this turn) hits every enemy on the grid in its range,
    /// whatever its HP; the listed units take what their grid entries took.
    fn attack(&mut self, fresh: &[u32]) {
        let on_grid = self.grid.units().to_vec();
        let mut taken: BTreeMap<u32, i64> = BTreeMap::new();
        for attacker in on_grid.iter().filter(|u| !fresh.contains(&u.id)) {
            for target in &on_grid {
                let reach = (attacker.x - target.x)
                    .abs()
                    .max((attacker.y - target.y).abs());
                if target.owner != attacker.owner && reach <= attacker.kind.range() {
                    *taken.entry(target.id).or_default() +=
                        damage(attacker.kind, attacker.atk, target.kind);
                }
            }
        }
        for (id, hit) in taken {
            if let Some(target) = self.grid.get_mut(id) {
                target.hp -= hit;
                let id = target.id;
                let hp = target.hp;
                if let Some(listed) = self.state.units.iter_mut().find(|u| u.id == id) {
                    listed.hp = hp;
                }
            }
        }
    }

    /// The dead leave the lists (ghosts stay on the grid); each is a kill for the other
    /// player; a dead king ends the match.
    fn remove_dead(&mut self, ways: Ways) {
        let mut kills = [0i64; 2];
        let mut kings = [false; 2];
        for unit in self.state.units.iter().filter(|u| u.hp <= 0) {
            kills[1 - unit.owner] += 1;
            if unit.kind == Kind::King {
                kings[unit.owner] = true;
            }
        }
        let dead: Vec<u32> = self
            .state
            .units
            .iter()
            .filter(|u| u.hp <= 0)
            .map(|u| u.id)
            .collect();
        self.state.units.retain(|u| u.hp > 0);
        if ways.ghosts {
            self.ghosts.extend(&dead);
        } else {
            self.grid.retain(|u| !dead.contains(&u.id));
        }
        for (player, kills) in self.state.players.iter_mut().zip(kills) {
            player.kills = kills;
        }
        if kings.iter().any(|&k| k) {
            let winner = match kings {
                [true, false] => Some(1),
                [false, true] => Some(0),
                _ => None,
            };
            self.state.outcome = Some(Outcome::new(winner, super::engine::KING_DESTROYED));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(text: &str) -> Reply {
        Reply::text(text)
    }

    /// main.rb's start on its 9×9 board: kings at (4, 8) and (4, 0), 5 gold each.
    fn start() -> State {
        let mut state = State::default();
        state.units[0].x = 4;
        state.units[0].y = 8;
        state.units[1].x = 4;
        state.units[1].y = 0;
        state
    }

    #[test]
    fn a_bought_unit_is_off_the_grid_until_it_moves() {
        let mut game = MainRb::from_shown(&start());
        // Player 1 buys its assassin (id 2) at (4, 6); player 2 moves its king nowhere.
        game.step(&[reply("buy 2 4 6\n0"), reply("nop\n0")], Ways::ALL);
        assert!(game.state.units.iter().any(|u| u.id == 2));
        assert!(!game.grid.has(2));
        // Played by the rules' placement, it is on the grid at once.
        let mut placed = MainRb::from_shown(&start());
        let ways = Ways {
            off_grid_until_moved: false,
            ..Ways::ALL
        };
        placed.step(&[reply("buy 2 4 6\n0"), reply("nop\n0")], ways);
        assert!(placed.grid.has(2));
    }

    #[test]
    fn evolve_x_x_x_deletes_x_and_consumed_units_stay_on_the_grid() {
        let mut state = start();
        for (id, x) in [(20, 3), (21, 4), (22, 5)] {
            state.units.push(Unit {
                id,
                owner: 0,
                kind: Kind::Warrior,
                hp: 50,
                atk: 10,
                x,
                y: 7,
            });
        }
        state.next_id = 23;
        let mut game = MainRb::from_shown(&state);
        game.step(&[reply("evolve 20 20 20\n0"), reply("nop\n0")], Ways::ALL);
        assert!(
            !game.state.units.iter().any(|u| u.id == 20),
            "X X X deletes X"
        );
        assert!(game.grid.has(20), "but X stays on the grid");
        let mut game = MainRb::from_shown(&state);
        game.step(&[reply("evolve 21 20 22\n0"), reply("nop\n0")], Ways::ALL);
        let evolved = game.state.units.iter().find(|u| u.id == 21).unwrap();
        assert_eq!((evolved.hp, evolved.atk), (85, 17), "⌊4 × sum / 7⌋");
        assert!(game.grid.has(20) && game.grid.has(22));
    }

    #[test]
    fn player_2_buys_in_the_absolute_frame_and_moves_in_8_minus_x() {
        let mut game = MainRb::from_shown(&start());
        // Player 2's shop holds 5..=7; (4, 2) is absolute, 2 from its king at (4, 0).
        game.step(&[reply("nop\n0"), reply("buy 5 4 2\n1\n1 3 7")], Ways::ALL);
        let bought = game.state.units.iter().find(|u| u.id == 5).unwrap();
        assert_eq!((bought.x, bought.y), (4, 2));
        let king = game.state.units.iter().find(|u| u.id == 1).unwrap();
        assert_eq!(
            (king.x, king.y),
            (5, 1),
            "(3, 7) in its frame is (8 - 3, 8 - 7)"
        );
    }
}

//! One step of CEDEC 2013: the name exchange of round 0, or one player's whole turn — its
//! thinking time, its command lines applied one at a time as they arrive (「処理フェイズ」,
//! D-cedec-6), the end-of-game check, and the next player's turn start (production, towers).
//! The turn from commands already read is public, [`play_turn`]: what a bot author calls to
//! play a turn without printing it, and what the step plays once it has read the reply.

use std::fmt::Write;

use super::protocol::{is_finish, java_trim, Command};
use super::rules::{
    index, neighbours, toward, town_bonus, Base, Direction, FACTORY_OUTPUT, MAX_NAME_CHARS,
    NAME_LIMIT_MS, NO_NAME, OVERRUN_POOL_MS, PLAYERS, ROBOTMAKER_OUTPUT, ROUNDS, TILES,
    TOWER_DAMAGE, TOWER_RANGE, TURN_LIMIT_MS, WINNING_SCORE,
};
use super::state::{Field, State};
use super::tally::resources_around;
use super::variants::{Wrong, Wrongs};
use crate::seam::{Outcome, Reply, ReplyVerdict, StepError, StepReport, StepResult};

pub const HUNDRED_POINTS: &str = "hundred-points";
pub const ROUND_LIMIT: &str = "round-limit";

/// A step, with some rules played wrong ([`Wrongs`]) to name a departure; [`Wrongs::NONE`]
/// plays the rules.
pub fn step_with(state: &mut State, replies: &[Reply], wrong: Wrongs) -> StepResult {
    // One reply: the guards of `checked_step` let no other count through.
    let reply = &replies[0];
    if state.player >= PLAYERS {
        return Err(StepError::BadState(format!("player {}", state.player)));
    }
    let verdict = if state.round == 0 {
        take_name(state, reply, wrong)
    } else {
        take_turn(state, reply, wrong)
    };
    Ok(StepReport {
        replies: vec![verdict],
    })
}

/// Round 0 (QUICKSTART 「動作プロセス」, D-cedec-10, D-cedec-11): the player's name. Only a name
/// later than 5000 ms (or none within it) disqualifies; a program whose output ends before it
/// names itself is called nanashi and plays on, every later turn ending at its end of input.
fn take_name(state: &mut State, reply: &Reply, wrong: Wrongs) -> ReplyVerdict {
    let player = &mut state.players[state.player];
    let verdict = match reply {
        Reply::Text { text, elapsed_ms } if *elapsed_ms <= NAME_LIMIT_MS => {
            let line = text.split('\n').next().unwrap_or("");
            let name: String = java_trim(line).chars().take(MAX_NAME_CHARS).collect();
            let verdict = if name.is_empty() {
                ReplyVerdict::Rejected("an empty name: named nanashi".into())
            } else {
                match super::protocol::parse_name(text) {
                    Ok(_) => ReplyVerdict::Accepted,
                    Err(e) => ReplyVerdict::NonStrict(e.to_string()),
                }
            };
            player.name = Some(if name.is_empty() {
                NO_NAME.into()
            } else {
                name
            });
            verdict
        }
        // D-cedec-11: the output ended first. Not a time-over: no disqualification.
        Reply::Crashed => {
            player.name = Some(NO_NAME.into());
            ReplyVerdict::Crashed
        }
        Reply::Text { .. } | Reply::TimedOut => {
            player.name = Some(NO_NAME.into());
            player.disqualified = true;
            ReplyVerdict::TimedOut
        }
    };
    if state.player + 1 < PLAYERS {
        state.player += 1;
    } else {
        state.round = 1;
        state.player = 0;
        start_turn_with(&mut state.tiles, 0, wrong);
    }
    state.scores = state.tiles.scores();
    verdict
}

/// What can happen within one turn but is not part of the state between turns.
#[derive(Clone)]
pub struct Turn {
    pub player: usize,
    /// Robots on each tile that moved or captured this turn and so cannot move again.
    pub moved: [u32; TILES],
    /// Whether the turn moves (`Some(false)`) or builds (`Some(true)`): the first well-formed
    /// move or build decides, even when it fails (D-cedec-6).
    pub builds: Option<bool>,
}

impl Turn {
    pub fn new(player: usize) -> Turn {
        Turn {
            player,
            moved: [0; TILES],
            builds: None,
        }
    }
}

/// One player's turn as the step plays it: the time, then the reply's lines up to `finish`
/// played as [`play_turn`] plays commands, then how the reply was taken.
fn take_turn(state: &mut State, reply: &Reply, wrong: Wrongs) -> ReplyVerdict {
    let (mut verdict, text) = take_time(&mut state.players[state.player], reply);
    let mut lines = Vec::new();
    let mut non_strict = Vec::new();
    if let Some(text) = text {
        let mut rest = text.split('\n');
        let mut finished = false;
        for (n, line) in rest.by_ref().enumerate() {
            if is_finish(line) {
                if line != "finish" {
                    non_strict.push(format!("line {}: blanks around `finish`", n + 1));
                }
                finished = true;
                break;
            }
            // The strict grammar first: what it reads, the engine reads alike (the `reply`
            // fuzz target holds it to that), and most lines are in the documented form.
            let read = Command::parse(line).or_else(|_| {
                let read = Command::parse_lenient(line);
                if read.is_ok() {
                    non_strict.push(format!("line {}: not in the documented form", n + 1));
                }
                read
            });
            lines.push(read);
        }
        if rest.next().is_some() {
            non_strict.push("lines after `finish` are not part of this turn".into());
        } else if !finished {
            non_strict.push("no `finish`: the end of the reply ends the turn".into());
        }
    }
    let played = play_lines(state, lines, wrong);
    let mut refused = String::new();
    for (n, why) in played.iter().enumerate() {
        if let Err(why) = why {
            let sep = if refused.is_empty() { "" } else { "; " };
            let _ = write!(refused, "{sep}line {}: {why}", n + 1);
        }
    }
    if verdict == ReplyVerdict::Accepted {
        verdict = if !refused.is_empty() {
            ReplyVerdict::Rejected(refused)
        } else if !non_strict.is_empty() {
            ReplyVerdict::NonStrict(non_strict.join("; "))
        } else {
            ReplyVerdict::Accepted
        };
    }
    verdict
}

/// The turn of the player to move (`state.player`), from commands already read: each command in
/// order (「処理フェイズ」, D-cedec-6), then the end of the turn (「ゲームの終了」: the scores, the
/// end-of-game check, and the next player's turn start: production, towers). What a bot author
/// calls to play their own turn without printing it; what the step plays after reading the reply.
///
/// Each command is played as the engine plays a line: a move or a build is applied or refused
/// (a refused one changes nothing, though the first well-formed move or build still decides
/// whether the turn moves or builds), `Reset` puts the field back as the turn found it, and
/// `Finish` ends the list: the commands after it are not played. A player who may only `finish`
/// (their time pool spent) has every command refused. Returns one result per command, in order:
/// `Err` says why it was refused or not played.
///
/// It does not play the name exchange of round 0, check or charge thinking time, read text,
/// or guard the state: call it on a state `Game::validate` accepts, in round 1 or later, whose
/// match is not over.
///
/// `examples/one_turn.rs` plays a turn with it.
pub fn play_turn(state: &mut State, commands: &[Command]) -> Vec<Result<(), String>> {
    play_lines(
        state,
        commands.iter().copied().map(Ok).collect(),
        Wrongs::NONE,
    )
}

/// [`play_turn`] with some rules played wrong ([`Wrongs`]), on lines as the engine read them:
/// a line that did not read is refused with why, after a turn of `finish` only with that.
fn play_lines(
    state: &mut State,
    lines: Vec<Result<Command, String>>,
    wrong: Wrongs,
) -> Vec<Result<(), String>> {
    let p = state.player;
    let ignore = state.players[p].finish_only();
    // The field as the turn found it, kept only for a turn that may go back to it.
    let resets = lines.iter().any(|line| matches!(line, Ok(Command::Reset)));
    let start = resets.then(|| state.tiles.clone());
    let mut turn = Turn::new(p);
    let mut finished = false;
    let results = lines
        .into_iter()
        .map(|line| {
            if finished {
                return Err("after `finish`: not part of this turn".into());
            }
            if ignore {
                return Err("ignored, every turn is finish only".into());
            }
            match line? {
                Command::Reset => {
                    if let Some(start) = &start {
                        state.tiles.clone_from(start);
                    }
                    turn = Turn::new(p);
                    Ok(())
                }
                Command::Finish => {
                    finished = true;
                    Ok(())
                }
                command => apply_with(&mut state.tiles, &mut turn, command, wrong),
            }
        })
        .collect();
    end_turn(state, wrong);
    results
}

/// D-cedec-11: charges the time over 1000 ms to the overrun pool. `None`: nothing of this reply
/// is played (it crashed, timed out, or emptied the pool).
fn take_time<'r>(
    player: &mut super::state::Player,
    reply: &'r Reply,
) -> (ReplyVerdict, Option<&'r str>) {
    match reply {
        // EOF counts as `finish` (D-cedec-6).
        Reply::Crashed => (ReplyVerdict::Crashed, None),
        Reply::TimedOut => {
            player.out_of_time = true;
            (ReplyVerdict::TimedOut, None)
        }
        Reply::Text { text, elapsed_ms } => {
            let over = elapsed_ms.saturating_sub(TURN_LIMIT_MS);
            player.overrun_ms = player.overrun_ms.saturating_add(over);
            if player.overrun_ms > OVERRUN_POOL_MS && !player.out_of_time {
                player.out_of_time = true;
                return (ReplyVerdict::TimedOut, None);
            }
            (ReplyVerdict::Accepted, Some(text))
        }
    }
}

/// Applies a move or a build for `turn.player`; `Err` says why it was refused (nothing changes).
pub fn apply(tiles: &mut Field, turn: &mut Turn, command: Command) -> Result<(), String> {
    apply_with(tiles, turn, command, Wrongs::NONE)
}

/// [`apply`] with some rules played wrong ([`Wrongs`]); [`Wrongs::NONE`] plays the rules.
pub fn apply_with(
    tiles: &mut Field,
    turn: &mut Turn,
    command: Command,
    wrong: Wrongs,
) -> Result<(), String> {
    let both = wrong.has(Wrong::MoveAndBuildInOneTurn);
    match command {
        Command::Move { x, y, dir, robots } => {
            if both {
                turn.builds = turn.builds.or(Some(false));
            } else if turn.builds == Some(true) {
                return Err("robots cannot move in a turn that builds".into());
            } else {
                turn.builds = Some(false);
            }
            move_robots(tiles, turn, x, y, dir, robots, wrong)
        }
        Command::Build { x, y, base } => {
            match turn.builds {
                Some(false) if !both => return Err("no build in a turn that moves robots".into()),
                Some(true) if !wrong.has(Wrong::TwoBuildsATurn) => {
                    return Err("only one build a turn".into())
                }
                _ => {}
            }
            turn.builds = Some(true);
            build(tiles, turn.player, x, y, base, wrong)
        }
        Command::Reset | Command::Finish => Ok(()),
    }
}

/// 「Move / 移動」, D-cedec-5.
fn move_robots(
    tiles: &mut Field,
    turn: &mut Turn,
    x: i32,
    y: i32,
    dir: Direction,
    robots: i32,
    wrong: Wrongs,
) -> Result<(), String> {
    let p = turn.player;
    let n = u32::try_from(robots)
        .ok()
        .filter(|&n| n > 0)
        .ok_or("the robot count must be at least 1")?;
    let from = index(x, y).ok_or_else(|| format!("({x}, {y}) is not on the field"))?;
    let to = toward(from, dir, 1).ok_or("the move leaves the field")?;
    let source = tiles.0[from];
    if !source.owned_by(p) {
        return Err(format!("({x}, {y}) is not yours"));
    }
    if source.hole {
        return Err("robots in a hole cannot leave it".into());
    }
    let free = source.robots - turn.moved[from].min(source.robots);
    if n > free {
        return Err(format!("{n} robots asked, {free} may move"));
    }
    let target = tiles.0[to];
    if target.base.is_some() && !target.owned_by(p) {
        return Err("robots cannot enter another player's base".into());
    }
    tiles.0[from].robots -= n;
    let dest = &mut tiles.0[to];
    let held = if wrong.has(Wrong::TieTakesTheTile) {
        n < dest.robots
    } else {
        n <= dest.robots
    };
    if dest.owned_by(p) {
        dest.robots += n;
        turn.moved[to] += n;
    } else if held {
        dest.robots -= n;
    } else {
        dest.owner = Some(p as u8);
        dest.robots = n - dest.robots;
        turn.moved[to] = dest.robots;
    }
    if wrong.has(Wrong::ArrivedRobotsMoveAgain) {
        turn.moved[to] = 0;
    }
    Ok(())
}

/// 「Build / 建造」, D-cedec-3, D-cedec-4.
fn build(
    tiles: &mut Field,
    p: usize,
    x: i32,
    y: i32,
    base: Base,
    wrong: Wrongs,
) -> Result<(), String> {
    let at = index(x, y).ok_or_else(|| format!("({x}, {y}) is not on the field"))?;
    let tile = tiles.0[at];
    if !tile.owned_by(p) {
        return Err(format!("({x}, {y}) is not yours"));
    }
    if tile.base.is_some() {
        return Err(format!("({x}, {y}) already has a base"));
    }
    if tile.hole != (base == Base::Bridge) {
        return Err(if tile.hole {
            "only a bridge can be built on a hole".into()
        } else {
            "a bridge can be built only on a hole".into()
        });
    }
    let short = if wrong.has(Wrong::BuildNeedsMoreThanTheCost) {
        tile.robots <= base.robot_cost()
    } else {
        tile.robots < base.robot_cost()
    };
    if short {
        return Err(format!(
            "{} needs {} robots on the tile, it has {}",
            base.name(),
            base.robot_cost(),
            tile.robots
        ));
    }
    let around = resources_around(tiles, at, p);
    if around < base.resource_cost() {
        return Err(format!(
            "{} needs {} resources around, there are {around}",
            base.name(),
            base.resource_cost()
        ));
    }
    let tile = &mut tiles.0[at];
    tile.hole = false;
    tile.robots -= base.robot_cost();
    tile.base = Some(base);
    if base == Base::Town {
        if !wrong.has(Wrong::NoTownBonus) {
            tile.bonus = town_bonus(around);
        }
        if wrong.has(Wrong::NoHousesAroundATown) {
            return Ok(());
        }
        for n in neighbours(at) {
            if tiles.0[n].owned_by(p) && tiles.0[n].base.is_none() && !tiles.0[n].hole {
                tiles.0[n].base = Some(Base::House);
            }
        }
    }
    Ok(())
}

/// 「ターン開始フェイズ」, D-cedec-3: the factory and robotmakers produce, then the towers fire.
pub fn start_turn(tiles: &mut Field, p: usize) {
    start_turn_with(tiles, p, Wrongs::NONE);
}

/// [`start_turn`] with some rules played wrong ([`Wrongs`]); [`Wrongs::NONE`] plays the rules.
///
/// One pass over the field produces and finds the player's towers, which then fire. Every
/// step plays it: the pass is written without a branch on a tile's owner or base, which
/// a random field made the processor guess wrong at every other tile.
fn start_turn_with(tiles: &mut Field, p: usize, wrong: Wrongs) {
    let everyone = wrong.has(Wrong::EveryPlayersBasesProduce);
    let (mut towers, mut count) = ([0u8; TILES], 0);
    for (at, tile) in tiles.0.iter_mut().enumerate() {
        let mine = tile.owned_by(p);
        let output = match tile.base {
            Some(Base::Initial) => FACTORY_OUTPUT,
            Some(Base::Robotmaker) => ROBOTMAKER_OUTPUT,
            _ => 0,
        };
        tile.robots += output * u32::from(mine || everyone);
        towers[count] = at as u8;
        count += usize::from(mine && tile.base == Some(Base::Tower));
    }
    let range = if wrong.has(Wrong::TowerRangeThree) {
        TOWER_RANGE + 1
    } else {
        TOWER_RANGE
    };
    for &at in &towers[..count] {
        for dir in Direction::ALL {
            for distance in 1..=range {
                if let Some(target) = toward(usize::from(at), dir, distance) {
                    let tile = &mut tiles.0[target];
                    if !tile.owned_by(p) {
                        tile.robots = tile.robots.saturating_sub(TOWER_DAMAGE);
                    }
                }
            }
        }
    }
}

/// 「ゲームの終了」, D-cedec-1: 100 points after a turn, or the last turn of round 200; else
/// the next player's turn starts.
fn end_turn(state: &mut State, wrong: Wrongs) {
    state.scores = state.tiles.scores();
    let winning = if wrong.has(Wrong::EndsAbove100) {
        WINNING_SCORE + 1
    } else {
        WINNING_SCORE
    };
    let rounds = if wrong.has(Wrong::RoundLimitARoundEarly) {
        ROUNDS - 1
    } else {
        ROUNDS
    };
    let reason = if state.scores.iter().any(|&s| s >= winning) {
        Some(HUNDRED_POINTS)
    } else if state.round >= rounds && state.player == PLAYERS - 1 {
        Some(ROUND_LIMIT)
    } else {
        None
    };
    if let Some(reason) = reason {
        let winner = if wrong.has(Wrong::TieGoesToTheLowerId) {
            (0..PLAYERS)
                .filter(|&p| !state.players[p].disqualified)
                .max_by_key(|&p| (state.scores[p], std::cmp::Reverse(p)))
        } else {
            winner(state)
        };
        state.outcome = Some(Outcome::new(winner, reason));
        return;
    }
    state.player = (state.player + 1) % PLAYERS;
    if state.player == 0 {
        state.round += 1;
    }
    start_turn_with(&mut state.tiles, state.player, wrong);
}

/// 「得点計算と勝敗」: the highest score wins, a tie goes to the higher id; a disqualified player
/// cannot win (rules.yaml `time.name`).
pub fn winner(state: &State) -> Option<usize> {
    (0..PLAYERS)
        .filter(|&p| !state.players[p].disqualified)
        .max_by_key(|&p| (state.scores[p], p))
}

#[cfg(test)]
mod tests {
    use super::super::rules::index;
    use super::*;

    /// A tower of player 0 on (0,0), and player 1's settlements of 5 robots on the r line at
    /// distances 1 to 4, after player 0's turn start: each one's robots.
    fn towers_fire(wrong: Wrongs) -> Vec<u32> {
        let mut tiles = Field::default();
        let tower = &mut tiles.0[index(0, 0).unwrap()];
        (tower.owner, tower.base) = (Some(0), Some(Base::Tower));
        for x in 1..=4 {
            let settlement = &mut tiles.0[index(x, 0).unwrap()];
            (settlement.owner, settlement.robots) = (Some(1), 5);
        }
        start_turn_with(&mut tiles, 0, wrong);
        (1..=4)
            .map(|x| tiles.0[index(x, 0).unwrap()].robots)
            .collect()
    }

    /// The variant plays what its name says (`tower.reach` at 3, not 2), not some other range:
    /// the library's cases see any other range as a departure too, so only this tells a mutant
    /// of the variant's range (`TOWER_RANGE - 1`) from the variant.
    #[test]
    fn the_tower_range_three_variant_fires_at_three() {
        // 5 - 2 = 3 within reach; 5 beyond it.
        assert_eq!(towers_fire(Wrongs::NONE), [3, 3, 5, 5]);
        let three = Wrongs::of(&[Wrong::TowerRangeThree as usize]);
        assert_eq!(towers_fire(three), [3, 3, 3, 5]);
    }
}

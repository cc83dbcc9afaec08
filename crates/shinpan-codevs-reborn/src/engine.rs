//! One turn of CODE VS Reborn, in the order of the document's list 「お邪魔ブロックの投下」
//! (D-reborn-2): thinking time and reply validity, ojama drop, pack or skill, vanish and fall,
//! gauge up, gauge down, ojama sent, offset, end of turn.

use super::protocol::Command;
use super::rules::{
    chain_score, chain_score_rounded, explosion_score, explosion_score_rounded, gauge_decrease,
    ojama_for, DANGER_HEIGHT, GAUGE_GAIN, GAUGE_MAX, OJAMA_ROW, SKILL_THRESHOLD, TURNS, WIDTH,
};
use super::state::{Pack, Player, State};
use super::variants::{Wrong, Wrongs};
use shinpan_core::seam::{Outcome, Reply, ReplyVerdict, StepError, StepReport, StepResult};

pub const DANGER_LINE: &str = "danger-line";
pub const INVALID_REPLY: &str = "invalid-reply";
pub const TIME_OVER: &str = "time-over";
pub const TURN_LIMIT: &str = "turn-limit";

/// Why a player's reply could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Invalid,
    TimeOver,
}

/// A step, with some rules played wrong ([`Wrongs`]) to name a departure; [`Wrongs::NONE`]
/// plays the rules.
pub fn step_with(state: &mut State, replies: &[Reply], wrong: Wrongs) -> StepResult {
    let turn = state.turn as usize;
    let pack = *state.packs.get(turn).ok_or_else(|| {
        StepError::BadState(format!(
            "no pack for turn {turn} (packs has {})",
            state.packs.len()
        ))
    })?;

    let mut verdicts = Vec::with_capacity(2);
    let mut commands = [None, None];
    let mut faults = [None, None];
    for (p, reply) in replies.iter().enumerate() {
        let verdict = match take_reply(&mut state.players[p], reply, wrong) {
            Ok((verdict, command)) => {
                commands[p] = Some(command);
                verdict
            }
            Err(unplayed) => {
                faults[p] = Some(match unplayed {
                    ReplyVerdict::TimedOut | ReplyVerdict::Crashed => Fault::TimeOver,
                    _ => Fault::Invalid,
                });
                unplayed
            }
        };
        verdicts.push(verdict);
    }
    let report = StepReport { replies: verdicts };

    // 「ゲームの終了条件」: an invalid reply or running out of time ends the match at once.
    if faults.iter().any(Option::is_some) {
        state.outcome = Some(fault_outcome(state, faults));
        return Ok(report);
    }

    let mut lost_early = [false; 2];
    for (p, command) in commands.into_iter().enumerate() {
        // Both are Some: no fault above.
        if let Some(command) = command {
            lost_early[p] = play_own_field_with(&mut state.players[p], pack, command, wrong);
        }
    }
    exchange(state, wrong);
    state.turn += 1;
    state.outcome = end_of_turn(state, wrong, lost_early);
    Ok(report)
}

/// Charges the thinking time and reads the reply: the command to play and how the reply was
/// taken, or the verdict of a reply that cannot be played.
fn take_reply(
    player: &mut Player,
    reply: &Reply,
    wrong: Wrongs,
) -> Result<(ReplyVerdict, Command), ReplyVerdict> {
    let (text, elapsed_ms) = reply.played().inspect_err(|_| player.time_left_ms = 0)?;
    // 「思考時間の制限について」: 3 minutes for the whole match; using exactly all of it is allowed.
    let too_late = if wrong.has(Wrong::TimeUpAtTheLimit) {
        elapsed_ms >= player.time_left_ms
    } else {
        elapsed_ms > player.time_left_ms
    };
    if too_late {
        player.time_left_ms = 0;
        return Err(ReplyVerdict::TimedOut);
    }
    player.time_left_ms -= elapsed_ms;

    let command =
        Command::parse_lenient(text).map_err(|e| ReplyVerdict::Rejected(e.to_string()))?;
    if command == Command::Skill && player.skill_gauge < SKILL_THRESHOLD {
        return Err(ReplyVerdict::Rejected(format!(
            "skill used with a gauge of {} (needs {SKILL_THRESHOLD})",
            player.skill_gauge
        )));
    }
    let verdict = match Command::parse(text) {
        Ok(_) => ReplyVerdict::Accepted,
        Err(strict) if wrong.has(Wrong::StrictRepliesOnly) => {
            return Err(ReplyVerdict::Rejected(strict.to_string()))
        }
        Err(strict) => ReplyVerdict::NonStrict(strict.to_string()),
    };
    Ok((verdict, command))
}

/// 「勝敗について」: who wins when at least one reply could not be played.
fn fault_outcome(state: &State, faults: [Option<Fault>; 2]) -> Outcome {
    match faults {
        [Some(Fault::Invalid), Some(Fault::Invalid)] => Outcome::draw(INVALID_REPLY),
        [Some(Fault::TimeOver), Some(Fault::TimeOver)] => by_score(state, TIME_OVER),
        // rules.yaml `end.invalid-and-time-over` (D-reborn-12): both lost in the same turn, so
        // the score decides.
        [Some(_), Some(_)] => by_score(state, INVALID_REPLY),
        [Some(fault), None] | [None, Some(fault)] => {
            let winner = usize::from(faults[0].is_some());
            let reason = if fault == Fault::Invalid {
                INVALID_REPLY
            } else {
                TIME_OVER
            };
            Outcome::won_by(winner, reason)
        }
        [None, None] => unreachable!("fault_outcome is called only when a reply faulted"),
    }
}

fn by_score(state: &State, reason: &str) -> Outcome {
    let [a, b] = [state.players[0].score, state.players[1].score];
    let winner = match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    Outcome::new(winner, reason)
}

/// One player's turn on their own field: steps 1–5 of the document's list
/// 「お邪魔ブロックの投下」 (D-reborn-2), the smallest public step of CODE VS Reborn, for timing an
/// engine against this one in one process.
///
/// In order: a row of ojama falls if `player.ojama_stock` is 10 or more (and the stock loses
/// 10); then `command` is played: the `pack` (as given for the turn, before rotation) dropped
/// with its rotation and position and the field settled (vanish and fall until stable), or the
/// skill (the gauge set to 0, every 5 exploded, the field settled); then the gauge gains 8 if
/// anything vanished by a sum of 10. `player`'s `chains`, `skill_used`, `exploded_blocks`,
/// `turn_score`, `score` and `ojama_sent` are those of this turn.
///
/// What needs both players is left to the whole step ([`step_with`]): the thinking time and the
/// reply's validity (a skill below a gauge of 80 is not refused here), the opponent's chains
/// lowering the gauge, the ojama sent added to the opponent's stock and offset, the turn
/// number, the danger line and the outcome. A field that overflows its capacity (which a
/// reachable state never does) keeps the blocks that fit.
///
/// ```
/// use shinpan_codevs_reborn::engine::play_own_field;
/// use shinpan_codevs_reborn::protocol::Command;
/// use shinpan_codevs_reborn::state::{Pack, Player};
///
/// let mut player = Player::default();
/// // A 1 beside a 9 on the floor: the pair vanishes at once, a one-chain.
/// play_own_field(&mut player, Pack([[0, 0], [1, 9]]), Command::Drop { position: 0, rotation: 0 });
/// assert_eq!((player.chains, player.score, player.skill_gauge), (1, 1, 8));
/// assert_eq!(player.field.max_height(), 0);
/// ```
pub fn play_own_field(player: &mut Player, pack: Pack, command: Command) {
    play_own_field_with(player, pack, command, Wrongs::NONE);
}

/// [`play_own_field`] with some rules played wrong; [`Wrongs::NONE`] plays the rules. Returns whether the
/// field reached the danger line before anything vanished (only ever true under
/// [`Wrong::DangerLineBeforeChains`], which loses there).
fn play_own_field_with(player: &mut Player, pack: Pack, command: Command, wrong: Wrongs) -> bool {
    let row_at = if wrong.has(Wrong::OjamaRowAt11) {
        OJAMA_ROW + 1
    } else {
        OJAMA_ROW
    };
    if player.ojama_stock >= row_at {
        player.field.drop_ojama_row();
        player.ojama_stock -= OJAMA_ROW;
    }
    let settle = |field: &mut super::field::Field| {
        if wrong.has(Wrong::NoDiagonalVanish) {
            field.settle_without_diagonals()
        } else {
            field.settle()
        }
    };
    let chain_score = if wrong.has(Wrong::ChainScoreRounded) {
        chain_score_rounded
    } else {
        chain_score
    };
    let mut lost_early = false;
    let (chains, turn_score, ojama_sent, exploded) = match command {
        Command::Drop { position, rotation } => {
            let rotation = if wrong.has(Wrong::RotationAnticlockwise) {
                (4 - rotation % 4) % 4
            } else {
                rotation
            };
            drop_pack(player, pack.rotated(rotation), usize::from(position));
            lost_early = wrong.has(Wrong::DangerLineBeforeChains)
                && player.field.max_height() >= DANGER_HEIGHT;
            let chains = settle(&mut player.field);
            let score = chain_score(chains);
            (chains, score, ojama_for(score), 0)
        }
        Command::Skill => {
            player.skill_gauge = 0;
            let exploded = player.field.explode();
            let skill_chains = settle(&mut player.field);
            let explosion = if wrong.has(Wrong::ExplosionScoreRounded) {
                explosion_score_rounded(exploded)
            } else {
                explosion_score(exploded)
            };
            let chain = chain_score(skill_chains);
            (
                skill_chains,
                explosion + chain,
                ojama_for(explosion) + ojama_for(chain),
                exploded,
            )
        }
    };
    if chains > 0 {
        let gain = if wrong.has(Wrong::GaugeGainPerChain) {
            GAUGE_GAIN.saturating_mul(chains)
        } else {
            GAUGE_GAIN
        };
        player.skill_gauge = player.skill_gauge.saturating_add(gain).min(GAUGE_MAX);
    }
    player.chains = chains;
    player.skill_used = command == Command::Skill;
    player.exploded_blocks = exploded;
    player.turn_score = turn_score;
    player.score = player.score.saturating_add(turn_score);
    player.ojama_sent = u32::try_from(ojama_sent).unwrap_or(u32::MAX);
    lost_early
}

/// 「パックの投下」: the pack's left column onto field column `position`, its right column onto
/// the next; in each column the bottom block lands first and every block falls on its own.
fn drop_pack(player: &mut Player, pack: Pack, position: usize) {
    let [top, bottom] = pack.0;
    for dx in 0..2 {
        let x = (position + dx).min(WIDTH - 1);
        for value in [bottom[dx], top[dx]] {
            if value != 0 {
                player.field.push(x, value);
            }
        }
    }
}

/// Steps 6–8: the gauge loss for the opponent's chain, ojama into the other's stock, offset.
fn exchange(state: &mut State, wrong: Wrongs) {
    let chains = [state.players[0].chains, state.players[1].chains];
    let sent = [state.players[0].ojama_sent, state.players[1].ojama_sent];
    for p in 0..2 {
        let player = &mut state.players[p];
        player.skill_gauge = player
            .skill_gauge
            .saturating_sub(gauge_decrease(chains[1 - p]));
        player.ojama_stock = player.ojama_stock.saturating_add(sent[1 - p]);
    }
    if wrong.has(Wrong::NoOffset) {
        return;
    }
    // 「お邪魔ブロックの相殺」
    let offset = state.players[0]
        .ojama_stock
        .min(state.players[1].ojama_stock);
    for player in &mut state.players {
        player.ojama_stock -= offset;
    }
}

/// 「ゲームの終了条件」 checked at the end of a turn: the danger line, then the turn limit.
/// `lost_early`: a player whose field reached the danger line before anything vanished, under
/// [`Wrong::DangerLineBeforeChains`].
fn end_of_turn(state: &State, wrong: Wrongs, lost_early: [bool; 2]) -> Option<Outcome> {
    let danger = if wrong.has(Wrong::DangerLineAt16) {
        DANGER_HEIGHT - 1
    } else {
        DANGER_HEIGHT
    };
    let lost = [0, 1].map(|p| lost_early[p] || state.players[p].field.max_height() >= danger);
    match lost {
        [true, true] => Some(by_score(state, DANGER_LINE)),
        [true, false] => Some(Outcome::won_by(1, DANGER_LINE)),
        [false, true] => Some(Outcome::won_by(0, DANGER_LINE)),
        [false, false] if state.turn >= TURNS => Some(by_score(state, TURN_LIMIT)),
        [false, false] => None,
    }
}

//! One turn of Spring Challenge 2022 (D-spring-2): read both replies (a CONTROLled hero's line
//! replaced), CONTROL, SHIELD, heroes move, combat, WIND, mobs move, shields tick, spawn, mana
//! credited; then the end checks (D-spring-11) and the start of the next turn: mobs marked
//! this turn removed, CONTROLs cast on mobs made active, statuses worked out for the prompts.
//! The turn from orders already read is public, [`play_turn`]: what a bot author calls to play
//! a turn without printing it, and what the step plays once it has read both replies.

use super::geometry::Vector;
use super::message::sanitize;
use super::protocol::{Command, Order, Refusal, Reply as HeroOrders};
use super::reading::{read_reply, HeroLine, Taken};
use super::rules::{
    base_of, base_wall_intersection, control_target, controlled_speed, drift_speed, inside_map,
    inside_visible_map, owner_of_hero, snap_to_map, speed_toward_base, step_to, BASES,
    BASE_ATTRACTION_RADIUS, BASE_RADIUS, CENTRE, HEROES, HEROES_PER_PLAYER, HERO_ATTACK_RANGE,
    HERO_DAMAGE, HERO_SPEED, MOB_SPEED, PLAYERS, SHIELD_DURATION, TURNS,
};
use super::spawn::{wave, wave_due};
use super::spells::{control, shield, shield_lasting, winds, Wind};
use super::state::{Deactivation, State};
use super::variants::{Wrong, Wrongs};
use super::vision::remember_statuses;
use shinpan_core::seam::{Outcome, Reply, StepReport, StepResult};

/// What a hero does this turn.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Intent {
    Idle,
    /// Already stepped and truncated toward the centre.
    Move(Vector),
    Wind([i32; 2]),
    Shield(i32),
    Control(i32, [i32; 2]),
}

/// A step, with some rules played wrong ([`Wrongs`]) to name a departure; [`Wrongs::NONE`]
/// plays the rules.
pub fn step_with(state: &mut State, replies: &[Reply], wrong: Wrongs) -> StepResult {
    let (turn, league) = (state.turn, state.league);
    let read: [_; PLAYERS] = std::array::from_fn(|p| read_reply(turn, &replies[p], league));
    let lines = read.each_ref().map(|r| r.as_ref().ok().map(|r| &r.heroes));
    let taken = play_lines(state, lines, wrong);
    let verdicts = read
        .into_iter()
        .zip(taken)
        .map(|(read, taken)| match read {
            Ok(read) => read.verdict(taken),
            Err(verdict) => verdict,
        })
        .collect();
    Ok(StepReport { replies: verdicts })
}

/// One turn from both players' hero orders already read (three each, in hero order): each
/// player's orders taken (D-spring-9: a hero under CONTROL moves as it is controlled, whatever
/// its order; a command the league does not have deactivates the player, the heroes before it
/// keeping theirs; fewer than three orders deactivate the player as timed out), then the
/// update (CONTROL, SHIELD, heroes move, combat, WIND, mobs move, shields tick, spawn, mana),
/// the end checks (D-spring-11) and the start of the next turn, as the step plays them. What a
/// bot author calls to play a turn without printing it; what the step plays once it has read
/// both replies. A hero's message is its order's `message`, sanitized as the referee does.
///
/// It does not check thinking time, read text (orders after the third are not read), or guard
/// the state: call it on a state `Game::validate` accepts whose match is not over.
/// `examples/one_turn.rs` plays a turn with it.
pub fn play_turn(state: &mut State, replies: [&HeroOrders; 2]) {
    let league = state.league;
    let lines = replies.map(|reply| {
        let orders: &[Order; HEROES_PER_PLAYER] =
            reply.orders.get(..HEROES_PER_PLAYER)?.try_into().ok()?;
        Some(orders.each_ref().map(|order| {
            if order.command.open_in(league) {
                Ok((order.command, order.message.as_deref()))
            } else {
                Err(Refusal::NoMatch)
            }
        }))
    });
    play_lines(state, lines.each_ref().map(Option::as_ref), Wrongs::NONE);
}

/// [`play_turn`] with some rules played wrong ([`Wrongs`]), on each player's three lines as
/// the referee read them (`None`: the reply was late or missing, or had fewer than three
/// lines). Returns how each hero's line was taken.
fn play_lines(
    state: &mut State,
    lines: [Option<&[HeroLine; HEROES_PER_PLAYER]>; PLAYERS],
    wrong: Wrongs,
) -> [[Taken; HEROES_PER_PLAYER]; PLAYERS] {
    // The prompts of this turn were sent: what they showed of each mob is now kept (already
    // so on a state the last step left).
    if !state.statuses.known() {
        remember_statuses(state);
    }
    state.statuses.forget();
    for hero in &mut state.heroes {
        hero.message = None;
    }
    let mut intents = [Intent::Idle; HEROES];
    let mut taken = [[Taken::NotReached; HEROES_PER_PLAYER]; PLAYERS];
    for (p, lines) in lines.iter().enumerate() {
        match lines {
            Some(lines) => taken[p] = take_lines(state, p, lines, &mut intents),
            None => state.players[p].deactivated = Some(Deactivation::TimedOut),
        }
    }
    update(state, &intents, wrong);
    for player in &mut state.players {
        if player.base_health == 0 && player.deactivated.is_none() {
            player.deactivated = Some(Deactivation::BaseDestroyed);
        }
    }
    let active = state
        .players
        .iter()
        .filter(|p| p.deactivated.is_none())
        .count();
    if active < PLAYERS || state.turn >= TURNS {
        state.outcome = Some(outcome(state));
    }
    next_turn(state);
    taken
}

/// Player `p`'s heroes' intents from its lines (D-spring-9), in hero order: a hero under
/// CONTROL moves as it is controlled; a refused line deactivates the player and ends the
/// reading.
fn take_lines(
    state: &mut State,
    p: usize,
    lines: &[HeroLine; HEROES_PER_PLAYER],
    intents: &mut [Intent],
) -> [Taken; HEROES_PER_PLAYER] {
    let mut taken = [Taken::NotReached; HEROES_PER_PLAYER];
    for (k, line) in lines.iter().enumerate() {
        let h = p * HEROES_PER_PLAYER + k;
        let hero_pos = state.heroes[h].pos();
        if let Some(target) = control_target(hero_pos, &state.heroes[h].controls, HERO_SPEED) {
            intents[h] = Intent::Move(target.symmetric_truncate(CENTRE));
            state.heroes[h].controls.clear();
            taken[k] = Taken::UnderControl;
            continue;
        }
        let &Ok((command, message)) = line else {
            state.players[p].deactivated = Some(Deactivation::InvalidReply);
            taken[k] = Taken::Refused;
            return taken;
        };
        intents[h] = match command {
            Command::Wait => Intent::Idle,
            Command::Move { x, y } => {
                let to = Vector::from_ints(x, y);
                if to == hero_pos {
                    Intent::Idle
                } else {
                    Intent::Move(step_to(hero_pos, to, HERO_SPEED).symmetric_truncate(CENTRE))
                }
            }
            Command::Wind { x, y } => Intent::Wind([x, y]),
            Command::Shield { id } => Intent::Shield(id),
            Command::Control { id, x, y } => Intent::Control(id, [x, y]),
        };
        if let Some(message) = message {
            state.heroes[h].message = Some(sanitize(message));
        }
        taken[k] = Taken::Played;
    }
    taken
}

/// D-spring-2: the turn's update, in the referee's order.
///
/// Long (about 90 lines) because the order of the phases is the rule: one sequence, each phase a
/// call or a few lines, reads against the referee's order where a split would scatter it.
fn update(state: &mut State, intents: &[Intent; HEROES], wrong: Wrongs) {
    let controlling = intents.iter().any(|i| matches!(i, Intent::Control(..)));
    let mut next_controls: Vec<Vec<[i32; 2]>> = if controlling {
        vec![Vec::new(); state.mobs.len()]
    } else {
        Vec::new()
    };
    for (h, intent) in intents.iter().enumerate() {
        if let Intent::Control(id, to) = *intent {
            control(state, &mut next_controls, h, id, to);
        }
    }
    for (h, intent) in intents.iter().enumerate() {
        if let Intent::Shield(id) = *intent {
            if wrong.has(Wrong::ShieldOneTurnShort) {
                shield_lasting(state, h, id, SHIELD_DURATION);
            } else {
                shield(state, h, id);
            }
        }
    }
    for (h, intent) in intents.iter().enumerate() {
        if let Intent::Move(to) = *intent {
            let to = snap_to_map(to);
            state.heroes[h].set_pos(to);
        }
    }
    let mut removed = vec![false; state.mobs.len()];
    let home = if wrong.has(Wrong::WildManaFrom4999) {
        BASE_ATTRACTION_RADIUS - 1
    } else {
        BASE_ATTRACTION_RADIUS
    };
    let (gain, wild) = combat(state, &mut removed, home);
    let casts: Vec<Wind> = intents
        .iter()
        .enumerate()
        .filter_map(|(h, i)| match *i {
            Intent::Wind(toward) => Some(Wind { caster: h, toward }),
            _ => None,
        })
        .collect();
    let mut pushed = vec![false; state.mobs.len()];
    winds(state, &casts, &mut pushed);
    move_mobs(state, &pushed, &mut removed);
    for hero in &mut state.heroes {
        hero.shield = (hero.shield - 1).max(0);
    }
    for mob in &mut state.mobs {
        mob.shield = (mob.shield - 1).max(0);
    }
    if wave_due(&state.spawner, state.turn) {
        let mut rng = state.random();
        let spawns = wave(&mut state.spawner, &mut rng, state.turn);
        state.rng = rng.seed;
        let mut id = state.next_mob_id();
        for spawn in spawns {
            state.mobs.push(spawn.into_mob(id));
            id += 1;
        }
        state.next_id = Some(id);
    }
    for p in 0..PLAYERS {
        state.players[p].mana += gain[p];
        state.players[p].wild_mana += wild[p];
    }
    // Marked mobs go at the start of the next turn, and the CONTROLs cast on mobs this turn
    // become theirs (mobs spawned just now have neither).
    if next_controls.is_empty() && !removed.contains(&true) {
        for mob in &mut state.mobs {
            mob.controls.clear();
        }
        return;
    }
    let mut i = 0;
    state.mobs.retain_mut(|mob| {
        let kept = !removed.get(i).copied().unwrap_or(false);
        if kept {
            match next_controls.get_mut(i) {
                Some(controls) => mob.controls = std::mem::take(controls),
                None => mob.controls.clear(),
            }
        }
        i += 1;
        kept
    });
}

/// D-spring-4: every hero hits every mob within 800 inside the map; 2 mana per hit, counted as
/// wild mana too when the hero is more than `home` (5000, [`BASE_ATTRACTION_RADIUS`]) from its
/// own base. Mobs at 0 or less are marked for removal. Returns the mana and wild mana each
/// player earned.
fn combat(state: &mut State, removed: &mut [bool], home: i32) -> ([i32; PLAYERS], [i32; PLAYERS]) {
    let mut gain = [0; PLAYERS];
    let mut wild = [0; PLAYERS];
    // Every hit is the same 2 damage, so the hits may be counted mob by mob.
    let heroes: [(usize, Vector, bool); HEROES] = std::array::from_fn(|h| {
        let owner = owner_of_hero(h);
        let at = state.heroes[h].pos();
        let away = !at.in_range(base_of(owner), f64::from(home));
        (owner, at, away)
    });
    for (i, mob) in state.mobs.iter_mut().enumerate() {
        let p = mob.pos();
        if !inside_visible_map(p) {
            continue;
        }
        // Worked out for all six heroes first: no branch to mispredict in the common case.
        let reach = heroes.map(|(_, at, _)| p.in_range(at, f64::from(HERO_ATTACK_RANGE)));
        if reach == [false; HEROES] {
            continue;
        }
        let mut hit = false;
        for (&(owner, _, away), _) in heroes.iter().zip(reach).filter(|&(_, r)| r) {
            hit = true;
            mob.health -= HERO_DAMAGE;
            gain[owner] += HERO_DAMAGE;
            if away {
                wild[owner] += HERO_DAMAGE;
            }
        }
        if hit && mob.health <= 0 {
            removed[i] = true;
        }
    }
    (gain, wild)
}

/// D-spring-8: each mob in order: removed if beyond 800 outside the map; else moved (unless
/// dead or pushed this turn), by its CONTROLs or its speed; then, base by base, it damages a
/// base within 300 and is removed, or turns toward a base it detects, or drifts away outside.
fn move_mobs(state: &mut State, pushed: &[bool], removed: &mut [bool]) {
    for i in 0..state.mobs.len() {
        let mob = &mut state.mobs[i];
        if !inside_map(mob.pos()) {
            removed[i] = true;
            continue;
        }
        if mob.health > 0 && !pushed[i] {
            let from = mob.pos();
            match control_target(from, &mob.controls, MOB_SPEED) {
                Some(target) => {
                    let wall = base_wall_intersection(from, target);
                    let landing = snap_to_map(wall.unwrap_or(target));
                    mob.set_pos(landing.symmetric_truncate(CENTRE));
                    if let Some(speed) = controlled_speed(from, target) {
                        mob.set_speed(speed);
                    }
                }
                None => mob.set_pos(from.plus(mob.speed()).symmetric_truncate(CENTRE)),
            }
        }
        for (b, &base) in BASES.iter().enumerate() {
            let mob = &mut state.mobs[i];
            let at = mob.pos();
            if at.in_range(base, f64::from(BASE_RADIUS)) && mob.health > 0 {
                removed[i] = true;
                let health = &mut state.players[b].base_health;
                *health = (*health - 1).max(0);
                continue;
            }
            if at.in_range(base, f64::from(BASE_ATTRACTION_RADIUS)) {
                if inside_visible_map(at) {
                    mob.set_speed(speed_toward_base(at, base));
                } else {
                    mob.set_speed(drift_speed(at));
                }
            }
        }
    }
}

/// The start of the next turn: a mob's new CONTROLs set its speed toward their average; the
/// prompts' statuses are worked out.
fn next_turn(state: &mut State) {
    state.turn += 1;
    for mob in &mut state.mobs {
        if let Some(target) = control_target(mob.pos(), &mob.controls, MOB_SPEED) {
            if let Some(speed) = controlled_speed(mob.pos(), target) {
                mob.set_speed(speed);
            }
        }
    }
    if state.outcome.is_none() {
        remember_statuses(state);
        state.statuses.mark();
    }
}

/// D-spring-11 (the referee's end of game): a player still playing beats one that is not;
/// else more base health wins; else, with the tie-break, more wild mana; else a draw.
pub fn outcome(state: &State) -> Outcome {
    let [a, b] = &state.players;
    match (a.deactivated, b.deactivated) {
        (None, Some(why)) => return Outcome::won_by(0, why.name()),
        (Some(why), None) => return Outcome::won_by(1, why.name()),
        _ => {}
    }
    if a.base_health != b.base_health {
        return Outcome::won_by(usize::from(b.base_health > a.base_health), "base-health");
    }
    if state.league.tie_break() && a.wild_mana != b.wild_mana {
        return Outcome::won_by(usize::from(b.wild_mana > a.wild_mana), "wild-mana");
    }
    Outcome::draw("draw")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shinpan_core::seam::{Game, ReplyVerdict};

    /// Issue 22: a NON-STRICT detail read "line 3: line 1, column 12" (the line, parsed alone,
    /// was its own line 1). It names the reply's line and the column in it.
    #[test]
    fn a_loose_line_is_named_by_its_line_in_the_reply() {
        let mut state = super::super::Spring2022.new_match(1, &Default::default());
        let replies = [
            Reply::text("WAIT\nWAIT\nMOVE 100  100"),
            Reply::text("WAIT\nWAIT\nWAIT"),
        ];
        let report = step_with(&mut state, &replies, Wrongs::NONE).unwrap();
        let ReplyVerdict::NonStrict(why) = &report.replies[0] else {
            panic!("{:?}", report.replies[0]);
        };
        assert!(why.starts_with("line 3, column "), "{why}");
        assert!(!why.contains("line 1"), "{why}");
    }
}

//! Three engines that misread the Spring Challenge 2022 rule document (seed 003), two or three
//! misreadings each, as `tests/fixtures/misreading-engines/spring2022/DEPARTURES.md` lists them;
//! and the frame without any, to show that the frame itself departs from nothing.

use shinpan::games::spring2022::rules::{
    League, CENTRE, HEROES_PER_PLAYER, SHIELD_DURATION, SPAWN_RATE, SPELL_COST, SUDDEN_DEATH_TURN,
    THREAT_ENEMY, THREAT_YOU, TURNS, TYPE_MOB,
};
use shinpan::games::spring2022::spawn::wave_due;
use shinpan::games::spring2022::state::State;
use shinpan::games::spring2022::vision::prompt_of;
use shinpan::run::EngineError;
use shinpan::seam::{Outcome, Reply};

use super::turn::{Misread, Pass, Turn};

/// The reference, through the frame: no misreading.
#[derive(Debug, Clone, Copy)]
pub struct Faithful;

impl Misread for Faithful {
    fn name(&self) -> &'static str {
        "faithful"
    }

    fn turn(&self, pass: &Pass<'_>, state: &State, replies: &[Reply]) -> Result<Turn, EngineError> {
        pass.play(state, replies)
    }
}

/// Rules left out: the fog, the tie-break, the sudden death.
#[derive(Debug, Clone, Copy)]
pub struct LeftOut {
    /// One misreading alone (`Some(2)`: M2), or all of them.
    pub only: Option<u8>,
}

impl LeftOut {
    /// Every misreading played.
    pub const ALL: LeftOut = LeftOut { only: None };
}

/// How far back the sudden-death misreading moves the clock for a wave: far enough that the
/// wave is an ordinary one, not so far that the turn reaches the first.
const BEFORE_SUDDEN_DEATH: u32 = 100;

impl Misread for LeftOut {
    fn name(&self) -> &'static str {
        "left_out"
    }

    fn turn(&self, pass: &Pass<'_>, state: &State, replies: &[Reply]) -> Result<Turn, EngineError> {
        let mut before = state.clone();
        // MISREADING M3: no sudden death: a wave from turn 200 on is drawn as an ordinary one.
        let shifted = on(self.only, 3)
            && state.turn >= SUDDEN_DEATH_TURN
            && state.turn < TURNS
            && wave_due(&state.spawner, state.turn);
        if shifted {
            before.turn -= BEFORE_SUDDEN_DEATH;
            before.spawner.last_turn =
                (before.spawner.last_turn - BEFORE_SUDDEN_DEATH as i32).max(-SPAWN_RATE);
        }
        let mut turn = pass.play(&before, replies)?;
        if shifted {
            turn.state.turn += BEFORE_SUDDEN_DEATH;
            turn.state.spawner.last_turn += BEFORE_SUDDEN_DEATH as i32;
        }
        if !on(self.only, 2) {
            return Ok(turn);
        }
        // MISREADING M2: no tie-break: wild mana is never counted, equal base health is a draw.
        for (after, before) in turn.state.players.iter_mut().zip(&state.players) {
            after.wild_mana = before.wild_mana;
        }
        if turn
            .state
            .outcome
            .as_ref()
            .is_some_and(|o| o.reason == "wild-mana")
        {
            turn.state.outcome = Some(Outcome::draw("draw"));
        }
        Ok(turn)
    }

    fn prompt(&self, state: &State, player: usize) -> String {
        if !on(self.only, 1) {
            return prompt_of(state, player).print();
        }
        // MISREADING M1: no fog: every entity inside the map is in both prompts, as in wood2.
        let mut seen_whole = state.clone();
        seen_whole.league = League::Wood2;
        prompt_of(&seen_whole, player).print()
    }
}

/// Rules applied at the wrong moment of the turn: mana, spawning, shields.
#[derive(Debug, Clone, Copy)]
pub struct WrongMoment {
    /// One misreading alone (`Some(2)`: M2), or all of them.
    pub only: Option<u8>,
}

impl WrongMoment {
    /// Every misreading played.
    pub const ALL: WrongMoment = WrongMoment { only: None };
}

impl Misread for WrongMoment {
    fn name(&self) -> &'static str {
        "wrong_moment"
    }

    fn turn(&self, pass: &Pass<'_>, state: &State, replies: &[Reply]) -> Result<Turn, EngineError> {
        // MISREADING M1: mana credited as the hits earn it, so it pays for this turn's spells.
        let earned = if on(self.only, 1) {
            mana_earned(pass, state, replies)?
        } else {
            [0, 0]
        };
        let mut funded = state.clone();
        for (player, earned) in funded.players.iter_mut().zip(earned) {
            player.mana += earned;
        }
        // MISREADING M3: a SHIELD protects at once, from the CONTROLs and WINDs of its own turn.
        let first = pass.play(&funded, replies)?;
        let shielded = if on(self.only, 3) {
            newly_shielded(&funded, &first.state)
        } else {
            Vec::new()
        };
        let mut turn = if shielded.is_empty() {
            first
        } else {
            let mut early = funded;
            set_shields(&mut early, &shielded, 1);
            let mut turn = pass.play(&early, replies)?;
            set_shields(&mut turn.state, &shielded, SHIELD_DURATION);
            turn
        };
        for (player, earned) in turn.state.players.iter_mut().zip(earned) {
            player.mana -= earned;
        }
        // MISREADING M2: the wave spawns before the mobs move, and moves with them at once.
        let first_new = state.next_mob_id();
        let at_once = on(self.only, 2);
        for mob in (turn.state.mobs.iter_mut()).filter(|m| at_once && m.id >= first_new) {
            mob.set_pos(mob.pos().plus(mob.speed()).symmetric_truncate(CENTRE));
        }
        Ok(turn)
    }
}

/// Fields not updated, and the second player's prompt in the first one's frame.
#[derive(Debug, Clone, Copy)]
pub struct StaleFields {
    /// One misreading alone (`Some(2)`: M2), or all of them.
    pub only: Option<u8>,
}

impl StaleFields {
    /// Every misreading played.
    pub const ALL: StaleFields = StaleFields { only: None };
}

impl Misread for StaleFields {
    fn name(&self) -> &'static str {
        "stale_fields"
    }

    fn turn(&self, pass: &Pass<'_>, state: &State, replies: &[Reply]) -> Result<Turn, EngineError> {
        // MISREADING M3: spells are never paid for: with the cost in hand every spell is cast, and
        // mana only grows by what the hits earn.
        let paid = !on(self.only, 3);
        let earned = mana_earned(pass, state, replies)?;
        let mut flush = state.clone();
        for player in flush.players.iter_mut().filter(|_| !paid) {
            if player.mana >= SPELL_COST {
                player.mana += SPELL_COST * HEROES_PER_PLAYER as i32;
            }
        }
        let mut turn = pass.play(&flush, replies)?;
        for ((after, before), earned) in turn
            .state
            .players
            .iter_mut()
            .zip(&state.players)
            .zip(earned)
            .filter(|_| !paid)
        {
            after.mana = before.mana + earned;
        }
        // MISREADING M2: a CONTROL on a hero never expires: the hero keeps moving toward it until
        // another CONTROL replaces it.
        for (after, before) in turn.state.heroes.iter_mut().zip(&state.heroes) {
            if !on(self.only, 2) {
                break;
            }
            if after.controls.is_empty() && !before.controls.is_empty() {
                after.controls = before.controls.clone();
            }
        }
        Ok(turn)
    }

    fn prompt(&self, state: &State, player: usize) -> String {
        // MISREADING M1: threatFor names the base by player number (1 the first player's, 2 the
        // second's), so the second player reads its own base as the opponent's.
        let mut prompt = prompt_of(state, player);
        if player == 1 && on(self.only, 1) {
            for line in prompt.entities.iter_mut().filter(|e| e.kind == TYPE_MOB) {
                line.threat_for = match line.threat_for {
                    THREAT_YOU => THREAT_ENEMY,
                    THREAT_ENEMY => THREAT_YOU,
                    none => none,
                };
            }
        }
        prompt.print()
    }
}

/// Whether misreading `m` (1 for M1) is played by an engine that plays `only` one, or all.
fn on(only: Option<u8>, m: u8) -> bool {
    only.is_none_or(|only| only == m)
}

/// The mana each player's heroes earn by their hits this turn: the turn played with no mana,
/// where every spell fails and nothing the hits depend on changes (spells of a turn move nothing
/// before the combat).
fn mana_earned(pass: &Pass<'_>, state: &State, replies: &[Reply]) -> Result<[i32; 2], EngineError> {
    let mut penniless = state.clone();
    for player in &mut penniless.players {
        player.mana = 0;
    }
    let turn = pass.play(&penniless, replies)?;
    Ok(turn.state.players.each_ref().map(|p| p.mana))
}

/// An entity by hero index or mob id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entity {
    Hero(usize),
    Mob(i32),
}

/// The entities a SHIELD of this turn took hold on: unshielded before it, 12 after it.
fn newly_shielded(before: &State, after: &State) -> Vec<Entity> {
    let heroes = (0..before.heroes.len())
        .filter(|&h| before.heroes[h].shield == 0 && after.heroes[h].shield == SHIELD_DURATION)
        .map(Entity::Hero);
    let mobs = before
        .mobs
        .iter()
        .filter(|m| m.shield == 0)
        .filter(|m| {
            after
                .mobs
                .iter()
                .any(|a| a.id == m.id && a.shield == SHIELD_DURATION)
        })
        .map(|m| Entity::Mob(m.id));
    heroes.chain(mobs).collect()
}

fn set_shields(state: &mut State, entities: &[Entity], shield: i32) {
    for entity in entities {
        match *entity {
            Entity::Hero(h) => state.heroes[h].shield = shield,
            Entity::Mob(id) => {
                for mob in state.mobs.iter_mut().filter(|m| m.id == id) {
                    mob.shield = shield;
                }
            }
        }
    }
}

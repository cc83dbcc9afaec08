//! Three CODE VS 4.0 engines that misread the rule document (seed 000), for issue 38: does
//! shinpan name the clause an engine really departs from? Each engine carries two or three
//! misreadings of the kinds contestants' simulators have (a rule left out, a rule applied at the
//! wrong moment of the turn, a counter never reset, the second player seen in another frame),
//! designed from the document alone, without reading shinpan's naming code. What each breaks,
//! the fields it makes wrong and the clauses that are its right cause are written by hand in
//! `tests/fixtures/misreading-engines/codevs4/DEPARTURES.md`.
//!
//! Each engine is the reference engine played **turn by turn**: a step request of several turns
//! is played one turn at a time (the reference's typed step, `seam::checked_step`, on the state the
//! reference made canonical), and around each turn the state or the replies are changed into what
//! the misreading engine would have kept or read, and its prompts printed as it would print them. Parse and new-match requests go to the reference: no misreading is about
//! them. An engine remembers nothing from one request to the next (an adapter gets the whole
//! state with every request), so what a misreading "never resets" lives for one request.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;
use shinpan::games::codevs4::rules::Kind;
use shinpan::games::codevs4::state::State;
use shinpan::games::codevs4::Codevs4;
use shinpan::run::{
    Answered, EngineError, EngineUnderTest, NewMatchRequest, ParseRequest, Reference, StepRequest,
    StepResponse,
};
use shinpan::seam::{checked_step, ParseVerdict, Reply};

use super::{judged, Misreading, Spec, GROUPS_BAR};

/// D-codevs4-11: the hour of thinking time, the most a clock can show.
const THINKING_TIME_MS: u64 = 3_600_000;
/// 表4: what player 1 (the enemy AI) earns a turn above the 10 of everyone, by stage.
fn extra_income(stage: u32) -> u32 {
    match stage {
        27..=33 => 10,
        34.. => 20,
        _ => 0,
    }
}
/// 4.5: one resource cell yields at most 5 to one player in one turn.
const GATHER_CAP: u32 = 5;
/// 2.1: the field is 100 × 100; the mirror of coordinate c is 99 − c.
const LAST_CELL: i32 = 99;

/// 表2: vision, 10 for the castle and the village, 4 for the rest.
fn vision(kind: Kind) -> i32 {
    match kind {
        Kind::Castle | Kind::Village => 10,
        _ => 4,
    }
}

/// 4.5: per resource cell, the number of `player`'s workers on it in `state`.
fn workers_on_cells(state: &State, player: usize) -> Vec<u32> {
    state
        .resource_cells
        .iter()
        .map(|&cell| {
            state
                .units
                .iter()
                .filter(|u| u.owner == player && u.kind == Kind::Worker && u.cell == cell)
                .count() as u32
        })
        .collect()
}

/// 4.5: what `player` gathers in a resources phase with the units of `state` on the field.
fn gathered(state: &State, player: usize) -> u32 {
    workers_on_cells(state, player)
        .into_iter()
        .map(|n| n.min(GATHER_CAP))
        .sum()
}

// ------------------------------------------------------------------ prompts, as 5.1 prints them

/// What a player's prompt shows of the enemy and the resource cells.
#[derive(Clone, Copy)]
enum Sight<'a> {
    /// Everything on the field.
    Everything,
    /// What lies within the vision of the player's units of this state.
    UnitsOf(&'a State),
}

/// 5.1: `player`'s prompt of `state`, enemies and resource cells as `sight` sees them; with
/// `mirrored`, every coordinate as the opposite corner sees it (99 − x, 99 − y). Units by
/// ascending id, resource cells by (y, x), as the reference prints them.
fn prompt(state: &State, player: usize, sight: Sight<'_>, mirrored: bool) -> String {
    let sees = |x: i32, y: i32| match sight {
        Sight::Everything => true,
        Sight::UnitsOf(seen_from) => seen_from.units.iter().any(|u| {
            u.owner == player && (u.cell.x - x).abs() + (u.cell.y - y).abs() <= vision(u.kind)
        }),
    };
    let frame = |x: i32, y: i32| {
        if mirrored {
            (LAST_CELL - x, LAST_CELL - y)
        } else {
            (x, y)
        }
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}\n{}\n{}\n{}",
        state.players[player].time_left_ms,
        state.stage,
        state.turn,
        state.players[player].resources,
    );
    let own = state.units.iter().filter(|u| u.owner == player);
    let enemies = state
        .units
        .iter()
        .filter(|u| u.owner != player && sees(u.cell.x, u.cell.y));
    for list in [own.collect::<Vec<_>>(), enemies.collect()] {
        let _ = writeln!(out, "{}", list.len());
        for u in list {
            let (x, y) = frame(u.cell.x, u.cell.y);
            let _ = writeln!(out, "{} {y} {x} {} {}", u.id, u.hp, u.kind.code());
        }
    }
    let mut cells: Vec<(i32, i32)> = state
        .resource_cells
        .iter()
        .filter(|c| sees(c.x, c.y))
        .map(|c| {
            let (x, y) = frame(c.x, c.y);
            (y, x)
        })
        .collect();
    cells.sort_unstable();
    let _ = writeln!(out, "{}", cells.len());
    for (y, x) in cells {
        let _ = writeln!(out, "{y} {x}");
    }
    out.push_str("END\n");
    out
}

fn prompts_with(state: &State, sight: Sight<'_>, mirrored: [bool; 2]) -> Vec<String> {
    (0..2)
        .map(|p| prompt(state, p, sight, mirrored[p]))
        .collect()
}

// ------------------------------------------------------------------ turn by turn

/// Whether misreading `m` (1 for M1) is played by an engine that plays `only` one, or all.
fn on(only: Option<u8>, m: u8) -> bool {
    only.is_none_or(|only| only == m)
}

/// The number of misreading `id` (`M2` → 2).
fn number(id: &str) -> Option<u8> {
    id.strip_prefix('M')?.parse().ok()
}

/// What a misreading engine changes around each turn the reference plays.
trait Misreadings {
    fn name(&self) -> &'static str;

    /// A new request: forget what the last one kept.
    fn new_request(&mut self);

    /// Before a turn: `state` (the misreading engine's, at the start of the turn) and the
    /// turn's `replies`, changed into what the reference is to play.
    fn before_turn(&mut self, state: &mut State, replies: &mut [Reply]);

    /// After a turn: `state` is what the reference left; `start` the misreading engine's state
    /// at the start of the turn. Changed into what the misreading engine leaves.
    fn after_turn(&mut self, start: &State, state: &mut State);

    /// The prompts after the request: `last_start` is the state at the start of the last turn
    /// played (`None` when none was), `state` the state the engine leaves.
    fn prompts(&self, last_start: Option<&State>, state: &State) -> Vec<String>;
}

/// The reference engine played turn by turn, with `M`'s misreadings around each turn.
#[derive(Debug, Clone, Default)]
struct TurnByTurn<M>(M);

impl<M: Misreadings> TurnByTurn<M> {
    fn play(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        self.0.new_request();
        // The request's state read and checked by the reference, in canonical form.
        let canonical = match Reference.step(StepRequest {
            turns: &[],
            ..request
        }) {
            Answered::Done(response) => response.state,
            other => return other,
        };
        let mut state: State = match serde_json::from_value(canonical) {
            Ok(state) => state,
            Err(e) => return self.refused(format!("the reference's own state does not read: {e}")),
        };
        let mut last_start = None;
        let mut last_replies = Vec::new();
        let mut turns_played = 0;
        for turn in request.turns {
            if state.outcome.is_some() {
                break;
            }
            let start = state.clone();
            let mut replies = turn.clone();
            self.0.before_turn(&mut state, &mut replies);
            match checked_step(&Codevs4, &mut state, &replies) {
                Ok(report) => {
                    last_replies = report
                        .replies
                        .iter()
                        .map(|v| v.name().to_string())
                        .collect();
                }
                Err(e) => {
                    return self.refused(format!("turn {} refused: {e}", turns_played + 1));
                }
            }
            self.0.after_turn(&start, &mut state);
            turns_played += 1;
            last_start = Some(start);
        }
        let prompts = self.0.prompts(last_start.as_ref(), &state);
        match serde_json::to_value(&state) {
            Ok(state) => Answered::Done(StepResponse {
                state,
                prompts: Some(prompts),
                last_replies,
                turns_played,
            }),
            Err(e) => self.refused(format!("the state does not write: {e}")),
        }
    }

    fn refused(&self, why: String) -> Answered<StepResponse> {
        Answered::Error(EngineError::Other(format!("{}: {why}", self.0.name())))
    }
}

impl<M: Misreadings> EngineUnderTest for TurnByTurn<M> {
    fn name(&self) -> String {
        self.0.name().to_string()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        self.play(request)
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

// ------------------------------------------------------------------ engine 1: rules left out

/// Rules left out: no fog, no extra income in the extra stages, no thinking-time clock.
#[derive(Debug, Clone, Default)]
struct LeftOut {
    /// Each player's clock at the start of the turn being played.
    clocks: [u64; 2],
    /// One misreading alone (`Some(2)`: M2), or all of them.
    only: Option<u8>,
}

impl Misreadings for LeftOut {
    fn name(&self) -> &'static str {
        "codevs4-left-out"
    }

    fn new_request(&mut self) {}

    fn before_turn(&mut self, state: &mut State, replies: &mut [Reply]) {
        if !on(self.only, 3) {
            return;
        }
        for (clock, player) in self.clocks.iter_mut().zip(&mut state.players) {
            *clock = player.time_left_ms;
            // MISREADING M3: no thinking-time clock: an output is never late and costs nothing.
            player.time_left_ms = THINKING_TIME_MS;
        }
        for reply in replies.iter_mut() {
            if let Reply::Text { elapsed_ms, .. } = reply {
                *elapsed_ms = 0;
            }
        }
    }

    fn after_turn(&mut self, _start: &State, state: &mut State) {
        for (clock, player) in self.clocks.iter().zip(&mut state.players) {
            if !on(self.only, 3) {
                break;
            }
            // MISREADING M3: a time-out or crash leaves the clock as it was, too.
            player.time_left_ms = *clock;
        }
        if !on(self.only, 2) {
            return;
        }
        // MISREADING M2: no extra income (表4): player 1 earns 10 a turn in every stage.
        let extra = extra_income(state.stage);
        let resources = &mut state.players[1].resources;
        *resources = resources.saturating_sub(extra);
    }

    fn prompts(&self, _last_start: Option<&State>, state: &State) -> Vec<String> {
        if !on(self.only, 1) {
            return prompts_with(state, Sight::UnitsOf(state), [false, false]);
        }
        // MISREADING M1: no fog: every enemy unit and every resource cell is in the input.
        prompts_with(state, Sight::Everything, [false, false])
    }
}

// ------------------------------------------------------------------ engine 2: the wrong moment

/// Rules applied at the wrong moment of the turn: gathering counted from the positions of the
/// turn's input, the prompt's vision from the units as they were when the turn's orders were
/// read, the thinking time checked after the output has been played.
#[derive(Debug, Clone, Default)]
struct WrongMoment {
    /// The players whose output of this turn the rules would ignore as late.
    late: [bool; 2],
    /// One misreading alone (`Some(2)`: M2), or all of them.
    only: Option<u8>,
}

impl Misreadings for WrongMoment {
    fn name(&self) -> &'static str {
        "codevs4-wrong-moment"
    }

    fn new_request(&mut self) {}

    fn before_turn(&mut self, state: &mut State, replies: &mut [Reply]) {
        for ((late, player), reply) in self.late.iter_mut().zip(&mut state.players).zip(replies) {
            *late = false;
            if !on(self.only, 3) {
                continue;
            }
            if let Reply::Text { elapsed_ms, .. } = reply {
                // MISREADING M3: the clock is looked at only after the output was played: a
                // late output is played all the same, and the clock then shows 0.
                if player.time_left_ms == 0 || *elapsed_ms > player.time_left_ms {
                    *late = true;
                    *elapsed_ms = 0;
                    player.time_left_ms = player.time_left_ms.max(1);
                }
            }
        }
    }

    fn after_turn(&mut self, start: &State, state: &mut State) {
        for p in 0..2 {
            if self.late[p] {
                state.players[p].time_left_ms = 0;
            }
            if !on(self.only, 1) {
                continue;
            }
            // MISREADING M1: gathering counts the workers where the turn's input showed them,
            // before the moves and the battle, not those on the field after the removal.
            let by_the_rules = gathered(state, p);
            let resources = &mut state.players[p].resources;
            *resources = (*resources + gathered(start, p)).saturating_sub(by_the_rules);
        }
    }

    fn prompts(&self, last_start: Option<&State>, state: &State) -> Vec<String> {
        if !on(self.only, 2) {
            return prompts_with(state, Sight::UnitsOf(state), [false, false]);
        }
        // MISREADING M2: the input's vision is that of the units as they stood when the turn's
        // orders were read (before the moves, the products and the removal).
        prompts_with(
            state,
            Sight::UnitsOf(last_start.unwrap_or(state)),
            [false, false],
        )
    }
}

// ------------------------------------------------------------------ engine 3: stale, and mirrored

/// Counters never reset, and the second player in the frame of its own corner: player 1's
/// input mirrored and its moves read mirrored; the thinking time charged from a stopwatch
/// started once per request; each resource cell's cap of 5 counted over the whole request.
#[derive(Debug, Clone, Default)]
struct StaleFrame {
    /// Each player's stopwatch: the thinking time of every output of the request so far.
    stopwatch: [u64; 2],
    /// What each resource cell (by its index) has yielded to each player in the request.
    yielded: BTreeMap<(usize, usize), u32>,
    /// One misreading alone (`Some(2)`: M2), or all of them.
    only: Option<u8>,
}

/// MISREADING M1 (the moves): U and D, L and R swapped, as in the frame of the opposite corner.
fn mirrored_moves(text: &str) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    for line in lines.iter_mut().skip(1) {
        let trimmed = line.trim_end();
        let Some(start) = trimmed.rfind([' ', '\t']).map(|i| i + 1) else {
            continue;
        };
        let swapped = match &trimmed[start..] {
            "U" => "D",
            "D" => "U",
            "L" => "R",
            "R" => "L",
            _ => continue,
        };
        line.replace_range(start..start + 1, swapped);
    }
    lines.join("\n")
}

impl Misreadings for StaleFrame {
    fn name(&self) -> &'static str {
        "codevs4-stale-frame"
    }

    fn new_request(&mut self) {
        self.stopwatch = [0, 0];
        self.yielded.clear();
    }

    fn before_turn(&mut self, _state: &mut State, replies: &mut [Reply]) {
        for (p, reply) in replies.iter_mut().enumerate() {
            if let Reply::Text { text, elapsed_ms } = reply {
                if on(self.only, 2) {
                    // MISREADING M2: the stopwatch is started once and never reset: each
                    // output is charged the time of every output of the request so far.
                    self.stopwatch[p] = self.stopwatch[p].saturating_add(*elapsed_ms);
                    *elapsed_ms = self.stopwatch[p];
                }
                if p == 1 && on(self.only, 1) {
                    *text = mirrored_moves(text);
                }
            }
        }
    }

    fn after_turn(&mut self, _start: &State, state: &mut State) {
        for p in (0..2).filter(|_| on(self.only, 3)) {
            // MISREADING M3: the cap of 5 a resource cell yields a player is counted over every
            // turn of the request, never reset at the start of a turn.
            let mut lost = 0;
            for (cell, workers) in workers_on_cells(state, p).into_iter().enumerate() {
                let yielded = self.yielded.entry((cell, p)).or_insert(0);
                let misread = workers.min(GATHER_CAP - *yielded);
                *yielded += misread;
                lost += workers.min(GATHER_CAP) - misread;
            }
            let resources = &mut state.players[p].resources;
            *resources = resources.saturating_sub(lost);
        }
    }

    fn prompts(&self, _last_start: Option<&State>, state: &State) -> Vec<String> {
        // MISREADING M1 (the input): player 1 is told every coordinate as 99 − x, 99 − y.
        prompts_with(state, Sight::UnitsOf(state), [false, on(self.only, 1)])
    }
}

// ------------------------------------------------------------------ what each engine departs in

/// Fields a battle, a product or an output played or not can change, from the turn it happens.
const PLAY: [&str; 6] = [
    "units",
    "next_id",
    "players[].resources",
    "last_replies",
    "outcome",
    "turn",
];

const LEFT_OUT: Spec = Spec {
    game: "codevs4",
    engine: "codevs4-left-out",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["vision.radius", "vision.no-memory"],
            fields: &["prompts"],
        },
        Misreading {
            id: "M2",
            right: &["resources.extra-stages"],
            fields: &[
                "players[].resources",
                "prompts",
                PLAY[0],
                PLAY[1],
                PLAY[3],
                PLAY[4],
                PLAY[5],
            ],
        },
        Misreading {
            id: "M3",
            right: &["time.budget", "time.over"],
            fields: &[
                "players[].time_left_ms",
                "prompts",
                PLAY[0],
                PLAY[1],
                PLAY[2],
                PLAY[3],
                PLAY[4],
                PLAY[5],
            ],
        },
    ],
    overrides: &[
        (
            "codevs4/battle-k/100-knights-on-a-cell-count-as-10",
            &["M1"],
        ),
        ("codevs4/battle-k/mutual-kill-in-one-turn", &["M1"]),
        (
            "codevs4/battle-k/a-falling-unit-still-counts-and-strikes",
            &["M1"],
        ),
        ("codevs4/battle-k/removed-at-exactly-zero", &["M1"]),
        (
            "codevs4/battle-k/the-input-shows-hp-lost-over-two-turns",
            &["M1"],
        ),
        (
            "codevs4/resources/the-input-shows-resources-summed-over-two-turns",
            &["M1"],
        ),
        ("codevs4/resources/stage-27-income", &["M2"]),
        ("codevs4/resources/stage-33-income", &["M2"]),
        ("codevs4/resources/stage-34-income", &["M2"]),
        ("codevs4/resources/stage-40-income", &["M2"]),
        (
            "codevs4/time/time-used-is-taken-from-the-clock",
            &["M1", "M3"],
        ),
        (
            "codevs4/time/an-output-past-the-time-left-is-ignored",
            &["M3"],
        ),
        (
            "codevs4/time/using-exactly-the-time-left-is-allowed",
            &["M3"],
        ),
        ("codevs4/time/no-output-in-time", &["M3"]),
        (
            "codevs4/time/the-clock-keeps-counting-down-over-turns",
            &["M1", "M3"],
        ),
        (
            "codevs4/time/with-no-time-left-every-output-is-late",
            &["M3"],
        ),
        (
            "codevs4/time/running-out-mid-stage-and-staying-out",
            &["M1", "M3"],
        ),
        ("codevs4/vision/worker-sees-4-not-5", &["M1"]),
        ("codevs4/vision/knight-sees-4-not-5", &["M1"]),
        ("codevs4/vision/fighter-sees-4-not-5", &["M1"]),
        ("codevs4/vision/assassin-sees-4-not-5", &["M1"]),
        ("codevs4/vision/base-sees-4-not-5", &["M1"]),
        ("codevs4/vision/village-sees-10-not-11", &["M1"]),
        ("codevs4/vision/castle-sees-10-not-11", &["M1"]),
        ("codevs4/vision/document-input-example", &["M1"]),
        ("codevs4/vision/y-comes-before-x", &["M1"]),
        ("codevs4/vision/player-1-sees-the-same-coordinates", &["M1"]),
        (
            "codevs4/vision/seen-by-any-own-unit-in-id-and-reading-order",
            &["M1"],
        ),
        ("codevs4/vision/out-of-sight-is-forgotten", &["M1"]),
        (
            "codevs4/vision/a-resource-cell-one-past-on-the-left-is-not-seen",
            &["M1"],
        ),
        (
            "codevs4/vision/resource-cells-in-any-order-are-the-same-input",
            &["M1"],
        ),
        (
            "codevs4/vision/sight-reaches-the-first-row-and-ten-rows-down-from-it",
            &["M1"],
        ),
    ],
    attribute: None,
    alone: Some(|id| {
        Some(Box::new(TurnByTurn(LeftOut {
            only: Some(number(id)?),
            ..LeftOut::default()
        })))
    }),
};

const WRONG_MOMENT: Spec = Spec {
    game: "codevs4",
    engine: "codevs4-wrong-moment",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["resources.after-removal", "turn.phases"],
            fields: &[
                "players[].resources",
                "prompts",
                PLAY[0],
                PLAY[1],
                PLAY[3],
                PLAY[4],
                PLAY[5],
            ],
        },
        Misreading {
            id: "M2",
            right: &["vision.radius", "vision.no-memory"],
            fields: &["prompts"],
        },
        Misreading {
            id: "M3",
            right: &["time.over"],
            fields: &[
                "prompts", PLAY[0], PLAY[1], PLAY[2], PLAY[3], PLAY[4], PLAY[5],
            ],
        },
    ],
    overrides: &[
        (
            "codevs4/battle-k/100-knights-on-a-cell-count-as-10",
            &["M2"],
        ),
        ("codevs4/battle-k/removed-at-exactly-zero", &["M2"]),
        (
            "codevs4/resources/a-removed-worker-gathers-nothing",
            &["M1"],
        ),
        (
            "codevs4/resources/the-input-shows-resources-summed-over-two-turns",
            &["M1"],
        ),
        (
            "codevs4/time/an-output-past-the-time-left-is-ignored",
            &["M3"],
        ),
        (
            "codevs4/time/with-no-time-left-every-output-is-late",
            &["M3"],
        ),
        (
            "codevs4/time/running-out-mid-stage-and-staying-out",
            &["M3"],
        ),
        ("codevs4/vision/out-of-sight-is-forgotten", &["M2"]),
    ],
    attribute: None,
    alone: Some(|id| {
        Some(Box::new(TurnByTurn(WrongMoment {
            only: Some(number(id)?),
            ..WrongMoment::default()
        })))
    }),
};

const STALE_FRAME: Spec = Spec {
    game: "codevs4",
    engine: "codevs4-stale-frame",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["input.not-mirrored", "move.one-cell"],
            fields: &[
                "prompts", PLAY[0], PLAY[1], PLAY[2], PLAY[3], PLAY[4], PLAY[5],
            ],
        },
        Misreading {
            id: "M2",
            right: &["time.budget", "time.over"],
            fields: &[
                "players[].time_left_ms",
                "prompts",
                PLAY[0],
                PLAY[1],
                PLAY[2],
                PLAY[3],
                PLAY[4],
                PLAY[5],
            ],
        },
        Misreading {
            id: "M3",
            right: &["resources.cell-cap", "field.resources-endless"],
            fields: &[
                "players[].resources",
                "prompts",
                PLAY[0],
                PLAY[1],
                PLAY[3],
                PLAY[4],
                PLAY[5],
            ],
        },
    ],
    overrides: &[
        ("codevs4/battle-k/mutual-kill-in-one-turn", &["M1"]),
        (
            "codevs4/battle-k/a-falling-unit-still-counts-and-strikes",
            &["M1"],
        ),
        ("codevs4/battle-k/removed-at-exactly-zero", &["M1"]),
        ("codevs4/moves/every-character-moves", &["M1"]),
        ("codevs4/moves/off-the-corner-both-ways", &["M1"]),
        ("codevs4/moves/moving-onto-an-enemy-cell", &["M1"]),
        ("codevs4/resources/a-resource-cell-never-runs-dry", &["M3"]),
        (
            "codevs4/time/the-clock-keeps-counting-down-over-turns",
            &["M1", "M2"],
        ),
        (
            "codevs4/time/with-no-time-left-every-output-is-late",
            &["M1"],
        ),
        ("codevs4/vision/player-1-sees-the-same-coordinates", &["M1"]),
    ],
    attribute: None,
    alone: Some(|id| {
        Some(Box::new(TurnByTurn(StaleFrame {
            only: Some(number(id)?),
            ..StaleFrame::default()
        })))
    }),
};

/// The diff runs of each seed (the brief's 300).
const DIFF_RUNS: usize = 300;

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn left_out_is_named_by_its_own_clauses() {
    // Not issue 38's bar: 1.5 measured (a ratchet). M3 (no clock) shows as a reply taken that
    // was late (`last_replies[]`) on one input and as a clock never charged
    // (`players[].time_left_ms`) on another; no shrunk input shows both.
    judged(&LEFT_OUT, || TurnByTurn(LeftOut::default()), DIFF_RUNS, 1.5);
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn wrong_moment_is_named_by_its_own_clauses() {
    // Not issue 38's bar: 4/3 measured (a ratchet). M1 is named
    // (`resources.after-removal`) where the variant plays it whole, and unexplained on
    // `players[].resources` where it does not.
    judged(
        &WRONG_MOMENT,
        || TurnByTurn(WrongMoment::default()),
        DIFF_RUNS,
        4.0 / 3.0,
    );
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn stale_frame_is_named_by_its_own_clauses() {
    judged(
        &STALE_FRAME,
        || TurnByTurn(StaleFrame::default()),
        DIFF_RUNS,
        GROUPS_BAR,
    );
}

// ------------------------------------------------------------------ the engines do what they say

/// A turn of `replies` from `state` on `engine`: the state and the prompts it answers.
fn one_turn(engine: &mut dyn EngineUnderTest, state: Value, replies: Vec<Reply>) -> StepResponse {
    let game = shinpan::games::by_id("codevs4").expect("codevs4 is registered");
    match engine.step(StepRequest {
        id: "hand",
        game,
        state: &state,
        turns: &[replies],
        reachable: true,
    }) {
        Answered::Done(response) => response,
        other => panic!("{other:?}"),
    }
}

fn timed(text: &str, elapsed_ms: u64) -> Reply {
    Reply::Text {
        text: text.into(),
        elapsed_ms,
    }
}

/// Without its misreadings the prompt printer is the reference's: the same text on states of
/// matches the built-in players play, in an ordinary and an extra stage.
#[test]
fn the_prompt_printer_prints_what_the_reference_prints() {
    use shinpan::games::codevs4::Options;
    use shinpan::rng::{player_stream, seeded};
    use shinpan::seam::Game;
    let game = Codevs4;
    let mut compared = 0;
    for (seed, stage) in [(1, 0), (2, 30), (3, 40)] {
        let mut state = Game::new_match(&game, seed, &Options::stage(stage));
        let mut rngs = [
            seeded(seed, player_stream(0)),
            seeded(seed, player_stream(1)),
        ];
        for _ in 0..150 {
            for p in 0..2 {
                assert_eq!(
                    prompt(&state, p, Sight::UnitsOf(&state), false),
                    Game::prompt(&game, &state, p),
                    "seed {seed}, turn {}, player {p}",
                    state.turn
                );
                compared += 1;
            }
            if state.outcome.is_some() {
                break;
            }
            let replies: Vec<Reply> = (0..2)
                .map(|p| Reply::text(Game::random_reply(&game, &state, p, &mut rngs[p])))
                .collect();
            Game::step(&game, &mut state, &replies).expect("the reference plays its own replies");
        }
    }
    assert!(compared >= 300, "{compared}");
}

fn castles_and(extra: Value) -> Value {
    let mut state = serde_json::json!({
        "units": {
            "0": {"owner": 0, "kind": "castle", "x": 0, "y": 0},
            "6": {"owner": 1, "kind": "castle", "x": 99, "y": 99},
        },
    });
    if let (Some(base), Some(extra)) = (state.as_object_mut(), extra.as_object()) {
        for (key, value) in extra {
            if key == "units" {
                for (id, unit) in value.as_object().into_iter().flatten() {
                    base["units"][id] = unit.clone();
                }
            } else {
                base.insert(key.clone(), value.clone());
            }
        }
    }
    state
}

/// Stage 30: the reference gives player 1 20 (表4), the engine 10. Player 0's output of 1500 ms
/// leaves its clock at 3,600,000 (the reference: 3,598,500). The worker at (50,50) is 50 + 50
/// cells from (99,99), out of player 1's sight, yet in its input.
#[test]
fn left_out_has_no_extra_income_no_clock_and_no_fog() {
    let state = castles_and(serde_json::json!({
        "stage": 30,
        "units": {"12": {"owner": 0, "kind": "worker", "x": 50, "y": 50}},
        "resource_cells": [{"x": 60, "y": 60}],
    }));
    let mut engine = TurnByTurn(LeftOut::default());
    let after = one_turn(&mut engine, state, vec![timed("0", 1500), timed("0", 0)]);
    assert_eq!(after.state["players"][0]["resources"], 10);
    assert_eq!(after.state["players"][1]["resources"], 10);
    assert_eq!(after.state["players"][0]["time_left_ms"], 3_600_000);
    let prompts = after.prompts.expect("prompts");
    assert_eq!(
        prompts[1],
        "3600000\n30\n1\n10\n1\n6 99 99 50000 4\n2\n0 0 0 50000 4\n12 50 50 2000 0\n1\n60 60\nEND\n"
    );
}

/// Worker 12 stands on the resource cell (50,50) and moves right: the rules gather nothing for
/// it (10 of income), the engine 1 (where the input showed it): 11. Knight 13 at (30,30) saw
/// player 1's worker 20 at (34,30) before moving left; after the move it is 5 away, out of its
/// sight (4), yet still in the input. Player 1's output takes 1001 ms of its 1000: the rules
/// ignore it; the engine moves knight 21 up all the same and shows 0 left.
#[test]
fn wrong_moment_gathers_sees_and_clocks_at_the_wrong_moment() {
    let state = castles_and(serde_json::json!({
        "players": [{}, {"time_left_ms": 1000}],
        "units": {
            "12": {"owner": 0, "kind": "worker", "x": 50, "y": 50},
            "13": {"owner": 0, "kind": "knight", "x": 30, "y": 30},
            "20": {"owner": 1, "kind": "worker", "x": 34, "y": 30},
            "21": {"owner": 1, "kind": "knight", "x": 80, "y": 80},
        },
        "resource_cells": [{"x": 50, "y": 50}],
    }));
    let mut engine = TurnByTurn(WrongMoment::default());
    let after = one_turn(
        &mut engine,
        state,
        vec![timed("2\n12 R\n13 L", 0), timed("1\n21 U", 1001)],
    );
    assert_eq!(after.state["players"][0]["resources"], 11);
    assert_eq!(after.state["units"]["12"]["x"], 51);
    assert_eq!(after.state["units"]["13"]["x"], 29);
    assert_eq!(after.state["players"][1]["time_left_ms"], 0);
    assert_eq!(after.state["units"]["21"]["y"], 79);
    assert_eq!(after.last_replies, ["accepted", "accepted"]);
    let prompts = after.prompts.expect("prompts");
    assert!(
        prompts[0].contains("\n1\n20 30 34 2000 0\n"),
        "{}",
        prompts[0]
    );
}

/// Player 1's knight 20 told `U` goes down (y + 1) and its input shows (99 − x, 99 − y).
/// Each of two turns takes 100 ms: the second is charged 200. Six of player 0's workers on the
/// resource cell (50,50) for two turns: 5 the first turn, 0 the second (the cap spent).
#[test]
fn stale_frame_mirrors_player_two_and_never_resets_its_counters() {
    let mut units = serde_json::Map::new();
    for id in 12..18 {
        units.insert(
            id.to_string(),
            serde_json::json!({"owner": 0, "kind": "worker", "x": 50, "y": 50}),
        );
    }
    units.insert(
        "20".into(),
        serde_json::json!({"owner": 1, "kind": "knight", "x": 90, "y": 90}),
    );
    let state = castles_and(serde_json::json!({
        "units": units,
        "resource_cells": [{"x": 50, "y": 50}],
    }));
    let game = shinpan::games::by_id("codevs4").expect("codevs4 is registered");
    let turn = vec![timed("0", 100), timed("1\n20 U", 0)];
    let mut engine = TurnByTurn(StaleFrame::default());
    let after = match engine.step(StepRequest {
        id: "hand",
        game,
        state: &state,
        turns: &[turn.clone(), turn],
        reachable: true,
    }) {
        Answered::Done(response) => response,
        other => panic!("{other:?}"),
    };
    assert_eq!(after.turns_played, 2);
    assert_eq!(after.state["units"]["20"]["y"], 92);
    assert_eq!(after.state["players"][0]["time_left_ms"], 3_600_000 - 300);
    assert_eq!(after.state["players"][0]["resources"], 10 + 5 + 10);
    let prompts = after.prompts.expect("prompts");
    assert!(
        prompts[1].starts_with("3600000\n0\n2\n20\n2\n6 0 0 50000 4\n20 7 9 5000 1\n"),
        "{}",
        prompts[1]
    );
}

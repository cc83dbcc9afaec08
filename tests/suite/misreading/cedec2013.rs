//! Three CEDEC CHALLENGE 2013 engines that misread the rule document (seed 002, the detailed
//! rules, with the QUICKSTART decisions of `spec-notes.md`), written from the document without
//! reading shinpan's naming code, to test how `check` and `diff` name departures (issue 38).
//! Each misreading is worked out by hand in
//! `tests/fixtures/misreading-engines/cedec2013/DEPARTURES.md`.
//!
//! Each engine wraps the reference engine turn by turn: a step request of several turns is
//! played one turn at a time, and around each turn the engine changes what the reference is
//! given (the state, the reply's lines or its time) and what it gave back (the state), so that
//! the turn is what the misreading engine would have played. Prompts are printed by the engine
//! itself, from its state, in its own frame. Parse and new-match requests go to the reference:
//! no misreading is about them.

use serde_json::Value;

use shinpan::games::cedec2013::engine::start_turn;
use shinpan::games::cedec2013::protocol::{is_finish, Command, Request};
use shinpan::games::cedec2013::rules::{
    index, rotate120, rotate240, Base, Direction, COORDS, NAME_LIMIT_MS, PLAYERS, TURN_LIMIT_MS,
};
use shinpan::games::cedec2013::state::State;
use shinpan::run::{
    Answered, EngineError, EngineUnderTest, NewMatchRequest, ParseRequest, Reference, StepRequest,
    StepResponse,
};
use shinpan::seam::{ParseVerdict, Reply};

use super::{judged, Misreading, Spec, GROUPS_BAR};

const GAME: &str = "cedec2013";

/// The misreadings, each switched on in one of the engines below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Misread {
    // `left_out`
    NoTowers,
    NoExcavatorYield,
    NoNameDeadline,
    // `wrong_moment`
    StartPhaseAtOwnEnd,
    HundredAtRoundEnd,
    // `frames`
    RotatedSeats,
    WholeTimeCharged,
    ResetKeepsTheKind,
}

/// An engine that misreads the document in the ways listed.
#[derive(Debug, Clone, Copy)]
pub struct Misreader {
    name: &'static str,
    misreads: &'static [Misread],
}

/// Rules left out entirely: no towers, no excavator yield, no deadline on the name.
pub const LEFT_OUT: Misreader = Misreader {
    name: "cedec2013 left_out",
    misreads: &[
        Misread::NoTowers,
        Misread::NoExcavatorYield,
        Misread::NoNameDeadline,
    ],
};

/// The right things at the wrong moment: the turn-start phase at the end of the mover's own
/// turn; the 100 points looked at only when a round ends.
pub const WRONG_MOMENT: Misreader = Misreader {
    name: "cedec2013 wrong_moment",
    misreads: &[Misread::StartPhaseAtOwnEnd, Misread::HundredAtRoundEnd],
};

/// Seats 1 and 2 in a rotated frame; the thinking time charged whole; `reset` that leaves the
/// turn's kind (move or build) as it was.
pub const FRAMES: Misreader = Misreader {
    name: "cedec2013 frames",
    misreads: &[
        Misread::RotatedSeats,
        Misread::WholeTimeCharged,
        Misread::ResetKeepsTheKind,
    ],
};

/// No misreading at all: the wrapping alone, which must agree with the reference everywhere.
pub const NONE: Misreader = Misreader {
    name: "cedec2013 wrapper without misreadings",
    misreads: &[],
};

impl Misreader {
    /// The engine with only its misreading `id` (`M2`: the second listed), as the specs below
    /// number them.
    fn alone(&self, id: &str) -> Option<Box<dyn EngineUnderTest>> {
        let k: usize = id.strip_prefix('M')?.parse().ok()?;
        let one = self.misreads.get(k.checked_sub(1)?)?;
        Some(Box::new(Misreader {
            name: self.name,
            misreads: std::slice::from_ref(one),
        }))
    }

    fn has(&self, misread: Misread) -> bool {
        self.misreads.contains(&misread)
    }

    /// One turn (or one name) of the player to move, as this engine plays it: the state after
    /// it and how the reply was taken (`None`: the match was over, nothing was played).
    fn play_one(
        &self,
        request: &StepRequest<'_>,
        state: &Value,
        reply: &Reply,
    ) -> Result<Option<(State, Vec<String>)>, Answered<StepResponse>> {
        let Ok(mut typed) = serde_json::from_value::<State>(state.clone()) else {
            // The reference says why the state cannot be played.
            return Err(reference_turn(request, state, reply));
        };
        if typed.outcome.is_some() {
            return Ok(None);
        }
        let mover = typed.player;
        let round = typed.round;
        let mut reply = reply.clone();
        let mut relabelled: Vec<(usize, Base)> = Vec::new();
        let mut relabel = |typed: &mut State, which: &dyn Fn(usize, Option<Base>) -> bool| {
            for (i, tile) in typed.tiles.0.iter_mut().enumerate() {
                if let Some(base) = tile.base {
                    if which(i, Some(base)) {
                        relabelled.push((i, base));
                        // A house does nothing at a turn start, yields nothing and scores as
                        // any base: the reference then plays the turn without the base's effect.
                        tile.base = Some(Base::House);
                    }
                }
            }
        };
        // MISREADING M1 (left_out): towers never fire.
        if self.has(Misread::NoTowers) {
            relabel(&mut typed, &|_, base| base == Some(Base::Tower));
        }
        // MISREADING M2 (left_out): an excavator adds nothing to the settlements around it.
        if self.has(Misread::NoExcavatorYield) {
            relabel(&mut typed, &|_, base| base == Some(Base::Excavator));
        }
        // MISREADING M1 (wrong_moment): the next player's turn start does nothing here (its
        // bases acted at the end of its own last turn instead).
        if self.has(Misread::StartPhaseAtOwnEnd) {
            let next = (mover + 1) % PLAYERS;
            let owner_of = |i: usize| typed.tiles.0[i].owned_by(next);
            let acts = |i: usize, base: Option<Base>| {
                owner_of(i) && matches!(base, Some(Base::Initial | Base::Robotmaker | Base::Tower))
            };
            let chosen: Vec<usize> = (0..COORDS.len())
                .filter(|&i| acts(i, typed.tiles.0[i].base))
                .collect();
            relabel(&mut typed, &|i, _| chosen.contains(&i));
        }
        if round == 0 {
            // MISREADING M3 (left_out): no deadline on the name: a late name is taken, and a
            // program that never named itself is nanashi but plays on.
            if self.has(Misread::NoNameDeadline) {
                reply = match reply {
                    Reply::Text { text, elapsed_ms } if elapsed_ms > NAME_LIMIT_MS => Reply::Text {
                        text,
                        elapsed_ms: 0,
                    },
                    Reply::TimedOut => Reply::Crashed,
                    other => other,
                };
            }
        } else {
            // MISREADING M2 (frames): the whole thinking time of a turn goes to the overrun
            // pool, not only the time beyond 1000 ms.
            if self.has(Misread::WholeTimeCharged) {
                if let Reply::Text { elapsed_ms, .. } = &mut reply {
                    *elapsed_ms = elapsed_ms.saturating_add(TURN_LIMIT_MS);
                }
            }
            if let Reply::Text { text, .. } = &mut reply {
                // MISREADING M1 (frames): seats 1 and 2 address the field in their own frame,
                // the one their prompt shows (rotated so that their factory is where seat 0's
                // is).
                if self.has(Misread::RotatedSeats) && mover != 0 {
                    *text = rewrite_lines(text, |line| seat_to_field_line(line, mover));
                }
                // MISREADING M3 (frames): `reset` puts the field back but leaves the turn as
                // moving or building, as its first command made it.
                if self.has(Misread::ResetKeepsTheKind) {
                    *text = kind_kept_over_reset(text);
                }
            }
        }
        let given = serde_json::to_value(&typed).map_err(|e| internal(&e))?;
        let answered = reference_turn(request, &given, &reply);
        let Answered::Done(response) = answered else {
            return Err(answered);
        };
        let mut after: State = serde_json::from_value(response.state).map_err(|e| internal(&e))?;
        for (i, base) in relabelled {
            after.tiles.0[i].base = Some(base);
        }
        if round > 0 {
            // MISREADING M1 (wrong_moment): the mover's factory, robotmakers and towers act
            // when its own turn ends.
            if self.has(Misread::StartPhaseAtOwnEnd) {
                start_turn(&mut after.tiles, mover);
            }
            // MISREADING M2 (wrong_moment): 100 points end the match only when a round ends,
            // after seat 2's turn.
            let hundred = after
                .outcome
                .as_ref()
                .is_some_and(|o| o.reason == "hundred-points");
            if self.has(Misread::HundredAtRoundEnd) && hundred && mover + 1 < PLAYERS {
                after.outcome = None;
                after.player = mover + 1;
                if !self.has(Misread::StartPhaseAtOwnEnd) {
                    start_turn(&mut after.tiles, after.player);
                }
            }
        }
        Ok(Some((after, response.last_replies)))
    }

    /// The prompt of each seat, as this engine prints it.
    fn prompts(&self, state: &State) -> Vec<String> {
        (0..PLAYERS)
            .map(|seat| {
                let mut request = Request::of(state, seat);
                if self.has(Misread::NoExcavatorYield) {
                    // MISREADING M2 (left_out): a settlement shows 1, whatever is around it.
                    for (view, tile) in request.tiles.iter_mut().zip(&state.tiles.0) {
                        view.resources = u32::from(tile.is_plain_settlement());
                    }
                }
                if self.has(Misread::RotatedSeats) && seat != 0 {
                    // MISREADING M1 (frames): seats 1 and 2 see the field turned into their own
                    // frame.
                    let absolute = request.tiles.clone();
                    for view in absolute {
                        let (x, y) = field_to_seat((view.x, view.y), seat);
                        if let Some(i) = index(i32::from(x), i32::from(y)) {
                            request.tiles[i] =
                                shinpan::games::cedec2013::protocol::TileView { x, y, ..view };
                        }
                    }
                }
                request.print()
            })
            .collect()
    }
}

/// A tile of the field as seat `seat` sees it: turned back by the 120° turns that made its third
/// of the map from seat 0's (D-cedec-8), so that its factory is where seat 0's is.
fn field_to_seat(at: (i8, i8), seat: usize) -> (i8, i8) {
    match seat {
        1 => rotate240(at),
        2 => rotate120(at),
        _ => at,
    }
}

/// The inverse of [`field_to_seat`], on numbers as a command gives them (`None`: off any
/// field, kept as given).
fn seat_to_field((x, y): (i32, i32), seat: usize) -> Option<(i32, i32)> {
    let turn = |(x, y): (i32, i32)| Some((x.checked_add(y)?.checked_neg()?, x));
    match seat {
        1 => turn((x, y)),
        2 => turn(turn((x, y))?),
        _ => Some((x, y)),
    }
}

/// A direction of seat `seat`'s frame on the field.
fn direction_to_field(dir: Direction, seat: usize) -> Direction {
    let (dx, dy) = dir.offset();
    let turned = seat_to_field((i32::from(dx), i32::from(dy)), seat);
    Direction::ALL
        .into_iter()
        .find(|d| {
            let (ex, ey) = d.offset();
            Some((i32::from(ex), i32::from(ey))) == turned
        })
        .unwrap_or(dir)
}

/// A command line of seat `seat` on the field; a line not in the documented form is left as it
/// is (the engine turns only what it reads as a move or a build).
fn seat_to_field_line(line: &str, seat: usize) -> String {
    let turned = |x: i32, y: i32| seat_to_field((x, y), seat);
    match Command::parse(line) {
        Ok(Command::Move { x, y, dir, robots }) => match turned(x, y) {
            Some((x, y)) => Command::Move {
                x,
                y,
                dir: direction_to_field(dir, seat),
                robots,
            }
            .print(),
            None => line.to_string(),
        },
        Ok(Command::Build { x, y, base }) => match turned(x, y) {
            Some((x, y)) => Command::Build { x, y, base }.print(),
            None => line.to_string(),
        },
        _ => line.to_string(),
    }
}

/// Applies `each` to the lines of a turn up to its `finish`; what follows is kept as it is.
fn rewrite_lines(text: &str, mut each: impl FnMut(&str) -> String) -> String {
    let mut finished = false;
    text.split('\n')
        .map(|line| {
            if finished {
                return line.to_string();
            }
            if is_finish(line) {
                finished = true;
                return line.to_string();
            }
            each(line)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A line that no engine reads as a command: refused, and it does not decide whether the turn
/// moves or builds.
const REFUSED: &str = "build 0 0 -";

/// The turn's lines such that the reference, whose `reset` frees the turn to move or build
/// again, refuses what an engine whose `reset` does not would refuse: a line refused only
/// because the kind was kept is replaced by one the reference refuses without deciding.
fn kind_kept_over_reset(text: &str) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum Kind {
        Moves,
        Builds,
    }
    // The kind as the misreading keeps it, and as the reference keeps it.
    let (mut kept, mut reference): (Option<Kind>, Option<Kind>) = (None, None);
    rewrite_lines(text, |line| {
        let command = Command::parse(line).or_else(|_| Command::parse_lenient(line));
        match command {
            Ok(Command::Reset) => {
                reference = None;
                line.to_string()
            }
            Ok(Command::Move { .. }) => {
                let refused_kept = kept == Some(Kind::Builds);
                let refused_reference = reference == Some(Kind::Builds);
                kept = kept.or(Some(Kind::Moves));
                if refused_kept && !refused_reference {
                    return REFUSED.to_string();
                }
                reference = reference.or(Some(Kind::Moves));
                line.to_string()
            }
            Ok(Command::Build { .. }) => {
                let refused_kept = kept.is_some();
                let refused_reference = reference.is_some();
                kept = kept.or(Some(Kind::Builds));
                if refused_kept && !refused_reference {
                    return REFUSED.to_string();
                }
                reference = reference.or(Some(Kind::Builds));
                line.to_string()
            }
            _ => line.to_string(),
        }
    })
}

/// The reference engine on one turn from `state`.
fn reference_turn(
    request: &StepRequest<'_>,
    state: &Value,
    reply: &Reply,
) -> Answered<StepResponse> {
    let turns = [vec![reply.clone()]];
    Reference.step(StepRequest {
        state,
        turns: &turns,
        ..*request
    })
}

fn internal(e: &serde_json::Error) -> Answered<StepResponse> {
    Answered::Error(EngineError::Other(format!(
        "the misreading engine could not carry its state: {e}"
    )))
}

impl EngineUnderTest for Misreader {
    fn name(&self) -> String {
        self.name.into()
    }

    fn supports(&self, game: &str) -> bool {
        game == GAME
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        let mut state = request.state.clone();
        let mut turns_played = 0;
        let mut last_replies = Vec::new();
        for replies in request.turns {
            // One reply a turn; any other count goes to the reference, which refuses it.
            let [reply] = replies.as_slice() else {
                return Reference.step(StepRequest {
                    state: &state,
                    turns: std::slice::from_ref(replies),
                    ..request
                });
            };
            match self.play_one(&request, &state, reply) {
                Ok(Some((after, replies))) => {
                    state = match serde_json::to_value(&after) {
                        Ok(state) => state,
                        Err(e) => return internal(&e),
                    };
                    turns_played += 1;
                    last_replies = replies;
                }
                Ok(None) => break,
                Err(answered) => return answered,
            }
        }
        let typed: State = match serde_json::from_value(state.clone()) {
            Ok(typed) => typed,
            // No turn was played and the state does not read: the reference says why.
            Err(_) => {
                return Reference.step(StepRequest {
                    state: &state,
                    ..request
                })
            }
        };
        if request.turns.is_empty() {
            // The reference validates a state even when nothing is played.
            if let Answered::Error(e) = Reference.step(request) {
                return Answered::Error(e);
            }
        }
        Answered::Done(StepResponse {
            prompts: Some(self.prompts(&typed)),
            state,
            last_replies,
            turns_played,
        })
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

/// The wrapping alone (a turn at a time, states and prompts carried through the typed state)
/// agrees with the reference on every case: whatever the engines above get wrong comes from
/// their misreadings.
#[test]
fn the_wrapper_without_misreadings_agrees_with_the_reference_on_every_case() {
    let reference = shinpan::Suite::reference()
        .results(Some("cedec2013/"))
        .expect("the library loads");
    let wrapped = shinpan::Suite::new(GAME, NONE)
        .results(Some("cedec2013/"))
        .expect("the library loads");
    assert!(reference.len() > 100, "{} cases", reference.len());
    assert_eq!(wrapped.len(), reference.len());
    for (r, w) in reference.iter().zip(&wrapped) {
        assert_eq!(r.name, w.name);
        assert_eq!(
            (r.verdict.name(), r.verdict.detail()),
            (w.verdict.name(), w.verdict.detail()),
            "{}",
            r.name
        );
    }
}

// What each engine gets wrong, by hand (DEPARTURES.md): each misreading's right clauses and the
// general fields it makes wrong in the step where it first shows (a departure is that step:
// what follows from it later, DEPARTURES.md lists but a departure does not show); `check` cases
// whose fields do not tell two misreadings apart are given by hand, from the case's `given`,
// `when` and `note`. A prompt follows from the state: a misreading of the state is not listed
// by `prompts`, only one of the prompts themselves.

const LEFT_OUT_SPEC: Spec = Spec {
    game: GAME,
    engine: "left_out",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["tower.fire"],
            fields: &["tiles.*.robots"],
        },
        Misreading {
            id: "M2",
            right: &["resource.excavator", "resource.settlement"],
            fields: &[
                "prompts",
                "tiles.*.base",
                "tiles.*.robots",
                "tiles.*.owner",
                "tiles.*.bonus",
                "scores",
                "last_replies",
                "outcome",
            ],
        },
        Misreading {
            id: "M3",
            right: &["time.name"],
            fields: &["players[].name", "players[].disqualified"],
        },
    ],
    overrides: &[
        // Towers of the turn start, no build: M1.
        (
            "cedec2013/turnstart/tower-at-distance-one-two-and-three",
            &["M1"],
        ),
        (
            "cedec2013/turnstart/tower-on-a-tile-with-one-robot",
            &["M1"],
        ),
        ("cedec2013/turnstart/tower-hits-enemy-bases-too", &["M1"]),
        ("cedec2013/turnstart/two-towers-add-up", &["M1"]),
        ("cedec2013/turnstart/tower-on-the-ur-and-dr-lines", &["M1"]),
        // Builds that need the excavators' resources, no tower: M2.
        ("cedec2013/build/excavator-adds-a-resource", &["M2"]),
        ("cedec2013/build/town-bonus-with-two-excavators", &["M2"]),
        (
            "cedec2013/build/town-leaves-holes-and-other-players-tiles",
            &["M2"],
        ),
        ("cedec2013/costs/town-at-exactly-its-costs", &["M2"]),
        // The resources column next to an excavator: M2.
        (
            "cedec2013/protocol/prompt-shows-tiles-and-resources",
            &["M2"],
        ),
        // A late name, or none: M3.
        ("cedec2013/time/name-after-5000-ms", &["M3"]),
        ("cedec2013/time/no-name-within-5000-ms", &["M3"]),
    ],
    attribute: None,
    alone: Some(|id| LEFT_OUT.alone(id)),
};

const WRONG_MOMENT_SPEC: Spec = Spec {
    game: GAME,
    engine: "wrong_moment",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &[
                "turn.end-phase",
                "turn.start-factory",
                "turn.start-robotmaker",
                "tower.fire",
            ],
            fields: &["tiles.*.robots"],
        },
        Misreading {
            id: "M2",
            right: &["end.hundred"],
            fields: &["outcome", "player"],
        },
    ],
    overrides: &[],
    attribute: None,
    alone: Some(|id| WRONG_MOMENT.alone(id)),
};

const FRAMES_SPEC: Spec = Spec {
    game: GAME,
    engine: "frames",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &[
                "field.tiles",
                "field.directions",
                "protocol.request",
                "protocol.request-tiles",
            ],
            fields: &[
                "prompts",
                "tiles.*.owner",
                "tiles.*.robots",
                "tiles.*.base",
                "tiles.*.bonus",
                "scores",
                "outcome",
                "last_replies",
            ],
        },
        Misreading {
            id: "M2",
            right: &["time.turn"],
            fields: &["players[].overrun_ms", "players[].out_of_time"],
        },
        Misreading {
            id: "M3",
            right: &["turn.reset"],
            fields: &[
                "tiles.*.owner",
                "tiles.*.robots",
                "tiles.*.base",
                "tiles.*.bonus",
                "scores",
                "outcome",
                "last_replies",
            ],
        },
    ],
    overrides: &[
        // Thinking time over 1000 ms, or exactly 1000: M2.
        ("cedec2013/time/time-over-the-turn-limit-is-summed", &["M2"]),
        ("cedec2013/time/exactly-1000-ms-is-in-time", &["M2"]),
        ("cedec2013/time/overrun-of-exactly-5000-is-allowed", &["M2"]),
        ("cedec2013/time/overrun-past-5000-is-finish-only", &["M2"]),
        // A move, `reset`, then a build, all by seat 0: M3.
        ("cedec2013/turn/reset-frees-the-turn-to-build", &["M3"]),
    ],
    attribute: None,
    alone: Some(|id| FRAMES.alone(id)),
};

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn left_out_is_named_by_its_own_clauses() {
    judged(&LEFT_OUT_SPEC, || LEFT_OUT, 300, GROUPS_BAR);
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn wrong_moment_is_named_by_its_own_clauses() {
    judged(&WRONG_MOMENT_SPEC, || WRONG_MOMENT, 300, GROUPS_BAR);
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn frames_is_named_by_its_own_clauses() {
    judged(&FRAMES_SPEC, || FRAMES, 300, GROUPS_BAR);
}

/// One step of `engine` from `state` (a case's sparse state) with these turns' replies.
fn play(mut engine: impl EngineUnderTest, state: Value, replies: &[Reply]) -> StepResponse {
    let game = shinpan::games::by_id(GAME).expect("cedec2013 is registered");
    let turns: Vec<Vec<Reply>> = replies.iter().map(|r| vec![r.clone()]).collect();
    let request = StepRequest {
        id: "by-hand",
        game,
        state: &state,
        turns: &turns,
        reachable: true,
    };
    match engine.step(request) {
        Answered::Done(response) => response,
        other => panic!("{}: {other:?}", engine.name()),
    }
}

fn robots(response: &StepResponse, tile: &str) -> Value {
    response.state["tiles"][tile]["robots"].clone()
}

/// The line of tile (x, y) in seat `seat`'s prompt.
fn prompt_line(response: &StepResponse, seat: usize, x: i32, y: i32) -> String {
    let prompts = response.prompts.as_ref().expect("prompts");
    let start = format!("{x} {y} ");
    prompts[seat]
        .lines()
        .skip(3)
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no line for ({x}, {y})"))
        .to_string()
}

/// Each misreading of `left_out` does what DEPARTURES.md says, on states worked out by hand.
#[test]
fn left_out_misreads_as_described() {
    // M1: player 0's tower on (0,0), player 1's 5 robots on (1,0); player 2 finishes and
    // player 0's turn starts: the reference takes 2, the misreading nothing.
    let tower = serde_json::json!({"player": 2, "tiles": {
        "0,0": {"owner": 0, "base": "tower"}, "1,0": {"owner": 1, "robots": 5}}});
    let finish = [Reply::text("finish")];
    assert_eq!(robots(&play(Reference, tower.clone(), &finish), "1,0"), 3);
    assert_eq!(robots(&play(LEFT_OUT, tower, &finish), "1,0"), 5);
    // M2: player 0's excavator on (1,0) next to its settlement (0,0) with 4 robots: the
    // reference shows 1 + 1 = 2 resources there, the misreading 1.
    let excavator = serde_json::json!({"tiles": {
        "0,0": {"owner": 0, "robots": 4}, "1,0": {"owner": 0, "base": "excavator"}}});
    let shown = |engine| prompt_line(&play(engine, excavator.clone(), &[]), 0, 0, 0);
    assert_eq!(shown(NONE), "0 0 0 4 2 settlement none");
    assert_eq!(shown(LEFT_OUT), "0 0 0 4 1 settlement none");
    // M3: player 0 names itself after 6000 ms: nanashi and disqualified by the rules, taken
    // by the misreading.
    let names = serde_json::json!({"round": 0});
    let late = [Reply::Text {
        text: "late".into(),
        elapsed_ms: 6000,
    }];
    let player = |engine| play(engine, names.clone(), &late).state["players"][0].clone();
    let reference = player(NONE);
    assert_eq!(
        (&reference["name"], &reference["disqualified"]),
        (&"nanashi".into(), &true.into())
    );
    let misread = player(LEFT_OUT);
    assert_eq!(
        (&misread["name"], &misread["disqualified"]),
        (&"late".into(), &false.into())
    );
}

/// Each misreading of `wrong_moment` does what DEPARTURES.md says, on states worked out by hand.
#[test]
fn wrong_moment_misreads_as_described() {
    // M1: player 0 (factory (0,0), 3 robots) finishes; player 1's factory (2,0) has 0. The
    // reference makes player 1's 5 at its turn start; the misreading player 0's 5 at its end.
    let factories = serde_json::json!({"tiles": {
        "0,0": {"owner": 0, "robots": 3, "base": "initial"},
        "2,0": {"owner": 1, "base": "initial"}}});
    let finish = [Reply::text("finish")];
    let reference = play(Reference, factories.clone(), &finish);
    assert_eq!(
        (robots(&reference, "0,0"), robots(&reference, "2,0")),
        (3.into(), 5.into())
    );
    let misread = play(WRONG_MOMENT, factories, &finish);
    assert_eq!(
        (robots(&misread, "0,0"), robots(&misread, "2,0")),
        (8.into(), 0.into())
    );
    // M2: player 0 holds a town worth 3 + 95 = 98 on (-6,0) and a settlement (0,0) with 1
    // robot: 99 points. It takes (1,0): 100, in seat 0's turn. The reference ends the match, the
    // misreading goes on to player 1.
    let hundred = serde_json::json!({"round": 5, "tiles": {
        "-6,0": {"owner": 0, "base": "town", "bonus": 95},
        "0,0": {"owner": 0, "robots": 1}}});
    let take = [Reply::text("move 0 0 r 1\nfinish")];
    let reference = play(Reference, hundred.clone(), &take);
    assert_eq!(reference.state["outcome"]["reason"], "hundred-points");
    assert_eq!(reference.state["scores"][0], 100);
    let misread = play(WRONG_MOMENT, hundred, &take);
    assert_eq!(
        (&misread.state["outcome"], &misread.state["player"]),
        (&Value::Null, &1.into())
    );
}

/// Each misreading of `frames` does what DEPARTURES.md says, on states worked out by hand.
#[test]
fn frames_misreads_as_described() {
    // M1: seat 1 sends `move 1 0 r 1`. In its frame (the field turned by 240°), (1,0) is the
    // field's (-1,1) and `r` the field's `dl`: its 2 robots on (-1,1) send one to (-2,2). The
    // reference refuses the move: (1,0) is not seat 1's.
    let seat_one = serde_json::json!({"player": 1, "tiles": {"-1,1": {"owner": 1, "robots": 2}}});
    let moved = [Reply::text("move 1 0 r 1\nfinish")];
    let reference = play(Reference, seat_one.clone(), &moved);
    assert_eq!(reference.last_replies, ["rejected"]);
    let misread = play(FRAMES, seat_one, &moved);
    assert_eq!(misread.last_replies, ["accepted"]);
    assert_eq!(misread.state["tiles"]["-2,2"]["owner"], 1);
    assert_eq!(robots(&misread, "-2,2"), 1);
    // ... and seat 1's prompt shows the field's (-1,1) at (1,0) (240°: (-1,1) -> (1,0)).
    assert_eq!(prompt_line(&misread, 1, 1, 0), "1 0 1 1 1 settlement none");
    assert_eq!(
        prompt_line(&misread, 0, -1, 1),
        "-1 1 1 1 1 settlement none"
    );
    // M2: a turn of 300 ms: nothing over 1000 ms to charge by the rules; 300 by the misreading.
    let quick = [Reply::Text {
        text: "finish".into(),
        elapsed_ms: 300,
    }];
    let overrun = |engine| {
        play(engine, serde_json::json!({}), &quick).state["players"][0]["overrun_ms"].clone()
    };
    assert_eq!(overrun(NONE), 0);
    assert_eq!(overrun(FRAMES), 300);
    // M3: a move, `reset`, then a house on (0,0) with 12 robots and 4 resources around: the
    // rules allow the house (12 - 10 = 2 robots left), the misreading refuses it.
    let reset = serde_json::json!({"tiles": {
        "0,0": {"owner": 0, "robots": 12}, "1,0": {"owner": 0},
        "-1,0": {"owner": 0}, "0,1": {"owner": 0}}});
    let lines = [Reply::text("move 0 0 ur 3\nreset\nbuild 0 0 house\nfinish")];
    let reference = play(Reference, reset.clone(), &lines);
    assert_eq!(reference.state["tiles"]["0,0"]["base"], "house");
    assert_eq!(robots(&reference, "0,0"), 2);
    let misread = play(FRAMES, reset, &lines);
    assert_eq!(misread.last_replies, ["rejected"]);
    assert_eq!(misread.state["tiles"]["0,0"]["base"], Value::Null);
    assert_eq!(robots(&misread, "0,0"), 12);
}

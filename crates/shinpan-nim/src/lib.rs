//! Nim, shinpan's test game: the sixth game behind the seam, built only with the `test-games`
//! feature. Its rule document is `RULES.md` beside this file, its cases are in `cases/nim/`
//! (`shinpan check nim --cases crates/shinpan-nim/cases`). It touches nothing outside this folder
//! but its one line in the registry: if adding a game ever needs more, the seam has grown.
//!
//! Two players take objects from heaps in turn (one reply a step); whoever takes the last one
//! wins, and an illegal reply loses at once.

use rand::{Rng, RngCore};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use shinpan_core::seam::{
    capabilities, EdgeCase, EdgeCases, Facts, Frame, FuzzHints, FuzzTargets, Game, GameInfo,
    GameState, NoOptions, Observation, Observed, Outcome, ParseVerdict, Recorded, Reply,
    ReplyVerdict, RuleDocument, StateError, StepReport, StepResult, TimeLimits,
};
use shinpan_core::stepfuzz::{self, Broken, Fuzzed, Play};

mod render;
use shinpan_core::text::{ParseError, Reader};

/// RULES.md 1: three heaps of 1 to 7 objects.
const HEAPS_AT_START: usize = 3;
const MOST_AT_START: u32 = 7;
/// What a state may hold: the prompt's numbers stay small.
const MOST_HEAPS: usize = 10;
const MOST_OBJECTS: u32 = 1000;
/// RULES.md 6: one second a move.
const TURN_MS: u64 = 1000;

pub const LAST_OBJECT: &str = "last-object";
pub const ILLEGAL_MOVE: &str = "illegal-move";

pub struct Nim;

static INFO: GameInfo = GameInfo {
    id: "nim",
    title: "Nim (shinpan's test game)",
    document: RuleDocument {
        title: "Nim, as shinpan's test game",
        source: "crates/shinpan-nim/RULES.md in shinpan",
    },
    protocol: shinpan_core::seam::protocol_page!("crates/shinpan-nim/PROTOCOL.md"),
    players: 2,
    replies_per_step: 1,
    limits: TimeLimits {
        turn_ms: Some(TURN_MS),
        ..TimeLimits::NONE
    },
    handshake: None,
    parse_kinds: &["prompt", "reply"],
    fuzz: FuzzHints {
        numbers: &[0, 1, 2, 6, 7, 8, 9, 10, 11, 999, 1000, 1001],
        replies: &["0 1", "2 7", "0 0", "3 1", "0 -1", "0 1 ", "x"],
    },
    capabilities: capabilities!(Nim: recorded, edge_cases, facts, render; fuzz: FUZZ),
};

/// The whole state of a match.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct State {
    /// The objects left in each heap.
    pub heaps: Vec<u32>,
    /// The player whose move it is.
    pub to_move: usize,
    /// Moves played so far.
    pub turn: u32,
    pub outcome: Option<Outcome>,
}

/// A move: `objects` taken from heap `heap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub heap: usize,
    pub objects: u32,
}

impl GameState for State {
    fn validate(&self) -> Result<(), StateError> {
        if self.heaps.is_empty() || self.heaps.len() > MOST_HEAPS {
            return Err(StateError::at("heaps", format!("1 to {MOST_HEAPS} heaps")));
        }
        if let Some(h) = self.heaps.iter().position(|&n| n > MOST_OBJECTS) {
            return Err(StateError::at(
                format!("heaps[{h}]"),
                format!("at most {MOST_OBJECTS}"),
            ));
        }
        if self.to_move > 1 {
            return Err(StateError::at("to_move", "0 or 1"));
        }
        match &self.outcome {
            Some(outcome) if outcome.winner.is_some_and(|w| w > 1) => {
                Err(StateError::at("outcome.winner", "0, 1 or null"))
            }
            None if self.heaps.iter().all(|&n| n == 0) => Err(StateError::at(
                "outcome",
                "null, but no object is left: the match is over",
            )),
            _ => Ok(()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }
}

impl Game for Nim {
    type State = State;
    type Options = NoOptions;

    fn json_schemas(&self) -> Option<shinpan_core::seam::Schemas> {
        Some(shinpan_core::seam::schemas_of::<State, NoOptions>())
    }

    const INFO: &'static GameInfo = &INFO;

    /// RULES.md 1.
    fn new_match(&self, seed: u64, _: &NoOptions) -> State {
        let mut rng = shinpan_core::rng::seeded(seed, 0);
        State {
            heaps: (0..HEAPS_AT_START)
                .map(|_| rng.random_range(1..=MOST_AT_START))
                .collect(),
            ..State::default()
        }
    }

    fn awaiting(&self, state: &State) -> Vec<usize> {
        match state.outcome {
            Some(_) => Vec::new(),
            None => vec![state.to_move],
        }
    }

    /// RULES.md 5.
    fn prompt(&self, state: &State, _: usize) -> String {
        let mut line = state.heaps.len().to_string();
        for heap in &state.heaps {
            line.push_str(&format!(" {heap}"));
        }
        line + "\n"
    }

    /// RULES.md 6: one line.
    fn frame(&self, _: &State, _: usize, lines: &[&str]) -> Frame {
        Frame::complete_if(!lines.is_empty())
    }

    /// RULES.md 2 to 4.
    fn step(&self, state: &mut State, replies: &[Reply]) -> StepResult {
        let mover = state.to_move;
        let verdict = match replies[0].played() {
            Ok((text, _)) => match parse_move(text) {
                Ok(m) if m.heap < state.heaps.len() && state.heaps[m.heap] >= m.objects => {
                    state.heaps[m.heap] -= m.objects;
                    ReplyVerdict::Accepted
                }
                Ok(m) => ReplyVerdict::Rejected(format!(
                    "heap {} does not hold {} objects",
                    m.heap, m.objects
                )),
                Err(e) => ReplyVerdict::Rejected(e.to_string()),
            },
            Err(missing) => missing,
        };
        state.turn += 1;
        state.to_move = 1 - mover;
        if verdict != ReplyVerdict::Accepted {
            state.outcome = Some(Outcome::won_by(1 - mover, ILLEGAL_MOVE));
        } else if state.heaps.iter().all(|&n| n == 0) {
            state.outcome = Some(Outcome::won_by(mover, LAST_OBJECT));
        }
        Ok(StepReport {
            replies: vec![verdict],
        })
    }

    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        let strict = match kind {
            "prompt" => parse_prompt(input).map(|heaps| {
                self.prompt(
                    &State {
                        heaps,
                        ..State::default()
                    },
                    0,
                )
            }),
            "reply" => parse_move(input).map(|m| format!("{} {}", m.heap, m.objects)),
            _ => return None,
        };
        Some(ParseVerdict::judge(strict, || false))
    }

    fn random_reply(&self, state: &State, _: usize, rng: &mut dyn RngCore) -> String {
        let full: Vec<usize> = (0..state.heaps.len())
            .filter(|&h| state.heaps[h] > 0)
            .collect();
        let Some(&heap) = full.get(rng.random_range(0..full.len().max(1))) else {
            return "0 1".into();
        };
        let objects = rng.random_range(1..=state.heaps[heap]);
        format!("{heap} {objects}")
    }
}

impl Recorded for Nim {
    /// The prompt shows every heap, and goes to the player to move.
    fn observe(&self, prompt: &str, player: usize, known: Option<&State>) -> Observed<State> {
        let heaps = parse_prompt(prompt)?;
        let mut state = known.cloned().unwrap_or_default();
        state.heaps = heaps;
        state.to_move = player.min(1);
        Ok(Observation {
            state,
            shown: vec!["heaps".into(), "to_move".into()],
            drawn: Vec::new(),
        })
    }
}

impl EdgeCases for Nim {
    fn edge_cases(&self) -> Vec<EdgeCase<State>> {
        let edge = |name: &str, heaps: Vec<u32>| EdgeCase {
            name: name.into(),
            seat: 0,
            states: vec![State {
                heaps,
                ..State::default()
            }],
        };
        vec![
            edge("one-object-left", vec![1]),
            edge("most-heaps-most-objects", vec![MOST_OBJECTS; MOST_HEAPS]),
            edge("empty-heaps-around-one", vec![0, 0, 5, 0]),
        ]
    }
}

impl Facts for Nim {
    /// `heaps` (how many), `objects` (in all) and `each_in_1_to_7`.
    fn facts(&self, state: &State) -> serde_json::Value {
        serde_json::json!({
            "heaps": state.heaps.len(),
            "objects": state.heaps.iter().map(|&n| u64::from(n)).sum::<u64>(),
            "each_in_1_to_7": state.heaps.iter().all(|&n| (1..=MOST_AT_START).contains(&n)),
        })
    }
}

/// RULES.md 5: `count h0 h1 ...`, the count matching.
fn parse_prompt(input: &str) -> Result<Vec<u32>, ParseError> {
    let mut reader = Reader::new(input);
    let mut line = reader.line("the heaps")?;
    let count = line.number("the number of heaps", 1..=MOST_HEAPS as u64)?;
    let mut heaps = Vec::new();
    for _ in 0..count {
        let heap = line.number("a heap's size", 0..=u64::from(MOST_OBJECTS))?;
        heaps.push(heap as u32);
    }
    line.end()?;
    reader.finish()?;
    Ok(heaps)
}

/// RULES.md 6: `heap objects`.
fn parse_move(input: &str) -> Result<Move, ParseError> {
    let mut line = shinpan_core::text::Line::whole(input);
    let heap = line.number("a heap", 0..=MOST_HEAPS as u64 - 1)?;
    let objects = line.number("a number of objects", 1..=u64::from(MOST_OBJECTS))?;
    line.end()?;
    Ok(Move {
        heap: heap as usize,
        objects: objects as u32,
    })
}

/// The fuzz bodies ([`stepfuzz::targets`]): what parses prints back to itself; a few steps from
/// any small state keep the state valid, never add an object, and pass the move to the other
/// player.
static FUZZ: FuzzTargets = stepfuzz::targets::<Nim>();

impl Fuzzed for Nim {
    const GAME: Self = Nim;
    type Play = FuzzedMove;

    fn replies(text: &str) {
        stepfuzz::parses_back(&Nim, "reply", text);
    }

    fn check_invariants(before: &State, after: &State) -> Result<(), Broken> {
        Nim.validate(after).map_err(|e| e.to_string())?;
        let objects = |s: &State| s.heaps.iter().map(|&n| u64::from(n)).sum::<u64>();
        if objects(after) > objects(before) || after.heaps.len() != before.heaps.len() {
            return Err("objects came from nowhere".into());
        }
        if after.to_move == before.to_move || after.turn != before.turn + 1 {
            return Err("the move did not pass to the other player".into());
        }
        stepfuzz::canonical_round_trip(after)
    }

    /// A valid state in play: 1 to 10 heaps, not all empty.
    fn arbitrary_state(u: &mut arbitrary::Unstructured) -> arbitrary::Result<State> {
        let count = u.int_in_range(1..=MOST_HEAPS)?;
        let mut heaps = Vec::with_capacity(count);
        for _ in 0..count {
            heaps.push(u.int_in_range(0..=MOST_OBJECTS)?);
        }
        if heaps.iter().all(|&n| n == 0) {
            heaps[0] = 1;
        }
        Ok(State {
            heaps,
            to_move: u.int_in_range(0..=1)?,
            turn: u.int_in_range(0..=100)?,
            outcome: None,
        })
    }
}

/// A move near the heaps' ranges, sometimes past them.
#[derive(Debug, arbitrary::Arbitrary)]
pub struct FuzzedMove {
    heap: u8,
    objects: u16,
}

impl Play<State> for FuzzedMove {
    fn into_reply(self, _: &State) -> Reply {
        let heap = usize::from(self.heap) % (MOST_HEAPS + 2);
        let objects = u32::from(self.objects) % (MOST_OBJECTS + 2);
        Reply::text(format!("{heap} {objects}"))
    }
}

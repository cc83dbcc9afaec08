//! CEDEC CHALLENGE 2013 "Terraforming" (AI-COMP), rule document seed 002 (the detailed rules),
//! completed by the `D-cedec-*` decisions of `shared/spec-notes.md`, which bring in the base
//! list and the protocol from the official QUICKSTART.
//!
//! Three players take turns on a hexagonal asteroid of 127 tiles. Each starts with a factory
//! making 5 robots a turn. In its turn a player either moves any of its robots one tile each —
//! taking wasteland, fighting over enemy settlements by numbers, falling into holes — or builds
//! one base on a tile it holds, paying robots on the tile and needing resources from its own
//! settlements around it. Settlements score 1, bases 3, towns a bonus. The match ends when
//! someone reaches 100 points or after 200 rounds; the highest score wins, ties going to the
//! player who moves later.
//!
//! Seam mapping: one step is one player's name (round 0) or one player's whole turn; the reply
//! is its command lines up to and including `finish`.

pub mod edge;
pub mod engine;
pub mod fuzz;
pub mod mapgen;
pub mod observe;
pub mod protocol;
pub mod render;
pub mod rules;
pub mod state;
pub mod tally;
pub mod variants;

use rand::{Rng, RngCore};

use crate::seam::Reply;
use crate::seam::{
    capabilities, Facts, Frame, FuzzHints, Game, GameInfo, NoOptions, ParseVerdict, RuleDocument,
    StepResult, TimeLimits, Variant, VariantSet, Variants,
};
use engine::{apply, Turn};
use protocol::{is_finish, parse_name, Command, Request};
use rules::{Base, Direction, COORDS};
use state::State;
use tally::resources_around;

pub struct Cedec2013;

static INFO: GameInfo = GameInfo {
    id: "cedec2013",
    title: "CEDEC CHALLENGE 2013 \"Terraforming\"",
    document: RuleDocument {
        title: "CEDEC CHALLENGE 2013 \"Terraforming\": 詳細ルール (detailed rules, DETAILED_RULES.jp.md) and クイックルール (quick rules, QUICKSTART_RULES.jp.md), by AI-COMP",
        source: "the official engine's repository, github.com/AI-comp/Terraforming",
    },
    protocol: crate::seam::protocol_page!("docs/protocol/cedec2013.md"),
    players: 3,
    // Players move in turn: one reply a step, from `awaiting`'s one player.
    replies_per_step: 1,
    // D-cedec-11: 5 s for the name, 1 s a turn, 5 s of overrun over the match. The name is
    // each player's first reply, to the round-0 request (a step like any other, so there is
    // no separate handshake).
    limits: TimeLimits {
        first_turn_ms: Some(rules::NAME_LIMIT_MS),
        turn_ms: Some(rules::TURN_LIMIT_MS),
        pool_ms: Some(rules::OVERRUN_POOL_MS),
        ..TimeLimits::NONE
    },
    handshake: None,
    parse_kinds: &["request", "command", "name"],
    fuzz: FuzzHints {
        // Base costs in robots and resources (4, 5, 9, 10, 15, 25, 50), the 5 robots a turn,
        // the 100-point end, the 200 rounds, the field's radius 6.
        numbers: &[
            0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 14, 15, 24, 25, 49, 50, 99, 100, 199, 200,
        ],
        replies: &[
            "finish",
            "reset\nfinish",
            "move 0 0 r 1\nfinish",
            "build 0 0 town\nfinish",
        ],
    },
    capabilities: capabilities!(Cedec2013:
        recorded, variants, edge_cases, facts, render; fuzz: fuzz::TARGETS),
};

impl Game for Cedec2013 {
    type State = State;

    type Options = NoOptions;

    const INFO: &'static GameInfo = &INFO;

    fn new_match(&self, seed: u64, _: &NoOptions) -> State {
        State {
            round: 0,
            tiles: mapgen::generate(seed),
            ..State::default()
        }
    }

    fn awaiting(&self, state: &State) -> Vec<usize> {
        if state.outcome.is_some() {
            Vec::new()
        } else {
            vec![state.player]
        }
    }

    fn prompt(&self, state: &State, player: usize) -> String {
        Request::of(state, player).print()
    }

    fn frame(&self, state: &State, _: usize, lines: &[&str]) -> Frame {
        // Round 0: the name is one line. Later: everything up to a `finish` line.
        Frame::complete_if(if state.round == 0 {
            !lines.is_empty()
        } else {
            lines.iter().any(|l| is_finish(l))
        })
    }

    fn step(&self, state: &mut State, replies: &[Reply]) -> StepResult {
        engine::step_with(state, replies, variants::Wrongs::NONE)
    }

    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        let verdict = match kind {
            "request" => ParseVerdict::judge(Request::parse(input).map(|r| r.print()), || false),
            "command" => ParseVerdict::judge(Command::parse(input).map(|c| c.print()), || {
                Command::parse_lenient(input).is_ok()
            }),
            // The engine trims the line and keeps 20 characters; only a blank line fails.
            "name" => ParseVerdict::judge(parse_name(input).map(str::to_string), || {
                !protocol::java_trim(input).is_empty() && !input.contains('\n')
            }),
            _ => return None,
        };
        Some(verdict)
    }

    fn random_reply(&self, state: &State, player: usize, rng: &mut dyn RngCore) -> String {
        if state.round == 0 {
            return format!("random{player}");
        }
        random_turn(state, player, rng).join("\n")
    }
}

impl Variants for Cedec2013 {
    const VARIANTS: &'static [Variant] = variants::Wrong::VARIANTS;

    fn step_variant(&self, state: &mut State, replies: &[Reply], set: VariantSet) -> StepResult {
        engine::step_with(state, replies, set)
    }
}

impl Facts for Cedec2013 {
    /// `holes`, `holes_per_third`, `robots` (on the whole
    /// field), `tiles_by_landform`, `centre_is_hole`, `factories` (and `factory_owners`),
    /// `rotation_symmetric` (a 120° turn maps every tile onto one of the same kind, owner
    /// shifted by one), `land` (non-hole tiles), `reachable_land` (of those, the ones joined to
    /// player 0's factory through non-hole tiles), `reachable_more_than_half`, `factories_connected`,
    /// `accepted_by_generator` (both of the last two: the whole-map test of D-cedec-8, so a case
    /// can give a map and ask whether the generator would keep it).
    fn facts(&self, state: &State) -> serde_json::Value {
        mapgen::facts(&state.tiles)
    }
}

/// The built-in player: a few legal moves or one legal build, then `finish`. Each command is
/// tried on a scratch copy with the engine's own rules, so only accepted ones are printed.
fn random_turn(state: &State, p: usize, rng: &mut dyn RngCore) -> Vec<String> {
    let mut tiles = state.tiles.clone();
    let mut turn = Turn::new(p);
    let mut lines = Vec::new();
    let own: Vec<usize> = (0..COORDS.len())
        .filter(|&i| tiles.0[i].owned_by(p))
        .collect();
    if rng.random_ratio(1, 4) {
        let affordable: Vec<(usize, Base)> = own
            .iter()
            .flat_map(|&i| Base::BUILDABLE.into_iter().map(move |b| (i, b)))
            .filter(|&(i, b)| {
                let t = &tiles.0[i];
                t.base.is_none()
                    && t.hole == (b == Base::Bridge)
                    && t.robots >= b.robot_cost()
                    && resources_around(&tiles, i, p) >= b.resource_cost()
            })
            .collect();
        if !affordable.is_empty() {
            let (i, base) = affordable[rng.random_range(0..affordable.len())];
            let (x, y) = COORDS[i];
            let command = Command::Build {
                x: i32::from(x),
                y: i32::from(y),
                base,
            };
            if apply(&mut tiles, &mut turn, command).is_ok() {
                lines.push(command.print());
            }
            lines.push(Command::Finish.print());
            return lines;
        }
    }
    let moves = rng.random_range(0..=6);
    for _ in 0..moves {
        let movable: Vec<usize> = own
            .iter()
            .copied()
            .filter(|&i| !tiles.0[i].hole && tiles.0[i].robots > turn.moved[i])
            .collect();
        if movable.is_empty() {
            break;
        }
        let from = movable[rng.random_range(0..movable.len())];
        let dir = Direction::ALL[rng.random_range(0..6)];
        let free = tiles.0[from].robots - turn.moved[from];
        let robots = rng.random_range(1..=free);
        let (x, y) = COORDS[from];
        let command = Command::Move {
            x: i32::from(x),
            y: i32::from(y),
            dir,
            robots: robots as i32,
        };
        if apply(&mut tiles, &mut turn, command).is_ok() {
            lines.push(command.print());
        }
    }
    lines.push(Command::Finish.print());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_match_waits_for_player_0s_name() {
        let state = Cedec2013.new_match(3, &NoOptions {});
        assert_eq!((state.round, state.player), (0, 0));
        assert_eq!(Cedec2013.awaiting(&state), vec![0]);
        assert!(Cedec2013
            .prompt(&state, 0)
            .starts_with("START\n0 200 0\n7 127\n"));
    }

    #[test]
    fn a_turn_is_framed_by_finish() {
        let state = State::default();
        let game = Cedec2013;
        assert_eq!(game.frame(&state, 0, &["move 0 0 r 1"]), Frame::NeedMore);
        assert_eq!(
            game.frame(&state, 0, &["move 0 0 r 1", "finish"]),
            Frame::Complete
        );
    }
}

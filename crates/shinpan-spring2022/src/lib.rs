//! CodinGame Spring Challenge 2022 ("Spider Attack"), rule document seed 003 — a blogger's
//! summary — with the official referee (CodinGame/SpringChallenge2022, final commit of
//! 2022-04-28) as the authority, summarised in the `D-spring-*` decisions of
//! `shared/spec-notes.md`.
//!
//! Two players each defend a base in a corner of a 17630 × 9000 map with three heroes. Mobs
//! ("spiders") come in from the edges in mirrored pairs every five turns and walk straight on;
//! within 5000 of a base they head for it and a mob that comes within 300 costs that base one
//! of its 3 health. Heroes MOVE up to 800 a turn and hit every mob within 800 for 2, earning a
//! mana per damage point; ten mana buys a spell: WIND pushes what is near, SHIELD protects from
//! spells for 12 turns, CONTROL takes over an entity's next move. A base at 0 loses; after 220
//! turns more base health wins, then more mana earned far from home. The engine plays the
//! referee's game to the bit: its `f64` geometry, its truncations, its `java.util.Random`.
//!
//! Seam mapping: one step is one turn; both players reply, three lines each. The match seed is
//! the referee's `long` seed (the `u64`'s bits), the league a match option.

/// The seam this game is played through (`seam::Game`: `new_match`, `step`, `prompt`, …), so
/// that a program depending on this crate alone can use it.
pub use shinpan_core::seam;

pub mod edge;
pub mod engine;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod geometry;
pub mod jrandom;
pub mod message;
pub mod observe;
pub mod player;
pub mod protocol;
mod reading;
pub mod render;
pub mod rules;
pub mod spawn;
pub mod spells;
pub mod state;
pub mod trig;
pub mod variants;
pub mod vision;

use rand::RngCore;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use jrandom::scramble;
use protocol::{read_order, Order, Prompt};
use rules::{League, HEROES_PER_PLAYER};
use shinpan_core::seam::{
    capabilities, Facts, Frame, FuzzHints, Game, GameInfo, ParseVerdict, Reply, RuleDocument,
    StepResult, TimeLimits, Variant, VariantSet, Variants,
};
use state::State;

pub struct Spring2022;

/// The match options.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The league (D-spring-10): `wood2` (MOVE and WAIT, no fog, no tie-break), `wood1` (WIND,
    /// fog, the wild-mana tie-break) or `bronze+` (the whole game, the default).
    pub league: League,
}

static INFO: GameInfo = GameInfo {
    id: "spring2022",
    title: "CodinGame Spring Challenge 2022",
    document: RuleDocument {
        title: "Spring Challenge 2022 statement and referee, CodinGame; with tsukammo's summary 「codingame:Spring Challenge 2022 ルール要約&モンスター生成ロジック」",
        source: "codingame.com/contests/spring-challenge-2022; the official referee, github.com/CodinGame/SpringChallenge2022, is the authority",
    },
    protocol: shinpan_core::seam::protocol_page!("docs/protocol/spring2022.md"),
    players: 2,
    replies_per_step: 2,
    // D-spring-1: 1000 ms for the first reply, 50 ms for the others. The bot prints nothing
    // before its first prompt.
    limits: TimeLimits {
        first_turn_ms: Some(rules::FIRST_TURN_MS),
        turn_ms: Some(rules::TURN_MS),
        ..TimeLimits::NONE
    },
    handshake: None,
    parse_kinds: &["prompt", "reply", "command"],
    fuzz: FuzzHints {
        // The ranges and radii on both sides (300, 800, 1280, 2200, 5000, 6000), the map's
        // edges and the 800 beyond them, the spell cost, the shield's 12 turns, the turns 200
        // and 220, and the ends of 32 bits.
        numbers: &[
            -801,
            -800,
            -799,
            -1,
            0,
            1,
            2,
            9,
            10,
            11,
            12,
            13,
            199,
            200,
            219,
            220,
            299,
            300,
            301,
            399,
            400,
            799,
            800,
            801,
            1279,
            1280,
            1281,
            2199,
            2200,
            2201,
            4999,
            5000,
            5001,
            5999,
            6000,
            6001,
            8815,
            9000,
            9001,
            9800,
            17630,
            17631,
            18430,
            18431,
            2147483647,
            -2147483648,
        ],
        replies: &[
            "WAIT\nWAIT\nWAIT",
            "MOVE 0 0\nMOVE 17630 9000\nWAIT",
            "SPELL WIND 17630 9000\nSPELL SHIELD 0\nSPELL CONTROL 6 0 0",
            "MOVE 2147483648 0\nWAIT\nWAIT",
            "WAIT hi\nWAIT\n",
            "move 1 1\nWAIT\nWAIT",
        ],
    },
    capabilities: capabilities!(Spring2022:
        recorded, variants, edge_cases, facts, render; fuzz: fuzz::TARGETS),
};

impl Game for Spring2022 {
    #[cfg(feature = "schema")]
    fn json_schemas(&self) -> Option<shinpan_core::seam::Schemas> {
        Some(shinpan_core::seam::schemas_of::<Self::State, Self::Options>())
    }

    type State = State;

    type Options = Options;

    const INFO: &'static GameInfo = &INFO;

    /// The referee's `new Random(seed)` with the seed's bits read as a Java `long`.
    fn new_match(&self, seed: u64, options: &Options) -> State {
        State {
            league: options.league,
            rng: scramble(seed as i64),
            ..State::default()
        }
    }

    fn prompt(&self, state: &State, player: usize) -> String {
        vision::prompt_of(state, player).print()
    }

    /// D-spring-9: a reply is three lines, one per hero.
    fn frame(&self, _: &State, _: usize, lines: &[&str]) -> Frame {
        Frame::complete_if(lines.len() >= HEROES_PER_PLAYER)
    }

    fn step(&self, state: &mut State, replies: &[Reply]) -> StepResult {
        engine::step_with(state, replies, variants::Wrongs::NONE)
    }

    /// The engine's leniency is judged in the full game (bronze+), where every command exists.
    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        let engine_reads = |line: &str| read_order(line, League::Bronze).is_ok();
        let verdict = match kind {
            "prompt" => ParseVerdict::judge(Prompt::parse(input).map(|p| p.print()), || false),
            "reply" => {
                ParseVerdict::judge(protocol::Reply::parse(input).map(|r| r.print()), || {
                    let lines: Vec<&str> = input.split('\n').collect();
                    lines.len() >= HEROES_PER_PLAYER
                        && lines[..HEROES_PER_PLAYER].iter().all(|l| engine_reads(l))
                })
            }
            "command" => ParseVerdict::judge(Order::parse(input).map(|o| o.print()), || {
                engine_reads(input)
            }),
            _ => return None,
        };
        Some(verdict)
    }

    fn random_reply(&self, state: &State, player: usize, rng: &mut dyn RngCore) -> String {
        player::reply(state, player, rng)
    }
}

impl Variants for Spring2022 {
    const VARIANTS: &'static [Variant] = variants::Wrong::VARIANTS;

    fn step_variant(&self, state: &mut State, replies: &[Reply], set: VariantSet) -> StepResult {
        engine::step_with(state, replies, set)
    }

    fn prompt_variant(&self, state: &State, player: usize, set: VariantSet) -> String {
        let through_fog = set.has(variants::Wrong::HeroesSeenThroughFog);
        vision::prompt_seeing(state, player, through_fog).print()
    }
}

impl Facts for Spring2022 {
    /// `mobs` (how many), `visible_mobs` (to each player), `next_wave_turn` (the turn at whose
    /// end the next wave comes), `next_wave` (its four mobs: `x`, `y`, `vx`, `vy`, `health`, as
    /// drawn from the state's generator if no WIND redirection draws first), `next_wave_mirrored`
    /// (each pair mirror images through the centre, speeds opposite) and `next_wave_within_75`
    /// (every speed within 75° of straight into the map, outside sudden death).
    fn facts(&self, state: &State) -> serde_json::Value {
        let mut spawner = state.spawner.clone();
        let mut rng = state.random();
        let turn = (state.turn..=rules::TURNS + 5)
            .find(|&t| spawn::wave_due(&spawner, t))
            .unwrap_or(state.turn);
        let wave = spawn::wave(&mut spawner, &mut rng, turn);
        let centre = rules::CENTRE;
        let mirrored = wave.chunks(2).all(|pair| {
            pair[1].position == pair[0].position.symmetric(centre)
                && pair[1].speed == pair[0].speed.mult(-1.0)
        });
        let within = turn >= rules::SUDDEN_DEATH_TURN
            || wave.iter().all(|s| {
                let inward = if s.position.y < 0.0 { 1.0 } else { -1.0 };
                let cos = s.speed.y * inward / s.speed.length();
                cos >= (rules::SPAWN_MAX_DELTA).cos() - 0.01
            });
        let visible: Vec<usize> = (0..2)
            .map(|p| {
                state
                    .mobs
                    .iter()
                    .filter(|m| vision::player_sees(state, p, m.pos(), None))
                    .count()
            })
            .collect();
        json!({
            "mobs": state.mobs.len(),
            "visible_mobs": visible,
            "next_wave_turn": turn,
            "next_wave": wave.iter().map(|s| json!({
                "x": number(s.position.x), "y": number(s.position.y),
                "vx": number(s.speed.x), "vy": number(s.speed.y), "health": s.health,
            })).collect::<Vec<_>>(),
            "next_wave_mirrored": mirrored,
            "next_wave_within_75": within,
        })
    }
}

/// A number for the facts: an integer when it is one, as the canonical state writes it.
fn number(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 && x.abs() < 9e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_prompt_starts_with_the_base_and_the_hero_count() {
        let state = Spring2022.new_match(42, &Options::default());
        let prompt = Spring2022.prompt(&state, 1);
        assert!(
            prompt.starts_with("17630 9000\n3\n3 0\n3 0\n3\n3 1 16499 7869 "),
            "{prompt}"
        );
    }

    #[test]
    fn three_lines_make_a_reply() {
        let state = State::default();
        assert_eq!(
            Spring2022.frame(&state, 0, &["WAIT", "WAIT"]),
            Frame::NeedMore
        );
        assert_eq!(
            Spring2022.frame(&state, 0, &["WAIT", "WAIT", "WAIT"]),
            Frame::Complete
        );
    }
}

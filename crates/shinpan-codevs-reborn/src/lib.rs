//! CODE VS Reborn 予選 (2019), rule document seed 004, completed by the `D-reborn-*` decisions
//! of `shared/spec-notes.md`.
//!
//! Two players each stack 2×2 packs of numbered blocks on their own 10×16 field. Neighbouring
//! blocks (in eight directions) that sum to 10 vanish, and what falls into the gaps may vanish
//! again: a chain. Chains score, fill a skill gauge that can blow up every 5 on the field, and
//! send unvanishable ojama blocks to the opponent. Both players move at once every turn; a field
//! reaching the 17th row loses; after 500 turns the score decides.

/// The seam this game is played through (`seam::Game`: `new_match`, `step`, `prompt`, …), so
/// that a program depending on this crate alone can use it.
pub use shinpan_core::seam;

pub mod edge;
pub mod engine;
pub mod field;
#[cfg(test)]
mod field_model;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod observe;
pub mod protocol;
pub mod reachable;
pub mod render;
pub mod rules;
pub mod state;
pub mod variants;

use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use protocol::{parse_ai_name, Command, GameStart, Prompt, TurnInput};
use rules::{
    BLOCKS_PER_VALUE, FOUR_BLOCK_PACKS, MAX_POSITION, MAX_ROTATION, PACKS, QUALIFIER_TURN_LIMIT_MS,
    SKILL_THRESHOLD, THINKING_TIME_MS, THREE_BLOCK_PACKS,
};
use shinpan_core::seam::{
    capabilities, Facts, Frame, FuzzHints, Game, GameInfo, Handshake, NoOptions, Normalize,
    ParseVerdict, Reachability, Reply, RuleDocument, StateError, StepResult, TimeLimits, Variant,
    VariantSet, Variants,
};
use state::{Pack, State};

pub struct CodevsReborn;

static INFO: GameInfo = GameInfo {
    id: "codevs-reborn",
    title: "CODE VS Reborn (qualifier, 2019)",
    document: RuleDocument {
        title: "CODE VS Reborn 予選 (the qualifier's rules), client ver. 1.0, revised 2019-04-16",
        source: "Recruit's CODE VS Reborn contest (2019); a copy of the PDF is public as rule.pdf in github.com/togatoga/codevs_reborn",
    },
    protocol: shinpan_core::seam::protocol_page!("docs/protocol/codevs-reborn.md"),
    players: 2,
    replies_per_step: 2,
    // 「思考時間の制限について」: 3 minutes a match, and 20 s a turn in the online qualifier.
    limits: TimeLimits {
        turn_ms: Some(QUALIFIER_TURN_LIMIT_MS),
        total_ms: Some(THINKING_TIME_MS),
        ..TimeLimits::NONE
    },
    // 「AI名について」: the AI prints its name first, before any input.
    handshake: Some(Handshake::NAME_FIRST),
    parse_kinds: &["reply", "name", "turn", "packs", "prompt"],
    fuzz: FuzzHints {
        // Both sides of the document's ranges and thresholds: positions 0..=8, rotations 0..=3,
        // sum 10, ojama 11 and a row of 10, the gauge's 80 and 100, the 500 turns.
        numbers: &[
            0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 19, 20, 79, 80, 99, 100, 101, 499, 500,
        ],
        replies: &["S", "S 0", "9 0", "0 4", "-1 0"],
    },
    capabilities: capabilities!(CodevsReborn:
        recorded, variants, reachability, normalize, edge_cases, facts, render; fuzz: fuzz::TARGETS),
};

impl Game for CodevsReborn {
    #[cfg(feature = "schema")]
    fn json_schemas(&self) -> Option<shinpan_core::seam::Schemas> {
        Some(shinpan_core::seam::schemas_of::<Self::State, Self::Options>())
    }

    type State = State;

    type Options = NoOptions;

    const INFO: &'static GameInfo = &INFO;

    fn new_match(&self, seed: u64, _: &NoOptions) -> State {
        State {
            packs: generate_packs(seed),
            ..State::default()
        }
    }

    fn prompt(&self, state: &State, player: usize) -> String {
        let start = (state.turn == 0).then(|| GameStart {
            packs: state.packs.clone(),
        });
        Prompt {
            start,
            turn: TurnInput::of(state, player),
        }
        .print()
    }

    fn frame(&self, _: &State, _: usize, lines: &[&str]) -> Frame {
        // 「命令文の書式」: every reply is one line.
        Frame::complete_if(!lines.is_empty())
    }

    fn step(&self, state: &mut State, replies: &[Reply]) -> StepResult {
        engine::step_with(state, replies, variants::Wrongs::NONE)
    }

    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        let strict_only = || false;
        let verdict = match kind {
            "reply" => ParseVerdict::judge(Command::parse(input).map(|c| c.print()), || {
                Command::parse_lenient(input).is_ok()
            }),
            // As with replies (D-reborn-9), the engine takes a name whose line ends in CR LF:
            // non-strict, not invalid.
            "name" => ParseVerdict::judge(parse_ai_name(input).map(str::to_string), || {
                parse_ai_name(input.strip_suffix('\r').unwrap_or(input)).is_ok()
            }),
            "turn" => {
                ParseVerdict::judge(TurnInput::parse(input).map(|t| t.to_text()), strict_only)
            }
            "packs" => {
                let printed = GameStart::parse(input).map(|g| {
                    let mut out = String::new();
                    g.print(&mut out);
                    out
                });
                ParseVerdict::judge(printed, strict_only)
            }
            "prompt" => ParseVerdict::judge(Prompt::parse(input).map(|p| p.print()), strict_only),
            _ => return None,
        };
        Some(verdict)
    }

    fn random_reply(&self, state: &State, player: usize, rng: &mut dyn RngCore) -> String {
        let gauge = state.players.get(player).map_or(0, |p| p.skill_gauge);
        if gauge >= SKILL_THRESHOLD && rng.random_bool(0.5) {
            return Command::Skill.print();
        }
        let position = rng.random_range(0..=MAX_POSITION);
        let rotation = rng.random_range(0..=MAX_ROTATION);
        Command::Drop { position, rotation }.print()
    }
}

impl Variants for CodevsReborn {
    const VARIANTS: &'static [Variant] = variants::Wrong::VARIANTS;

    fn step_variant(&self, state: &mut State, replies: &[Reply], set: VariantSet) -> StepResult {
        engine::step_with(state, replies, set)
    }
}

impl Reachability for CodevsReborn {
    /// [`reachable::reachable`]: a settled field, packs of 3 or 4 blocks, never both ojama
    /// stocks non-zero.
    fn reachable(&self, state: &State) -> Result<(), StateError> {
        reachable::reachable(state)
    }
}

impl Normalize for CodevsReborn {
    /// A field in `then` may be written as `given` accepts it: all 16 rows, empty top rows
    /// included. It is brought to the canonical form (from the highest block down) here; a text
    /// that is no field is left as written, for the comparison to report.
    fn normalize_expectation(&self, expected: &mut serde_json::Value) {
        let players = expected
            .get_mut("players")
            .and_then(serde_json::Value::as_array_mut);
        for player in players.into_iter().flatten() {
            let Some(field) = player.get_mut("field") else {
                continue;
            };
            if let Some(canonical) = field
                .as_str()
                .and_then(|text| field::Field::from_text(text).ok())
            {
                *field = canonical.to_text().into();
            }
        }
    }
}

impl Facts for CodevsReborn {
    /// `packs`: how many; `packs_by_blocks`: how many packs hold 0..=4 blocks;
    /// `blocks_by_value`: how many blocks of each value 1..=9 over all packs.
    fn facts(&self, state: &State) -> serde_json::Value {
        let mut by_blocks = [0usize; 5];
        let mut by_value = [0usize; 10];
        for pack in &state.packs {
            let cells = pack.0.iter().flatten().filter(|&&v| v != 0);
            by_blocks[cells.clone().count()] += 1;
            cells.for_each(|&v| by_value[usize::from(v)] += 1);
        }
        let by_value: serde_json::Map<String, serde_json::Value> = (1..=9)
            .map(|v| (v.to_string(), by_value[v].into()))
            .collect();
        let by_blocks: serde_json::Map<String, serde_json::Value> = (0..=4)
            .map(|n| (n.to_string(), by_blocks[n].into()))
            .collect();
        serde_json::json!({
            "packs": state.packs.len(),
            "packs_by_blocks": by_blocks,
            "blocks_by_value": by_value,
        })
    }
}

/// 「パックの生成について」 (D-reborn-10): 180 blocks of each value shuffled into 380 packs of three
/// and 120 of four, in random order, each pack's blocks in random cells of its 2×2.
pub fn generate_packs(seed: u64) -> Vec<Pack> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut blocks: Vec<u8> = (1..=9u8)
        .flat_map(|v| std::iter::repeat_n(v, BLOCKS_PER_VALUE))
        .collect();
    blocks.shuffle(&mut rng);
    let mut sizes: Vec<usize> = std::iter::repeat_n(3, THREE_BLOCK_PACKS)
        .chain(std::iter::repeat_n(4, FOUR_BLOCK_PACKS))
        .collect();
    sizes.shuffle(&mut rng);
    debug_assert_eq!(sizes.len(), PACKS);
    let mut blocks = blocks.into_iter();
    sizes
        .into_iter()
        .map(|size| {
            let mut cells = [0u8; 4];
            let mut slots = [0usize, 1, 2, 3];
            slots.shuffle(&mut rng);
            for &slot in &slots[..size] {
                cells[slot] = blocks.next().unwrap_or(0);
            }
            Pack([[cells[0], cells[1]], [cells[2], cells[3]]])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_packs_follow_the_document() {
        let packs = generate_packs(7);
        assert_eq!(packs.len(), 500);
        let mut per_value = [0usize; 10];
        let mut by_size = [0usize; 5];
        for pack in &packs {
            let cells: Vec<u8> = pack
                .0
                .iter()
                .flatten()
                .copied()
                .filter(|&v| v != 0)
                .collect();
            by_size[cells.len()] += 1;
            for v in cells {
                per_value[usize::from(v)] += 1;
            }
        }
        assert_eq!(per_value[1..], [180; 9]);
        assert_eq!((by_size[3], by_size[4]), (380, 120));
        assert_ne!(generate_packs(8), packs, "the seed decides the packs");
        assert_eq!(
            generate_packs(7),
            packs,
            "the same seed gives the same packs"
        );
    }

    #[test]
    fn a_then_field_in_sixteen_rows_is_brought_to_the_canonical_form() {
        let full = format!("{}1.....X...\n", "..........\n".repeat(15));
        let mut then = serde_json::json!({
            "players": [{"field": full, "score": 1}, {"field": {"$ne": 0}}, {"field": "1\n"}],
            "turn": 1,
        });
        CodevsReborn.normalize_expectation(&mut then);
        assert_eq!(then["players"][0]["field"], "1.....X...\n");
        assert_eq!(then["players"][0]["score"], 1);
        // What is no field text stays as written, for the comparison to report.
        assert_eq!(then["players"][1]["field"], serde_json::json!({"$ne": 0}));
        assert_eq!(then["players"][2]["field"], "1\n");
    }

    #[test]
    fn rotation_figure_of_the_document() {
        assert_eq!(Pack([[9, 5], [0, 3]]).rotated(1), Pack([[0, 9], [3, 5]]));
        assert_eq!(Pack([[9, 5], [0, 3]]).rotated(4), Pack([[9, 5], [0, 3]]));
    }
}

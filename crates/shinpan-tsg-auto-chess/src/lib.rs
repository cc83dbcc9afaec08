//! TSG AUTO CHESS (fiord, TSG LIVE! 3, 2019), rule document seed 001 (the README of
//! fiord/tsg-auto-chess), completed by the `D-tsg-*` decisions of `shared/spec-notes.md`.
//!
//! Two players face each other on a 15×15 board, each with a king (HP 100, ATK 20, range 3) in
//! the middle of its home row. Every turn both get gold, then both reply at once with one
//! command — buy an assassin, a warrior or a mage from their own shop onto a cell near their
//! king, evolve three units of one type into one stronger unit, or level up for more room and
//! stronger shop units — and one move for any of their units. Moves go in ascending id, then
//! every unit hits every enemy in its range at once (assassin beats mage beats warrior beats
//! assassin), and the dead leave the board. A dead king loses; after 1000 turns the king with
//! more HP wins. Each player reads and writes the board in its own frame, its king at (7, 0).
//!
//! The official engine (main.rb) departs from this document in many places; the case library's
//! `rules.yaml` names each departure under the clause it breaks.
//!
//! Seam mapping: one step is one turn, both players' replies at once (player 0's command is
//! carried out first); the name is the handshake, printed before the first prompt.

/// The seam this game is played through (`seam::Game`: `new_match`, `step`, `prompt`, …), so
/// that a program depending on this crate alone can use it.
pub use shinpan_core::seam;

pub mod edge;
pub mod engine;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod import;
pub mod known;
pub mod main_rb;
pub mod main_rb_grid;
pub mod main_rb_reply;
pub mod observe;
pub mod player;
pub mod protocol;
pub mod render;
pub mod rules;
pub mod state;
pub mod variants;

use rand::RngCore;

use protocol::{parse_name, Prompt, TurnReply};
use rules::{draw_price, Kind, THINKING_TIME_MS};
use shinpan_core::seam::{
    capabilities, Facts, Frame, FuzzHints, Game, GameInfo, Handshake, Imported, Importer,
    KnownDepartures, NoOptions, ParseVerdict, PlayedDeparture, Reply, RuleDocument, StepResult,
    TimeLimits, Variant, VariantSet, Variants,
};
use state::{Player, State};

pub struct TsgAutoChess;

static INFO: GameInfo = GameInfo {
    id: "tsg-auto-chess",
    title: "TSG AUTO CHESS",
    document: RuleDocument {
        title: "TSG AUTO CHESS ルール説明 (rules, in the README), by fiord for TSG LIVE! 3, 2019",
        source: "github.com/fiord/tsg-auto-chess (archived): README.md, next to the official engine main.rb",
    },
    protocol: shinpan_core::seam::protocol_page!("docs/protocol/tsg-auto-chess.md"),
    players: 2,
    replies_per_step: 2,
    // 「制約・提出方法」: 3 minutes of thinking time over the whole match, counted from each
    // input to its output (so not the name); no limit per turn.
    limits: TimeLimits {
        total_ms: Some(THINKING_TIME_MS),
        ..TimeLimits::NONE
    },
    // 「出力」: the name comes first, one line; main.rb reads it before sending anything.
    handshake: Some(Handshake::NAME_FIRST),
    parse_kinds: &["prompt", "reply", "name"],
    fuzz: FuzzHints {
        // Both sides of the document's numbers: the board's 0 and 14 (and 15), the ranges 1 and
        // 3, the levelup's 4 gold, the gold interest's 10s and its cap of 5 (50, 60), the prices
        // 2..4, the king's 20 and 100, the 1000 turns and the int limit.
        numbers: &[
            0,
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            9,
            10,
            11,
            13,
            14,
            15,
            19,
            20,
            49,
            50,
            59,
            60,
            99,
            100,
            101,
            998,
            999,
            1000,
            2_147_483_647,
        ],
        replies: &[
            "nop\n0",
            "levelup\n0",
            "buy 2 7 1\n0",
            "evolve 2 3 4\n0",
            "nop\n1\n0 7 1",
            "nop\n2\n0 7 1\n0 8 1",
            "buy 2 7 1 \n0",
            "nop\nx",
            "nop\n-1",
        ],
    },
    capabilities: capabilities!(TsgAutoChess:
        recorded, known_departures, importer, variants, edge_cases, facts, render; fuzz: fuzz::TARGETS),
};

impl Game for TsgAutoChess {
    #[cfg(feature = "schema")]
    fn json_schemas(&self) -> Option<shinpan_core::seam::Schemas> {
        Some(shinpan_core::seam::schemas_of::<Self::State, Self::Options>())
    }

    type State = State;

    type Options = NoOptions;

    const INFO: &'static GameInfo = &INFO;

    /// Turn 0: kings at home, 5 gold, level 1; the shops hold ids 2..=4 (player 0) and 5..=7
    /// (player 1), priced from the seed in that order.
    fn new_match(&self, seed: u64, _: &NoOptions) -> State {
        let mut state = State {
            price_rng: seed,
            ..State::default()
        };
        for p in 0..2 {
            state.players[p] = Player::default_for(p);
            for slot in &mut state.players[p].shop {
                slot.price = draw_price(&mut state.price_rng);
            }
        }
        state
    }

    fn prompt(&self, state: &State, player: usize) -> String {
        Prompt::of(state, player).print()
    }

    /// The command line, the count line, then as many move lines as the count says; a count
    /// that is not a natural number counts as 0 (D-tsg-6).
    fn frame(&self, _: &State, _: usize, lines: &[&str]) -> Frame {
        if lines.len() < 2 {
            return Frame::NeedMore;
        }
        let count = protocol::lenient_move_count(lines[1]);
        Frame::complete_if((lines.len() - 2) as u64 >= count)
    }

    fn step(&self, state: &mut State, replies: &[Reply]) -> StepResult {
        engine::step_with(state, replies, variants::Wrongs::NONE)
    }

    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        let verdict = match kind {
            "prompt" => ParseVerdict::judge(Prompt::parse(input).map(|p| p.print()), || false),
            // The engine plays any reply text (D-tsg-6).
            "reply" => ParseVerdict::judge(TurnReply::parse(input).map(|r| r.print()), || true),
            // The engine takes any one line as the name.
            "name" => ParseVerdict::judge(parse_name(input).map(str::to_string), || {
                !input.contains('\n')
            }),
            _ => return None,
        };
        Some(verdict)
    }

    fn random_reply(&self, state: &State, player: usize, rng: &mut dyn RngCore) -> String {
        player::random_reply(state, player, rng)
    }
}

impl KnownDepartures for TsgAutoChess {
    /// main.rb's record: its lists, as its prompts show them, and its grid, which they never
    /// show ([`main_rb::MainRb`]).
    type Model = main_rb::MainRb;

    /// main.rb's set-up on a 9×9 board.
    fn set_up_played(&self) -> Vec<PlayedDeparture<State>> {
        known::set_up_played()
    }

    fn model_from(&self, shown: &State) -> main_rb::MainRb {
        main_rb::MainRb::from_shown(shown)
    }

    /// A log whose first prompts are of a turn after 0.
    fn starts_late(&self, shown: &State) -> Option<String> {
        (shown.turn > 0).then(|| {
            format!(
                "the log starts at turn {}, not at the match's start: main.rb's record is taken as its first prompts show it (every listed unit on its grid where it stands; no ghost, no consumed unit, no unit bought and never moved), so what main.rb kept of the turns before is not known",
                shown.turn
            )
        })
    }

    fn advance(&self, model: &mut main_rb::MainRb, replies: &[Reply], shown: &State) {
        model.step(replies, main_rb::Ways::ALL);
        model.take_shown(shown);
    }

    /// main.rb's board, its frames, its buys, its moves by every line and main.rb's reading
    /// of them, its evolve formula, its ghosts.
    fn departures_played(
        &self,
        model: &main_rb::MainRb,
        replies: &[Reply],
    ) -> Vec<PlayedDeparture<State>> {
        known::played(model, replies)
    }

    fn clauses(&self) -> Vec<&'static str> {
        let mut clauses: Vec<&'static str> =
            main_rb::Ways::each().iter().map(|&(c, _)| c).collect();
        clauses.sort_unstable();
        clauses.dedup();
        clauses
    }

    fn played_without(
        &self,
        model: &main_rb::MainRb,
        replies: &[Reply],
        clauses: &[&str],
    ) -> State {
        known::played_without(model, replies, clauses)
    }

    /// main.rb fails on a buy when the player's list is empty.
    fn engine_fails(&self, model: &main_rb::MainRb, replies: &[Reply]) -> Option<String> {
        known::fails(model, replies)
    }
}

impl Importer for TsgAutoChess {
    const FORMATS: &'static [&'static str] = &[import::MAIN_RB];

    /// `main-rb`: main.rb's standard output (see [`import`]).
    fn import(
        &self,
        format: &str,
        log: &str,
    ) -> Result<Vec<Imported>, shinpan_core::text::ParseError> {
        let _ = format;
        import::main_rb(log)
    }
}

impl Variants for TsgAutoChess {
    const VARIANTS: &'static [Variant] = variants::Wrong::VARIANTS;

    fn step_variant(&self, state: &mut State, replies: &[Reply], set: VariantSet) -> StepResult {
        engine::step_with(state, replies, set)
    }
}

impl Facts for TsgAutoChess {
    /// `units` and `army` (non-king units of each player) on the board, `shop_ids` (both
    /// shops' ids, ascending), and `upcoming_prices`: how many of the next 3000 draws of the
    /// price generator give 2, 3 and 4.
    fn facts(&self, state: &State) -> serde_json::Value {
        let mut shop_ids: Vec<u32> = state
            .players
            .iter()
            .flat_map(|p| p.shop.iter().map(|s| s.id))
            .collect();
        shop_ids.sort_unstable();
        let mut rng = state.price_rng;
        let mut by_price = [0u32; 3];
        for _ in 0..3000 {
            by_price[(draw_price(&mut rng) - rules::PRICE_MIN) as usize] += 1;
        }
        serde_json::json!({
            "units": state.units.len(),
            "army": [state.army_size(0), state.army_size(1)],
            "kings": state.units.iter().filter(|u| u.kind == Kind::King).count(),
            "shop_ids": shop_ids,
            "upcoming_prices": {"2": by_price[0], "3": by_price[1], "4": by_price[2]},
        })
    }
}

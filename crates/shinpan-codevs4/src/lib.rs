//! CODE VS 4.0 復刻版 (2015), rule document seed 000, completed by the `D-codevs4-*` decisions
//! of `shared/spec-notes.md`.
//!
//! Two players each start a stage with a castle and five workers near opposite corners of a
//! 100×100 field. Workers gather resources on resource cells and build villages (which make
//! more workers) and bases (which make knights, fighters and assassins); every unit fights
//! every enemy unit within its attack range on its own, the damage from a table of
//! attacker × target divided by k, the number of enemies in range with each cell counted at
//! most 10. A player sees only what lies within its units' vision. Destroying the enemy castle
//! wins the stage; after 1000 turns it is a draw. A game is 41 stages; in the last 14 the enemy
//! (player 1) earns more each turn.
//!
//! Seam mapping: one step is one turn, both players' outputs at once; the AI name is the
//! handshake; the stage and each player's thinking time left of the game's one hour are the
//! match options `stage` and `time` ([`options`]), kept in the state; the 41 stages are the
//! series, each handing the time left on to the next (D-codevs4-11).

/// The seam this game is played through (`seam::Game`: `new_match`, `step`, `prompt`, …), so
/// that a program depending on this crate alone can use it.
pub use shinpan_core::seam;

pub mod battle;
pub mod edge;
pub mod engine;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod observe;
pub mod options;
pub mod protocol;
pub mod render;
pub mod rules;
pub mod setup;
pub mod state;
pub mod variants;

use rand::{Rng, RngCore};

pub use options::{Options, TimeLeft};
use protocol::{parse_name, Command, Order, Orders, Prompt, Sight};
use rules::{Cell, Direction, Kind, STAGES, THINKING_TIME_MS};
use shinpan_core::seam::{
    capabilities, Frame, FuzzHints, Game, GameInfo, Handshake, Normalize, ParseVerdict, Reply,
    RuleDocument, Series, SeriesMatch, SeriesPlay, SeriesScore, StepResult, TimeLimits, Variant,
    VariantSet, Variants,
};
use state::State;

pub struct Codevs4;

static INFO: GameInfo = GameInfo {
    id: "codevs4",
    title: "CODE VS 4.0 (復刻版, 2015)",
    document: RuleDocument {
        title: "CODE VS 4.0 復刻版 ルール詳細 (detailed rules of the 2015 revival), 2015-04-27",
        source: "Recruit's CODE VS 4.0 contest; the text came with the revival's client, which is no longer public",
    },
    protocol: shinpan_core::seam::protocol_page!("docs/protocol/codevs4.md"),
    players: 2,
    replies_per_step: 2,
    // The document names no time limit per turn. D-codevs4-11: 3,600,000 ms of thinking time
    // for the whole game, which the input's first line counts down; a match cannot take more.
    // What decides a late output is the state's own clock, which a stage starts from the
    // option `time` and `play --series` carries from stage to stage (`SeriesPlay::carry`).
    limits: TimeLimits {
        total_ms: Some(THINKING_TIME_MS),
        ..TimeLimits::NONE
    },
    // 5.2: the AI prints its name first, before it reads any input.
    handshake: Some(Handshake::NAME_FIRST),
    parse_kinds: &["prompt", "reply", "name"],
    fuzz: FuzzHints {
        // Both sides of: the cell cap 10, the gathering cap 5, costs 20/40/60/100/500, the
        // extra stages 27 and 34, stage 40, turn 999/1000, HP 2000/5000/20000/50000, ids 20000.
        numbers: &[
            0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 19, 20, 26, 27, 33, 34, 39, 40, 41, 59, 60, 99, 100,
            499, 500, 999, 1000, 1999, 2000, 4999, 5000, 19_999, 20_000, 20_001, 49_999, 50_000,
        ],
        replies: &[
            "0",
            "1\n0 0",
            "1\n1 U",
            "1\n1 6",
            "1\n0 U",
            "2\n1 U\n1 D",
            "1\n6 0",
            "1\n20001 R",
            "1\n1 4",
            "3\n1 L",
            "x",
        ],
    },
    capabilities: capabilities!(Codevs4:
        recorded, variants, series, normalize, edge_cases, facts, render; fuzz: fuzz::TARGETS),
};

impl Game for Codevs4 {
    #[cfg(feature = "schema")]
    fn json_schemas(&self) -> Option<shinpan_core::seam::Schemas> {
        Some(shinpan_core::seam::schemas_of::<Self::State, Self::Options>())
    }

    type State = State;

    type Options = Options;

    const INFO: &'static GameInfo = &INFO;

    /// The set-up of the stage, each player with the time `options.time` gives it.
    fn new_match(&self, seed: u64, options: &Options) -> State {
        let mut state = setup::new_stage(seed, options.stage.min(STAGES - 1));
        for (p, player) in state.players.iter_mut().enumerate() {
            player.time_left_ms = options.time.of(p).min(THINKING_TIME_MS);
        }
        state
    }

    fn prompt(&self, state: &State, player: usize) -> String {
        Prompt::of(state, player).print()
    }

    /// D-codevs4-13: the official client did not sort the resource cells; a bot gets them
    /// shuffled (never in shinpan's (y, x) order when it sees two or more).
    fn prompt_varied(&self, state: &State, player: usize, rng: &mut dyn RngCore) -> String {
        let mut prompt = Prompt::of(state, player);
        prompt.shuffle_resource_cells(rng);
        prompt.print()
    }

    /// D-codevs4-8: the count on the first line says how many lines follow.
    fn frame(&self, _: &State, _: usize, lines: &[&str]) -> Frame {
        let Some(first) = lines.first() else {
            return Frame::NeedMore;
        };
        match Orders::read_lenient(first).count {
            None => Frame::Malformed(format!(
                "the first line {} is not a number of orders",
                shinpan_core::text::quote(first)
            )),
            Some(count) => Frame::complete_if((lines.len() - 1) as u64 >= count),
        }
    }

    fn step(&self, state: &mut State, replies: &[Reply]) -> StepResult {
        engine::step_with(state, replies, variants::Wrongs::NONE)
    }

    fn parse(&self, kind: &str, input: &str) -> Option<ParseVerdict> {
        let strict_only = || false;
        let verdict = match kind {
            "prompt" => ParseVerdict::judge(Prompt::parse(input).map(|p| p.print()), strict_only),
            "reply" => ParseVerdict::judge(Orders::parse(input).map(|o| o.print()), || {
                Orders::read_lenient(input).is_whole()
            }),
            "name" => ParseVerdict::judge(parse_name(input).map(str::to_string), strict_only),
            _ => return None,
        };
        Some(verdict)
    }

    fn random_reply(&self, state: &State, player: usize, rng: &mut dyn RngCore) -> String {
        random_orders(state, player, rng).print()
    }
}

impl Variants for Codevs4 {
    const VARIANTS: &'static [Variant] = variants::Wrong::VARIANTS;

    fn step_variant(&self, state: &mut State, replies: &[Reply], set: VariantSet) -> StepResult {
        engine::step_with(state, replies, set)
    }

    fn prompt_variant(&self, state: &State, player: usize, set: VariantSet) -> String {
        use variants::Wrong;
        let vision = if set.has(Wrong::VisionOneShort) {
            |kind: Kind| match kind {
                Kind::Castle | Kind::Village => kind.vision(),
                _ => kind.vision() - 1,
            }
        } else {
            Kind::vision
        };
        let mut prompt = Prompt::seen(state, player, &Sight::reaching(state, player, vision));
        if set.has(Wrong::InputPrintsXBeforeY) {
            for unit in prompt.own.iter_mut().chain(&mut prompt.enemies) {
                std::mem::swap(&mut unit.x, &mut unit.y);
            }
        }
        prompt.print()
    }
}

impl SeriesPlay for Codevs4 {
    /// 3 and 6.3: the 41 stages, 0..=40.
    fn series(&self) -> Series {
        Series {
            ranking: "6.3: points (2 a stage won, 1 a stage drawn), more first; then the turns \
                      of the stages won minus the turns of the stages lost, fewer first",
            matches: (0..STAGES)
                .map(|stage| SeriesMatch {
                    label: format!("stage {stage}"),
                    options: serde_json::Map::from_iter([("stage".to_string(), stage.into())]),
                })
                .collect(),
        }
    }

    /// D-codevs4-11: the hour is for the whole game, so each player starts the next stage with
    /// the time it has left at the end of this one.
    fn carry(&self, finished: &State) -> serde_json::Map<String, serde_json::Value> {
        let left = finished.players.each_ref().map(|p| p.time_left_ms);
        serde_json::Map::from_iter([("time".to_string(), serde_json::json!(left))])
    }

    /// 6.3: 2 points a win, 1 a draw; the tiebreak is the turns summed over wins minus the
    /// turns summed over losses, ranked ascending, so given negated (settled, rules.yaml
    /// `ranking.turn-sum`).
    fn score(&self, state: &State, player: usize) -> SeriesScore {
        let turns = i64::from(state.turn);
        match state.outcome.as_ref().map(|o| o.winner) {
            Some(Some(w)) if w == player => SeriesScore {
                points: 2,
                tiebreak: -turns,
            },
            Some(Some(_)) => SeriesScore {
                points: 0,
                tiebreak: turns,
            },
            Some(None) => SeriesScore {
                points: 1,
                tiebreak: 0,
            },
            None => SeriesScore::default(),
        }
    }
}

impl Normalize for Codevs4 {
    /// D-codevs4-13: the resource cells of a prompt are a set. Every prompt (`prompts`) that
    /// reads is brought to shinpan's (y, x) order, in an expectation and in an engine's result
    /// alike, so that the same cells in another order compare equal.
    fn normalize_expectation(&self, expected: &mut serde_json::Value) {
        let prompts = expected
            .get_mut("prompts")
            .and_then(serde_json::Value::as_array_mut);
        for prompt in prompts.into_iter().flatten() {
            if let Some(Ok(read)) = prompt.as_str().map(Prompt::parse) {
                *prompt = read.with_resource_cells_sorted().print().into();
            }
        }
    }
}

/// The built-in player: every order it gives is accepted. Workers head for a resource cell in
/// sight and stay on it, or wander, now and then building a village or a base; castles and
/// villages make workers (up to [`BUILT_IN_WORKERS`]); bases make fighting units (up to
/// [`BUILT_IN_ARMY`]); fighting units drift towards the enemy's corner. Productions are paid in
/// order from what the player has.
pub fn random_orders(state: &State, player: usize, rng: &mut dyn RngCore) -> Orders {
    let mut budget = state.players[player].resources;
    let own = |kinds: &[Kind]| {
        state
            .units
            .iter()
            .filter(|u| u.owner == player && kinds.contains(&u.kind))
            .count()
    };
    let mut workers = own(&[Kind::Worker]);
    let mut army = own(&[Kind::Knight, Kind::Fighter, Kind::Assassin]);
    let mut orders = Vec::new();
    let forward = if player == 0 {
        [Direction::Down, Direction::Right]
    } else {
        [Direction::Up, Direction::Left]
    };
    let afford = |kind: Kind, budget: &mut u32| {
        let cost = kind.cost().unwrap_or(u32::MAX);
        (*budget >= cost).then(|| *budget -= cost).is_some()
    };
    for unit in state.units.iter().filter(|u| u.owner == player) {
        let roll = rng.random_range(0..100u32);
        let command = match unit.kind {
            Kind::Worker => {
                let target = state
                    .resource_cells
                    .iter()
                    .filter(|r| r.distance(unit.cell) <= unit.kind.vision())
                    .min_by_key(|r| (r.distance(unit.cell), **r));
                match target {
                    Some(&r) if roll < 80 => towards(unit.cell, r).map(Command::Move),
                    _ if roll < 2 && afford(Kind::Village, &mut budget) => {
                        Some(Command::Produce(Kind::Village))
                    }
                    _ if roll < 3 && afford(Kind::Base, &mut budget) => {
                        Some(Command::Produce(Kind::Base))
                    }
                    _ if roll < 70 => Some(Command::Move(wander(rng, forward))),
                    _ => None,
                }
            }
            Kind::Knight | Kind::Fighter | Kind::Assassin => {
                (roll < 80).then(|| Command::Move(wander(rng, forward)))
            }
            Kind::Castle | Kind::Village => (roll < 30
                && workers < BUILT_IN_WORKERS
                && afford(Kind::Worker, &mut budget))
            .then(|| {
                workers += 1;
                Command::Produce(Kind::Worker)
            }),
            Kind::Base => {
                let product = [Kind::Knight, Kind::Fighter, Kind::Assassin][(roll % 3) as usize];
                (roll < 60 && army < BUILT_IN_ARMY && afford(product, &mut budget)).then(|| {
                    army += 1;
                    Command::Produce(product)
                })
            }
        };
        if let Some(command) = command {
            orders.push(Order {
                unit: unit.id,
                command,
            });
        }
    }
    Orders { orders }
}

/// The built-in player makes workers while it has fewer than this many...
pub const BUILT_IN_WORKERS: usize = 40;
/// ... and knights, fighters and assassins while it has fewer than this many.
pub const BUILT_IN_ARMY: usize = 80;

/// A step from `from` towards `to`, `None` when already there.
fn towards(from: Cell, to: Cell) -> Option<Direction> {
    if to.x != from.x {
        Some(if to.x > from.x {
            Direction::Right
        } else {
            Direction::Left
        })
    } else if to.y != from.y {
        Some(if to.y > from.y {
            Direction::Down
        } else {
            Direction::Up
        })
    } else {
        None
    }
}

/// A random direction, one of `forward` two times in three.
fn wander(rng: &mut dyn RngCore, forward: [Direction; 2]) -> Direction {
    if rng.random_ratio(2, 3) {
        forward[rng.random_range(0..2)]
    } else {
        Direction::ALL[rng.random_range(0..4)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ignored order says why as a value a caller matches on, and as the sentence a
    /// rejected reply's verdict gives.
    #[test]
    fn an_ignored_order_says_why_as_a_value_and_as_the_verdicts_sentence() {
        use crate::engine::{play_turn, Ignored};
        use crate::protocol::{Command, Order, Orders};
        use crate::rules::{Direction, Kind};
        let mut state = Codevs4.new_match(1, &Default::default());
        let castle = state
            .units
            .0
            .iter()
            .find(|u| u.owner == 0 && u.kind == Kind::Castle);
        let castle = castle.expect("player 0's castle").id;
        let resources = state.players[0].resources;
        let mine = Orders {
            orders: vec![
                Order {
                    unit: 99_999,
                    command: Command::Move(Direction::Right),
                },
                Order {
                    unit: castle,
                    command: Command::Move(Direction::Right),
                },
                Order {
                    unit: castle,
                    command: Command::Produce(Kind::Castle),
                },
            ],
        };
        let none = Orders { orders: Vec::new() };
        let [results, _] = play_turn(&mut state, [&mine, &none]);
        assert_eq!(results[0], Err(Ignored::NoSuchUnit { unit: 99_999 }));
        let Err(Ignored::NotForItsKind {
            unit,
            kind: Kind::Castle,
            ..
        }) = &results[1]
        else {
            panic!("a castle is not told to move: {:?}", results[1]);
        };
        assert_eq!(*unit, castle);
        assert!(results[2].is_err(), "a castle makes no castle");
        assert_eq!(
            Ignored::CannotPay {
                unit: 7,
                product: Kind::Worker,
                cost: 40,
                had: resources
            }
            .to_string(),
            format!("unit 7's worker costs 40, the player has {resources} left")
        );
    }

    /// A prompt body over a game's own parser (`stepfuzz::parses_back`): a text it prints
    /// back passes, and a kind the game does not parse is a broken body, not a quiet pass.
    #[cfg(feature = "fuzz")]
    #[test]
    fn parses_back_runs_the_games_parser_of_the_kind() {
        use shinpan_core::stepfuzz::parses_back;
        let prompt = Game::prompt(
            &Codevs4,
            &Game::new_match(&Codevs4, 1, &Default::default()),
            0,
        );
        parses_back(&Codevs4, "prompt", &prompt);
        parses_back(&Codevs4, "prompt", "not a prompt");
        let typo = std::panic::catch_unwind(|| parses_back(&Codevs4, "promt", ""));
        assert!(typo.is_err(), "a kind the game does not parse");
    }
    use shinpan_core::seam::{EdgeCases, ReplyVerdict};

    #[test]
    fn replies_are_framed_by_their_count() {
        let state = State::default();
        let game = Codevs4;
        assert_eq!(game.frame(&state, 0, &[]), Frame::NeedMore);
        assert_eq!(game.frame(&state, 0, &["0"]), Frame::Complete);
        assert_eq!(game.frame(&state, 0, &["2", "1 U"]), Frame::NeedMore);
        assert_eq!(game.frame(&state, 0, &["2", "1 U", "2 D"]), Frame::Complete);
        assert!(matches!(
            game.frame(&state, 0, &["two"]),
            Frame::Malformed(_)
        ));
    }

    /// D-codevs4-13: all 20 resource cells in sight of player 0's castle, given in an order that
    /// is not (y, x).
    fn twenty_cells_in_sight() -> State {
        let mut state = Codevs4
            .edge_cases()
            .into_iter()
            .find(|c| c.name == "all-20-resource-cells-in-sight")
            .unwrap()
            .states
            .remove(0);
        state.resource_cells.reverse();
        state
    }

    #[test]
    fn varied_prompts_shuffle_the_resource_cells_and_nothing_else() {
        let game = Codevs4;
        let state = twenty_cells_in_sight();
        let own = Prompt::of(&state, 0);
        assert_eq!(own.resource_cells.len(), 20);
        assert!(own.resource_cells.is_sorted(), "shinpan prints by (y, x)");
        let mut rng = shinpan_core::rng::seeded(1, 0);
        for _ in 0..20 {
            let varied = Prompt::parse(&game.prompt_varied(&state, 0, &mut rng)).unwrap();
            assert!(!varied.resource_cells.is_sorted());
            assert_eq!(varied.clone().with_resource_cells_sorted(), own);
        }
        // Two cells: never in (y, x) order either, so the other order every time.
        let mut two = state.clone();
        two.resource_cells.truncate(2);
        for _ in 0..10 {
            let varied = Prompt::parse(&game.prompt_varied(&two, 0, &mut rng)).unwrap();
            assert!(!varied.resource_cells.is_sorted(), "{varied:?}");
        }
        // No cell or one: nothing to vary.
        two.resource_cells.truncate(1);
        assert_eq!(game.prompt_varied(&two, 0, &mut rng), game.prompt(&two, 0));
    }

    #[test]
    fn prompts_that_differ_only_in_the_order_of_resource_cells_normalize_alike() {
        let game = Codevs4;
        let state = twenty_cells_in_sight();
        let mut rng = shinpan_core::rng::seeded(2, 0);
        let of = |prompt: String| {
            let mut value = serde_json::json!({"turn": 3, "prompts": [prompt, "not a prompt"]});
            game.normalize_expectation(&mut value);
            value
        };
        let shinpans = of(game.prompt(&state, 0));
        assert_eq!(
            shinpans["prompts"][0],
            game.prompt(&state, 0),
            "left as it is"
        );
        assert_eq!(shinpans["prompts"][1], "not a prompt");
        assert_eq!(shinpans["turn"], 3);
        let varied = game.prompt_varied(&state, 0, &mut rng);
        assert_ne!(varied, game.prompt(&state, 0));
        assert_eq!(of(varied), shinpans);
    }

    #[test]
    fn the_built_in_player_is_always_accepted() {
        let game = Codevs4;
        for seed in 0..3 {
            let mut state = game.new_match(seed, &Options::stage(35));
            let mut rngs = [
                shinpan_core::rng::seeded(seed, 1),
                shinpan_core::rng::seeded(seed, 2),
            ];
            for _ in 0..300 {
                if state.outcome.is_some() {
                    break;
                }
                let replies: Vec<Reply> = (0..2)
                    .map(|p| Reply::text(game.random_reply(&state, p, &mut rngs[p])))
                    .collect();
                let report = game.step(&mut state, &replies).unwrap();
                assert_eq!(report.replies, vec![ReplyVerdict::Accepted; 2]);
            }
        }
    }
}

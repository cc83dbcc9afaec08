//! CODE VS 4.0: properties of the protocol and the engine on generated input (proptest), the
//! prompt fuzz body on near-valid text, the 41-stage series, its scores and the hour of thinking
//! time it carries from stage to stage (D-codevs4-11), `play` with the stage option, and the
//! order of the resource cells (D-codevs4-13) in the bot checker and the case library. What every
//! game must pass (golden playthrough, parser error messages, random bytes through the fuzz
//! bodies, the example bot `tests/bots/codevs4_bot.py` in `bot` and `play`, ...) is in
//! `every_game.rs`.

use std::path::Path;

use proptest::prelude::*;

use shinpan::games::codevs4::fuzz;
use shinpan::games::codevs4::protocol::{Command, Order, Orders, Prompt};
use shinpan::games::codevs4::rules::{Direction, Kind};
use shinpan::games::codevs4::state::State;
use shinpan::games::codevs4::{Codevs4, Options};
use shinpan::rng::{player_stream, seeded};
use shinpan::seam::{DynGame, EdgeCases, Game, Reply, ReplyVerdict, SeriesPlay};
use shinpan::stepfuzz::Fuzzed;

use crate::common;

const BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/codevs4_bot.py");

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        (0usize..4).prop_map(|d| Command::Move(Direction::ALL[d])),
        prop::sample::select(vec![
            Kind::Worker,
            Kind::Knight,
            Kind::Fighter,
            Kind::Assassin,
            Kind::Village,
            Kind::Base
        ])
        .prop_map(Command::Produce),
    ]
}

fn orders() -> impl Strategy<Value = Orders> {
    prop::collection::vec(
        (0u32..=20_000, command()).prop_map(|(unit, command)| Order { unit, command }),
        0..30,
    )
    .prop_map(|orders| Orders { orders })
}

/// The state after `turns` turns of the built-in players' match of `seed` in `stage`.
fn played_state(seed: u64, stage: u32, turns: usize) -> State {
    let game = Codevs4;
    let mut state = Game::new_match(&game, seed, &Options::stage(stage));
    let mut rngs = [
        seeded(seed, player_stream(0)),
        seeded(seed, player_stream(1)),
    ];
    for _ in 0..turns {
        if state.outcome.is_some() {
            break;
        }
        let replies: Vec<Reply> = (0..2)
            .map(|p| Reply::text(game.random_reply(&state, p, &mut rngs[p])))
            .collect();
        game.step(&mut state, &replies).unwrap();
    }
    state
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn orders_round_trip(orders in orders()) {
        let text = orders.print();
        prop_assert_eq!(Orders::parse(&text), Ok(orders));
        prop_assert!(Orders::read_lenient(&text).is_whole());
    }

    #[test]
    fn prompt_round_trips(seed in any::<u64>(), stage in 0u32..=40, turns in 0usize..120, player in 0usize..2) {
        let state = played_state(seed, stage, turns);
        let prompt = Prompt::of(&state, player);
        let text = prompt.print();
        prop_assert_eq!(Prompt::parse(&text), Ok(prompt));
    }

    #[test]
    fn fuzz_prompt_body_on_near_valid_text(seed in any::<u64>(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = Prompt::of(&played_state(seed, 0, 30), 1).print().into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        (fuzz::TARGETS.prompt)(&bytes);
    }
}

// The first 250 turns of a stage each (the invariant check round-trips the state through JSON
// every turn): few cases.
proptest! {
    #![proptest_config(common::proptest_cases(4))]

    #[test]
    fn invariants_hold_and_the_built_in_players_are_accepted(seed in any::<u64>(), stage in 0u32..=40) {
        let game = Codevs4;
        let mut state = Game::new_match(&game, seed, &Options::stage(stage));
        let mut rngs = [seeded(seed, player_stream(0)), seeded(seed, player_stream(1))];
        while state.outcome.is_none() && state.turn < 250 {
            let replies: Vec<Reply> = (0..2)
                .map(|p| Reply::text(game.random_reply(&state, p, &mut rngs[p])))
                .collect();
            let before = state.clone();
            let report = game.step(&mut state, &replies).unwrap();
            prop_assert_eq!(&report.replies, &vec![ReplyVerdict::Accepted; 2]);
            prop_assert_eq!(Codevs4::check_invariants(&before, &state), Ok(()));
        }
    }
}

/// Each edge case (`edge.rs`) is one the bot checker can send: a valid state, a valid prompt, a
/// step that plays.
#[test]
fn every_edge_input_is_valid_and_playable() {
    let replies = [Reply::text("0"), Reply::text("0")];
    common::assert_edge_cases_playable(&Codevs4, Codevs4.edge_cases(), "prompt", &replies);
}

#[test]
fn the_series_is_the_41_stages() {
    let series = SeriesPlay::series(&Codevs4);
    assert_eq!(series.matches.len(), 41);
    assert_eq!(series.matches[0].label, "stage 0");
    assert_eq!(series.matches[40].label, "stage 40");
    assert_eq!(series.matches[27].options["stage"], serde_json::json!(27));
    let game = &Codevs4 as &dyn DynGame;
    for m in &series.matches {
        let options = shinpan::seam::MatchOptions(m.options.clone());
        assert!(game.check_options(&options).is_ok(), "{}", m.label);
    }
}

/// 6.3: 2 points a win, 1 a draw; the turns won minus the turns lost, fewer first, so the
/// tiebreak (higher first) is the turns lost minus the turns won.
#[test]
fn series_scores_follow_6_3() {
    let game = Codevs4;
    let ended = |winner: Option<usize>, turn: u32| State {
        turn,
        outcome: Some(shinpan::seam::Outcome::new(winner, "x")),
        ..State::default()
    };
    let win = game.score(&ended(Some(0), 120), 0);
    let loss = game.score(&ended(Some(0), 120), 1);
    let draw = game.score(&ended(None, 1000), 1);
    assert_eq!((win.points, win.tiebreak), (2, -120));
    assert_eq!((loss.points, loss.tiebreak), (0, 120));
    assert_eq!((draw.points, draw.tiebreak), (1, 0));
    // A fast win ranks above a slow one; a slow loss above a fast one.
    assert!(
        game.score(&ended(Some(0), 50), 0).tiebreak > game.score(&ended(Some(0), 500), 0).tiebreak
    );
    assert!(
        game.score(&ended(Some(1), 900), 0).tiebreak > game.score(&ended(Some(1), 90), 0).tiebreak
    );
}

#[test]
fn play_takes_the_stage_option() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args([
            "play", "codevs4", "--rounds", "1", "--option", "stage=35", "--format", "json", "--",
            "builtin", "--", "builtin",
        ])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `play --series` plays the game's own matches: each under its stage's options and label, the
/// contenders in fixed seats, and the standings are the summed series scores, best first.
#[test]
fn a_series_plays_each_stage_in_fixed_seats_and_ranks_by_points() {
    use shinpan::harness::play::{play, series_rounds, Contender, PlayOptions};
    use shinpan::harness::process::Limits;
    use shinpan::harness::session::LimitOverrides;

    let mut series = SeriesPlay::series(&Codevs4);
    // The first stage and the last (an extra stage, with its higher enemy income).
    series.matches = vec![series.matches[0].clone(), series.matches[40].clone()];
    let plan = series_rounds(7, &series, 2, &Default::default());
    assert_eq!(plan[1].options.0["stage"], serde_json::json!(40));
    let options = PlayOptions {
        limits: LimitOverrides::default(),
        process: Limits::default(),
        ranking: Some(series.ranking),
    };
    let contenders = [Contender::Builtin, Contender::Builtin];
    let summary = play(&Codevs4, &contenders, &plan, &options, None, |_, _| {}).unwrap();
    let labels: Vec<_> = summary.matches.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels, ["stage 0", "stage 40"]);
    for m in &summary.matches {
        assert_eq!(m.seats, [0, 1], "fixed seats");
        assert_eq!(m.scores.len(), 2);
    }
    for standing in &summary.standings {
        let seat = standing.contender;
        let points: i64 = summary.matches.iter().map(|m| m.scores[seat].points).sum();
        let tiebreak: i64 = summary
            .matches
            .iter()
            .map(|m| m.scores[seat].tiebreak)
            .sum();
        assert_eq!((standing.points, standing.tiebreak), (points, tiebreak));
    }
    assert!(summary.standings[0].points >= summary.standings[1].points);
    // 6.3: a stage is worth 2 won, 1 drawn, 0 lost: two stages hand out 4 points in all.
    let total: i64 = summary.standings.iter().map(|s| s.points).sum();
    assert_eq!(total, 4);
}

/// The first line of the first prompt `play` logged to `player` in match `round`.
fn first_time_left_logged(log: &[u8], round: u64, player: u64) -> u64 {
    let text = std::str::from_utf8(log).unwrap();
    let prompt = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|r| r["event"] == "prompt" && r["match"] == round && r["player"] == player)
        .unwrap_or_else(|| panic!("no prompt for player {player} in match {round}"));
    prompt["text"]
        .as_str()
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// D-codevs4-11, through `play --series`'s own loop with a real program: the hour is for the
/// whole game, so each stage starts with what the one before left, and a player that runs out
/// in one stage (here the bot, sleeping 3.5 s on its first input of stage 1 with less than 3 s
/// left) is out of time for the rest of it and in every later stage. The builtin player
/// answers at once and keeps its 3000 ms throughout.
#[test]
fn a_series_carries_each_players_time_left_and_running_out_lasts() {
    // `play` drives the bot through the harness in this process: alone, away from the other
    // tests' children (see `common::in_own_process`).
    common::in_own_process(
        "codevs4::a_series_carries_each_players_time_left_and_running_out_lasts",
        || {
            use serde_json::json;
            use shinpan::harness::play::{play, series_rounds, Contender, PlayOptions};
            use shinpan::report::Render;
            use shinpan::seam::MatchOptions;

            let mut series = SeriesPlay::series(&Codevs4);
            series.matches.truncate(3);
            let start = MatchOptions::from_pairs(&["time=3000".into()]).unwrap();
            let plan = series_rounds(7, &series, 2, &start);
            let bot = Contender::Program(
                [common::python3(), BOT, "--sleep-at", "1:3500"]
                    .map(String::from)
                    .to_vec(),
            );
            let options = PlayOptions {
                limits: Default::default(),
                process: Default::default(),
                ranking: Some(series.ranking),
            };
            let mut log = Vec::new();
            let summary = play(
                &Codevs4,
                &[bot, Contender::Builtin],
                &plan,
                &options,
                Some(&mut log),
                |_, _| {},
            )
            .unwrap();
            let m = &summary.matches;
            let report = summary.human();

            // Stage 0 starts from the option; the bot spends a little, under a millisecond a reply
            // mostly, and is never late.
            assert_eq!(first_time_left_logged(&log, 0, 0), 3000);
            assert_eq!(m[0].late_replies, [0, 0], "{report}");
            let left = m[0].carried.0["time"][0].as_u64().unwrap();
            assert!(left > 0 && left <= 3000, "{report}");
            assert_eq!(m[0].carried.0["time"], json!([left, 3000]));

            // Stage 1 starts with what stage 0 left, each player its own: its first prompts say so.
            assert_eq!(m[1].options.0["time"], json!([left, 3000]));
            assert_eq!(first_time_left_logged(&log, 1, 0), left);
            assert_eq!(first_time_left_logged(&log, 1, 1), 3000);
            // The 3.5 s reply comes after the time left: ignored, and so is every later one.
            assert_eq!(m[1].first_late_step, [Some(0), None], "{report}");
            assert_eq!(m[1].late_replies, [m[1].steps, 0], "{report}");
            assert_eq!(m[1].carried.0["time"], json!([0, 3000]));

            // Stage 2 starts with nothing left for the bot: every output late, from the first.
            assert_eq!(m[2].options.0["time"], json!([0, 3000]));
            assert_eq!(first_time_left_logged(&log, 2, 0), 0);
            assert_eq!(m[2].late_replies, [m[2].steps, 0], "{report}");
            assert_eq!(m[2].carried.0["time"], json!([0, 3000]));

            // The report says which seat ran out of time, where, and what each stage handed on.
            assert!(
                report.contains(&format!(
                    "seat 0: out of time from step 0: {} late replies ignored",
                    m[2].steps
                )),
                "{report}"
            );
            assert!(report.contains("hands on: time=[0,3000]"), "{report}");
            let json: serde_json::Value = serde_json::from_str(&summary.json()).unwrap();
            assert_eq!(json["matches"][2]["late_replies"][0], m[2].steps);
            assert_eq!(json["matches"][2]["options"]["time"], json!([0, 3000]));
        },
    );
}

/// `shinpan play --series` with the option `time`: two built-in players start the game with no
/// time left, so every stage starts with none (what each hands on is [0, 0]) and every output of
/// the 41 stages is late. (The human report of the same is checked above.)
#[test]
fn play_series_from_the_command_line_carries_the_time_option() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args([
            "play", "codevs4", "--series", "--option", "time=0", "--format", "json",
        ])
        .args(["--", "builtin", "--", "builtin"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let matches = summary["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 41);
    for m in matches {
        let steps = m["steps"].clone();
        assert_eq!(
            m["late_replies"],
            serde_json::json!([steps, steps]),
            "{m:#}"
        );
        assert_eq!(m["first_late_step"], serde_json::json!([0, 0]), "{m:#}");
        assert_eq!(m["carried"]["time"], serde_json::json!([0, 0]), "{m:#}");
    }
    assert_eq!(matches[0]["options"]["time"], serde_json::json!(0));
    assert_eq!(matches[40]["options"]["time"], serde_json::json!([0, 0]));
}

/// The option `time` is refused past the hour, with the reason, before anything is played.
#[test]
fn play_refuses_more_time_than_the_hour() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["play", "codevs4", "--option", "time=3600001"])
        .args(["--", "builtin", "--", "builtin"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("time 3600001: a player has at most 3600000 ms left"),
        "{stderr}"
    );
}

/// D-codevs4-13: the bot checker sends the resource cells in shuffled order, in its matches and
/// in its extreme prompts, so a bot that relies on shinpan's (y, x) order fails it. (With the
/// cells in (y, x) order this bot passes every check.)
#[test]
fn the_checker_catches_a_bot_relying_on_the_order_of_resource_cells() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["bot", "codevs4", "--matches", "1", "--format", "json", "--"])
        .arg(common::python3())
        .arg(Path::new(BOT))
        .arg("--trust-cell-order")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{report:#}");
    let checks = report["checks"].as_array().unwrap();
    let check = |phase: &str, name: &str| {
        checks
            .iter()
            .find(|c| c["phase"] == phase && c["name"] == name)
            .unwrap_or_else(|| panic!("no {phase} check {name}: {report:#}"))
    };
    let first_match = check("matches", "seed-1-seat-0");
    assert_eq!(first_match["verdict"], "fail", "{first_match:#}");
    let all_cells = check("extreme", "all-20-resource-cells-in-sight");
    assert_eq!(all_cells["verdict"], "fail", "{all_cells:#}");
    assert!(
        all_cells.to_string().contains("out of (y, x) order"),
        "{all_cells:#}"
    );
}

/// The reference engine, except that its prompts list the resource cells in the reverse of
/// its (y, x) order, as another engine may (D-codevs4-13: the official client did not sort them).
struct ListsResourceCellsReversed;

impl shinpan::run::EngineUnderTest for ListsResourceCellsReversed {
    fn name(&self) -> String {
        "lists-resource-cells-reversed".into()
    }

    fn step(
        &mut self,
        request: shinpan::run::StepRequest<'_>,
    ) -> shinpan::run::Answered<shinpan::run::StepResponse> {
        let answered = shinpan::run::Reference.step(request);
        let shinpan::run::Answered::Done(mut response) = answered else {
            return answered;
        };
        for prompt in response.prompts.iter_mut().flatten() {
            if let Ok(mut read) = Prompt::parse(prompt) {
                read.resource_cells.reverse();
                *prompt = read.print();
            }
        }
        shinpan::run::Answered::Done(response)
    }

    fn parse(
        &mut self,
        request: shinpan::run::ParseRequest<'_>,
    ) -> shinpan::run::Answered<shinpan::seam::ParseVerdict> {
        shinpan::run::Reference.parse(request)
    }

    fn new_match(
        &mut self,
        request: shinpan::run::NewMatchRequest<'_>,
    ) -> shinpan::run::Answered<serde_json::Value> {
        shinpan::run::Reference.new_match(request)
    }
}

/// D-codevs4-13: an engine whose prompts list the resource cells in another order passes every
/// case, those whose prompts show two or three cells included.
#[test]
fn an_engine_listing_resource_cells_in_another_order_passes_every_case() {
    let results = shinpan::Suite::new("codevs4", ListsResourceCellsReversed)
        .results(None)
        .unwrap();
    let failing: Vec<String> = results
        .iter()
        .filter(|r| r.verdict.name() != "pass")
        .map(|r| format!("{}: {:?}", r.name, r.verdict))
        .collect();
    assert_eq!(failing, Vec::<String>::new());
    for case in [
        "codevs4/vision/seen-by-any-own-unit-in-id-and-reading-order",
        "codevs4/vision/resource-cells-in-any-order-are-the-same-input",
    ] {
        assert!(results.iter().any(|r| r.name == case), "{case} ran");
    }
}

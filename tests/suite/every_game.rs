//! What every registered game must pass, whichever game it is: one test a shape, each going over
//! `shinpan::games::all()` when it runs, so that a game added to the registry is checked here
//! without a line of this file changing. Each game is checked to its end even when one before it
//! failed, and a failure names the game (and the seed, step or input).
//!
//! What the seam does not say of a game is data in its folder, `crates/shinpan-<game>/testdata/`:
//! `suite.yaml` (its example bot and the options it runs with), `parser_errors.yaml` (its
//! parser inputs) and `snapshots/`. Its fuzz bodies are its fuzz capability. A game whose golden
//! playthrough would be too long to review may be abridged in `hooks.rs`. What is particular to
//! one game stays in that game's own module.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::process::Command;

use proptest::collection::vec;
use proptest::prelude::any;
use proptest::test_runner::TestRunner;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use shinpan::games;
use shinpan::rng::{player_stream, seeded};
use shinpan::seam::{DynGame, DynMatch, Marked, MatchOptions, ParseVerdict, Reply};

use crate::common;
use crate::common::SuiteData;
use crate::hooks::{self, GoldenEnd, GoldenStep};

const SHINPAN: &str = env!("CARGO_BIN_EXE_shinpan");

/// The seed of the built-in players' match whose every prompt and reply is read back (a whole
/// CODE VS 4.0 stage costs seconds: one match a test).
const READ_BACK_SEED: u64 = 1;

/// The seed of the two built-in matches that must be the same (seed 1 is the golden match's, which
/// a snapshot pins already).
const DETERMINISM_SEED: u64 = 2;

/// Runs `check` on every registered game, each to its end whatever the ones before did (a
/// failure's message is printed as it happens), then fails naming the games that failed.
fn for_every_game(mut check: impl FnMut(&'static dyn DynGame)) {
    let mut failed = Vec::new();
    for game in games::all() {
        if std::panic::catch_unwind(AssertUnwindSafe(|| check(game))).is_err() {
            failed.push(game.info().id);
        }
    }
    assert!(failed.is_empty(), "failed for {}", failed.join(", "));
}

/// The built-in players' match of a seed with default options, driven through the seam as
/// `shinpan::selfplay::golden_match` drives a typed game: player `p` draws its replies from
/// `seeded(seed, player_stream(p))`.
struct BuiltIn<'g> {
    game: &'g dyn DynGame,
    seed: u64,
    play: Box<dyn DynMatch + 'g>,
    rngs: Vec<ChaCha8Rng>,
    /// Whether [`BuiltIn::next`] renders the prompts (what costs most in a long match).
    prompts: bool,
    steps: usize,
}

/// One step of a match: the awaited players, in order, with their prompts (none when not
/// rendered) and replies.
#[derive(Debug, PartialEq)]
struct Exchange {
    awaiting: Vec<usize>,
    prompts: Vec<String>,
    replies: Vec<String>,
}

impl<'g> BuiltIn<'g> {
    fn start(game: &'g dyn DynGame, seed: u64) -> BuiltIn<'g> {
        BuiltIn::start_with(game, seed, true)
    }

    /// [`BuiltIn::start`], the prompts not rendered.
    fn start_unprompted(game: &'g dyn DynGame, seed: u64) -> BuiltIn<'g> {
        BuiltIn::start_with(game, seed, false)
    }

    fn start_with(game: &'g dyn DynGame, seed: u64, prompts: bool) -> BuiltIn<'g> {
        let play = game
            .start(seed, &MatchOptions::default())
            .unwrap_or_else(|e| panic!("{}: no match of seed {seed}: {e}", game.info().id));
        BuiltIn {
            game,
            seed,
            play,
            rngs: (0..game.info().players)
                .map(|p| seeded(seed, player_stream(p)))
                .collect(),
            prompts,
            steps: 0,
        }
    }

    /// The next step's prompts and the built-in players' replies; `None` once the match is over.
    fn next(&mut self) -> Option<Exchange> {
        if self.play.outcome().is_some() {
            return None;
        }
        let awaiting = self.play.awaiting();
        let prompts = if self.prompts {
            awaiting.iter().map(|&p| self.play.prompt(p)).collect()
        } else {
            Vec::new()
        };
        let replies = awaiting
            .iter()
            .map(|&p| self.play.random_reply(p, &mut self.rngs[p]))
            .collect();
        Some(Exchange {
            awaiting,
            prompts,
            replies,
        })
    }

    /// Plays the step of `exchange`.
    fn play(&mut self, exchange: &Exchange) {
        let replies: Vec<Reply> = exchange.replies.iter().cloned().map(Reply::text).collect();
        self.play.step(&replies).unwrap_or_else(|e| {
            let (id, seed, step) = (self.game.info().id, self.seed, self.steps);
            panic!("{id}, seed {seed}, step {step}: {e}")
        });
        self.steps += 1;
    }

    /// The canonical state.
    fn state(&self) -> Value {
        self.play.state().unwrap_or_else(|e| {
            panic!(
                "{}: a state with no canonical form: {e}",
                self.game.info().id
            )
        })
    }

    /// Plays to the end, `watch` seeing each step before it is played.
    fn play_out(mut self, mut watch: impl FnMut(&BuiltIn, &Exchange)) -> BuiltIn<'g> {
        while let Some(exchange) = self.next() {
            watch(&self, &exchange);
            self.play(&exchange);
        }
        self
    }
}

/// Whether some parse kind of `game` takes `text` as valid; every kind that does must print it
/// back byte for byte.
fn read_back(game: &dyn DynGame, text: &str) -> bool {
    let mut taken = false;
    for kind in game.info().parse_kinds {
        if let Some(ParseVerdict::Valid { printed }) = game.parse(kind, text) {
            assert_eq!(
                printed,
                text,
                "{}: `{kind}` takes the text but prints another",
                game.info().id
            );
            taken = true;
        }
    }
    taken
}

/// Every prompt the reference engine sends and every reply the built-in player makes, over a
/// whole match, is a text of the game's protocol (one of its parse kinds takes it, a reply of
/// several lines possibly line by line) and prints back as it was sent.
#[test]
fn prompts_and_built_in_replies_read_back_as_printed() {
    for_every_game(|game| {
        let id = game.info().id;
        let seed = READ_BACK_SEED;
        BuiltIn::start(game, seed).play_out(|play, exchange| {
            let texts = exchange.prompts.iter().zip(&exchange.replies);
            for (p, (prompt, reply)) in exchange.awaiting.iter().zip(texts) {
                let at = format!("{id}, seed {seed}, step {}, player {p}", play.steps);
                assert!(
                    read_back(game, prompt),
                    "{at}: no parse kind takes the prompt\n{prompt}"
                );
                let by_lines = || reply.contains('\n') && reply.lines().all(|l| read_back(game, l));
                assert!(
                    read_back(game, reply) || by_lines(),
                    "{at}: no parse kind takes the reply\n{reply}"
                );
            }
        });
    });
}

/// Two matches of one seed between the built-in players are the same match: the same canonical
/// state and replies at every step, and the same end; and its replies played again from the new
/// match's canonical state, as a case plays them, end in the same state. (The prompts are not
/// rendered: a prompt is a function of the state, and rendering them is most of the cost.)
#[test]
fn a_seed_decides_the_whole_match() {
    for_every_game(|game| {
        let id = game.info().id;
        let (seed, options) = (DETERMINISM_SEED, MatchOptions::default());
        let new_match = || game.start(seed, &options).unwrap().state().unwrap();
        let start = new_match();
        assert_eq!(start, new_match(), "{id}, seed {seed}");
        let mut first = BuiltIn::start_unprompted(game, seed);
        let mut second = BuiltIn::start_unprompted(game, seed);
        assert_eq!(first.state(), start, "{id}, seed {seed}");
        let mut turns: Vec<Vec<Reply>> = Vec::new();
        loop {
            let step = first.steps;
            assert!(
                first.state() == second.state(),
                "{id}, seed {seed}: the states differ at step {step}"
            );
            let (exchange, again) = (first.next(), second.next());
            assert_eq!(exchange, again, "{id}, seed {seed}, step {step}");
            let Some(exchange) = exchange else { break };
            first.play(&exchange);
            second.play(&exchange);
            turns.push(exchange.replies.into_iter().map(Reply::text).collect());
        }
        assert_eq!(
            first.play.outcome(),
            second.play.outcome(),
            "{id}, seed {seed}"
        );
        let played = game
            .play(&start, &turns)
            .unwrap_or_else(|e| panic!("{id}, seed {seed}: {e}"));
        assert_eq!(played.unplayed_turns, 0, "{id}, seed {seed}");
        assert!(
            played.state == first.state(),
            "{id}, seed {seed}: replayed from the canonical state, the match ends elsewhere"
        );
    });
}

/// Every game draws its states (the HTML report asks its `Render` capability), and a field the
/// drawing names, marked, highlights the elements that carry it and nothing else.
#[test]
fn every_game_draws_a_new_match_and_highlights_exactly_a_marked_field() {
    for_every_game(|game| {
        let id = game.info().id;
        let render = game
            .info()
            .capabilities
            .render
            .unwrap_or_else(|| panic!("{id}: no drawing"));
        let state = game
            .start(1, &MatchOptions::default())
            .unwrap()
            .state()
            .unwrap();
        let plain = render.render(&state, &Marked::default()).unwrap();
        assert!(plain.starts_with("<svg class=\"board\""), "{id}: {plain}");
        assert!(plain.contains(&format!("data-game=\"{id}\"")), "{id}");
        assert!(
            !plain.contains("class=\"diff") && !plain.contains(" diff\""),
            "{id}"
        );
        let paths: std::collections::BTreeSet<&str> = plain
            .split(" data-path=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert!(!paths.is_empty(), "{id}: nothing drawn names its field");
        for path in paths.into_iter().take(40) {
            let marked = render.render(&state, &Marked::new([path])).unwrap();
            let highlighted: std::collections::BTreeSet<&str> = marked
                .split('<')
                .filter(|tag| {
                    tag.split('>')
                        .next()
                        .is_some_and(|tag| tag.contains("class=\"diff") || tag.contains(" diff\""))
                })
                .filter_map(|tag| tag.split(" data-path=\"").nth(1)?.split('"').next())
                .collect();
            assert_eq!(highlighted, [path].into(), "{id}: marking {path}");
        }
    });
}

/// The whole built-in match of seed 1, as `hooks.rs` abridges it (every prompt and reply for a
/// game it does not name): a change of the rules that alters this match
/// shows as a snapshot to review.
#[test]
fn golden_playthrough_of_seed_1() {
    for_every_game(|game| {
        let id = game.info().id;
        let golden = hooks::golden(id);
        let mut out = String::new();
        let mut last_prompts = Vec::new();
        let finished = BuiltIn::start(game, 1).play_out(|play, exchange| {
            let state = play.state();
            let step = GoldenStep {
                index: play.steps,
                state: &state,
                awaiting: &exchange.awaiting,
                prompts: &exchange.prompts,
                replies: &exchange.replies,
            };
            (golden.step)(&mut out, &step);
            last_prompts.clone_from(&exchange.prompts);
        });
        let final_prompts: Vec<String> = (0..game.info().players)
            .map(|p| finished.play.prompt(p))
            .collect();
        let end = GoldenEnd {
            steps: finished.steps,
            outcome: &finished
                .play
                .outcome()
                .expect("a finished match has an outcome"),
            state: &finished.state(),
            final_prompts: &final_prompts,
            last_prompts: &last_prompts,
        };
        (golden.end)(&mut out, &end);
        common::game_snapshots(id)
            .bind(|| insta::assert_snapshot!("golden_playthrough_seed_1", out));
    });
}

/// What each parser says of the inputs in `crates/shinpan-<game>/testdata/parser_errors.yaml`, above all
/// its error messages, which users read: a change of wording is a snapshot to review.
#[test]
fn parser_error_messages() {
    for_every_game(|game| {
        let id = game.info().id;
        let path = common::game_testdata(id).join("parser_errors.yaml");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{id}: no parser inputs in {}: {e}", path.display()));
        let inputs: Vec<(String, String)> = serde_yaml::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a list of [kind, text]: {e}", path.display()));
        assert!(!inputs.is_empty(), "{}: no inputs", path.display());
        let inputs: Vec<(&str, &str)> = inputs
            .iter()
            .map(|(kind, text)| (kind.as_str(), text.as_str()))
            .collect();
        let described = common::describe_parses(game, &inputs);
        common::game_snapshots(id)
            .bind(|| insta::assert_snapshot!("parser_error_messages", described));
    });
}

/// Runs a fuzz body on random bytes of a length in `bytes`, as the per-game proptests did: the
/// default number of cases, a failure kept in `every_game.proptest-regressions`.
fn fuzz(id: &str, body_name: &str, bytes: std::ops::Range<usize>, body: fn(&[u8])) {
    let mut config = common::proptest_config();
    config.source_file = Some(file!());
    let mut runner = TestRunner::new(config);
    let result = runner.run(&vec(any::<u8>(), bytes), |data| {
        body(&data);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{id}: the {body_name} fuzz body: {e}");
    }
}

/// The bodies of the game's fuzz targets (its fuzz capability, which cargo-fuzz runs for hours)
/// hold on random bytes, and on no bytes, zeros and 0xff bytes.
#[test]
fn the_fuzz_bodies_hold_on_random_bytes() {
    for_every_game(|game| {
        let id = game.info().id;
        let bodies = game
            .info()
            .capabilities
            .fuzz
            .unwrap_or_else(|| panic!("{id}: no fuzz bodies"));
        let reply_bytes = SuiteData::of(id).fuzz_reply_bytes;
        for bytes in [&[][..], &[0; 64], &[0xff; 64]] {
            (bodies.prompt)(bytes);
            (bodies.reply)(bytes);
            (bodies.step)(bytes);
        }
        fuzz(id, "prompt", 0..2048, bodies.prompt);
        fuzz(id, "reply", 0..reply_bytes, bodies.reply);
        fuzz(id, "step", 64..4096, bodies.step);
    });
}

/// Libraries up to this many cases run whole through `check`; a larger one runs a tenth of its
/// cases (`--partition count:1/10`): the `conformance` target and CI's `check` run it whole.
const WHOLE_LIBRARY_UP_TO: usize = 100;

/// `shinpan check GAME`: the game's cases pass on its reference engine through the command
/// line (a tenth of a large library).
#[test]
fn the_case_library_passes_on_the_reference_engine() {
    use shinpan::case::{load_library, LoadOptions, Source};
    for_every_game(|game| {
        let id = game.info().id;
        let only = LoadOptions {
            only: vec![id.to_string()],
            ..LoadOptions::default()
        };
        let cases = load_library(&Source::Embedded, &games::all(), &only)
            .unwrap()
            .case_count();
        let mut check = assert_cmd::Command::cargo_bin("shinpan").unwrap();
        check
            .env_remove("SHINPAN_CASES")
            .args(["check", id, "--format", "json"]);
        if cases > WHOLE_LIBRARY_UP_TO {
            check.args(["--partition", "count:1/10"]);
        }
        let out = check.output().unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{id}: {e}: {}", String::from_utf8_lossy(&out.stderr));
        });
        assert_eq!(out.status.code(), Some(0), "{id}: {:#}", report["counts"]);
        let results = report["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{id}: no case");
        assert!(
            results.iter().all(|r| r["game"] == id),
            "{id}: another game's case"
        );
        assert_eq!(
            report["counts"]["passed"],
            results.len(),
            "{id}: {:#}",
            report["counts"]
        );
    });
}

/// Every registered game has its folder, `crates/shinpan-<game>/` (where this suite finds its test
/// data), and its `testdata/suite.yaml` names an example bot that exists.
#[test]
fn every_game_has_its_folder_and_suite_data() {
    for_every_game(|game| {
        let id = game.info().id;
        let folder = common::game_folder(id);
        assert!(
            folder.join("src/lib.rs").is_file(),
            "{id}: no {}",
            folder.display()
        );
        let data = SuiteData::of(id);
        assert!(
            Path::new(&data.bot_path()).is_file(),
            "{id}: no example bot {}",
            data.example_bot
        );
    });
}

/// `shinpan coverage GAME`: every clause of the game's rules has a case.
#[test]
fn the_case_library_covers_every_clause() {
    for_every_game(|game| {
        let id = game.info().id;
        let out = assert_cmd::Command::cargo_bin("shinpan")
            .unwrap()
            .env_remove("SHINPAN_CASES")
            .args(["coverage", id])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{id}: {stdout}");
        assert!(!stdout.contains("uncovered"), "{id}: {stdout}");
    });
}

/// The game's example bot passes the bot checker: its handshake when the game has one, one
/// whole match in each seat against the built-in players, and the extreme prompts.
#[test]
fn the_example_bot_passes_the_checker() {
    for_every_game(|game| {
        let id = game.info().id;
        let data = SuiteData::of(id);
        let save_dir = tempfile::tempdir().unwrap();
        let output = Command::new(SHINPAN)
            .args([
                "bot",
                id,
                "--matches",
                "1",
                // The malformed phase is the checker's own, tried on bots made to trip on it
                // (`bot.rs`, `bot_bad_input.rs`): here it would only take time.
                "--phases",
                "matches,extreme",
                "--format",
                "json",
                "--save-dir",
            ])
            .arg(save_dir.path())
            .args(&data.check_options)
            .args(["--", common::python3(), &data.bot_path()])
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "{id}: not a JSON report ({e}): {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        });
        assert_eq!(output.status.code(), Some(0), "{id}: {report:#}");
        let checks = report["checks"].as_array().unwrap();
        let phase =
            |name: &str| -> Vec<&Value> { checks.iter().filter(|c| c["phase"] == name).collect() };
        if game.info().handshake.is_some() {
            assert_eq!(phase("handshake")[0]["verdict"], "pass", "{id}: {report:#}");
        }
        let matches = phase("matches");
        assert_eq!(
            matches.len(),
            game.info().players,
            "{id}: one match in each seat"
        );
        let extreme = phase("extreme");
        assert!(extreme.len() >= data.extreme_at_least, "{id}: {extreme:#?}");
        for check in matches.into_iter().chain(extreme) {
            assert_eq!(check["verdict"], "pass", "{id}: {check:#}");
        }
    });
}

/// `shinpan play` of the example bot against the built-in players, two matches (the seats
/// rotate), logged: both end with an outcome after more than one step, and the bot's name is
/// logged when the game asks for one first. (That a log of `play` traces clean is
/// [`a_match_played_on_the_reference_engine_traces_clean`].)
#[test]
fn the_example_bot_plays_the_built_in_player() {
    for_every_game(|game| {
        let id = game.info().id;
        let data = SuiteData::of(id);
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log.jsonl");
        let mut cmd = Command::new(SHINPAN);
        cmd.args(["play", id, "--rounds", "2", "--format", "json"])
            .args(&data.play_options)
            .arg("--log")
            .arg(&log)
            .args(["--", common::python3(), &data.bot_path()]);
        for _ in 1..game.info().players {
            cmd.args(["--", "builtin"]);
        }
        let output = cmd.output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{id}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
        let matches = summary["matches"].as_array().unwrap();
        assert_eq!(matches.len(), 2, "{id}: {summary:#}");
        for m in matches {
            assert!(m["outcome"].is_object(), "{id}: {m:#}");
            assert!(m["steps"].as_u64().unwrap() > 1, "{id}: {m:#}");
        }

        let records: Vec<Value> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert!(!records.is_empty(), "{id}: nothing logged");
        if let Some(handshake) = game.info().handshake {
            // The bot sits in seat 0 of the first match: its name comes before any step.
            let name = records
                .iter()
                .find(|r| r["event"] == "reply" && r["player"] == 0)
                .and_then(|r| {
                    r.get("step")
                        .is_none()
                        .then(|| r["text"].as_str())
                        .flatten()
                })
                .unwrap_or_else(|| panic!("{id}: the bot's name is not logged first"));
            let name = name.strip_suffix('\n').unwrap_or(name);
            assert!(
                matches!(
                    game.parse(handshake.parse_kind, name),
                    Some(ParseVerdict::Valid { .. })
                ),
                "{id}: the name logged, {name:?}, is not a name"
            );
        }
    });
}

/// An arena of built-in players (`play --matches 2 --jobs 2`) plays each seed in every seat
/// order. A built-in player's replies depend on its seat, not on who sits in it, so each seed is
/// won by the same seat in every order: the seat that wins the seed's match driven here through
/// the seam. The pair table follows: the contender in that seat beats each other one, and a
/// pair the winner is not in draws (as does every pair of a drawn match).
#[test]
fn an_arena_of_built_in_players_plays_every_seat_order() {
    for_every_game(|game| {
        let id = game.info().id;
        let players = game.info().players;
        let mut cmd = Command::new(SHINPAN);
        cmd.args([
            "play",
            id,
            "--matches",
            "2",
            "--jobs",
            "2",
            "--format",
            "json",
        ]);
        for _ in 0..players {
            cmd.args(["--", "builtin"]);
        }
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{id}: {stderr}");
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        let orders: Vec<Vec<usize>> = serde_json::from_value(report["orders"].clone()).unwrap();
        let every_order = (1..=players).product::<usize>();
        let distinct: BTreeSet<&Vec<usize>> = orders.iter().collect();
        assert_eq!(
            (orders.len(), distinct.len()),
            (every_order, every_order),
            "{id}"
        );
        assert_eq!(report["played"], 2 * every_order, "{id}: {report:#}");

        // (a, b) → [wins, losses, draws] of a against b.
        let mut expected: BTreeMap<(usize, usize), [u64; 3]> = BTreeMap::new();
        for seed in [1, 2] {
            let played = BuiltIn::start_unprompted(game, seed).play_out(|_, _| {});
            let winning_seat = played.play.outcome().and_then(|o| o.winner);
            for order in &orders {
                let winner = winning_seat.map(|s| order[s]);
                for a in 0..players {
                    for b in a + 1..players {
                        let counts = expected.entry((a, b)).or_default();
                        match winner {
                            Some(w) if w == a => counts[0] += 1,
                            Some(w) if w == b => counts[1] += 1,
                            _ => counts[2] += 1,
                        }
                    }
                }
            }
        }
        let found: BTreeMap<(usize, usize), [u64; 3]> = report["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let n = |key: &str| p[key].as_u64().unwrap();
                (
                    (n("a") as usize, n("b") as usize),
                    [n("wins"), n("losses"), n("draws")],
                )
            })
            .collect();
        assert_eq!(found, expected, "{id}: {report:#}");
    });
}

/// A match between the built-in players, played and logged by `shinpan play`, traces clean:
/// every step walked and agreeing, no departure, no note, and the log whole.
#[test]
fn a_match_played_on_the_reference_engine_traces_clean() {
    for_every_game(|game| {
        let id = game.info().id;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("match.jsonl");
        let mut cmd = Command::new(SHINPAN);
        cmd.args(["play", id, "--seed", "7", "--log"]).arg(&log);
        for _ in 0..game.info().players {
            cmd.args(["--", "builtin"]);
        }
        let played = cmd.output().unwrap();
        assert!(
            played.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&played.stderr)
        );
        let output = Command::new(SHINPAN)
            .args(["trace", id, "--format", "json"])
            .arg(&log)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!("{id}: {e}: {}", String::from_utf8_lossy(&output.stderr));
        });
        let code = output.status.code();
        assert_eq!(code, Some(0), "{id}: {report:#}");
        // Every step of the log walked, and each agreeing with the rules.
        let steps = report["steps"].as_u64().unwrap();
        assert!(steps > 1, "{id}: {report:#}");
        assert_eq!(report["steps_in_log"], steps, "{id}: {report:#}");
        assert_eq!(report["agreeing"], steps, "{id}: {report:#}");
        assert_eq!(report["departures"], serde_json::json!([]), "{id}");
        assert_eq!(report["notes"], serde_json::json!([]), "{id}");
        // A finished `play --log` ends every match with its `end` record: the log is whole.
        assert_eq!(report["complete"], true, "{id}: {report:#}");
    });
}

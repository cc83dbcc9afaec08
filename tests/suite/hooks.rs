//! What the generic suite needs of a game that the `Game` seam does not give it: the example
//! bot in `tests/bots/` that speaks its protocol, the options its bot checker and `play` tests
//! run with, its fuzz target bodies, and how its golden playthrough is abridged. One entry per
//! registered game; a game without one still gets every test that needs none of this (its
//! golden playthrough then keeps every prompt and reply), and the others fail saying what to
//! add here.

use serde_json::Value;
use shinpan::games::{cedec2013, codevs4, codevs_reborn, spring2022, tsg_auto_chess};
use shinpan::seam::Outcome;

const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// A registered game's entry.
pub struct Hooks {
    /// The example bot, a Python program in `tests/bots/` that plays the game legally and takes
    /// `--on-bad-input crash|report|skip`.
    pub bot: &'static str,
    /// Options of `shinpan bot` for the example bot (time limits for a shared machine), and the
    /// fewest extreme prompts its checker must send.
    pub check_options: &'static [&'static str],
    pub extreme_at_least: usize,
    /// Options of `shinpan play` for the example bot against the built-in player.
    pub play_options: &'static [&'static str],
    pub fuzz: Fuzz,
    /// `None`: every prompt and reply of the match.
    pub golden: Option<Golden>,
}

impl Hooks {
    /// The example bot's path.
    pub fn bot_path(&self) -> String {
        format!("{BOTS}/{}", self.bot)
    }
}

/// The bodies of the game's fuzz targets (`src/games/<game>/fuzz.rs`), each panicking on a
/// broken property, and the longest reply worth trying on its reply body.
pub struct Fuzz {
    pub prompt: fn(&[u8]),
    pub reply: fn(&[u8]),
    pub step: fn(&[u8]),
    pub reply_bytes: usize,
}

/// How a golden playthrough is written: what each step adds, and the end.
pub struct Golden {
    pub step: fn(&mut String, &GoldenStep),
    pub end: fn(&mut String, &GoldenEnd),
}

/// One step of the golden match: its number (from 0), the canonical state it is played from,
/// and the prompts and replies of the awaited players in order.
pub struct GoldenStep<'a> {
    pub index: usize,
    pub state: &'a Value,
    pub prompts: &'a [String],
    pub replies: &'a [String],
}

/// The end of the golden match.
pub struct GoldenEnd<'a> {
    pub steps: usize,
    pub outcome: &'a Outcome,
    /// The canonical state the match ended in, and what each player would be sent there.
    pub state: &'a Value,
    pub final_prompts: &'a [String],
    /// The prompts of the last step played.
    pub last_prompts: &'a [String],
}

/// The entry of the game `id`, if it has one.
pub fn of(id: &str) -> Option<Hooks> {
    Some(match id {
        "codevs-reborn" => Hooks {
            bot: "good.py",
            check_options: &["--turn-ms", "1000", "--handshake-ms", "5000"],
            extreme_at_least: 10,
            play_options: &["--turn-ms", "2000", "--handshake-ms", "5000"],
            fuzz: Fuzz {
                prompt: codevs_reborn::fuzz::prompt,
                reply: codevs_reborn::fuzz::reply,
                step: codevs_reborn::fuzz::step,
                reply_bytes: 64,
            },
            golden: Some(Golden {
                step: reborn_step,
                end: reborn_end,
            }),
        },
        "cedec2013" => Hooks {
            bot: "cedec_idle.py",
            check_options: &[],
            extreme_at_least: 8,
            play_options: &[],
            fuzz: Fuzz {
                prompt: cedec2013::fuzz::prompt,
                reply: cedec2013::fuzz::reply,
                step: cedec2013::fuzz::step,
                reply_bytes: 96,
            },
            golden: Some(Golden {
                step: cedec_step,
                end: cedec_end,
            }),
        },
        "codevs4" => Hooks {
            bot: "codevs4_bot.py",
            check_options: &[],
            extreme_at_least: 10,
            play_options: &[],
            fuzz: Fuzz {
                prompt: codevs4::fuzz::prompt,
                reply: codevs4::fuzz::reply,
                step: codevs4::fuzz::step,
                reply_bytes: 128,
            },
            golden: Some(Golden {
                step: codevs4_step,
                end: codevs4_end,
            }),
        },
        "tsg-auto-chess" => Hooks {
            bot: "tsg_auto_chess_bot.py",
            check_options: &["--turn-ms", "2000", "--handshake-ms", "5000"],
            extreme_at_least: 8,
            play_options: &["--turn-ms", "2000", "--handshake-ms", "5000"],
            fuzz: Fuzz {
                prompt: tsg_auto_chess::fuzz::prompt,
                reply: tsg_auto_chess::fuzz::reply,
                step: tsg_auto_chess::fuzz::step,
                reply_bytes: 128,
            },
            golden: Some(Golden {
                step: tsg_step,
                end: tsg_end,
            }),
        },
        "spring2022" => Hooks {
            bot: "spring2022_bot.py",
            // A Python bot handed a truncated prompt at its start may take over a second to see
            // the end of its input and exit when the machine is busy.
            check_options: &["--turn-ms", "3000"],
            extreme_at_least: 10,
            play_options: &["--turn-ms", "1000"],
            fuzz: Fuzz {
                prompt: spring2022::fuzz::prompt,
                reply: spring2022::fuzz::reply,
                step: spring2022::fuzz::step,
                reply_bytes: 96,
            },
            golden: Some(Golden {
                step: spring_step,
                end: spring_end,
            }),
        },
        _ => return None,
    })
}

/// Every prompt and reply of the match, for a game without an entry.
pub fn whole_step(out: &mut String, step: &GoldenStep) {
    out.push_str(&format!("=== step {} ===\n", step.index));
    for (p, (prompt, reply)) in step.prompts.iter().zip(step.replies).enumerate() {
        out.push_str(&format!(
            "--- prompt {p} ---\n{prompt}--- reply {p} ---\n{reply}\n"
        ));
    }
}

/// The end of a match written by [`whole_step`].
pub fn whole_end(out: &mut String, end: &GoldenEnd) {
    out.push_str(&format!(
        "=== end after {} steps: {:?} ===\n",
        end.steps, end.outcome
    ));
}

/// A whole number of the state at `pointer` (`/turn`), as written in the state.
fn number(state: &Value, pointer: &str) -> u64 {
    state
        .pointer(pointer)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("the state has no number at {pointer}"))
}

/// CODE VS Reborn: every prompt and reply of the whole match.
fn reborn_step(out: &mut String, step: &GoldenStep) {
    out.push_str(&format!("=== turn {} ===\n", number(step.state, "/turn")));
    for (p, (prompt, reply)) in step.prompts.iter().zip(step.replies).enumerate() {
        out.push_str(&format!(
            "--- prompt to player {p} ---\n{prompt}--- reply of player {p} ---\n{reply}\n"
        ));
    }
}

fn reborn_end(out: &mut String, end: &GoldenEnd) {
    out.push_str(&format!(
        "=== end after {} turns: {:?} ===\n",
        end.steps, end.outcome
    ));
}

/// CEDEC 2013: the whole match is about 600 turns of 130-line prompts; the snapshot keeps every
/// prompt and reply of the name exchange and round 1, every reply after that, and the final
/// request and outcome.
fn cedec_step(out: &mut String, step: &GoldenStep) {
    let round = number(step.state, "/round");
    out.push_str(&format!(
        "=== round {round} player {} ===\n",
        number(step.state, "/player")
    ));
    if round <= 1 {
        out.push_str(&format!("--- prompt ---\n{}", step.prompts[0]));
    }
    out.push_str(&format!("--- reply ---\n{}\n", step.replies[0]));
}

fn cedec_end(out: &mut String, end: &GoldenEnd) {
    let scores: Vec<u64> = end.state["scores"]
        .as_array()
        .expect("the state's scores are a list")
        .iter()
        .map(|s| s.as_u64().expect("a score is a whole number"))
        .collect();
    out.push_str(&format!(
        "=== end after {} steps: {:?}, scores {scores:?} ===\n--- final request to player 0 ---\n{}",
        end.steps, end.outcome, end.final_prompts[0]
    ));
}

/// CODE VS 4.0: a stage is 1000 turns of prompts listing dozens of units; the snapshot keeps the
/// first three turns in full (both prompts and replies), then one line per turn (units,
/// resources, order counts), and the end.
fn codevs4_step(out: &mut String, step: &GoldenStep) {
    let turn = number(step.state, "/turn");
    if turn < 3 {
        out.push_str(&format!("=== turn {turn} ===\n"));
        for p in 0..2 {
            out.push_str(&format!(
                "--- prompt {p} ---\n{}--- reply {p} ---\n{}\n",
                step.prompts[p], step.replies[p]
            ));
        }
        return;
    }
    let units = |p: u64| {
        step.state["units"]
            .as_object()
            .expect("the state's units are a map")
            .values()
            .filter(|u| u["owner"].as_u64() == Some(p))
            .count()
    };
    let orders = |p: usize| step.replies[p].lines().count() - 1;
    out.push_str(&format!(
        "turn {turn}: units {} / {}, resources {} / {}, orders {} / {}\n",
        units(0),
        units(1),
        number(step.state, "/players/0/resources"),
        number(step.state, "/players/1/resources"),
        orders(0),
        orders(1),
    ));
}

fn codevs4_end(out: &mut String, end: &GoldenEnd) {
    out.push_str(&format!(
        "=== end after {} steps: {:?} ===\n",
        end.steps, end.outcome
    ));
}

/// TSG AUTO CHESS: a match is about a hundred turns of ~12-line prompts; the snapshot keeps both
/// prompts and replies of the first three turns, every reply after that, and the final prompts
/// and outcome.
fn tsg_step(out: &mut String, step: &GoldenStep) {
    let turn = number(step.state, "/turn");
    out.push_str(&format!("=== turn {turn} ===\n"));
    for p in 0..2 {
        if turn < 3 {
            out.push_str(&format!("--- prompt {p} ---\n{}", step.prompts[p]));
        }
        out.push_str(&format!("--- reply {p} ---\n{}\n", step.replies[p]));
    }
}

fn tsg_end(out: &mut String, end: &GoldenEnd) {
    out.push_str(&format!(
        "=== end after {} steps: {:?} ===\n--- final prompt to player 0 ---\n{}--- final prompt to player 1 ---\n{}",
        end.steps, end.outcome, end.final_prompts[0], end.final_prompts[1]
    ));
}

/// Spring Challenge 2022: a whole match; the prompts of the first two turns and of the last,
/// every reply, and the end.
fn spring_step(out: &mut String, step: &GoldenStep) {
    let turn = number(step.state, "/turn");
    out.push_str(&format!("=== turn {turn} ===\n"));
    if turn <= 2 {
        for (p, prompt) in step.prompts.iter().enumerate() {
            out.push_str(&format!("--- prompt to player {p} ---\n{prompt}"));
        }
    }
    for (p, reply) in step.replies.iter().enumerate() {
        out.push_str(&format!("--- reply of player {p} ---\n{reply}\n"));
    }
}

fn spring_end(out: &mut String, end: &GoldenEnd) {
    out.push_str(&format!(
        "=== end after {} turns: {:?} ===\n",
        end.steps, end.outcome
    ));
    for (p, prompt) in end.last_prompts.iter().enumerate() {
        out.push_str(&format!("--- last prompt to player {p} ---\n{prompt}"));
    }
}

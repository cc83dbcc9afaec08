//! How a game's golden playthrough is abridged (`every_game.rs`), for a game whose whole match
//! would be too long a snapshot to review: what each step adds, and the end. A game without an
//! entry keeps every prompt and reply ([`whole_step`], [`whole_end`]); a game needs nothing here
//! to be tested. What else the generic suite needs of a game is data in its folder,
//! `crates/shinpan-<game>/testdata/suite.yaml` ([`crate::common::SuiteData`]).

use serde_json::Value;
use shinpan::seam::Outcome;

/// How a golden playthrough is written: what each step adds, and the end.
pub struct Golden {
    pub step: fn(&mut String, &GoldenStep),
    pub end: fn(&mut String, &GoldenEnd),
}

/// One step of the golden match: its number (from 0), the canonical state it is played from,
/// the awaited players, and their prompts and replies in that order.
pub struct GoldenStep<'a> {
    pub index: usize,
    pub state: &'a Value,
    pub awaiting: &'a [usize],
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

/// How the golden playthrough of the game `id` is written.
pub fn golden(id: &str) -> Golden {
    let of = |step, end| Golden { step, end };
    match id {
        "codevs-reborn" => of(reborn_step, reborn_end),
        "cedec2013" => of(cedec_step, cedec_end),
        "codevs4" => of(codevs4_step, codevs4_end),
        "tsg-auto-chess" => of(tsg_step, tsg_end),
        "spring2022" => of(spring_step, spring_end),
        _ => of(whole_step, whole_end),
    }
}

/// Every prompt and reply of the match, for a game without an entry.
pub fn whole_step(out: &mut String, step: &GoldenStep) {
    out.push_str(&format!("=== step {} ===\n", step.index));
    for ((p, prompt), reply) in step.awaiting.iter().zip(step.prompts).zip(step.replies) {
        out.push_str(&format!(
            "--- prompt to player {p} ---\n{prompt}--- reply of player {p} ---\n{reply}\n"
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

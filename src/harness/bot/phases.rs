//! The four phases of the bot checker, in the order they run. The handshake is one check, on
//! its own bot, and decides whether the others run. The other three build their list of checks,
//! each on a fresh bot, and run it through `Checker::phase`, which owns the budget and the stop
//! at the first FAIL.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::judge::{broke, failed, judge, show, text_reply};
use super::{clock, Checker, Found, Phase, Run, Verdict};
use crate::game::{ParseVerdict, Reply, ReplyVerdict};
use crate::harness::mutate;
use crate::harness::session::{crashed_by_signal, describe_end, stderr_summary, Failure, Session};

impl Checker<'_> {
    /// Whether the bot got past the handshake; an error when it cannot be started at all.
    pub(super) fn handshake_phase(&mut self) -> std::io::Result<bool> {
        let started = Instant::now();
        let mut session = Session::start(
            self.argv,
            self.options.process,
            clock(self.game, self.options),
            self.budget_end,
        )?;
        let Some(handshake) = self.game.handshake() else {
            session.finish();
            self.record(
                Phase::Handshake,
                "none".into(),
                Found::new(Verdict::Info, "the game asks for no handshake"),
                Duration::ZERO,
            );
            return Ok(true);
        };
        let kind = handshake.parse_kind;
        let found = match session.handshake(&handshake) {
            Err(failure) => broke(&mut session, kind, failure),
            Ok(answer) => {
                let found = match self.game.parse(kind, &answer.text) {
                    Some(ParseVerdict::Valid { .. }) | None => Found::new(
                        Verdict::Pass,
                        format!(
                            "{kind} `{}` in {} ms",
                            show(&answer.text),
                            answer.elapsed.as_millis()
                        ),
                    ),
                    Some(ParseVerdict::NonStrict(e)) => Found::new(
                        Verdict::NonStrict,
                        format!("{kind} `{}`: {e}", show(&answer.text)),
                    ),
                    Some(ParseVerdict::Invalid(e)) => failed(
                        &mut session,
                        format!("{kind} `{}`: {e}", show(&answer.text)),
                    ),
                };
                let ended = session.finish();
                if ended.pipe_held_by_descendant && found.verdict != Verdict::Fail {
                    failed(
                        &mut session,
                        format!("{}; then it {}", found.detail, describe_end(&ended)),
                    )
                } else {
                    found
                }
            }
        };
        let passed = found.verdict != Verdict::Fail;
        self.record(Phase::Handshake, kind.into(), found, started.elapsed());
        Ok(passed)
    }

    pub(super) fn matches_phase(&mut self) {
        let players = self.game.info().players;
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for m in 0..self.options.matches as u64 {
            let seed = self.options.seed.wrapping_add(m);
            for seat in 0..players {
                runs.push((
                    format!("seed-{seed}-seat-{seat}"),
                    Box::new(move |c: &mut Self| c.one_match(seed, seat)),
                ));
            }
        }
        self.phase(Phase::Matches, runs);
    }

    fn one_match(&self, seed: u64, seat: usize) -> Found {
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let mut game = match self.game.start(seed, &self.options.match_options) {
            Ok(game) => game,
            Err(e) => return Found::new(Verdict::Info, format!("the engine: {e}")),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_0000 ^ seat as u64);
        let mut steps = 0;
        let mut slowest = Duration::ZERO;
        let mut non_strict = None;
        while game.outcome().is_none() {
            let awaiting = game.awaiting();
            let mut replies = Vec::with_capacity(awaiting.len());
            for &player in &awaiting {
                if player != seat {
                    replies.push(Reply::text(game.random_reply(player, &mut rng)));
                    continue;
                }
                let prompt = game.prompt(player);
                match session.ask(prompt.as_bytes(), |lines| game.frame(player, lines)) {
                    Ok(answer) => {
                        slowest = slowest.max(answer.elapsed);
                        replies.push(text_reply(&answer));
                    }
                    Err(failure) => return broke(&mut session, &format!("step {steps}"), failure),
                }
            }
            let Some(index) = awaiting.iter().position(|&p| p == seat) else {
                if let Err(e) = game.step(&replies) {
                    return Found::new(Verdict::Info, format!("step {steps}: the engine: {e}"));
                }
                steps += 1;
                continue;
            };
            let bot_text = match &replies[index] {
                Reply::Text { text, .. } => text.clone(),
                _ => String::new(),
            };
            match game.step(&replies).map(|r| r.replies.get(index).cloned()) {
                Err(e) => {
                    return Found::new(Verdict::Info, format!("step {steps}: the engine: {e}"))
                }
                Ok(Some(ReplyVerdict::Rejected(why))) => {
                    return failed(
                        &mut session,
                        format!("step {steps}: illegal reply `{}`: {why}", show(&bot_text)),
                    )
                }
                Ok(Some(ReplyVerdict::TimedOut)) => {
                    return failed(
                        &mut session,
                        format!("step {steps}: the engine's clock ran out (total thinking time)"),
                    )
                }
                Ok(Some(ReplyVerdict::NonStrict(why))) => {
                    non_strict.get_or_insert(format!("step {steps}: `{}`: {why}", show(&bot_text)));
                }
                Ok(_) => {}
            }
            steps += 1;
        }
        let ended = session.finish();
        let outcome = game.outcome().map_or_else(String::new, |o| match o.winner {
            Some(w) if w == seat => format!("won ({})", o.reason),
            Some(_) => format!("lost ({})", o.reason),
            None => format!("draw ({})", o.reason),
        });
        let summary = format!(
            "{steps} steps, {outcome}, slowest reply {} ms",
            slowest.as_millis()
        );
        if ended.pipe_held_by_descendant {
            let mut found = Found::new(
                Verdict::Fail,
                format!("{summary}; then it {}", describe_end(&ended)),
            );
            found.input = Some(session.transcript().to_vec());
            return found;
        }
        match non_strict {
            Some(first) => Found::new(Verdict::NonStrict, format!("{summary}; first: {first}")),
            None => Found::new(Verdict::Pass, summary),
        }
    }

    pub(super) fn extreme_phase(&mut self) {
        let cases = self.game.edge_cases();
        if cases.is_empty() {
            self.record(
                Phase::Extreme,
                "none".into(),
                Found::new(Verdict::Info, "the game offers no extreme prompts"),
                Duration::ZERO,
            );
            return;
        }
        let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for (i, name) in names.into_iter().enumerate() {
            runs.push((name, Box::new(move |c: &mut Self| c.one_edge(i))));
        }
        self.phase(Phase::Extreme, runs);
    }

    fn one_edge(&self, index: usize) -> Found {
        let Some(case) = self.game.edge_cases().into_iter().nth(index) else {
            return Found::new(Verdict::Info, "no such case");
        };
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let mut worst = Found::new(Verdict::Pass, "");
        let mut answers = Vec::new();
        for (i, state) in case.states.iter().enumerate() {
            if !state.awaiting().contains(&case.seat) {
                continue;
            }
            let prompt = state.prompt(case.seat);
            let answer = match session.ask(prompt.as_bytes(), |l| state.frame(case.seat, l)) {
                Ok(answer) => answer,
                Err(failure) => return broke(&mut session, &format!("prompt {}", i + 1), failure),
            };
            answers.push(format!("`{}`", show(&answer.text)));
            // Legality is judged on the text alone: the deadline judged the time.
            let text = Reply::text(answer.text.clone());
            match judge(state.as_ref(), case.seat, text) {
                ReplyVerdict::Rejected(why) => {
                    return failed(
                        &mut session,
                        format!(
                            "prompt {}: illegal reply `{}`: {why}",
                            i + 1,
                            show(&answer.text)
                        ),
                    )
                }
                ReplyVerdict::NonStrict(why) if worst.verdict == Verdict::Pass => {
                    worst = Found::new(
                        Verdict::NonStrict,
                        format!("prompt {}: `{}`: {why}", i + 1, show(&answer.text)),
                    );
                }
                _ => {}
            }
        }
        session.finish();
        if worst.verdict == Verdict::Pass {
            worst.detail = format!("answered {}", answers.join(", "));
        }
        worst
    }

    pub(super) fn malformed_phase(&mut self) {
        let Ok(base) = self
            .game
            .start(self.options.seed, &self.options.match_options)
        else {
            return;
        };
        let Some(&seat) = base.awaiting().first() else {
            return;
        };
        let prompt = base.prompt(seat);
        let mut rng = ChaCha8Rng::seed_from_u64(self.options.seed);
        let mut runs: Vec<Run<'_, Self>> = Vec::new();
        for mutant in mutate::mutants(&prompt, &mut rng) {
            let seed = self.options.seed;
            runs.push((
                mutant.name.to_string(),
                Box::new(move |c: &mut Self| c.one_mutant(seed, seat, mutant)),
            ));
        }
        self.phase(Phase::Malformed, runs);
    }

    fn one_mutant(&self, seed: u64, seat: usize, mutant: mutate::Mutant) -> Found {
        let state = match self.game.start(seed, &self.options.match_options) {
            Ok(state) => state,
            Err(e) => return Found::new(Verdict::Info, format!("the engine: {e}")),
        };
        let mut session = match self.fresh_bot() {
            Ok(s) => s,
            Err(found) => return found,
        };
        let answer = session.ask_then_close(&mutant.bytes, |l| state.frame(seat, l));
        let note = &mutant.note;
        let mut found = match answer {
            Ok(answer) => {
                let shown = show(&answer.text);
                match judge(state.as_ref(), seat, Reply::text(answer.text)) {
                    ReplyVerdict::Accepted => {
                        Found::new(Verdict::Pass, format!("{note}: answered `{shown}`, a legal reply"))
                    }
                    ReplyVerdict::NonStrict(why) => Found::new(
                        Verdict::NonStrict,
                        format!("{note}: answered `{shown}`: {why}"),
                    ),
                    other => Found::new(
                        Verdict::Info,
                        format!("{note}: answered `{shown}`, which the engine would not play ({other:?}); the document leaves this open"),
                    ),
                }
            }
            Err(Failure::Read(crate::harness::process::ReadFailure::Eof)) => {
                let ended = session.finish();
                let how = describe_end(&ended);
                let stderr = stderr_summary(&session.stderr_tail(), 1)
                    .map(|s| format!("; stderr: {s}"))
                    .unwrap_or_default();
                // Its input is closed: a bot that neither answers nor exits has to be killed.
                if crashed_by_signal(&ended) || ended.pipe_held_by_descendant || ended.killed {
                    let mut found = Found::new(
                        Verdict::Fail,
                        format!("{note}: no reply, and it {how}{stderr}"),
                    );
                    found.input = Some(session.transcript().to_vec());
                    return found;
                }
                Found::new(
                    Verdict::Info,
                    format!("{note}: no reply, it {how}{stderr} (acceptable: the document leaves this open)"),
                )
            }
            Err(failure) => {
                let found = broke(&mut session, note, failure);
                return Found {
                    detail: match found.verdict {
                        Verdict::Fail => {
                            format!("{} (after the prompt and end of input)", found.detail)
                        }
                        _ => found.detail,
                    },
                    ..found
                };
            }
        };
        let ended = session.finish();
        if crashed_by_signal(&ended) || ended.pipe_held_by_descendant {
            found = Found::new(
                Verdict::Fail,
                format!("{}; then it {}", found.detail, describe_end(&ended)),
            );
            found.input = Some(session.transcript().to_vec());
        }
        found
    }
}

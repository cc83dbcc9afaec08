//! Judging what a bot did: whether the engine would take its reply, and the verdict when its
//! session broke (with how the program ended and its stderr); also how a reply is shown in a
//! report. Every FAIL made here carries the transcript, so the input that caused it can be saved
//! for replay. The phases decide what to ask; this module only weighs the answer.

use super::{CheckVerdict, Found};
use crate::harness::session::{stderr_summary, Failure, Session};
use crate::seam::{DynMatch, Reply, ReplyVerdict};

/// How the engine takes `reply` from `seat` on a copy of `state` (others play the built-in).
pub(super) fn judge(state: &dyn DynMatch, seat: usize, reply: Reply) -> ReplyVerdict {
    let mut copy = state.fork();
    let awaiting = copy.awaiting();
    let mut rng = crate::rng::seeded(0, 0);
    let replies: Vec<Reply> = awaiting
        .iter()
        .map(|&p| {
            if p == seat {
                reply.clone()
            } else {
                Reply::text(copy.random_reply(p, &mut rng))
            }
        })
        .collect();
    let index = awaiting.iter().position(|&p| p == seat);
    match (copy.step(&replies), index) {
        (Ok(report), Some(i)) => report
            .replies
            .get(i)
            .cloned()
            .unwrap_or(ReplyVerdict::Accepted),
        (Err(e), _) => ReplyVerdict::Rejected(format!("the engine cannot step: {e}")),
        (Ok(_), None) => ReplyVerdict::Rejected("the seat is not awaited".into()),
    }
}

/// A FAIL that names the input that caused it.
pub(super) fn failed(session: &mut Session, detail: String) -> Found {
    session.finish();
    Found {
        verdict: CheckVerdict::Fail,
        detail,
        input: Some(session.transcript().to_vec()),
        exchange: Some(Box::new(session.last_exchange())),
    }
}

/// The verdict when a session broke: the failure, how the program ended, its stderr.
pub(super) fn broke(session: &mut Session, when: &str, failure: Failure) -> Found {
    let ended = session.finish();
    if failure == Failure::OverBudget {
        return Found::new(CheckVerdict::Incomplete, format!("{when}: {failure}"));
    }
    let stderr = stderr_summary(&session.stderr_tail(), 2)
        .map(|s| format!("; stderr: {s}"))
        .unwrap_or_default();
    failed(
        session,
        format!(
            "{when}: {failure}; the program {}{stderr}",
            ended.describe()
        ),
    )
}

/// A reply for a report: at most 60 characters, control characters escaped.
pub(super) fn show(text: &str) -> String {
    let escaped: String = text.escape_debug().collect();
    match escaped.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &escaped[..i]),
        None => escaped,
    }
}

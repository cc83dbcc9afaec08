//! What a seat's failure in a match was, apart from the match's result: a crash, a time-out or
//! an illegal reply, the first of each seat's, at its step, as `play` reports it per match and
//! `play --matches` counts it per contender. Taken from the reply verdicts the engine gave
//! (`ReplyVerdict::{Crashed, TimedOut, Rejected}`) and the bot's own failure, which says how.

use serde::{Deserialize, Serialize};

use crate::harness::referee::StepRecord;
use crate::harness::session::Failure;
use crate::seam::{Reply, ReplyVerdict};

/// How a program failed in a match, whatever the result: what `play --matches` counts per
/// contender apart from its losses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The program exited, broke a pipe, flooded or sent what no frame reads: verdict `crashed`.
    Crash,
    /// No whole reply by the deadline: verdict `timed-out` (or a handshake too late).
    TimeOut,
    /// A reply the engine refused under the rules: verdict `rejected`.
    Illegal,
}

impl FailureKind {
    /// The word the reports use: `crash`, `time-out`, `illegal`.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Crash => "crash",
            FailureKind::TimeOut => "time-out",
            FailureKind::Illegal => "illegal",
        }
    }
}

/// A seat's first failure in a match: what, at which step (`None`: the handshake), and the
/// words of the failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatFailure {
    pub kind: FailureKind,
    pub step: Option<usize>,
    pub detail: String,
}

impl SeatFailure {
    /// A program that failed its handshake: too late, or anything else (a crash).
    pub fn of_handshake(failure: &Failure) -> SeatFailure {
        SeatFailure {
            kind: match failure {
                Failure::TimedOut { .. } => FailureKind::TimeOut,
                _ => FailureKind::Crash,
            },
            step: None,
            detail: format!("handshake: {failure}"),
        }
    }
}

/// The failure the `i`th reply of `record` (step `step`) shows, if it shows one: its verdict
/// says what, the bot's failure (or the engine's reason) says how.
pub(crate) fn failure_of(record: &StepRecord, i: usize, step: usize) -> Option<SeatFailure> {
    let how = |fallback: &str| {
        record.new_faults[i]
            .as_ref()
            .map_or_else(|| fallback.to_string(), Failure::to_string)
    };
    let (kind, detail) = match (record.verdicts.get(i)?, &record.replies[i]) {
        (ReplyVerdict::TimedOut, _) => (FailureKind::TimeOut, how("no reply in time")),
        (ReplyVerdict::Crashed, _) => (FailureKind::Crash, how("no reply: the program failed")),
        (ReplyVerdict::Rejected(why), Reply::Text { text, .. }) => {
            let shown: String = text.escape_debug().take(60).collect();
            (FailureKind::Illegal, format!("`{shown}`: {why}"))
        }
        (ReplyVerdict::Rejected(why), _) => (FailureKind::Illegal, why.clone()),
        _ => return None,
    };
    Some(SeatFailure {
        kind,
        step: Some(step),
        detail,
    })
}

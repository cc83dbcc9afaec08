//! A game for the tests of the seam and of the generic code around it, here and in the crates
//! above (capabilities, fuzz bodies, report pages): not a game of shinpan's. Built for tests
//! only (`cfg(test)`, or the `testing` feature a crate's dev-dependency turns on).

use rand::RngCore;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

/// A game for the tests of the seam and of the generic code around it (capabilities, fuzz
/// bodies): players 0 and 1 move in turn, each step adds the reply's number to `total`, and
/// the match ends when it reaches 3.
pub struct Count;

static COUNT: GameInfo = GameInfo {
    id: "count",
    title: "Count",
    document: RuleDocument {
        title: "",
        source: "",
    },
    protocol: ProtocolPage { path: "", text: "" },
    players: 2,
    replies_per_step: 1,
    limits: TimeLimits::NONE,
    handshake: None,
    parse_kinds: &[],
    fuzz: FuzzHints {
        numbers: &[],
        replies: &[],
    },
    capabilities: Capabilities::NONE,
};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
pub struct Total {
    pub total: u32,
    pub turn: usize,
}

impl GameState for Total {
    fn validate(&self) -> Result<(), StateError> {
        if self.turn == 0 && self.outcome().is_some() {
            return Err(StateError::new(
                "a match cannot be over before its first step",
            ));
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.total >= 3).then(|| Outcome::won_by((self.turn + 1) % 2, "three"))
    }
}

impl Game for Count {
    type State = Total;
    type Options = NoOptions;
    const INFO: &'static GameInfo = &COUNT;

    fn new_match(&self, _: u64, _: &NoOptions) -> Total {
        Total::default()
    }
    fn awaiting(&self, state: &Total) -> Vec<usize> {
        match self.outcome(state) {
            Some(_) => Vec::new(),
            None => vec![state.turn % 2],
        }
    }
    fn prompt(&self, state: &Total, _: usize) -> String {
        format!("{}\n", state.total)
    }
    fn frame(&self, _: &Total, _: usize, _: &[&str]) -> Frame {
        Frame::Complete
    }
    fn step(&self, state: &mut Total, replies: &[Reply]) -> StepResult {
        let Reply::Text { text, .. } = &replies[0] else {
            return Err(StepError::BadState("no text".into()));
        };
        state.total += text.parse::<u32>().unwrap_or(0);
        state.turn += 1;
        Ok(StepReport {
            replies: vec![ReplyVerdict::Accepted],
        })
    }
    fn parse(&self, _: &str, _: &str) -> Option<ParseVerdict> {
        None
    }
    fn random_reply(&self, _: &Total, _: usize, _: &mut dyn RngCore) -> String {
        "1".into()
    }
}

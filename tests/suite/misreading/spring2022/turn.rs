//! The frame of the Spring Challenge 2022 misreading engines: the reference engine asked one turn
//! at a time, on typed states, so that a misread engine changes what goes into a turn (what it
//! would have kept) and what comes out of it (what it would have computed instead), and the next
//! turn starts from the engine's own state, as a contestant's simulator carries its errors
//! forward. Prompts are printed from the engine's state by the engine, never taken from the
//! reference.

use serde_json::Value;
use shinpan::games::spring2022::state::State;
use shinpan::games::spring2022::vision::prompt_of;
use shinpan::run::{
    Answered, EngineError, EngineUnderTest, NewMatchRequest, ParseRequest, Reference, StepRequest,
    StepResponse,
};
use shinpan::seam::{DynGame, ParseVerdict, Reply};

/// What a misread engine does that the reference does not: one turn, and the prompts.
pub trait Misread {
    fn name(&self) -> &'static str;

    /// One turn from `state` (a match still going on) with both players' `replies`, built from
    /// turns of the reference ([`Pass`]).
    fn turn(&self, pass: &Pass<'_>, state: &State, replies: &[Reply]) -> Result<Turn, EngineError>;

    /// The prompt `player` reads on `state`.
    fn prompt(&self, state: &State, player: usize) -> String {
        prompt_of(state, player).print()
    }
}

/// One turn played: the state it leaves, and how it took each reply.
pub struct Turn {
    pub state: State,
    pub last_replies: Vec<String>,
}

/// The reference's turn on a typed state, for the request being answered.
pub struct Pass<'a> {
    game: &'a dyn DynGame,
    id: &'a str,
}

impl Pass<'_> {
    pub fn play(&self, state: &State, replies: &[Reply]) -> Result<Turn, EngineError> {
        let value = to_value(state)?;
        let turns = [replies.to_vec()];
        let request = StepRequest {
            id: self.id,
            game: self.game,
            state: &value,
            turns: &turns,
            reachable: true,
        };
        match Reference.step(request) {
            Answered::Done(response) => Ok(Turn {
                state: from_value(&response.state)?,
                last_replies: response.last_replies,
            }),
            Answered::Error(e) => Err(e),
            Answered::Unsupported(why) => Err(EngineError::Other(why)),
        }
    }
}

fn to_value(state: &State) -> Result<Value, EngineError> {
    serde_json::to_value(state)
        .map_err(|e| EngineError::Other(format!("the state does not write as JSON: {e}")))
}

fn from_value(value: &Value) -> Result<State, EngineError> {
    serde_json::from_value(value.clone())
        .map_err(|e| EngineError::Other(format!("the reference's state does not read back: {e}")))
}

/// A [`Misread`] engine as an engine under test: each step request split into one-turn
/// requests; parse and new-match requests go to the reference.
#[derive(Debug, Clone, Copy)]
pub struct TurnByTurn<M>(pub M);

impl<M: Misread> EngineUnderTest for TurnByTurn<M> {
    fn name(&self) -> String {
        self.0.name().into()
    }

    fn supports(&self, game: &str) -> bool {
        game == "spring2022"
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        // The request's state as the reference loads it: defaults written out, or refused.
        let loaded = match Reference.step(StepRequest {
            turns: &[],
            ..request
        }) {
            Answered::Done(loaded) => loaded,
            other => return other,
        };
        let pass = Pass {
            game: request.game,
            id: request.id,
        };
        let played = from_value(&loaded.state).and_then(|mut state| {
            let mut turns_played = 0;
            let mut last_replies = Vec::new();
            for replies in request.turns {
                if state.outcome.is_some() {
                    break;
                }
                let turn = self.0.turn(&pass, &state, replies)?;
                state = turn.state;
                last_replies = turn.last_replies;
                turns_played += 1;
            }
            let prompts = (0..state.players.len())
                .map(|p| self.0.prompt(&state, p))
                .collect();
            Ok(StepResponse {
                state: to_value(&state)?,
                prompts: Some(prompts),
                last_replies,
                turns_played,
            })
        });
        match played {
            Ok(response) => Answered::Done(response),
            Err(e) => Answered::Error(e),
        }
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

//! An adapter process as an [`EngineUnderTest`]: the case runner's requests written as the
//! adapter protocol's JSON (`conformance/ADAPTERS.md`), the responses read back into the
//! runner's types. A response that breaks the protocol is an error of the request, and the
//! adapter is restarted for the next one.

use serde_json::{json, Map, Value};

use super::{Adapter, RequestFailure, Response};
use crate::run::{
    Answered, EngineError, EngineUnderTest, Mask, NewMatchRequest, ParseRequest, StepRequest,
    StepResponse,
};
use crate::seam::{ParseVerdict, ReplyVerdict};
use crate::text::ParseError;

impl EngineUnderTest for Adapter {
    fn name(&self) -> String {
        if self.engine.is_empty() {
            self.command()
        } else {
            format!("{} ({})", self.command(), self.engine)
        }
    }

    fn supports(&self, game: &str) -> bool {
        self.games.iter().any(|g| g == game)
    }

    fn unmodelled(&self, game: &str) -> Mask {
        self.unmodelled.get(game).cloned().unwrap_or_default()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        let mut fields = fields(json!({
            "kind": "step", "game": request.game.info().id, "state": request.state,
            "turns": request.turns,
        }));
        if !request.reachable {
            // Only where it is false, so that adapters written before it see no change.
            fields.insert("reachable".into(), false.into());
        }
        self.ask(request.id, fields).and_then(|map| {
            read_step(&map, request.turns.len()).map_err(|why| format!("the step response {why}"))
        })
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        let fields = fields(json!({
            "kind": "parse", "game": request.game.info().id, "text": request.kind,
            "input": request.input,
        }));
        self.ask(request.id, fields)
            .and_then(|map| read_parse(&map))
    }

    fn requests(&self) -> crate::run::Requests {
        Adapter::requests(self)
    }

    fn finish(&mut self) -> Option<String> {
        let ended = self.shutdown();
        let mut remarks = Vec::new();
        if self.restarts > 0 {
            remarks.push(format!("the adapter was restarted {} times", self.restarts));
        }
        if self.late_lines > 0 {
            remarks.push(format!(
                "the adapter printed {} line(s) after responses already judged",
                self.late_lines
            ));
        }
        if !self.left_behind.is_empty() {
            remarks.push(format!(
                "the adapter left {} process(es) running, killed by shinpan: {}",
                self.left_behind.len(),
                self.left_behind.join(", ")
            ));
        }
        if let Some(ended) = ended.filter(|e| e.ignored_sigterm) {
            remarks.push(format!(
                "at the end of the run the adapter {}",
                ended.describe()
            ));
        }
        (!remarks.is_empty()).then(|| remarks.join("; "))
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        let fields = fields(json!({
            "kind": "new_match", "game": request.game.info().id, "seed": request.seed,
            "options": request.options,
        }));
        self.ask(request.id, fields).and_then(|mut map| {
            map.remove("state")
                .ok_or_else(|| "the new_match response has no `state`".to_string())
        })
    }
}

/// What became of a request: its response object, or a verdict that ends the case.
enum Asked {
    Done(Map<String, Value>),
    Unsupported(String),
    Error(EngineError),
}

impl Asked {
    /// The response object read by `read`; what `read` finds wrong with it is an error of the
    /// request, in words that follow "the step response" and the like.
    fn and_then<T>(
        self,
        read: impl FnOnce(Map<String, Value>) -> Result<T, String>,
    ) -> Answered<T> {
        match self {
            Asked::Done(map) => match read(map) {
                Ok(value) => Answered::Done(value),
                Err(why) => Answered::Error(EngineError::Adapter(why)),
            },
            Asked::Unsupported(why) => Answered::Unsupported(why),
            Asked::Error(why) => Answered::Error(why),
        }
    }
}

impl Adapter {
    fn ask(&mut self, id: &str, fields: Map<String, Value>) -> Asked {
        match self.request(id, fields) {
            Ok(Response::Done(map)) => Asked::Done(map),
            Ok(Response::Unsupported(why)) => Asked::Unsupported(why),
            Ok(Response::Error(why)) => Asked::Error(EngineError::AdapterSays(why)),
            Err(failure) => Asked::Error(EngineError::Adapter(restarted(&failure))),
        }
    }
}

fn fields(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn restarted(failure: &RequestFailure) -> String {
    format!("{failure}\n(the adapter will be restarted for the next case)")
}

fn read_step(map: &Map<String, Value>, turns: usize) -> Result<StepResponse, String> {
    let mut state = map.get("state").cloned().ok_or("has no `state`")?;
    // A game whose canonical state has no `outcome` field may send it beside the state.
    if let (Value::Object(s), Some(outcome)) = (&mut state, map.get("outcome")) {
        s.entry("outcome").or_insert_with(|| outcome.clone());
    }
    let prompts = match map.get("prompts") {
        None | Some(Value::Null) => None,
        value => Some(strings(value, "prompts")?),
    };
    // Optional: an engine that does not report how it took each reply leaves it out (and
    // declares `last_replies` unmodelled, or the cases that check it fail).
    let last_replies = match map.get("last_replies") {
        None | Some(Value::Null) => Vec::new(),
        value => strings(value, "last_replies")?,
    };
    if let Some(bad) = last_replies
        .iter()
        .find(|name| ReplyVerdict::from_name(name).is_none())
    {
        return Err(format!(
            "has last_replies entry {bad:?}; one of {}",
            ReplyVerdict::NAMES.join(", ")
        ));
    }
    let turns_played = match map.get("turns_played") {
        None => turns,
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= turns)
            .ok_or_else(|| format!("has `turns_played: {v}`; the request had {turns} turns"))?,
    };
    Ok(StepResponse {
        state,
        prompts,
        last_replies,
        turns_played,
    })
}

fn strings(value: Option<&Value>, key: &str) -> Result<Vec<String>, String> {
    let list = value
        .and_then(Value::as_array)
        .ok_or_else(|| format!("has no `{key}` list"))?;
    list.iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("has `{key}` with {v}, which is not a string"))
        })
        .collect()
}

fn read_parse(map: &Map<String, Value>) -> Result<ParseVerdict, String> {
    let [line, col] = match map.get("at") {
        None | Some(Value::Null) => [0, 0],
        Some(v) => serde_json::from_value::<[usize; 2]>(v.clone()).map_err(|_| {
            format!("the parse response has `at: {v}`; it should be [line, column]")
        })?,
    };
    let message = map.get("message").and_then(Value::as_str).unwrap_or("");
    let error = || ParseError::new(line, col, message, "");
    match map.get("parse").and_then(Value::as_str) {
        Some("valid") => match map.get("printed").and_then(Value::as_str) {
            Some(printed) => Ok(ParseVerdict::Valid {
                printed: printed.to_string(),
            }),
            None => Err("the parse response says valid but has no `printed`".into()),
        },
        Some("non-strict") => Ok(ParseVerdict::NonStrict(error())),
        Some("invalid") => Ok(ParseVerdict::Invalid(error())),
        _ => Err("the parse response has no `parse` (valid, non-strict or invalid)".into()),
    }
}

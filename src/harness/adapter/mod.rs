//! The adapter protocol (`conformance/ADAPTERS.md`), harness side: a long-running child process
//! that answers one JSON request per line with one JSON response per line.
//!
//! An [`Adapter`] owns at most one running child. Every request has a deadline; whatever goes
//! wrong with a request (the child exits, hangs, prints something that is not a response, answers
//! another id, floods its output) ends the child's whole process group through
//! [`crate::harness::process`], and the next request starts a fresh child. This module knows no
//! game and no case: it moves JSON values.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

mod engine;

use crate::harness::interrupt;
use crate::harness::process::{Child, Ended, Limits, ReadFailure, SendFailure};
use crate::run::Mask;

/// The protocol version this shinpan speaks; every request carries it.
pub const PROTOCOL: u64 = 1;

/// How to run an adapter.
#[derive(Debug, Clone)]
pub struct AdapterConfig {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// How long one request may take, from sending it to reading the whole response line.
    pub timeout: Duration,
    /// How long the `hello` may take, which also waits for the process to start (an
    /// interpreter or a JIT can take longer to start than a case may take to answer).
    pub start_timeout: Duration,
    pub limits: Limits,
}

impl AdapterConfig {
    /// The defaults for `argv`: 5 s per request, 10 s to start, responses up to 16 MiB.
    pub fn new(argv: Vec<String>) -> AdapterConfig {
        AdapterConfig {
            argv,
            timeout: Duration::from_secs(5),
            start_timeout: DEFAULT_START_TIMEOUT,
            limits: Limits {
                max_line_bytes: 16 * 1024 * 1024,
                max_reply_bytes: 16 * 1024 * 1024,
                ..Limits::default()
            },
        }
    }
}

/// What went wrong with an adapter. The adapter has been stopped when one of these is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdapterError {
    #[error("the adapter `{command}` could not be started: {reason}")]
    Spawn { command: String, reason: String },
    #[error("the request could not be sent: {0}")]
    Send(#[from] SendFailure),
    #[error("no response: {0}")]
    Read(#[from] ReadFailure),
    #[error("the response is not a JSON object: {0}")]
    NotJson(String),
    #[error("the response was followed by more output nobody asked for ({0} line(s) so far)")]
    ExtraLines(usize),
    #[error("the response answers id {found}, the request was {expected}")]
    WrongId { expected: String, found: String },
    #[error("the adapter speaks protocol {theirs}; this shinpan speaks protocol {PROTOCOL}")]
    Protocol { theirs: String },
    #[error("the adapter refused the handshake: {0}")]
    Hello(String),
    #[error("no `hello` within {} ms of starting (--start-timeout)", .0.as_millis())]
    StartTimedOut(Duration),
}

impl AdapterError {
    /// A short name of the kind of failure, to tell a run of one kind from a mix.
    pub fn kind(&self) -> &'static str {
        match self {
            AdapterError::Spawn { .. } => "it cannot be started",
            AdapterError::Send(_) => "it does not read its requests",
            AdapterError::Read(ReadFailure::Deadline(_)) => "no response in time",
            AdapterError::Read(_) => "no response",
            AdapterError::ExtraLines(_) => "extra lines",
            AdapterError::NotJson(_) => "not JSON",
            AdapterError::WrongId { .. } => "a wrong id",
            AdapterError::Protocol { .. } | AdapterError::Hello(_) => "a refused handshake",
            AdapterError::StartTimedOut(_) => "no response in time",
        }
    }
}

/// An adapter's response to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    /// The response object (with `id`), for the caller to read the fields of its request kind.
    Done(Map<String, Value>),
    /// `{"unsupported": reason}`: the engine does not implement what the request needs.
    Unsupported(String),
    /// `{"error": message}`: the adapter could not carry the request out.
    Error(String),
}

/// A failed request: what went wrong, and how the child ended.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}{ended}")]
pub struct RequestFailure {
    pub error: AdapterError,
    /// `; it exited with status 1; stderr: ...`, or empty.
    pub ended: String,
}

/// An adapter process, restarted as needed.
pub struct Adapter {
    config: AdapterConfig,
    child: Option<Child>,
    /// What the adapter said of itself in the handshake.
    pub engine: String,
    /// The game ids the adapter implements.
    pub games: Vec<String>,
    /// What the adapter's engine does not model, by game id (`unmodelled` in its hello).
    pub unmodelled: BTreeMap<String, Mask>,
    /// How many times a child was stopped because of a failed request.
    pub restarts: usize,
    /// Lines that came after a response had been judged (too late to blame its request).
    pub late_lines: usize,
    /// Processes the adapter left running, found when a child was stopped.
    pub left_behind: Vec<String>,
    /// The requests asked, and the kind of the last failures with the number of the first of
    /// them ([`crate::run::Requests`]: the run gives up on an adapter by them).
    asked: u64,
    failing: Option<(&'static str, u64)>,
}

/// After this many failures of one kind in a row, counted over the cases in library order, an
/// adapter is given up on ([`crate::run::GIVE_UP_AFTER`]).
pub use crate::run::GIVE_UP_AFTER;

/// The time an adapter has for its `hello` unless told otherwise (`--start-timeout`).
pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(10);

impl Adapter {
    /// Starts the adapter and makes the handshake. A failure here means the adapter cannot be
    /// used at all (the CLI exits 2).
    pub fn start(config: AdapterConfig) -> Result<Adapter, RequestFailure> {
        let mut adapter = Adapter {
            config,
            child: None,
            engine: String::new(),
            games: Vec::new(),
            unmodelled: BTreeMap::new(),
            restarts: 0,
            late_lines: 0,
            left_behind: Vec::new(),
            asked: 0,
            failing: None,
        };
        adapter.ensure_running()?;
        Ok(adapter)
    }

    pub fn command(&self) -> String {
        self.config.argv.join(" ")
    }

    pub fn supports(&self, game: &str) -> bool {
        self.games.iter().any(|g| g == game)
    }

    /// Sends `fields` (the request without `protocol` and `id`) and reads the answer.
    pub fn request(
        &mut self,
        id: &str,
        mut fields: Map<String, Value>,
    ) -> Result<Response, RequestFailure> {
        if let Err(failure) = self.ensure_running() {
            self.count(Some(&failure.error));
            return Err(failure);
        }
        fields.insert("protocol".into(), PROTOCOL.into());
        fields.insert("id".into(), id.into());
        match self.exchange(id, &Value::Object(fields)) {
            Ok(answer) => {
                self.count(None);
                Ok(answer)
            }
            Err(error) => {
                // A child a signal stopped failed no request of its own.
                if interrupt::received().is_none() {
                    self.restarts += 1;
                }
                self.count(Some(&error));
                Err(self.stop(error))
            }
        }
    }

    /// The requests asked so far, and the failures of one kind in a row they end with (it
    /// hangs on every request, it cannot start): what the run gives up on an adapter by.
    pub fn requests(&self) -> crate::run::Requests {
        crate::run::Requests {
            asked: self.asked,
            failing: self.failing,
        }
    }

    /// Counts a request, and how it failed if it did.
    fn count(&mut self, failed: Option<&AdapterError>) {
        let number = self.asked;
        self.asked += 1;
        self.failing = match (failed.map(AdapterError::kind), self.failing) {
            (None, _) => None,
            (Some(kind), Some((last, since))) if last == kind => Some((kind, since)),
            (Some(kind), _) => Some((kind, number)),
        };
    }

    /// Stops the child, if any (its whole process group and whatever else it started), and
    /// says how it ended.
    pub fn shutdown(&mut self) -> Option<Ended> {
        let ended = self.child.take().map(|mut c| c.finish())?;
        self.left_behind.extend(
            ended
                .left_behind
                .iter()
                .map(|p| format!("{} `{}`", p.pid, p.command)),
        );
        Some(ended)
    }

    fn ensure_running(&mut self) -> Result<(), RequestFailure> {
        if let Some(child) = &mut self.child {
            // Lines nobody asked for (a second response, chatter on stdout) would be read as the
            // answer to the next request: start afresh instead.
            let late_lines = child.unsolicited_lines();
            if late_lines == 0 && !child.has_exited() {
                return Ok(());
            }
            if late_lines > 0 {
                self.late_lines += late_lines;
            }
            self.shutdown();
        }
        let child =
            Child::spawn(&self.config.argv, self.config.limits).map_err(|e| RequestFailure {
                error: AdapterError::Spawn {
                    command: self.command(),
                    reason: e.to_string(),
                },
                ended: String::new(),
            })?;
        self.child = Some(child);
        let hello = json!({"protocol": PROTOCOL, "id": "hello", "kind": "hello"});
        // The hello also waits for the adapter to start (an interpreter, a JIT warming up): it
        // has its own allowance, `--start-timeout`, not the per-request one.
        let answer = self
            .exchange_within("hello", &hello, self.config.start_timeout)
            .map_err(|error| match error {
                AdapterError::Read(ReadFailure::Deadline(waited)) => {
                    AdapterError::StartTimedOut(waited)
                }
                other => other,
            })
            .and_then(read_hello)
            .map(|hello| {
                self.engine = hello.engine;
                self.games = hello.games;
                self.unmodelled = hello.unmodelled;
            });
        answer.map_err(|error| self.stop(error))
    }

    fn exchange(&mut self, id: &str, request: &Value) -> Result<Response, AdapterError> {
        self.exchange_within(id, request, self.config.timeout)
    }

    fn exchange_within(
        &mut self,
        id: &str,
        request: &Value,
        timeout: Duration,
    ) -> Result<Response, AdapterError> {
        let child = self
            .child
            .as_mut()
            .ok_or(AdapterError::Send(SendFailure::Closed))?;
        child.send(request_line(request).as_bytes())?;
        let deadline = Instant::now() + timeout;
        let line = child.read_line(deadline)?;
        let response =
            read_response(&line).map_err(|e| AdapterError::NotJson(excerpt(&line, &e)))?;
        let Value::Object(map) = response else {
            return Err(AdapterError::NotJson(format!(
                "{} is not an object",
                short(&line)
            )));
        };
        match map.get("id") {
            Some(Value::String(found)) if found == id => {}
            other => {
                return Err(AdapterError::WrongId {
                    expected: format!("{id:?}"),
                    found: other.map_or("none".into(), Value::to_string),
                })
            }
        }
        // Lines printed with or after the response belong to this request, not the next.
        let extra = child.unsolicited_lines();
        if extra > 0 || child.printed_past_last_line() {
            return Err(AdapterError::ExtraLines(extra.max(1)));
        }
        if let Some(reason) = map.get("unsupported") {
            return Ok(Response::Unsupported(text_of(reason)));
        }
        if let Some(message) = map.get("error") {
            return Ok(Response::Error(text_of(message)));
        }
        Ok(Response::Done(map))
    }

    fn stop(&mut self, error: AdapterError) -> RequestFailure {
        let stderr = self
            .child
            .as_ref()
            .map(Child::stderr_tail)
            .unwrap_or_default();
        let ended = match self.shutdown() {
            None => String::new(),
            Some(ended) => how_it_ended(&ended, &stderr),
        };
        RequestFailure { error, ended }
    }
}

impl Drop for Adapter {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// What an adapter says of itself in its hello.
struct Hello {
    engine: String,
    games: Vec<String>,
    unmodelled: BTreeMap<String, Mask>,
}

/// A request as the line sent to the adapter: compact JSON and a line break. Numbers are
/// written shortest-round-trip, so the adapter can read back the exact bits (D-spring-13).
pub fn request_line(request: &Value) -> String {
    let mut line = request.to_string();
    line.push('\n');
    line
}

/// A line the adapter answered, read as JSON; numbers read back to the bits the adapter wrote
/// (serde_json's `float_roundtrip`, D-spring-13).
pub fn read_response(line: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(line)
}

fn read_hello(answer: Response) -> Result<Hello, AdapterError> {
    let map = match answer {
        Response::Done(map) => map,
        Response::Unsupported(why) | Response::Error(why) => return Err(AdapterError::Hello(why)),
    };
    match map.get("protocol") {
        Some(v) if v.as_u64() == Some(PROTOCOL) => {}
        Some(v) => {
            return Err(AdapterError::Protocol {
                theirs: v.to_string(),
            })
        }
        None => return Err(AdapterError::Hello("the response has no `protocol`".into())),
    }
    let engine = map.get("engine").map(text_of).unwrap_or_default();
    let games = match map.get("games") {
        Some(Value::Array(ids)) => ids.iter().map(text_of).collect(),
        _ => {
            return Err(AdapterError::Hello(
                "the response has no `games` list".into(),
            ))
        }
    };
    let unmodelled = match map.get("unmodelled") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(value) => read_unmodelled(value).map_err(AdapterError::Hello)?,
    };
    Ok(Hello {
        engine,
        games,
        unmodelled,
    })
}

/// `{"GAME": {"fields": [PATH, ...], "parse": [TEXT, ...]}, ...}`: both lists optional, no
/// other key, so that a misspelt key is refused rather than ignored.
fn read_unmodelled(value: &Value) -> Result<BTreeMap<String, Mask>, String> {
    let shape = "`unmodelled` is {\"GAME\": {\"fields\": [PATH, ...], \"parse\": [TEXT, ...]}}";
    let Value::Object(games) = value else {
        return Err(shape.into());
    };
    let mut masks = BTreeMap::new();
    for (game, declared) in games {
        let Value::Object(declared) = declared else {
            return Err(format!("{shape}; `{game}` has {declared}"));
        };
        if let Some(other) = declared.keys().find(|k| *k != "fields" && *k != "parse") {
            return Err(format!("{shape}; `{game}` has `{other}`"));
        }
        let list = |key: &str| -> Result<Vec<String>, String> {
            match declared.get(key) {
                None => Ok(Vec::new()),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|i| {
                        i.as_str().map(str::to_string).ok_or_else(|| {
                            format!("`unmodelled.{game}.{key}` holds {i}, not a string")
                        })
                    })
                    .collect(),
                Some(other) => Err(format!(
                    "`unmodelled.{game}.{key}` is {other}, not a list of strings"
                )),
            }
        };
        let mask = Mask::new(&list("fields")?, &list("parse")?).map_err(|e| e.to_string())?;
        masks.insert(game.clone(), mask);
    }
    Ok(masks)
}

/// `; the adapter exited with status 1; stderr ends with: ...`: how it ended, for a message.
fn how_it_ended(ended: &Ended, stderr: &str) -> String {
    let mut out = format!("; the adapter {}", ended.describe());
    let stderr = stderr.trim_end();
    if !stderr.is_empty() {
        out.push_str("; stderr ends with:\n");
        out.push_str(stderr);
    }
    out
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn short(line: &str) -> String {
    crate::text::quote(line)
}

fn excerpt(line: &str, error: &serde_json::Error) -> String {
    format!("{error} in {}", short(line))
}

/// A command line that cannot be split into words ([`split_command`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A quote opened and never closed.
    #[error("unclosed {quote} in the command `{command}`")]
    Unclosed { quote: char, command: String },
    /// Nothing but blanks.
    #[error("the engine command is empty")]
    Empty,
}

/// Splits a command line the way a shell would for simple cases: blanks separate words, single
/// and double quotes group, a backslash escapes the next character. No variables, no globbing.
pub fn split_command(command: &str) -> Result<Vec<String>, CommandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' | '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => word.extend(chars.next()),
                        Some(other) => word.push(other),
                        None => {
                            return Err(CommandError::Unclosed {
                                quote: c,
                                command: command.to_string(),
                            })
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(CommandError::Empty);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello_declares_what_the_engine_does_not_model() {
        let hello = |v: Value| {
            let Value::Object(map) = v else { panic!() };
            read_hello(Response::Done(map))
        };
        let read = hello(json!({"protocol": 1, "games": ["g"], "unmodelled": {"g": {
            "fields": ["players[].skill_gauge", "prompts"], "parse": ["prompt"]}}}))
        .unwrap();
        let mask = &read.unmodelled["g"];
        assert_eq!(
            mask.to_string(),
            "players[].skill_gauge, prompts; parse: prompt"
        );
        for (bad, why) in [
            (json!({"g": {"field": []}}), "has `field`"),
            (json!({"g": {"fields": "x"}}), "not a list"),
            (json!({"g": {"fields": [1]}}), "not a string"),
            (
                json!({"g": {"fields": ["players[1]"]}}),
                "ends in a field name",
            ),
            (json!(["g"]), "`unmodelled` is"),
        ] {
            let e = hello(json!({"protocol": 1, "games": ["g"], "unmodelled": bad}))
                .err()
                .unwrap()
                .to_string();
            assert!(e.contains(why), "{e}");
        }
    }

    #[test]
    fn command_words_and_quotes() {
        assert_eq!(
            split_command(r#"python3 "my adapter.py" --bug 'a b' x\ y"#).unwrap(),
            ["python3", "my adapter.py", "--bug", "a b", "x y"]
        );
        assert_eq!(split_command("  "), Err(CommandError::Empty));
        assert_eq!(
            split_command("a 'b").unwrap_err().to_string(),
            "unclosed ' in the command `a 'b`"
        );
    }
}

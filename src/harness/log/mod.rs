//! The match log (`conformance/TRACES.md`): JSON lines written by `shinpan tap`, by
//! `shinpan play --log`, or converted from another tool, read back into each player's exchanges
//! with its engine by `shinpan trace`. Its writers share the record line ([`record_line`]) and
//! the clock ([`now_us`]). A torn last line (a tap killed mid-write) is dropped; any other
//! line that is not a record is an error naming the file and line.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value};

mod index;

pub use index::LogIndex;

/// The log format's version, in every log's `start` record.
pub const LOG_FORMAT: u64 = 1;

/// A record as one line of a log: its compact JSON and the line break. `play --log` and `tap`
/// write every record through this; numbers are written shortest-round-trip (D-spring-13).
pub fn record_line(record: &serde_json::Value) -> String {
    let mut line = record.to_string();
    line.push('\n');
    line
}

/// One line of a log read back as JSON. Numbers read back to the bits they were written from
/// (serde_json's `float_roundtrip`, D-spring-13).
pub fn read_record(line: &str) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::from_str(line)
}

/// Microseconds since the Unix epoch: one clock for every log of a match.
pub fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// A log that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", path.display(), at_line(*line))]
pub struct LogError {
    pub path: PathBuf,
    pub line: usize,
    pub message: String,
}

/// One record of a log.
#[derive(Debug, Clone, Deserialize)]
struct Record {
    event: String,
    #[serde(default)]
    player: Option<usize>,
    #[serde(default)]
    t_us: Option<u64>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    hex: Option<String>,
    /// Which match of a log with several (`shinpan play --rounds`).
    #[serde(default, rename = "match")]
    match_index: Option<u64>,
    #[serde(default)]
    status: Option<i64>,
    #[serde(default)]
    signal: Option<i64>,
    /// (`start`) the log format's version.
    #[serde(default)]
    trace: Option<u64>,
    /// (`start`) the game's id.
    #[serde(default)]
    game: Option<String>,
    /// (`start`) the match options.
    #[serde(default)]
    options: Option<Map<String, Value>>,
    /// (`start`) the league, for a game whose options hold one and a log that gives it alone.
    #[serde(default)]
    league: Option<String>,
    /// (`start`, `play`) the seed the match was made from.
    #[serde(default)]
    seed: Option<u64>,
    /// (`end`, `play`) the outcome the engine gave the match.
    #[serde(default)]
    outcome: Option<Value>,
    /// (`tap`) the process id of the tap that wrote the record.
    #[serde(default)]
    tap: Option<u64>,
    /// (`cannot-start`) why the bot could not be started.
    #[serde(default)]
    why: Option<String>,
}

/// What a log's `start` records say of the match read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogStart {
    /// The game the log names.
    pub game: Option<String>,
    /// The match options it names (`options`, with `league` when given on its own); `None`
    /// when it names none.
    pub options: Option<Map<String, Value>>,
    /// The seed it names (`play`'s logs): the reference engine makes the same match from it.
    pub seed: Option<u64>,
}

/// One match of a log ([`read_match`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchLog {
    pub players: BTreeMap<usize, PlayerLog>,
    pub start: LogStart,
    /// The match numbers the logs hold: their `match` fields, or else the count of `start`
    /// records before each record (a tap log appended to by several matches); one set shared
    /// by every match read from the same logs.
    pub matches: Arc<BTreeSet<u64>>,
    /// The match read: the one asked for, or the first.
    pub read: Option<u64>,
    /// The outcome an `end` record gives the match read (`play --log`).
    pub outcome: Option<Value>,
    /// Why a log's record of the match read is incomplete: a writer that began it and never
    /// wrote its `end` record (killed, interrupted, or unable to write), or a bot that never
    /// ran.
    pub incomplete: Vec<String>,
}

/// One prompt and the reply to it (`None`: the log ends, or the next prompt came, first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    pub prompt: String,
    /// The reply's lines joined by `\n`, without the last line break, as a `Reply::Text`.
    pub reply: Option<String>,
    /// From the end of the prompt to the end of the reply, when the log has the times.
    pub elapsed_ms: Option<u64>,
}

/// What one player's side of the match shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerLog {
    /// What the bot printed before any prompt (its name, in a game where bots speak first).
    pub before_first_prompt: Option<String>,
    pub exchanges: Vec<Exchange>,
    /// How the bot ended, when the log says.
    pub end: Option<String>,
}

/// Reads the logs (one per player, or one with every player), each player's chunks in order.
/// A log without `player` fields is the player of its place in `paths`. Of a log holding
/// several matches, only `match_index` is read (the first when `None`).
pub fn read_logs(
    paths: &[PathBuf],
    match_index: Option<u64>,
) -> Result<BTreeMap<usize, PlayerLog>, LogError> {
    read_match(paths, match_index).map(|m| m.players)
}

/// [`read_logs`], with what the `start` records say and which matches the logs hold. A log
/// given twice, and a log of a format version this shinpan does not know, are errors.
pub fn read_match(paths: &[PathBuf], match_index: Option<u64>) -> Result<MatchLog, LogError> {
    LogIndex::open(paths)?.read(match_index)
}

/// Every match the logs hold, in order ([`read_match`] of each, the logs read once). All of
/// them are in memory at once: [`LogIndex::each`] hands them on one at a time.
pub fn read_matches(paths: &[PathBuf]) -> Result<Vec<MatchLog>, LogError> {
    let mut all = Vec::new();
    LogIndex::open(paths)?.each(|read| {
        all.push(read);
        ControlFlow::Continue(())
    })?;
    Ok(all)
}

/// Each player's exchanges from a log another tool wrote ([`crate::seam::Importer::import`]).
pub fn from_imported(exchanges: Vec<crate::seam::Imported>) -> BTreeMap<usize, PlayerLog> {
    let mut logs: BTreeMap<usize, PlayerLog> = BTreeMap::new();
    for exchange in exchanges {
        let log = logs.entry(exchange.player).or_default();
        log.exchanges.push(Exchange {
            prompt: exchange.prompt,
            reply: exchange.reply,
            elapsed_ms: None,
        });
        if exchange.end.is_some() {
            log.end = exchange.end;
        }
    }
    logs
}

/// Prompt chunks up to the bot's next output make one prompt; the bot's output up to the next
/// prompt chunk makes its reply.
fn assemble(records: Vec<Record>) -> PlayerLog {
    let mut log = PlayerLog::default();
    let mut prompt: Option<(String, Option<u64>)> = None;
    let mut reply: Option<(String, Option<u64>)> = None;
    let close = |log: &mut PlayerLog,
                 prompt: &mut Option<(String, Option<u64>)>,
                 reply: &mut Option<(String, Option<u64>)>| {
        let replied = reply.take();
        match prompt.take() {
            Some((text, sent)) => log.exchanges.push(Exchange {
                prompt: text,
                elapsed_ms: match (sent, replied.as_ref().and_then(|r| r.1)) {
                    (Some(sent), Some(got)) => Some(got.saturating_sub(sent) / 1000),
                    _ => None,
                },
                reply: replied.map(|(text, _)| reply_text(&text)),
            }),
            None => {
                if let Some((text, _)) = replied {
                    log.before_first_prompt = Some(reply_text(&text));
                }
            }
        }
    };
    for record in records {
        let data = record
            .text
            .clone()
            .or_else(|| record.hex.as_deref().map(from_hex))
            .unwrap_or_default();
        match record.event.as_str() {
            "prompt" => {
                if reply.is_some() {
                    close(&mut log, &mut prompt, &mut reply);
                }
                let entry = prompt.get_or_insert_with(|| (String::new(), None));
                entry.0.push_str(&data);
                entry.1 = record.t_us.or(entry.1);
            }
            "reply" => {
                let entry = reply.get_or_insert_with(|| (String::new(), None));
                entry.0.push_str(&data);
                entry.1 = record.t_us.or(entry.1);
            }
            "end" => log.end = Some(describe_end(&record)),
            _ => {}
        }
    }
    close(&mut log, &mut prompt, &mut reply);
    log
}

fn describe_end(record: &Record) -> String {
    match (record.status, record.signal) {
        (Some(code), _) => format!("the bot exited with status {code}"),
        (None, Some(signal)) => format!("the bot died by signal {signal}"),
        _ => "the bot ended".into(),
    }
}

/// A reply as the engine takes it: its lines joined by `\n`, without the last line break.
fn reply_text(raw: &str) -> String {
    raw.strip_suffix('\n').unwrap_or(raw).to_string()
}

fn from_hex(hex: &str) -> String {
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `:line` for an error at a line; nothing for an error about the whole file (line 0).
fn at_line(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}")
    }
}

/// Whether `path` looks like a trace log (its first record says so).
pub fn is_trace_log(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.lines().next().map(str::to_string))
        .is_some_and(|l| l.contains("\"trace\""))
}

/// The time of a torn record, when its `t_us` was written whole (followed by `,` or `}`).
fn time_in_torn(line: &str) -> Option<u64> {
    let rest = &line[line.find("\"t_us\":")? + "\"t_us\":".len()..];
    let rest = rest.trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = rest[digits..].trim_start();
    (digits > 0 && (after.starts_with(',') || after.starts_with('}')))
        .then(|| rest[..digits].parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(lines: &[&str]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, lines.join("\n").as_bytes()).unwrap();
        file
    }

    #[test]
    fn chunks_make_prompts_and_replies() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "player": 0, "t_us": 0}"#,
            r#"{"event": "reply", "player": 0, "t_us": 1, "text": "my name\n"}"#,
            r#"{"event": "prompt", "player": 0, "t_us": 10, "text": "0\n1 2\n"}"#,
            r#"{"event": "prompt", "player": 0, "t_us": 20, "text": "END\n"}"#,
            r#"{"event": "reply", "player": 0, "t_us": 5020, "text": "3 "}"#,
            r#"{"event": "reply", "player": 0, "t_us": 6020, "text": "0\n"}"#,
            r#"{"event": "prompt", "player": 0, "t_us": 7000, "text": "1\nEND\n"}"#,
            r#"{"event": "reply", "player": 0, "t_us": 8000, "te"#,
        ]);
        let logs = read_logs(&[log.path().to_path_buf()], None).unwrap();
        let player = &logs[&0];
        assert_eq!(player.before_first_prompt.as_deref(), Some("my name"));
        assert_eq!(player.exchanges.len(), 2);
        assert_eq!(player.exchanges[0].prompt, "0\n1 2\nEND\n");
        assert_eq!(player.exchanges[0].reply.as_deref(), Some("3 0"));
        assert_eq!(player.exchanges[0].elapsed_ms, Some(6));
        // The torn last line is dropped: the second prompt has no reply.
        assert_eq!(player.exchanges[1].reply, None);
    }

    /// A log given twice is refused by its content too (a copy under another name), and two
    /// empty logs (two players whose logs hold nothing yet) are not the same log.
    #[test]
    fn a_copy_of_a_log_is_the_same_log() {
        let record = r#"{"trace": 1, "event": "start", "t_us": 0}"#;
        let (a, copy) = (write(&[record]), write(&[record]));
        let other = write(&[record, ""]);
        let read = |logs: &[&tempfile::NamedTempFile]| {
            let paths: Vec<PathBuf> = logs.iter().map(|f| f.path().to_path_buf()).collect();
            read_match(&paths, None).map(|_| ())
        };
        let error = read(&[&a, &copy]).unwrap_err();
        assert!(error.message.contains("given twice"), "{}", error.message);
        assert!(read(&[&a, &other]).is_ok());
        assert!(read(&[&write(&[]), &write(&[])]).is_ok());
    }

    /// Each match of a log of several is what reading it alone gives: its own exchanges, start,
    /// outcome and writer's incompleteness, and the numbers of all matches.
    #[test]
    fn every_match_of_a_log_reads_as_it_reads_alone() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "match": 0, "game": "g", "seed": 4, "t_us": 0}"#,
            r#"{"event": "prompt", "match": 0, "player": 0, "t_us": 1, "text": "a\n"}"#,
            r#"{"event": "reply", "match": 0, "player": 0, "t_us": 2, "text": "1\n"}"#,
            r#"{"event": "end", "match": 0, "t_us": 3, "outcome": {"winner": 0}}"#,
            r#"{"trace": 1, "event": "start", "match": 1, "game": "g", "seed": 5, "t_us": 4}"#,
            r#"{"event": "prompt", "match": 1, "player": 0, "t_us": 5, "text": "b\n"}"#,
            r#"{"event": "prompt", "match": 1, "player": 1, "t_us": 6, "text": "c\n"}"#,
            r#"{"event": "reply", "match": 1, "player": 1, "t_us": 7, "text": "2\n"}"#,
        ]);
        let paths = [log.path().to_path_buf()];
        let all = read_matches(&paths).unwrap();
        assert_eq!(all.len(), 2);
        for (m, read) in all.iter().enumerate() {
            let alone = read_match(&paths, Some(m as u64)).unwrap();
            assert_eq!(read.players, alone.players, "match {m}");
            assert_eq!(read.start, alone.start, "match {m}");
            assert_eq!(read.outcome, alone.outcome, "match {m}");
            assert_eq!(read.incomplete, alone.incomplete, "match {m}");
            assert_eq!(read.read, Some(m as u64));
            assert_eq!(*read.matches, BTreeSet::from([0, 1]));
        }
        assert_eq!(all[0].players[&0].exchanges[0].reply.as_deref(), Some("1"));
        assert_eq!(all[1].players.len(), 2);
        assert_eq!(all[1].start.seed, Some(5));
        assert!(all[1].outcome.is_none() && !all[1].incomplete.is_empty());
        assert!(all[0].incomplete.is_empty());
        // A log of one match, or of records before any start, is one match.
        let one = write(&[r#"{"event": "prompt", "player": 0, "t_us": 1, "text": "a\n"}"#]);
        let read = read_matches(&[one.path().to_path_buf()]).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].players[&0].exchanges.len(), 1);
    }

    /// A tap's log cut by a full disk in the middle of a prompt record (seen in CI): the reply
    /// to that prompt, read on the other thread and written before it, stamped after it, was
    /// joined to the reply before it (`3 0\n4 1`: an invalid reply, a departure). Records
    /// stamped at or after the torn record go with it.
    #[test]
    fn records_after_a_torn_record_go_with_it() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "player": 0, "t_us": 0}"#,
            r#"{"event": "prompt", "player": 0, "t_us": 10, "text": "12\nEND\n"}"#,
            r#"{"event": "reply", "player": 0, "t_us": 20, "text": "3 0"}"#,
            r#"{"event": "reply", "player": 0, "t_us": 30, "text": "\n"}"#,
            r#"{"event": "reply", "player": 0, "t_us": 45, "text": "4 1"}"#,
            r#"{"event": "prompt", "player": 0, "t_us": 40, "text": "13\n0 0"#,
        ]);
        let logs = read_logs(&[log.path().to_path_buf()], None).unwrap();
        let player = &logs[&0];
        assert_eq!(player.exchanges.len(), 1);
        assert_eq!(player.exchanges[0].reply.as_deref(), Some("3 0"));
        // A torn time is no time: the cut may be inside the number.
        assert_eq!(
            time_in_torn(r#"{"event": "prompt", "t_us": 40, "te"#),
            Some(40)
        );
        assert_eq!(time_in_torn(r#"{"event": "prompt", "t_us": 4"#), None);
        assert_eq!(time_in_torn(r#"{"event": "pro"#), None);
    }

    /// Issue 22.17: a log of format version 99 was read as if it were version 1.
    #[test]
    fn a_log_of_an_unknown_format_version_is_refused_at_its_start_record() {
        let log = write(&[r#"{"trace": 99, "event": "start", "player": 0}"#]);
        let err = read_logs(&[log.path().to_path_buf()], None).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.message.contains("version 99"), "{err}");
    }

    /// Issue 22.17: an error about the whole log said `file:0:`.
    #[test]
    fn an_error_about_the_whole_log_names_no_line() {
        let err = read_logs(&[PathBuf::from("/nonexistent/p0.jsonl")], None).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("/nonexistent/p0.jsonl: cannot read the log"),
            "{err}"
        );
    }

    #[test]
    fn each_start_of_a_tap_begins_a_match_of_its_own() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "tap": 7, "t_us": 0}"#,
            r#"{"event": "prompt", "tap": 7, "t_us": 1, "text": "first\n"}"#,
            r#"{"event": "end", "tap": 7, "t_us": 2, "status": 0}"#,
            r#"{"trace": 1, "event": "start", "tap": 8, "t_us": 3}"#,
            r#"{"event": "prompt", "tap": 8, "t_us": 4, "text": "second\n"}"#,
        ]);
        let path = [log.path().to_path_buf()];
        let first = read_match(&path, None).unwrap();
        assert_eq!(first.players[&0].exchanges[0].prompt, "first\n");
        assert_eq!(first.incomplete, Vec::<String>::new());
        let second = read_match(&path, Some(1)).unwrap();
        assert_eq!(second.players[&0].exchanges.len(), 1);
        assert_eq!(second.players[&0].exchanges[0].prompt, "second\n");
        assert_eq!(second.incomplete.len(), 1, "{:?}", second.incomplete);
    }

    #[test]
    fn two_taps_writing_one_players_records_at_once_are_an_error() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "tap": 7, "t_us": 0}"#,
            r#"{"trace": 1, "event": "start", "tap": 8, "t_us": 1}"#,
            r#"{"event": "prompt", "tap": 8, "t_us": 2, "text": "1\n"}"#,
            r#"{"event": "prompt", "tap": 7, "t_us": 3, "text": "1\n"}"#,
        ]);
        let err = read_match(&[log.path().to_path_buf()], None).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("lines 1 and 2"), "{}", err.message);
    }

    #[test]
    fn a_bot_that_never_ran_makes_an_incomplete_log_that_says_why() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "player": 1, "tap": 7, "t_us": 0}"#,
            r#"{"event": "cannot-start", "player": 1, "tap": 7, "t_us": 1, "why": "no such bot"}"#,
        ]);
        let logs = read_match(&[log.path().to_path_buf()], None).unwrap();
        assert!(logs.players.is_empty());
        assert!(
            logs.incomplete[0].ends_with("the bot never ran: no such bot"),
            "{:?}",
            logs.incomplete
        );
    }

    #[test]
    fn a_converters_log_without_its_end_says_which_rule_it_broke() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "player": 0, "t_us": 0}"#,
            r#"{"event": "prompt", "player": 0, "t_us": 1, "text": "p\n"}"#,
            r#"{"event": "reply", "player": 0, "t_us": 2, "text": "r"}"#,
        ]);
        let why = read_match(&[log.path().to_path_buf()], None)
            .unwrap()
            .incomplete;
        assert_eq!(why.len(), 1, "{why:?}");
        assert!(
            why[0].contains("stops at line 3 with no `end` record (a log's writer ends each match's record with an `end` record, a converter's too"),
            "{why:?}"
        );
        let tapped = write(&[
            r#"{"trace": 1, "event": "start", "player": 0, "tap": 7, "t_us": 0}"#,
            r#"{"event": "prompt", "player": 0, "tap": 7, "t_us": 1, "text": "p\n"}"#,
        ]);
        let why = read_match(&[tapped.path().to_path_buf()], None)
            .unwrap()
            .incomplete;
        assert!(why[0].ends_with("(its writer was killed, interrupted, or could not write)"));
    }

    #[test]
    fn a_play_log_is_whole_when_its_match_has_its_end() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "match": 0, "t_us": 0}"#,
            r#"{"event": "prompt", "match": 0, "player": 1, "t_us": 1, "text": "p\n"}"#,
            r#"{"event": "end", "match": 0, "t_us": 2}"#,
            r#"{"trace": 1, "event": "start", "match": 1, "t_us": 3}"#,
            r#"{"event": "interrupted", "match": 1, "t_us": 4}"#,
        ]);
        let path = [log.path().to_path_buf()];
        assert_eq!(read_match(&path, None).unwrap().incomplete.len(), 0);
        let cut = read_match(&path, Some(1)).unwrap().incomplete;
        assert!(
            cut[0].contains("the record of match 1 stops at line 5"),
            "{cut:?}"
        );
    }

    #[test]
    fn a_broken_line_inside_the_log_is_an_error_at_its_line() {
        let log = write(&[r#"{"event": "start"}"#, "garbage", r#"{"event": "end"}"#]);
        let err = read_logs(&[log.path().to_path_buf()], None).unwrap_err();
        assert_eq!(err.line, 2);
    }
}

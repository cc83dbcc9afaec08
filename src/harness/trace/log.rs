//! The trace log (`conformance/TRACES.md`): JSON lines written by `shinpan tap`, by
//! `shinpan play --log`, or converted from another tool, read back into each player's exchanges
//! with its engine. A torn last line (a tap killed mid-write) is dropped; any other line that
//! is not a record is an error naming the file and line.
//!
//! A log says whether it is whole: each writer's record of a match runs from its `start` record
//! to its `end` record, and one without its `end` (a writer killed, interrupted, or unable to
//! write) is reported as incomplete ([`MatchLogs::incomplete`]). Each `start` record of a tap
//! begins a new match of its player; records carry the tap's process id, so that two taps
//! writing one player's records into one log at once are an error, not one strange match.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The log format's version, in every log's `start` record.
pub const LOG_FORMAT: u64 = 1;

/// Microseconds since the Unix epoch: one clock for every log of a match.
pub fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// A log that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}: {message}", path.display())]
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
    /// Which match of a log with several (`shinpan play --rounds`). A tap's records have none:
    /// each of its `start` records begins the next match of its player.
    #[serde(default, rename = "match")]
    match_index: Option<u64>,
    /// The process id of the tap that wrote the record.
    #[serde(default)]
    tap: Option<u64>,
    #[serde(default)]
    status: Option<i64>,
    #[serde(default)]
    signal: Option<i64>,
    #[serde(default)]
    why: Option<String>,
}

/// One player's exchanges with its engine (`None`: the log ends, or the next prompt came,
/// first).
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

/// What the logs hold of one match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchLogs {
    /// Each player's side.
    pub players: BTreeMap<usize, PlayerLog>,
    /// Why the record of the match is incomplete, one reason per log and writer: no `end`
    /// record (the writer was killed, interrupted, or could not write), no `start` record, a
    /// bot that could not start. Empty when every writer ended its record.
    pub incomplete: Vec<String>,
}

/// One writer's record of one match in one log: from a `start` record to its `end`.
struct Run {
    /// The `player` of its `start` record (a tap's `--player`; none for `play`'s).
    player: Option<usize>,
    match_index: u64,
    /// Whether its `start` record named its match (`play`'s do, a tap's do not).
    numbered: bool,
    tap: Option<u64>,
    start_line: usize,
    last_line: usize,
    ended: bool,
    cannot_start: Option<String>,
}

/// Reads the logs (one per player, or one with every player), each player's chunks in order.
/// A log without `player` fields is the player of its place in `paths`. Of a log holding
/// several matches, only `match_index` is read (the first when `None`). A log in which two
/// taps wrote one player's records at once is an error: it holds no one match.
pub fn read_logs(paths: &[PathBuf], match_index: Option<u64>) -> Result<MatchLogs, LogError> {
    let mut files = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        let (records, runs) = read_log(path)?;
        files.push((index, path, records, runs));
    }
    let wanted = match_index.or_else(|| {
        files
            .iter()
            .flat_map(|(_, _, records, _)| records.iter().filter_map(|r| r.match_index))
            .min()
    });
    let mut incomplete = Vec::new();
    let mut chunks: BTreeMap<usize, Vec<Record>> = BTreeMap::new();
    for (index, path, records, runs) in files {
        incomplete.extend(incompleteness(path, &runs, wanted));
        for record in records {
            if record.match_index.is_none() || record.match_index == wanted {
                let player = record.player.unwrap_or(index);
                chunks.entry(player).or_default().push(record);
            }
        }
    }
    let players = chunks
        .into_iter()
        .map(|(player, mut records)| {
            // In the order things happened: a tap writes the two directions from two threads.
            records.sort_by_key(|r| r.t_us.unwrap_or(0));
            (player, assemble(records))
        })
        .filter(|(_, log)| !log.exchanges.is_empty() || log.before_first_prompt.is_some())
        .collect();
    Ok(MatchLogs {
        players,
        incomplete,
    })
}

/// The records of one log, each with its match (a tap's records get theirs from the `start`
/// records they follow), and the runs of its writers.
fn read_log(path: &Path) -> Result<(Vec<Record>, Vec<Run>), LogError> {
    let error = |line: usize, message: String| LogError {
        path: path.to_path_buf(),
        line,
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| error(0, format!("cannot read the log: {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut records = Vec::new();
    let mut runs: Vec<Run> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut record: Record = match serde_json::from_str(line) {
            Ok(record) => record,
            // A writer killed mid-write leaves a torn last line.
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(e) => return Err(error(i + 1, format!("not a trace record: {e}"))),
        };
        let line = i + 1;
        let player = record.player;
        let run = if record.event == "start" {
            // A tap's `start` begins its player's next match.
            let match_index = record.match_index.unwrap_or_else(|| {
                runs.iter()
                    .filter(|r| r.player == player && !r.numbered)
                    .count() as u64
            });
            runs.push(Run {
                player,
                match_index,
                numbered: record.match_index.is_some(),
                tap: record.tap,
                start_line: line,
                last_line: line,
                ended: false,
                cannot_start: None,
            });
            runs.last_mut()
        } else {
            writer_run(&mut runs, &record).map_err(|message| error(line, message))?
        };
        if let Some(run) = run {
            run.last_line = line;
            record.match_index = Some(run.match_index);
            match record.event.as_str() {
                "end" => run.ended = true,
                "cannot-start" => run.cannot_start = record.why.clone(),
                _ => {}
            }
        }
        records.push(record);
    }
    Ok((records, runs))
}

/// The run a record belongs to: that of its match when it names one (`play`), else the last
/// run its tap began for its player. A record of a tap whose run another tap's `start` record
/// has followed means two taps wrote the log at once.
fn writer_run<'r>(runs: &'r mut [Run], record: &Record) -> Result<Option<&'r mut Run>, String> {
    if let Some(m) = record.match_index {
        return Ok(runs
            .iter_mut()
            .rev()
            .find(|r| r.match_index == m && (r.player.is_none() || r.player == record.player)));
    }
    let player = record.player;
    let Some(latest) = runs.iter().rposition(|r| r.player == player) else {
        return Ok(None);
    };
    let own = match record.tap {
        Some(tap) => runs
            .iter()
            .rposition(|r| r.player == player && r.tap == Some(tap))
            .unwrap_or(latest),
        None => latest,
    };
    if own != latest {
        let who = player.map_or("the bot".to_string(), |p| format!("player {p}"));
        return Err(format!(
            "two taps wrote {who}'s records into this log at once (their `start` records are \
             at lines {} and {}): it holds no one match; give each tap its own log, or its \
             own --player",
            runs[own].start_line, runs[latest].start_line
        ));
    }
    Ok(runs.get_mut(own))
}

/// Why `path`'s record of match `wanted` is incomplete, if it is.
fn incompleteness(path: &Path, runs: &[Run], wanted: Option<u64>) -> Vec<String> {
    let path = path.display();
    let of_match: Vec<&Run> = runs
        .iter()
        .filter(|r| wanted.is_none_or(|m| r.match_index == m))
        .collect();
    if of_match.is_empty() {
        return vec![match wanted {
            Some(m) => format!("{path}: no `start` record for match {m}"),
            None => format!("{path}: no `start` record"),
        }];
    }
    of_match
        .into_iter()
        .filter(|run| !run.ended)
        .map(|run| {
            let who = match (run.player, run.tap) {
                (Some(p), _) => format!("player {p}'s record"),
                (None, Some(_)) => "the bot's record".to_string(),
                (None, None) => format!("the record of match {}", run.match_index),
            };
            match &run.cannot_start {
                Some(why) => format!("{path}: the bot never ran: {why}"),
                None => format!(
                    "{path}: {who} stops at line {} with no `end` record (its writer was \
                     killed, interrupted, or could not write)",
                    run.last_line
                ),
            }
        })
        .collect()
}

/// Each player's exchanges from a log another tool wrote ([`crate::game::Game::import`]).
pub fn from_imported(exchanges: Vec<crate::game::Imported>) -> BTreeMap<usize, PlayerLog> {
    let mut logs: BTreeMap<usize, PlayerLog> = BTreeMap::new();
    for exchange in exchanges {
        logs.entry(exchange.player)
            .or_default()
            .exchanges
            .push(Exchange {
                prompt: exchange.prompt,
                reply: exchange.reply,
                elapsed_ms: None,
            });
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

/// Whether `path` looks like a trace log (its first record says so).
pub fn is_trace_log(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.lines().next().map(str::to_string))
        .is_some_and(|l| l.contains("\"trace\""))
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
        let player = &logs.players[&0];
        assert_eq!(player.before_first_prompt.as_deref(), Some("my name"));
        assert_eq!(player.exchanges.len(), 2);
        assert_eq!(player.exchanges[0].prompt, "0\n1 2\nEND\n");
        assert_eq!(player.exchanges[0].reply.as_deref(), Some("3 0"));
        assert_eq!(player.exchanges[0].elapsed_ms, Some(6));
        // The torn last line is dropped: the second prompt has no reply, and the log no end.
        assert_eq!(player.exchanges[1].reply, None);
        assert_eq!(logs.incomplete.len(), 1);
        assert!(
            logs.incomplete[0].contains("player 0's record stops at line 7 with no `end`"),
            "{:?}",
            logs.incomplete
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
        let first = read_logs(&path, None).unwrap();
        assert_eq!(first.players[&0].exchanges[0].prompt, "first\n");
        assert_eq!(first.incomplete, Vec::<String>::new());
        let second = read_logs(&path, Some(1)).unwrap();
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
        let err = read_logs(&[log.path().to_path_buf()], None).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("lines 1 and 2"), "{}", err.message);
    }

    #[test]
    fn a_bot_that_never_ran_makes_an_incomplete_log_that_says_why() {
        let log = write(&[
            r#"{"trace": 1, "event": "start", "player": 1, "tap": 7, "t_us": 0}"#,
            r#"{"event": "cannot-start", "player": 1, "tap": 7, "t_us": 1, "why": "no such bot"}"#,
        ]);
        let logs = read_logs(&[log.path().to_path_buf()], None).unwrap();
        assert!(logs.players.is_empty());
        assert!(
            logs.incomplete[0].ends_with("the bot never ran: no such bot"),
            "{:?}",
            logs.incomplete
        );
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
        assert_eq!(read_logs(&path, None).unwrap().incomplete.len(), 0);
        let cut = read_logs(&path, Some(1)).unwrap().incomplete;
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

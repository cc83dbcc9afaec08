//! The tap's side of the trace log (`conformance/TRACES.md`): records written one flushed line
//! at a time, each with the tap's process id (`tap`), so that a log two taps wrote at once is
//! told apart from one match; and the chunks forwarded turned into `text` or `hex`.
//!
//! A log that cannot be written is not the bot's problem: the first write error is reported on
//! stderr at once, nothing more is written (a log with a hole must not end with an `end` record
//! that makes it look whole), and the match goes on; [`Log::failure`] then tells the tap to exit
//! with the status that says the log is incomplete.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use crate::harness::log::{now_us, record_line};

struct State {
    file: File,
    /// The first write error, after which nothing more is written.
    failure: Option<String>,
}

/// A log file shared by the tap's threads.
#[derive(Clone)]
pub struct Log {
    state: Arc<Mutex<State>>,
    path: PathBuf,
    player: Option<usize>,
}

impl Log {
    /// Opens `path` to append to. A log that already holds records is refused unless `append`:
    /// a second match (or a second tap) must not run on into the first one's records unmarked.
    pub fn open(path: &Path, append: bool, player: Option<usize>) -> std::io::Result<Log> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        if !append && file.metadata()?.len() > 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "it already holds records: give --append to add this match to it (its own \
                 `start` record begins it; `trace --match N` picks a match), or another file",
            ));
        }
        Ok(Log {
            state: Arc::new(Mutex::new(State {
                file,
                failure: None,
            })),
            path: path.to_path_buf(),
            player,
        })
    }

    /// Writes `record`, stamped now.
    pub fn record(&self, record: Value) {
        self.record_at(record, now_us());
    }

    /// Writes a record of something that happened at `t_us` (a chunk's read time: records of
    /// the two directions may reach the file out of order, their times never are).
    pub fn record_at(&self, mut record: Value, t_us: u64) {
        if let Value::Object(map) = &mut record {
            map.insert("t_us".into(), t_us.into());
            map.insert("tap".into(), std::process::id().into());
            if let Some(player) = self.player {
                map.insert("player".into(), player.into());
            }
        }
        let line = record_line(&record);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.failure.is_some() {
            return;
        }
        // One write per record: a kill leaves at most a torn last line.
        if let Err(e) = state.file.write_all(line.as_bytes()) {
            let why = e.to_string();
            let _ = writeln!(
                std::io::stderr(),
                "shinpan tap: cannot write the log {}: {why}; the match goes on unrecorded, and \
                 tap will exit with status 3 (the log is incomplete)",
                self.path.display()
            );
            state.failure = Some(why);
        }
    }

    /// The first write error, if any: the log has a hole and no `end` record.
    pub fn failure(&self) -> Option<String> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.failure.clone()
    }
}

/// Turns byte chunks into log records: text when it is UTF-8 (a character split between two
/// chunks is held back for the next), hex when it is not.
#[derive(Default)]
pub struct Utf8Chunks {
    carry: Vec<u8>,
}

impl Utf8Chunks {
    pub fn record(&mut self, event: &str, chunk: &[u8]) -> Value {
        self.carry.extend_from_slice(chunk);
        let bytes = std::mem::take(&mut self.carry);
        match std::str::from_utf8(&bytes) {
            Ok(text) => json!({"event": event, "text": text}),
            Err(e) if e.error_len().is_none() => {
                // Cut inside a character: log what is whole, keep the rest.
                let (whole, rest) = bytes.split_at(e.valid_up_to());
                self.carry = rest.to_vec();
                json!({"event": event, "text": String::from_utf8_lossy(whole)})
            }
            Err(_) => json!({"event": event, "hex": hex(&bytes)}),
        }
    }

    /// The bytes still held back when the stream ends (the start of a character that never
    /// came whole): they were forwarded, so they are logged, as hex.
    pub fn finish(&mut self, event: &str) -> Option<Value> {
        let rest = std::mem::take(&mut self.carry);
        (!rest.is_empty()).then(|| json!({"event": event, "hex": hex(&rest)}))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_across_chunks_is_logged_whole() {
        let mut chunks = Utf8Chunks::default();
        let word = "太郎".as_bytes();
        let first = chunks.record("reply", &word[..2]);
        assert_eq!(first["text"], "");
        let second = chunks.record("reply", &word[2..]);
        assert_eq!(second["text"], "太郎");
        let binary = chunks.record("reply", &[0xff, 0x00]);
        assert_eq!(binary["hex"], "ff00");
        assert_eq!(chunks.finish("reply"), None);
    }

    #[test]
    fn the_start_of_a_character_the_stream_never_finished_is_logged_at_its_end() {
        let mut chunks = Utf8Chunks::default();
        let record = chunks.record("reply", &[b'a', 0xe5, 0xa4]);
        assert_eq!(record["text"], "a");
        let last = chunks.finish("reply").unwrap();
        assert_eq!(last["hex"], "e5a4");
    }
}

//! Reading logs in two passes, so that the time is linear in the log and the memory is that of
//! one match, not of the whole log (issue 40, item 7: a log of 10,099 matches took 11 s, one of
//! 100,000 never finished: every match kept a copy of the set of all match numbers, and every
//! record looked through every writer's run before it).
//!
//! 1. [`LogIndex::open`] reads each log once, line by line, keeping of its records only what says
//!    where each match is: the `start` records (and those that give an outcome), each writer's
//!    run (from its `start` to its `end`), and the spans of consecutive lines of one match
//!    (`Span`: for a `play` log, one per match). Every line is checked here: an error names
//!    its file and line before anything is handed on.
//! 2. [`LogIndex::read`] and [`LogIndex::each`] read a match's spans again, and only those, to
//!    make its exchanges.
//!
//! Only the bytes a log had when it was opened are read, so a log a tap is still appending to
//! reads as it was then.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{
    assemble, read_record, time_in_torn, LogError, LogStart, MatchLog, PlayerLog, Record,
    LOG_FORMAT,
};

/// The largest log read: 4 GiB. The command line checks its own bound (`--max-log-bytes`)
/// before.
const MAX_LOG_BYTES: u64 = 4 << 30;

/// Where the matches of some logs are: what [`LogIndex::read`] reads a match with.
pub struct LogIndex {
    logs: Vec<IndexedLog>,
    /// The `start` records, and those that give an outcome, in the order of the logs and lines.
    starts: Vec<Record>,
    /// Each writer's run, with the log (its place in `logs`) it is in.
    runs: Vec<(usize, Run)>,
    /// The match numbers the logs hold.
    matches: Arc<BTreeSet<u64>>,
    /// By match (`None`: records of no match, which every match has): the places of its spans
    /// (log, span), of its `starts` and of its `runs`, each in order.
    by_match: BTreeMap<Option<u64>, OfMatch>,
}

/// Where one match's records are in a [`LogIndex`].
#[derive(Default)]
struct OfMatch {
    spans: Vec<(usize, usize)>,
    starts: Vec<usize>,
    runs: Vec<usize>,
}

/// One log as the first pass found it.
struct IndexedLog {
    path: PathBuf,
    /// Its size when it was opened: no byte past it is read.
    size: u64,
    /// The time of the record a torn last line held, when its time was written whole: records
    /// stamped at or after it go with it. (A tap writes the two directions from two threads,
    /// each record stamped when it was read: records written before the torn one may have
    /// happened after it. Without the record that was lost, they would join the wrong
    /// exchange, a reply to the lost prompt taken as the end of the reply before it.)
    lost_at: Option<u64>,
    spans: Vec<Span>,
}

/// Consecutive lines of a log whose records are of one match (or of none: records before the
/// first `start`, which every match has).
#[derive(Clone, Copy)]
struct Span {
    match_index: Option<u64>,
    /// The byte offset of its first line, and of the byte past its last line's break.
    start: u64,
    end: u64,
    /// The number (from 1) of its first line.
    first_line: usize,
}

/// One writer's record of one match in one log: from its `start` record to its `end` record,
/// if it wrote one.
#[derive(Clone)]
struct Run {
    player: Option<usize>,
    tap: Option<u64>,
    match_index: Option<u64>,
    start_line: usize,
    last_line: usize,
    ended: bool,
    cannot_start: Option<String>,
}

/// The runs of one log's writers, looked up by who wrote a record.
#[derive(Default)]
struct Writers {
    /// The latest run of each player (`None`: a run all players share).
    latest: HashMap<Option<usize>, usize>,
    /// The latest run of each player's tap.
    by_tap: HashMap<(Option<usize>, u64), usize>,
    /// The latest run of each player's match.
    by_match: HashMap<(Option<usize>, u64), usize>,
}

impl LogIndex {
    /// Reads the logs (one per player, or one with every player) for where their matches are. A
    /// log without `player` fields is the player of its place in `paths`. A log given twice, a
    /// log of a format version this shinpan does not know, and a line that is not a record
    /// (but a torn last one, which is dropped) are errors.
    pub fn open(paths: &[PathBuf]) -> Result<LogIndex, LogError> {
        let mut index = LogIndex {
            logs: Vec::new(),
            starts: Vec::new(),
            runs: Vec::new(),
            matches: Arc::default(),
            by_match: BTreeMap::new(),
        };
        let mut seen: Vec<(PathBuf, Option<(u64, u64)>)> = Vec::new();
        let mut matches = BTreeSet::new();
        let twice = |path: &Path, first: &Path| LogError {
            path: path.to_path_buf(),
            line: 0,
            message: format!(
                "the same log as {} is given twice: give each player's log once",
                first.display()
            ),
        };
        for (place, path) in paths.iter().enumerate() {
            let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            if let Some((first, _)) = seen.iter().find(|(p, _)| *p == canonical) {
                return Err(twice(path, first));
            }
            let (log, content) = index.index_log(place, path, &mut matches)?;
            if let Some((first, _)) = seen
                .iter()
                .find(|(_, c)| content.is_some() && *c == content)
            {
                return Err(twice(path, first));
            }
            seen.push((canonical, content));
            index.logs.push(log);
        }
        index.matches = Arc::new(matches);
        for (place, log) in index.logs.iter().enumerate() {
            for (k, span) in log.spans.iter().enumerate() {
                let of = index.by_match.entry(span.match_index).or_default();
                of.spans.push((place, k));
            }
        }
        for (k, start) in index.starts.iter().enumerate() {
            let of = index.by_match.entry(start.match_index).or_default();
            of.starts.push(k);
        }
        for (k, (_, run)) in index.runs.iter().enumerate() {
            let of = index.by_match.entry(run.match_index).or_default();
            of.runs.push(k);
        }
        Ok(index)
    }

    /// The match numbers the logs hold: their `match` fields, or else the count of `start`
    /// records before each record.
    pub fn matches(&self) -> &BTreeSet<u64> {
        &self.matches
    }

    /// Match `match_index` (the first when `None`).
    pub fn read(&self, match_index: Option<u64>) -> Result<MatchLog, LogError> {
        let wanted = match_index.or_else(|| self.matches.first().copied());
        let mut files: Vec<Option<File>> = self.logs.iter().map(|_| None).collect();
        self.read_wanted(wanted, &mut files)
    }

    /// Every match the logs hold, in order, handed to `each` one at a time until it breaks;
    /// logs of no numbered match, or of one, are one match. Only the match handed on is in
    /// memory.
    pub fn each(&self, mut each: impl FnMut(MatchLog) -> ControlFlow<()>) -> Result<(), LogError> {
        let mut files: Vec<Option<File>> = self.logs.iter().map(|_| None).collect();
        if self.matches.len() <= 1 {
            let _ = each(self.read_wanted(self.matches.first().copied(), &mut files)?);
            return Ok(());
        }
        for &m in self.matches.iter() {
            if each(self.read_wanted(Some(m), &mut files)?).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// Reads the log at `path`, the `place`th given, for its spans, runs and start records;
    /// returns it and its size and hash (`None` when it is empty), which tell a copy of it.
    fn index_log(
        &mut self,
        place: usize,
        path: &Path,
        matches: &mut BTreeSet<u64>,
    ) -> Result<(IndexedLog, Option<(u64, u64)>), LogError> {
        let at = |line: usize, message: String| LogError {
            path: path.to_path_buf(),
            line,
            message,
        };
        let unreadable = |e: &dyn std::fmt::Display| at(0, format!("cannot read the log: {e}"));
        let bound = crate::bounded::Bound {
            max: MAX_LOG_BYTES,
            option: "--max-log-bytes",
            what: "a log",
        };
        let (mut file, size) = crate::bounded::open(path, &bound).map_err(|e| unreadable(&e))?;
        let torn = torn_last_line(&mut file, size).map_err(|e| unreadable(&e))?;
        let lost_at = torn.as_ref().and_then(|(_, line)| time_in_torn(line));
        let torn_at = torn.map(|(offset, _)| offset);
        file.seek(SeekFrom::Start(0)).map_err(|e| unreadable(&e))?;
        let mut reader = BufReader::new(file.take(size));
        let mut log = IndexedLog {
            path: path.to_path_buf(),
            size,
            lost_at,
            spans: Vec::new(),
        };
        let mut hash = xxhash_rust::xxh64::Xxh64::new(0);
        // Records without `match` take the count of start records before them, per player.
        let mut starts_seen: BTreeMap<usize, u64> = BTreeMap::new();
        let mut writers = Writers::default();
        let mut bytes = Vec::new();
        let (mut offset, mut number) = (0u64, 0usize);
        loop {
            bytes.clear();
            let read = reader
                .read_until(b'\n', &mut bytes)
                .map_err(|e| unreadable(&e))?;
            if read == 0 {
                break;
            }
            hash.update(&bytes);
            let (line_start, ended) = (offset, bytes.last() == Some(&b'\n'));
            offset += read as u64;
            number += 1;
            if torn_at == Some(line_start) {
                // Hashed, but not read: a tap killed mid-write leaves a torn last line.
                continue;
            }
            let text = line_text(&bytes);
            if text.trim().is_empty() {
                continue;
            }
            let mut record: Record = match serde_json::from_str(&text) {
                Ok(record) => record,
                // A last line cut short, though it is JSON (a record without its `event`).
                Err(_) if !ended => continue,
                Err(e) => return Err(at(number, format!("not a trace record: {e}"))),
            };
            if lost_at.is_some_and(|lost| record.t_us.is_some_and(|t| t >= lost)) {
                continue;
            }
            let player = record.player.unwrap_or(place);
            if record.event == "start" {
                if let Some(version) = record.trace.filter(|&v| v != LOG_FORMAT) {
                    return Err(at(
                        number,
                        format!(
                            "log format version {version}; this shinpan reads version {LOG_FORMAT}"
                        ),
                    ));
                }
                *starts_seen.entry(player).or_default() += 1;
            }
            if record.match_index.is_none() {
                record.match_index = starts_seen.get(&player).map(|n| n - 1);
            }
            matches.extend(record.match_index);
            self.follow_writer(&mut writers, path, number, &record)?;
            match log.spans.last_mut() {
                Some(span) if span.match_index == record.match_index => span.end = offset,
                _ => log.spans.push(Span {
                    match_index: record.match_index,
                    start: line_start,
                    end: offset,
                    first_line: number,
                }),
            }
            if record.event == "start" || record.outcome.is_some() {
                record.text = None;
                record.hex = None;
                self.starts.push(record);
            }
        }
        let content = (size > 0).then(|| (size, hash.digest()));
        Ok((log, content))
    }

    /// Follows the writers of a log record by record: a `start` record begins a writer's run,
    /// an `end` record ends it. A tap's record that belongs to a run another tap's `start`
    /// record has followed for the same player means two taps wrote the log at once: it holds
    /// no one match.
    fn follow_writer(
        &mut self,
        writers: &mut Writers,
        path: &Path,
        line: usize,
        record: &Record,
    ) -> Result<(), LogError> {
        let log = self.logs.len();
        if record.event == "start" {
            let run = self.runs.len();
            self.runs.push((
                log,
                Run {
                    player: record.player,
                    tap: record.tap,
                    match_index: record.match_index,
                    start_line: line,
                    last_line: line,
                    ended: false,
                    cannot_start: None,
                },
            ));
            writers.latest.insert(record.player, run);
            if let Some(tap) = record.tap {
                writers.by_tap.insert((record.player, tap), run);
            }
            if let Some(m) = record.match_index {
                writers.by_match.insert((record.player, m), run);
            }
            return Ok(());
        }
        // A player's records belong to its own runs, or else to a run all players share (one
        // `start` record without `player` for a whole match).
        let writer = if writers.latest.contains_key(&record.player) {
            record.player
        } else {
            None
        };
        let Some(&latest) = writers.latest.get(&writer) else {
            return Ok(());
        };
        let own = match (record.tap, record.match_index) {
            (Some(tap), _) => writers.by_tap.get(&(writer, tap)),
            (None, Some(m)) => writers.by_match.get(&(writer, m)),
            (None, None) => None,
        }
        .copied()
        .unwrap_or(latest);
        if own != latest && record.tap.is_some() {
            let who = record
                .player
                .map_or("the bot".to_string(), |p| format!("player {p}"));
            return Err(LogError {
                path: path.to_path_buf(),
                line,
                message: format!(
                    "two taps wrote {who}'s records into this log at once (their start records \
                     are at lines {} and {}): it holds no one match; give each tap its own log, \
                     or its own --player",
                    self.runs[own].1.start_line, self.runs[latest].1.start_line
                ),
            });
        }
        let run = &mut self.runs[own].1;
        run.last_line = line;
        match record.event.as_str() {
            "end" => run.ended = true,
            "cannot-start" => run.cannot_start = record.why.clone(),
            _ => {}
        }
        Ok(())
    }

    /// The match `wanted` (every record, when `None`): the spans of it and of no match, read
    /// again through `files` (each log opened when first needed).
    fn read_wanted(
        &self,
        wanted: Option<u64>,
        files: &mut [Option<File>],
    ) -> Result<MatchLog, LogError> {
        // What is of the match, and what is of none (before any `start`), in log order.
        let places = |of: fn(&OfMatch) -> &Vec<usize>| {
            let mut places: Vec<usize> = [None, wanted]
                .iter()
                .filter_map(|m| self.by_match.get(m))
                .flat_map(|o| of(o).iter().copied())
                .collect();
            places.sort_unstable();
            places.dedup();
            places
        };
        let mut spans: Vec<(usize, usize)> = [None, wanted]
            .iter()
            .filter_map(|m| self.by_match.get(m))
            .flat_map(|o| o.spans.iter().copied())
            .collect();
        spans.sort_unstable();
        spans.dedup();
        let mut chunks: BTreeMap<usize, Vec<Record>> = BTreeMap::new();
        for (place, k) in spans {
            let log = &self.logs[place];
            if files[place].is_none() {
                files[place] = Some(log.reopen()?);
            }
            if let Some(file) = &files[place] {
                log.read_span(file, &log.spans[k], place, &mut chunks)?;
            }
        }
        let starts: Vec<&Record> = places(|o| &o.starts)
            .into_iter()
            .map(|k| &self.starts[k])
            .collect();
        let outcome = starts.iter().find_map(|r| r.outcome.clone());
        let incomplete = places(|o| &o.runs)
            .into_iter()
            .map(|k| &self.runs[k])
            .filter_map(|(log, run)| incompleteness(&self.logs[*log].path, run))
            .collect();
        let start = start_of(starts.into_iter().filter(|r| r.event == "start"));
        let players = chunks
            .into_iter()
            .map(|(player, mut records)| {
                // In the order things happened: a tap writes the two directions from two threads.
                records.sort_by_key(|r| r.t_us.unwrap_or(0));
                (player, assemble(records))
            })
            .filter(|(_, log): &(usize, PlayerLog)| {
                !log.exchanges.is_empty() || log.before_first_prompt.is_some()
            })
            .collect();
        Ok(MatchLog {
            players,
            start,
            matches: self.matches.clone(),
            read: wanted,
            outcome,
            incomplete,
        })
    }
}

impl IndexedLog {
    /// The log opened again for its second pass: still a regular file, at least as long as it
    /// was.
    fn reopen(&self) -> Result<File, LogError> {
        let bound = crate::bounded::Bound {
            max: u64::MAX,
            option: "--max-log-bytes",
            what: "a log",
        };
        let (file, size) = crate::bounded::open(&self.path, &bound).map_err(|e| LogError {
            path: self.path.clone(),
            line: 0,
            message: format!("cannot read the log again: {e}"),
        })?;
        if size < self.size {
            return Err(self.changed(0));
        }
        Ok(file)
    }

    /// Each record of `span`, read again from `file`, added to its player's in `chunks`.
    fn read_span(
        &self,
        mut file: &File,
        span: &Span,
        place: usize,
        chunks: &mut BTreeMap<usize, Vec<Record>>,
    ) -> Result<(), LogError> {
        let mut bytes = vec![0; usize::try_from(span.end - span.start).unwrap_or(0)];
        file.seek(SeekFrom::Start(span.start))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(|_| self.changed(span.first_line))?;
        let mut number = span.first_line;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            let text = line_text(line);
            number += 1;
            if text.trim().is_empty() {
                continue;
            }
            let mut record: Record = match serde_json::from_str(&text) {
                Ok(record) => record,
                Err(_) if line.last() != Some(&b'\n') => continue,
                Err(_) => return Err(self.changed(number - 1)),
            };
            if self
                .lost_at
                .is_some_and(|lost| record.t_us.is_some_and(|t| t >= lost))
            {
                continue;
            }
            record.match_index = span.match_index;
            let player = record.player.unwrap_or(place);
            chunks.entry(player).or_default().push(record);
        }
        Ok(())
    }

    fn changed(&self, line: usize) -> LogError {
        LogError {
            path: self.path.clone(),
            line,
            message: "the log changed while it was read (something rewrote it)".into(),
        }
    }
}

/// A line's text, without its break (`\n` or `\r\n`); bytes that are not UTF-8 replaced.
fn line_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let line = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8_lossy(line)
}

/// The offset and text of the last line of a log of `size` bytes, when it has no line break
/// and is not JSON: a record a writer killed mid-write left torn.
fn torn_last_line(file: &mut File, size: u64) -> std::io::Result<Option<(u64, String)>> {
    const BLOCK: u64 = 64 * 1024;
    let mut last = [0u8];
    if size == 0 {
        return Ok(None);
    }
    file.seek(SeekFrom::Start(size - 1))?;
    file.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(None);
    }
    // Back from the end, a block at a time, to the last line break.
    let mut start = size;
    let mut block = vec![0u8; BLOCK as usize];
    let line_start = loop {
        let from = start.saturating_sub(BLOCK);
        let block = &mut block[..(start - from) as usize];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(block)?;
        if let Some(i) = block.iter().rposition(|&b| b == b'\n') {
            break from + i as u64 + 1;
        }
        if from == 0 {
            break 0;
        }
        start = from;
    };
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(line_start))?;
    file.take(size - line_start).read_to_end(&mut bytes)?;
    let text = line_text(&bytes).into_owned();
    Ok(read_record(&text).is_err().then_some((line_start, text)))
}

/// What the `start` records of one match say: the first game named, and the options of all
/// (a `league` given on its own as an option).
fn start_of<'r>(starts: impl Iterator<Item = &'r Record>) -> LogStart {
    starts.fold(LogStart::default(), |mut start, r| {
        start.game = start.game.or_else(|| r.game.clone());
        start.seed = start.seed.or(r.seed);
        if let Some(options) = &r.options {
            start
                .options
                .get_or_insert_with(Map::new)
                .extend(options.clone());
        }
        if let Some(league) = &r.league {
            start
                .options
                .get_or_insert_with(Map::new)
                .insert("league".into(), Value::String(league.clone()));
        }
        start
    })
}

/// Why one writer's record of a match is incomplete, if it is.
fn incompleteness(path: &Path, run: &Run) -> Option<String> {
    let path = path.display();
    if let Some(why) = &run.cannot_start {
        return Some(format!("{path}: the bot never ran: {why}"));
    }
    if run.ended {
        return None;
    }
    let who = match (run.player, run.tap, run.match_index) {
        (Some(p), _, _) => format!("player {p}'s record"),
        (None, Some(_), _) => "the bot's record".to_string(),
        (None, None, Some(m)) => format!("the record of match {m}"),
        (None, None, None) => "the record".to_string(),
    };
    let why = if run.tap.is_some() {
        "its writer was killed, interrupted, or could not write"
    } else {
        // Not a tap's: `play`'s own, or a converter's (another tool's record made into this
        // format), which must end each match's record with an `end` record.
        "a log's writer ends each match's record with an `end` record, a converter's too \
         (conformance/TRACES.md, Records): this one did not, or was killed, interrupted, or \
         could not write"
    };
    Some(format!(
        "{path}: {who} stops at line {} with no `end` record ({why})",
        run.last_line
    ))
}

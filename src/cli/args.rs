//! The command line's arguments (clap). Values that cannot be used are refused here, with a
//! message that says what was expected, before anything runs: every duration is a positive
//! number of seconds that fits a `Duration`, every count at least 1, every seed a whole number
//! from 0. A negative number given to a numeric option reaches its parser, which says what it
//! expected (clap would otherwise advise `-- -1`, which passes it to the bot's command line).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use shinpan::case::{Source, DEFAULT_MAX_FILE_BYTES};
use shinpan::harness::arena::KeepLogs;
use shinpan::harness::session::LimitOverrides;
use shinpan::report::Format;
use shinpan::run::baseline::DEFAULT_MAX_BASELINE_BYTES;
use shinpan::run::expect_fail::DEFAULT_MAX_LIST_BYTES;
use shinpan::run::partition::Partition;
use shinpan::seam::{DynGame, MatchOptions};

use super::Usage;

#[derive(Parser)]
#[command(
    name = "shinpan",
    version,
    about = "Spec-conformance suite and protocol fuzzer for game-AI contest games",
    long_about = "shinpan (審判, \"referee\") checks game simulators and bots against the rule \
        documents of five game-AI contests.\n\nEach game has a reference engine written from its \
        rule document and a library of YAML cases transcribed from it (built into shinpan). \
        `games` lists the games (`games GAME` prints how a bot talks to that game's engine), \
        `check` runs the cases on the reference engine or on yours, `coverage` lists rule \
        clauses no case checks, `schema` prints the JSON Schema of a game's canonical state, \
        `bot` checks a bot program, `play` plays local matches, `diff` fuzzes an engine against \
        the reference, `report merge` joins the reports of a sharded `check`.\n\nExit codes: 0 all passed, 1 something failed, 2 the tool could not do \
        its job (bad arguments, a bad case file, a program that cannot start)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// List the games: ids, rule documents, protocol pages and match options; with a GAME, print
    /// that game's entry and its protocol page (what a bot reads and prints, and when).
    #[command(after_help = "Example: shinpan games codevs-reborn")]
    Games(GamesArgs),
    /// Run the case library on the reference engine, or on another engine through an adapter.
    Check(CheckArgs),
    /// List rule clauses that no case checks; exit 1 if there is any.
    Coverage(CoverageArgs),
    /// Differential fuzzing: play random states and replies on the reference engine and on
    /// `--engine`; shrink the first disagreement and write it as a case. Exit 1 when one is found.
    Diff(DiffArgs),
    /// Print the JSON Schema of a game's canonical state (the contract for adapters), with its
    /// match options under `x-match-options`.
    Schema(SchemaArgs),
    /// Check a bot program: handshake, whole matches, extreme and malformed prompts.
    #[command(after_help = "Example: shinpan bot codevs-reborn -- python3 my_bot.py")]
    Bot(BotArgs),
    /// Play local matches between bot programs (or `builtin`) on the reference engine; with
    /// `--matches`, an arena: every seed in every seat order, a table of results per pair.
    #[command(
        after_help = "Examples: shinpan play codevs-reborn --rounds 2 -- python3 a.py -- builtin\n          shinpan play codevs-reborn --matches 20 --jobs 2 --log-dir logs -- python3 a.py -- python3 b.py"
    )]
    Play(PlayArgs),
    /// Sit between a real engine and a bot as the bot's command: forward every byte both ways
    /// unchanged and record them (conformance/TRACES.md). Exits as the bot does; 3 when the
    /// log could not be written whole.
    #[command(
        after_help = "Example: (as the engine's bot command) shinpan tap --log p0.jsonl --player 0 -- python3 bot.py"
    )]
    Tap(TapArgs),
    /// (Used by `tap`.) Become CMD, killed by the kernel when process PARENT dies.
    #[command(hide = true)]
    TapExec(TapExecArgs),
    /// (Used by `tap` and the runs that start programs.) When the input closes, end process
    /// group PGID and every process carrying the marks.
    #[command(hide = true)]
    Guard(GuardArgs),
    /// Check a recorded match (logs of `tap`, `play --log`, or converted) turn by turn against
    /// the rules: every departure with its step, fields and clauses. Exit 1 on any departure,
    /// else 3 when less was checked than the log holds (a log cut short or with no `end` record:
    /// its writer was killed or failed; no such match).
    #[command(after_help = "Example: shinpan trace tsg-auto-chess p0.jsonl p1.jsonl")]
    Trace(TraceArgs),
    /// Work with `check` reports: `report FILE --html OUT` draws a `check --format json` report
    /// as a self-contained HTML page (exit as `check` did on that run); `merge` joins the `--format json` reports of the shards of
    /// one run (`check --partition`) into the report of the whole run.
    #[command(after_help = "Example: shinpan report check.json --html check.html")]
    Report(ReportArgs),
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, arg_required_else_help = true)]
pub struct ReportArgs {
    #[command(subcommand)]
    pub command: Option<ReportCommand>,
    /// A `check --format json` report to draw as HTML (with `--html`).
    #[arg(value_name = "REPORT", requires = "html")]
    pub report: Option<PathBuf>,
    /// Where to write the HTML page: one self-contained file (written whole or not at all; a
    /// FIFO or a character device is written through, a symbolic link followed; a link to
    /// nothing, a directory, a block device or a socket is refused).
    #[arg(long, value_name = "FILE", requires = "report")]
    pub html: Option<PathBuf>,
    /// An earlier `--format json` report: the page shows what got fixed, what broke, new
    /// errors.
    #[arg(long, value_name = "REPORT", requires = "report")]
    pub baseline: Option<PathBuf>,
    /// The largest report (and baseline) read, in bytes.
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_BASELINE_BYTES, value_parser = at_least_one_u64)]
    pub max_report_bytes: u64,
}

#[derive(Subcommand)]
pub enum ReportCommand {
    /// Join `check --format json` reports of one run (its shards) into one report, its cases in
    /// library order. Reports of different plans (library, engine, version, options, games,
    /// filter, partition) are refused, naming the difference; the shards not given and the
    /// cases no report judged are named. Exit 1 when a case failed, else 3 when less was judged
    /// than the run selected (or every case was unsupported), else 0.
    #[command(
        after_help = "Example: shinpan report merge --format junit shard-1.json shard-2.json shard-3.json"
    )]
    Merge(MergeArgs),
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The reports to join.
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// The library the reports were made from, which gives the order of the cases.
    #[command(flatten)]
    pub library: LibraryArg,
    /// The largest report read, in bytes.
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_BASELINE_BYTES, value_parser = at_least_one_u64)]
    pub max_report_bytes: u64,
}

#[derive(clap::Args)]
pub struct GamesArgs {
    /// A game id: print its entry and its protocol page.
    pub game: Option<String>,
}

#[derive(clap::Args)]
pub struct TapArgs {
    /// The log to write (JSON lines, flushed record by record). A log that already holds
    /// records is refused unless `--append`.
    #[arg(long, value_name = "FILE")]
    pub log: PathBuf,
    /// Add this match to a log that already holds records: its own `start` record begins it
    /// (`trace --match N` picks one).
    #[arg(long)]
    pub append: bool,
    /// The engine's player number for this bot, written into every record.
    #[arg(long, value_name = "N")]
    pub player: Option<usize>,
    /// The real bot's command line (after `--`, or after the options when it is given inside
    /// another command line that splits on `--`, as `play`'s does).
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "CMD"
    )]
    pub command: Vec<String>,
}

#[derive(clap::Args)]
pub struct TapExecArgs {
    #[arg(long, value_name = "PID")]
    pub parent: u32,
    /// Where CMD's program is.
    #[arg(long, value_name = "FILE")]
    pub path: PathBuf,
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(clap::Args)]
pub struct GuardArgs {
    #[arg(long, value_name = "PGID")]
    pub group: Option<i32>,
    /// One lineage mark.
    #[arg(long, value_name = "MARK", required_unless_present = "all_of")]
    pub lineage: Option<String>,
    /// Every mark process PID gave out.
    #[arg(long, value_name = "PID", conflicts_with = "lineage")]
    pub all_of: Option<u32>,
    #[arg(long, value_name = "MS")]
    pub grace_ms: u64,
}

#[derive(clap::Args)]
pub struct TraceArgs {
    /// A game id from `shinpan games`.
    pub game: String,
    /// The logs: one per player (in player order, unless their records name the player), or
    /// one with every player.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// Of a log holding several matches, which one (0-based) [default: the first].
    #[arg(long = "match", allow_negative_numbers = true, value_name = "N", value_parser = whole_number)]
    pub match_index: Option<u64>,
    /// The largest log read, in bytes.
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_LOG_BYTES, value_parser = at_least_one_u64)]
    pub max_log_bytes: u64,
    /// Read the LOG (one, with every player) as another tool's log instead of a trace log:
    /// `main-rb` for TSG AUTO CHESS's main.rb (its standard output). See conformance/TRACES.md.
    #[arg(long, value_name = "FORMAT")]
    pub import: Option<String>,
    /// `html`: the match as one self-contained page, a replay viewer with the departures
    /// marked on its timeline and, at each, the state expected beside the state shown.
    #[arg(long, value_enum, default_value_t = CheckFormatArg::Human)]
    pub format: CheckFormatArg,
    /// The engine that recorded the log, by the name the rules catalogue gives its known
    /// departures (`main.rb`): they are played to name what the log shows. `--import main-rb`
    /// implies `main.rb`.
    #[arg(long, value_name = "NAME")]
    pub engine_known: Option<String>,
    /// Write each checked step as a step case (the engine's result as the expectation,
    /// `needs-review` where it departs) to DIR/<game>/trace-<log>.yaml (in parts,
    /// trace-<log>-part-<k>.yaml, each within check's default 4 MiB a file), with the game's
    /// rules.yaml, so that `shinpan check --cases DIR` checks any engine against the match. A
    /// manifest, trace-<log>.manifest.json, written last, lists the files and the logs they came
    /// from: `check` refuses parts without it; another log of the same file name gets
    /// trace-<log>-2 (the same log again replaces its own). DIR is tried before the trace; the
    /// report is printed even when the cases cannot be written (exit 2, nothing of them left).
    #[arg(long, value_name = "DIR")]
    pub cases_out: Option<PathBuf>,
    /// Match options over those the log's `start` record names (`--option league=wood1`).
    #[command(flatten)]
    pub options: OptionArgs,
}

// One struct per subcommand with arguments. Their help text is the doc comment of the
// `Command` variant, so the structs carry none (clap would read it too).
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Only these games (ids from `shinpan games`); all when none is given.
    pub games: Vec<String>,
    /// Only cases whose name (`game/file/case-id`) contains this text.
    #[arg(long, value_name = "PAT")]
    pub filter: Option<String>,
    /// Run one shard of the selected cases, as cargo-nextest does: `count:K/N` takes every N-th
    /// case from the K-th, `hash:K/N` the cases whose name hashes to shard K. The N shards run
    /// every case once; `shinpan report merge` joins their `--format json` reports. A shard
    /// that holds no case says so and exits 0: it had nothing to judge.
    #[arg(long, value_name = "KIND:K/N")]
    pub partition: Option<Partition>,
    /// Run the cases on N workers at once, each with its own engine (an adapter is started N
    /// times; one that does not start is tried again once, and then left out: the run goes on
    /// with fewer, saying so). The report is the same, in library order, whatever N: an
    /// adapter is given up on after 5 requests in a row failed the same way, counted over the
    /// cases in library order. Default: the number of cores.
    #[arg(long, short = 'j', value_name = "N", value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// `html`: one self-contained page (the failing cases drawn, filters); the others as every
    /// command prints them.
    #[arg(long, value_enum, default_value_t = CheckFormatArg::Human)]
    pub format: CheckFormatArg,
    /// No progress line (it is shown on stderr, when stderr is a terminal, once a run has
    /// lasted a second: cases done, failures so far, rate, time left).
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub library: LibraryArg,
    #[command(flatten)]
    pub engine: EngineArg,
    /// Known failures of the engine: a YAML mapping of case pattern (`*` = anything) to
    /// reason. A listed case that passes fails the run, so the list cannot go stale.
    #[arg(long, value_name = "FILE")]
    pub expect_fail: Option<PathBuf>,
    /// An earlier `--format json` report: print what got fixed, what broke, new errors.
    #[arg(long, value_name = "REPORT")]
    pub baseline: Option<PathBuf>,
    /// The largest `--expect-fail` list read, in bytes.
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_LIST_BYTES, value_parser = at_least_one_u64)]
    pub max_list_bytes: u64,
    /// The largest `--baseline` report read, in bytes.
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_BASELINE_BYTES, value_parser = at_least_one_u64)]
    pub max_baseline_bytes: u64,
    /// Match options for the generator cases (a case's own `options` take precedence).
    #[command(flatten)]
    pub options: OptionArgs,
}

#[derive(clap::Args)]
pub struct CoverageArgs {
    /// Only this game.
    pub game: Option<String>,
    #[command(flatten)]
    pub library: LibraryArg,
    /// `human`: per game, the clauses covered and each uncovered one; `json`: per game, each
    /// clause with the number of cases that check it, and the uncovered ones; `junit`: a test
    /// case per clause, failing when no case checks it.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
}

#[derive(clap::Args)]
pub struct DiffArgs {
    /// A game id from `shinpan games`.
    pub game: String,
    #[command(flatten)]
    pub engine: EngineArg,
    /// Seed of the random inputs.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number, default_value_t = 0)]
    pub seed: u64,
    /// How many inputs to try.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1000, value_parser = at_least_one)]
    pub runs: usize,
    /// Where to write the cases found: a case library DIR (created if need be) that `check
    /// --cases DIR` runs as it is, one case file per departure in `DIR/<game>/` beside the
    /// game's `rules.yaml` (the built-in one, when the folder has none); or, with
    /// `--departures 1`, a file ending in `.yaml` (a FIFO or a character device written
    /// through, a link followed). Checked before the first run. Printed to stdout when not
    /// given, or when a file cannot be written. A file already in DIR that is not a regular
    /// file (a link, a FIFO) is never replaced nor written through: refused, naming it.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Go on until this many distinct departures are found, told apart by their names: the
    /// clause a variant of the rules that reproduces each breaks, else `unexplained, fields …`.
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 1, value_parser = at_least_one)]
    pub departures: usize,
    /// Departures already known, passed over: a YAML mapping of a rule clause (the name of a
    /// departure) or a field path (`*` for any run of characters) to the reason, as
    /// `--expect-fail` lists cases. A pattern that matches no departure seen is reported, and
    /// so is a field pattern that covers some of a departure's fields and not all (which that
    /// departure is then not passed over).
    #[arg(long, value_name = "FILE")]
    pub known: Option<PathBuf>,
    /// The largest `--known` list read, in bytes.
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_LIST_BYTES, value_parser = at_least_one_u64)]
    pub max_list_bytes: u64,
    /// Most engine requests spent shrinking one departure, a safety net: shrinking stops at a
    /// fixed point (no clock: one seed, one case).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 3000, value_parser = at_least_one)]
    pub shrink_requests: usize,
    #[command(flatten)]
    pub options: OptionArgs,
    /// `human`: each departure as found and shrunk, a line each, and the cases in no file;
    /// `json`: one object with the run's totals and every departure (name, clauses, fields,
    /// sizes, its file, or its case's text when it is in none); `junit`: a failing test case
    /// per departure, a skipped one per `--known` departure seen.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
}

#[derive(clap::Args)]
pub struct SchemaArgs {
    /// A game id from `shinpan games`.
    pub game: String,
}

#[derive(clap::Args)]
pub struct BotArgs {
    /// A game id from `shinpan games`.
    pub game: String,
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number, default_value_t = 1)]
    pub seed: u64,
    /// Matches per seat in the `matches` phase.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1, value_parser = at_least_one)]
    pub matches: usize,
    /// The whole run ends within this many seconds, whatever the bot does.
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", default_value = "120", value_parser = seconds)]
    pub budget: Duration,
    /// Where inputs that made the bot fail are saved [default: a shinpan-bot-<pid> temp dir].
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
    /// `html`: one self-contained page, each FAIL linked to the prompt and reply that failed.
    #[arg(long, value_enum, default_value_t = CheckFormatArg::Human)]
    pub format: CheckFormatArg,
    /// What a bot that dies with an unhandled error (a stack trace) on a malformed prompt is:
    /// `fail`, or `info` when only the input a real engine sends matters.
    #[arg(long, value_enum, default_value_t = CrashArg::Fail)]
    pub malformed_crash: CrashArg,
    /// The phases to run after the handshake, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "matches,extreme,malformed"
    )]
    pub phases: Vec<PhaseArg>,
    /// Stop each phase at its first FAIL. By default every check runs (each on a fresh bot)
    /// and every failure is reported.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", default_value = "false")]
    pub fail_fast: bool,
    /// Only the checks of these names, comma-separated (the names the report gives, e.g.
    /// `non-numeric-token` or `seed-1-seat-0`), to rerun the ones that failed. The handshake
    /// always runs.
    #[arg(long, value_delimiter = ',', value_name = "CHECK")]
    pub only: Vec<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    /// The bot's command line, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(clap::Args)]
pub struct PlayArgs {
    /// A game id from `shinpan games`.
    pub game: String,
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number, default_value_t = 1)]
    pub seed: u64,
    /// Matches to play; the seats rotate every round (`--matches` plays every order).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1, value_parser = at_least_one)]
    pub rounds: usize,
    /// Play the game's series instead of rounds (CODE VS 4.0: the 41 stages), in fixed seats,
    /// ranked as its document ranks them.
    #[arg(long, conflicts_with = "rounds")]
    pub series: bool,
    /// An arena: N seeds from `--seed`, each played in every seat order of the players (2
    /// orders for two players, 6 for three), so N × orders matches. Prints a table per pair of
    /// players (wins, losses, draws, the win rate wins / (wins + losses) and its 95% Wilson
    /// interval; in a three-player match the winner beats both others and they draw) and every
    /// crash, time-out and illegal reply, counted apart from losses, with the log to replay it.
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = at_least_one,
          conflicts_with_all = ["rounds", "series", "log"])]
    pub matches: Option<usize>,
    /// With `--matches`: play N matches at once, each with programs of its own. Bots then share
    /// the cores and may reply later than alone: a warning says when a reply took over half its
    /// time or timed out. The results are the same, in the same order, whatever N [default: 1].
    #[arg(long, short = 'j', allow_negative_numbers = true, value_name = "N",
          value_parser = at_least_one, requires = "matches")]
    pub jobs: Option<usize>,
    /// With `--matches`: the directory (made if missing) where each match is logged, one file a
    /// match named by its seed and its seats (`seed-7-seats-2-1.jsonl`: #2 in seat 0), as
    /// `--log` writes them [default: a new directory in the system's temporary directory]. It
    /// must be empty, so that a second run never replaces or deletes the logs of a first
    /// (`--replace-logs` lets it); a log is never written through a symbolic link.
    #[arg(long, value_name = "DIR", requires = "matches")]
    pub log_dir: Option<PathBuf>,
    /// With `--log-dir`: write into a directory that holds files already. A log replaces what is
    /// at its name (a symbolic link itself, never what it points to; the links are named on
    /// stderr); other files are left as they are.
    #[arg(long, requires = "log_dir")]
    pub replace_logs: bool,
    /// With `--matches`: the logs to keep, of every match or only of those where a program
    /// crashed, timed out or replied illegally (the others are deleted once played).
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = KeepLogsArg::Failures,
          requires = "matches")]
    pub keep_logs: KeepLogsArg,
    /// Write every prompt and reply, with timings, to this file as JSON lines.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// `html`: with `--log`, every match of it as one self-contained page, a replay viewer with
    /// a match picker (each match made again from the log's seed and replies); with `--matches`, the
    /// arena's table, each failure linked to a replay page written beside its log.
    #[arg(long, value_enum, default_value_t = CheckFormatArg::Human)]
    pub format: CheckFormatArg,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub options: OptionArgs,
    /// One command line per player, each after its own `--`; `builtin` is the built-in player.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub commands: Vec<String>,
}

/// Match options (`shinpan games` lists each game's).
#[derive(clap::Args)]
pub struct OptionArgs {
    /// A match option of the game, e.g. `--option stage=30`; repeat for several.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl OptionArgs {
    /// The options, read and checked by `game` (exit 2 when it does not take them).
    pub fn for_game(&self, game: &dyn DynGame) -> Result<MatchOptions, Usage> {
        let options = self.read()?;
        game.check_options(&options)
            .map_err(|e| Usage(format!("--option {}: {e}", self.options.join(" "))))?;
        Ok(options)
    }

    /// The options as given, not yet checked by a game.
    pub fn read(&self) -> Result<MatchOptions, Usage> {
        MatchOptions::from_pairs(&self.options).map_err(|e| Usage(format!("--option {e}")))
    }
}

/// Overrides of the game's time limits.
#[derive(clap::Args)]
pub struct LimitArgs {
    /// Time for each reply, in ms [default: the game's].
    #[arg(long, allow_negative_numbers = true, value_name = "MS", value_parser = at_least_one_u64)]
    pub turn_ms: Option<u64>,
    /// Thinking time for a whole match, in ms [default: the game's].
    #[arg(long, allow_negative_numbers = true, value_name = "MS", value_parser = at_least_one_u64)]
    pub total_ms: Option<u64>,
    /// Time for the handshake line, in ms [default: the game's].
    #[arg(long, allow_negative_numbers = true, value_name = "MS", value_parser = at_least_one_u64)]
    pub handshake_ms: Option<u64>,
}

impl LimitArgs {
    pub fn overrides(&self) -> LimitOverrides {
        LimitOverrides {
            handshake_ms: self.handshake_ms,
            turn_ms: self.turn_ms,
            total_ms: self.total_ms,
        }
    }
}

#[derive(clap::Args)]
pub struct LibraryArg {
    /// The case library: a directory with one folder per game [default: the library built
    /// into shinpan].
    #[arg(long, value_name = "DIR", env = "SHINPAN_CASES")]
    pub cases: Option<PathBuf>,
    /// The largest case file read, in bytes.
    #[arg(long, allow_negative_numbers = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_BYTES, value_parser = at_least_one_u64)]
    pub max_case_file_bytes: u64,
}

impl LibraryArg {
    pub fn source(&self) -> Source {
        match &self.cases {
            Some(dir) => Source::Dir(dir.clone()),
            None => Source::Embedded,
        }
    }
}

#[derive(clap::Args)]
pub struct EngineArg {
    /// The engine under test: an adapter command (see conformance/ADAPTERS.md), split into
    /// words like a shell would. The reference engine when not given.
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// Seconds one adapter request may take (the start-up handshake has --start-timeout).
    #[arg(long, allow_negative_numbers = true, value_name = "SECS", default_value = "5", value_parser = seconds)]
    pub timeout: Duration,
    /// Seconds the adapter may take to start and answer its `hello`.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub start_timeout: Duration,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum CrashArg {
    Fail,
    Info,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PhaseArg {
    Matches,
    Extreme,
    Malformed,
}

/// Which logs of an arena stay (`play --keep-logs`).
#[derive(Clone, Copy, ValueEnum)]
pub enum KeepLogsArg {
    Failures,
    All,
}

impl KeepLogsArg {
    pub fn keep(self) -> KeepLogs {
        match self {
            KeepLogsArg::Failures => KeepLogs::Failures,
            KeepLogsArg::All => KeepLogs::All,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Human,
    Json,
    Junit,
}

/// The formats of `check`, `trace` and `play`: those of every command, and a page of HTML.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormatArg {
    Human,
    Json,
    Junit,
    Html,
}

impl CheckFormatArg {
    /// The report's format; `None` for the HTML page, which is no rendering of every report.
    pub fn format(self) -> Option<Format> {
        match self {
            CheckFormatArg::Human => Some(Format::Human),
            CheckFormatArg::Json => Some(Format::Json),
            CheckFormatArg::Junit => Some(Format::Junit),
            CheckFormatArg::Html => None,
        }
    }
}

impl FormatArg {
    pub fn format(self) -> Format {
        match self {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Junit => Format::Junit,
        }
    }
}

/// The largest trace log (or `--import` log) read by default: 256 MiB, hundreds of whole
/// matches.
pub const DEFAULT_MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;

/// The longest duration any option takes: a week.
const LONGEST: Duration = Duration::from_secs(7 * 24 * 3600);

/// A positive number of seconds, at most a week.
fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    match Duration::try_from_secs_f64(value) {
        Ok(d) if !d.is_zero() && d <= LONGEST => Ok(d),
        _ => Err(format!(
            "{text} is not a positive number of seconds of at most {} (a week)",
            LONGEST.as_secs()
        )),
    }
}

/// A whole number from 0 to `u64::MAX` (a seed, a match number).
fn whole_number(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| format!("`{text}` is not a whole number from 0 to {}", u64::MAX))
}

fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{text}` is not a whole number of at least 1")),
    }
}

fn at_least_one_u64(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{text}` is not a whole number of at least 1")),
    }
}

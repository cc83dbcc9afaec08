//! The `shinpan` command line: parses arguments, calls the library, maps the result to an exit
//! code — 0 all passed, 1 something failed, 2 the tool could not do its job.
//!
//! The argument structs and the exit codes live here; the subcommands whose bodies are more
//! than glue (`games`, `check`, `coverage`, `diff`, `play`) are in `cli/`.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use std::time::Duration;

use shinpan::game::MatchOptions;
use shinpan::games;
use shinpan::harness::adapter::{split_command, Adapter, AdapterConfig};
use shinpan::harness::bot::{check_bot, BotOptions};
use shinpan::harness::engine::Engine;
use shinpan::harness::session::LimitOverrides;

use cli::print;

#[derive(Parser)]
#[command(
    name = "shinpan",
    version,
    about = "Spec-conformance suite and protocol fuzzer for game-AI contest games",
    long_about = "shinpan (審判, \"referee\") checks game simulators and bots against the rule \
        documents of five game-AI contests.\n\nEach game has a reference engine written from its \
        rule document and a library of YAML cases transcribed from it. `check` runs the cases, \
        `coverage` lists rule clauses no case checks, `schema` prints the JSON Schema of a \
        game's canonical state.\n\nExit codes: 0 all passed, 1 something failed, 2 the tool could \
        not do its job (bad arguments, a bad case file)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games, with their ids, rule documents and protocol texts.
    Games,
    /// Run the case library on the reference engine, or on another engine through an adapter.
    Check(CheckArgs),
    /// List rule clauses that no case checks; exit 1 if there is any.
    Coverage(CoverageArgs),
    /// Differential fuzzing: play random states and replies on the reference engine and on
    /// `--engine`; shrink the first disagreement and write it as a case. Exit 1 when one is found.
    Diff(DiffArgs),
    /// Print the JSON Schema of a game's canonical state (the contract for adapters).
    Schema(SchemaArgs),
    /// Check a bot program: handshake, whole matches, extreme and malformed prompts.
    #[command(after_help = "Example: shinpan bot codevs-reborn -- python3 my_bot.py")]
    Bot(BotArgs),
    /// Play local matches between bot programs (or `builtin`) on the reference engine.
    #[command(
        after_help = "Example: shinpan play codevs-reborn --rounds 2 -- python3 a.py -- builtin"
    )]
    Play(PlayArgs),
}

// One struct per subcommand with arguments. Their help text is the doc comment of the
// `Command` variant, so the structs carry none (clap would read it too).
#[derive(clap::Args)]
struct CheckArgs {
    /// Only these games (ids from `shinpan games`); all when none is given.
    games: Vec<String>,
    /// Only cases whose name (`game/file/case-id`) contains this text.
    #[arg(long, value_name = "PAT")]
    filter: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    library: LibraryArg,
    #[command(flatten)]
    engine: EngineArg,
    /// Known failures of the engine: a YAML mapping of case pattern (`*` = anything) to
    /// reason. A listed case that passes fails the run, so the list cannot go stale.
    #[arg(long, value_name = "FILE")]
    expect_fail: Option<PathBuf>,
    /// An earlier `--format json` report: print what got fixed, what broke, new errors.
    #[arg(long, value_name = "REPORT")]
    baseline: Option<PathBuf>,
}

#[derive(clap::Args)]
struct CoverageArgs {
    /// Only this game.
    game: Option<String>,
    #[command(flatten)]
    library: LibraryArg,
}

#[derive(clap::Args)]
struct DiffArgs {
    /// A game id from `shinpan games`.
    game: String,
    #[command(flatten)]
    engine: EngineArg,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many inputs to try.
    #[arg(long, default_value_t = 1000)]
    runs: usize,
    /// Where to write the case of a disagreement (printed to stdout when not given).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(clap::Args)]
struct SchemaArgs {
    /// A game id from `shinpan games`.
    game: String,
}

#[derive(clap::Args)]
struct BotArgs {
    /// A game id from `shinpan games`.
    game: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Matches per seat in the `matches` phase.
    #[arg(long, default_value_t = 1)]
    matches: usize,
    /// The whole run ends within this many seconds, whatever the bot does.
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0)]
    budget: f64,
    /// Where inputs that made the bot fail are saved [default: a shinpan-bot-<pid> temp dir].
    #[arg(long, value_name = "DIR")]
    save_dir: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    options: OptionArgs,
    /// The bot's command line, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

#[derive(clap::Args)]
struct PlayArgs {
    /// A game id from `shinpan games`.
    game: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Matches to play; the seats rotate every round.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Write every prompt and reply, with timings, to this file as JSON lines.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    options: OptionArgs,
    /// One command line per player, each after its own `--`; `builtin` is the built-in player.
    #[arg(last = true, required = true, value_name = "CMD")]
    commands: Vec<String>,
}

/// Match options (`shinpan games` lists each game's).
#[derive(clap::Args)]
struct OptionArgs {
    /// A match option of the game, e.g. `--option stage=30`; repeat for several.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

impl OptionArgs {
    /// The options, read and checked by `game` (exit 2 when it does not take them).
    fn for_game(&self, game: &dyn shinpan::game::DynGame) -> Result<MatchOptions, Usage> {
        let options = MatchOptions::from_pairs(&self.options).map_err(Usage)?;
        game.check_options(&options)
            .map_err(|e| Usage(e.to_string()))?;
        Ok(options)
    }
}

/// Overrides of the game's time limits.
#[derive(clap::Args)]
struct LimitArgs {
    /// Time for each reply, in ms [default: the game's].
    #[arg(long, value_name = "MS")]
    turn_ms: Option<u64>,
    /// Thinking time for a whole match, in ms [default: the game's].
    #[arg(long, value_name = "MS")]
    total_ms: Option<u64>,
    /// Time for the handshake line, in ms [default: the game's].
    #[arg(long, value_name = "MS")]
    handshake_ms: Option<u64>,
}

impl LimitArgs {
    fn overrides(&self) -> LimitOverrides {
        LimitOverrides {
            handshake_ms: self.handshake_ms,
            turn_ms: self.turn_ms,
            total_ms: self.total_ms,
        }
    }
}

#[derive(clap::Args)]
struct LibraryArg {
    /// The case library: a directory with one folder per game.
    #[arg(long, value_name = "DIR", env = "SHINPAN_CASES", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/cases"))]
    cases: PathBuf,
}

#[derive(clap::Args)]
struct EngineArg {
    /// The engine under test: an adapter command (see conformance/ADAPTERS.md), split into
    /// words like a shell would. The reference engine when not given.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// Seconds one adapter request may take.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    timeout: f64,
}

impl EngineArg {
    /// Starts the adapter (exit 2 when it cannot be used at all), or the reference engine.
    fn start(&self) -> Result<Engine, Usage> {
        let Some(command) = &self.engine else {
            return Ok(Engine::Reference);
        };
        let argv = split_command(command).map_err(Usage)?;
        let mut config = AdapterConfig::new(argv);
        config.timeout = Duration::try_from_secs_f64(self.timeout)
            .ok()
            .filter(|t| !t.is_zero())
            .ok_or_else(|| {
                Usage(format!(
                    "--timeout {} is not a positive duration",
                    self.timeout
                ))
            })?;
        Adapter::start(config)
            .map(|adapter| Engine::Adapter(Box::new(adapter)))
            .map_err(|e| Usage(format!("the engine `{command}` cannot be used: {e}")))
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
    Junit,
}

/// The tool could not do its job: exit 2 with this message.
struct Usage(String);

/// What a subcommand found, when it could do its job.
enum Outcome {
    /// Exit 0.
    AllPassed,
    /// Exit 1.
    SomethingFailed,
}

impl Outcome {
    fn passed_if(passed: bool) -> Outcome {
        if passed {
            Outcome::AllPassed
        } else {
            Outcome::SomethingFailed
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(Outcome::AllPassed) => ExitCode::SUCCESS,
        Ok(Outcome::SomethingFailed) => ExitCode::FAILURE,
        Err(Usage(message)) => {
            eprintln!("shinpan: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<Outcome, Usage> {
    match cli.command {
        Command::Games => cli::listing::games(),
        Command::Check(args) => cli::check::run(args),
        Command::Coverage(args) => cli::listing::coverage(args),
        Command::Diff(args) => cli::diff::run(args),
        Command::Schema(SchemaArgs { game }) => {
            let game = games::by_id(&game)
                .ok_or_else(|| Usage(format!("no game `{game}` (see `shinpan games`)")))?;
            let schema =
                serde_json::to_string_pretty(&game.schema()).map_err(|e| Usage(e.to_string()))?;
            print(&(schema + "\n"));
            Ok(Outcome::AllPassed)
        }
        Command::Bot(BotArgs {
            game,
            seed,
            matches,
            budget,
            save_dir,
            format,
            limits,
            options,
            command,
        }) => {
            let game = game_by_id(&game)?;
            let match_options = options.for_game(game)?;
            if !(budget.is_finite() && budget > 0.0) {
                return Err(Usage(format!(
                    "--budget must be a positive number of seconds, not {budget}"
                )));
            }
            let defaults = BotOptions::default();
            let options = BotOptions {
                seed,
                matches,
                budget: std::time::Duration::from_secs_f64(budget),
                limits: limits.overrides(),
                match_options,
                save_dir: save_dir.unwrap_or(defaults.save_dir),
                ..defaults
            };
            let report = check_bot(game, &command, &options).map_err(|e| Usage(e.to_string()))?;
            print(&match format {
                Format::Human => report.human(),
                Format::Json => report.json() + "\n",
                Format::Junit => report.junit(),
            });
            Ok(Outcome::passed_if(!report.failed()))
        }
        Command::Play(args) => cli::play::run(args),
    }
}

fn game_by_id(id: &str) -> Result<&'static dyn shinpan::game::DynGame, Usage> {
    games::by_id(id).ok_or_else(|| Usage(format!("no game `{id}` (see `shinpan games`)")))
}

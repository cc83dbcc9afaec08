//! The `shinpan` command line: parses arguments, calls the library, maps the result to an exit
//! code — 0 all passed, 1 something failed, 2 the tool could not do its job.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use shinpan::case::load_library;
use shinpan::check::run_library;
use shinpan::games;
use shinpan::harness::bot::{check_bot, BotOptions};
use shinpan::harness::play::{play, rounds, Contender, PlayOptions};
use shinpan::harness::session::LimitOverrides;
use shinpan::report::Report;

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
    /// Run the case library on the reference engine.
    Check {
        /// Only these games (ids from `shinpan games`); all when none is given.
        games: Vec<String>,
        /// Only cases whose name (`game/file/case-id`) contains this text.
        #[arg(long, value_name = "PAT")]
        filter: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        #[command(flatten)]
        library: LibraryArg,
    },
    /// List rule clauses that no case checks; exit 1 if there is any.
    Coverage {
        /// Only this game.
        game: Option<String>,
        #[command(flatten)]
        library: LibraryArg,
    },
    /// Print the JSON Schema of a game's canonical state (the contract for adapters).
    Schema {
        /// A game id from `shinpan games`.
        game: String,
    },
    /// Check a bot program: handshake, whole matches, extreme and malformed prompts.
    #[command(after_help = "Example: shinpan bot codevs-reborn -- python3 my_bot.py")]
    Bot {
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
        /// The bot's command line, after `--`.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Play local matches between bot programs (or `builtin`) on the reference engine.
    #[command(
        after_help = "Example: shinpan play codevs-reborn --rounds 2 -- python3 a.py -- builtin"
    )]
    Play {
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
        /// One command line per player, each after its own `--`; `builtin` is the built-in player.
        #[arg(last = true, required = true, value_name = "CMD")]
        commands: Vec<String>,
    },
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

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
    Junit,
}

/// The tool could not do its job: exit 2 with this message.
struct Usage(String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(Usage(message)) => {
            eprintln!("shinpan: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, Usage> {
    match cli.command {
        Command::Games => {
            let mut out = String::new();
            for game in games::all() {
                let info = game.info();
                out.push_str(&format!(
                    "{:<16} {} — {} players, document {}, protocol texts: {}\n",
                    info.id,
                    info.title,
                    info.players,
                    info.document,
                    info.parse_kinds.join(", ")
                ));
            }
            print(&out);
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            games,
            filter,
            format,
            library,
        } => {
            let library = load_library(&library.cases, &games).map_err(|e| Usage(e.to_string()))?;
            let show_progress = std::io::stderr().is_terminal() && matches!(format, Format::Human);
            let results = run_library(&library, filter.as_deref(), |done, total| {
                if show_progress && (done % 50 == 0 || done == total) {
                    eprint!("\r[{done}/{total}]");
                    if done == total {
                        eprint!("\r\x1b[K");
                    }
                }
            });
            if results.is_empty() {
                return Err(Usage(format!(
                    "no case matches (filter: {})",
                    filter.as_deref().unwrap_or("none")
                )));
            }
            let report = Report::new(&library.digest, "reference", results);
            print(&match format {
                Format::Human => report.human(),
                Format::Json => report.json() + "\n",
                Format::Junit => report.junit(),
            });
            Ok(if report.all_passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Coverage { game, library } => {
            let only: Vec<String> = game.into_iter().collect();
            let library = load_library(&library.cases, &only).map_err(|e| Usage(e.to_string()))?;
            let mut out = String::new();
            let mut uncovered = 0;
            for (id, missing) in library.uncovered() {
                let total = library
                    .games
                    .iter()
                    .find(|g| g.game.info().id == id)
                    .map_or(0, |g| g.catalogue.clauses.len());
                out.push_str(&format!(
                    "{id}: {} of {total} clauses covered\n",
                    total - missing.len()
                ));
                for clause in &missing {
                    out.push_str(&format!("  uncovered: {} — {}\n", clause.id, clause.text));
                }
                uncovered += missing.len();
            }
            print(&out);
            Ok(if uncovered == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Schema { game } => {
            let game = games::by_id(&game)
                .ok_or_else(|| Usage(format!("no game `{game}` (see `shinpan games`)")))?;
            let schema =
                serde_json::to_string_pretty(&game.schema()).map_err(|e| Usage(e.to_string()))?;
            print(&(schema + "\n"));
            Ok(ExitCode::SUCCESS)
        }
        Command::Bot {
            game,
            seed,
            matches,
            budget,
            save_dir,
            format,
            limits,
            command,
        } => {
            let game = game_by_id(&game)?;
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
                save_dir: save_dir.unwrap_or(defaults.save_dir),
                ..defaults
            };
            let report = check_bot(game, &command, &options).map_err(|e| Usage(e.to_string()))?;
            print(&match format {
                Format::Human => report.human(),
                Format::Json => report.json() + "\n",
                Format::Junit => report.junit(),
            });
            Ok(if report.failed() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Play {
            game,
            seed,
            rounds: count,
            log,
            format,
            limits,
            commands,
        } => {
            let game = game_by_id(&game)?;
            let players = game.info().players;
            let contenders: Vec<Contender> = commands
                .split(|arg| arg == "--")
                .map(|argv| Contender::from_argv(argv.to_vec()))
                .collect();
            if contenders.len() != players
                || contenders
                    .iter()
                    .any(|c| c == &Contender::Program(Vec::new()))
            {
                return Err(Usage(format!(
                    "{} needs {players} players, each a command line after its own `--` (or `builtin`)",
                    game.info().id
                )));
            }
            let mut log_file = match &log {
                Some(path) => Some(std::io::BufWriter::new(
                    std::fs::File::create(path)
                        .map_err(|e| Usage(format!("cannot write {}: {e}", path.display())))?,
                )),
                None => None,
            };
            let plan = rounds(seed, count, players);
            let options = PlayOptions {
                limits: limits.overrides(),
                process: Default::default(),
            };
            let show_progress = std::io::stderr().is_terminal();
            let summary = play(
                game,
                &contenders,
                &plan,
                &options,
                log_file.as_mut().map(|f| f as &mut dyn Write),
                |round, step| {
                    if show_progress && step % 10 == 0 {
                        eprint!("\r[match {}/{count}] step {step}\x1b[K", round + 1);
                    }
                },
            )
            .map_err(|e| Usage(e.to_string()))?;
            if show_progress {
                eprint!("\r\x1b[K");
            }
            if let Some(mut file) = log_file {
                file.flush()
                    .map_err(|e| Usage(format!("cannot write the log: {e}")))?;
            }
            print(&match format {
                Format::Human => summary.human(),
                Format::Json | Format::Junit => {
                    serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n"
                }
            });
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn game_by_id(id: &str) -> Result<&'static dyn shinpan::game::DynGame, Usage> {
    games::by_id(id).ok_or_else(|| Usage(format!("no game `{id}` (see `shinpan games`)")))
}

/// Writes to stdout; a closed pipe (`shinpan check | head`) is not an error.
fn print(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

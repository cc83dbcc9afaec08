//! The `shinpan` command line: parses arguments, calls the library, maps the result to an exit
//! code — 0 all passed, 1 something failed, 2 the tool could not do its job.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use std::time::Duration;

use shinpan::baseline::compare;
use shinpan::case::load_library;
use shinpan::diff::{self, DiffConfig, DiffOutcome};
use shinpan::expect_fail::ExpectFail;
use shinpan::games;
use shinpan::harness::adapter::{split_command, Adapter, AdapterConfig};
use shinpan::harness::bot::{check_bot, BotOptions};
use shinpan::harness::engine::{run_library_on, Engine};
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
    /// Run the case library on the reference engine, or on another engine through an adapter.
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
        #[command(flatten)]
        engine: EngineArg,
        /// Known failures of the engine: a YAML mapping of case pattern (`*` = anything) to
        /// reason. A listed case that passes fails the run, so the list cannot go stale.
        #[arg(long, value_name = "FILE")]
        expect_fail: Option<PathBuf>,
        /// An earlier `--format json` report: print what got fixed, what broke, new errors.
        #[arg(long, value_name = "REPORT")]
        baseline: Option<PathBuf>,
    },
    /// List rule clauses that no case checks; exit 1 if there is any.
    Coverage {
        /// Only this game.
        game: Option<String>,
        #[command(flatten)]
        library: LibraryArg,
    },
    /// Differential fuzzing: play random states and replies on the reference engine and on
    /// `--engine`; shrink the first disagreement and write it as a case. Exit 1 when one is found.
    Diff {
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
            engine,
            expect_fail,
            baseline,
        } => {
            let library = load_library(&library.cases, &games).map_err(|e| Usage(e.to_string()))?;
            let expect_fail = expect_fail
                .map(|path| ExpectFail::load(&path))
                .transpose()
                .map_err(Usage)?;
            let baseline = baseline
                .map(|path| {
                    std::fs::read_to_string(&path)
                        .map_err(|e| Usage(format!("{}: {e}", path.display())))
                })
                .transpose()?;
            let mut engine = engine.start()?;
            let show_progress = std::io::stderr().is_terminal() && matches!(format, Format::Human);
            let every = if matches!(engine, Engine::Reference) {
                50
            } else {
                5
            };
            let mut results =
                run_library_on(&library, filter.as_deref(), &mut engine, |done, total| {
                    if show_progress && (done % every == 0 || done == total) {
                        eprint!("\r[{done}/{total}]");
                        if done == total {
                            eprint!("\r\x1b[K");
                        }
                    }
                });
            if let Some(list) = &expect_fail {
                for pattern in list.apply(&mut results).unmatched {
                    eprintln!(
                        "shinpan: warning: --expect-fail entry `{pattern}` matches no case run"
                    );
                }
            }
            if results.is_empty() {
                return Err(Usage(format!(
                    "no case matches (filter: {})",
                    filter.as_deref().unwrap_or("none")
                )));
            }
            let report = Report::new(&library.digest, &engine.name(), results);
            if let Engine::Adapter(adapter) = &engine {
                if adapter.restarts > 0 && matches!(format, Format::Human) {
                    eprintln!(
                        "shinpan: the adapter was restarted {} times",
                        adapter.restarts
                    );
                }
            }
            drop(engine);
            print(&match format {
                Format::Human => report.human(),
                Format::Json => report.json() + "\n",
                Format::Junit => report.junit(),
            });
            if let Some(text) = baseline {
                let changes = compare(&text, &report).map_err(Usage)?;
                match format {
                    Format::Human => print(&changes.human()),
                    _ => eprint!("{}", changes.human()),
                }
            }
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
        Command::Diff {
            game,
            engine,
            seed,
            runs,
            out,
        } => {
            let game = games::by_id(&game)
                .ok_or_else(|| Usage(format!("no game `{game}` (see `shinpan games`)")))?;
            let command = engine
                .engine
                .clone()
                .ok_or_else(|| Usage("`diff` needs --engine CMD".into()))?;
            let Engine::Adapter(mut adapter) = engine.start()? else {
                return Err(Usage("`diff` needs --engine CMD".into()));
            };
            if !adapter.supports(game.info().id) {
                return Err(Usage(format!(
                    "the engine `{command}` does not implement `{}`",
                    game.info().id
                )));
            }
            let config = DiffConfig {
                seed,
                runs,
                ..DiffConfig::default()
            };
            let show_progress = std::io::stderr().is_terminal();
            let outcome = diff::run(game, &mut adapter, &config, |done| {
                if show_progress && done % 20 == 0 {
                    eprint!("\r[{done}/{runs}]");
                }
            });
            if show_progress {
                eprint!("\r\x1b[K");
            }
            match outcome {
                DiffOutcome::Agreed { runs, unsupported } => {
                    print(&format!(
                        "no disagreement in {runs} inputs ({unsupported} unsupported by the engine)\n"
                    ));
                    Ok(ExitCode::SUCCESS)
                }
                DiffOutcome::Disagreed(finding) => {
                    let case = diff::case_file(game, &finding, &command, seed);
                    let summary = format!(
                        "disagreement on run {} (shrunk in {} steps, {} requests):\n{}\n",
                        finding.run,
                        finding.shrink_steps,
                        finding.shrink_requests,
                        finding.difference
                    );
                    match out {
                        Some(path) => {
                            std::fs::write(&path, case)
                                .map_err(|e| Usage(format!("{}: {e}", path.display())))?;
                            print(&format!("{summary}case written to {}\n", path.display()));
                        }
                        None => print(&format!("{summary}\n{case}")),
                    }
                    Ok(ExitCode::FAILURE)
                }
            }
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

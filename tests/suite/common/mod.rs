//! Helpers shared by the modules of the test binary: parser verdicts for a snapshot, where a
//! game's test data and snapshots live, proptest's configuration, and running a test in a process of its own.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence};
use shinpan::seam::{DynGame, EdgeCase, Game, ParseVerdict, Reply};

/// Each (protocol text kind, input) with what the game's parser says of it, one entry per
/// input, for a snapshot of the error messages users read.
pub fn describe_parses(game: &dyn DynGame, inputs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (kind, input) in inputs {
        let verdict = match game.parse(kind, input) {
            Some(ParseVerdict::Valid { printed }) => format!("valid, prints {printed:?}"),
            Some(ParseVerdict::NonStrict(e)) => format!("non-strict: {e}"),
            Some(ParseVerdict::Invalid(e)) => format!("invalid: {e}"),
            None => format!("no `{kind}` parser"),
        };
        out.push_str(&format!("{kind} {input:?}\n    {verdict}\n"));
    }
    out
}

/// `shinpan` as the tests run it: the built-in library (no `SHINPAN_CASES` from the
/// environment), from the repository's root.
///
/// `python3` on its `PATH` is the interpreter itself ([`python3`]), ahead of any version
/// manager's shim: the adapters a test names as `python3 …` start three times faster.
pub fn shinpan() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("shinpan").unwrap();
    cmd.env_remove("SHINPAN_CASES")
        .env("PATH", path_with_python3_first())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// This process's `PATH` with the directory of [`python3`] first.
fn path_with_python3_first() -> std::ffi::OsString {
    let python_dir = Path::new(python3())
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(Path::to_path_buf);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = python_dir.into_iter().chain(std::env::split_paths(&path));
    std::env::join_paths(dirs).unwrap_or(path)
}

/// [`shinpan`], killed after `seconds`: a run that hangs fails its test instead of the suite.
pub fn shinpan_within(seconds: u64) -> assert_cmd::Command {
    let mut cmd = shinpan();
    cmd.timeout(std::time::Duration::from_secs(seconds));
    cmd
}

/// The crate of the game `id`, `crates/shinpan-<id>/`: its rules (`src/`), its cases when it is
/// a test game, and `testdata/`, what the generic suite reads of it (its example bot, its
/// parser inputs, its snapshots). `every_game.rs` checks that every registered game has one.
pub fn game_folder(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates")
        .join(format!("shinpan-{id}"))
}

/// The game `id`'s test data, `testdata/` in its folder.
pub fn game_testdata(id: &str) -> PathBuf {
    game_folder(id).join("testdata")
}

/// What the generic suite needs of a game that the seam does not give, read from
/// `crates/shinpan-<game>/testdata/suite.yaml`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteData {
    /// The example bot, a Python program that plays the game legally and takes
    /// `--on-bad-input crash|report|skip`; a path from the repository's root.
    pub example_bot: String,
    /// Options of `shinpan bot` for the example bot (time limits for a shared machine), and the
    /// fewest extreme prompts its checker must send.
    pub check_options: Vec<String>,
    pub extreme_at_least: usize,
    /// Options of `shinpan play` for the example bot against the built-in player.
    pub play_options: Vec<String>,
    /// The longest reply worth trying on the game's reply fuzz body.
    pub fuzz_reply_bytes: usize,
}

impl SuiteData {
    /// The data of the game `id`; a panic naming the file when it is missing or malformed.
    pub fn of(id: &str) -> SuiteData {
        let path = game_testdata(id).join("suite.yaml");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{id}: no {}: {e}", path.display()));
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The example bot's absolute path.
    pub fn bot_path(&self) -> String {
        format!("{}/{}", env!("CARGO_MANIFEST_DIR"), self.example_bot)
    }
}

/// The interpreter `python3` names, as a path (`sys.executable`), found once a process; plain
/// `python3` when Python cannot say. The tests start Python bots hundreds of times, and where
/// `python3` is a version manager's shim (pyenv's is a shell script running `pyenv exec`) the
/// shim costs more than Python's own start: a bot checker's run took twice as long through it.
/// The interpreter is the one the shim would have run.
pub fn python3() -> &'static str {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON.get_or_init(|| {
        Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|path| !path.is_empty())
            .unwrap_or_else(|| "python3".to_string())
    })
}

/// insta's settings for a snapshot of the game `id`: the file is
/// `crates/shinpan-<game>/testdata/snapshots/<name>.snap`, whichever module asserts it.
pub fn game_snapshots(id: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(game_testdata(id).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings
}

/// proptest's configuration for this binary: a failure is kept in
/// `<module>.proptest-regressions` beside the module's source, and replayed first from then on.
/// (proptest's default, `SourceParallel`, takes the folder holding `main.rs` for a crate's
/// source root and would keep them in `tests/proptest-regressions/<module>.txt`.)
pub fn proptest_config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// [`proptest_config`] with `cases` cases a test.
pub fn proptest_cases(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        ..proptest_config()
    }
}

/// The variable that tells a copy of this binary started by [`in_own_process`] which test it
/// runs alone.
const ALONE: &str = "SHINPAN_TEST_ALONE";

/// Runs `body` as the test `name` (its path in this binary: `process::an_echo_bot_answers`) in a
/// process of its own, with no other test beside it: this binary again, told by its command line
/// to run that test only, and by its environment that it is the copy that runs `body`.
///
/// For tests that drive programs through shinpan's harness in this process. The harness makes
/// the process that runs it the reaper of its orphaned descendants, and reaps every zombie child
/// it did not start itself (`shinpan::harness::reaper`): in a process shared with other tests it
/// could take the exit status of their children, whose `Command::output` would then fail.
pub fn in_own_process(name: &str, body: impl FnOnce()) {
    in_own_process_within(name, None, body)
}

/// [`in_own_process`], its address space at most `max_kib` KiB when given (`ulimit -v`): a test
/// of what must not grow without bound fails there when it does, instead of taking the
/// machine's memory.
pub fn in_own_process_within(name: &str, max_kib: Option<u64>, body: impl FnOnce()) {
    if std::env::var_os(ALONE).is_some_and(|alone| alone == name) {
        body();
        return;
    }
    let test_binary = std::env::current_exe().expect("the test binary's path");
    let mut command = match max_kib {
        None => Command::new(test_binary),
        Some(kib) => {
            let mut sh = Command::new("sh");
            sh.args(["-c", &format!("ulimit -v {kib}; exec \"$@\""), "sh"])
                .arg(test_binary);
            sh
        }
    };
    let output = command
        .args([name, "--exact", "--nocapture", "--test-threads", "1"])
        .env(ALONE, name)
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{name}, run alone ({}):\n{stdout}{stderr}",
        output.status
    );
}

/// Every edge case of a game is usable by the bot checker: each state valid, its prompt valid
/// under the parse kind `prompt_kind`, and `replies` play a step from it.
pub fn assert_edge_cases_playable<G: Game>(
    game: &G,
    cases: Vec<EdgeCase<G::State>>,
    prompt_kind: &str,
    replies: &[Reply],
) {
    for case in cases {
        for state in &case.states {
            game.validate(state)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            let prompt = game.prompt(state, case.seat);
            let verdict = game.parse(prompt_kind, &prompt);
            assert!(
                matches!(verdict, Some(ParseVerdict::Valid { .. })),
                "{}: {verdict:?}",
                case.name
            );
            let mut next = state.clone();
            game.step(&mut next, replies)
                .unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
        }
    }
}

/// The names of the cases of a JSON `check` report, in its order.
pub fn case_names(report: &str) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_str(report).unwrap();
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect()
}

//! The bot behind a tap, and how it dies with it. The engine owns the tap, not the bot: it may
//! end the tap with SIGKILL, which nothing in the tap survives to pass on. So:
//!
//! - the bot runs in a process group of its own, marked with a lineage
//!   ([`crate::harness::reaper`]), and the tap is the subreaper of its orphans;
//! - it is started through [`exec_with_parent_death`] (shinpan's hidden `tap-exec`): the
//!   kernel sends it SIGKILL when the tap dies, however it dies (`PR_SET_PDEATHSIG`, kept
//!   across the `exec`; set in a process of our own before it becomes the bot, so no `unsafe`
//!   code runs between `fork` and `exec`);
//! - a [`Guard`] in a group of its own waits on a pipe only the tap holds: when the pipe
//!   closes, because the tap ended however it ended, the guard ends the bot's group and kills
//!   every process that carries the bot's lineage mark (its children in sessions of their own);
//! - when the bot exits, the tap ends what it left: the rest of its group, then its marked
//!   descendants ([`Bot::end_rest`]).
//!
//! Without a helper program (the library used from elsewhere), the bot is started directly
//! and only the last point holds.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

use crate::harness::guard::{Guard, Marks};
use crate::harness::reaper::{self, LeftBehind};

/// A running bot: the leader of its process group.
pub struct Bot {
    child: Child,
    lineage: String,
    /// Ends the bot's group and marked descendants when the tap ends, however it ends.
    guard: Option<Guard>,
}

impl Bot {
    /// Starts `argv` in a new process group, through `helper`'s `tap-exec` and with its
    /// `guard` when a helper is given. An error says why the bot cannot start.
    pub fn start(argv: &[String], helper: Option<&Path>, grace: Duration) -> std::io::Result<Bot> {
        let (program, args) = argv.split_first().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "no bot command")
        })?;
        // Found here, so that a bot that cannot start is told as such, not as a helper that
        // exited with status 127.
        let found = find_program(program)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot start `{program}`: {e}")))?;
        reaper::adopt_orphans();
        let lineage = reaper::new_lineage();
        let mut command = match helper {
            Some(helper) => {
                let mut command = Command::new(helper);
                command
                    .arg("tap-exec")
                    .arg("--parent")
                    .arg(std::process::id().to_string())
                    .arg("--path")
                    .arg(&found)
                    .arg("--")
                    .args(argv);
                command
            }
            None => {
                let mut command = Command::new(&found);
                command.args(args);
                command
            }
        };
        let child = command
            .env(reaper::LINEAGE_VAR, reaper::lineage_value(&lineage))
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot start `{program}`: {e}")))?;
        let guard = helper.and_then(|helper| {
            let marks = Marks::Lineage(lineage.clone());
            Guard::start(helper, Some(child.id() as i32), &marks, grace).ok()
        });
        Ok(Bot {
            child,
            lineage,
            guard,
        })
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// The bot's input and output, to forward.
    pub fn pipes(&mut self) -> Option<(ChildStdin, ChildStdout)> {
        Some((self.child.stdin.take()?, self.child.stdout.take()?))
    }

    /// Waits for the bot (the group's leader) to exit.
    pub fn wait(&mut self) -> std::io::Result<std::process::ExitStatus> {
        self.child.wait()
    }

    /// Ends what the bot left when it exited: the rest of its group (SIGTERM, `grace`,
    /// SIGKILL), then every process carrying its mark. Returns who was found.
    pub fn end_rest(&mut self, grace: Duration) -> Vec<LeftBehind> {
        let mut found = reaper::group_members(self.pid());
        reaper::end_groups(&[self.pid()], grace);
        for process in reaper::sweep(&self.lineage) {
            if !found.iter().any(|p| p.pid == process.pid) {
                found.push(process);
            }
        }
        found
    }

    /// Lets the guard go (its work is done) and reaps it.
    pub fn release_guard(&mut self) {
        if let Some(guard) = self.guard.take() {
            guard.release();
        }
    }
}

/// Sends `signal` to the bot's group, and SIGKILL after `grace` if the bot outlived it.
/// Returns whether SIGKILL was needed.
pub fn signal_group(pgid: i32, signal: Signal, grace: Duration) -> bool {
    let _ = killpg(Pid::from_raw(pgid), signal);
    let until = Instant::now() + grace;
    while Instant::now() < until {
        if !reaper::alive(pgid) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    if !reaper::alive(pgid) {
        return false;
    }
    let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
    true
}

/// `tap-exec`: asks the kernel for SIGKILL when `parent` (the tap) dies, then becomes `argv`
/// (the program at `path`, named as `argv[0]`). Returns only when it could not: why.
pub fn exec_with_parent_death(parent: u32, path: &Path, argv: &[String]) -> std::io::Error {
    let Some((name, args)) = argv.split_first() else {
        return std::io::Error::new(std::io::ErrorKind::InvalidInput, "no bot command");
    };
    #[cfg(target_os = "linux")]
    if let Err(e) = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL) {
        return e.into();
    }
    // The tap may have died before the request was made: then nothing would come.
    if nix::unistd::getppid().as_raw() as u32 != parent {
        return std::io::Error::other("the tap ended before its bot started");
    }
    Command::new(path).arg0(name).args(args).exec()
}

/// Where `program` is, as `execvp` would find it: a path when it holds a `/`, else the first
/// executable file of that name in `PATH`.
fn find_program(program: &str) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let path = PathBuf::from(program);
        return match std::fs::metadata(&path) {
            Err(e) => Err(e),
            Ok(_) if executable(&path) => Ok(path),
            Ok(_) => Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "not an executable file",
            )),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                PathBuf::from(".").join(program)
            } else {
                dir.join(program)
            }
        })
        .find(|candidate| executable(candidate))
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not found in PATH"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_as_execvp_finds_them() {
        assert!(find_program("sh").is_ok());
        assert_eq!(
            find_program("/nonexistent/bot").unwrap_err().kind(),
            std::io::ErrorKind::NotFound
        );
        assert_eq!(
            find_program("no-such-bot-anywhere").unwrap_err().kind(),
            std::io::ErrorKind::NotFound
        );
        assert_eq!(
            find_program("/etc/passwd").unwrap_err().kind(),
            std::io::ErrorKind::PermissionDenied
        );
    }
}

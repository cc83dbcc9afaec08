//! A guard: a process of its own that outlives its owner's death to end what the owner
//! started. No handler runs on SIGKILL, and a tap its engine kills cannot pass anything on; so
//! an owner that starts programs also starts a guard (shinpan's hidden `guard` subcommand,
//! [`watch`]) in a process group of its own, holding the only write end of the guard's input.
//! When that closes — the owner ended, however it ended — the guard ends the process group it
//! watches (SIGTERM, a grace period, SIGKILL), kills every process carrying the lineage marks
//! it watches ([`reaper`]), and exits. An owner that ends normally, having ended what it started,
//! [`Guard::release`]s it: the guard then exits at once.
//!
//! What it does not catch: a process that scrubbed its environment and left the watched group.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use super::reaper;

/// The marks a guard watches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marks {
    /// One child's lineage (a tap's bot).
    Lineage(String),
    /// Every mark process `pid` gave out (a whole run).
    AllOf(u32),
}

/// A running guard, released when its owner ends normally.
pub struct Guard {
    child: Child,
    input: ChildStdin,
}

impl Guard {
    /// Starts `helper guard …` to watch `group` (if any) and `marks`.
    pub fn start(
        helper: &Path,
        group: Option<i32>,
        marks: &Marks,
        grace: Duration,
    ) -> std::io::Result<Guard> {
        let mut command = Command::new(helper);
        command.arg("guard");
        if let Some(group) = group {
            command.arg("--group").arg(group.to_string());
        }
        match marks {
            Marks::Lineage(lineage) => command.arg("--lineage").arg(lineage),
            Marks::AllOf(pid) => command.arg("--all-of").arg(pid.to_string()),
        };
        use std::os::unix::process::CommandExt;
        let mut child = command
            .arg("--grace-ms")
            .arg(grace.as_millis().to_string())
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("the guard's input is missing"))?;
        Ok(Guard { child, input })
    }

    /// Tells the guard its owner ended what it started, so that it exits at once, and reaps
    /// it.
    pub fn release(self) {
        let Guard {
            mut child,
            mut input,
        } = self;
        let _ = input.write_all(RELEASED);
        drop(input);
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if !matches!(child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// What an owner that ended normally writes its guard before closing its input.
const RELEASED: &[u8] = b"released\n";

/// The guard's body (`shinpan guard`): waits until its input closes; unless its owner released
/// it, then ends `group` and kills what carries `marks`.
pub fn watch(group: Option<i32>, marks: &Marks, grace: Duration) {
    let mut said = Vec::new();
    let _ = std::io::stdin().lock().read_to_end(&mut said);
    if said == RELEASED {
        return;
    }
    if let Some(group) = group {
        reaper::end_groups(&[group], grace);
    }
    match marks {
        Marks::Lineage(lineage) => reaper::sweep(lineage),
        Marks::AllOf(pid) => reaper::sweep_all_of(*pid),
    };
}

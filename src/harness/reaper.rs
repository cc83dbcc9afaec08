//! Nothing a child starts outlives it. A process group is not enough: a program can start a
//! grandchild in a new session (`setsid`), out of reach of the group's signals, and that
//! grandchild would run on after shinpan ends. So:
//!
//! - shinpan makes itself a *child subreaper* (Linux `PR_SET_CHILD_SUBREAPER`): an orphaned
//!   descendant is re-parented to shinpan, not to init, so it stays ours to reap;
//! - every child is started with a lineage mark in its environment ([`LINEAGE_VAR`]), which its
//!   descendants inherit whatever session they move to;
//! - when a child is finished, [`sweep`] kills every live process that carries the child's mark,
//!   reaps it, reaps the orphans that already died, and says who was found.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;

/// The environment variable that marks a child and all its descendants.
pub const LINEAGE_VAR: &str = "SHINPAN_LINEAGE";

/// The children shinpan started itself, which their owners reap (never reaped here).
static DIRECT_CHILDREN: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// A process found carrying a finished child's mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftBehind {
    pub pid: i32,
    /// Its command line (or name), for the report.
    pub command: String,
}

/// Makes shinpan the reaper of its orphaned descendants (once; a no-op where the system has
/// no such thing).
pub fn adopt_orphans() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(target_os = "linux")]
        let _ = nix::sys::prctl::set_child_subreaper(true);
    });
}

/// A fresh mark for the next child.
pub fn new_lineage() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Remembers a direct child, which [`sweep`] must not reap.
pub fn register(pid: u32) {
    let mut children = DIRECT_CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    children.get_or_insert_with(HashSet::new).insert(pid as i32);
}

/// Forgets a direct child once its owner has reaped it.
pub fn forget(pid: u32) {
    let mut children = DIRECT_CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(children) = children.as_mut() {
        children.remove(&(pid as i32));
    }
}

/// Kills and reaps every live process marked `lineage`, and reaps shinpan's dead orphans.
/// Returns who was found alive.
pub fn sweep(lineage: &str) -> Vec<LeftBehind> {
    let needle = format!("{LINEAGE_VAR}={lineage}\0");
    let mut found = Vec::new();
    // A process may start another while being killed: look until none is left (bounded).
    for _ in 0..8 {
        let alive: Vec<LeftBehind> = processes()
            .filter(|p| p.state != 'Z' && p.carries(&needle))
            .map(|p| LeftBehind {
                pid: p.pid,
                command: p.command(),
            })
            .collect();
        if alive.is_empty() {
            break;
        }
        for process in &alive {
            let _ = kill(Pid::from_raw(process.pid), Signal::SIGKILL);
        }
        settle(&alive);
        found.extend(alive);
    }
    reap_orphans();
    found.sort_by_key(|p| p.pid);
    found.dedup_by_key(|p| p.pid);
    found
}

/// Waits briefly for killed processes to die, reaping those that were re-parented to us.
fn settle(killed: &[LeftBehind]) {
    let until = Instant::now() + Duration::from_millis(500);
    let mut waiting: Vec<i32> = killed.iter().map(|p| p.pid).collect();
    while !waiting.is_empty() && Instant::now() < until {
        waiting.retain(|&pid| {
            let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| parse_stat(pid, &stat))
                .is_some_and(|p| p.state != 'Z')
        });
        if !waiting.is_empty() {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Reaps the zombies whose parent is shinpan and that shinpan did not start itself: orphans
/// of its children, re-parented to it.
fn reap_orphans() {
    let me = std::process::id() as i32;
    let direct = DIRECT_CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_default();
    for process in processes() {
        if process.state == 'Z' && process.ppid == me && !direct.contains(&process.pid) {
            let _ = waitpid(Pid::from_raw(process.pid), Some(WaitPidFlag::WNOHANG));
        }
    }
}

struct Process {
    pid: i32,
    ppid: i32,
    state: char,
    name: String,
}

impl Process {
    fn carries(&self, needle: &str) -> bool {
        std::fs::read(format!("/proc/{}/environ", self.pid))
            .map(|env| env.windows(needle.len()).any(|w| w == needle.as_bytes()))
            .unwrap_or(false)
    }

    fn command(&self) -> String {
        let line = std::fs::read(format!("/proc/{}/cmdline", self.pid))
            .map(|raw| {
                raw.split(|&b| b == 0)
                    .filter(|a| !a.is_empty())
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        let line = if line.is_empty() {
            self.name.clone()
        } else {
            line
        };
        line.chars().take(80).collect()
    }
}

/// Every process this user can see.
fn processes() -> impl Iterator<Item = Process> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            parse_stat(pid, &stat)
        })
}

/// `pid (name) S ppid ...`: the name may hold spaces and parentheses, so split at the last `)`.
fn parse_stat(pid: i32, stat: &str) -> Option<Process> {
    let (head, rest) = stat.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_string();
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some(Process {
        pid,
        ppid,
        state,
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_names_parse() {
        let p = parse_stat(42, "42 (a) b (c)) S 7 42 42 0").unwrap();
        assert_eq!(
            (p.pid, p.ppid, p.state, p.name.as_str()),
            (42, 7, 'S', "a) b (c)")
        );
        assert!(parse_stat(1, "garbage").is_none());
    }
}

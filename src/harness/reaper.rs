//! Nothing a child starts outlives it. A process group is not enough: a program can start a
//! grandchild in a new session (`setsid`), out of reach of the group's signals, and that
//! grandchild would run on after shinpan ends. So:
//!
//! - shinpan makes itself a *child subreaper* (Linux `PR_SET_CHILD_SUBREAPER`): an orphaned
//!   descendant is re-parented to shinpan, not to init, so it stays ours to reap;
//! - every child is started with a lineage mark in its environment ([`LINEAGE_VAR`]), which its
//!   descendants inherit whatever session they move to; a shinpan started by a shinpan (a `tap`
//!   under `play`) adds its marks to the ones it inherited, so the outer one still finds them;
//! - when a child is finished, [`sweep`] kills every live process that carries the child's mark,
//!   reaps it, reaps the orphans that already died, and says who was found; [`sweep_all`] does
//!   the same for every mark this process gave out (an interrupted run), and a
//!   [`guard`](super::guard) for every mark its owner gave out once the owner is gone;
//! - [`end_groups`] ends whole process groups as nextest does: SIGTERM, a grace period, SIGKILL.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, killpg, Signal};
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

/// The value of [`LINEAGE_VAR`] for a child marked `lineage`: the marks this process inherited
/// (it may itself run under a shinpan), then the child's own, comma-separated.
pub fn lineage_value(lineage: &str) -> String {
    match std::env::var(LINEAGE_VAR) {
        Ok(inherited) if !inherited.is_empty() => format!("{inherited},{lineage}"),
        _ => lineage.to_string(),
    }
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
    sweep_marked(|mark| mark == lineage)
}

/// Kills and reaps every live process carrying a mark this process gave out: what is left of
/// everything it started.
pub fn sweep_all() -> Vec<LeftBehind> {
    sweep_all_of(std::process::id())
}

/// Kills every live process carrying a mark process `pid` gave out (a guard's sweep, once
/// `pid` is gone).
pub fn sweep_all_of(pid: u32) -> Vec<LeftBehind> {
    let theirs = format!("{pid}-");
    sweep_marked(|mark| mark.starts_with(&theirs))
}

fn sweep_marked(wanted: impl Fn(&str) -> bool) -> Vec<LeftBehind> {
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    // A process may start another while being killed: look until none is left (bounded).
    for _ in 0..8 {
        let alive: Vec<LeftBehind> = processes()
            .filter(|p| p.state != 'Z' && p.pid != me && p.carries(&wanted))
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

/// Ends process groups as nextest does: SIGTERM to each group, up to `grace` for every member
/// to exit, then SIGKILL to whatever is left. Returns the groups that needed SIGKILL. Members
/// are reaped by their parents (shinpan reaps its own); a zombie counts as gone.
pub fn end_groups(pgids: &[i32], grace: Duration) -> Vec<i32> {
    let alive: Vec<i32> = pgids.iter().copied().filter(|&g| group_alive(g)).collect();
    for &pgid in &alive {
        let _ = killpg(Pid::from_raw(pgid), Signal::SIGTERM);
    }
    let until = Instant::now() + grace;
    let mut left = alive;
    while !left.is_empty() {
        left.retain(|&g| group_alive(g));
        if left.is_empty() || Instant::now() >= until {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    for &pgid in &left {
        let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
    }
    left
}

/// The live processes of group `pgid`.
pub fn group_members(pgid: i32) -> Vec<LeftBehind> {
    processes()
        .filter(|p| p.pgrp == pgid && p.state != 'Z')
        .map(|p| LeftBehind {
            pid: p.pid,
            command: p.command(),
        })
        .collect()
}

/// Whether any live (not zombie) process belongs to process group `pgid`.
pub fn group_alive(pgid: i32) -> bool {
    processes().any(|p| p.pgrp == pgid && p.state != 'Z')
}

/// Whether process `pid` runs (exists and is not a zombie).
pub fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| parse_stat(pid, &stat))
        .is_some_and(|p| p.state != 'Z')
}

struct Process {
    pid: i32,
    ppid: i32,
    pgrp: i32,
    state: char,
    name: String,
}

impl Process {
    /// Whether the process's environment holds a lineage mark `wanted` accepts.
    fn carries(&self, wanted: &impl Fn(&str) -> bool) -> bool {
        std::fs::read(format!("/proc/{}/environ", self.pid))
            .is_ok_and(|environ| marks(&environ).any(wanted))
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

/// The lineage marks in an environment block (`NAME=value\0...`, as `/proc/PID/environ`).
fn marks(environ: &[u8]) -> impl Iterator<Item = &str> {
    let prefix = format!("{LINEAGE_VAR}=");
    environ
        .split(|&b| b == 0)
        .filter_map(move |entry| entry.strip_prefix(prefix.as_bytes()))
        .flat_map(|value| value.split(|&b| b == b','))
        .filter_map(|mark| std::str::from_utf8(mark).ok())
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
    let pgrp = fields.next()?.parse().ok()?;
    Some(Process {
        pid,
        ppid,
        pgrp,
        state,
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_names_parse() {
        let p = parse_stat(42, "42 (a) b (c)) S 7 40 42 0").unwrap();
        assert_eq!(
            (p.pid, p.ppid, p.pgrp, p.state, p.name.as_str()),
            (42, 7, 40, 'S', "a) b (c)")
        );
        assert!(parse_stat(1, "garbage").is_none());
    }

    #[test]
    fn marks_inherited_from_an_outer_shinpan_are_read_one_by_one() {
        let environ = b"PATH=/bin\0SHINPAN_LINEAGE=10-0,20-3\0SHINPAN_LINEAGE_X=9-9\0";
        assert_eq!(marks(environ).collect::<Vec<_>>(), ["10-0", "20-3"]);
    }
}

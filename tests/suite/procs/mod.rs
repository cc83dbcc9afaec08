//! The processes a test's hostile programs start, found by a marker: each hostile program runs
//! `sleep` for a duration no other process uses ([`Marked::new`]), so a scan of
//! `/proc/*/cmdline` tells whether any of them is still alive. Every wait is bounded, and a
//! [`Marked`] kills what is left of its processes when dropped, so a failing test leaves
//! nothing running either.

#![allow(dead_code)]

use std::process::Child;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// A marker: `sleep` durations no other process uses, and the processes running them.
pub struct Marked {
    /// The duration the hostile programs sleep for, in seconds (`3007.12345`).
    pub sleep: String,
}

impl Marked {
    /// The marker of test number `n` of this test binary: each test its own `n` (`interrupt`
    /// takes 0 to 19, `tap` 20 to 29), and the binary's pid keeps apart two runs at once.
    pub fn new(n: u32) -> Marked {
        Marked {
            sleep: format!("{}.{}", 3000 + n, std::process::id()),
        }
    }

    /// `ps -eo pid,ppid,pgid,stat,cmd` lines of the live processes running the marker: `sleep`
    /// for its duration (not a shell or a shinpan whose command line holds it).
    pub fn alive(&self) -> Vec<String> {
        let sleeping = format!("sleep {}", self.sleep);
        table(|cmdline| cmdline == sleeping)
    }

    /// Waits until at least `count` marked processes run; false after `within`.
    pub fn wait_for(&self, count: usize, within: Duration) -> bool {
        let until = Instant::now() + within;
        while Instant::now() < until {
            if self.alive().len() >= count {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Waits until no marked process runs; returns those still running after `within`.
    pub fn wait_gone(&self, within: Duration) -> Vec<String> {
        let until = Instant::now() + within;
        loop {
            let alive = self.alive();
            if alive.is_empty() || Instant::now() >= until {
                return alive;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        for line in self.alive() {
            if let Some(pid) = line.split_whitespace().next().and_then(|p| p.parse().ok()) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
    }
}

/// The live (not zombie) processes whose command line `wanted` accepts, as
/// `pid ppid pgid state cmdline` lines.
pub fn table(wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        let (Ok(stat), Ok(cmdline)) = (
            std::fs::read_to_string(entry.path().join("stat")),
            std::fs::read(entry.path().join("cmdline")),
        ) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline)
            .trim_end_matches('\0')
            .replace('\0', " ");
        // pid (comm) state ppid pgrp ...: split after the last ')', comm may hold anything.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() < 3 || fields[0] == "Z" || !wanted(&cmdline) {
            continue;
        }
        lines.push(format!(
            "{pid} {} {} {} {cmdline}",
            fields[1], fields[2], fields[0]
        ));
    }
    lines
}

/// Sends `signal` to `child`.
pub fn send(child: &Child, signal: Signal) {
    kill(Pid::from_raw(child.id() as i32), signal).expect("the child is ours to signal");
}

/// Waits for `child` to exit; kills it and panics when it has not within `within`.
pub fn exits_within(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let until = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status;
        }
        if Instant::now() >= until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {within:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Writes `script` to `name` in `dir` and returns its path as a string.
pub fn script(dir: &std::path::Path, name: &str, script: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, script).expect("the temporary directory is writable");
    path.display().to_string()
}

//! The child-process layer against programs that misbehave: each test bounds its own time, and
//! none may leave a process behind. The layer runs in this process, which it makes the reaper of
//! zombie children it did not start: each test runs alone in a process of its own
//! ([`common::in_own_process`]), away from the other tests' children.

use std::time::{Duration, Instant};

use shinpan::harness::process::{Child, Limits, ReadFailure, SendFailure};
use shinpan::seam::Frame;

use crate::common;

fn sh(script: &str) -> Child {
    Child::spawn(
        &["sh".into(), "-c".into(), script.into()],
        Limits::default(),
    )
    .unwrap()
}

fn one_line(lines: &[&str]) -> Frame {
    if lines.is_empty() {
        Frame::NeedMore
    } else {
        Frame::Complete
    }
}

fn soon(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms)
}

/// Whether any live (not zombie) process belongs to process group `pgid`. A killed grandchild
/// is reparented to PID 1, which may not reap it; a zombie is dead all the same.
fn group_alive(pgid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.filter_map(Result::ok).any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // pid (comm) state ppid pgrp ...: split after the last ')' since comm may hold spaces.
        let Some(after) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            return false;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string()
    })
}

#[test]
fn echo_bot_answers_each_prompt() {
    common::in_own_process("process::echo_bot_answers_each_prompt", || {
        let mut child = sh("while read line; do echo \"got $line\"; done");
        for i in 0..3 {
            child.send(format!("{i}\n").as_bytes()).unwrap();
            let reply = child.read_reply(soon(2000), one_line).unwrap();
            assert_eq!(reply.lines, vec![format!("got {i}")]);
        }
        let ended = child.finish();
        assert!(
            !ended.killed,
            "it exits by itself once its input closes: {ended:?}"
        );
        assert!(ended.status.is_some_and(|s| s.success()));
    });
}

#[test]
fn a_silent_bot_hits_the_deadline_and_is_killed() {
    common::in_own_process(
        "process::a_silent_bot_hits_the_deadline_and_is_killed",
        || {
            let mut child = sh("sleep 30");
            let pgid = child.id();
            let started = Instant::now();
            assert!(matches!(
                child.read_reply(soon(200), one_line),
                Err(ReadFailure::Deadline(_))
            ));
            let ended = child.finish();
            assert!(ended.killed);
            assert!(started.elapsed() < Duration::from_secs(5));
            assert!(!group_alive(pgid));
        },
    );
}

#[test]
fn an_endless_line_is_cut_at_the_cap() {
    common::in_own_process("process::an_endless_line_is_cut_at_the_cap", || {
        let mut child = Child::spawn(
            &[
                "sh".into(),
                "-c".into(),
                "while :; do printf xxxxxxxxxxxxxxxx; done".into(),
            ],
            Limits {
                max_line_bytes: 1000,
                ..Limits::default()
            },
        )
        .unwrap();
        assert_eq!(
            child.read_reply(soon(5000), one_line),
            Err(ReadFailure::LineTooLong(1000))
        );
        assert!(child.finish().killed);
    });
}

#[test]
fn a_flood_of_lines_exceeds_the_reply_cap() {
    common::in_own_process("process::a_flood_of_lines_exceeds_the_reply_cap", || {
        let mut child = Child::spawn(
            &["sh".into(), "-c".into(), "yes".into()],
            Limits {
                max_reply_bytes: 10_000,
                ..Limits::default()
            },
        )
        .unwrap();
        let never_complete = |_: &[&str]| Frame::NeedMore;
        assert_eq!(
            child.read_reply(soon(5000), never_complete),
            Err(ReadFailure::ReplyTooLong(10_000))
        );
        child.finish();
    });
}

#[test]
fn a_bot_that_exits_gives_eof() {
    common::in_own_process("process::a_bot_that_exits_gives_eof", || {
        let mut child = sh("exit 3");
        assert_eq!(
            child.read_reply(soon(2000), one_line),
            Err(ReadFailure::Eof)
        );
        let ended = child.finish();
        assert_eq!(ended.status.and_then(|s| s.code()), Some(3));
    });
}

#[test]
fn binary_output_is_not_text() {
    common::in_own_process("process::binary_output_is_not_text", || {
        let mut child = sh("printf '\\377\\376\\n'");
        assert_eq!(
            child.read_reply(soon(2000), one_line),
            Err(ReadFailure::NotText)
        );
    });
}

#[test]
fn stderr_is_kept_as_a_bounded_tail() {
    common::in_own_process("process::stderr_is_kept_as_a_bounded_tail", || {
        let mut child = Child::spawn(
            &[
                "sh".into(),
                "-c".into(),
                "i=0; while [ $i -lt 2000 ]; do echo \"line $i\" >&2; i=$((i+1)); done; echo done"
                    .into(),
            ],
            Limits {
                stderr_tail_bytes: 100,
                ..Limits::default()
            },
        )
        .unwrap();
        assert_eq!(
            child.read_reply(soon(5000), one_line).unwrap().lines,
            vec!["done"]
        );
        child.finish();
        let tail = child.stderr_tail();
        assert!(tail.len() <= 100, "{}", tail.len());
        assert!(tail.ends_with("line 1999\n"), "{tail:?}");
    });
}

#[test]
fn a_bot_that_never_reads_does_not_block_the_harness() {
    common::in_own_process(
        "process::a_bot_that_never_reads_does_not_block_the_harness",
        || {
            let mut child = sh("sleep 30");
            let prompt = vec![b'0'; 64 * 1024];
            let started = Instant::now();
            let mut refused = None;
            for _ in 0..1000 {
                if let Err(e) = child.send(&prompt) {
                    refused = Some(e);
                    break;
                }
            }
            assert_eq!(refused, Some(SendFailure::NotReading));
            assert!(started.elapsed() < Duration::from_secs(5));
            child.finish();
        },
    );
}

#[test]
fn a_background_child_holding_stdout_is_detected_and_killed() {
    common::in_own_process(
        "process::a_background_child_holding_stdout_is_detected_and_killed",
        || {
            let mut child = sh("sleep 30 & echo started");
            let pgid = child.id();
            assert_eq!(
                child.read_reply(soon(2000), one_line).unwrap().lines,
                vec!["started"]
            );
            let ended = child.finish();
            assert!(ended.pipe_held_by_descendant, "{ended:?}");
            std::thread::sleep(Duration::from_millis(100));
            assert!(!group_alive(pgid), "the background sleep is gone");
        },
    );
}

#[test]
fn crlf_is_kept_for_strict_grammars() {
    common::in_own_process("process::crlf_is_kept_for_strict_grammars", || {
        let mut child = sh("printf '2 0\\r\\n'");
        assert_eq!(
            child.read_reply(soon(2000), one_line).unwrap().lines,
            vec!["2 0\r"]
        );
    });
}

#[test]
fn extra_lines_after_a_reply_are_counted() {
    common::in_own_process("process::extra_lines_after_a_reply_are_counted", || {
        let mut child = sh("echo a; echo b; echo c; sleep 30");
        assert_eq!(
            child.read_reply(soon(2000), one_line).unwrap().lines,
            vec!["a"]
        );
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(child.unsolicited_lines(), 2);
    });
}

#[test]
fn a_missing_program_is_a_spawn_error() {
    common::in_own_process("process::a_missing_program_is_a_spawn_error", || {
        assert!(Child::spawn(&["/no/such/program".into()], Limits::default()).is_err());
    });
}

/// Threads that keep CPUs busy until dropped, also when an assertion of the test panics. A
/// thread runs on the CPUs of the thread that made it.
struct Busy {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Busy {
    fn spin(threads: usize) -> Busy {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..threads)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        Busy { stop, threads }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// A program that needs some CPU to exit after its input ends is not "a program that does not
/// exit" on a busy machine: the grace period counts the time it could run, not the time it
/// waited for a CPU. Four threads spin on the CPU the program runs on, so it gets a fifth of it
/// at most: its ~60 ms of work (Python's start-up, then 40 ms of its own CPU time) take 300 ms
/// of wall time or more, past a grace period of 200 ms counted on the wall clock.
#[test]
fn on_a_busy_machine_the_exit_grace_counts_only_the_time_the_program_could_run() {
    use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
    use nix::unistd::Pid;

    common::in_own_process(
        "process::on_a_busy_machine_the_exit_grace_counts_only_the_time_the_program_could_run",
        || {
            let all = sched_getaffinity(Pid::from_raw(0)).unwrap();
            let mut one = CpuSet::new();
            let cpu = (0..CpuSet::count()).find(|&c| all.is_set(c).unwrap_or(false));
            one.set(cpu.unwrap()).unwrap();
            // The threads and the program started from here run on that one CPU.
            sched_setaffinity(Pid::from_raw(0), &one).unwrap();
            let busy = Busy::spin(4);
            let burn = "import sys, time\nsys.stdin.read()\nend = time.process_time() + 0.04\n\
                        while time.process_time() < end: pass\n";
            let mut child = Child::spawn(
                &[common::python3().into(), "-c".into(), burn.into()],
                Limits::default(),
            )
            .unwrap();
            let started = Instant::now();
            let ended = child.finish();
            let took = started.elapsed();
            drop(busy);
            assert!(!ended.killed, "killed after {took:?}: {ended:?}");
            assert_eq!(ended.status.and_then(|s| s.code()), Some(0));
            assert!(
                took > Limits::default().grace,
                "the busy threads did not slow the program past the grace period ({took:?}): \
                 the test shows nothing"
            );
        },
    );
}

/// What a program writes to stderr just before it exits is in the tail once it has ended,
/// however late the thread that reads stderr is scheduled (a bot's `double free detected`
/// was once missing from its verdict under load). Many programs in a row, with threads
/// keeping the CPUs busy, so that a race would show.
#[test]
fn the_last_words_on_stderr_are_in_the_tail_once_the_program_has_ended() {
    common::in_own_process(
        "process::the_last_words_on_stderr_are_in_the_tail_once_the_program_has_ended",
        || {
            let _busy = Busy::spin(4);
            for i in 0..100 {
                let mut child = sh(&format!("echo last words {i} >&2; exit 3"));
                let ended = child.finish();
                assert_eq!(ended.status.and_then(|s| s.code()), Some(3));
                let tail = child.stderr_tail();
                assert!(
                    tail.contains(&format!("last words {i}")),
                    "run {i}: {tail:?}"
                );
            }
        },
    );
}

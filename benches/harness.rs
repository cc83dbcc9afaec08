//! Harness overhead per turn: from a prompt handed to [`Child::send`] to its reply framed by
//! [`Child::read_reply`], against `cat` (a bot that answers instantly), next to the floor: the
//! same round trip through `cat` with plain blocking pipe reads and writes. And the cost of
//! `shinpan tap` between an engine and its bot: the same plain round trip through
//! `shinpan tap --log FILE -- cat`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use shinpan::harness::process::{Child, Limits};
use shinpan::seam::Frame;

/// One line the size of a CODE VS Reborn turn block (about 700 bytes).
fn prompt() -> Vec<u8> {
    let mut line = vec![b'0'; 700];
    line.push(b'\n');
    line
}

fn harness_round_trip(c: &mut Criterion) {
    let prompt = prompt();
    let mut child = Child::spawn(&["cat".into()], Limits::default()).expect("cat starts");
    let one_line = |lines: &[&str]| match lines {
        [] => Frame::NeedMore,
        _ => Frame::Complete,
    };
    c.bench_function("harness/round-trip-700-bytes", |b| {
        b.iter(|| {
            child.send(&prompt).expect("cat reads");
            let deadline = Instant::now() + Duration::from_secs(5);
            child.read_reply(deadline, one_line).expect("cat echoes")
        })
    });
    child.finish();

    let mut cat = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat starts");
    let mut stdin = cat.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(cat.stdout.take().expect("stdout"));
    let mut line = String::new();
    c.bench_function("floor/plain-pipe-round-trip-700-bytes", |b| {
        b.iter(|| {
            stdin.write_all(&prompt).expect("write");
            stdin.flush().expect("flush");
            line.clear();
            stdout.read_line(&mut line).expect("read")
        })
    });
    drop(stdin);
    let _ = cat.wait();

    let log = tempfile::NamedTempFile::new().expect("a temporary log");
    let mut tapped = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["tap", "--log"])
        .arg(log.path())
        .args(["--", "cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("shinpan tap starts");
    let mut stdin = tapped.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(tapped.stdout.take().expect("stdout"));
    c.bench_function("tap/plain-pipe-round-trip-700-bytes", |b| {
        b.iter(|| {
            stdin.write_all(&prompt).expect("write");
            stdin.flush().expect("flush");
            line.clear();
            stdout.read_line(&mut line).expect("read")
        })
    });
    drop(stdin);
    let _ = tapped.wait();
}

criterion_group!(benches, harness_round_trip);
criterion_main!(benches);

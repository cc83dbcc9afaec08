//! Reading a match log of many matches (issue 40, item 7: 0.9 s for 2,531 matches and 11 s for
//! 10,099, quadratic in the matches, was measured before the fix).
//!
//! - `log/read-matches/<N>`: every match of a `play --rounds N --log` log, as
//!   `play --format html` reads it ([`read_matches`]).
//! - `log/read-last-match/<N>`: the last match of it alone, as `trace --match` reads it
//!   ([`read_match`]).
//!
//! The log is made up here, in the shape `play --log` writes (a `start`, then per step a prompt
//! and a reply to each of two players, then an `end`, every record with its `match`): a short
//! match of four steps, so that what grows is the number of matches, not their length. Its
//! reading alone is timed; throughput in matches.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shinpan::harness::log::{read_match, read_matches};

/// The sizes timed: about the two logs.
const MATCHES: [usize; 2] = [2_500, 10_000];

/// Steps of each made-up match.
const STEPS: usize = 4;

/// A `play --log` log of `matches` matches of [`STEPS`] steps between two players.
fn log_of(matches: usize) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    let mut text = String::new();
    let mut t_us = 1_000_000u64;
    for m in 0..matches {
        text.push_str(&format!(
            "{{\"event\":\"start\",\"game\":\"tsg-auto-chess\",\"match\":{m},\"options\":{{}},\
             \"seed\":{},\"trace\":1}}\n",
            m + 1
        ));
        for step in 0..STEPS {
            for player in 0..2 {
                t_us += 10;
                text.push_str(&format!(
                    "{{\"event\":\"prompt\",\"match\":{m},\"player\":{player},\"step\":{step},\
                     \"t_us\":{t_us},\"text\":\"{step}\\n180000\\n1 1\\n5 5\\n\"}}\n"
                ));
                t_us += 10;
                text.push_str(&format!(
                    "{{\"event\":\"reply\",\"match\":{m},\"player\":{player},\"step\":{step},\
                     \"t_us\":{t_us},\"text\":\"buy 2 6 2\\n0\\n\"}}\n"
                ));
            }
        }
        text.push_str(&format!(
            "{{\"event\":\"end\",\"match\":{m},\"outcome\":{{\"winner\":1}},\"steps\":{STEPS},\
             \"t_us\":{t_us}}}\n"
        ));
    }
    file.write_all(text.as_bytes()).expect("the log is written");
    file
}

fn reading(c: &mut Criterion) {
    let mut group = c.benchmark_group("log");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    for matches in MATCHES {
        let log = log_of(matches);
        let paths: Vec<PathBuf> = vec![log.path().to_path_buf()];
        let read = read_matches(&paths).expect("the log reads");
        assert_eq!(read.len(), matches, "every match is read");
        assert!(read.iter().all(|m| m.players[&0].exchanges.len() == STEPS));
        group.throughput(Throughput::Elements(matches as u64));
        group.bench_with_input(
            BenchmarkId::new("read-matches", matches),
            &paths,
            |b, paths| b.iter(|| read_matches(paths).expect("the log reads").len()),
        );
        let last = matches as u64 - 1;
        group.bench_with_input(
            BenchmarkId::new("read-last-match", matches),
            &paths,
            |b, paths| {
                b.iter(|| {
                    let read = read_match(paths, Some(last)).expect("the log reads");
                    assert_eq!(read.read, Some(last));
                    read.players.len()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, reading);
criterion_main!(benches);

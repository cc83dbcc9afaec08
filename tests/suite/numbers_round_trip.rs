//! D-spring-13: a number shinpan writes and reads back comes back to the same bits, through
//! each place it does so: a case file loaded (the YAML reader, the game's canonical state and
//! the compact text a loaded case keeps), a trace log written and read, a `diff --out` case
//! file written and loaded, and the adapter protocol both ways. Every path goes through the
//! functions shinpan itself uses.
//!
//! Found on a Spring Challenge 2022 speed: 159.53450330769383 came back as ...385, because
//! serde_json's default float parser can miss the last bit (its `float_roundtrip` feature does
//! not); and a speed of -0.0 came back as 0, because the state wrote it as the integer 0.

use std::path::Path;

use proptest::prelude::*;
use serde_json::{json, Value};

use shinpan::case::{load_library, CaseBody, LoadOptions, Source};
use shinpan::games;
use shinpan::harness::adapter::{read_response, request_line};
use shinpan::harness::diff::{case_file, Departure, Finding, Input, Part, Size};
use shinpan::harness::log::{read_record, record_line};

use crate::common;

const RULES: &str = include_str!("../../cases/spring2022/rules.yaml");

/// Any finite double: random bits (every exponent, subnormals, both zeros), proptest's own
/// doubles, and the values this was found on.
fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        any::<f64>(),
        prop::sample::select(vec![
            -0.0,
            0.0,
            159.53450330769383,
            104.99999999999909,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            -f64::MAX,
            9e15,
            1e300,
        ]),
    ]
    .prop_filter("finite", |v| v.is_finite())
}

/// A finite double a Spring state takes as a mob's speed component (at most 100000 either way).
fn speed() -> impl Strategy<Value = f64> {
    finite().prop_filter("a speed", |v| v.abs() <= 1e5)
}

fn same_bits(what: &str, got: Option<f64>, want: f64) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        got.map(f64::to_bits),
        Some(want.to_bits()),
        "{}: wrote {:?}, read {:?}",
        what,
        want,
        got
    );
    Ok(())
}

/// Loads the one Spring case file `text` from a library in `root`: its `given` and `then`.
fn load_spring_case(root: &Path, text: &str) -> (Value, Value) {
    let dir = root.join("spring2022");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rules.yaml"), RULES).unwrap();
    std::fs::write(dir.join("numbers.yaml"), text).unwrap();
    let library = load_library(
        &Source::Dir(root.to_path_buf()),
        &games::all(),
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let case = &library.games[0].cases[0];
    match &case.body {
        CaseBody::Step { given, then, .. } => (given.value(), then.value()),
        other => panic!("a step case: {other:?}"),
    }
}

fn mob_vx(value: &Value) -> Option<f64> {
    value["mobs"][0]["vx"].as_f64()
}

proptest! {
    #![proptest_config(common::proptest_cases(256))]

    #[test]
    fn a_case_file_reads_back_every_number(s in speed(), v in finite()) {
        let root = tempfile::tempdir().unwrap();
        // As a person writes it: the shortest decimal that reads back (Rust's `{:?}`).
        let text = format!(
            "game: spring2022\ncases:\n  - id: speed\n    rules: [mob.move]\n    given:\n      \
             mobs:\n        - {{id: 6, x: 9000, y: 8088, vx: {s:?}, vy: 0}}\n    when:\n      \
             - [\"WAIT\\nWAIT\\nWAIT\", \"WAIT\\nWAIT\\nWAIT\"]\n    then:\n      mobs:\n        \
             - {{id: 6, vx: {v:?}}}\n"
        );
        let (given, then) = load_spring_case(root.path(), &text);
        same_bits("given", mob_vx(&given), s)?;
        same_bits("then", mob_vx(&then), v)?;
    }

    #[test]
    fn a_trace_log_reads_back_every_number(v in finite()) {
        let records = [
            json!({"trace": 1, "event": "start", "game": "spring2022",
                   "options": {"speed": v}, "t_us": 0}),
            json!({"event": "end", "outcome": {"scores": [v, -v]}}),
        ];
        let text: String = records.iter().map(record_line).collect();
        let read: Vec<Value> = text.lines().map(|l| read_record(l).unwrap()).collect();
        same_bits("options", read[0]["options"]["speed"].as_f64(), v)?;
        same_bits("outcome", read[1]["outcome"]["scores"][0].as_f64(), v)?;
        same_bits("outcome", read[1]["outcome"]["scores"][1].as_f64(), -v)?;
    }

    #[test]
    fn a_diff_out_case_file_loads_back_every_number(s in speed(), v in finite()) {
        let game = games::all().into_iter().find(|g| g.info().id == "spring2022").unwrap();
        let state = shinpan::seam::load_state(game, &json!({"mobs": [{"id": 6, "vx": s}]})).unwrap();
        let reply = shinpan::seam::Reply::text("WAIT\nWAIT\nWAIT".to_string());
        let shrunk = Input { state, turns: vec![vec![reply.clone(), reply]] };
        let part = Part {
            name: "unexplained, fields mobs[].vx".into(),
            variant: None,
            clauses: Vec::new(),
            does: None,
            fields: vec!["mobs[].vx".into()],
            ties: Vec::new(),
            leads: Vec::new(),
        };
        let departure = Departure {
            parts: vec![part.clone()],
            fields: vec!["mobs[].vx".into()],
            unexplained: vec!["mobs[].vx".into()],
        };
        let finding = Finding {
            run: 0,
            part,
            original_departure: departure.clone(),
            departure,
            concerns: Vec::new(),
            original: shrunk.clone(),
            original_difference: String::new(),
            shrunk,
            shrink_steps: 0,
            shrink_requests: 0,
            minimal: true,
            size_before: Size::default(),
            size_after: Size::default(),
            difference: String::new(),
            reference: Value::Null,
            engine: None,
            group_fields: Vec::new(),
            expectation: json!({"mobs": [{"id": 6, "vx": v}]}),
        };
        let text = case_file(game, &finding, "adapter", 1);
        let root = tempfile::tempdir().unwrap();
        let (given, then) = load_spring_case(root.path(), &text);
        same_bits("given", mob_vx(&given), s)?;
        same_bits("then", mob_vx(&then), v)?;
    }

    #[test]
    fn the_adapter_protocol_carries_every_number_both_ways(v in finite()) {
        // shinpan to the adapter: the request line, read as any JSON reader with exact
        // parsing reads it (Rust's own `str::parse` of the number's text).
        let line = request_line(&json!({"kind": "step", "state": {"mobs": [{"vx": v}]}}));
        let text = line.split("\"vx\":").nth(1).unwrap().split('}').next().unwrap();
        same_bits("request", text.parse::<f64>().ok(), v)?;
        // The adapter to shinpan: the shortest decimal of the double, as adapters in most
        // languages write it, read by shinpan.
        let answer = format!("{{\"id\": \"step\", \"state\": {{\"mobs\": [{{\"vx\": {v:?}}}]}}}}");
        let read = read_response(&answer).unwrap();
        same_bits("response", mob_vx(&read["state"]), v)?;
        // And its own request echoed back.
        let echoed = read_response(line.trim_end()).unwrap();
        same_bits("echo", mob_vx(&echoed["state"]), v)?;
    }
}

/// The speed this was found on, through a whole case run: the case
/// `spring2022/mobs/the-last-bit-of-a-speed-decides-a-rounding-tie` depends on it too.
#[test]
fn the_speed_it_was_found_on_reads_back() {
    let read = read_response("{\"vx\": 159.53450330769383}").unwrap();
    assert_eq!(read["vx"].as_f64(), Some(159.53450330769383));
}

//! Issue 25, item 3: `check --jobs N` runs the cases on N workers, each with its own engine (an
//! adapter started N times), and the report is the one `--jobs 1` gives, byte for byte, in
//! library order. Each worker takes a fixed share of the cases, dealt before the run (cases of
//! equal weight in turn: worker `w` the cases `w`, `w + N`, …), so an engine whose answers depend on what it was asked before, or that gives
//! up, gives the same report from run to run.

use serde_json::Value;
use shinpan::case::{load_library, Library, LoadOptions, Source};
use shinpan::games;
use shinpan::run::{
    run_library_jobs, Answered, EngineUnderTest, NewMatchRequest, ParseRequest, Reference,
    StepRequest, StepResponse,
};
use shinpan::seam::ParseVerdict;

const PYTHON_ADAPTER: &str = "conformance/adapters/codevs_reborn.py";

/// `check` with `args`: its exit code and stdout.
fn check(args: &[&str]) -> (Option<i32>, String) {
    let out = crate::common::shinpan_within(600)
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("the report is UTF-8"),
    )
}

/// Four games' whole libraries, their generator cases (weighed by their seeds in the deal)
/// included. CEDEC 2013's is left to the shard test below: its map generator cases, 3,200 new
/// maps each written and read back as JSON, are three quarters of the whole library's time in a
/// debug build.
const FOUR_GAMES: [&str; 4] = ["codevs4", "codevs-reborn", "spring2022", "tsg-auto-chess"];

#[test]
fn four_whole_libraries_on_two_workers_report_what_one_worker_does_byte_for_byte() {
    let run =
        |jobs: &str| check(&[&FOUR_GAMES[..], &["--format", "json", "--jobs", jobs]].concat());
    let (one_code, one) = run("1");
    let (two_code, two) = run("2");
    assert_eq!(one_code, Some(0), "{one}");
    assert_eq!(two_code, Some(0), "{two}");
    assert!(crate::common::case_names(&one).len() > 100, "{one}");
    assert!(one == two, "--jobs 2 gave another report than --jobs 1");
}

#[test]
fn the_python_adapter_started_twice_or_thrice_reports_what_it_does_alone() {
    // A planted bug, so that the report has failures and their departures as well as passes.
    let engine = format!(
        "{} {PYTHON_ADAPTER} --bug ojama-cap-11",
        crate::common::python3()
    );
    let run = |jobs: &str| {
        check(&[
            "codevs-reborn",
            "--format",
            "json",
            "--engine",
            &engine,
            "--jobs",
            jobs,
        ])
    };
    let (code, one) = run("1");
    assert_eq!(code, Some(1), "the planted bug fails cases: {one}");
    assert!(one.contains("\"departure\""), "{one}");
    for jobs in ["2", "3"] {
        let (code, many) = run(jobs);
        assert_eq!(code, Some(1), "{many}");
        assert!(
            one == many,
            "--jobs {jobs} gave another report than --jobs 1"
        );
    }
}

/// `--partition` picks the shard's cases first; the shard then runs on the workers. The human
/// report too is the same whatever the workers.
#[test]
fn a_shard_on_two_workers_reports_what_it_does_on_one() {
    let shard = |format: &str, jobs: &str| {
        // One of the nine shards: a map generator case or two among the others.
        let args = ["cedec2013", "--partition", "count:2/9", "--format", format];
        check(&[&args[..], &["--jobs", jobs]].concat())
    };
    let (code, one) = shard("json", "1");
    assert_eq!(code, Some(0), "{one}");
    let report: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(report["partition"], "count:2/9");
    assert!(!crate::common::case_names(&one).is_empty());
    assert_eq!(shard("json", "2"), (Some(0), one));
    assert_eq!(shard("human", "2"), shard("human", "1"));
}

#[test]
fn no_jobs_is_a_usage_error() {
    let out = crate::common::shinpan()
        .args(["check", "codevs-reborn", "--jobs", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--jobs") && stderr.contains("at least 1"),
        "{stderr}"
    );
}

/// Issue 40, item 13: an adapter that fails every request gave 5, 5, 9 and 13 errors at
/// `--jobs 1`, 2, 3 and 4: each worker counted its own adapter's failures. They are counted over
/// the cases in library order now, whichever worker asked: the run stops after the fifth case
/// (one request each), with the same report whatever N.
#[test]
fn an_adapter_that_fails_every_request_is_given_up_on_after_the_same_cases_whatever_the_jobs() {
    let tag = format!("shinpan-test-jobs-exit-{}", std::process::id());
    let engine = format!("python3 tests/fixtures/adapters/misbehave.py exit {tag}");
    let (_, all) = check(&["codevs-reborn", "--format", "json", "--filter", "chains/"]);
    let mut reports = Vec::new();
    for jobs in ["1", "2", "3", "4"] {
        let args = [
            "codevs-reborn",
            "--format",
            "json",
            "--filter",
            "chains/",
            "--engine",
            &engine,
            "--jobs",
            jobs,
        ];
        let (code, report) = check(&args);
        assert_eq!(code, Some(1), "--jobs {jobs}: {report}");
        assert_eq!(
            crate::common::case_names(&report),
            crate::common::case_names(&all)[..5],
            "--jobs {jobs}: {report}"
        );
        let parsed: Value = serde_json::from_str(&report).unwrap();
        let stopped = parsed["stopped"].as_str().unwrap();
        assert_eq!(
            stopped,
            "stopped after 5 of 11 cases: the engine failed 5 requests in a row the same way \
             (no response); the remaining cases were not run",
            "--jobs {jobs}"
        );
        reports.push(report);
    }
    assert!(
        reports.iter().all(|r| r == &reports[0]),
        "the same report whatever the jobs"
    );
}

/// Issue 40, item 12: `check --jobs 64` on a loaded machine exited 2 when one adapter of the 64
/// missed the 10 s start limit. Here the first start of three (`slow_start.py`) sleeps past a
/// start limit of 2 s: it is tried again, and the run is the one `--jobs 1` gives. When its
/// second try (the fourth start) is slow too, the run goes on with two workers, and says so.
#[test]
fn an_adapter_slow_to_start_is_tried_again_or_the_run_goes_on_with_fewer() {
    // `slow` lists the starts that sleep; `0`, none.
    let run = |slow: &str, jobs: &str| {
        let tickets = tempfile::tempdir().unwrap();
        let engine = format!(
            "{} tests/fixtures/adapters/slow_start.py {} {slow}",
            crate::common::python3(),
            tickets.path().join("start").display()
        );
        let output = crate::common::shinpan_within(600)
            .args([
                "check",
                "codevs-reborn",
                "--format",
                "json",
                "--filter",
                "chains/",
            ])
            .args(["--engine", &engine, "--jobs", jobs, "--start-timeout", "2"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(0), "{slow}: {stdout}{stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        (report, stderr)
    };
    let (alone, _) = run("0", "1");
    for (slow, said) in [
        (
            "1",
            "1 of the 3 engines did not start at the first try, and did at the second",
        ),
        (
            "1,4",
            "1 of the 3 engines could not be started, twice: the run goes on with 2 workers",
        ),
    ] {
        let (report, stderr) = run(slow, "3");
        assert!(stderr.contains(said), "{slow}: {stderr}");
        assert_eq!(report["results"], alone["results"], "{slow}");
        assert_eq!(report["counts"], alone["counts"], "{slow}");
    }
}

/// The chain cases of codevs-reborn: eleven step cases, one request each.
fn chains() -> Library {
    let options = LoadOptions {
        only: vec!["codevs-reborn".into()],
        ..LoadOptions::default()
    };
    let mut library = load_library(&Source::Embedded, &games::all(), &options).unwrap();
    for game in &mut library.games {
        game.cases.retain(|c| c.name.contains("chains/"));
    }
    library
}

/// The reference engine, except that it answers every other request it gets `unsupported`
/// (its 2nd, 4th, …) and, past `give_up_after` requests, gives up: an engine whose answers
/// depend on what it was asked before.
#[derive(Default)]
struct Moody {
    asked: usize,
    give_up_after: Option<usize>,
    panic_on_giving_up: bool,
}

impl Moody {
    fn boxed(n: usize, give_up_after: Option<usize>) -> Vec<Box<dyn EngineUnderTest + Send>> {
        (0..n)
            .map(|_| {
                Box::new(Moody {
                    give_up_after,
                    ..Moody::default()
                }) as Box<dyn EngineUnderTest + Send>
            })
            .collect()
    }

    fn answer<T>(&mut self, reference: impl FnOnce() -> Answered<T>) -> Answered<T> {
        self.asked += 1;
        if self.asked.is_multiple_of(2) {
            return Answered::Unsupported("every other request".into());
        }
        reference()
    }
}

impl EngineUnderTest for Moody {
    fn name(&self) -> String {
        "moody".into()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        self.answer(|| Reference.step(request))
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        self.answer(|| Reference.parse(request))
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        self.answer(|| Reference.new_match(request))
    }

    fn gave_up(&self) -> Option<String> {
        let limit = self.give_up_after?;
        if self.asked < limit {
            return None;
        }
        assert!(!self.panic_on_giving_up, "the engine's own bug");
        Some(format!("asked {limit} times"))
    }
}

/// The verdict names of `engines` running `library`, with the `done` counts progress saw.
fn verdicts(
    library: &Library,
    engines: &mut [Box<dyn EngineUnderTest + Send>],
) -> (Vec<String>, Vec<usize>, Option<String>) {
    let mut done = Vec::new();
    let run = run_library_jobs(library, None, engines, |_, d, _| done.push(d), || None);
    let verdicts = run
        .results
        .iter()
        .map(|r| r.verdict.name().into())
        .collect();
    (verdicts, done, run.stopped)
}

/// Case `i` is the `i / N`-th request of worker `i % N`'s engine, whatever the timing: with
/// one engine the odd cases are unsupported, with two the cases 2, 3, 6, 7, 10.
#[test]
fn each_worker_asks_its_engine_a_fixed_share_of_the_cases_in_library_order() {
    let library = chains();
    let (one, done, _) = verdicts(&library, &mut Moody::boxed(1, None));
    assert_eq!(one.len(), 11);
    assert_eq!(done, (1..=11).collect::<Vec<_>>());
    for (i, verdict) in one.iter().enumerate() {
        assert_eq!(verdict == "unsupported", i % 2 == 1, "case {i}: {one:?}");
    }
    let (two, done, _) = verdicts(&library, &mut Moody::boxed(2, None));
    assert_eq!(done, (1..=11).collect::<Vec<_>>());
    for (i, verdict) in two.iter().enumerate() {
        assert_eq!(
            verdict == "unsupported",
            (i / 2) % 2 == 1,
            "case {i}: {two:?}"
        );
    }
}

/// Each of two engines gives up after its third request: worker 0's third case is case 4, so
/// the run has the cases 0 to 4; worker 1's case 5, if it ran, is left out.
#[test]
fn an_engine_that_gives_up_ends_the_run_after_its_case_and_before_no_other() {
    let (verdicts, done, stopped) = verdicts(&chains(), &mut Moody::boxed(2, Some(3)));
    assert_eq!(verdicts.len(), 5, "{verdicts:?}");
    assert_eq!(
        stopped.as_deref(),
        Some("stopped after 5 of 11 cases: asked 3 times")
    );
    assert!(done.len() == 5 || done.len() == 6, "{done:?}");
    assert_eq!(done, (1..=done.len()).collect::<Vec<_>>());
}

/// A worker's own panic (here in `gave_up`, outside the requests whose panics become errors)
/// stops the other workers and reaches the caller, with its message.
#[test]
fn a_worker_that_panics_stops_the_run_and_the_panic_reaches_the_caller() {
    let library = chains();
    let mut engines = Moody::boxed(1, None);
    engines.push(Box::new(Moody {
        give_up_after: Some(2),
        panic_on_giving_up: true,
        ..Moody::default()
    }));
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_library_jobs(&library, None, &mut engines, |_, _, _| {}, || None)
    }));
    let panic = panicked.expect_err("the worker's panic reaches the caller");
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    assert_eq!(message, "the engine's own bug");
}

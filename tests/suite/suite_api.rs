//! The library API for engine authors, used as an author would, through the public API only:
//! an in-process engine (here the reference with one planted bug) run on the case library
//! fails exactly the cases about its bug, and `expect_fail` turns them into expected failures.

use std::collections::BTreeSet;

use serde_json::Value;
use shinpan::case::{load_library, CaseBody, Expected, LoadOptions, Source};
use shinpan::games;
use shinpan::run::{
    Answered, EngineUnderTest, NewMatchRequest, ParseRequest, Reference, StepRequest, StepResponse,
};
use shinpan::seam::ParseVerdict;
use shinpan::Suite;

/// The reference engine, except that its AI-name parser takes any text. `Clone`, so that
/// [`Suite::jobs`] can run a copy on each worker.
#[derive(Clone)]
struct TrustsEveryName;

impl EngineUnderTest for TrustsEveryName {
    fn name(&self) -> String {
        "trusts-every-name".into()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        Reference.step(request)
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        if request.kind == "name" {
            return Answered::Done(ParseVerdict::Valid {
                printed: request.input.to_string(),
            });
        }
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

/// The cases the planted bug must fail: the `name` parse cases that do not expect `valid`.
fn cases_about_names() -> BTreeSet<String> {
    let library = load_library(
        &Source::Embedded,
        &games::all(),
        &LoadOptions {
            only: vec!["codevs-reborn".into()],
            ..LoadOptions::default()
        },
    )
    .unwrap();
    library.games[0]
        .cases
        .iter()
        .filter(|c| {
            matches!(&c.body, CaseBody::Parse { kind, expect, .. }
                if kind == "name" && *expect != Expected::Valid)
        })
        .map(|c| c.name.clone())
        .collect()
}

#[test]
fn a_planted_bug_fails_exactly_its_cases() {
    let results = Suite::new("codevs-reborn", TrustsEveryName)
        .results(None)
        .unwrap();
    let failing: BTreeSet<String> = results
        .iter()
        .filter(|r| r.verdict.name() != "pass")
        .map(|r| r.name.clone())
        .collect();
    let expected = cases_about_names();
    assert!(expected.len() >= 3, "{expected:?}");
    assert_eq!(failing, expected);
    assert!(results.len() > 100, "every case ran");
}

#[test]
fn expected_failures_pass_and_a_stale_one_fails() {
    let mut suite = Suite::new("codevs-reborn", TrustsEveryName);
    for name in cases_about_names() {
        suite = suite.expect_fail(&name, "trusts every name");
    }
    let results = suite
        .expect_fail(
            "codevs-reborn/chains/one-chain-scores-one",
            "not really broken",
        )
        .results(None)
        .unwrap();
    let by_verdict = |v: &str| results.iter().filter(|r| r.verdict.name() == v).count();
    assert_eq!(by_verdict("fail"), 0);
    assert_eq!(by_verdict("expected-fail"), cases_about_names().len());
    assert_eq!(
        by_verdict("fixed"),
        1,
        "a listed case that passes is reported"
    );
}

#[test]
fn an_unknown_game_is_a_load_error() {
    let error = Suite::new("tetris", Reference).results(None).unwrap_err();
    assert!(error.to_string().contains("no game `tetris`"), "{error}");
}

/// An engine that panics on the cases of one file.
struct PanicsOnChains;

impl EngineUnderTest for PanicsOnChains {
    fn name(&self) -> String {
        "panics-on-chains".into()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        if request.id.contains("/chains/") {
            panic!("index out of bounds in my chain code");
        }
        Reference.step(request)
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

/// Issue 22 (item 11): a panic in the engine under test aborted the whole run, naming no case.
/// Each such case is an error naming the panic, and every other case is still judged.
#[test]
fn a_panicking_engine_fails_its_cases_and_the_run_goes_on() {
    let results = Suite::new("codevs-reborn", PanicsOnChains)
        .results(None)
        .unwrap();
    let errors: Vec<_> = results
        .iter()
        .filter(|r| r.verdict.name() == "error")
        .collect();
    assert!(!errors.is_empty());
    for r in &errors {
        assert!(r.name.contains("/chains/"), "{}", r.name);
        assert!(
            r.verdict
                .detail()
                .contains("index out of bounds in my chain code"),
            "{}",
            r.verdict.detail()
        );
    }
    let passed = results
        .iter()
        .filter(|r| r.verdict.name() == "pass")
        .count();
    assert_eq!(
        passed + errors.len(),
        results.len(),
        "every other case passed"
    );
}

/// The example of README's "For engine authors" section, built by `cargo test` next to this
/// test's own binary.
fn example(name: &str) -> std::path::PathBuf {
    let deps = std::env::current_exe().unwrap();
    deps.parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name)
}

/// Issue 22 (item 15): README's example had drifted from the API. It is `examples/suite.rs`
/// now, word for word, which `cargo test` compiles.
#[test]
fn readme_shows_the_compiled_example() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example = std::fs::read_to_string(format!("{root}/examples/suite.rs")).unwrap();
    let code: Vec<&str> = example.lines().filter(|l| !l.starts_with("//!")).collect();
    let code = code.join("\n");
    let section = &readme[readme.find("## For engine authors").unwrap()..];
    let block = section
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .unwrap();
    assert_eq!(block.trim(), code.trim());
}

/// Issue 22 (item 11): under libtest, an unsupported case is ignored with its reason, even with
/// `--include-ignored`; the cases a filter leaves out are counted as filtered out; and README's
/// example passes on its own expected failures.
#[test]
fn the_example_suite_reports_unsupported_reasons_and_filtered_cases() {
    let run = |args: &[&str]| {
        let output = std::process::Command::new(example("suite"))
            .args(args)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    };
    let (code, out) = run(&["--include-ignored"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("ignored (no skill yet)"), "{out}");
    let summary = out.lines().find(|l| l.starts_with("test result")).unwrap();
    assert!(!summary.contains(" 0 ignored"), "{summary}");
    let (code, out) = run(&["skill"]);
    assert_eq!(code, Some(0), "{out}");
    let summary = out.lines().find(|l| l.starts_with("test result")).unwrap();
    assert!(!summary.contains(" 0 filtered out"), "{summary}");
}

/// `Suite::jobs(2)`: the same results, in the same order, as one engine gives.
#[test]
fn a_suite_on_two_workers_gives_what_one_gives() {
    let run = |jobs: usize| {
        Suite::new("codevs-reborn", TrustsEveryName)
            .jobs(jobs)
            .results(None)
            .unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert!(
        one.iter().any(|r| r.verdict.name() == "fail"),
        "the bug shows"
    );
    let json = |results: &[shinpan::run::CaseResult]| serde_json::to_value(results).unwrap();
    assert_eq!(json(&two), json(&one));
}

/// An engine that gives up after its first case.
#[derive(Clone, Default)]
struct GivesUpAtOnce {
    asked: usize,
}

impl EngineUnderTest for GivesUpAtOnce {
    fn name(&self) -> String {
        "gives-up-at-once".into()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        self.asked += 1;
        Reference.step(request)
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        self.asked += 1;
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        self.asked += 1;
        Reference.new_match(request)
    }

    fn gave_up(&self) -> Option<String> {
        (self.asked > 0).then(|| "the engine went away".to_string())
    }
}

/// On several workers, a run stops when an engine gives up; the cases it did not reach are
/// errors saying why, never trials that pass unjudged.
#[test]
fn a_case_a_worker_did_not_reach_is_an_error_not_a_pass() {
    let all = Suite::new("codevs-reborn", Reference)
        .results(None)
        .unwrap();
    let results = Suite::new("codevs-reborn", GivesUpAtOnce::default())
        .jobs(2)
        .results(None)
        .unwrap();
    assert_eq!(results.len(), all.len(), "every case has a result");
    let unrun: Vec<_> = results
        .iter()
        .filter(|r| r.verdict.detail().contains("not run: "))
        .collect();
    assert!(unrun.len() >= all.len() - 2, "{} not run", unrun.len());
    assert!(unrun
        .iter()
        .all(|r| r.verdict.name() == "error" && r.verdict.detail().contains("went away")));
}

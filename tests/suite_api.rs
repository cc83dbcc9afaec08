//! The library API for engine authors, used as an author would, through the public API only:
//! an in-process engine (here the reference with one planted bug) run on the case library
//! fails exactly the cases about its bug, and `expect_fail` turns them into expected failures.

use std::collections::BTreeSet;

use serde_json::Value;
use shinpan::case::{load_library, CaseBody, Expected, LoadOptions, Source};
use shinpan::game::ParseVerdict;
use shinpan::games;
use shinpan::run::{
    Answered, EngineUnderTest, NewMatchRequest, ParseRequest, Reference, StepRequest, StepResponse,
};
use shinpan::Suite;

/// The reference engine, except that its AI-name parser takes any text.
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

//! The case library in an engine author's own `cargo test` (README, "For engine authors"). This
//! file is README's example, word for word (a test keeps the two the same), and `cargo test`
//! builds and runs it, so the example cannot drift from the API.
//!
//! `MyEngine` stands for your simulator. Here it is shinpan's public reference engine with two
//! gaps an engine under construction might have: no skill yet, and a name parser that takes
//! any text.

use shinpan::run::{
    Answered, EngineUnderTest, NewMatchRequest, ParseRequest, Reference, StepRequest, StepResponse,
};
use shinpan::seam::{ParseVerdict, Reply};
use shinpan::serde_json::Value;

#[derive(Default)]
struct MyEngine;

impl EngineUnderTest for MyEngine {
    fn name(&self) -> String {
        "my-engine 0.1".into()
    }

    fn step(&mut self, request: StepRequest<'_>) -> Answered<StepResponse> {
        let skill = |reply: &Reply| matches!(reply, Reply::Text { text, .. } if text.trim() == "S");
        if request.turns.iter().flatten().any(skill) {
            return Answered::Unsupported("no skill yet".into());
        }
        Reference.step(request)
    }

    fn parse(&mut self, request: ParseRequest<'_>) -> Answered<ParseVerdict> {
        if request.kind == "name" {
            let printed = request.input.to_string();
            return Answered::Done(ParseVerdict::Valid { printed });
        }
        Reference.parse(request)
    }

    fn new_match(&mut self, request: NewMatchRequest<'_>) -> Answered<Value> {
        Reference.new_match(request)
    }
}

fn main() -> std::process::ExitCode {
    shinpan::Suite::new("codevs-reborn", MyEngine)
        .expect_fail(
            "codevs-reborn/protocol-name/*-is-invalid",
            "any name is taken",
        )
        .expect_fail(
            "codevs-reborn/protocol-name/*-is-non-strict",
            "any name is taken",
        )
        .run()
}

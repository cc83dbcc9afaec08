//! `cargo test --test conformance`: one trial per YAML case, named `<game>/<file>/<case-id>`, so
//! `cargo test -- three-chain` runs just the cases whose name contains `three-chain`. A failing
//! step case prints a unified diff of what it expected against the matching part of the result.

use std::path::Path;
use std::process::ExitCode;

use libtest_mimic::{Arguments, Failed, Trial};
use shinpan::case::load_library;
use shinpan::check::{run_case, Verdict};

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let trials = match load_library(&root, &[]) {
        Ok(library) => library
            .games
            .into_iter()
            .flat_map(|g| {
                g.cases.into_iter().map(move |case| {
                    let game = g.game;
                    Trial::test(case.name.clone(), move || match run_case(game, &case) {
                        Verdict::Pass => Ok(()),
                        Verdict::Fail(d)
                        | Verdict::Error(d)
                        | Verdict::Unsupported(d)
                        | Verdict::ExpectedFail(d)
                        | Verdict::Fixed(d) => Err(Failed::from(format!(
                            "{}:{}\n{d}",
                            case.path.display(),
                            case.line
                        ))),
                    })
                })
            })
            .collect(),
        // A broken library is one failing trial that says where, not a panic.
        Err(e) => vec![Trial::test("load-case-library", move || {
            Err(Failed::from(e.to_string()))
        })],
    };
    libtest_mimic::run(&args, trials).exit_code()
}

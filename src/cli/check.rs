//! `shinpan check`: runs the case library on an engine and prints the report. Beyond the call
//! into the library it owns what only a terminal needs (the progress counter), the known-failure
//! list (`--expect-fail`) and the comparison with an earlier report (`--baseline`).

use std::io::IsTerminal;

use shinpan::baseline::compare;
use shinpan::case::load_library;
use shinpan::expect_fail::ExpectFail;
use shinpan::harness::engine::{run_library_on, Engine};
use shinpan::report::Report;

use super::print;
use crate::{CheckArgs, Format, Outcome, Usage};

pub fn run(args: CheckArgs) -> Result<Outcome, Usage> {
    let CheckArgs {
        games,
        filter,
        format,
        library,
        engine,
        expect_fail,
        baseline,
    } = args;
    let library = load_library(&library.cases, &games).map_err(|e| Usage(e.to_string()))?;
    let expect_fail = expect_fail
        .map(|path| ExpectFail::load(&path))
        .transpose()
        .map_err(Usage)?;
    let baseline = baseline
        .map(|path| {
            std::fs::read_to_string(&path).map_err(|e| Usage(format!("{}: {e}", path.display())))
        })
        .transpose()?;
    let mut engine = engine.start()?;
    let show_progress = std::io::stderr().is_terminal() && matches!(format, Format::Human);
    let every = if matches!(engine, Engine::Reference) {
        50
    } else {
        5
    };
    let mut results = run_library_on(&library, filter.as_deref(), &mut engine, |done, total| {
        if show_progress && (done % every == 0 || done == total) {
            eprint!("\r[{done}/{total}]");
            if done == total {
                eprint!("\r\x1b[K");
            }
        }
    });
    if let Some(list) = &expect_fail {
        for pattern in list.apply(&mut results).unmatched {
            eprintln!("shinpan: warning: --expect-fail entry `{pattern}` matches no case run");
        }
    }
    if results.is_empty() {
        return Err(Usage(format!(
            "no case matches (filter: {})",
            filter.as_deref().unwrap_or("none")
        )));
    }
    let report = Report::new(&library.digest, &engine.name(), results);
    if let Engine::Adapter(adapter) = &engine {
        if adapter.restarts > 0 && matches!(format, Format::Human) {
            eprintln!(
                "shinpan: the adapter was restarted {} times",
                adapter.restarts
            );
        }
    }
    drop(engine);
    print(&match format {
        Format::Human => report.human(),
        Format::Json => report.json() + "\n",
        Format::Junit => report.junit(),
    });
    if let Some(text) = baseline {
        let changes = compare(&text, &report).map_err(Usage)?;
        match format {
            Format::Human => print(&changes.human()),
            _ => eprint!("{}", changes.human()),
        }
    }
    Ok(Outcome::passed_if(report.all_passed()))
}

//! The HTML page of a `check` report: `check --format html` prints it, `report FILE --html OUT`
//! draws a saved `--format json` report (a CI artifact) into OUT, whole or not at all (a FIFO
//! or a device written through, never replaced: `files::output`). The page
//! says when it was made; the clock is read here, never in the report.

use std::time::{SystemTime, UNIX_EPOCH};

use shinpan::games;
use shinpan::report::check::Report;
use shinpan::report::html::{page, utc_minute, Page};
use shinpan::run::baseline::{compare, Baseline, Changes};

use super::args::ReportArgs;
use super::files::{read_check_report, write_output};
use super::{warn, Finished, Usage};

/// `report FILE --html OUT`: exits as `check` did on the run the report is of, its counts and
/// groups of failures worked out again from its results.
pub fn run(args: ReportArgs) -> Result<Finished, Usage> {
    let (Some(path), Some(html)) = (&args.report, &args.html) else {
        return Err(Usage(
            "give a `check --format json` report and `--html OUT`, or `report merge`".into(),
        ));
    };
    let mut report = read_check_report(path, args.max_report_bytes)?;
    // The page and the exit go by the results, whatever the file's counts say (issue 40,
    // item 10).
    if let Some(claimed) = report.recount() {
        warn(&format!(
            "{}: its counts ({claimed}) are not those of its results ({}): the page and the exit \
             code go by the results",
            path.display(),
            report.counts
        ));
    }
    let changes = args
        .baseline
        .map(|b| Baseline::load(&b, args.max_report_bytes))
        .transpose()
        .map_err(|e| Usage(format!("--baseline: {e}")))?
        .map(|b| compare(&b, &report.results));
    write_output(html, &page_of(&report, changes.as_ref()))
        .map_err(|e| Usage(format!("cannot write {}: {e}", html.display())))?;
    Ok(super::finished(report.verdict()))
}

/// The page of `report`, drawn with the registry's games, dated now.
pub fn page_of(report: &Report, changes: Option<&Changes>) -> String {
    page(&Page {
        report,
        games: &games::all(),
        changes,
        generated: &utc_now(),
    })
}

/// Now, in UTC, to the minute.
fn utc_now() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_minute(seconds)
}

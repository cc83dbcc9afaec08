//! The HTML page of a `check` report: `check --format html` prints it, `report FILE --html OUT`
//! draws a saved `--format json` report (a CI artifact) into OUT, whole or not at all. The page
//! says when it was made; the clock is read here, never in the report.

use std::time::{SystemTime, UNIX_EPOCH};

use shinpan::bounded::{self, Bound};
use shinpan::games;
use shinpan::report::check::Report;
use shinpan::report::html::{page, Page};
use shinpan::run::baseline::{compare, Baseline, Changes};

use super::args::ReportArgs;
use super::files::write_atomically;
use super::{Finished, Usage};

/// `report FILE --html OUT`: exits as `check` did on the run the report is of.
pub fn run(args: ReportArgs) -> Result<Finished, Usage> {
    let (Some(path), Some(html)) = (&args.report, &args.html) else {
        return Err(Usage(
            "give a `check --format json` report and `--html OUT`, or `report merge`".into(),
        ));
    };
    let bound = Bound {
        max: args.max_report_bytes,
        option: "--max-report-bytes",
        what: "a check report",
    };
    let text = bounded::read_to_string(path, &bound)
        .map_err(|e| Usage(format!("{}: {e}", path.display())))?;
    let report: Report = serde_json::from_str(&text).map_err(|e| {
        Usage(format!(
            "{}: not a `check --format json` report: {e}",
            path.display()
        ))
    })?;
    let changes = args
        .baseline
        .map(|b| Baseline::load(&b, args.max_report_bytes))
        .transpose()
        .map_err(|e| Usage(format!("--baseline: {e}")))?
        .map(|b| compare(&b, &report.results));
    write_atomically(html, &page_of(&report, changes.as_ref()))
        .map_err(|e| Usage(format!("cannot write {}: {e}", html.display())))?;
    Ok(Finished::passed_if(report.all_passed()))
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

/// Now, in UTC, to the minute: `2026-11-27 07:30 UTC`.
fn utc_now() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_the_epoch_are_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        // 2000 was a leap year: 2000-02-29 is day 11016.
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_784), (2026, 11, 27));
    }
}

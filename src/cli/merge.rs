//! `shinpan report merge`: reads the `check --format json` reports of a run's shards, checks
//! they come from the library given (the built-in one by default), and prints the merged report
//! in `--format`, exiting as `check` would have on the whole run.

use shinpan::case::{load_library, LoadOptions};
use shinpan::games;
use shinpan::report::merge::merge;
use shinpan::report::Render;

use super::args::MergeArgs;
use super::files::read_check_report;
use super::{out, Finished, Usage};

pub fn run(args: MergeArgs) -> Result<Finished, Usage> {
    let reports = args
        .reports
        .iter()
        .map(|path| read_check_report(path, args.max_report_bytes))
        .collect::<Result<Vec<_>, _>>()?;
    let options = LoadOptions {
        only: Vec::new(),
        max_file_bytes: args.library.max_case_file_bytes,
    };
    let library = load_library(&args.library.source(), &games::all(), &options)
        .map_err(|e| Usage(e.to_string()))?;
    if let Some(report) = reports.iter().find(|r| r.library_digest != library.digest) {
        return Err(Usage(format!(
            "the reports are of another case library (digest {}) than {} ({}); give it with --cases",
            report.library_digest,
            args.library.source().describe(),
            library.digest
        )));
    }
    let names: Vec<String> = library
        .games
        .iter()
        .flat_map(|g| g.cases.iter().map(|c| c.name.clone()))
        .collect();
    let merged = merge(reports, &names).map_err(|e| Usage(e.to_string()))?;
    out(&merged.render(args.format.format()))?;
    Ok(Finished::passed_if(merged.all_passed()))
}

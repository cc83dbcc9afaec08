//! `shinpan report merge`: reads the `check --format json` reports of a run's shards, checks
//! they are of one plan and come from the library given (the built-in one by default), and
//! prints the merged report in `--format`, exiting as `check` would have on the whole run: 1
//! when a case failed; else 3 when less was judged than the run selected (a shard not given, a
//! shard stopped early), saying which shards and how many cases, or when every case was
//! unsupported; else 0.

use shinpan::case::{load_library, LoadOptions};
use shinpan::games;
use shinpan::report::merge::{merge, plan, Shard};
use shinpan::report::Render;
use shinpan::run::select;

use super::args::MergeArgs;
use super::files::read_check_report;
use super::{out, warn, Finished, Usage};

pub fn run(args: MergeArgs) -> Result<Finished, Usage> {
    let shards = args
        .reports
        .iter()
        .map(|path| {
            Ok(Shard {
                file: path.display().to_string(),
                report: read_check_report(path, args.max_report_bytes)?,
            })
        })
        .collect::<Result<Vec<_>, Usage>>()?;
    let plan = plan(&shards).map_err(|e| Usage(e.to_string()))?;
    let options = LoadOptions {
        only: plan.games.clone(),
        max_file_bytes: args.library.max_case_file_bytes,
    };
    let library = load_library(&args.library.source(), &games::all(), &options)
        .map_err(|e| Usage(e.to_string()))?;
    if let Some(shard) = shards
        .iter()
        .find(|s| s.report.library_digest != library.digest)
    {
        return Err(Usage(format!(
            "{} is of another case library (digest {}) than {} ({}); give it with --cases",
            shard.file,
            shard.report.library_digest,
            args.library.source().describe(),
            library.digest
        )));
    }
    let selected: Vec<String> = select(&library, plan.filter.as_deref())
        .into_iter()
        .map(|(_, case)| case.name.clone())
        .collect();
    let merged = merge(shards, &selected).map_err(|e| Usage(e.to_string()))?;
    out(&merged.render(args.format.format()))?;
    if let Some(unjudged) = &merged.unjudged {
        warn(&unjudged.line());
    }
    Ok(super::finished(merged.verdict()))
}

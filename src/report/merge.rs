//! `shinpan report merge`: the `check` reports of the shards of one run (`check --partition`)
//! joined into the report of the whole run. The cases go back in library order, the counts and
//! the groups of failures are worked out again from them, so the merged report is the one the
//! run would have given unsharded.

use std::collections::HashMap;

use super::check::Report;

/// Why reports do not merge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("no report to merge")]
    Nothing,
    #[error("report {index} is of another {what} ({theirs}) than report 1 ({ours})")]
    Another {
        index: usize,
        what: &'static str,
        ours: String,
        theirs: String,
    },
    #[error("the case `{0}` is in two reports")]
    Twice(String),
    #[error("the case `{0}` is not in the library (was it made from another?)")]
    Unknown(String),
}

/// Joins `reports` (of one library, engine and shinpan version) in the order `library` lists its
/// case names; the first report names the library, the engine and the version.
pub fn merge(reports: Vec<Report>, library: &[String]) -> Result<Report, MergeError> {
    let first = reports.first().ok_or(MergeError::Nothing)?.clone();
    for (i, report) in reports.iter().enumerate().skip(1) {
        let same = |what: &'static str, ours: &str, theirs: &str| {
            if ours == theirs {
                Ok(())
            } else {
                Err(MergeError::Another {
                    index: i + 1,
                    what,
                    ours: ours.to_string(),
                    theirs: theirs.to_string(),
                })
            }
        };
        same("library", &first.library_digest, &report.library_digest)?;
        same("engine", &first.engine, &report.engine)?;
        same(
            "shinpan version",
            &first.shinpan_version,
            &report.shinpan_version,
        )?;
    }
    let place: HashMap<&str, usize> = library
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let mut stopped = Vec::new();
    let mut results = Vec::new();
    let mut clauses = std::collections::BTreeMap::new();
    for report in reports {
        stopped.extend(report.stopped);
        results.extend(report.results);
        for (game, texts) in report.clauses {
            clauses
                .entry(game)
                .or_insert_with(std::collections::BTreeMap::new)
                .extend(texts);
        }
    }
    let mut placed = Vec::with_capacity(results.len());
    for result in results {
        let at = *place
            .get(result.name.as_str())
            .ok_or_else(|| MergeError::Unknown(result.name.clone()))?;
        placed.push((at, result));
    }
    placed.sort_by_key(|(at, _)| *at);
    if let Some(pair) = placed.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(MergeError::Twice(pair[0].1.name.clone()));
    }
    let results = placed.into_iter().map(|(_, result)| result).collect();
    let mut merged = Report::new(
        &first.library_digest,
        &first.library,
        &first.engine,
        results,
    );
    merged.shinpan_version = first.shinpan_version;
    merged.stopped = (!stopped.is_empty()).then(|| stopped.join("; "));
    merged.options = first.options;
    merged.clauses = clauses;
    Ok(merged)
}

//! `shinpan report merge`: the `check` reports of the shards of one run (`check --partition`)
//! joined into the report of the whole run. The cases go back in library order, the counts and
//! the groups of failures are worked out again from them, so the merged report is the one the
//! run would have given unsharded.
//!
//! Each report records its run's plan (library digest, engine, shinpan version, `--option`s,
//! games, `--filter`, the partition's kind and shard count, how many cases the run selected):
//! reports of different plans are refused, naming the difference (issue 40, item 3). The
//! shards not given, and every case of the run no report judged, are named in the merged
//! report (`unjudged`), which then never passes (issue 40, item 1).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::check::{Report, Unjudged};
use crate::run::partition::{Partition, PartitionBy};

/// A report, and the file it was read from (for messages).
#[derive(Debug, Clone)]
pub struct Shard {
    pub file: String,
    pub report: Report,
}

/// What every report of one run shares, and what it says of the cases the run selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The games given to `check` (none: every game).
    pub games: Vec<String>,
    pub filter: Option<String>,
    /// How many cases the run selected.
    pub selected: usize,
    /// How the cases were dealt and to how many shards; `None` for an unsharded run.
    pub partition: Option<(PartitionBy, u64)>,
}

/// Why reports do not merge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("no report to merge")]
    Nothing,
    #[error("{theirs_file} is of another {what} ({theirs}) than {ours_file} ({ours})")]
    Another {
        what: &'static str,
        ours_file: String,
        ours: String,
        theirs_file: String,
        theirs: String,
    },
    #[error(
        "{0} does not record its run's plan (the cases it selected): it was made by a shinpan \
         before report merge checked plans; run its shard again"
    )]
    NoPlan(String),
    #[error("{file}: `{partition}` is not a partition: {why}")]
    BadPartition {
        file: String,
        partition: String,
        why: String,
    },
    #[error("{first} and {second} are both {shard}")]
    SameShard {
        first: String,
        second: String,
        shard: String,
    },
    #[error(
        "the reports' run selected {reports} cases; the library given selects {library} with \
         the same games and filter"
    )]
    Selection { reports: usize, library: usize },
    #[error("the case `{0}` is in two reports")]
    Twice(String),
    #[error(
        "the case `{0}` is not among the cases the run selected (was it made from another \
         library?)"
    )]
    Unknown(String),
    #[error("{file} holds the case `{case}`, which is not shard {shard}'s")]
    NotItsShard {
        file: String,
        case: String,
        shard: String,
    },
}

/// One thing a report says of its run's plan, as people read it (the report's partition read
/// back given beside it).
type Facet = fn(&Report, Option<(PartitionBy, u64)>) -> String;

/// The plan the reports of `shards` share, or the first difference, naming both files.
pub fn plan(shards: &[Shard]) -> Result<Plan, MergeError> {
    let first = shards.first().ok_or(MergeError::Nothing)?;
    for shard in shards {
        if shard.report.selected.is_none() {
            return Err(MergeError::NoPlan(shard.file.clone()));
        }
    }
    let partitions = shards
        .iter()
        .map(|s| partition_of(s).map(|p| p.map(|p| (p.by, p.of))))
        .collect::<Result<Vec<_>, _>>()?;
    let facets: [(&'static str, Facet); 8] = [
        ("library", |r, _| r.library_digest.clone()),
        ("engine", |r, _| r.engine.clone()),
        ("shinpan version", |r, _| r.shinpan_version.clone()),
        ("set of --option", |r, _| {
            let mut options = r.options.clone();
            options.sort();
            listed(&options)
        }),
        ("set of games", |r, _| listed(&r.games)),
        ("--filter", |r, _| {
            r.filter
                .as_ref()
                .map_or("none".into(), |f| format!("`{f}`"))
        }),
        ("partition", |_, p| match p {
            None => "none: the whole run".into(),
            Some((by, of)) => format!("{}, {of} shards", by_name(by)),
        }),
        ("selection", |r, _| {
            format!("{} cases selected", r.selected.unwrap_or_default())
        }),
    ];
    for (shard, partition) in shards.iter().zip(&partitions).skip(1) {
        for (what, facet) in &facets {
            let (ours, theirs) = (
                facet(&first.report, partitions[0]),
                facet(&shard.report, *partition),
            );
            if ours != theirs {
                return Err(MergeError::Another {
                    what,
                    ours_file: first.file.clone(),
                    ours,
                    theirs_file: shard.file.clone(),
                    theirs,
                });
            }
        }
    }
    Ok(Plan {
        games: first.report.games.clone(),
        filter: first.report.filter.clone(),
        selected: first.report.selected.unwrap_or_default(),
        partition: partitions[0],
    })
}

/// Joins `shards` (of one plan, see [`plan`]) in the order of `selected`, the names of the
/// cases the run selected in library order; the first report names the library, the engine
/// and the version. The shards not given and the cases no report judged are the merged
/// report's `unjudged`.
pub fn merge(shards: Vec<Shard>, selected: &[String]) -> Result<Report, MergeError> {
    let plan = plan(&shards)?;
    if plan.selected != selected.len() {
        return Err(MergeError::Selection {
            reports: plan.selected,
            library: selected.len(),
        });
    }
    let place: HashMap<&str, usize> = selected
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    // Each shard given once (an unsharded report is shard 1 of 1).
    let mut given: BTreeMap<u64, String> = BTreeMap::new();
    for shard in &shards {
        let partition = partition_of(shard)?;
        let k = partition.map_or(1, |p| p.shard);
        if let Some(first) = given.insert(k, shard.file.clone()) {
            return Err(MergeError::SameShard {
                first,
                second: shard.file.clone(),
                shard: partition.map_or("the whole run".into(), |p| format!("shard {p}")),
            });
        }
        for result in &shard.report.results {
            let at = *place
                .get(result.name.as_str())
                .ok_or_else(|| MergeError::Unknown(result.name.clone()))?;
            if let Some(p) = partition.filter(|p| !p.takes(at, &result.name)) {
                return Err(MergeError::NotItsShard {
                    file: shard.file.clone(),
                    case: result.name.clone(),
                    shard: p.to_string(),
                });
            }
        }
    }
    let first = shards[0].report.clone();
    let of = plan.partition.map_or(1, |(_, of)| of);
    let mut stopped = Vec::new();
    let mut placed = Vec::new();
    let mut clauses = BTreeMap::new();
    for shard in shards {
        stopped.extend(shard.report.stopped);
        for result in shard.report.results {
            placed.push((place[result.name.as_str()], result));
        }
        for (game, texts) in shard.report.clauses {
            clauses
                .entry(game)
                .or_insert_with(BTreeMap::new)
                .extend(texts);
        }
    }
    placed.sort_by_key(|(at, _)| *at);
    if let Some(pair) = placed.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(MergeError::Twice(pair[0].1.name.clone()));
    }
    let judged: BTreeSet<usize> = placed.iter().map(|(at, _)| *at).collect();
    let unjudged: Vec<String> = (0..selected.len())
        .filter(|at| !judged.contains(at))
        .map(|at| selected[at].clone())
        .collect();
    let missing: Vec<u64> = (1..=of).filter(|k| !given.contains_key(k)).collect();
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
    merged.games = plan.games;
    merged.filter = plan.filter;
    merged.selected = Some(plan.selected);
    merged.clauses = clauses;
    merged.unjudged = (!unjudged.is_empty() || !missing.is_empty()).then_some(Unjudged {
        shards: missing,
        of,
        selected: selected.len(),
        cases: unjudged,
    });
    Ok(merged)
}

/// The partition a shard's report records, read back.
fn partition_of(shard: &Shard) -> Result<Option<Partition>, MergeError> {
    shard
        .report
        .partition
        .as_ref()
        .map(|text| {
            text.parse::<Partition>()
                .map_err(|e| MergeError::BadPartition {
                    file: shard.file.clone(),
                    partition: text.clone(),
                    why: e.to_string(),
                })
        })
        .transpose()
}

fn by_name(by: PartitionBy) -> &'static str {
    match by {
        PartitionBy::Count => "count",
        PartitionBy::Hash => "hash",
    }
}

/// `a, b`, or `none`.
fn listed(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

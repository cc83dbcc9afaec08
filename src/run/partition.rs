//! Sharding a run across machines, as cargo-nextest's `--partition` does: `count:K/N` takes every
//! N-th case of those selected, from the K-th; `hash:K/N` takes the cases whose name hashes to
//! shard K. Either way the N shards together take every selected case exactly once, and the
//! reports of the shards merge back into the report of the whole run (`shinpan report merge`).

use std::str::FromStr;

use xxhash_rust::xxh64::xxh64;

use crate::case::Library;

/// Which share of the selected cases a run takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    pub by: PartitionBy,
    /// From 1 to `of`.
    pub shard: u64,
    pub of: u64,
}

/// How cases are dealt to the shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartitionBy {
    /// By their place among the selected cases, in library order, dealt in turn.
    Count,
    /// By a hash of their name (`game/file/case-id`): a case stays in its shard whatever other
    /// cases are added or filtered out.
    Hash,
}

/// Why a `--partition` value is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    #[error("`{0}` is not a partition: write count:K/N or hash:K/N")]
    Shape(String),
    #[error("`{0}`: K and N must be whole numbers with 1 <= K <= N")]
    Numbers(String),
}

impl FromStr for Partition {
    type Err = PartitionError;

    fn from_str(text: &str) -> Result<Partition, PartitionError> {
        let shape = || PartitionError::Shape(text.to_string());
        let (by, share) = text.split_once(':').ok_or_else(shape)?;
        let by = match by {
            "count" => PartitionBy::Count,
            "hash" => PartitionBy::Hash,
            _ => return Err(shape()),
        };
        let (shard, of) = share.split_once('/').ok_or_else(shape)?;
        let number = |n: &str| n.parse::<u64>().ok();
        match (number(shard), number(of)) {
            (Some(shard), Some(of)) if 1 <= shard && shard <= of => Ok(Partition { by, shard, of }),
            _ => Err(PartitionError::Numbers(text.to_string())),
        }
    }
}

impl std::fmt::Display for Partition {
    /// As it is written on the command line: `count:1/3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let by = match self.by {
            PartitionBy::Count => "count",
            PartitionBy::Hash => "hash",
        };
        write!(f, "{by}:{}/{}", self.shard, self.of)
    }
}

impl Partition {
    /// Whether the case `name`, the `ordinal`-th of the selected cases (from 0), is this shard's.
    pub fn takes(&self, ordinal: usize, name: &str) -> bool {
        let dealt = match self.by {
            PartitionBy::Count => ordinal as u64,
            PartitionBy::Hash => xxh64(name.as_bytes(), 0),
        };
        dealt % self.of == self.shard - 1
    }

    /// Keeps in `library` the cases `filter` selects that are this shard's (every case, when
    /// there is no filter), in their order.
    pub fn keep(&self, library: &mut Library, filter: Option<&str>) {
        let mut ordinal = 0;
        for game in &mut library.games {
            game.cases.retain(|case| {
                if filter.is_some_and(|f| !case.name.contains(f)) {
                    return false;
                }
                ordinal += 1;
                self.takes(ordinal - 1, &case.name)
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_kinds_and_refuses_the_rest() {
        let read = |text: &str| text.parse::<Partition>();
        assert_eq!(
            read("count:2/3"),
            Ok(Partition {
                by: PartitionBy::Count,
                shard: 2,
                of: 3
            })
        );
        assert_eq!(read("hash:1/1").map(|p| p.by), Ok(PartitionBy::Hash));
        assert_eq!(read("hash:3/3").map(|p| p.shard), Ok(3));
        for shape in ["count", "count:2", "slice:1/2", "2/3", ""] {
            assert_eq!(read(shape), Err(PartitionError::Shape(shape.into())));
        }
        for numbers in [
            "count:0/3",
            "count:4/3",
            "hash:1/0",
            "count:a/3",
            "count:-1/3",
        ] {
            assert_eq!(read(numbers), Err(PartitionError::Numbers(numbers.into())));
        }
    }

    #[test]
    fn count_deals_the_cases_in_turn() {
        let shard = |k| Partition {
            by: PartitionBy::Count,
            shard: k,
            of: 3,
        };
        let taken = |k| {
            (0..7)
                .filter(|&i| shard(k).takes(i, "any"))
                .collect::<Vec<_>>()
        };
        assert_eq!(taken(1), [0, 3, 6]);
        assert_eq!(taken(2), [1, 4]);
        assert_eq!(taken(3), [2, 5]);
    }

    #[test]
    fn hash_puts_each_name_in_exactly_one_shard_whatever_its_place() {
        let names: Vec<String> = (0..200).map(|i| format!("g/f/case-{i}")).collect();
        let shard = |k| Partition {
            by: PartitionBy::Hash,
            shard: k,
            of: 4,
        };
        let mut sizes = [0; 4];
        for (i, name) in names.iter().enumerate() {
            let owners: Vec<u64> = (1..=4).filter(|&k| shard(k).takes(i, name)).collect();
            assert_eq!(owners.len(), 1, "{name}: {owners:?}");
            assert!(
                shard(owners[0]).takes(i + 17, name),
                "the place does not matter"
            );
            sizes[owners[0] as usize - 1] += 1;
        }
        assert!(sizes.iter().all(|&n| n > 20), "a fair deal: {sizes:?}");
    }
}

//! Work spread over every core: independent items, each made by whichever core is free, the
//! results in the items' order.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `make` of each of `items`, on every core, in the order of `items`. The costliest (by `cost`)
/// are taken first, so that no core is left with a large item when the others are done. A
/// panic in `make` is raised again here.
pub fn on_every_core<I: Sync, T: Send>(
    items: &[I],
    cost: impl Fn(&I) -> u64,
    make: impl Fn(&I) -> T + Sync,
) -> Vec<T> {
    let mut by_cost: Vec<usize> = (0..items.len()).collect();
    by_cost.sort_by_key(|&i| std::cmp::Reverse(cost(&items[i])));
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut made: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.min(items.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(&i) = by_cost.get(next.fetch_add(1, Ordering::Relaxed)) {
                        done.push((i, make(&items[i])));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    made.sort_by_key(|(i, _)| *i);
    made.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_the_items_order_whatever_their_cost() {
        let items: Vec<u64> = (0..50).map(|i| (i * 37) % 11).collect();
        let made = on_every_core(&items, |&c| c, |&c| c * 2);
        assert_eq!(made, items.iter().map(|c| c * 2).collect::<Vec<_>>());
        assert!(on_every_core(&[] as &[u64], |_| 0, |&c| c).is_empty());
    }
}

//! One job per item on all cores, results in input order: output never depends on thread
//! scheduling.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Applies `f` to every item on up to `available_parallelism` threads; the results come back
/// in the order of `items`. Items are handed out one at a time, so a large file does not hold
/// up a queue of small ones behind it.
pub fn map_in_order<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
    if threads == 1 {
        return items.into_iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|i| Mutex::new(Some(i))).collect();
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(slot) = slots.get(index) else { break };
                        let item = slot.lock().ok().and_then(|mut slot| slot.take());
                        if let Some(item) = item {
                            done.push((index, f(item)));
                        }
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap_or_default())
            .collect()
    });
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_input_order() {
        let items: Vec<usize> = (0..200).collect();
        let doubled = super::map_in_order(items, |n| n * 2);
        assert_eq!(doubled, (0..200).map(|n| n * 2).collect::<Vec<_>>());
        assert!(super::map_in_order(Vec::<u8>::new(), |n| n).is_empty());
    }
}

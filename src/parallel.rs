//! One job per item on all cores (rayon's global pool), results in input order: output never
//! depends on thread scheduling.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;

use rayon::prelude::*;

/// Applies `f` to every item on rayon's pool (one thread per core); the results come back in
/// the order of `items`. Items are split down to one per job (`with_max_len(1)`), so an idle
/// thread steals the next item and a large file does not hold up a queue of small ones behind
/// it. Parallel work nested inside an item (`Counter::tools` on a large file) shares the same
/// pool. Zero or one item runs on the calling thread, without starting the pool.
pub fn map_in_order<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    if items.len() <= 1 {
        return items.into_iter().map(f).collect();
    }
    // `&f` is `Send` because `f` is `Sync`: rayon's `map` needs both.
    items.into_par_iter().with_max_len(1).map(&f).collect()
}

/// Applies `work` to every item on rayon's pool and hands each result to `consume` on the
/// calling thread, in the order of `items`, as soon as it and every earlier one are done. At
/// most a few items per thread are in flight (started and not yet consumed), so memory stays
/// bounded however many items there are; a slow item holds back only that window. A panic in
/// `work` is raised again on the calling thread, after the items in flight end.
pub fn for_each_in_order<T: Send, R: Send>(
    items: Vec<T>,
    work: impl Fn(T) -> R + Sync,
    mut consume: impl FnMut(R),
) {
    if items.len() <= 1 {
        items.into_iter().map(&work).for_each(consume);
        return;
    }
    let total = items.len();
    let window = rayon::current_num_threads().max(1) * 4;
    let (sender, receiver) = std::sync::mpsc::channel();
    let work = &work;
    // `in_place_scope` runs this closure on the calling thread, not on a worker of the pool:
    // waiting here for results takes no thread from the work.
    rayon::in_place_scope(|scope| {
        let mut items = items.into_iter().enumerate();
        let mut start_next = || {
            if let Some((index, item)) = items.next() {
                let sender = sender.clone();
                scope.spawn(move |_| {
                    let result = std::panic::catch_unwind(AssertUnwindSafe(|| work(item)));
                    // The receiver outlives the scope: the send cannot fail.
                    let _ = sender.send((index, result));
                });
            }
        };
        for _ in 0..window {
            start_next();
        }
        // Results that arrived before an earlier one, by index.
        let mut early: BTreeMap<usize, R> = BTreeMap::new();
        let mut next = 0;
        while next < total {
            let Ok((index, result)) = receiver.recv() else {
                break;
            };
            match result {
                Ok(result) => early.insert(index, result),
                Err(payload) => std::panic::resume_unwind(payload),
            };
            while let Some(result) = early.remove(&next) {
                consume(result);
                next += 1;
                start_next();
            }
        }
    });
}

/// Drops `value` on rayon's pool: freeing a large tree or report (100,000 tools') takes a
/// tenth of a second on one core, which the caller spends on its next step instead.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    rayon::spawn(move || drop(value));
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

    #[test]
    fn results_are_consumed_in_input_order() {
        let mut seen = Vec::new();
        // Early items take longest, so later ones finish first.
        super::for_each_in_order(
            (0..100u64).collect(),
            |n| {
                std::thread::sleep(std::time::Duration::from_micros(2000 / (n + 1)));
                n * 2
            },
            |n| seen.push(n),
        );
        assert_eq!(seen, (0..100).map(|n| n * 2).collect::<Vec<_>>());
    }

    /// Items are started only a window ahead of the one consumed last: memory stays bounded
    /// however many items there are.
    #[test]
    fn few_items_are_in_flight_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let started = AtomicUsize::new(0);
        let mut consumed = 0;
        let mut most_ahead = 0;
        super::for_each_in_order(
            (0..2_000).collect(),
            |n: usize| {
                started.fetch_add(1, Ordering::SeqCst);
                n
            },
            |n| {
                assert_eq!(n, consumed);
                consumed += 1;
                most_ahead = most_ahead.max(started.load(Ordering::SeqCst) - consumed);
            },
        );
        assert_eq!(consumed, 2_000);
        let window = rayon::current_num_threads().max(1) * 4;
        assert!(
            most_ahead <= window,
            "{most_ahead} items ahead, window {window}"
        );
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            super::for_each_in_order((0..20).collect(), |n: i32| assert_ne!(n, 7), |()| {});
        });
        assert!(caught.is_err());
    }
}

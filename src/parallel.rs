//! One job per item on all cores (rayon's global pool), results in input order: output never
//! depends on thread scheduling.

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

//! What fits in a context window: the share of it over which tools are better deferred, and
//! the fewest to defer.

/// The share of the window over which the token report recommends deferring tools (and the
/// default budget of `toolset-too-large`: 20,000 of 200,000).
pub const THRESHOLD: f64 = 0.10;

/// The fewest of `sizes` (sorted largest first) to take away, from the largest, so that the
/// rest is at most `budget`: how many, and the rest. All of them when nothing else fits.
pub fn fewest_to_defer(sizes: &[usize], budget: usize) -> (usize, usize) {
    let mut rest: usize = sizes.iter().sum();
    let mut count = 0;
    for size in sizes {
        if rest <= budget {
            break;
        }
        rest -= size;
        count += 1;
    }
    (count, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fewest_servers_to_defer_are_the_largest() {
        assert_eq!(fewest_to_defer(&[], 10), (0, 0));
        assert_eq!(fewest_to_defer(&[5, 3], 10), (0, 8));
        assert_eq!(fewest_to_defer(&[17, 10, 3, 2], 20), (1, 15));
        assert_eq!(fewest_to_defer(&[9, 8, 7], 5), (3, 0));
        assert_eq!(fewest_to_defer(&[9, 8, 7], 7), (2, 7));
        assert_eq!(fewest_to_defer(&[30], 20), (1, 0));
    }
}

//! What the linear-time merge of a piece over a megabyte needs beyond the vocabulary's table
//! ([`Vocab::merge_backtrack`]): each token's split and its longest proper prefix, the pairs
//! that merge, and every prefix of a token, derived on first use as the `bpe` crate derives
//! them.

use std::collections::HashMap;

use super::{NONE, Vocab};
use crate::tokens::Mixed;
use crate::tokens::table::{self, EMPTY, RANK_MASK};

/// What [`Vocab::merge_backtrack`] needs beyond the table, derived from it on first use (a
/// piece longer than [`LONG`](super::LONG)) as the `bpe` crate derives it.
pub(super) struct Merges {
    /// `split[t]`: the two tokens whose merge makes `t` (`(t, t)` for a single byte).
    split: Vec<(u32, u32)>,
    /// The token whose split a pair `(a, b)` is, by `pair_key`.
    pairs: HashMap<u64, u32, Mixed>,
    /// A bit per hash of a pair, set for each pair in `pairs`: most pairs a search asks
    /// about are none, and a clear bit (512 KiB, in the cache) answers that without a look-up
    /// in `pairs` (several MiB, out of it).
    pair_bits: Vec<u64>,
    /// `shorter[t]`: the longest token that is a proper prefix of `t` (`NONE` for one byte).
    pub(super) shorter: Vec<u32>,
    /// The first two bytes of a text, by `256 * first + second`: their token's rank, `NONE`
    /// when they only begin tokens, `ABSENT` when they begin none. One cached look-up covers
    /// the two lengths almost every search passes through.
    two_bytes: Vec<u32>,
    /// Every token and every other prefix of a token: the search goes on while it finds one,
    /// one look-up per byte.
    prefixes: Prefixes,
}

/// A set of byte strings with a rank each, laid out as the vocabulary's slots (a rank and a
/// few bits of the hash; src/tokens/table.rs) but without the bytes: 4 bytes a string, so
/// that the search for the longest token stays in the cache. Two strings can share a slot's
/// hash bits: a string it finds may be another.
struct Prefixes {
    slots: Vec<u32>,
    mask: usize,
}

/// The rank of a prefix of tokens that is no token itself.
const STEM: u32 = RANK_MASK - 1;

impl Prefixes {
    /// The table of `tokens` (by rank) and then of `stems` (hashes, distinct).
    fn new(vocab: &Vocab, stems: &[u64]) -> Prefixes {
        let count = vocab.len() + stems.len();
        let mask = (count * 2).next_power_of_two() - 1;
        let mut prefixes = Prefixes {
            slots: vec![EMPTY; mask + 1],
            mask,
        };
        // Tokens first: before a token in its probe sequence there are only tokens.
        for rank in 0..vocab.len() as u32 {
            prefixes.insert(table::hash(vocab.token(rank)), rank);
        }
        for &stem in stems {
            prefixes.insert(stem, STEM);
        }
        prefixes
    }

    fn insert(&mut self, hash: u64, rank: u32) {
        let mut slot = hash as usize & self.mask;
        while self.slots[slot] != EMPTY {
            slot = (slot + 1) & self.mask;
        }
        self.slots[slot] = table::tag(hash) | rank;
    }

    /// Starts loading the slot where `hash`'s probe sequence begins.
    #[inline]
    fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = &self.slots[hash as usize & self.mask];
            // SAFETY: a prefetch only hints the cache; the address is a live slot's.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(slot).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The rank (or `STEM`) of the first string in the probe sequence with the hash's bits.
    #[inline]
    fn get(&self, hash: u64) -> Option<u32> {
        let tag = table::tag(hash);
        let mut slot = hash as usize & self.mask;
        // At most half full: an empty slot ends every probe sequence.
        loop {
            let entry = self.slots[slot];
            if entry == EMPTY {
                return None;
            }
            if entry & !RANK_MASK == tag {
                return Some(entry & RANK_MASK);
            }
            slot = (slot + 1) & self.mask;
        }
    }
}

/// Lengths past two whose prefix look-ups `longest_token` starts at once.
const AHEAD: usize = 3;

/// No token begins with these bytes (`Merges::two_bytes`).
const ABSENT: u32 = NONE - 1;

fn pair_key(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

/// The bits of `Merges::pair_bits`: about 20 per pair of o200k's 200,000 (one pair in 20
/// outside `pairs` finds its bit set), in 512 KiB, which a core's L2 cache holds beside the
/// rest of the search: 2 MiB of bits, which it does not, took 15% more time on 30 MB of letters.
const PAIR_BITS: usize = 1 << 22;

/// The bit of `Merges::pair_bits` for `key`.
fn pair_bit(key: u64) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - PAIR_BITS.trailing_zeros())) as usize
}

impl Merges {
    pub(super) fn new(vocab: &Vocab) -> Merges {
        let count = vocab.len() as u32;
        let mut shorter = Vec::with_capacity(count as usize);
        let mut stems = Vec::new();
        let mut two_bytes = vec![ABSENT; 1 << 16];
        for rank in 0..count {
            let bytes = vocab.token(rank);
            if let [first, second, ..] = *bytes {
                let two = &mut two_bytes[usize::from(first) << 8 | usize::from(second)];
                if bytes.len() == 2 {
                    *two = rank;
                } else if *two == ABSENT {
                    *two = NONE;
                }
            }
            let mut longest = NONE;
            for len in (1..bytes.len()).rev() {
                let prefix = &bytes[..len];
                match vocab.rank(prefix) {
                    Some(prefix_rank) if longest == NONE => longest = prefix_rank,
                    Some(_) => {}
                    None => stems.push(table::hash(prefix)),
                }
            }
            shorter.push(longest);
        }
        stems.sort_unstable();
        stems.dedup();
        let mut merges = Merges {
            split: Vec::with_capacity(count as usize),
            pairs: HashMap::default(),
            pair_bits: vec![0; PAIR_BITS / 64],
            shorter,
            two_bytes,
            prefixes: Prefixes::new(vocab, &stems),
        };
        // In rank order, a token's split is its longest prefix token whose rest is a token,
        // both of lower rank, that BPE would merge (the pairs of lower ranks are known).
        for rank in 0..count {
            let bytes = vocab.token(rank);
            let mut left = merges.shorter[rank as usize];
            let mut split = (rank, rank);
            while left != NONE {
                let rest = &bytes[vocab.token(left).len()..];
                if let Some(right) = vocab.rank(rest)
                    && left < rank
                    && right < rank
                    && merges.compatible(left, right)
                {
                    merges.insert_pair(left, right, rank);
                    split = (left, right);
                    break;
                }
                left = merges.shorter[left as usize];
            }
            merges.split.push(split);
        }
        merges
    }

    fn insert_pair(&mut self, left: u32, right: u32, merged: u32) {
        let key = pair_key(left, right);
        let bit = pair_bit(key);
        self.pair_bits[bit / 64] |= 1 << (bit % 64);
        self.pairs.insert(key, merged);
    }

    /// The token whose split `(left, right)` is.
    #[inline]
    fn pair(&self, left: u32, right: u32) -> Option<u32> {
        let key = pair_key(left, right);
        let bit = pair_bit(key);
        if self.pair_bits[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
        self.pairs.get(&key).copied()
    }

    /// Whether BPE leaves `left` and `right` side by side: undoing their merges in reverse
    /// order, no pair across the boundary is a token merged before the boundary's tokens were
    /// made (the `bpe` crate's `is_valid_token_pair`).
    pub(super) fn compatible(&self, mut left: u32, mut right: u32) -> bool {
        // Tokens across the boundary of rank `limit` or above are made after it is fixed.
        let mut limit = u32::MAX;
        loop {
            if let Some(merged) = self.pair(left, right)
                && merged < limit
            {
                return false;
            }
            if left > right {
                limit = left;
                left = self.split[left as usize].1;
                if left == limit {
                    limit = right + 1;
                    right = self.split[right as usize].0;
                    if right + 1 == limit {
                        return true;
                    }
                }
            } else {
                limit = right + 1;
                right = self.split[right as usize].0;
                if right + 1 == limit {
                    limit = left;
                    left = self.split[left as usize].1;
                    if left == limit {
                        return true;
                    }
                }
            }
        }
    }

    /// The longest token `text` starts with (`text` is not empty; every byte is a token).
    pub(super) fn longest_token(&self, vocab: &Vocab, text: &[u8]) -> u32 {
        let [first, second, ..] = *text else {
            return vocab.rank(text).unwrap_or(NONE);
        };
        let (mut longest, mut longest_len) =
            match self.two_bytes[usize::from(first) << 8 | usize::from(second)] {
                ABSENT => return vocab.rank(&text[..1]).unwrap_or(NONE),
                NONE => (vocab.rank(&text[..1]).unwrap_or(NONE), 1),
                rank => (rank, 2),
            };
        // The look-ups of the next few lengths are cache misses: started together, they
        // overlap.
        let mut hashes = [0u64; AHEAD];
        for (ahead, hash) in hashes.iter_mut().enumerate().take(text.len() - 2) {
            *hash = table::hash(&text[..3 + ahead]);
            self.prefixes.prefetch(*hash);
        }
        let mut len = 2;
        while len < text.len() {
            len += 1;
            let hash = match hashes.get(len - 3) {
                Some(&hash) => hash,
                None => table::hash(&text[..len]),
            };
            match self.prefixes.get(hash) {
                Some(STEM) => {}
                Some(rank) => (longest, longest_len) = (rank, len),
                None => break,
            }
        }
        // The prefixes keep no bytes: when the token found last is not the text's, look the
        // lengths up in the vocabulary. (Compared byte by byte: a token is a few bytes, fewer
        // than a call to `memcmp` costs, which 15 million tokens of letters paid 5% of the time.)
        let found = vocab.token(longest);
        let same = found.len() == longest_len && found.iter().zip(text).all(|(a, b)| a == b);
        if longest_len > 2 && !same {
            return (1..=len)
                .rev()
                .find_map(|len| vocab.rank(&text[..len]))
                .unwrap_or(NONE);
        }
        longest
    }
}

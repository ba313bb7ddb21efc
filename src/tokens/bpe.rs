//! tiktoken's o200k_base and cl100k_base token counts, with vocabularies read in place.
//!
//! The vocabularies are tables build.rs makes from `src/tokens/vocab/*.tokens` (layout:
//! src/tokens/table.rs) and the binary maps with `include_bytes!`: using one deserializes
//! nothing and touches only the pages of the tokens it looks up. An encoding only builds its
//! pre-tokenizer regex, on first use.
//!
//! Counting follows tiktoken's `encode_ordinary`: the text is split into pieces by the
//! encoding's pattern, and each piece is byte-pair merged, always merging the adjacent pair
//! whose bytes are the lowest-ranked token (the leftmost on ties) until no pair is a token.
//! A piece that is a token is one look-up; short pieces merge as tiktoken does (rescanning
//! the pairs after each merge); long ones merge in the same order with a heap, so that a
//! megabyte of one character is not quadratic; and pieces over a megabyte find the same tokens
//! left to right in linear time and a quarter of the heap's memory (`Vocab::merge_backtrack`),
//! a megabyte part on each core at a time (`Vocab::merge_split`).

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::LazyLock;

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};

use super::Encoding;
use super::table::{self, EMPTY, RANK_MASK};

mod backtrack;
mod merges;

use merges::Merges;

/// No rank: the pair is not a token.
const NONE: u32 = u32::MAX;

/// Pieces up to this many bytes merge by rescanning (tiktoken's way); longer ones with a heap.
const SHORT: usize = 96;

/// Pieces over this many bytes backtrack instead (linear time, under 2 bytes of memory a byte
/// against the heap's 20), once the tables that takes are derived: about 200 ms and 30 MB,
/// what the heap takes for about a megabyte.
const LONG: usize = 1 << 20;

/// How far into the next part each part of a piece longer than [`LONG`] is encoded: the
/// encodings of a text from two starting points agree after a few tokens (BPE merges are
/// local), well within this.
const OVERLAP: usize = 4096;

/// A vocabulary table read in place (layout: src/tokens/table.rs).
pub struct Vocab {
    bytes: &'static [u8],
    offsets: &'static [u8],
    slots: &'static [u8],
    mask: usize,
    merges: LazyLock<Merges, fn() -> Merges>,
}

/// The `index`th little-endian `u32` of `data` (`EMPTY` past the end).
#[inline]
fn word(data: &[u8], index: usize) -> u32 {
    match data.get(index * 4..index * 4 + 4) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => EMPTY,
    }
}

impl Vocab {
    const fn new(
        bytes: &'static [u8],
        offsets: &'static [u8],
        slots: &'static [u8],
        merges: fn() -> Merges,
    ) -> Vocab {
        Vocab {
            bytes,
            offsets,
            slots,
            mask: (slots.len() / 4).saturating_sub(1),
            merges: LazyLock::new(merges),
        }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        (self.offsets.len() / 4).saturating_sub(1)
    }

    /// The bytes of the token of `rank` (empty for no token).
    pub fn token(&self, rank: u32) -> &'static [u8] {
        let rank = rank as usize;
        let (start, end) = (word(self.offsets, rank), word(self.offsets, rank + 1));
        self.bytes
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// The rank of the token whose bytes are `piece`, if there is one.
    #[inline]
    pub fn rank(&self, piece: &[u8]) -> Option<u32> {
        self.rank_hashed(piece, table::hash(piece))
    }

    /// [`Vocab::rank`], given the piece's `table::hash`.
    #[inline]
    fn rank_hashed(&self, piece: &[u8], hash: u64) -> Option<u32> {
        let tag = table::tag(hash);
        let mut slot = hash as usize & self.mask;
        // The table is at most half full: an empty slot ends every probe sequence. The bound
        // only guards against a table that is not what build.rs writes.
        for _ in 0..=self.mask {
            let entry = word(self.slots, slot);
            if entry == EMPTY {
                return None;
            }
            if entry & !RANK_MASK == tag && self.token(entry & RANK_MASK) == piece {
                return Some(entry & RANK_MASK);
            }
            slot = (slot + 1) & self.mask;
        }
        None
    }

    #[inline]
    fn rank_or_none(&self, piece: &[u8]) -> u32 {
        self.rank(piece).unwrap_or(NONE)
    }

    /// Tokens of one pre-token piece.
    pub fn count_piece(&self, piece: &[u8]) -> usize {
        // Every single byte is a token (build.rs checks).
        if piece.len() <= 1 || self.rank(piece).is_some() {
            return usize::from(!piece.is_empty());
        }
        if piece.len() <= SHORT {
            self.merge_short(piece)
        } else if piece.len() <= LONG {
            self.merge_long(piece)
        } else {
            self.merge_split(piece, LONG, OVERLAP)
                .unwrap_or_else(|| self.merge_backtrack(piece))
        }
    }

    /// tiktoken's `_byte_pair_merge`, counting: `parts[i]` is the start of part `i` and the
    /// rank of part `i` merged with part `i + 1`.
    fn merge_short(&self, piece: &[u8]) -> usize {
        let n = piece.len().min(SHORT);
        let piece = &piece[..n];
        let mut parts = [(0u32, NONE); SHORT + 1];
        let mut len = n + 1;
        let mut min = (NONE, 0);
        for (i, part) in parts.iter_mut().enumerate().take(len) {
            let rank = if i + 2 <= n {
                self.rank_or_none(&piece[i..i + 2])
            } else {
                NONE
            };
            if rank < min.0 {
                min = (rank, i);
            }
            *part = (i as u32, rank);
        }
        // The rank of part `i` merged with the two parts after it (computed before the merge
        // of `i + 1` and `i + 2` removes `i + 2`).
        let triple = |parts: &[(u32, u32)], len: usize, i: usize| -> u32 {
            if i + 3 < len {
                self.rank_or_none(&piece[parts[i].0 as usize..parts[i + 3].0 as usize])
            } else {
                NONE
            }
        };
        while min.0 != NONE {
            let i = min.1;
            if i > 0 {
                parts[i - 1].1 = triple(&parts, len, i - 1);
            }
            parts[i].1 = triple(&parts, len, i);
            parts.copy_within(i + 2..len, i + 1);
            len -= 1;
            min = (NONE, 0);
            for (i, &(_, rank)) in parts[..len - 1].iter().enumerate() {
                if rank < min.0 {
                    min = (rank, i);
                }
            }
        }
        len - 1
    }

    /// The same merges as [`Vocab::merge_short`], in the same order, in O(n log n): parts are
    /// a linked list by start, and candidate merges a min-heap of (rank, start) with stale
    /// entries skipped. A part only grows, so the pair starting at a part never gets back a
    /// rank it had: an entry is current exactly when its rank is the part's.
    fn merge_long(&self, piece: &[u8]) -> usize {
        let n = piece.len();
        // At most LONG bytes.
        let end = n as u32;
        // next[i]: start of the part after the part at i (n after the last); prev likewise.
        let mut next: Vec<u32> = (1..=end).collect();
        let mut prev: Vec<u32> = (0..end).map(|i| i.wrapping_sub(1)).collect();
        // rank[i]: rank of the part at i merged with the next part (NONE when there is none or
        // when no part starts at i any more).
        let mut rank: Vec<u32> = Vec::with_capacity(n);
        let mut heap: Vec<Reverse<u64>> = Vec::with_capacity(n);
        for i in 0..n {
            let r = if i + 2 <= n {
                self.rank_or_none(&piece[i..i + 2])
            } else {
                NONE
            };
            rank.push(r);
            if r != NONE {
                heap.push(Reverse((u64::from(r) << 32) | i as u64));
            }
        }
        let mut heap = BinaryHeap::from(heap);
        let pair = |next: &[u32], i: usize| -> u32 {
            let j = next[i];
            if j >= end {
                return NONE;
            }
            self.rank_or_none(&piece[i..next[j as usize] as usize])
        };
        let mut parts = n;
        while let Some(Reverse(entry)) = heap.pop() {
            let (r, i) = ((entry >> 32) as u32, (entry & 0xffff_ffff) as usize);
            if rank[i] != r {
                continue;
            }
            // Merge the part at i with the next one, at j.
            let j = next[i] as usize;
            let k = next[j];
            next[i] = k;
            if k < end {
                prev[k as usize] = i as u32;
            }
            rank[j] = NONE;
            parts -= 1;
            rank[i] = pair(&next, i);
            if rank[i] != NONE {
                heap.push(Reverse((u64::from(rank[i]) << 32) | i as u64));
            }
            let p = prev[i];
            if p != u32::MAX {
                let p = p as usize;
                rank[p] = pair(&next, p);
                if rank[p] != NONE {
                    heap.push(Reverse((u64::from(rank[p]) << 32) | p as u64));
                }
            }
        }
        parts
    }
}

/// An encoding: its vocabulary and its pre-tokenizer.
struct Tokenizer {
    vocab: &'static Vocab,
    /// The pattern, as alternatives whose match ends with one look-ahead character to drop
    /// (`lookahead`): tiktoken's `\s+(?!\S)` is `\s+\s` minus its last character, else `\s+`.
    regex: Regex,
    lookahead: [bool; 3],
}

macro_rules! vocab {
    ($name:literal, $vocab:ident) => {
        Vocab::new(
            include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".bytes")),
            include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".offsets")),
            include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".slots")),
            || Merges::new(&$vocab),
        )
    };
}

pub static O200K_BASE: Vocab = vocab!("o200k_base", O200K_BASE);
pub static CL100K_BASE: Vocab = vocab!("cl100k_base", CL100K_BASE);

/// tiktoken's patterns, as bpe-openai 0.3.2 rewrites them for regex-automata (no look-around):
/// the first alternative is the pattern without `\s+(?!\S)|\s+`, the other two stand for those.
const CL100K_PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+$";
const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|\s+$",
);

impl Tokenizer {
    fn new(vocab: &'static Vocab, pattern: &str) -> Tokenizer {
        let regex = Regex::new_many(&[pattern, r"\s+\s", r"\s+"])
            .expect("the tokenizer patterns are valid (tested)");
        Tokenizer {
            vocab,
            regex,
            lookahead: [false, true, false],
        }
    }

    fn count(&self, text: &str, cache: &mut Cache) -> usize {
        let mut total = 0;
        let mut last = 0;
        while last < text.len() {
            let rest = &text[last..];
            let input = Input::new(rest).anchored(Anchored::Yes);
            let mut end = match self.regex.search_with(cache, &input) {
                Some(found) => {
                    let mut end = found.end();
                    if self.lookahead[found.pattern().as_usize()]
                        && let Some(dropped) = rest[..end].chars().next_back()
                        && end - dropped.len_utf8() > 0
                    {
                        end -= dropped.len_utf8();
                    }
                    end
                }
                None => 0,
            };
            if end == 0 {
                // Every character matches some alternative; should one not, it is a piece.
                end = rest.chars().next().map_or(rest.len(), char::len_utf8);
            }
            total += self.vocab.count_piece(&rest.as_bytes()[..end]);
            last += end;
        }
        total
    }
}

static O200K: LazyLock<Tokenizer> = LazyLock::new(|| Tokenizer::new(&O200K_BASE, O200K_PATTERN));
static CL100K: LazyLock<Tokenizer> = LazyLock::new(|| Tokenizer::new(&CL100K_BASE, CL100K_PATTERN));

thread_local! {
    /// Each thread's regex search caches, one per encoding. (The regex's own shared pool
    /// lends a fast-path cache to its first thread, which other threads then contend for.)
    static CACHES: RefCell<[Option<Cache>; 2]> = const { RefCell::new([None, None]) };
}

/// Exact tiktoken count of `text` (special-token text is ordinary text).
pub fn count(encoding: Encoding, text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    let tokenizer: &Tokenizer = match encoding {
        Encoding::O200kBase => &O200K,
        Encoding::Cl100kBase => &CL100K,
    };
    let index = encoding as usize;
    let cached = CACHES.try_with(|caches| {
        let mut caches = caches.try_borrow_mut().ok()?;
        let cache = caches[index].get_or_insert_with(|| tokenizer.regex.create_cache());
        Some(tokenizer.count(text, cache))
    });
    // A thread ending (its caches gone) counts with a cache of its own.
    match cached {
        Ok(Some(count)) => count,
        _ => tokenizer.count(text, &mut tokenizer.regex.create_cache()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_whole() {
        assert_eq!(O200K_BASE.len(), 199_998);
        assert_eq!(CL100K_BASE.len(), 100_256);
        for vocab in [&O200K_BASE, &CL100K_BASE] {
            for rank in [0, 1, 255, 1000, vocab.len() as u32 - 1] {
                assert_eq!(vocab.rank(vocab.token(rank)), Some(rank));
            }
            assert_eq!(vocab.rank(b""), None);
            assert_eq!(vocab.rank(&[b'q'; 300]), None);
            assert_eq!(vocab.token(u32::MAX), b"");
        }
    }

    #[test]
    fn every_token_is_found_at_its_rank() {
        for vocab in [&O200K_BASE, &CL100K_BASE] {
            for rank in 0..vocab.len() as u32 {
                assert_eq!(vocab.rank(vocab.token(rank)), Some(rank), "rank {rank}");
            }
        }
    }

    /// Pseudo-random bytes from `alphabet`.
    fn random_piece(state: &mut u64, alphabet: &[u8], len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                alphabet[(*state % alphabet.len() as u64) as usize]
            })
            .collect()
    }

    /// BPE as written down, independent of both merges: merge the lowest-ranked adjacent pair
    /// (the leftmost on ties) until none is a token. Quadratic; for tests.
    fn merge_textbook(vocab: &Vocab, piece: &[u8]) -> usize {
        let mut starts: Vec<usize> = (0..=piece.len()).collect();
        loop {
            let lowest = (0..starts.len() - 2)
                .filter_map(|i| Some((vocab.rank(&piece[starts[i]..starts[i + 2]])?, i)))
                .min();
            match lowest {
                Some((_, i)) => {
                    starts.remove(i + 1);
                }
                None => return starts.len() - 1,
            }
        }
    }

    const ALPHABETS: [&[u8]; 6] = [
        b"ab",
        b"abc ",
        b"e\xc3\xa9 t",
        b"0123456789abcdef",
        b"abcdefghijklmnopqrstuvwxyz",
        b"  \n\t-_=",
    ];

    /// Pseudo-random pieces over small alphabets (so that many pairs are tokens), merged every
    /// way: the heap and the backtracking must find exactly the rescan's tokens.
    #[test]
    fn long_merges_equal_short_merge() {
        let mut state = 0x1234_5678_9abc_def1_u64;
        for vocab in [&O200K_BASE, &CL100K_BASE] {
            for round in 0..4_000 {
                let len = 2 + round % (SHORT - 1);
                let piece = random_piece(&mut state, ALPHABETS[round % ALPHABETS.len()], len);
                let short = vocab.merge_short(&piece);
                assert_eq!(short, vocab.merge_long(&piece), "{piece:?}");
                assert_eq!(short, vocab.merge_backtrack(&piece), "{piece:?}");
            }
        }
    }

    /// Longer pieces, and real words run together, against BPE as written down.
    #[test]
    fn long_merges_equal_textbook_merge() {
        let mut state = 0x0fed_cba9_8765_4321_u64;
        let words = "Searchthedocumentationforapageandreturnitstitle,URLandthematchingpassage;\
                     useitbeforeansweringaquestionabouttheAPI.Returnsatmost10results.\
                     Ünïcødéwørdsandemoji🙂🙂alsomergeacrossmultibytecharacters";
        for vocab in [&O200K_BASE, &CL100K_BASE] {
            let mut pieces: Vec<Vec<u8>> = (0..120)
                .map(|round| {
                    let alphabet = ALPHABETS[round % ALPHABETS.len()];
                    random_piece(&mut state, alphabet, SHORT + 1 + round * 7)
                })
                .collect();
            pieces.push(words.as_bytes().to_vec());
            for piece in pieces {
                let textbook = merge_textbook(vocab, &piece);
                assert_eq!(textbook, vocab.merge_long(&piece), "{piece:?}");
                assert_eq!(textbook, vocab.merge_backtrack(&piece), "{piece:?}");
            }
        }
    }

    /// Every token is one token when merged: the derived splits and prefixes are whole.
    #[test]
    fn every_token_merges_to_itself() {
        for vocab in [&O200K_BASE, &CL100K_BASE] {
            for rank in 0..vocab.len() as u32 {
                let token = vocab.token(rank);
                assert_eq!(vocab.merge_backtrack(token), 1, "rank {rank}: {token:?}");
            }
        }
    }

    /// Pieces cut into small parts and joined again: the same count as backtracking them
    /// whole.
    #[test]
    fn split_merges_equal_backtracking() {
        let mut state = 0x5151_2323_8989_4646_u64;
        let words =
            "Searchthedocumentationforapageandreturnitstitle,URLandthematchingpassage".repeat(40);
        for vocab in [&O200K_BASE, &CL100K_BASE] {
            let mut pieces: Vec<Vec<u8>> = (0..60)
                .map(|round| {
                    let alphabet = ALPHABETS[round % ALPHABETS.len()];
                    random_piece(&mut state, alphabet, 500 + round * 97)
                })
                .collect();
            pieces.push(words.as_bytes().to_vec());
            pieces.push(vec![b'a'; 3001]);
            pieces.push(b"ab".repeat(1500));
            for (round, piece) in pieces.iter().enumerate() {
                let whole = vocab.merge_backtrack(piece);
                for (part, overlap) in [(64, 48), (97, 32), (1000, 200)] {
                    let split = vocab.merge_split(piece, part, overlap);
                    assert_eq!(Some(whole), split, "round {round}, part {part}, {overlap}");
                }
                // Too little overlap to join may give no count, never a wrong one.
                let split = vocab.merge_split(piece, 300, 1);
                assert!(split.is_none_or(|split| split == whole), "round {round}");
            }
            // One letter, cut at 97 bytes: the second part's 8-letter tokens are out of phase
            // with the first's and never meet them; it is encoded again.
            let piece = vec![b'a'; 3001];
            let left = vocab.backtrack(&piece[..97 + 32]).unwrap();
            let right = vocab.backtrack(&piece[97..97 * 2 + 32]).unwrap();
            assert_eq!(vocab.join(&left, 0, &right, 97), None);
            assert_eq!(vocab.merge_split(&piece, 97, 32), Some(376));
        }
    }

    #[test]
    fn long_pieces_are_not_quadratic() {
        // A megabyte piece of one letter: the rescan would take ~10^11 steps.
        let text = "a".repeat(LONG);
        assert_eq!(count(Encoding::O200kBase, &text), LONG / 8);
        // One more token's worth: backtracked.
        let text = "a".repeat(LONG + 8);
        assert_eq!(count(Encoding::O200kBase, &text), LONG / 8 + 1);
    }
}

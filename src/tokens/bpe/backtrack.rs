//! Pieces over a megabyte ([`LONG`](super::LONG)): the same tokens as the heap finds, left to
//! right in linear time (`merge_backtrack`), a megabyte part on each core at a time
//! (`merge_split`), the parts joined where their tokens agree.

use rayon::prelude::*;

use super::{NONE, Vocab};

impl Vocab {
    /// The same tokens as [`Vocab::merge_long`], found left to right in linear time by the
    /// backtracking of GitHub's `bpe` crate (MIT): take the longest token at the position
    /// that is compatible with the token before it (BPE would not merge across their
    /// boundary, [`Merges::compatible`](super::merges::Merges::compatible)), else the next shorter one; when none is, step back a
    /// token. A position every candidate failed from is marked, never to be an end again:
    /// each position is given up at most once.
    pub(super) fn merge_backtrack(&self, piece: &[u8]) -> usize {
        // A piece always has an encoding and its first token no token before it, so the search
        // never steps back from the start; were it to, count the bytes.
        self.backtrack(piece)
            .map_or(piece.len(), |tokens| tokens.len())
    }

    /// The tokens of [`Vocab::merge_backtrack`] (`None`: the search stepped back from the start).
    pub(super) fn backtrack(&self, piece: &[u8]) -> Option<Vec<u32>> {
        let merges = &*self.merges;
        let n = piece.len();
        // Bit p: a token may still end at p.
        let mut open = vec![u64::MAX; (n + 1).div_ceil(64)];
        let is_open = |open: &[u64], p: usize| open[p / 64] & (1 << (p % 64)) != 0;
        let mut tokens: Vec<u32> = Vec::with_capacity(n / 3);
        let mut pos = 0;
        let mut next = merges.longest_token(self, piece);
        while pos < n {
            let mut token = next;
            let last = tokens.last().copied();
            loop {
                let end = pos + self.token(token).len();
                if is_open(&open, end) && last.is_none_or(|last| merges.compatible(last, token)) {
                    tokens.push(token);
                    pos = end;
                    if pos < n {
                        next = merges.longest_token(self, &piece[pos..]);
                    }
                    break;
                }
                let shorter = merges.shorter[token as usize];
                if shorter != NONE {
                    token = shorter;
                    continue;
                }
                open[pos / 64] &= !(1 << (pos % 64));
                let last = tokens.pop()?;
                pos -= self.token(last).len();
                next = last;
                break;
            }
        }
        Some(tokens)
    }

    /// The count of [`Vocab::merge_backtrack`], on all cores: the piece is cut into `part`-byte
    /// parts, each backtracked (with `overlap` bytes of the next) on a thread of its own, and
    /// the encodings of two neighbouring parts are joined where both have a token boundary and
    /// the tokens either side of it are compatible. Every pair of neighbouring tokens is then
    /// compatible, which makes the joined tokens the piece's encoding (the `bpe` crate's
    /// theorem that its backtracking rests on). A part whose encoding never meets the one
    /// before it (a periodic text, encoded from a start out of phase) is encoded again from a
    /// token boundary of that one. `None`: not even then; backtrack the piece whole.
    pub(super) fn merge_split(&self, piece: &[u8], part: usize, overlap: usize) -> Option<usize> {
        let n = piece.len();
        let end = |start: usize| (start + part + overlap).min(n);
        let starts: Vec<usize> = (0..n).step_by(part).collect();
        let parts: Option<Vec<Vec<u32>>> = starts
            .par_iter()
            .map(|&start| self.backtrack(&piece[start..end(start)]))
            .collect();
        let mut parts = parts?;
        // Where the current part's tokens are taken from: its token `first`, which starts at
        // byte `from`.
        let (mut first, mut from) = (0, 0);
        let mut total = 0;
        for index in 0..parts.len() {
            let tokens = &parts[index][first..];
            let Some(next) = parts.get(index + 1) else {
                total += tokens.len();
                break;
            };
            let next_start = starts[index + 1];
            let (taken, next_first, joint) = match self.join(tokens, from, next, next_start) {
                Some(joined) => joined,
                None => {
                    let (taken, joint) = self.boundary(tokens, from, next_start)?;
                    let again = self.backtrack(&piece[joint..end(next_start)])?;
                    if !self.merges.compatible(tokens[taken - 1], *again.first()?) {
                        return None;
                    }
                    parts[index + 1] = again;
                    (taken, 0, joint)
                }
            };
            total += taken;
            (first, from) = (next_first, joint);
        }
        Some(total)
    }

    /// The first token boundary of the encoding `tokens` (starting at byte `start`) at or
    /// past byte `at`, after at least one token: how many tokens come before it, and the byte.
    fn boundary(&self, tokens: &[u32], start: usize, at: usize) -> Option<(usize, usize)> {
        let mut end = start;
        for (index, &token) in tokens.iter().enumerate() {
            end += self.token(token).len();
            if end >= at {
                return Some((index + 1, end));
            }
        }
        None
    }

    /// Where the encoding `left` (starting at byte `left_start`) can hand over to `right`
    /// (starting at `right_start`, within `left`): the first byte at which a token of each
    /// ends and starts, the two compatible. Returns how many of `left`'s tokens come before it,
    /// the index of `right`'s token that starts there, and the byte.
    pub(super) fn join(
        &self,
        left: &[u32],
        left_start: usize,
        right: &[u32],
        right_start: usize,
    ) -> Option<(usize, usize, usize)> {
        let merges = &*self.merges;
        let (mut l, mut left_end) = (0, left_start);
        let (mut r, mut right_at) = (0, right_start);
        // Advance `left` to its first token ending at or past `right_start`.
        while l < left.len() {
            left_end += self.token(left[l]).len();
            if left_end >= right_start {
                break;
            }
            l += 1;
        }
        while l < left.len() && r < right.len() {
            if left_end == right_at {
                if merges.compatible(left[l], right[r]) {
                    return Some((l + 1, r, left_end));
                }
                l += 1;
                left_end += left.get(l).map_or(0, |&token| self.token(token).len());
            } else if left_end < right_at {
                l += 1;
                left_end += left.get(l).map_or(0, |&token| self.token(token).len());
            } else {
                right_at += self.token(right[r]).len();
                r += 1;
            }
        }
        None
    }
}

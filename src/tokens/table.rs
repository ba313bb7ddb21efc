//! The layout of a vocabulary table, shared by build.rs (which writes the tables into `OUT_DIR`)
//! and the tokenizer (which reads them in place from the binary): the hash of a token's bytes
//! and how a slot of the open-addressing table packs a rank with a few bits of that hash.
//!
//! A table is three little-endian arrays: `bytes` (every token's bytes in rank order), `offsets`
//! (`u32`, token `r` is `bytes[offsets[r]..offsets[r + 1]]`) and `slots` (`u32`, a power of two
//! of them, at most half full, linear probing from `hash & (len - 1)`).

/// Bits of a slot that hold the rank (both vocabularies have fewer than 2^18 tokens).
pub const RANK_BITS: u32 = 18;
pub const RANK_MASK: u32 = (1 << RANK_BITS) - 1;
/// An empty slot; its rank part (2^18 - 1) is never a real rank.
pub const EMPTY: u32 = u32::MAX;

const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// A 64-bit hash of a token's bytes (8 bytes at a time; not for untrusted-keyed use, which is
/// fine for a fixed table).
#[inline]
pub fn hash(bytes: &[u8]) -> u64 {
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(word))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 29)
}

/// The hash bits a slot keeps next to the rank, so that most misses compare no bytes.
#[inline]
pub fn tag(hash: u64) -> u32 {
    ((hash >> 50) as u32) << RANK_BITS
}

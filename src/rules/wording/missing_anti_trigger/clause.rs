//! The clause around a phrase: where a sentence of a description begins and ends, past the
//! dots of names, versions and abbreviations and the wraps of a line.

use std::ops::Range;

/// The clause around `at`: between the nearest sentence or clause marks (`.`, `;`, `:`, `!`,
/// `?`, a line break, a dash) on either side.
pub(super) fn clause_around(value: &str, at: &Range<usize>) -> Range<usize> {
    let is_mark = |i: usize, c: char| {
        ".;:!?\n—–".contains(c) && !is_inner_dot(value, i, c) && !is_wrap(value, i, c)
    };
    let start = value[..at.start]
        .char_indices()
        .rev()
        .find(|&(i, c)| is_mark(i, c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = value[at.end..]
        .char_indices()
        .find(|&(i, c)| is_mark(at.end + i, c))
        .map_or(value.len(), |(i, _)| at.end + i);
    start..end
}

/// A line break that wraps a sentence (`For large files, use\nread_chunk.`): a word or a comma
/// before it and a lowercase word after it, so no new line, list item or heading starts there.
fn is_wrap(value: &str, at: usize, c: char) -> bool {
    if c != '\n' {
        return false;
    }
    let before = value[..at]
        .trim_end_matches([' ', '\t', '\r'])
        .chars()
        .next_back();
    let after = value[at + 1..]
        .trim_start_matches([' ', '\t'])
        .chars()
        .next();
    before.is_some_and(|c| c.is_alphanumeric() || c == ',' || c == '`')
        && after.is_some_and(|c| c.is_lowercase() || c == '`' || c == '_')
}

/// A `.` inside a word (`requests.get`, `e.g.`), which ends no clause.
fn is_inner_dot(value: &str, at: usize, c: char) -> bool {
    c == '.'
        && value[at + 1..]
            .chars()
            .next()
            .is_some_and(char::is_alphanumeric)
}

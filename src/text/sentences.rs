//! Splitting text into sentences: after `.`, `!`, `?` followed by white space (not after an
//! abbreviation such as `e.g.`), and at line breaks; a list item's bullet is not part of its
//! sentence.

use std::ops::Range;

/// The byte ranges of a text's sentences, bullets and surrounding white space left out; a
/// piece without a letter or digit is none.
pub fn sentence_ranges(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let bytes = line.as_bytes();
        let mut start = 0;
        for (index, &byte) in bytes.iter().enumerate() {
            let end = matches!(byte, b'.' | b'!' | b'?')
                && bytes.get(index + 1).is_some_and(u8::is_ascii_whitespace)
                && !abbreviation(&line[..index]);
            if end {
                push(text, line_start + start..line_start + index + 1, &mut out);
                start = index + 1;
            }
        }
        push(text, line_start + start..line_start + line.len(), &mut out);
        line_start += line.len();
    }
    out
}

/// Whether the text before a `.` ends with an abbreviation (`e.g`, `i.e`, `etc`, `vs`).
fn abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    matches!(
        word.as_str(),
        "e.g" | "i.e" | "etc" | "vs" | "cf" | "approx"
    )
}

fn push(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let piece = &text[range.clone()];
    let bare =
        piece.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '*' | '•'));
    let start = range.start + (piece.len() - bare.len());
    let end = start + bare.trim_end().len();
    if text[start..end].chars().any(char::is_alphanumeric) {
        out.push(start..end);
    }
}

//! A text folded for matching (invisible characters dropped, white space folded, comment
//! markers and emphasis removed, quotes straightened, lower case), each byte remembering the
//! source character it came from.

use std::collections::HashMap;
use std::ops::Range;

use crate::text::invisible;

/// A text folded for matching, with the source of each of its bytes.
pub(super) struct Folded {
    pub(super) text: String,
    /// For each byte of `text`, where the source character it came from starts (4 bytes per
    /// byte rather than a 16-byte range: a 20 MB description must stay cheap).
    pub(super) source: Vec<u32>,
    /// Where the source ends, for the bytes that stand for more than one source character
    /// (the space of a comment marker, `<!--`); any other byte's source is one character.
    wide: HashMap<usize, usize>,
}

impl Folded {
    /// `None` for a text of 4 GiB or more (far past any file size cap), whose offsets a `u32`
    /// cannot hold.
    pub(super) fn new(original: &str) -> Option<Self> {
        u32::try_from(original.len()).ok()?;
        let mut text = String::with_capacity(original.len());
        let mut source = Vec::with_capacity(original.len());
        let mut wide = HashMap::new();
        let mut chars = original.char_indices().peekable();
        // `at` fits in a u32: the whole text does (checked above).
        let push = |text: &mut String, source: &mut Vec<u32>, c: char, at: usize| {
            let before = text.len();
            text.push(c);
            source.extend(std::iter::repeat_n(at as u32, text.len() - before));
        };
        while let Some((at, c)) = chars.next() {
            let end = at + c.len_utf8();
            let rest = &original[at..];
            // A run of ASCII that is neither space nor a marker's first character nor `*` folds
            // to itself lower-cased, a byte each: copied whole rather than a character at a time.
            let run = rest
                .bytes()
                .take_while(|&byte| byte.is_ascii_graphic() && !matches!(byte, b'<' | b'-' | b'*'))
                .count();
            if run > 1 {
                let start = text.len();
                text.push_str(&rest[..run]);
                text[start..].make_ascii_lowercase();
                // `at` + `run` fits in a u32: the whole text does.
                source.extend(at as u32..(at + run) as u32);
                chars.nth(run - 2);
                continue;
            }
            // An HTML comment's markers are space: its text is read like any other.
            let marker = if rest.starts_with("<!--") {
                4
            } else if rest.starts_with("-->") {
                3
            } else {
                0
            };
            if marker > 0 {
                let mut last = end;
                for _ in 1..marker {
                    if let Some((index, c)) = chars.next() {
                        last = index + c.len_utf8();
                    }
                }
                if !text.ends_with(' ') {
                    wide.insert(text.len(), last);
                    push(&mut text, &mut source, ' ', at);
                }
                continue;
            }
            if invisible::is_invisible(c) || c == '*' {
                continue;
            }
            if c.is_whitespace() {
                if !text.ends_with(' ') && !text.is_empty() {
                    push(&mut text, &mut source, ' ', at);
                }
                continue;
            }
            let c = match c {
                '\u{2018}' | '\u{2019}' | '\u{02BC}' => '\'',
                '\u{201C}' | '\u{201D}' => '"',
                _ => c,
            };
            if c.is_ascii() {
                push(&mut text, &mut source, c.to_ascii_lowercase(), at);
            } else {
                for lower in c.to_lowercase() {
                    push(&mut text, &mut source, lower, at);
                }
            }
        }
        Some(Folded { text, source, wide })
    }

    /// The source range of `range` of the folded text.
    pub(super) fn original(&self, original: &str, range: &Range<usize>) -> Range<usize> {
        let start = self.source.get(range.start).map_or(0, |&at| at as usize);
        let end = range.end.checked_sub(1).map_or(start, |last| {
            if let Some(&end) = self.wide.get(&last) {
                return end;
            }
            self.source.get(last).map_or(start, |&at| {
                let at = at as usize;
                at + original[at..].chars().next().map_or(0, char::len_utf8)
            })
        });
        start..end.max(start)
    }
}

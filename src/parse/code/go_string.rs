//! Go string literals as the compiler reads them: interpreted `"…"` and raw `` `…` `` literals,
//! alone or joined with `+`, decoded with the segments that map each decoded byte back to the
//! source (so a finding underlines the words in the `.go` file).

use super::super::Segment;
use super::value::Decoded;

/// The value of `raw` (one literal, or literals joined by `+` with whitespace, comments and
/// parentheses between) starting at byte `base` of the file, and its segments. `None` for
/// anything else: a name, a call, an escape that is not a whole character, an unclosed literal.
pub(crate) fn decode(raw: &str, base: usize) -> Option<(String, Vec<Segment>)> {
    let bytes = raw.as_bytes();
    let mut out = Decoded::default();
    let mut pos = 0;
    let mut literals = 0;
    loop {
        // Go joins literals as JavaScript does: `+`, spaces, comments, parentheses.
        pos = super::js_string::skip_joins(raw, pos)?;
        if pos == bytes.len() {
            break;
        }
        pos = match bytes[pos] {
            b'"' => interpreted(raw, pos, base, &mut out)?,
            b'`' => raw_literal(raw, pos, base, &mut out)?,
            _ => return None,
        };
        literals += 1;
    }
    (literals > 0).then_some((out.value, out.segments))
}

/// The segments of `raw` alone (for [`super::super::Node::source_range`]).
pub(crate) fn segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    decode(raw, base).map(|(_, segments)| segments)
}

/// A raw literal opening at `start`: its text as written, less its carriage returns (which
/// Go drops). Returns where it ends.
fn raw_literal(raw: &str, start: usize, base: usize, out: &mut Decoded) -> Option<usize> {
    let close = start + 1 + raw[start + 1..].find('`')?;
    let mut run = start + 1;
    for (offset, _) in raw[start + 1..close].match_indices('\r') {
        let at = start + 1 + offset;
        out.verbatim(raw, base, run, at);
        out.escaped("", base + at..base + at + 1);
        run = at + 1;
    }
    out.verbatim(raw, base, run, close);
    Some(close + 1)
}

/// An interpreted literal opening at `start`, decoded onto `out`. Returns where it ends.
fn interpreted(raw: &str, start: usize, base: usize, out: &mut Decoded) -> Option<usize> {
    let bytes = raw.as_bytes();
    let mut pos = start + 1;
    let mut run = pos;
    loop {
        match *bytes.get(pos)? {
            b'"' => {
                out.verbatim(raw, base, run, pos);
                return Some(pos + 1);
            }
            b'\n' => return None,
            b'\\' => {
                out.verbatim(raw, base, run, pos);
                let (c, end) = escape(raw, pos)?;
                out.escaped(c.encode_utf8(&mut [0; 4]), base + pos..base + end);
                pos = end;
                run = pos;
            }
            _ => pos += 1,
        }
    }
}

/// The character of the escape at `pos` (a backslash) and where it ends. A byte escape
/// (`\xhh`, `\ooo`) above ASCII is a byte of a character, not one: not read.
fn escape(raw: &str, pos: usize) -> Option<(char, usize)> {
    let next = *raw.as_bytes().get(pos + 1)?;
    let code = |digits: usize, radix: u32| -> Option<(char, usize)> {
        let text = raw.get(pos + 2..pos + 2 + digits)?;
        if !text.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        Some((
            char::from_u32(u32::from_str_radix(text, radix).ok()?)?,
            pos + 2 + digits,
        ))
    };
    let simple = |c: char| Some((c, pos + 2));
    match next {
        b'a' => simple('\u{7}'),
        b'b' => simple('\u{8}'),
        b'f' => simple('\u{c}'),
        b'n' => simple('\n'),
        b'r' => simple('\r'),
        b't' => simple('\t'),
        b'v' => simple('\u{b}'),
        b'\\' => simple('\\'),
        b'"' => simple('"'),
        b'x' => code(2, 16).filter(|(c, _)| c.is_ascii()),
        b'u' => code(4, 16),
        b'U' => code(8, 16),
        // `\ooo`: exactly three octal digits.
        b'0'..=b'7' => {
            let text = raw.get(pos + 1..pos + 4)?;
            if !text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                return None;
            }
            let c = char::from_u32(u32::from_str_radix(text, 8).ok()?)?;
            c.is_ascii().then_some((c, pos + 4))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::decode;

    fn value(raw: &str) -> Option<String> {
        decode(raw, 0).map(|(value, _)| value)
    }

    #[test]
    fn literals_decode_as_go_reads_them() {
        assert_eq!(value(r#""a\"b\tc""#).as_deref(), Some("a\"b\tc"));
        assert_eq!(
            value(r#""\x41\u0042\U00000043\103\a""#).as_deref(),
            Some("ABCC\u{7}")
        );
        assert_eq!(value(r#""\u00e9""#).as_deref(), Some("é"));
        // A raw literal keeps its backslashes and drops its carriage returns.
        assert_eq!(value("`a\\n\r\nb`").as_deref(), Some("a\\n\nb"));
        assert_eq!(
            value("\"one \" +\n  // why\n  `two ` + /* x */ \"three\"").as_deref(),
            Some("one two three")
        );
        // Not read: a byte of a character, an unknown escape, a name, a rune, unclosed.
        for raw in [
            r#""\xe9""#,
            r#""\q""#,
            r#""a" + b"#,
            "'a'",
            "\"a",
            "\"a\nb\"",
        ] {
            assert_eq!(value(raw), None, "{raw}");
        }
    }

    #[test]
    fn segments_map_the_decoded_words_to_their_source() {
        let raw = "\"Say \\\"hi\\\" \" +\n    `to\r\nthem`";
        let (value, segments) = decode(raw, 100).unwrap();
        assert_eq!(value, "Say \"hi\" to\nthem");
        let at = |offset: usize| {
            segments
                .iter()
                .find(|s| s.decoded.contains(&offset) && s.verbatim)
                .map(|s| s.source.start - 100 + (offset - s.decoded.start))
        };
        let them = value.find("them").unwrap();
        assert_eq!(&raw[at(them).unwrap()..][..4], "them");
        let hi = value.find("hi").unwrap();
        assert_eq!(&raw[at(hi).unwrap()..][..2], "hi");
    }
}

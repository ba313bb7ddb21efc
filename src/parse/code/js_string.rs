//! JavaScript string literals as the engine reads them: `'…'`, `"…"` and template literals
//! without substitutions, alone or joined with `+`, decoded with the segments that map each
//! decoded byte back to the source (so a finding underlines the words in the `.ts` file).

use super::super::Segment;
use super::value::Decoded;

/// The value of `raw` (one literal, or literals joined by `+` with whitespace, comments and
/// parentheses between) starting at byte `base` of the file, and its segments. `None` for
/// anything else: a substitution, a legacy octal escape, a lone surrogate, an unclosed literal.
pub(crate) fn decode(raw: &str, base: usize) -> Option<(String, Vec<Segment>)> {
    let bytes = raw.as_bytes();
    let mut out = Decoded::default();
    let mut pos = 0;
    let mut literals = 0;
    loop {
        pos = skip_joins(raw, pos)?;
        if pos == bytes.len() {
            break;
        }
        let quote = bytes[pos];
        if !matches!(quote, b'"' | b'\'' | b'`') {
            return None;
        }
        pos = literal(raw, pos, base, &mut out)?;
        literals += 1;
    }
    (literals > 0).then_some((out.value, out.segments))
}

/// The segments of `raw` alone (for [`super::super::Node::source_range`]).
pub(crate) fn segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    decode(raw, base).map(|(_, segments)| segments)
}

/// Past whitespace, comments, parentheses and `+` signs from `pos`; `None` in an unclosed
/// comment.
pub(super) fn skip_joins(raw: &str, mut pos: usize) -> Option<usize> {
    let bytes = raw.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b'+' | b'(' | b')' => pos += 1,
            b if b.is_ascii_whitespace() => pos += 1,
            b'/' if bytes.get(pos + 1) == Some(&b'/') => {
                pos = raw[pos..]
                    .find('\n')
                    .map_or(bytes.len(), |end| pos + end + 1);
            }
            b'/' if bytes.get(pos + 1) == Some(&b'*') => {
                pos += 2 + raw[pos + 2..].find("*/")? + 2;
            }
            _ => break,
        }
    }
    Some(pos)
}

/// Decodes the literal opening at `start` onto `out`; returns where it
/// ends (past the closing quote).
fn literal(raw: &str, start: usize, base: usize, out: &mut Decoded) -> Option<usize> {
    let bytes = raw.as_bytes();
    let quote = bytes[start];
    let template = quote == b'`';
    let mut pos = start + 1;
    let mut run = pos;
    loop {
        let byte = *bytes.get(pos)?;
        match byte {
            _ if byte == quote => {
                out.verbatim(raw, base, run, pos);
                return Some(pos + 1);
            }
            b'\n' | b'\r' if !template => return None,
            b'$' if template && bytes.get(pos + 1) == Some(&b'{') => return None,
            // A template's line ends read as `\n` whatever the file's are.
            b'\r' => {
                out.verbatim(raw, base, run, pos);
                let end = pos
                    + if bytes.get(pos + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                out.escaped("\n", base + pos..base + end);
                pos = end;
                run = pos;
            }
            b'\\' => {
                out.verbatim(raw, base, run, pos);
                let (text, end) = escape(raw, pos)?;
                out.escaped(&text, base + pos..base + end);
                pos = end;
                run = pos;
            }
            _ => pos += 1,
        }
    }
}

/// The text of the escape at `pos` (a backslash) and where it ends.
fn escape(raw: &str, pos: usize) -> Option<(String, usize)> {
    let bytes = raw.as_bytes();
    let next = *bytes.get(pos + 1)?;
    let simple = |text: &str| Some((text.to_string(), pos + 2));
    match next {
        b'n' => simple("\n"),
        b't' => simple("\t"),
        b'r' => simple("\r"),
        b'b' => simple("\u{8}"),
        b'f' => simple("\u{c}"),
        b'v' => simple("\u{b}"),
        b'0' if !bytes.get(pos + 2).is_some_and(u8::is_ascii_digit) => simple("\0"),
        // Legacy octal escapes: not in strict code or templates; not guessed.
        b'0'..=b'9' => None,
        // A line continuation: nothing.
        b'\n' => Some((String::new(), pos + 2)),
        b'\r' => {
            let end = pos
                + if bytes.get(pos + 2) == Some(&b'\n') {
                    3
                } else {
                    2
                };
            Some((String::new(), end))
        }
        b'x' => {
            let hex = raw.get(pos + 2..pos + 4)?;
            let code = u32::from_str_radix(hex, 16).ok()?;
            Some((char::from_u32(code)?.to_string(), pos + 4))
        }
        b'u' => {
            let (code, end) = unicode(raw, pos)?;
            if (0xD800..0xDC00).contains(&code) {
                // A high surrogate: only with the low one after it.
                let (low, low_end) = (raw.as_bytes().get(end) == Some(&b'\\'))
                    .then(|| unicode(raw, end))
                    .flatten()?;
                if !(0xDC00..0xE000).contains(&low) {
                    return None;
                }
                let code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                return Some((char::from_u32(code)?.to_string(), low_end));
            }
            Some((char::from_u32(code)?.to_string(), end))
        }
        _ => {
            // Any other character stands for itself (`\'`, `\"`, `\\`, `` \` ``, `\$`, ...).
            let c = raw[pos + 1..].chars().next()?;
            let end = pos + 1 + c.len_utf8();
            match c {
                '\u{2028}' | '\u{2029}' => Some((String::new(), end)),
                _ => Some((c.to_string(), end)),
            }
        }
    }
}

/// The code point of `\uXXXX` or `\u{X…}` at `pos`, and where it ends.
fn unicode(raw: &str, pos: usize) -> Option<(u32, usize)> {
    if raw.as_bytes().get(pos + 2) == Some(&b'{') {
        let close = pos + 3 + raw.get(pos + 3..)?.find('}')?;
        let hex = &raw[pos + 3..close];
        if hex.is_empty() || hex.len() > 6 {
            return None;
        }
        return Some((u32::from_str_radix(hex, 16).ok()?, close + 1));
    }
    let hex = raw.get(pos + 2..pos + 6)?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some((u32::from_str_radix(hex, 16).ok()?, pos + 6))
}

#[cfg(test)]
mod tests {
    use super::decode;

    fn value(raw: &str) -> Option<String> {
        decode(raw, 0).map(|(value, _)| value)
    }

    #[test]
    fn literals_decode_as_javascript_reads_them() {
        assert_eq!(value(r#""a\"b""#).as_deref(), Some("a\"b"));
        assert_eq!(value(r"'it\'s'").as_deref(), Some("it's"));
        assert_eq!(value(r#""\x41\u0042\u{43}\n""#).as_deref(), Some("ABC\n"));
        assert_eq!(value(r#""\uD83D\uDE00""#).as_deref(), Some("😀"));
        assert_eq!(value("`a\r\nb`").as_deref(), Some("a\nb"));
        assert_eq!(value("\"a\\\nb\"").as_deref(), Some("ab"));
        assert_eq!(
            value("\"one \" +\n  // why\n  'two ' + /* x */ `three`").as_deref(),
            Some("one two three")
        );
        // Not read: a substitution, an octal escape, a lone surrogate, an identifier.
        for raw in ["`a ${b}`", r#""\101""#, r#""\uD83D""#, r#""a" + b"#, "\"a"] {
            assert_eq!(value(raw), None, "{raw}");
        }
    }

    #[test]
    fn segments_map_the_decoded_words_to_their_source() {
        let raw = "\"Say \\\"hi\\\" \" +\n    \"to them\"";
        let (value, segments) = decode(raw, 100).unwrap();
        assert_eq!(value, "Say \"hi\" to them");
        let at = |offset: usize| {
            segments
                .iter()
                .find(|s| s.decoded.contains(&offset) && s.verbatim)
                .map(|s| 100 + (s.source.start - 100) + (offset - s.decoded.start))
        };
        let them = value.find("them").unwrap();
        assert_eq!(&raw[at(them).unwrap() - 100..][..4], "them");
        let hi = value.find("hi").unwrap();
        assert_eq!(&raw[at(hi).unwrap() - 100..][..2], "hi");
    }
}

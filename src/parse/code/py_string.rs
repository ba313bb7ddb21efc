//! Python string literals as the interpreter reads them: `'…'`, `"…"`, `'''…'''`, `"""…"""`,
//! with the `r`, `u` and `f` prefixes (an f-string's fields each a name whose value is read),
//! alone or adjacent (implicit concatenation), decoded with the segments that map each decoded
//! byte back to the source.

use std::ops::Range;

use super::super::Segment;
use super::value::Decoded;

/// The value of `raw` (one literal, or adjacent literals with whitespace, comments, parentheses
/// and line continuations between) starting at byte `base` of the file, and its segments. `None`
/// for anything else: bytes, an f-string with a replacement field, a `\N{…}` escape, an unclosed
/// literal.
pub(crate) fn decode(raw: &str, base: usize) -> Option<(String, Vec<Segment>)> {
    decode_with(raw, base, &mut |_| None)
}

/// As [`decode`], with each replacement field of an f-string that names a value
/// (`{DEFAULT_LIMIT}`, `{Limits.MAX}`, without conversion or format spec) replaced by what
/// `field` gives for the name; `None` from it, or any other field, and nothing is decoded.
pub(crate) fn decode_with(
    raw: &str,
    base: usize,
    field: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<(String, Vec<Segment>)> {
    let bytes = raw.as_bytes();
    let mut out = Decoded::default();
    let mut pos = 0;
    let mut literals = 0;
    loop {
        pos = skip_joins(raw, pos);
        if pos == bytes.len() {
            break;
        }
        pos = literal(raw, pos, base, &mut out, field)?;
        literals += 1;
    }
    (literals > 0).then_some((out.value, out.segments))
}

/// The segments of `raw` alone (for [`super::super::Node::source_range`]).
pub(crate) fn segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    decode(raw, base).map(|(_, segments)| segments)
}

/// A docstring (`raw`, one literal) as `inspect.cleandoc` leaves it, which is how FastMCP
/// describes a tool, with its segments: the first line's leading whitespace and the other lines'
/// common indentation dropped, and blank lines at either end. `None` for a docstring with tabs
/// (cleandoc expands them), or one that does not decode.
pub(crate) fn cleaned(raw: &str, base: usize) -> Option<(String, Vec<Segment>)> {
    let (value, segments) = decode(raw, base)?;
    if value.contains('\t') {
        return None;
    }
    let mut lines = Vec::new();
    let mut start = 0;
    for line in value.split('\n') {
        lines.push(start..start + line.len());
        start += line.len() + 1;
    }
    let indent = |line: &Range<usize>| {
        value[line.clone()]
            .chars()
            .take_while(|c| c.is_whitespace())
            .count()
    };
    let margin = lines
        .iter()
        .skip(1)
        .filter(|line| value[(*line).clone()].chars().any(|c| !c.is_whitespace()))
        .map(indent)
        .min();
    let mut kept: Vec<Range<usize>> = lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            let skip = if index == 0 {
                indent(line)
            } else {
                margin.unwrap_or(0)
            };
            let text = &value[line.clone()];
            let offset = text
                .char_indices()
                .nth(skip)
                .map_or(text.len(), |(offset, _)| offset);
            line.start + offset..line.end
        })
        .collect();
    while kept.last().is_some_and(|line| line.is_empty()) {
        kept.pop();
    }
    let leading = kept.iter().take_while(|line| line.is_empty()).count();
    let mut out = Decoded::default();
    // The pieces come in order: each starts its search of the segments where the last one was.
    let mut next = 0;
    for (index, line) in kept[leading..].iter().enumerate() {
        if index > 0 {
            // The line end before this line, as it is in the decoded docstring.
            let end = kept[leading + index - 1].end;
            let newline = value[end..].find('\n')? + end;
            piece(&value, &segments, newline..newline + 1, &mut next, &mut out)?;
        }
        piece(&value, &segments, line.clone(), &mut next, &mut out)?;
    }
    Some((out.value, out.segments))
}

/// Appends `value[range]` to `out` with the part of `segments` (from `next` on) that maps it;
/// `None` where the range cuts an escape, which maps only as a whole.
fn piece(
    value: &str,
    segments: &[Segment],
    range: Range<usize>,
    next: &mut usize,
    out: &mut Decoded,
) -> Option<()> {
    while segments
        .get(*next)
        .is_some_and(|s| s.decoded.end <= range.start)
    {
        *next += 1;
    }
    for segment in &segments[*next..] {
        if segment.decoded.start >= range.end {
            break;
        }
        let from = segment.decoded.start.max(range.start);
        let to = segment.decoded.end.min(range.end);
        if from >= to {
            continue;
        }
        if segment.verbatim {
            let offset = segment.source.start - segment.decoded.start;
            out.verbatim_at(&value[from..to], from + offset);
        } else if from == segment.decoded.start && to == segment.decoded.end {
            out.escaped(&value[from..to], segment.source.clone());
        } else {
            return None;
        }
    }
    Some(())
}

/// Past whitespace, comments, parentheses and line continuations from `pos`.
fn skip_joins(raw: &str, mut pos: usize) -> usize {
    let bytes = raw.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b'(' | b')' | b'\\' => pos += 1,
            b if b.is_ascii_whitespace() => pos += 1,
            b'#' => {
                pos = raw[pos..]
                    .find('\n')
                    .map_or(bytes.len(), |end| pos + end + 1)
            }
            _ => break,
        }
    }
    pos
}

/// An f-string field `'SEP'.join(NAME)`: the separator (written without escapes) and the name.
pub(super) fn joined(field: &str) -> Option<(&str, &str)> {
    let quote = field.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let (separator, rest) = field[1..].split_once(quote)?;
    let name = rest.strip_prefix(".join(")?.strip_suffix(')')?.trim();
    let simple = |c: char| c.is_alphanumeric() || c == '_';
    (!separator.contains('\\') && !name.is_empty() && name.chars().all(simple))
        .then_some((separator, name))
}

/// Decodes the literal (prefix included) starting at `start` onto `out`, an f-string's fields by
/// `field`; returns where it ends (past the closing quote).
fn literal(
    raw: &str,
    start: usize,
    base: usize,
    out: &mut Decoded,
    field: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<usize> {
    let bytes = raw.as_bytes();
    let mut pos = start;
    let (mut is_raw, mut is_format) = (false, false);
    while let Some(&b) = bytes.get(pos) {
        match b.to_ascii_lowercase() {
            b'r' => is_raw = true,
            b'f' => is_format = true,
            b'u' => {}
            b'"' | b'\'' => break,
            // `b''` is bytes, `t''` a template: neither is a `str`.
            _ => return None,
        }
        pos += 1;
    }
    let quote = *bytes.get(pos)?;
    let triple = bytes.get(pos..pos + 3) == Some(&[quote; 3][..]);
    let delimiter = if triple { 3 } else { 1 };
    pos += delimiter;
    let mut run = pos;
    loop {
        let &b = bytes.get(pos)?;
        if b == quote && (!triple || bytes.get(pos..pos + 3) == Some(&[quote; 3][..])) {
            out.verbatim(raw, base, run, pos);
            return Some(pos + delimiter);
        }
        match b {
            b'\n' if !triple => return None,
            // The interpreter reads source with universal newlines.
            b'\r' => {
                out.verbatim(raw, base, run, pos);
                let end = if bytes.get(pos + 1) == Some(&b'\n') {
                    pos + 2
                } else {
                    pos + 1
                };
                out.escaped("\n", base + pos..base + end);
                pos = end;
                run = pos;
            }
            b'{' | b'}' if is_format => {
                out.verbatim(raw, base, run, pos);
                // `{{` and `}}` stand for one brace; a lone `{` opens a replacement field.
                if bytes.get(pos + 1) == Some(&b) {
                    out.escaped(&raw[pos..pos + 1], base + pos..base + pos + 2);
                    pos += 2;
                } else if b == b'{' {
                    let end = pos + raw[pos..].find('}')?;
                    let name = raw[pos + 1..end].trim();
                    let is_name = !name.is_empty()
                        && name
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
                    if !is_name && joined(name).is_none() {
                        return None;
                    }
                    out.escaped(&field(name)?, base + pos..base + end + 1);
                    pos = end + 1;
                } else {
                    return None;
                }
                run = pos;
            }
            b'\\' if is_raw => {
                // A raw string keeps the backslash, and the quote after it does not close it.
                pos += if bytes.get(pos + 1).is_some() { 2 } else { 1 };
            }
            b'\\' => {
                out.verbatim(raw, base, run, pos);
                let (text, end) = unescape(raw, pos)?;
                out.escaped(&text, base + pos..base + end);
                pos = end;
                run = pos;
            }
            _ => pos += 1,
        }
    }
}

/// The escape at `pos` (a backslash): what it stands for and where it ends.
fn unescape(raw: &str, pos: usize) -> Option<(String, usize)> {
    let bytes = raw.as_bytes();
    let next = *bytes.get(pos + 1)?;
    let simple = |c: char| Some((c.to_string(), pos + 2));
    match next {
        b'\n' => Some((String::new(), pos + 2)),
        b'\r' if bytes.get(pos + 2) == Some(&b'\n') => Some((String::new(), pos + 3)),
        b'\r' => Some((String::new(), pos + 2)),
        b'\\' => simple('\\'),
        b'\'' => simple('\''),
        b'"' => simple('"'),
        b'a' => simple('\u{7}'),
        b'b' => simple('\u{8}'),
        b'f' => simple('\u{c}'),
        b'n' => simple('\n'),
        b'r' => simple('\r'),
        b't' => simple('\t'),
        b'v' => simple('\u{b}'),
        b'0'..=b'7' => {
            let digits = bytes[pos + 1..]
                .iter()
                .take(3)
                .take_while(|b| (b'0'..=b'7').contains(*b))
                .count();
            let code = u32::from_str_radix(&raw[pos + 1..pos + 1 + digits], 8).ok()?;
            Some((char::from_u32(code)?.to_string(), pos + 1 + digits))
        }
        b'x' | b'u' | b'U' => {
            let digits = match next {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let hex = raw.get(pos + 2..pos + 2 + digits)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            let code = u32::from_str_radix(hex, 16).ok()?;
            Some((char::from_u32(code)?.to_string(), pos + 2 + digits))
        }
        // `\N{…}` names a character from the Unicode database, which toolcheck does not carry.
        b'N' => None,
        // Any other escape is kept as written, backslash included.
        _ => {
            let c = raw[pos + 1..].chars().next()?;
            Some((format!("\\{c}"), pos + 1 + c.len_utf8()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(raw: &str) -> Option<String> {
        decode(raw, 0).map(|(value, _)| value)
    }

    #[test]
    fn literals_decode_as_python_reads_them() {
        assert_eq!(value(r#""a\tb""#).as_deref(), Some("a\tb"));
        assert_eq!(value(r#"'it\'s'"#).as_deref(), Some("it's"));
        assert_eq!(value(r#"r"a\d\"""#).as_deref(), Some(r#"a\d\""#));
        assert_eq!(value(r#""\d\x41\u00e9\101""#).as_deref(), Some("\\dAéA"));
        assert_eq!(
            value("\"\"\"One.\n\n    Two \"quoted\".\n    \"\"\"").as_deref(),
            Some("One.\n\n    Two \"quoted\".\n    ")
        );
        assert_eq!(value("\"a\\\nb\"").as_deref(), Some("ab"));
        assert_eq!(value("(\"a \"  # why\n 'b')").as_deref(), Some("a b"));
        assert_eq!(value("f\"{{x}}\"").as_deref(), Some("{x}"));
        assert_eq!(value("\"\"\"a\r\nb\"\"\"").as_deref(), Some("a\nb"));
        assert_eq!(value("''").as_deref(), Some(""));
    }

    #[test]
    fn f_string_fields_that_name_values_are_replaced() {
        let mut field = |name: &str| match name {
            "LIMIT" => Some("50".to_string()),
            "Tools.SEARCH" => Some("search".to_string()),
            _ => None,
        };
        let decoded = decode_with(
            "f\"Up to {LIMIT} ({ Tools.SEARCH }), {{x}}\"",
            0,
            &mut field,
        );
        assert_eq!(
            decoded.map(|(value, _)| value).as_deref(),
            Some("Up to 50 (search), {x}")
        );
        for raw in [
            "f\"{OTHER}\"",
            "f\"{LIMIT!r}\"",
            "f\"{LIMIT:>4}\"",
            "f\"{LIMIT + 1}\"",
            "f\"{LIMIT\"",
        ] {
            assert_eq!(decode_with(raw, 0, &mut field), None, "{raw}");
        }
    }

    #[test]
    fn cleaned_docstrings_map_each_word_to_its_source() {
        let raw = "\"\"\"\n    Search.\n\n      Will \\\"ALWAYS\\\" work.\n    \"\"\"";
        let (value, segments) = cleaned(raw, 0).unwrap();
        assert_eq!(value, "Search.\n\n  Will \"ALWAYS\" work.");
        let start = value.find("ALWAYS").unwrap();
        let segment = segments
            .iter()
            .find(|s| s.decoded.contains(&start))
            .unwrap();
        let source = segment.source.start + start - segment.decoded.start;
        assert_eq!(&raw[source..source + 6], "ALWAYS");
        assert_eq!(cleaned("\"\"\"a\n\tb\"\"\"", 0), None);
    }

    #[test]
    fn a_long_docstring_is_cleaned_in_one_pass() {
        // 50,000 lines of 3 segments each: matching every line against every segment would
        // take minutes.
        let body = "    say \\\"a\\\" \n".repeat(50_000);
        let raw = format!("\"\"\"First.\n{body}\"\"\"");
        let start = std::time::Instant::now();
        let (value, segments) = cleaned(&raw, 0).unwrap();
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        assert!(value.ends_with("say \"a\" "));
        assert_eq!(segments.last().unwrap().decoded.end, value.len());
    }

    #[test]
    fn what_is_not_a_constant_str_is_not_decoded() {
        assert_eq!(value("f\"{x}\""), None);
        assert_eq!(value("b\"x\""), None);
        assert_eq!(value("\"\\N{BULLET}\""), None);
        assert_eq!(value("\"open"), None);
        assert_eq!(value("\"a\nb\""), None);
        assert_eq!(value("x"), None);
    }

    #[test]
    fn segments_map_decoded_words_to_their_source() {
        let raw = "\"\"\"Find \\\"it\\\".\n    Then stop.\"\"\"";
        let (value, segments) = decode(raw, 10).unwrap();
        let start = value.find("Then").unwrap();
        let segment = segments
            .iter()
            .find(|s| s.decoded.contains(&start))
            .unwrap();
        assert!(segment.verbatim);
        let offset = start - segment.decoded.start;
        let source = segment.source.start + offset - 10;
        assert_eq!(&raw[source..source + 4], "Then");
    }
}

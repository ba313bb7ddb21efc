//! Strict JSON with spans.
//!
//! A hand-written RFC 8259 parser that keeps the byte span of every value and key and the
//! RFC 6901 pointer of every value. It scans bytes, never recurses (open containers live on an
//! explicit stack, capped at [`MAX_DEPTH`]), and never panics: every slice it takes starts and
//! ends next to an ASCII byte or at the ends of the text, so it is always on a char boundary.

use std::borrow::Cow;

use super::{
    Entry, Key, Keys, MAX_DEPTH, Node, NodeKind, ParseError, Pointer, Segment, Span, Str, StrStyle,
};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parses strict JSON (RFC 8259) into a [`Node`] tree.
pub fn parse(source: &str) -> Result<Node, ParseError> {
    super::node::check_len(source)?;
    let mut parser = Parser {
        src: source,
        bytes: source.as_bytes(),
        pos: 0,
        keys: Keys::default(),
    };
    if parser.bytes.starts_with(BOM) {
        parser.pos = BOM.len();
    }
    parser.skip_ws();
    if parser.pos == parser.bytes.len() {
        return Err(error("the file is empty", parser.pos..parser.pos));
    }
    let root = parser.parse_document()?;
    parser.skip_ws();
    if parser.pos != parser.bytes.len() {
        return Err(parser.unexpected(Expected::Nothing, None));
    }
    Ok(root)
}

/// Segments of a JSON string literal `raw` (quotes included) starting at byte `base`.
///
/// Runs of unescaped characters become verbatim segments; each escape sequence (a surrogate
/// pair counting as one) becomes a non-verbatim segment covering the char it decodes to.
pub(crate) fn string_segments(raw: &str, base: usize) -> Option<Vec<Segment>> {
    let bytes = raw.as_bytes();
    if bytes.len() < 2 || bytes[0] != b'"' || bytes[bytes.len() - 1] != b'"' {
        return None;
    }
    let end = bytes.len() - 1;
    let mut segments = Vec::new();
    let mut decoded = 0;
    let mut i = 1;
    let mut run_start = 1;
    while i < end {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        if run_start < i {
            let len = i - run_start;
            segments.push(Segment {
                decoded: decoded..decoded + len,
                source: base + run_start..base + i,
                verbatim: true,
            });
            decoded += len;
        }
        let (ch, len) = decode_escape(raw, i).ok()?;
        if i + len > end {
            return None;
        }
        segments.push(Segment {
            decoded: decoded..decoded + ch.len_utf8(),
            source: base + i..base + i + len,
            verbatim: false,
        });
        decoded += ch.len_utf8();
        i += len;
        run_start = i;
    }
    if run_start < end {
        segments.push(Segment {
            decoded: decoded..decoded + (end - run_start),
            source: base + run_start..base + end,
            verbatim: true,
        });
    }
    Some(segments)
}

fn error(message: impl Into<String>, span: Span) -> ParseError {
    ParseError {
        message: message.into(),
        span,
    }
}

/// What the parser was looking for when it met something else; picks the error message.
#[derive(Clone, Copy)]
enum Expected {
    Value,
    Key,
    Colon,
    AfterEntry,
    AfterElement,
    /// Only whitespace may follow the document.
    Nothing,
}

/// An open container: where it opened, its pointer, and where its children start on the
/// shared child stacks (so each container's children end up in one exactly-sized `Vec`).
enum Frame {
    Array {
        open: usize,
        pointer: Pointer,
        first: usize,
    },
    Object {
        open: usize,
        pointer: Pointer,
        first: usize,
        /// The key whose value is being parsed.
        key: Key,
        key_span: Span,
    },
}

impl Frame {
    fn open(&self) -> Open {
        match self {
            Frame::Array { open, .. } => Open {
                at: *open,
                what: "array",
            },
            Frame::Object { open, .. } => Open {
                at: *open,
                what: "object",
            },
        }
    }
}

/// The innermost open container, for "unclosed ... opened here" errors.
#[derive(Clone, Copy)]
struct Open {
    at: usize,
    what: &'static str,
}

enum EscapeError {
    /// The text ended inside the escape.
    Eof,
    Invalid(ParseError),
}

struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    keys: Keys,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The span of the char at `at` (empty at the end of the text).
    fn char_span(&self, at: usize) -> Span {
        let len = self
            .src
            .get(at..)
            .and_then(|rest| rest.chars().next())
            .map_or(0, char::len_utf8);
        at..at + len
    }

    fn eof_error(&self, open: Option<Open>) -> ParseError {
        match open {
            Some(open) => error(
                format!(
                    "unexpected end of input: unclosed {} opened here",
                    open.what
                ),
                open.at..open.at + 1,
            ),
            None => error("unexpected end of input", self.pos..self.pos),
        }
    }

    /// The error for whatever stands at `self.pos` when `expected` was wanted.
    fn unexpected(&self, expected: Expected, open: Option<Open>) -> ParseError {
        let pos = self.pos;
        let Some(ch) = self.src.get(pos..).and_then(|rest| rest.chars().next()) else {
            return self.eof_error(open);
        };
        let span = pos..pos + ch.len_utf8();
        if ch == '/' && matches!(self.bytes.get(pos + 1), Some(b'/' | b'*')) {
            return error("comments are not allowed in JSON", span);
        }
        if ch == '\'' && matches!(expected, Expected::Value | Expected::Key) {
            return error(
                "single-quoted strings are not allowed in JSON; use double quotes",
                span,
            );
        }
        let message = match expected {
            Expected::Value => match ch {
                '}' | ']' | ',' | ':' => "expected a value".to_string(),
                _ => format!("unexpected character `{}`", ch.escape_debug()),
            },
            Expected::Key => {
                if ch.is_alphabetic() || ch == '_' || ch == '$' {
                    "object keys must be double-quoted strings in JSON".to_string()
                } else {
                    format!(
                        "unexpected character `{}`: expected a double-quoted object key",
                        ch.escape_debug()
                    )
                }
            }
            Expected::Colon => "expected `:` after an object key".to_string(),
            Expected::AfterEntry => "expected `,` or `}` after an object entry".to_string(),
            Expected::AfterElement => "expected `,` or `]` after an array element".to_string(),
            Expected::Nothing => format!(
                "unexpected character `{}` after the end of the JSON document",
                ch.escape_debug()
            ),
        };
        error(message, span)
    }

    /// Parses the value at `self.pos` (after leading whitespace) and everything nested in it.
    fn parse_document(&mut self) -> Result<Node, ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        // The children of every open container, innermost last.
        let mut items: Vec<Node> = Vec::new();
        let mut entries: Vec<Entry> = Vec::new();
        // The pointer of the value about to be parsed.
        let mut pointer = Pointer::root();
        'value: loop {
            self.skip_ws();
            let open = stack.last().map(Frame::open);
            let start = self.pos;
            let mut node = match self.peek() {
                Some(b'{') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.too_deep());
                    }
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Node::new(NodeKind::Object(Vec::new()), start..self.pos, pointer)
                    } else {
                        let here = Some(Open {
                            at: start,
                            what: "object",
                        });
                        let (key, key_span) = self.parse_key(here)?;
                        let child = pointer.key(&key);
                        stack.push(Frame::Object {
                            open: start,
                            pointer,
                            first: entries.len(),
                            key,
                            key_span,
                        });
                        pointer = child;
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.too_deep());
                    }
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Node::new(NodeKind::Array(Vec::new()), start..self.pos, pointer)
                    } else {
                        let child = pointer.index(0);
                        stack.push(Frame::Array {
                            open: start,
                            pointer,
                            first: items.len(),
                        });
                        pointer = child;
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    let value = self.parse_string()?;
                    let span = start..self.pos;
                    let s = Str::new(value, StrStyle::Json, span.clone());
                    Node::new(NodeKind::String(s), span, pointer)
                }
                Some(b'-' | b'0'..=b'9') => {
                    let number = self.parse_number(open)?;
                    Node::new(NodeKind::Number(number), start..self.pos, pointer)
                }
                Some(b't') => {
                    self.parse_literal("true", open)?;
                    Node::new(NodeKind::Bool(true), start..self.pos, pointer)
                }
                Some(b'f') => {
                    self.parse_literal("false", open)?;
                    Node::new(NodeKind::Bool(false), start..self.pos, pointer)
                }
                Some(b'n') => {
                    self.parse_literal("null", open)?;
                    Node::new(NodeKind::Null, start..self.pos, pointer)
                }
                _ => return Err(self.unexpected(Expected::Value, open)),
            };

            // Attach the finished value to its container; close containers as they end.
            loop {
                let Some(mut frame) = stack.pop() else {
                    return Ok(node);
                };
                let open = Some(frame.open());
                self.skip_ws();
                match &mut frame {
                    Frame::Array {
                        pointer: parent,
                        first,
                        ..
                    } => {
                        items.push(node);
                        match self.peek() {
                            Some(b',') => {
                                self.after_comma(b']')?;
                                pointer = parent.index(items.len() - *first);
                                stack.push(frame);
                                continue 'value;
                            }
                            Some(b']') => self.pos += 1,
                            _ => return Err(self.unexpected(Expected::AfterElement, open)),
                        }
                    }
                    Frame::Object {
                        pointer: parent,
                        key,
                        key_span,
                        ..
                    } => {
                        entries.push(Entry::new(std::mem::take(key), key_span.clone(), node));
                        match self.peek() {
                            Some(b',') => {
                                self.after_comma(b'}')?;
                                let (next_key, next_span) = self.parse_key(open)?;
                                pointer = parent.key(&next_key);
                                *key = next_key;
                                *key_span = next_span;
                                stack.push(frame);
                                continue 'value;
                            }
                            Some(b'}') => self.pos += 1,
                            _ => return Err(self.unexpected(Expected::AfterEntry, open)),
                        }
                    }
                }
                // The container just closed: it becomes the finished value.
                node = match frame {
                    Frame::Array {
                        open,
                        pointer,
                        first,
                    } => {
                        let children: Vec<Node> = items.drain(first..).collect();
                        Node::new(NodeKind::Array(children), open..self.pos, pointer)
                    }
                    Frame::Object {
                        open,
                        pointer,
                        first,
                        ..
                    } => {
                        let children: Vec<Entry> = entries.drain(first..).collect();
                        Node::new(NodeKind::Object(children), open..self.pos, pointer)
                    }
                };
            }
        }
    }

    fn too_deep(&self) -> ParseError {
        error(
            format!("nesting is too deep (more than {MAX_DEPTH} levels)"),
            self.pos..self.pos + 1,
        )
    }

    /// Steps over the `,` at `self.pos` and the whitespace after it; a `close` bracket right
    /// after it is a trailing comma.
    fn after_comma(&mut self, close: u8) -> Result<(), ParseError> {
        let comma = self.pos;
        self.pos += 1;
        self.skip_ws();
        if self.peek() == Some(close) {
            return Err(error(
                "trailing comma is not allowed in JSON",
                comma..comma + 1,
            ));
        }
        Ok(())
    }

    /// Parses `"key"` `:` and the whitespace after the colon.
    fn parse_key(&mut self, open: Option<Open>) -> Result<(Key, Span), ParseError> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected(Expected::Key, open));
        }
        let start = self.pos;
        let key = self.parse_str()?;
        let key = self.keys.get(&key);
        let span = start..self.pos;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.unexpected(Expected::Colon, open));
        }
        self.pos += 1;
        Ok((key, span))
    }

    /// Parses the string literal whose opening quote is at `self.pos`.
    fn parse_string(&mut self) -> Result<String, ParseError> {
        self.parse_str().map(Cow::into_owned)
    }

    /// [`Parser::parse_string`], borrowing the source when the string has no escape.
    fn parse_str(&mut self) -> Result<Cow<'a, str>, ParseError> {
        let quote = self.pos;
        let bytes = self.bytes;
        let unclosed = || {
            error(
                "unexpected end of input: unclosed string opened here",
                quote..quote + 1,
            )
        };
        let mut i = quote + 1;
        let mut run_start = i;
        // Allocated at the first escape; until then the value is a plain slice of the source.
        let mut out: Option<String> = None;
        let src = self.src;
        loop {
            i = skip_plain(bytes, i);
            let Some(&b) = bytes.get(i) else {
                return Err(unclosed());
            };
            match b {
                b'"' => {
                    let run = &src[run_start..i];
                    let value = match out {
                        Some(mut value) => {
                            value.push_str(run);
                            Cow::Owned(value)
                        }
                        None => Cow::Borrowed(run),
                    };
                    self.pos = i + 1;
                    return Ok(value);
                }
                b'\\' => {
                    let value = out.get_or_insert_with(|| String::with_capacity(i - quote + 16));
                    value.push_str(&self.src[run_start..i]);
                    match decode_escape(self.src, i) {
                        Ok((ch, len)) => {
                            value.push(ch);
                            i += len;
                            run_start = i;
                        }
                        Err(EscapeError::Eof) => return Err(unclosed()),
                        Err(EscapeError::Invalid(err)) => return Err(err),
                    }
                }
                b'\n' | b'\r' => {
                    return Err(error(
                        "line break inside a string (write it as `\\n`, or close the string \
                         with `\"`)",
                        i..i + 1,
                    ));
                }
                0..=0x1F => {
                    return Err(error(
                        format!("control character U+{b:04X} must be escaped inside a JSON string"),
                        i..i + 1,
                    ));
                }
                _ => i += 1,
            }
        }
    }

    /// Parses the number starting at `self.pos` (at `-` or a digit).
    fn parse_number(&mut self, open: Option<Open>) -> Result<serde_json::Number, ParseError> {
        let bytes = self.bytes;
        let start = self.pos;
        let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
        let mut i = start;
        let negative = bytes.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        match bytes.get(i) {
            Some(b'0') => {
                i += 1;
                if digit(i) {
                    return Err(error(
                        "leading zeros are not allowed in JSON numbers",
                        i - 1..i,
                    ));
                }
            }
            Some(b'1'..=b'9') => {
                while digit(i) {
                    i += 1;
                }
            }
            _ => return Err(self.number_error(i, "expected a digit after `-`", open)),
        }
        let mut integer = true;
        if bytes.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !digit(i) {
                return Err(self.number_error(i, "expected a digit after the decimal point", open));
            }
            while digit(i) {
                i += 1;
            }
        }
        if let Some(b'e' | b'E') = bytes.get(i) {
            integer = false;
            i += 1;
            if let Some(b'+' | b'-') = bytes.get(i) {
                i += 1;
            }
            if !digit(i) {
                return Err(self.number_error(i, "expected a digit in the exponent", open));
            }
            while digit(i) {
                i += 1;
            }
        }
        self.pos = i;
        let text = &self.src[start..i];
        if integer {
            if negative {
                match text.parse::<i64>() {
                    // `-0` stays a float, as serde_json has it.
                    Ok(0) => {}
                    Ok(n) => return Ok(n.into()),
                    Err(_) => {}
                }
            } else if let Ok(n) = text.parse::<u64>() {
                return Ok(n.into());
            }
        }
        text.parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .ok_or_else(|| error("number out of range", start..i))
    }

    fn number_error(&mut self, at: usize, message: &str, open: Option<Open>) -> ParseError {
        self.pos = at;
        if at >= self.bytes.len() && open.is_some() {
            return self.eof_error(open);
        }
        error(message, self.char_span(at))
    }

    /// Matches `word` (`true`, `false` or `null`) at `self.pos`.
    fn parse_literal(&mut self, word: &str, open: Option<Open>) -> Result<(), ParseError> {
        let start = self.pos;
        for (k, expected) in word.bytes().enumerate() {
            match self.bytes.get(start + k) {
                Some(&b) if b == expected => {}
                Some(_) => {
                    return Err(error(
                        format!("invalid literal: expected `{word}`"),
                        self.char_span(start + k),
                    ));
                }
                None => {
                    self.pos = start + k;
                    return Err(self.eof_error(open));
                }
            }
        }
        self.pos = start + word.len();
        Ok(())
    }
}

/// Skips string bytes that need no attention (not `"`, `\\` or a control character) eight at a
/// time; the caller's byte loop handles whatever stops it.
fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(chunk);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        // A byte is zero, or below 0x20, exactly when its high bit survives these.
        let special = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word);
        if special & HIGHS != 0 {
            break;
        }
        i += 8;
    }
    i
}

/// Decodes the escape sequence whose backslash is at `at` in `src`: the char and the length
/// of its source text (12 for a surrogate pair).
fn decode_escape(src: &str, at: usize) -> Result<(char, usize), EscapeError> {
    let bytes = src.as_bytes();
    let Some(&kind) = bytes.get(at + 1) else {
        return Err(EscapeError::Eof);
    };
    let ch = match kind {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return decode_unicode_escape(bytes, at),
        _ => {
            let ch = src
                .get(at + 1..)
                .and_then(|rest| rest.chars().next())
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            let end = at + 1 + ch.len_utf8();
            return Err(EscapeError::Invalid(error(
                format!(
                    "invalid escape `\\{}` in a JSON string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                    ch.escape_debug()
                ),
                at..end,
            )));
        }
    };
    Ok((ch, 2))
}

/// Decodes `\uXXXX` at `at`, joining a surrogate pair; a lone surrogate is an error.
fn decode_unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), EscapeError> {
    let first = hex4(bytes, at)?;
    match first {
        0xD800..=0xDBFF => {
            if bytes.len() <= at + 7 {
                // The text ends where the low surrogate should be.
                return Err(EscapeError::Eof);
            }
            let low = if bytes.get(at + 6) == Some(&b'\\') && bytes.get(at + 7) == Some(&b'u') {
                Some(hex4(bytes, at + 6)?)
            } else {
                None
            };
            match low {
                Some(low @ 0xDC00..=0xDFFF) => {
                    let code = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00);
                    char::from_u32(code)
                        .map(|ch| (ch, 12))
                        .ok_or_else(|| lone_surrogate(at, first))
                }
                _ => Err(lone_surrogate(at, first)),
            }
        }
        0xDC00..=0xDFFF => Err(lone_surrogate(at, first)),
        _ => char::from_u32(first)
            .map(|ch| (ch, 6))
            .ok_or_else(|| lone_surrogate(at, first)),
    }
}

fn lone_surrogate(at: usize, code: u32) -> EscapeError {
    let message = if (0xD800..=0xDBFF).contains(&code) {
        format!(
            "lone surrogate `\\u{code:04X}` in a JSON string: a high surrogate must be followed \
             by a low surrogate escape (`\\uDC00`..`\\uDFFF`)"
        )
    } else {
        format!(
            "lone surrogate `\\u{code:04X}` in a JSON string: a low surrogate must follow a high surrogate"
        )
    };
    EscapeError::Invalid(error(message, at..at + 6))
}

/// The four hex digits after the `\u` at `at`.
fn hex4(bytes: &[u8], at: usize) -> Result<u32, EscapeError> {
    let mut code = 0;
    for k in 0..4 {
        let i = at + 2 + k;
        let Some(&b) = bytes.get(i) else {
            return Err(EscapeError::Eof);
        };
        let digit = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => {
                return Err(EscapeError::Invalid(error(
                    "invalid unicode escape: `\\u` must be followed by four hex digits",
                    at..i,
                )));
            }
        };
        code = code * 16 + u32::from(digit);
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> Node {
        match parse(src) {
            Ok(node) => node,
            Err(err) => panic!("{src:?} failed to parse: {err:?}"),
        }
    }

    fn err(src: &str) -> ParseError {
        match parse(src) {
            Ok(node) => panic!("{src:?} parsed: {node:?}"),
            Err(err) => err,
        }
    }

    /// Asserts the error's message and that its span starts at the first occurrence of
    /// `marker` in `src` and has length `len`.
    fn assert_err(src: &str, message: &str, at: usize, len: usize) {
        let e = err(src);
        assert_eq!(e.message, message, "message for {src:?}");
        assert_eq!(e.span, at..at + len, "span for {src:?}: {:?}", e.message);
    }

    fn at<'a>(node: &'a Node, pointer: &str) -> &'a Node {
        node.at_pointer(pointer)
            .unwrap_or_else(|| panic!("no node at {pointer}"))
    }

    #[test]
    fn nested_objects_and_arrays() {
        let src = r#"{
  "tools": [
    {"name": "search", "tags": ["a", "b"], "n": 12},
    {"name": "fetch", "inputSchema": {"properties": {"api/key": {"type": "string"}, "a~b": {}}}}
  ],
  "ok": true, "no": false, "nothing": null
}"#;
        let root = ok(src);
        assert_eq!(root.pointer, "");
        assert_eq!(root.span(), 0..src.len());
        let tools = at(&root, "/tools");
        assert_eq!(tools.pointer, "/tools");
        assert!(src[tools.span()].starts_with("[\n    {\"name\": \"search\""));
        assert!(src[tools.span()].ends_with("}}}}\n  ]"));
        let first = at(&root, "/tools/0");
        assert_eq!(
            &src[first.span()],
            r#"{"name": "search", "tags": ["a", "b"], "n": 12}"#
        );
        let b = at(&root, "/tools/0/tags/1");
        assert_eq!(b.pointer, "/tools/0/tags/1");
        assert_eq!(&src[b.span()], "\"b\"");
        assert_eq!(b.as_str(), Some("b"));
        let n = at(&root, "/tools/0/n");
        assert_eq!(&src[n.span()], "12");
        assert_eq!(n.as_f64(), Some(12.0));
        let key = at(&root, "/tools/1/inputSchema/properties/api~1key");
        assert_eq!(key.pointer, "/tools/1/inputSchema/properties/api~1key");
        assert_eq!(&src[key.span()], r#"{"type": "string"}"#);
        let ty = at(&root, "/tools/1/inputSchema/properties/api~1key/type");
        assert_eq!(ty.pointer, "/tools/1/inputSchema/properties/api~1key/type");
        let tilde = at(&root, "/tools/1/inputSchema/properties/a~0b");
        assert_eq!(tilde.pointer, "/tools/1/inputSchema/properties/a~0b");
        assert_eq!(&src[tilde.span()], "{}");
        let props = at(&root, "/tools/1/inputSchema/properties")
            .as_object()
            .unwrap();
        assert_eq!(props[0].key, "api/key");
        assert_eq!(&src[props[0].key_span()], "\"api/key\"");
        assert_eq!(at(&root, "/ok").as_bool(), Some(true));
        assert_eq!(&src[at(&root, "/no").span()], "false");
        let nothing = at(&root, "/nothing");
        assert_eq!(nothing.kind, NodeKind::Null);
        assert_eq!(&src[nothing.span()], "null");
        let expected: serde_json::Value = serde_json::from_str(src).unwrap();
        assert_eq!(root.to_json(), expected);
    }

    #[test]
    fn scalar_documents_and_empty_containers() {
        let root = ok("  \"hi\"  ");
        assert_eq!(root.span(), 2..6);
        assert_eq!(root.pointer, "");
        assert_eq!(ok("[]").as_array().map(<[Node]>::len), Some(0));
        assert_eq!(ok("{ }").as_object().map(<[Entry]>::len), Some(0));
        let root = ok("[[], {}, [ ], { }]");
        assert_eq!(at(&root, "/3").span(), 14..17);
        assert_eq!(at(&root, "/3").pointer, "/3");
        assert_eq!(ok("null").kind, NodeKind::Null);
        assert_eq!(ok("true").span(), 0..4);
    }

    #[test]
    fn escapes_in_keys_and_values() {
        let src = r#"{"guid\u0065lines": "a\"b\\c\/d\b\f\n\r\te", "caf\u00e9": "\u20AC"}"#;
        let root = ok(src);
        let entries = root.as_object().unwrap();
        assert_eq!(entries[0].key, "guidelines");
        assert_eq!(&src[entries[0].key_span()], r#""guid\u0065lines""#);
        assert_eq!(entries[0].value.pointer, "/guidelines");
        assert_eq!(
            entries[0].value.as_str(),
            Some("a\"b\\c/d\u{8}\u{c}\n\r\te")
        );
        let NodeKind::String(s) = &entries[0].value.kind else {
            panic!("not a string");
        };
        assert_eq!(s.style, StrStyle::Json);
        assert_eq!(s.raw(), entries[0].value.span());
        assert_eq!(&src[s.raw()], r#""a\"b\\c\/d\b\f\n\r\te""#);
        assert_eq!(entries[1].key, "café");
        assert_eq!(entries[1].value.as_str(), Some("€"));
        assert_eq!(root.get("café").unwrap().pointer, "/café");
    }

    #[test]
    fn surrogate_pairs() {
        let src = r#"["\ud83e\udd80 crab", "\uD83D\uDE00"]"#;
        let root = ok(src);
        assert_eq!(at(&root, "/0").as_str(), Some("🦀 crab"));
        assert_eq!(at(&root, "/1").as_str(), Some("😀"));
        assert_eq!(&src[at(&root, "/1").span()], r#""\uD83D\uDE00""#);
    }

    #[test]
    fn raw_non_ascii_and_offsets_after_it() {
        let src = "{\"émoji 🦀\": \"日本語\", \"next\": 1}";
        let root = ok(src);
        let entries = root.as_object().unwrap();
        assert_eq!(entries[0].key, "émoji 🦀");
        assert_eq!(&src[entries[0].key_span()], "\"émoji 🦀\"");
        assert_eq!(&src[entries[0].value.span()], "\"日本語\"");
        assert_eq!(&src[entries[1].key_span()], "\"next\"");
        assert_eq!(&src[entries[1].value.span()], "1");
    }

    #[test]
    fn bom_is_skipped_but_counted() {
        let src = "\u{feff}{\"a\": [1, \"x\"]}";
        let root = ok(src);
        assert_eq!(root.span(), 3..src.len());
        assert_eq!(&src[root.span()], "{\"a\": [1, \"x\"]}");
        let x = at(&root, "/a/1");
        assert_eq!(x.span(), 13..16);
        assert_eq!(&src[x.span()], "\"x\"");
        assert_eq!(err("\u{feff}").message, "the file is empty");
        // A BOM anywhere else is just an unexpected character.
        assert_err(
            "\u{feff}\u{feff}1",
            "unexpected character `\\u{feff}`",
            3,
            3,
        );
    }

    #[test]
    fn crlf_and_tabs_are_whitespace() {
        let src = "{\r\n\t\"a\" :\r\n [ 1 ,\r\n\t2 ] \r\n}\r\n";
        let root = ok(src);
        assert_eq!(&src[root.span()], &src[..src.len() - 2]);
        let two = at(&root, "/a/1");
        assert_eq!(&src[two.span()], "2");
        assert_eq!(two.span().start, src.find('2').unwrap());
        assert_eq!(&src[at(&root, "/a").span()], "[ 1 ,\r\n\t2 ]");
    }

    #[test]
    fn minified_input() {
        let src = r#"{"a":{"b":[1,2,{"c":"d"}],"e":-1.5e3},"f":[]}"#;
        let root = ok(src);
        let d = at(&root, "/a/b/2/c");
        assert_eq!(d.pointer, "/a/b/2/c");
        assert_eq!(&src[d.span()], "\"d\"");
        assert_eq!(&src[at(&root, "/a/b/2").span()], r#"{"c":"d"}"#);
        assert_eq!(&src[at(&root, "/a/e").span()], "-1.5e3");
        assert_eq!(at(&root, "/a/e").as_f64(), Some(-1500.0));
        assert_eq!(&src[at(&root, "/f").span()], "[]");
        let entries = root.as_object().unwrap();
        assert_eq!(&src[entries[1].key_span()], "\"f\"");
    }

    #[test]
    fn duplicate_keys_are_kept() {
        let root = ok(r#"{"a": 1, "a": 2}"#);
        let entries = root.as_object().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].value.pointer, "/a");
        assert_eq!(entries[1].value.pointer, "/a");
        assert_eq!(root.get("a").and_then(Node::as_f64), Some(2.0));
        assert_eq!(entries[1].key_span(), 9..12);
    }

    #[test]
    fn numbers() {
        let num = |src: &str| match ok(src).kind {
            NodeKind::Number(n) => n,
            other => panic!("{other:?}"),
        };
        assert_eq!(num("0").as_u64(), Some(0));
        assert_eq!(num("42").as_u64(), Some(42));
        assert_eq!(num("-42").as_i64(), Some(-42));
        assert_eq!(num("18446744073709551615").as_u64(), Some(u64::MAX));
        assert_eq!(num("-9223372036854775808").as_i64(), Some(i64::MIN));
        let huge = num("123456789012345678901234567890");
        assert!(huge.is_f64());
        assert_eq!(huge.as_f64(), Some(1.2345678901234568e29));
        assert!(num("-99999999999999999999").is_f64());
        assert_eq!(num("1.5").as_f64(), Some(1.5));
        assert_eq!(num("-0.25e-2").as_f64(), Some(-0.0025));
        assert_eq!(num("1E+2").as_f64(), Some(100.0));
        assert_eq!(num("0e0").as_f64(), Some(0.0));
        let minus_zero = num("-0");
        assert!(minus_zero.is_f64());
        assert!(minus_zero.as_f64().unwrap().is_sign_negative());
        for src in [
            "0",
            "-0",
            "12",
            "1.5",
            "-0.25e-2",
            "1E+2",
            "123456789012345678901234567890",
        ] {
            let expected: serde_json::Value = serde_json::from_str(src).unwrap();
            assert_eq!(ok(src).to_json(), expected, "{src}");
        }
    }

    #[test]
    fn number_errors() {
        assert_err("01", "leading zeros are not allowed in JSON numbers", 0, 1);
        assert_err(
            "[-012]",
            "leading zeros are not allowed in JSON numbers",
            2,
            1,
        );
        assert_err("[-x]", "expected a digit after `-`", 2, 1);
        assert_err("[-é]", "expected a digit after `-`", 2, 2);
        assert_err("1.", "expected a digit after the decimal point", 2, 0);
        assert_err("[1.]", "expected a digit after the decimal point", 3, 1);
        assert_err("[1e]", "expected a digit in the exponent", 3, 1);
        assert_err("[1e+]", "expected a digit in the exponent", 4, 1);
        assert_err("[.5]", "unexpected character `.`", 1, 1);
        assert_err("[+1]", "unexpected character `+`", 1, 1);
        assert_err("1e400", "number out of range", 0, 5);
        assert_err("[1 2]", "expected `,` or `]` after an array element", 3, 1);
        assert_err("-", "expected a digit after `-`", 1, 0);
        assert_err(
            "[-",
            "unexpected end of input: unclosed array opened here",
            0,
            1,
        );
    }

    #[test]
    fn string_errors() {
        assert_err(
            "[\"abc",
            "unexpected end of input: unclosed string opened here",
            1,
            1,
        );
        assert_err(
            "\"ab\\",
            "unexpected end of input: unclosed string opened here",
            0,
            1,
        );
        assert_err(
            "\"ab\\u12",
            "unexpected end of input: unclosed string opened here",
            0,
            1,
        );
        assert_err(
            "{\"a\": \"x\ny\"}",
            "line break inside a string (write it as `\\n`, or close the string with `\"`)",
            8,
            1,
        );
        assert_err(
            "\"a\tb\"",
            "control character U+0009 must be escaped inside a JSON string",
            2,
            1,
        );
        assert_err(
            "\"a\u{0}b\"",
            "control character U+0000 must be escaped inside a JSON string",
            2,
            1,
        );
        let e = err(r#"["ok", "a\qb"]"#);
        assert!(
            e.message.starts_with("invalid escape `\\q`"),
            "{}",
            e.message
        );
        assert_eq!(e.span, 9..11);
        // An escaped multi-byte char: the span covers the whole char.
        let src = "\"\\é\"";
        let e = err(src);
        assert_eq!(&src[e.span.clone()], "\\é");
        let src = r#""x\u12G4""#;
        let e = err(src);
        assert_eq!(
            e.message,
            "invalid unicode escape: `\\u` must be followed by four hex digits"
        );
        assert_eq!(&src[e.span.clone()], "\\u12");
    }

    #[test]
    fn specials_are_found_at_every_offset_of_long_strings() {
        for n in 0..40 {
            let pad = "aé".repeat(n / 3) + &"b".repeat(n % 3);
            let src = format!("[\"{pad}\\n{pad}\"]");
            let root = ok(&src);
            assert_eq!(
                at(&root, "/0").as_str(),
                Some(format!("{pad}\n{pad}").as_str())
            );
            let src = format!("[\"{pad}\u{1f}{pad}\"]");
            assert_eq!(err(&src).span.start, 2 + pad.len(), "{src:?}");
            let src = format!("[\"{pad}\", 1]");
            assert_eq!(at(&ok(&src), "/1").span().start, 5 + pad.len());
            let src = format!("[\"{pad}");
            assert_eq!(err(&src).span, 1..2);
        }
    }

    #[test]
    fn lone_surrogates_are_errors() {
        let src = r#"{"a": "x\ud83e y"}"#;
        let e = err(src);
        assert!(
            e.message.starts_with("lone surrogate `\\uD83E`"),
            "{}",
            e.message
        );
        assert_eq!(&src[e.span.clone()], "\\ud83e");
        assert_eq!(e.span.start, 8);
        let src = r#""\udd80""#;
        let e = err(src);
        assert!(
            e.message.starts_with("lone surrogate `\\uDD80`"),
            "{}",
            e.message
        );
        assert_eq!(&src[e.span.clone()], "\\udd80");
        // High followed by a non-low escape.
        let src = r#""\ud83e\u0041""#;
        let e = err(src);
        assert_eq!(&src[e.span.clone()], "\\ud83e");
        // Two highs.
        let src = r#""\ud83e\ud83e""#;
        assert_eq!(err(src).span, 1..7);
        // High at the end of the text.
        assert_eq!(
            err("\"\\ud83e").message,
            "unexpected end of input: unclosed string opened here"
        );
    }

    #[test]
    fn structural_errors() {
        assert_err(
            r#"{"a": 1 "b": 2}"#,
            "expected `,` or `}` after an object entry",
            8,
            1,
        );
        assert_err(
            r#"{"a": 1,}"#,
            "trailing comma is not allowed in JSON",
            7,
            1,
        );
        assert_err("[1, 2,\n]", "trailing comma is not allowed in JSON", 5, 1);
        assert_err(
            "\n\n{\"a\": [1,\n",
            "unexpected end of input: unclosed array opened here",
            8,
            1,
        );
        assert_err(
            "  {\"a\": {\"b\": 1}",
            "unexpected end of input: unclosed object opened here",
            2,
            1,
        );
        assert_err(
            "{\"a\"",
            "unexpected end of input: unclosed object opened here",
            0,
            1,
        );
        assert_err(
            "{\"a\":",
            "unexpected end of input: unclosed object opened here",
            0,
            1,
        );
        assert_err(
            "{",
            "unexpected end of input: unclosed object opened here",
            0,
            1,
        );
        assert_err(
            "[tr",
            "unexpected end of input: unclosed array opened here",
            0,
            1,
        );
        assert_err(
            "{\n  // a comment\n  \"a\": 1}",
            "comments are not allowed in JSON",
            4,
            1,
        );
        assert_err("[1, /* no */ 2]", "comments are not allowed in JSON", 4, 1);
        assert_err("[1] // done", "comments are not allowed in JSON", 4, 1);
        assert_err(
            "{\"a\": 1 // c\n}",
            "comments are not allowed in JSON",
            8,
            1,
        );
        assert_err("[1, x]", "unexpected character `x`", 4, 1);
        assert_err("[1, é]", "unexpected character `é`", 4, 2);
        assert_err("[True]", "unexpected character `T`", 1, 1);
        assert_err("[1, ]", "trailing comma is not allowed in JSON", 2, 1);
        assert_err("[,1]", "expected a value", 1, 1);
        assert_err(r#"{"a": }"#, "expected a value", 6, 1);
        assert_err(r#"{"a": ,}"#, "expected a value", 6, 1);
        assert_err("]", "expected a value", 0, 1);
        assert_err(
            "[1] [2]",
            "unexpected character `[` after the end of the JSON document",
            4,
            1,
        );
        assert_err(
            "{} x",
            "unexpected character `x` after the end of the JSON document",
            3,
            1,
        );
        assert_err("", "the file is empty", 0, 0);
        assert_err(" \r\n\t ", "the file is empty", 5, 0);
        assert_err(r#"{"a" 1}"#, "expected `:` after an object key", 5, 1);
        assert_err(
            "{a: 1}",
            "object keys must be double-quoted strings in JSON",
            1,
            1,
        );
        assert_err(
            "{\"a\": 1, 2: 3}",
            "unexpected character `2`: expected a double-quoted object key",
            9,
            1,
        );
        assert_err(
            "{'a': 1}",
            "single-quoted strings are not allowed in JSON; use double quotes",
            1,
            1,
        );
        assert_err(
            "['a']",
            "single-quoted strings are not allowed in JSON; use double quotes",
            1,
            1,
        );
        assert_err("[nul]", "invalid literal: expected `null`", 4, 1);
        assert_err("[fals e]", "invalid literal: expected `false`", 5, 1);
        assert_err(
            "[truex]",
            "expected `,` or `]` after an array element",
            5,
            1,
        );
        assert_err("tru", "unexpected end of input", 3, 0);
    }

    #[test]
    fn depth_limit() {
        let deep_ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        let mut node = &ok(&deep_ok);
        let mut levels = 1;
        while let Some([child]) = node.as_array() {
            node = child;
            levels += 1;
        }
        assert_eq!(levels, MAX_DEPTH);
        assert_eq!(node.pointer, "/0".repeat(MAX_DEPTH - 1));

        let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        let e = err(&too_deep);
        assert_eq!(e.message, "nesting is too deep (more than 256 levels)");
        assert_eq!(e.span, MAX_DEPTH..MAX_DEPTH + 1);

        let objects = format!(
            "{}1{}",
            "{\"a\":".repeat(MAX_DEPTH + 1),
            "}".repeat(MAX_DEPTH + 1)
        );
        let e = err(&objects);
        assert_eq!(e.span.start, 5 * MAX_DEPTH);
        assert_eq!(&objects[e.span.clone()], "{");

        let e = err(&"[".repeat(10_000));
        assert_eq!(e.span, MAX_DEPTH..MAX_DEPTH + 1);
        let e = err(&"[{\"k\":".repeat(10_000));
        assert_eq!(&"[{\"k\":".repeat(10_000)[e.span.clone()].len(), &1);
    }

    #[test]
    fn segments_of_plain_and_escaped_strings() {
        let src = r#"  "ab\ncd\ud83e\udd80e""#;
        let segments = string_segments(&src[2..], 2).unwrap();
        let expected = vec![
            Segment {
                decoded: 0..2,
                source: 3..5,
                verbatim: true,
            },
            Segment {
                decoded: 2..3,
                source: 5..7,
                verbatim: false,
            },
            Segment {
                decoded: 3..5,
                source: 7..9,
                verbatim: true,
            },
            Segment {
                decoded: 5..9,
                source: 9..21,
                verbatim: false,
            },
            Segment {
                decoded: 9..10,
                source: 21..22,
                verbatim: true,
            },
        ];
        assert_eq!(segments, expected);
        assert_eq!(string_segments("\"\"", 0), Some(Vec::new()));
        assert_eq!(string_segments("\"x", 0), None);
        assert_eq!(string_segments("\"\\\"", 0), None);
        assert_eq!(string_segments("\"\\q\"", 0), None);
    }

    fn decoded_range(node: &Node, word: &str) -> Range<usize> {
        let value = node.as_str().unwrap();
        let start = value.find(word).unwrap();
        start..start + word.len()
    }

    use std::ops::Range;

    #[test]
    fn source_range_maps_words_exactly() {
        let src = r#"{"tools": [{"description": "Caf\u00e9 tool: \"always\" call it, always"}]}"#;
        let root = ok(src);
        let desc = at(&root, "/tools/0/description");
        assert_eq!(desc.as_str(), Some("Café tool: \"always\" call it, always"));
        let range = desc.source_range(src, decoded_range(desc, "always"));
        assert_eq!(&src[range.clone()], "always");
        assert_eq!(range.start, src.find("always").unwrap());
        // The second "always", after more escapes.
        let value = desc.as_str().unwrap();
        let second = value.rfind("always").unwrap();
        let range = desc.source_range(src, second..second + 6);
        assert_eq!(&src[range.clone()], "always");
        assert_eq!(range.start, src.rfind("always").unwrap());
        // A range covering an escape grows to the whole escape.
        let range = desc.source_range(src, decoded_range(desc, "Café"));
        assert_eq!(&src[range], r"Caf\u00e9");
        let range = desc.source_range(src, decoded_range(desc, "é tool"));
        assert_eq!(&src[range], r"\u00e9 tool");
        let range = desc.source_range(src, decoded_range(desc, "\"always\""));
        assert_eq!(&src[range], r#"\"always\""#);
        // Half of a quote-escaped word: the escape maps as a whole.
        let range = desc.source_range(src, decoded_range(desc, "\"alw"));
        assert_eq!(&src[range], r#"\"alw"#);
        // The whole value maps to the inside of the quotes.
        let range = desc.source_range(src, 0..value.len());
        assert_eq!(
            &src[range],
            &src[desc.span().start + 1..desc.span().end - 1]
        );
    }

    #[test]
    fn source_range_around_surrogate_pairs_and_bom() {
        let src = "\u{feff}[\"\\ud83e\\udd80 crab \u{e9}t\u{e9}\"]";
        let root = ok(src);
        let s = at(&root, "/0");
        let range = s.source_range(src, decoded_range(s, "crab"));
        assert_eq!(&src[range], "crab");
        let range = s.source_range(src, decoded_range(s, "été"));
        assert_eq!(&src[range], "été");
        let range = s.source_range(src, decoded_range(s, "🦀"));
        assert_eq!(&src[range], r"\ud83e\udd80");
    }

    /// Every word of a few dozen strings maps to exactly itself in the source, or (when an
    /// escape is involved) to a range that strictly contains the escaped text.
    #[test]
    fn every_word_maps_to_itself_or_an_enclosing_range() {
        let values = [
            "plain words only",
            "tab\there and new\nline",
            "quotes \"inside\" and \\backslash\\ too",
            "unicode café résumé naïve",
            "emoji 🦀 crab and 😀 face",
            "mixed \u{1} control \u{1f} chars",
            "slash/and/path segments",
            "",
            "   leading and trailing   ",
            "\"\"\"",
            "日本語 の テキスト",
            "a\u{2028}b\u{2029}c",
            "URL https://example.com/x?y=1&z=2",
            "end with escape\n",
            "\nstart with escape",
            "ALWAYS use this tool; NEVER that one",
            "x",
            "\\",
            "€ and £ and ¥",
            "tabs\t\t\tgalore",
        ];
        for (n, value) in values.iter().enumerate() {
            // Write each value three ways: serde's escaping, everything non-ASCII as \u, and
            // a version with every letter `e` escaped.
            let serde = serde_json::to_string(value).unwrap();
            let mut ascii = String::from("\"");
            let mut e_escaped = String::from("\"");
            for ch in value.chars() {
                let plain = serde_json::to_string(&ch.to_string()).unwrap();
                let inner = &plain[1..plain.len() - 1];
                if ch.is_ascii() {
                    ascii.push_str(inner);
                } else {
                    let mut buf = [0u16; 2];
                    for unit in ch.encode_utf16(&mut buf) {
                        ascii.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                if ch == 'e' {
                    e_escaped.push_str("\\u0065");
                } else {
                    e_escaped.push_str(inner);
                }
            }
            ascii.push('"');
            e_escaped.push('"');
            for literal in [serde, ascii, e_escaped] {
                let src = format!("{{\"k{n}\": [1, {literal}]}}");
                let root = ok(&src);
                let node = at(&root, &format!("/k{n}/1"));
                assert_eq!(node.as_str(), Some(*value), "{src}");
                for (start, word) in words(value) {
                    let range = node.source_range(&src, start..start + word.len());
                    assert!(node.span().start < range.start && range.end < node.span().end);
                    let mapped = &src[range.clone()];
                    if mapped != word {
                        assert!(
                            mapped.len() > word.len() && mapped.contains('\\'),
                            "{word:?} mapped to {mapped:?} in {src}"
                        );
                        // Decoding the mapped source gives back text containing the word.
                        let decoded: String =
                            serde_json::from_str(&format!("\"{mapped}\"")).unwrap();
                        assert!(decoded.contains(word), "{decoded:?} lacks {word:?}");
                    }
                }
            }
        }
    }

    /// The maximal runs of alphanumeric chars in `text`, with their byte offsets.
    fn words(text: &str) -> Vec<(usize, &str)> {
        let mut words = Vec::new();
        let mut start = None;
        for (i, ch) in text.char_indices().chain([(text.len(), ' ')]) {
            match (ch.is_alphanumeric(), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    words.push((s, &text[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        words
    }

    /// Parses mutations and truncations of a document: never panics, error spans are in
    /// bounds and on char boundaries, and the verdict and value agree with serde_json.
    #[test]
    fn agrees_with_serde_json_on_mutations() {
        let base = "\u{feff}{\"tools\": [{\"name\": \"a\\u00e9\\ud83e\\udd80\", \"n\": -1.5e3, \
                    \"x\": [true, false, null, 0, 12]}, {\"d\": \"caf\u{e9} \\\"q\\\"\"}]}";
        let replacements = [
            "", "\"", "\\", ",", ":", "[", "]", "{", "}", "0", "-", ".", "e", " ", "\n", "é",
            "\u{0}", "/", "*", "t", "u", "\\u", "\\ud800",
        ];
        let boundaries: Vec<usize> = (0..=base.len())
            .filter(|&i| base.is_char_boundary(i))
            .collect();
        let mut checked = 0;
        for &i in &boundaries {
            check_against_serde(&base[..i]);
            let next = boundaries.iter().find(|&&j| j > i).copied();
            for rep in replacements {
                let mut mutated = String::from(&base[..i]);
                mutated.push_str(rep);
                if let Some(j) = next {
                    // Replace the char at i, and also insert before it.
                    let mut inserted = mutated.clone();
                    inserted.push_str(&base[i..]);
                    check_against_serde(&inserted);
                    mutated.push_str(&base[j..]);
                }
                check_against_serde(&mutated);
                checked += 2;
            }
        }
        assert!(checked > 1000);
    }

    fn check_against_serde(src: &str) {
        let ours = parse(src);
        // serde_json rejects a BOM; strip it for the comparison.
        let theirs =
            serde_json::from_str::<serde_json::Value>(src.strip_prefix('\u{feff}').unwrap_or(src));
        match (&ours, &theirs) {
            (Ok(node), Ok(value)) => assert_eq!(&node.to_json(), value, "{src:?}"),
            (Err(e), Err(_)) => {
                assert!(
                    e.span.start <= e.span.end && e.span.end <= src.len(),
                    "{src:?}"
                );
                assert!(src.is_char_boundary(e.span.start), "{src:?} {e:?}");
                assert!(src.is_char_boundary(e.span.end), "{src:?} {e:?}");
                assert!(!e.message.is_empty());
            }
            _ => panic!("disagreement on {src:?}: ours {ours:?}, serde {theirs:?}"),
        }
    }
}

//! The value tree every manifest is parsed into: JSON and YAML alike, every key and value with
//! its byte span and JSON Pointer, so any rule can point anywhere without knowing the format.

use std::ops::Range;

/// A byte range into the file's source text (the whole text, including any UTF-8 BOM).
pub type Span = Range<usize>;

/// One parsed value with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// The value as written: a scalar's text (quotes included), a block scalar's content lines
    /// (indicator line excluded, trailing line break excluded), a collection from its first to
    /// its last byte (`{`..`}` for flow/JSON, first entry to end of last entry for block YAML).
    pub span: Span,
    /// RFC 6901 pointer from the document root, e.g. `/tools/3/inputSchema/properties/api_key`.
    pub pointer: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(Str),
    Array(Vec<Node>),
    /// Entries in source order; duplicate keys are kept (see [`Node::get`]).
    Object(Vec<Entry>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The decoded key.
    pub key: String,
    /// The key as written (quotes included).
    pub key_span: Span,
    pub value: Node,
}

/// A decoded string plus what is needed to map a range of it back to the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Str {
    pub value: String,
    pub style: StrStyle,
    /// The source bytes the segment builder for `style` rescans (for block scalars this starts
    /// at the `|`/`>` indicator; for quoted scalars it includes the quotes).
    pub raw: Span,
}

/// How a string was written, which decides how decoded offsets map back to the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrStyle {
    Json,
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
    /// Reached through a YAML alias, or otherwise without a source of its own: every range maps
    /// to the node's whole span (the use site).
    Opaque,
}

/// A piece of a decoded string and the source bytes it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Byte range in the decoded string.
    pub decoded: Range<usize>,
    /// Absolute byte range in the source text.
    pub source: Span,
    /// The source bytes are the decoded bytes, one for one (no escape, no folding), so a
    /// sub-range maps exactly. Otherwise the segment maps only as a whole.
    pub verbatim: bool,
}

impl Node {
    pub fn new(kind: NodeKind, span: Span, pointer: String) -> Self {
        Node {
            kind,
            span,
            pointer,
        }
    }

    /// The value of `key` in an object (the last one when the key is duplicated, as JSON
    /// parsers and providers do).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|entry| &entry.value)
    }

    /// The entry of `key` in an object (the last one when duplicated).
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        match &self.kind {
            NodeKind::Object(entries) => entries.iter().rev().find(|entry| entry.key == key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::String(s) => Some(&s.value),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[Entry]> {
        match &self.kind {
            NodeKind::Object(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            NodeKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match &self.kind {
            NodeKind::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// The JSON type name, for messages such as "expected a string, found a number".
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            NodeKind::Null => "null",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Number(_) => "a number",
            NodeKind::String(_) => "a string",
            NodeKind::Array(_) => "an array",
            NodeKind::Object(_) => "an object",
        }
    }

    /// Follows an RFC 6901 pointer relative to this node.
    pub fn at_pointer(&self, pointer: &str) -> Option<&Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut node = self;
        for token in rest.split('/') {
            let token = unescape_pointer_token(token);
            node = match &node.kind {
                NodeKind::Object(_) => node.get(&token)?,
                NodeKind::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The source range of `decoded`, a byte range of this string's decoded value. Exact where
    /// the source holds those bytes verbatim; where escapes or line folding intervene, the
    /// smallest enclosing source range; for non-strings or unmappable text, the whole span.
    pub fn source_range(&self, source: &str, decoded: Range<usize>) -> Span {
        let NodeKind::String(s) = &self.kind else {
            return self.span.clone();
        };
        match segments(s, source) {
            Some(segments) => map_range(&segments, decoded).unwrap_or_else(|| self.span.clone()),
            None => self.span.clone(),
        }
    }

    /// Converts to a `serde_json::Value` (for schema validation and typed options).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Number(n) => Value::Number(n.clone()),
            NodeKind::String(s) => Value::String(s.value.clone()),
            NodeKind::Array(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeKind::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|entry| (entry.key.clone(), entry.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// Re-points this subtree at `span` (the use site of a YAML alias) under `pointer`.
    pub fn relocate(&mut self, span: &Span, pointer: &str) {
        self.span = span.clone();
        self.pointer = pointer.to_string();
        match &mut self.kind {
            NodeKind::String(s) => {
                s.style = StrStyle::Opaque;
                s.raw = span.clone();
            }
            NodeKind::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    item.relocate(span, &format!("{pointer}/{index}"));
                }
            }
            NodeKind::Object(entries) => {
                for entry in entries {
                    entry.key_span = span.clone();
                    let child = format!("{pointer}/{}", escape_pointer_token(&entry.key));
                    entry.value.relocate(span, &child);
                }
            }
            _ => {}
        }
    }
}

/// Builds the decoded→source segments of a string, or `None` when they cannot be trusted
/// (the caller then falls back to the whole span). The segments are checked against the
/// decoded value, so a builder bug degrades to a wider span, never to a wrong one.
fn segments(s: &Str, source: &str) -> Option<Vec<Segment>> {
    let raw = source.get(s.raw.clone())?;
    let segments = match s.style {
        StrStyle::Json => super::json::string_segments(raw, s.raw.start)?,
        StrStyle::Opaque => return None,
        style => super::yaml::string_segments(style, raw, s.raw.start, &s.value)?,
    };
    let mut expected_start = 0;
    for segment in &segments {
        if segment.decoded.start != expected_start || segment.decoded.end < segment.decoded.start {
            return None;
        }
        let decoded = s.value.get(segment.decoded.clone())?;
        if segment.verbatim && source.get(segment.source.clone())? != decoded {
            return None;
        }
        expected_start = segment.decoded.end;
    }
    (expected_start == s.value.len()).then_some(segments)
}

fn map_range(segments: &[Segment], decoded: Range<usize>) -> Option<Span> {
    let start = map_offset(segments, decoded.start, false)?;
    let end = map_offset(segments, decoded.end, true)?;
    (start <= end).then_some(start..end)
}

/// Maps one decoded offset; `is_end` picks the segment that ends at a boundary rather than the
/// one that starts there, so a range never grows into a neighbouring segment.
fn map_offset(segments: &[Segment], offset: usize, is_end: bool) -> Option<usize> {
    let segment = segments.iter().find(|segment| {
        if is_end {
            segment.decoded.start < offset && offset <= segment.decoded.end
        } else {
            segment.decoded.start <= offset && offset < segment.decoded.end
        }
    });
    let Some(segment) = segment else {
        // An empty range at the very end, or an empty string.
        return segments.last().map(|last| last.source.end);
    };
    Some(if segment.verbatim {
        segment.source.start + (offset - segment.decoded.start)
    } else if is_end {
        segment.source.end
    } else {
        segment.source.start
    })
}

pub fn escape_pointer_token(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_string()
    }
}

pub fn unescape_pointer_token(token: &str) -> String {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~")
    } else {
        token.to_string()
    }
}

/// Why a file could not be parsed, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    /// Byte range of the offending text (may be empty, e.g. at end of input).
    pub span: Span,
}

/// Nesting deeper than this is refused with a [`ParseError`] rather than risking the stack.
pub const MAX_DEPTH: usize = 256;

//! The value tree every manifest is parsed into: JSON and YAML alike, every key and value with
//! its byte span and JSON Pointer, so any rule can point anywhere without knowing the format.

use std::fmt::{self, Write as _};
use std::ops::Range;
use std::sync::Arc;

use once_cell::race::OnceBox;

/// A byte range into the file's source text (the whole text, including any UTF-8 BOM).
pub type Span = Range<usize>;

/// The longest text the parsers take: the tree keeps its offsets in 32 bits.
pub const MAX_SOURCE_LEN: usize = u32::MAX as usize;

/// A [`Span`] as the tree keeps it, in 32 bits: a manifest is parsed whole, with a key and a
/// value per few bytes of it, so the tree's size counts. Offsets past [`MAX_SOURCE_LEN`] never
/// reach it (the parsers refuse such a text); they would be clamped.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Span32 {
    start: u32,
    end: u32,
}

impl Span32 {
    fn new(span: Span) -> Self {
        let clamp = |offset: usize| u32::try_from(offset).unwrap_or(u32::MAX);
        Span32 {
            start: clamp(span.start),
            end: clamp(span.end),
        }
    }

    fn get(self) -> Span {
        self.start as usize..self.end as usize
    }
}

impl fmt::Debug for Span32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.get(), f)
    }
}

/// One parsed value with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// The value as written: a scalar's text (quotes included), a block scalar's content lines
    /// (indicator line excluded, trailing line break excluded), a collection from its first to
    /// its last byte (`{`..`}` for flow/JSON, first entry to end of last entry for block YAML);
    /// read with [`Node::span`].
    span: Span32,
    /// RFC 6901 pointer from the document root, e.g. `/tools/3/inputSchema/properties/api_key`.
    pub pointer: Pointer,
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
    pub key: Key,
    /// The key as written (quotes included); read with [`Entry::key_span`].
    key_span: Span32,
    pub value: Node,
}

/// An object's key, decoded. The parsers share one copy of each distinct key within a file
/// (a tool set repeats `type`, `description` and `properties` thousands of times).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Key(Arc<str>);

impl Key {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Key {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Key {
    fn from(key: &str) -> Self {
        Key(key.into())
    }
}

impl From<&Key> for Key {
    fn from(key: &Key) -> Self {
        key.clone()
    }
}

impl From<String> for Key {
    fn from(key: String) -> Self {
        Key(key.into())
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One copy of each distinct key of a file, for its parser.
#[derive(Default)]
pub(crate) struct Keys(std::collections::HashSet<Key>);

impl Keys {
    pub(crate) fn get(&mut self, key: &str) -> Key {
        if let Some(shared) = self.0.get(key) {
            return shared.clone();
        }
        let shared = Key::from(key);
        self.0.insert(shared.clone());
        shared
    }
}

/// A decoded string plus what is needed to map a range of it back to the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Str {
    pub value: Box<str>,
    pub style: StrStyle,
    raw: Span32,
    /// The segments, built on the first [`Node::source_range`] call and reused after.
    segments: SegmentCache,
}

impl Str {
    /// A string whose source bytes are `raw`.
    pub fn new(value: impl Into<Box<str>>, style: StrStyle, raw: Span) -> Self {
        Str {
            value: value.into(),
            style,
            raw: Span32::new(raw),
            segments: SegmentCache::default(),
        }
    }

    /// The source of `decoded` in a string written as its value (a JSON string without
    /// escapes, a YAML plain or single-quoted scalar on one line): one as long as its text less
    /// the quotes, in a style where every escape and every fold is at least as long as what it
    /// stands for, so that a shorter one would show; checked against `source`. Most strings of
    /// a manifest, mapped without building their segments. Not a double-quoted scalar: its
    /// `\L` is longer decoded than written.
    fn verbatim_range(&self, source: &str, decoded: Range<usize>) -> Option<Span> {
        let raw = self.raw();
        let quote = match self.style {
            StrStyle::Json | StrStyle::SingleQuoted => 1,
            StrStyle::Plain => 0,
            _ => return None,
        };
        // An empty range is left to the segments, which map it as they map any other string's.
        if raw.len() != self.value.len() + 2 * quote || decoded.is_empty() {
            return None;
        }
        let span = raw.start + quote + decoded.start..raw.start + quote + decoded.end;
        (source.get(span.clone())? == self.value.get(decoded)?).then_some(span)
    }

    /// The source bytes the segment builder for `style` rescans (for block scalars this starts
    /// at the `|`/`>` indicator; for quoted scalars it includes the quotes).
    pub fn raw(&self) -> Span {
        self.raw.get()
    }
}

// A manifest is parsed whole, one entry per few bytes of it: keep them small.
const _: () = assert!(std::mem::size_of::<Entry>() <= 80);

impl Entry {
    pub fn new(key: Key, key_span: Span, value: Node) -> Self {
        Entry {
            key,
            key_span: Span32::new(key_span),
            value,
        }
    }

    /// The key as written (quotes included).
    pub fn key_span(&self) -> Span {
        self.key_span.get()
    }
}

/// A string's decoded→source segments, built once (a long string with many findings would
/// otherwise be rescanned for each). Invisible to `==` and `{:?}`: two strings are equal
/// whether or not their segments have been built yet; a copy starts without them.
#[derive(Default)]
struct SegmentCache(OnceBox<CachedSegments>);

impl Clone for SegmentCache {
    fn clone(&self) -> Self {
        SegmentCache::default()
    }
}

struct CachedSegments {
    /// The source text the segments were built from (address and length): a call with another
    /// text rebuilds them rather than trusting these.
    source: (usize, usize),
    /// `None` when the segments cannot be trusted (every range maps to the whole span).
    segments: Option<Box<[Segment]>>,
}

impl SegmentCache {
    /// Maps `decoded` with the cached segments of `s` (building them on the first call).
    fn map(&self, s: &Str, source: &str, decoded: Range<usize>) -> Option<Span> {
        let key = (source.as_ptr() as usize, source.len());
        let cached = self.0.get_or_init(|| {
            Box::new(CachedSegments {
                source: key,
                segments: segments(s, source).map(Vec::into_boxed_slice),
            })
        });
        if cached.source == key {
            map_range(cached.segments.as_deref()?, decoded)
        } else {
            map_range(&segments(s, source)?, decoded)
        }
    }
}

impl PartialEq for SegmentCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for SegmentCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SegmentCache")
    }
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
    /// JavaScript literals read from a server's source (one, or several joined with `+`).
    Js,
    /// Python literals read from a server's source (one, or several adjacent).
    Py,
    /// A Python docstring as `inspect.cleandoc` leaves it (FastMCP's descriptions).
    PyDoc,
    /// Go literals read from a server's source (one, or several joined with `+`).
    Go,
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
    pub fn new(kind: NodeKind, span: Span, pointer: Pointer) -> Self {
        Node {
            kind,
            span: Span32::new(span),
            pointer,
        }
    }

    /// The value as written: see the field.
    pub fn span(&self) -> Span {
        self.span.get()
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
    ///
    /// The string's segments are built on the first call (linear in the string) and kept, so
    /// further calls with the same `source` cost a binary search each.
    pub fn source_range(&self, source: &str, decoded: Range<usize>) -> Span {
        let NodeKind::String(s) = &self.kind else {
            return self.span();
        };
        if let Some(span) = s.verbatim_range(source, decoded.clone()) {
            return span;
        }
        s.segments
            .map(s, source, decoded)
            .unwrap_or_else(|| self.span())
    }

    /// Converts to a `serde_json::Value` (for schema validation and typed options).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Number(n) => Value::Number(n.clone()),
            NodeKind::String(s) => Value::String(s.value.to_string()),
            NodeKind::Array(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeKind::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|entry| (entry.key.to_string(), entry.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// `self.to_json().to_string()`, without building the `Value`: the compact JSON a provider
    /// is sent, byte for byte (a schema's token count reads it; 100,000 schemas took a tenth
    /// of a second more through the `Value`).
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(&AsJson(self)).unwrap_or_else(|_| self.to_json().to_string())
    }

    /// Re-points this subtree at `span` (the use site of a YAML alias) under `pointer`.
    pub fn relocate(&mut self, span: &Span, pointer: &Pointer) {
        self.span = Span32::new(span.clone());
        self.pointer = pointer.clone();
        match &mut self.kind {
            NodeKind::String(s) => {
                *s = Str::new(std::mem::take(&mut s.value), StrStyle::Opaque, span.clone());
            }
            NodeKind::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    item.relocate(span, &pointer.index(index));
                }
            }
            NodeKind::Object(entries) => {
                for entry in entries {
                    entry.key_span = Span32::new(span.clone());
                    entry.value.relocate(span, &pointer.key(&entry.key));
                }
            }
            _ => {}
        }
    }
}

/// A node serialized as [`Node::to_json`]'s value serializes. An object whose keys repeat takes
/// the value's way (the first key's place, the last value) rather than copying it here.
struct AsJson<'a>(&'a Node);

impl serde::Serialize for AsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match &self.0.kind {
            NodeKind::Null => serializer.serialize_unit(),
            NodeKind::Bool(b) => serializer.serialize_bool(*b),
            NodeKind::Number(n) => n.serialize(serializer),
            NodeKind::String(s) => serializer.serialize_str(&s.value),
            NodeKind::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&AsJson(item))?;
                }
                seq.end()
            }
            NodeKind::Object(entries) if has_repeated_key(entries) => {
                self.0.to_json().serialize(serializer)
            }
            NodeKind::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for entry in entries {
                    map.serialize_entry(entry.key.as_str(), &AsJson(&entry.value))?;
                }
                map.end()
            }
        }
    }
}

/// Whether two entries have the same key (pairwise for a few, else through a set).
fn has_repeated_key(entries: &[Entry]) -> bool {
    if entries.len() <= 16 {
        return entries
            .iter()
            .enumerate()
            .any(|(i, entry)| entries[..i].iter().any(|before| before.key == entry.key));
    }
    let mut seen = std::collections::HashSet::with_capacity(entries.len());
    !entries.iter().all(|entry| seen.insert(entry.key.as_str()))
}

/// Builds the decoded→source segments of a string, or `None` when they cannot be trusted
/// (the caller then falls back to the whole span). The segments are checked against the
/// decoded value, so a builder bug degrades to a wider span, never to a wrong one.
fn segments(s: &Str, source: &str) -> Option<Vec<Segment>> {
    let span = s.raw();
    let raw = source.get(span.clone())?;
    let segments = match s.style {
        StrStyle::Json => super::json::string_segments(raw, span.start)?,
        StrStyle::Opaque => return None,
        StrStyle::Js => super::code::js_string_segments(raw, span.start)?,
        StrStyle::Py => super::code::py_string_segments(raw, span.start)?,
        StrStyle::PyDoc => super::code::py_docstring_segments(raw, span.start)?,
        StrStyle::Go => super::code::go_string_segments(raw, span.start)?,
        style => super::yaml::string_segments(style, raw, span.start, &s.value)?,
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
///
/// A binary search: [`segments`] checked that the segments tile the decoded string in order, so
/// their ends never decrease, and the first segment that can hold `offset` is the first one
/// that ends after it (at or after it, for an end).
fn map_offset(segments: &[Segment], offset: usize, is_end: bool) -> Option<usize> {
    let index = segments.partition_point(|segment| {
        if is_end {
            segment.decoded.end < offset
        } else {
            segment.decoded.end <= offset
        }
    });
    let segment = segments.get(index).filter(|segment| {
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

/// An RFC 6901 pointer: its parent's pointer (shared, not copied) and one token of its own.
/// Every node has one, so a copied path would make long keys nested deep cost the square of
/// the depth; shared, each node costs its own token. The text is written out on demand
/// ([`fmt::Display`]), which rules need only for the nodes they report.
#[derive(Clone, Default)]
pub struct Pointer(Option<Arc<Link>>);

struct Link {
    parent: Pointer,
    token: Token,
}

enum Token {
    /// A key, as decoded (escaped when written out): the file's shared copy of it, so a link
    /// costs no allocation of its own.
    Key(Key),
    Index(usize),
}

// Two words: a link is 40 bytes with its counts, and there is one for every node.
const _: () = assert!(std::mem::size_of::<Token>() <= 16);

/// Whether a key needs RFC 6901's escapes (`~0`, `~1`).
fn needs_escape(key: &str) -> bool {
    key.contains(['~', '/'])
}

impl Token {
    fn len(&self) -> usize {
        match self {
            Token::Index(index) => index
                .checked_ilog10()
                .map_or(1, |digits| digits as usize + 1),
            Token::Key(key) => key.len() + key.bytes().filter(|b| matches!(b, b'~' | b'/')).count(),
        }
    }

    fn same(&self, other: &Token) -> bool {
        match (self, other) {
            (Token::Index(a), Token::Index(b)) => a == b,
            // `/3` written as a key and as an index.
            (Token::Index(index), Token::Key(key)) | (Token::Key(key), Token::Index(index)) => {
                key.as_str() == index.to_string()
            }
            (Token::Key(a), Token::Key(b)) => a == b,
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Index(index) => write!(f, "{index}"),
            Token::Key(key) if needs_escape(key) => f.write_str(&escape_pointer_token(key)),
            Token::Key(key) => f.write_str(key),
        }
    }
}

impl Pointer {
    /// The document root: `""`.
    pub fn root() -> Self {
        Pointer(None)
    }

    /// `self/key` (escaped when written out).
    pub fn key(&self, key: impl Into<Key>) -> Pointer {
        self.child(Token::Key(key.into()))
    }

    /// `self/index`.
    pub fn index(&self, index: usize) -> Pointer {
        self.child(Token::Index(index))
    }

    fn child(&self, token: Token) -> Pointer {
        Pointer(Some(Arc::new(Link {
            parent: self.clone(),
            token,
        })))
    }

    pub fn is_root(&self) -> bool {
        self.0.is_none()
    }

    /// The pointer written out, allocated to size (a finding keeps it until the end).
    pub fn written(&self) -> String {
        let mut text = String::with_capacity(self.byte_len());
        // Writing to a String cannot fail.
        let _ = write!(text, "{self}");
        text
    }

    /// The length of the written-out pointer, in bytes.
    pub fn byte_len(&self) -> usize {
        let mut len = 0;
        let mut at = self;
        while let Some(link) = &at.0 {
            len += 1 + link.token.len();
            at = &link.parent;
        }
        len
    }

    /// The bytes this pointer adds to its parent's: `/` and its token (0 for the root).
    pub fn own_len(&self) -> usize {
        self.0.as_ref().map_or(0, |link| 1 + link.token.len())
    }

    /// This pointer below `ancestor` (`""` for `ancestor` itself), or `None` when `ancestor`
    /// is not a prefix of it.
    pub fn strip_prefix(&self, ancestor: &Pointer) -> Option<String> {
        let mut below = Vec::new();
        let mut at = self;
        while at != ancestor {
            let link = at.0.as_ref()?;
            below.push(&link.token);
            at = &link.parent;
        }
        Some(write_tokens(below.into_iter().rev()))
    }
}

/// `/token` for each token.
fn write_tokens<'t>(tokens: impl Iterator<Item = &'t Token>) -> String {
    let mut text = String::new();
    for token in tokens {
        // Writing to a String cannot fail.
        let _ = write!(text, "/{token}");
    }
    text
}

impl fmt::Display for Pointer {
    /// The parent first, recursively: the depth is bounded by the parsers' nesting limit, and
    /// no list of tokens is allocated (a finding's pointer is written out between the
    /// allocations that stay).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(link) => write!(f, "{}/{}", link.parent, link.token),
            None => Ok(()),
        }
    }
}

/// Written out, as a string.
impl serde::Serialize for Pointer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Debug for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

/// Equal when written out the same (a key `3` and an index 3 alike), as the strings were.
impl PartialEq for Pointer {
    fn eq(&self, other: &Pointer) -> bool {
        let (mut a, mut b) = (self, other);
        loop {
            match (&a.0, &b.0) {
                (None, None) => return true,
                (Some(x), Some(y)) if Arc::ptr_eq(x, y) => return true,
                (Some(x), Some(y)) if x.token.same(&y.token) => {
                    a = &x.parent;
                    b = &y.parent;
                }
                _ => return false,
            }
        }
    }
}

impl Eq for Pointer {}

impl PartialEq<str> for Pointer {
    fn eq(&self, other: &str) -> bool {
        /// Consumes the expected text as the pointer is written out, failing at a difference.
        struct Expect<'t>(&'t str);
        impl fmt::Write for Expect<'_> {
            fn write_str(&mut self, written: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(written).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut expect = Expect(other);
        write!(expect, "{self}").is_ok() && expect.0.is_empty()
    }
}

impl PartialEq<&str> for Pointer {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for Pointer {
    fn eq(&self, other: &String) -> bool {
        *self == **other
    }
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

/// A [`ParseError`] for a text too long for the tree's 32-bit offsets (past 4 GiB): no
/// manifest is near it, and `max-file-size` stops one long before unless raised.
pub(super) fn check_len(source: &str) -> Result<(), ParseError> {
    if source.len() <= MAX_SOURCE_LEN {
        return Ok(());
    }
    Err(ParseError {
        message: format!(
            "the text is {} bytes, over the {MAX_SOURCE_LEN} bytes toolcheck parses",
            source.len()
        ),
        span: 0..0,
    })
}

/// Nesting deeper than this is refused with a [`ParseError`] rather than risking the stack.
pub const MAX_DEPTH: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_round_trip_in_32_bits_and_clamp_past_them() {
        let max = u32::MAX as usize;
        assert_eq!(Span32::new(3..max).get(), 3..max);
        assert_eq!(Span32::new(max..max + 10).get(), max..max);
        let node = Node::new(NodeKind::Null, 7..11, Pointer::root());
        assert_eq!(node.span(), 7..11);
        assert_eq!(
            format!("{node:?}"),
            "Node { kind: Null, span: 7..11, pointer: \"\" }"
        );
    }

    #[test]
    fn json_strings_are_the_values_strings() {
        let many_keys: String = (0..20).map(|i| format!("\"k{}\": {i}, ", i % 17)).collect();
        let json = [
            r#"{"b": 1, "a": [true, false, null], "c": {"d": "e"}}"#,
            r#"["\u0000\u001f\"\\/\b\f\n\r\t", "é😀\u2028", "\ud83d\ude00"]"#,
            r#"[0, -0, 1.0, -1.5e300, 1e-7, 12345678901234567890, -9223372036854775808, 0.1]"#,
            r#"{"a": 1, "b": 2, "a": 3}"#,
            r#"{"x": {"a": {}, "a": []}, "y": [{"z": 1, "z": {"z": 2}}]}"#,
            &format!("{{{many_keys}\"end\": 0}}"),
            &format!(
                "{{{}\"k0\": 1}}",
                (0..20)
                    .map(|i| format!("\"u{i}\": 0, "))
                    .collect::<String>()
            ),
            "{}",
            "[]",
            "\"\"",
        ];
        let yaml = [
            "a: 1\nb: 1.5\nc: yes\nd: ~\ne: 0x1F\nf: .inf\ng: -.nan\nh: 1e3\ni: '007'\n",
            "k: |\n  two\n  lines\nl: >\n  folded\n  text\nm: [1, two, {n: 3}]\n",
            "base: &b {type: string}\nuse: *b\nagain: {<<: *b, extra: 1}\n",
            "dup: 1\ndup: 2\nother: 3\n",
        ];
        for (text, is_json) in json
            .iter()
            .map(|t| (*t, true))
            .chain(yaml.iter().map(|t| (*t, false)))
        {
            let node = crate::parse::parse(text, is_json).expect(text);
            assert_eq!(node.to_json_string(), node.to_json().to_string(), "{text}");
        }
    }

    /// The mapping as it was before segments were cached: built afresh, searched linearly.
    fn uncached(node: &Node, source: &str, decoded: Range<usize>) -> Span {
        let NodeKind::String(s) = &node.kind else {
            return node.span();
        };
        match segments(s, source) {
            Some(segments) => linear_map_range(&segments, decoded).unwrap_or_else(|| node.span()),
            None => node.span(),
        }
    }

    fn linear_map_range(segments: &[Segment], decoded: Range<usize>) -> Option<Span> {
        let start = linear_map_offset(segments, decoded.start, false)?;
        let end = linear_map_offset(segments, decoded.end, true)?;
        (start <= end).then_some(start..end)
    }

    fn linear_map_offset(segments: &[Segment], offset: usize, is_end: bool) -> Option<usize> {
        let segment = segments.iter().find(|segment| {
            if is_end {
                segment.decoded.start < offset && offset <= segment.decoded.end
            } else {
                segment.decoded.start <= offset && offset < segment.decoded.end
            }
        });
        let Some(segment) = segment else {
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

    /// A long text of words, with `é`/`日本` and a flagged word every few words.
    fn words(count: usize) -> Vec<String> {
        (0..count)
            .map(|i| match i % 7 {
                0 => "always".to_string(),
                3 => format!("é{i}"),
                5 => format!("日本{i}"),
                _ => format!("w{i}"),
            })
            .collect()
    }

    /// Long strings in every style, each with the pointer of the string to check.
    fn samples() -> Vec<(String, bool, &'static str)> {
        let words = words(1500);
        let mut samples = Vec::new();
        // JSON, with escapes between the words.
        let escapes = [
            "\\n",
            " ",
            "\\\"",
            " \\u00e9 ",
            "\\\\",
            "\\t",
            "\\ud83d\\ude00",
            "  ",
        ];
        let mut json = String::from("{\"a\": \"");
        for (i, word) in words.iter().enumerate() {
            json.push_str(word);
            json.push_str(escapes[i % escapes.len()]);
        }
        json.push_str("\"}");
        samples.push((json, true, "/a"));
        // JSON without escapes (one verbatim segment).
        samples.push((format!("{{\"a\": \"{}\"}}", words.join(" ")), true, "/a"));
        // YAML plain, folded over lines with empty lines.
        let mut plain = String::from("a: ");
        for (i, word) in words.iter().enumerate() {
            plain.push_str(word);
            plain.push_str(["   ", "\n  ", " ", "\n\n  ", " \n   "][i % 5]);
        }
        plain.push_str("end\n");
        samples.push((plain, false, "/a"));
        // YAML plain and single-quoted on one line (mapped verbatim), and a plain scalar whose
        // fold is as long as the line break it replaces (`x\ny` at the top level).
        samples.push((format!("a: {}\n", words.join(" ")), false, "/a"));
        samples.push((format!("a: '{}'\n", words.join(" ")), false, "/a"));
        samples.push((words.join("\n"), false, ""));
        // Single-quoted, with `''` and folds.
        let mut single = String::from("a: '");
        for (i, word) in words.iter().enumerate() {
            single.push_str(word);
            single.push_str([" ", "''", "\n  ", "  \n\n   ", " "][i % 5]);
        }
        single.push_str("end'\n");
        samples.push((single, false, "/a"));
        // Double-quoted, with escapes, folds and escaped breaks.
        let mut double = String::from("a: \"");
        for (i, word) in words.iter().enumerate() {
            double.push_str(word);
            double.push_str([" ", "\\n", "\n  ", "\\\n   ", "\\u00e9 ", "\\t", "\\\""][i % 7]);
        }
        double.push_str("end\"\n");
        samples.push((double, false, "/a"));
        // Literal and folded block scalars, with more-indented and empty lines, LF and CRLF.
        for (header, newline) in [("|", "\n"), ("|-", "\r\n"), (">", "\n"), (">+", "\r\n")] {
            let mut block = format!("a: {header}{newline}");
            for (i, line) in words.chunks(9).enumerate() {
                let indent = if i % 5 == 3 { "    " } else { "  " };
                block.push_str(indent);
                block.push_str(&line.join(" "));
                block.push_str(newline);
                if i % 4 == 1 {
                    block.push_str(newline);
                }
            }
            block.push_str("b: 1");
            block.push_str(newline);
            samples.push((block, false, "/a"));
        }
        samples
    }

    #[test]
    fn cached_segments_map_as_a_fresh_computation_does() {
        for (src, json, pointer) in samples() {
            let root = crate::parse::parse(&src, json).expect("the sample parses");
            let node = root.at_pointer(pointer).expect("the sample has its string");
            let NodeKind::String(s) = &node.kind else {
                panic!("not a string: {node:?}")
            };
            let fresh = segments(s, &src).unwrap_or_else(|| panic!("no segments: {src:.80}"));
            assert!(fresh.len() > 1 || !src.contains('\\'), "{src:.80}");
            let value = &s.value;
            let boundaries: Vec<usize> = (0..=value.len())
                .filter(|&i| value.is_char_boundary(i))
                .collect();
            let mut lookups = 0;
            for (n, &start) in boundaries.iter().enumerate() {
                for len in [0, 1, 2, 6, 13, 40] {
                    let Some(&end) = boundaries.get(n + len) else {
                        continue;
                    };
                    let range = node.source_range(&src, start..end);
                    let expected =
                        linear_map_range(&fresh, start..end).unwrap_or_else(|| node.span());
                    assert_eq!(range, expected, "{start}..{end} in {src:.80}");
                    if n % 97 == 0 {
                        assert_eq!(range, uncached(node, &src, start..end));
                    }
                    lookups += 1;
                }
            }
            assert!(lookups > 10_000);
            // Every `always` (as a rule finds it) maps onto itself.
            let mut at = 0;
            while let Some(found) = value[at..].find("always") {
                let start = at + found;
                let range = node.source_range(&src, start..start + 6);
                assert_eq!(&src[range], "always");
                at = start + 6;
            }
            // The whole value, an empty range at the end, a range past the end.
            for range in [0..value.len(), value.len()..value.len(), 0..value.len() + 1] {
                assert_eq!(
                    node.source_range(&src, range.clone()),
                    uncached(node, &src, range)
                );
            }
            // A clone, and the same text at another address, map the same.
            let copy = src.clone();
            let clone = node.clone();
            for range in [3..9, 100..140, value.len() / 2..value.len()] {
                let expected = uncached(node, &src, range.clone());
                assert_eq!(clone.source_range(&src, range.clone()), expected);
                assert_eq!(node.source_range(&copy, range.clone()), expected);
                assert_eq!(clone.source_range(&copy, range), expected);
            }
            assert_eq!(&clone, node);
        }
    }

    #[test]
    fn relocated_strings_forget_their_segments() {
        let src = "a: &a some words here\nb: *a\n";
        let root = crate::parse::yaml::parse(src).expect("parses");
        let mut node = root.at_pointer("/a").expect("a").clone();
        assert_eq!(&src[node.source_range(src, 5..10)], "words");
        node.relocate(&(26..28), &Pointer::root().key("b"));
        assert_eq!(node.source_range(src, 5..10), 26..28);
    }

    #[test]
    fn nodes_stay_send_sync_and_clone() {
        fn check<T: Send + Sync + Clone>() {}
        check::<Node>();
        check::<Str>();
        check::<Pointer>();
    }

    #[test]
    fn pointers_write_out_as_rfc_6901_strings() {
        let root = Pointer::root();
        assert!(root.is_root());
        assert_eq!(root.to_string(), "");
        let tools = root.key("tools");
        let key = tools.index(12).key("a/b~c").key("").index(0);
        assert_eq!(key.to_string(), "/tools/12/a~1b~0c//0");
        assert_eq!(format!("{key:?}"), "\"/tools/12/a~1b~0c//0\"");
        for pointer in [&root, &tools, &key] {
            let text = pointer.to_string();
            assert_eq!(pointer.byte_len(), text.len());
            assert_eq!(*pointer, text.as_str());
        }
        assert_eq!(key.own_len(), "/0".len());
        assert_eq!(tools.index(1234).own_len(), "/1234".len());
        assert_eq!(root.own_len(), 0);
    }

    #[test]
    fn pointers_are_equal_when_written_out_the_same() {
        let root = Pointer::root();
        let a = root.key("a").index(3);
        assert_eq!(a, root.key("a").key("3"));
        assert_eq!(a, a.clone());
        assert_ne!(a, root.key("a").key("03"));
        assert_ne!(a, root.key("a").index(30));
        assert_ne!(a, root.key("a"));
        assert_ne!(root.key("a/b"), root.key("a").key("b"));
        assert_eq!(root, Pointer::default());
    }

    #[test]
    fn a_pointer_below_another_is_written_relative_to_it() {
        let schema = Pointer::root().key("tools").index(0).key("inputSchema");
        let deep = schema.key("properties").key("a~b").key("items");
        assert_eq!(
            deep.strip_prefix(&schema).as_deref(),
            Some("/properties/a~0b/items")
        );
        assert_eq!(schema.strip_prefix(&schema).as_deref(), Some(""));
        // An equal pointer built separately is the same prefix.
        let again = Pointer::root().key("tools").key("0").key("inputSchema");
        assert_eq!(
            deep.strip_prefix(&again).as_deref(),
            Some("/properties/a~0b/items")
        );
        assert_eq!(schema.strip_prefix(&deep), None);
        assert_eq!(deep.strip_prefix(&Pointer::root().key("other")), None);
    }

    #[test]
    fn long_keys_nested_deep_share_their_pointers() {
        // 200 keys of 4 KiB, each inside the one before: written out, the innermost pointer
        // is 800 KiB, and all of them together would be 80 MiB.
        let key = "k".repeat(4096);
        let depth = 200;
        let text = format!(
            "{}1{}",
            format!("{{\"{key}\": ").repeat(depth),
            "}".repeat(depth)
        );
        let root = crate::parse::json::parse(&text).expect("parses");
        let mut node = &root;
        let mut parent = root.pointer.clone();
        while let Some(entry) = node.as_object().and_then(<[Entry]>::first) {
            assert_eq!(
                entry.value.pointer.strip_prefix(&parent).as_deref(),
                Some(&*format!("/{key}"))
            );
            parent = entry.value.pointer.clone();
            node = &entry.value;
        }
        assert_eq!(node.as_f64(), Some(1.0));
        assert_eq!(node.pointer.byte_len(), depth * (key.len() + 1));
    }
}

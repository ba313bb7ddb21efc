//! YAML with spans.
//!
//! The tree is built from saphyr-parser's event stream with an explicit stack (no recursion on
//! the input's nesting). saphyr's spans need fixing up before they can be shown to a user:
//!
//! - markers count characters, not bytes ([`CharOffsets`] converts; a leading BOM counts as one
//!   character, so offsets are into the original text, BOM included);
//! - a node with an anchor or tag starts at the first property (`&a !!str x`), not at the value;
//! - a quoted scalar's span runs on over trailing blanks and a trailing comment;
//! - a block scalar's span starts at its content (or at its properties) and ends after the
//!   trailing line breaks and the next line's indentation;
//! - a block collection's start and end events are empty or cover only properties and
//!   indentation; a flow collection's start event runs on over the blanks after `[`/`{`.
//!
//! So every span here is recomputed from the source around what saphyr reports.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Tag};
use serde_json::Number;

use super::{
    Entry, Key, Keys, MAX_DEPTH, Node, NodeKind, ParseError, Pointer, Segment, Span, Str, StrStyle,
};

/// At most this many nodes may be copied in through aliases (a "billion laughs" document
/// expands exponentially; this keeps it to a bounded amount of memory and time).
const ALIAS_NODE_LIMIT: usize = 1_000_000;

/// Aliases may copy in at most this many bytes per byte of the file, and at least
/// [`ALIAS_BYTES_FLOOR`]: a few nodes can hold long strings, so the node count alone does not
/// bound the memory (see [`Builder::charge`] for what is counted). Shared schemas and
/// definitions stay far below this; the rules then work through the expanded tree at a few
/// times its size, so the floor keeps a small hostile file's whole run near 100 MB.
const ALIAS_BYTES_PER_SOURCE_BYTE: usize = 10;
const ALIAS_BYTES_FLOOR: usize = 32 << 20;

/// What one copied node costs besides its strings (its struct, in its parent's entry).
const NODE_BYTES: usize = std::mem::size_of::<Entry>();

/// Parses a single-document YAML stream into a [`Node`] tree.
///
/// Merge keys (`<<: *base`) are kept as ordinary `<<` entries: toolcheck does not apply merge
/// semantics, it lints what is written.
pub fn parse(source: &str) -> Result<Node, ParseError> {
    super::node::check_len(source)?;
    let mut builder = Builder::new(source);
    let mut parser = Parser::new_from_str(source);
    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(ok) => ok,
            Err(error) => {
                if builder.documents > 1 {
                    // A later document is broken; the multi-document error is the useful one.
                    return Err(builder.multi_document_error(true));
                }
                return Err(builder.scan_error(&error));
            }
        };
        let start = builder.offsets.byte(span.start.index());
        let end = builder.offsets.byte(span.end.index()).max(start);
        if builder.documents > 1 {
            // Only counting documents from here on.
            if let Event::DocumentStart(_) = event {
                builder.documents += 1;
            }
            continue;
        }
        builder.event(event, start, end)?;
        builder.last_end = builder.last_end.max(end);
    }
    builder.finish()
}

/// The bytes of every anchored node (`&a value`, its properties included) and every alias
/// (`*a`): text that other places of the document share, so that an edit there changes them
/// too. Empty when `source` has no anchor; what follows a syntax error is not scanned.
pub fn shared_spans(source: &str) -> Vec<Span> {
    if !source.contains('&') {
        return Vec::new();
    }
    let offsets = CharOffsets::new(source);
    let mut parser = Parser::new_from_str(source);
    // The start of each open collection, when it is anchored.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut spans = Vec::new();
    while let Some(Ok((event, span))) = parser.next_event() {
        let start = offsets.byte(span.start.index());
        let end = offsets.byte(span.end.index()).max(start);
        match event {
            Event::Scalar(_, _, anchor, _) if anchor > 0 => spans.push(start..end),
            Event::Alias(_) => spans.push(start..end),
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                open.push((anchor > 0).then_some(start));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(Some(from)) = open.pop() {
                    spans.push(from..end);
                }
            }
            _ => {}
        }
    }
    spans
}

/// Segments of a YAML scalar of `style` whose raw source is `raw`, starting at byte `base`.
pub(crate) fn string_segments(
    style: StrStyle,
    raw: &str,
    base: usize,
    value: &str,
) -> Option<Vec<Segment>> {
    match style {
        StrStyle::Plain => plain_segments(raw, base, value),
        StrStyle::SingleQuoted => quoted_segments(false, raw, base, value),
        StrStyle::DoubleQuoted => quoted_segments(true, raw, base, value),
        StrStyle::Literal => block_scalar(false, raw, base, value).map(|block| block.segments),
        StrStyle::Folded => block_scalar(true, raw, base, value).map(|block| block.segments),
        StrStyle::Json
        | StrStyle::Js
        | StrStyle::Py
        | StrStyle::PyDoc
        | StrStyle::Go
        | StrStyle::Opaque => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Character → byte offsets

/// Converts saphyr's character indices to byte offsets in constant time per lookup, with a
/// checkpoint every [`STRIDE`] characters (linear to build, small to keep).
struct CharOffsets<'a> {
    source: &'a str,
    ascii: bool,
    /// Byte offset of characters 0, STRIDE, 2·STRIDE, … (empty for ASCII text).
    checkpoints: Vec<usize>,
}

const STRIDE: usize = 16;

impl<'a> CharOffsets<'a> {
    fn new(source: &'a str) -> Self {
        let ascii = source.is_ascii();
        let checkpoints = if ascii {
            Vec::new()
        } else {
            source
                .char_indices()
                .step_by(STRIDE)
                .map(|(i, _)| i)
                .collect()
        };
        CharOffsets {
            source,
            ascii,
            checkpoints,
        }
    }

    /// The byte offset of character `index` (the text's length past its end).
    fn byte(&self, index: usize) -> usize {
        if self.ascii {
            return index.min(self.source.len());
        }
        let Some(&base) = self.checkpoints.get(index / STRIDE) else {
            return self.source.len();
        };
        // Walk the remaining characters by their lead bytes.
        let bytes = self.source.as_bytes();
        let mut at = base;
        for _ in 0..index % STRIDE {
            if at >= bytes.len() {
                break;
            }
            at += 1;
            while at < bytes.len() && bytes[at] & 0xC0 == 0x80 {
                at += 1;
            }
        }
        at.min(bytes.len())
    }
}

// ---------------------------------------------------------------------------------------------
// Tree builder

enum Children {
    Seq(Vec<Node>),
    Map {
        entries: Vec<Entry>,
        /// The key read, waiting for its value.
        key: Option<(Key, Span)>,
    },
}

struct Frame {
    /// Unique per collection, so an anchor's recorded path can be checked against the stack.
    id: usize,
    children: Children,
    flow: bool,
    /// Flow: the opener's offset. Block: where the collection's first token is, if known.
    start: usize,
    pointer: Pointer,
    anchor: usize,
    /// The subtree's size so far.
    size: Size,
    /// Bytes of this collection's pointer that aliased keys copied in, and where the innermost
    /// of those keys is (every node below repeats them in its pointer).
    aliased: (usize, usize),
    /// The same for the key waiting for its value, when it is an alias.
    key_aliased: Option<(usize, usize)>,
}

/// How big a subtree is, for the limits on what an alias may copy.
#[derive(Clone, Copy)]
struct Size {
    /// Collections on the longest path down from (and including) the subtree's root.
    height: usize,
    /// Nodes, the root included.
    count: usize,
    /// Approximate bytes: [`NODE_BYTES`] per node, plus its string value, its key and its
    /// pointer below the subtree's root (a copy's pointers add the use site's pointer to each).
    /// Pointers share their prefixes now, so this overstates what a copy costs; it is still
    /// counted in full so that the limits refuse the same documents.
    bytes: usize,
}

impl Size {
    fn leaf(kind: &NodeKind) -> Size {
        let text = match kind {
            NodeKind::String(s) => s.value.len(),
            _ => 0,
        };
        Size {
            height: 0,
            count: 1,
            bytes: NODE_BYTES + text,
        }
    }
}

impl Frame {
    fn len(&self) -> usize {
        match &self.children {
            Children::Seq(items) => items.len(),
            Children::Map { entries, .. } => entries.len(),
        }
    }

    fn child(&self, index: usize) -> Option<&Node> {
        match &self.children {
            Children::Seq(items) => items.get(index),
            Children::Map { entries, .. } => entries.get(index).map(|entry| &entry.value),
        }
    }
}

fn node_child(node: &Node, index: usize) -> Option<&Node> {
    match &node.kind {
        NodeKind::Array(items) => items.get(index),
        NodeKind::Object(entries) => entries.get(index).map(|entry| &entry.value),
        _ => None,
    }
}

/// Where an anchored node can be found again.
enum Anchored {
    /// In the tree: from the outermost collection down, (frame id, child index). Storing the
    /// place instead of a copy keeps nested anchors from multiplying memory.
    InTree {
        path: Vec<(usize, usize)>,
        size: Size,
    },
    /// A scalar written as a mapping key (keys are not nodes of the tree).
    Key(Node),
}

struct Builder<'a> {
    source: &'a str,
    offsets: CharOffsets<'a>,
    stack: Vec<Frame>,
    root: Option<Node>,
    anchors: HashMap<usize, Anchored>,
    next_frame_id: usize,
    /// The furthest byte any event reached so far (a block scalar's indicator lies after it).
    last_end: usize,
    /// Nodes copied in through aliases so far (aliased keys included).
    expanded_nodes: usize,
    /// Bytes copied in through aliases so far, and the most allowed.
    expanded_bytes: usize,
    alias_bytes_limit: usize,
    documents: usize,
    second_document: usize,
    keys: Keys,
}

impl<'a> Builder<'a> {
    fn new(source: &'a str) -> Self {
        Builder {
            source,
            offsets: CharOffsets::new(source),
            stack: Vec::new(),
            root: None,
            anchors: HashMap::new(),
            next_frame_id: 0,
            last_end: 0,
            expanded_nodes: 0,
            keys: Keys::default(),
            expanded_bytes: 0,
            alias_bytes_limit: source
                .len()
                .saturating_mul(ALIAS_BYTES_PER_SOURCE_BYTE)
                .max(ALIAS_BYTES_FLOOR),
            documents: 0,
            second_document: 0,
        }
    }

    fn event(&mut self, event: Event<'_>, start: usize, end: usize) -> Result<(), ParseError> {
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents == 2 {
                    self.second_document = self.skip_blanks(start, end);
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                self.scalar(&value, style, anchor, tag.as_deref(), start, end)?;
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                let is_map = matches!(event, Event::MappingStart(..));
                self.open(is_map, anchor, start, end)?;
            }
            Event::SequenceEnd | Event::MappingEnd => self.close(start, end)?,
            Event::Alias(id) => self.alias(id, start, end)?,
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
        }
        Ok(())
    }

    fn finish(self) -> Result<Node, ParseError> {
        if self.documents > 1 {
            return Err(self.multi_document_error(false));
        }
        if !self.stack.is_empty() {
            let at = self.source.len();
            return Err(ParseError {
                message: "unexpected end of the YAML stream".to_string(),
                span: at..at,
            });
        }
        Ok(match self.root {
            // An empty document (or none at all).
            Some(node) if node.kind == NodeKind::Null && node.span().is_empty() => {
                Node::new(NodeKind::Null, 0..0, Pointer::root())
            }
            Some(node) => node,
            None => Node::new(NodeKind::Null, 0..0, Pointer::root()),
        })
    }

    fn multi_document_error(&self, at_least: bool) -> ParseError {
        let at = self.second_document;
        let end = if self
            .source
            .get(at..)
            .is_some_and(|rest| rest.starts_with("---"))
        {
            at + 3
        } else {
            at
        };
        let at_least = if at_least { "at least " } else { "" };
        ParseError {
            message: format!(
                "the file holds {at_least}{} YAML documents; toolcheck reads one manifest per file",
                self.documents
            ),
            span: at..end,
        }
    }

    fn scan_error(&self, error: &ScanError) -> ParseError {
        let at = self.offsets.byte(error.marker().index());
        let info = error.info();
        let message = if info == "recursion limit exceeded" {
            "flow collections nested too deeply".to_string()
        } else {
            info.to_string()
        };
        ParseError {
            message,
            span: at..at + self.char_len(at),
        }
    }

    fn error_at(&self, message: impl Into<String>, at: usize) -> ParseError {
        ParseError {
            message: message.into(),
            span: at..at + self.char_len(at),
        }
    }

    fn char_len(&self, at: usize) -> usize {
        self.source
            .get(at..)
            .and_then(|rest| rest.chars().next())
            .map_or(0, char::len_utf8)
    }

    /// Whether the next node is a mapping key.
    fn expecting_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                children: Children::Map { key: None, .. },
                ..
            })
        )
    }

    fn child_pointer(&self) -> Pointer {
        let Some(frame) = self.stack.last() else {
            return Pointer::root();
        };
        match &frame.children {
            Children::Seq(items) => frame.pointer.index(items.len()),
            Children::Map { key, .. } => match key {
                Some((key, _)) => frame.pointer.key(key),
                None => frame.pointer.key(""),
            },
        }
    }

    /// Bytes of the next child's pointer that aliased keys copied in, and where the innermost
    /// of those keys is.
    fn child_aliased(&self) -> (usize, usize) {
        match self.stack.last() {
            None => (0, 0),
            Some(frame) => match frame.key_aliased {
                Some((bytes, at)) if matches!(frame.children, Children::Map { .. }) => {
                    (frame.aliased.0.saturating_add(bytes), at)
                }
                _ => frame.aliased,
            },
        }
    }

    /// Counts what an alias copies in (`nodes` nodes, about `bytes` bytes; `at` is the alias)
    /// and refuses the document once the copies pass [`ALIAS_NODE_LIMIT`] nodes or
    /// `alias_bytes_limit` bytes. Counted: each copied node (see [`Size`]), each aliased key's
    /// text, and the bytes aliased keys add to the pointers of the nodes below them.
    fn charge(&mut self, nodes: usize, bytes: usize, at: usize) -> Result<(), ParseError> {
        self.expanded_nodes = self.expanded_nodes.saturating_add(nodes);
        if self.expanded_nodes > ALIAS_NODE_LIMIT {
            return Err(self.error_at(
                format!("aliases expand to more than {ALIAS_NODE_LIMIT} nodes"),
                at,
            ));
        }
        self.expanded_bytes = self.expanded_bytes.saturating_add(bytes);
        if self.expanded_bytes > self.alias_bytes_limit {
            let limit = self.alias_bytes_limit;
            let limit = if limit.is_multiple_of(1 << 20) {
                format!("{} MiB", limit >> 20)
            } else {
                format!("{:.1} MiB", limit as f64 / f64::from(1 << 20))
            };
            return Err(self.error_at(
                format!(
                    "aliases expand to more than {limit} (the limit is \
                     {ALIAS_BYTES_PER_SOURCE_BYTE} times the file's size, at least {} MiB)",
                    ALIAS_BYTES_FLOOR >> 20
                ),
                at,
            ));
        }
        Ok(())
    }

    /// Charges a node about to be created for the aliased keys its pointer repeats.
    fn charge_pointer(&mut self) -> Result<(), ParseError> {
        match self.child_aliased() {
            (0, _) => Ok(()),
            (bytes, at) => self.charge(0, bytes, at),
        }
    }

    /// Attaches a finished value to the open collection (or makes it the root).
    fn push_value(&mut self, node: Node, size: Size, anchor: usize) {
        if anchor != 0 {
            let path = self
                .stack
                .iter()
                .map(|frame| (frame.id, frame.len()))
                .collect();
            self.anchors.insert(anchor, Anchored::InTree { path, size });
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(node);
            return;
        };
        // The child's pointer below this collection: `/` and its token, for each of its nodes.
        let suffix = node.pointer.own_len();
        frame.size.height = frame.size.height.max(size.height + 1);
        frame.size.count = frame.size.count.saturating_add(size.count);
        frame.size.bytes = frame
            .size
            .bytes
            .saturating_add(size.bytes)
            .saturating_add(size.count.saturating_mul(suffix));
        frame.key_aliased = None;
        match &mut frame.children {
            Children::Seq(items) => items.push(node),
            Children::Map { entries, key } => {
                // `key` is always set here: a value is only pushed when a key is not expected.
                let (key, key_span) = key.take().unwrap_or_default();
                frame.size.bytes = frame.size.bytes.saturating_add(key.len());
                entries.push(Entry::new(key, key_span, node));
            }
        }
    }

    fn scalar(
        &mut self,
        value: &str,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<&Tag>,
        start: usize,
        end: usize,
    ) -> Result<(), ParseError> {
        let has_props = anchor != 0 || tag.is_some();
        let value_start = if has_props {
            self.skip_properties(start, end)
        } else {
            start
        };
        let (kind, span) = match style {
            ScalarStyle::Plain => {
                // An empty scalar may be given the span of the token after it (`...`).
                let span_end = if value.is_empty() { value_start } else { end };
                let span = value_start..self.trim_blanks_end(value_start, span_end);
                let kind = match resolve_plain(value) {
                    Some(kind) if !forces_string(tag) => kind,
                    _ => {
                        NodeKind::String(Str::new(value.to_string(), StrStyle::Plain, span.clone()))
                    }
                };
                (kind, span)
            }
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                let double = style == ScalarStyle::DoubleQuoted;
                let span = match closing_quote(self.source, value_start, double) {
                    Some(close) if close <= end => value_start..close,
                    _ => value_start..self.trim_blanks_end(value_start, end),
                };
                let style = if double {
                    StrStyle::DoubleQuoted
                } else {
                    StrStyle::SingleQuoted
                };
                let kind = NodeKind::String(Str::new(value.to_string(), style, span.clone()));
                (kind, span)
            }
            ScalarStyle::Literal | ScalarStyle::Folded => {
                let folded = style == ScalarStyle::Folded;
                let from = if has_props {
                    start
                } else {
                    self.last_end.min(start)
                };
                let fallback = value_start..self.trim_blanks_end(value_start, end);
                let (span, raw) = match self.block_indicator(from, end) {
                    Some(indicator) => {
                        let raw = indicator..end;
                        let content = self
                            .source
                            .get(raw.clone())
                            .and_then(|text| block_scalar(folded, text, indicator, value));
                        let span = match content {
                            Some(block) => block.content.unwrap_or(indicator..indicator + 1),
                            None => fallback,
                        };
                        (span, raw)
                    }
                    None => (fallback.clone(), fallback),
                };
                let style = if folded {
                    StrStyle::Folded
                } else {
                    StrStyle::Literal
                };
                let kind = NodeKind::String(Str::new(value.to_string(), style, raw));
                (kind, span)
            }
        };

        if self.expecting_key() {
            let node = Node::new(kind, span.clone(), Pointer::root());
            if anchor != 0 {
                self.anchors.insert(anchor, Anchored::Key(node));
            }
            self.set_key(value, span);
            return Ok(());
        }
        self.charge_pointer()?;
        let size = Size::leaf(&kind);
        let node = Node::new(kind, span, self.child_pointer());
        self.push_value(node, size, anchor);
        Ok(())
    }

    fn set_key(&mut self, text: &str, span: Span) {
        if let Some(Frame {
            children: Children::Map { key, .. },
            ..
        }) = self.stack.last_mut()
        {
            *key = Some((self.keys.get(text), span));
        }
    }

    fn open(
        &mut self,
        is_map: bool,
        anchor: usize,
        start: usize,
        end: usize,
    ) -> Result<(), ParseError> {
        let first = self.skip_properties(start, end);
        let flow = first < end && matches!(self.source.as_bytes().get(first), Some(b'[' | b'{'));
        if self.expecting_key() {
            return Err(self.error_at("complex mapping keys are not supported", first));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.error_at(format!("nesting deeper than {MAX_DEPTH} levels"), first));
        }
        let children = if is_map {
            Children::Map {
                entries: Vec::new(),
                key: None,
            }
        } else {
            Children::Seq(Vec::new())
        };
        self.charge_pointer()?;
        let aliased = self.child_aliased();
        let pointer = self.child_pointer();
        self.next_frame_id += 1;
        self.stack.push(Frame {
            id: self.next_frame_id,
            children,
            flow,
            start: first,
            pointer,
            anchor,
            size: Size {
                height: 1,
                count: 1,
                bytes: NODE_BYTES,
            },
            aliased,
            key_aliased: None,
        });
        Ok(())
    }

    fn close(&mut self, start: usize, end: usize) -> Result<(), ParseError> {
        let Some(frame) = self.stack.pop() else {
            return Err(self.error_at("unbalanced end of a YAML collection", start));
        };
        let bytes = self.source.as_bytes();
        let span = if frame.flow {
            // The end event is the closer itself (possibly with blanks around it).
            let at = self.skip_blanks(start, end);
            let close = if matches!(bytes.get(at), Some(b']' | b'}')) {
                at + 1
            } else {
                end
            };
            frame.start..close.max(frame.start)
        } else {
            match &frame.children {
                Children::Seq(items) => {
                    let first = if bytes.get(frame.start) == Some(&b'-') {
                        Some(frame.start)
                    } else {
                        items.first().map(|item| item.span().start)
                    };
                    let first = first.unwrap_or(frame.start);
                    let last = items.last().map_or(first, |item| item.span().end);
                    first..last.max(first)
                }
                Children::Map { entries, .. } => {
                    let first = entries
                        .first()
                        .map_or(frame.start, |entry| entry.key_span().start);
                    let last = entries.last().map_or(first, |entry| {
                        entry.key_span().end.max(entry.value.span().end)
                    });
                    first..last.max(first)
                }
            }
        };
        // Exactly sized: the tree of a large file is mostly small collections, which a growing
        // vector leaves up to 4 times their size (100k small tools: 449 -> 364 MB at the peak).
        let kind = match frame.children {
            Children::Seq(mut items) => {
                items.shrink_to_fit();
                NodeKind::Array(items)
            }
            Children::Map { mut entries, .. } => {
                entries.shrink_to_fit();
                NodeKind::Object(entries)
            }
        };
        let node = Node::new(kind, span, frame.pointer);
        self.push_value(node, frame.size, frame.anchor);
        Ok(())
    }

    fn alias(&mut self, id: usize, start: usize, end: usize) -> Result<(), ParseError> {
        let span = start..self.trim_blanks_end(start, end);
        let unknown = "alias to an anchor that is not complete here";
        let size = match self.anchors.get(&id) {
            None => return Err(self.error_at(unknown, start)),
            Some(Anchored::Key(node)) => Size::leaf(&node.kind),
            Some(Anchored::InTree { size, .. }) => *size,
        };
        let is_key = self.expecting_key();
        if is_key {
            let Some(target) = self.anchored(id) else {
                return Err(self.error_at(unknown, start));
            };
            let bytes = match &target.kind {
                NodeKind::String(s) => s.value.len(),
                NodeKind::Null | NodeKind::Bool(_) | NodeKind::Number(_) => 0,
                NodeKind::Array(_) | NodeKind::Object(_) => {
                    return Err(self.error_at("complex mapping keys are not supported", start));
                }
            };
            // The key's text, copied into the entry and into the pointer of every node below.
            self.charge(1, bytes, start)?;
            let text = match self.anchored(id).map(|target| &target.kind) {
                Some(NodeKind::String(s)) => s.value.to_string(),
                Some(NodeKind::Bool(b)) => b.to_string(),
                Some(NodeKind::Number(n)) => n.to_string(),
                _ => String::new(),
            };
            self.set_key(&text, span);
            if let Some(frame) = self.stack.last_mut()
                && bytes > 0
            {
                frame.key_aliased = Some((bytes, start));
            }
            return Ok(());
        }
        if self.stack.len() + size.height > MAX_DEPTH {
            return Err(self.error_at(
                format!("nesting deeper than {MAX_DEPTH} levels (through this alias)"),
                start,
            ));
        }
        // Every copied node gets the use site's pointer plus its own below the anchor.
        let pointer = self.child_pointer();
        let bytes = size
            .bytes
            .saturating_add(size.count.saturating_mul(pointer.byte_len()));
        self.charge(size.count, bytes, start)?;
        let Some(target) = self.anchored(id) else {
            return Err(self.error_at(unknown, start));
        };
        let mut node = target.clone();
        node.relocate(&span, &pointer);
        self.push_value(node, size, 0);
        Ok(())
    }

    /// The node anchored as `id`, if it can still be found.
    fn anchored(&self, id: usize) -> Option<&Node> {
        match self.anchors.get(&id)? {
            Anchored::Key(node) => Some(node),
            Anchored::InTree { path, .. } => self.resolve(path),
        }
    }

    /// Finds an anchored node from its recorded path: down the open collections while they are
    /// the ones recorded, then into finished nodes.
    fn resolve(&self, path: &[(usize, usize)]) -> Option<&Node> {
        for (level, &(id, index)) in path.iter().enumerate() {
            let frame = self.stack.get(level)?;
            if frame.id != id {
                return None;
            }
            if let Some(mut node) = frame.child(index) {
                for &(_, index) in path.get(level + 1..)? {
                    node = node_child(node, index)?;
                }
                return Some(node);
            }
        }
        None
    }

    /// Skips anchors, tags, blanks and comments from `at`, stopping at `limit`.
    fn skip_properties(&self, mut at: usize, limit: usize) -> usize {
        let bytes = self.source.as_bytes();
        let limit = limit.min(bytes.len());
        while at < limit {
            match bytes[at] {
                b' ' | b'\t' | b'\r' | b'\n' => at += 1,
                b'#' => at = skip_line(bytes, at),
                b'&' | b'!' => {
                    while at < limit
                        && !matches!(
                            bytes[at],
                            b' ' | b'\t' | b'\r' | b'\n' | b',' | b'[' | b']' | b'{' | b'}'
                        )
                    {
                        at += 1;
                    }
                }
                _ => break,
            }
        }
        at.min(limit)
    }

    /// Finds a block scalar's `|`/`>` after `from`: only indicators, properties, blanks and
    /// comments may come between the previous event and it.
    fn block_indicator(&self, mut at: usize, limit: usize) -> Option<usize> {
        let bytes = self.source.as_bytes();
        let limit = limit.min(bytes.len());
        while at < limit {
            match bytes[at] {
                b' ' | b'\t' | b'\r' | b'\n' | b':' | b'-' | b'?' => at += 1,
                b'#' => at = skip_line(bytes, at),
                b'&' | b'!' => {
                    while at < limit && !matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
                        at += 1;
                    }
                }
                b'|' | b'>' => return Some(at),
                0xEF if self.source.get(at..)?.starts_with('\u{feff}') => at += 3,
                _ => return None,
            }
        }
        None
    }

    fn skip_blanks(&self, mut at: usize, limit: usize) -> usize {
        let bytes = self.source.as_bytes();
        let limit = limit.min(bytes.len());
        while at < limit && matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
            at += 1;
        }
        at
    }

    fn trim_blanks_end(&self, floor: usize, mut end: usize) -> usize {
        let bytes = self.source.as_bytes();
        end = end.min(bytes.len());
        while end > floor && matches!(bytes[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
            end -= 1;
        }
        end.max(floor)
    }
}

fn skip_line(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && !matches!(bytes[at], b'\r' | b'\n') {
        at += 1;
    }
    at
}

/// The offset just past the closing quote of the quoted scalar opening at `start`.
fn closing_quote(source: &str, start: usize, double: bool) -> Option<usize> {
    let bytes = source.as_bytes();
    let quote = if double { b'"' } else { b'\'' };
    if bytes.get(start) != Some(&quote) {
        return None;
    }
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if double => at += 2,
            b'\'' if !double && bytes.get(at + 1) == Some(&b'\'') => at += 2,
            b if b == quote => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Scalar resolution (YAML 1.2 core schema)

/// `!!str` and the non-specific `!` make a plain scalar a string whatever it looks like.
fn forces_string(tag: Option<&Tag>) -> bool {
    tag.is_some_and(|tag| {
        (tag.handle == "tag:yaml.org,2002:" && tag.suffix == "str")
            || (tag.handle.is_empty() && tag.suffix == "!")
            || (tag.handle == "!" && tag.suffix.is_empty())
    })
}

/// The non-string value a plain scalar stands for, if any.
fn resolve_plain(text: &str) -> Option<NodeKind> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(NodeKind::Null),
        "true" | "True" | "TRUE" => return Some(NodeKind::Bool(true)),
        "false" | "False" | "FALSE" => return Some(NodeKind::Bool(false)),
        _ => {}
    }
    let radix = |digits: &str, radix: u32| {
        if !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix)) {
            u64::from_str_radix(digits, radix).ok().map(Number::from)
        } else {
            None
        }
    };
    if let Some(hex) = text.strip_prefix("0x") {
        return radix(hex, 16).map(NodeKind::Number);
    }
    if let Some(octal) = text.strip_prefix("0o") {
        return radix(octal, 8).map(NodeKind::Number);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        let number = text
            .parse::<i64>()
            .ok()
            .map(Number::from)
            .or_else(|| text.parse::<u64>().ok().map(Number::from))
            .or_else(|| text.parse::<f64>().ok().and_then(Number::from_f64));
        return number.map(NodeKind::Number);
    }
    if is_core_float(unsigned) {
        return text
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(NodeKind::Number);
    }
    None
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` (the sign already stripped).
fn is_core_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |mut at: usize| {
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_digit() {
            at += 1;
        }
        (at, at - start)
    };
    let (mut at, whole) = digits(0);
    if bytes.get(at) == Some(&b'.') {
        let (next, fraction) = digits(at + 1);
        if whole == 0 && fraction == 0 {
            return false;
        }
        at = next;
    } else if whole == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        let (next, exponent) = digits(at);
        if exponent == 0 {
            return false;
        }
        at = next;
    }
    at == bytes.len()
}

// ---------------------------------------------------------------------------------------------
// Decoded → source segments

/// Accumulates the decoded text next to its segments, so the result can be checked against
/// the parser's value: a rescan that disagrees with saphyr is dropped, never trusted.
#[derive(Default)]
struct Segments {
    decoded: String,
    segments: Vec<Segment>,
}

impl Segments {
    /// Source text copied as is, starting at absolute offset `at`.
    fn verbatim(&mut self, text: &str, at: usize) {
        if text.is_empty() {
            return;
        }
        let start = self.decoded.len();
        self.decoded.push_str(text);
        let end = self.decoded.len();
        if let Some(last) = self.segments.last_mut()
            && last.verbatim
            && last.source.end == at
            && last.decoded.end == start
        {
            last.decoded.end = end;
            last.source.end = at + text.len();
            return;
        }
        self.segments.push(Segment {
            decoded: start..end,
            source: at..at + text.len(),
            verbatim: true,
        });
    }

    /// Decoded text that stands for `source` as a whole (an escape, a fold, a line break).
    fn mapped(&mut self, text: &str, source: Span) {
        if text.is_empty() {
            return;
        }
        let start = self.decoded.len();
        self.decoded.push_str(text);
        self.segments.push(Segment {
            decoded: start..self.decoded.len(),
            source,
            verbatim: false,
        });
    }

    fn finish(self, value: &str) -> Option<Vec<Segment>> {
        (self.decoded == value).then_some(self.segments)
    }
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn is_break(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// The end of the line break at `at` (`\r\n`, `\n` or `\r`).
fn break_end(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'\r') if bytes.get(at + 1) == Some(&b'\n') => at + 2,
        Some(b'\r' | b'\n') => at + 1,
        _ => at,
    }
}

/// A multi-line plain scalar: lines are trimmed, a single break folds to a space, each empty
/// line in between gives a `\n`.
fn plain_segments(raw: &str, base: usize, value: &str) -> Option<Vec<Segment>> {
    let bytes = raw.as_bytes();
    let mut out = Segments::default();
    let mut previous_end: Option<usize> = None;
    let mut empty_lines = 0;
    let mut at = 0;
    while at <= bytes.len() {
        let line_end = at
            + bytes[at..]
                .iter()
                .position(|&b| is_break(b))
                .unwrap_or(bytes.len() - at);
        let mut start = at;
        let mut end = line_end;
        while start < end && is_blank(bytes[start]) {
            start += 1;
        }
        while end > start && is_blank(bytes[end - 1]) {
            end -= 1;
        }
        if start == end {
            empty_lines += 1;
        } else {
            if let Some(previous) = previous_end {
                let fold = if empty_lines == 0 {
                    " ".to_string()
                } else {
                    "\n".repeat(empty_lines)
                };
                out.mapped(&fold, base + previous..base + start);
            }
            out.verbatim(raw.get(start..end)?, base + start);
            previous_end = Some(end);
            empty_lines = 0;
        }
        if line_end >= bytes.len() {
            break;
        }
        at = break_end(bytes, line_end);
    }
    out.finish(value)
}

/// A single- or double-quoted scalar, quotes included in `raw`.
fn quoted_segments(double: bool, raw: &str, base: usize, value: &str) -> Option<Vec<Segment>> {
    let bytes = raw.as_bytes();
    let quote = if double { b'"' } else { b'\'' };
    if bytes.len() < 2 || bytes[0] != quote || bytes[bytes.len() - 1] != quote {
        return None;
    }
    let inner_end = bytes.len() - 1;
    let mut out = Segments::default();
    // Skips blanks and line breaks from `at` (which is at blanks or a break), counting the
    // empty lines; returns where the next content starts.
    let fold = |mut at: usize| -> (usize, usize) {
        while at < inner_end && is_blank(bytes[at]) {
            at += 1;
        }
        at = break_end(bytes, at);
        let mut empty_lines = 0;
        loop {
            while at < inner_end && is_blank(bytes[at]) {
                at += 1;
            }
            if at < inner_end && is_break(bytes[at]) {
                empty_lines += 1;
                at = break_end(bytes, at);
            } else {
                return (at, empty_lines);
            }
        }
    };
    let mut run = 1;
    let mut at = 1;
    while at < inner_end {
        match bytes[at] {
            b' ' | b'\t' => {
                let blanks = at;
                while at < inner_end && is_blank(bytes[at]) {
                    at += 1;
                }
                if at < inner_end && is_break(bytes[at]) {
                    out.verbatim(raw.get(run..blanks)?, base + run);
                    let (next, empty_lines) = fold(blanks);
                    let text = if empty_lines == 0 {
                        " ".to_string()
                    } else {
                        "\n".repeat(empty_lines)
                    };
                    out.mapped(&text, base + blanks..base + next);
                    at = next;
                    run = next;
                }
            }
            b'\n' | b'\r' => {
                out.verbatim(raw.get(run..at)?, base + run);
                let (next, empty_lines) = fold(at);
                let text = if empty_lines == 0 {
                    " ".to_string()
                } else {
                    "\n".repeat(empty_lines)
                };
                out.mapped(&text, base + at..base + next);
                at = next;
                run = next;
            }
            b'\'' if !double => {
                if at + 1 < inner_end && bytes[at + 1] == b'\'' {
                    out.verbatim(raw.get(run..at)?, base + run);
                    out.mapped("'", base + at..base + at + 2);
                    at += 2;
                    run = at;
                } else {
                    return None;
                }
            }
            b'\\' if double => {
                out.verbatim(raw.get(run..at)?, base + run);
                let escape = *bytes.get(at + 1).filter(|_| at + 1 < inner_end)?;
                if is_break(escape) {
                    // An escaped line break: the break and the next line's indentation vanish;
                    // empty lines in between still give `\n`s.
                    let mut next = break_end(bytes, at + 1);
                    let mut empty_lines = 0;
                    loop {
                        while next < inner_end && is_blank(bytes[next]) {
                            next += 1;
                        }
                        if next < inner_end && is_break(bytes[next]) {
                            empty_lines += 1;
                            next = break_end(bytes, next);
                        } else {
                            break;
                        }
                    }
                    out.mapped(&"\n".repeat(empty_lines), base + at..base + next);
                    at = next;
                } else {
                    let (c, len) = decode_escape(raw.get(at + 1..inner_end)?)?;
                    let mut buffer = [0; 4];
                    out.mapped(c.encode_utf8(&mut buffer), base + at..base + at + 1 + len);
                    at += 1 + len;
                }
                run = at;
            }
            _ => at += 1,
        }
    }
    out.verbatim(raw.get(run..inner_end)?, base + run);
    out.finish(value)
}

/// Decodes the escape after a `\`: the character and how many bytes it took.
fn decode_escape(rest: &str) -> Option<(char, usize)> {
    let first = *rest.as_bytes().first()?;
    let simple = match first {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' | b'\t' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' | b'u' | b'U' => {
            let digits = match first {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let hex = rest.get(1..1 + digits)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
            return Some((c, 1 + digits));
        }
        _ => return None,
    };
    Some((simple, 1))
}

/// A block scalar's segments and the span of its content.
struct BlockScalar {
    segments: Vec<Segment>,
    /// From the first content character to the end of the last non-blank content line;
    /// `None` when the scalar has no content line.
    content: Option<Span>,
}

#[derive(Clone, Copy, PartialEq)]
enum Chomp {
    Strip,
    Clip,
    Keep,
}

/// One line of a block scalar's body (offsets relative to `raw`).
struct Line {
    start: usize,
    /// Where the line break starts (or the end of the text).
    end: usize,
    /// Where the line break ends (`end` when there is none).
    break_end: usize,
}

/// Rescans a block scalar from its indicator. The indentation is worked out from saphyr's
/// value (the first content line's leading spaces, minus those the value kept), which covers
/// both auto-detection and an indentation indicator without knowing the parent's indentation.
fn block_scalar(folded: bool, raw: &str, base: usize, value: &str) -> Option<BlockScalar> {
    let bytes = raw.as_bytes();
    if bytes.first() != Some(if folded { &b'>' } else { &b'|' }) {
        return None;
    }
    // Header: indicator, up to two of chomping / indentation indicator, blanks, comment.
    let mut at = 1;
    let mut chomp = Chomp::Clip;
    for _ in 0..2 {
        match bytes.get(at) {
            Some(b'-') => chomp = Chomp::Strip,
            Some(b'+') => chomp = Chomp::Keep,
            Some(b'1'..=b'9') => {}
            _ => break,
        }
        at += 1;
    }
    let blanks = at;
    while at < bytes.len() && is_blank(bytes[at]) {
        at += 1;
    }
    if at < bytes.len() && bytes[at] == b'#' {
        if at == blanks {
            return None;
        }
        at = skip_line(bytes, at);
    }
    if at < bytes.len() && !is_break(bytes[at]) {
        return None;
    }
    at = break_end(bytes, at);

    let mut lines = Vec::new();
    while at < bytes.len() {
        let end = at
            + bytes[at..]
                .iter()
                .position(|&b| is_break(b))
                .unwrap_or(bytes.len() - at);
        let line_break_end = break_end(bytes, end);
        if line_break_end == end && bytes[at..end].iter().all(|&b| b == b' ') {
            // The indentation of whatever follows the scalar, not a line of it.
            break;
        }
        lines.push(Line {
            start: at,
            end,
            break_end: line_break_end,
        });
        at = line_break_end;
    }
    let leading = |line: &Line| {
        bytes[line.start..line.end]
            .iter()
            .take_while(|&&b| b == b' ')
            .count()
    };

    // The indentation.
    let first_text = lines
        .iter()
        .find(|line| bytes[line.start..line.end].iter().any(|&b| b != b' '));
    let indent = match first_text {
        Some(line) => {
            let kept = value
                .trim_start_matches('\n')
                .bytes()
                .take_while(|&b| b == b' ')
                .count();
            leading(line).checked_sub(kept)?
        }
        None => lines.iter().map(leading).max().unwrap_or(0),
    };

    // Text lines have something after the indentation; the others are empty lines.
    let mut text = Vec::with_capacity(lines.len());
    for line in &lines {
        let spaces = leading(line);
        let has_non_space = bytes[line.start..line.end].iter().any(|&b| b != b' ');
        let is_text = has_non_space || line.end - line.start > indent;
        if is_text && spaces < indent {
            return None;
        }
        text.push(is_text);
    }
    let content_of = |line: &Line| raw.get(line.start + indent..line.end);

    let mut out = Segments::default();
    let last_text = text.iter().rposition(|&t| t);
    let body_end = last_text.map_or(0, |last| last + 1);
    let mut previous: Option<(usize, bool)> = None;
    for (index, line) in lines[..body_end].iter().enumerate() {
        if !folded {
            if text[index] {
                out.verbatim(content_of(line)?, base + line.start + indent);
            }
            if index + 1 < body_end {
                push_break(&mut out, raw, base, line)?;
            }
            continue;
        }
        if !text[index] {
            continue;
        }
        let content = content_of(line)?;
        let spaced = content.starts_with([' ', '\t']);
        match previous {
            None => {
                for empty in &lines[..index] {
                    push_break(&mut out, raw, base, empty)?;
                }
            }
            Some((before, before_spaced)) => {
                let empty_lines = index - before - 1;
                let fold = if !before_spaced && !spaced {
                    if empty_lines == 0 {
                        " ".to_string()
                    } else {
                        "\n".repeat(empty_lines)
                    }
                } else {
                    "\n".repeat(empty_lines + 1)
                };
                out.mapped(&fold, base + lines[before].end..base + line.start + indent);
            }
        }
        out.verbatim(content, base + line.start + indent);
        previous = Some((index, spaced));
    }

    // Chomping: the last content line's break and the trailing empty lines.
    let trailing = match last_text {
        Some(last) => &lines[last..],
        None => &lines[..],
    };
    let kept = match (chomp, last_text) {
        (Chomp::Strip, _) | (Chomp::Clip, None) => 0,
        (Chomp::Clip, Some(_)) => 1,
        (Chomp::Keep, _) => trailing.len(),
    };
    for line in trailing.iter().take(kept) {
        if line.break_end > line.end {
            push_break(&mut out, raw, base, line)?;
        }
    }

    // From the first text line to the last one holding more than blanks (trailing blanks and
    // whitespace-only lines are content, but not worth pointing at).
    let blank = |line: &Line| {
        bytes[line.start + indent..line.end]
            .iter()
            .all(|&b| is_blank(b))
    };
    let content = last_text.and_then(|last| {
        let first = text.iter().position(|&t| t)?;
        let start = base + lines[first].start + indent;
        let last = (first..=last)
            .rev()
            .find(|&index| text[index] && !blank(&lines[index]))
            .unwrap_or(last);
        let line = &lines[last];
        let mut end = line.end;
        while end > line.start + indent && is_blank(bytes[end - 1]) {
            end -= 1;
        }
        if end == line.start + indent {
            end = line.end;
        }
        Some(start..(base + end).max(start))
    });
    Some(BlockScalar {
        segments: out.finish(value)?,
        content,
    })
}

/// A line break kept as `\n`, mapped to the source break (verbatim unless it is `\r\n`/`\r`).
fn push_break(out: &mut Segments, raw: &str, base: usize, line: &Line) -> Option<()> {
    let source = raw.get(line.end..line.break_end)?;
    if source == "\n" {
        out.verbatim("\n", base + line.end);
    } else {
        out.mapped("\n", base + line.end..base + line.break_end);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(src: &str) -> Node {
        match parse(src) {
            Ok(node) => node,
            Err(error) => panic!("parse failed: {error:?}\n{src}"),
        }
    }

    fn at<'a>(root: &'a Node, pointer: &str) -> &'a Node {
        root.at_pointer(pointer)
            .unwrap_or_else(|| panic!("no node at {pointer:?}"))
    }

    /// The source text of the node at `pointer`, after checking the node knows its pointer.
    fn text<'a>(src: &'a str, root: &Node, pointer: &str) -> &'a str {
        let node = at(root, pointer);
        assert_eq!(node.pointer, pointer);
        &src[node.span()]
    }

    fn key_text<'a>(src: &'a str, root: &Node, pointer: &str, key: &str) -> &'a str {
        let entry = at(root, pointer)
            .entry(key)
            .unwrap_or_else(|| panic!("no key {key:?} at {pointer:?}"));
        &src[entry.key_span()]
    }

    /// The source text `word` (found in the decoded value at `pointer`) maps back to.
    fn mapped<'a>(src: &'a str, root: &Node, pointer: &str, word: &str) -> &'a str {
        let node = at(root, pointer);
        let value = node.as_str().expect("a string");
        let start = value
            .find(word)
            .unwrap_or_else(|| panic!("{word:?} not in {value:?}"));
        &src[node.source_range(src, start..start + word.len())]
    }

    fn error(src: &str) -> ParseError {
        match parse(src) {
            Ok(node) => panic!("expected an error, got {node:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn block_collections_span_first_key_to_last_value() {
        let src = "# header\nname: demo\ntools:\n  - name: a   # comment\n    tags: [x, y]\n  - b   \n\n# trailing\n";
        let root = parse_ok(src);
        assert_eq!(
            text(src, &root, ""),
            "name: demo\ntools:\n  - name: a   # comment\n    tags: [x, y]\n  - b"
        );
        assert_eq!(
            text(src, &root, "/tools"),
            "- name: a   # comment\n    tags: [x, y]\n  - b"
        );
        assert_eq!(
            text(src, &root, "/tools/0"),
            "name: a   # comment\n    tags: [x, y]"
        );
        assert_eq!(text(src, &root, "/tools/0/name"), "a");
        assert_eq!(text(src, &root, "/tools/0/tags"), "[x, y]");
        assert_eq!(text(src, &root, "/tools/0/tags/1"), "y");
        assert_eq!(text(src, &root, "/tools/1"), "b");
        assert_eq!(key_text(src, &root, "", "tools"), "tools");
        assert_eq!(key_text(src, &root, "/tools/0", "tags"), "tags");
        assert_eq!(root.get("name").and_then(Node::as_str), Some("demo"));
    }

    #[test]
    fn nested_sequences_and_empty_values() {
        let src = "- - x\n  - y\n- a:\n  b: ~\n";
        let root = parse_ok(src);
        assert_eq!(text(src, &root, ""), "- - x\n  - y\n- a:\n  b: ~");
        assert_eq!(text(src, &root, "/0"), "- x\n  - y");
        assert_eq!(text(src, &root, "/0/1"), "y");
        assert_eq!(text(src, &root, "/1"), "a:\n  b: ~");
        assert_eq!(at(&root, "/1/a").kind, NodeKind::Null);
        assert_eq!(text(src, &root, "/1/b"), "~");
        assert_eq!(at(&root, "/1/b").kind, NodeKind::Null);
    }

    #[test]
    fn flow_collections_include_their_brackets() {
        let src = "a: {b: [1, {c: d}], e: [ ], f: [ x , y ] }  # c\ng: [\n  1,\n  2,\n]\n";
        let root = parse_ok(src);
        assert_eq!(
            text(src, &root, "/a"),
            "{b: [1, {c: d}], e: [ ], f: [ x , y ] }"
        );
        assert_eq!(text(src, &root, "/a/b"), "[1, {c: d}]");
        assert_eq!(text(src, &root, "/a/b/1"), "{c: d}");
        assert_eq!(text(src, &root, "/a/b/1/c"), "d");
        assert_eq!(text(src, &root, "/a/e"), "[ ]");
        assert_eq!(text(src, &root, "/a/f"), "[ x , y ]");
        assert_eq!(text(src, &root, "/a/f/0"), "x");
        assert_eq!(text(src, &root, "/g"), "[\n  1,\n  2,\n]");
        assert_eq!(text(src, &root, "/g/1"), "2");
        assert_eq!(key_text(src, &root, "/a/b/1", "c"), "c");
        assert_eq!(
            root.to_json(),
            serde_json::json!({"a": {"b": [1, {"c": "d"}], "e": [], "f": ["x", "y"]}, "g": [1, 2]})
        );
    }

    #[test]
    fn plain_scalars_resolve_by_the_core_schema() {
        let src = "a: null\nb: ~\nc:\nd: True\ne: FALSE\nf: -12\ng: 0x1F\nh: 0o17\ni: 1.5\nj: -2.5E-3\nk: 1e3\nl: .inf\nm: .nan\nn: !!str 12\no: '12'\np: \"true\"\nq: yes\nr: 18446744073709551615\ns: 1_000\nt: +7\nu: 0x\n";
        let root = parse_ok(src);
        let json = root.to_json();
        assert_eq!(
            json,
            serde_json::json!({
                "a": null, "b": null, "c": null, "d": true, "e": false, "f": -12, "g": 31,
                "h": 15, "i": 1.5, "j": -0.0025, "k": 1000.0, "l": ".inf", "m": ".nan",
                "n": "12", "o": "12", "p": "true", "q": "yes", "r": 18446744073709551615u64,
                "s": "1_000", "t": 7, "u": "0x"
            })
        );
        assert_eq!(text(src, &root, "/n"), "12");
        assert_eq!(text(src, &root, "/g"), "0x1F");
    }

    #[test]
    fn literal_block_scalars() {
        let src = "a: |\n  line one\n    indented\n\n  line three\n\n\nb: |-\n  stripped\n\nc: 1\n";
        let root = parse_ok(src);
        assert_eq!(
            at(&root, "/a").as_str(),
            Some("line one\n  indented\n\nline three\n")
        );
        assert_eq!(
            text(src, &root, "/a"),
            "line one\n    indented\n\n  line three"
        );
        assert_eq!(at(&root, "/b").as_str(), Some("stripped"));
        // A whitespace-only last line is content but not part of the span.
        let src2 = "a: |\n  text  \n   \nb: 1\n";
        let root2 = parse_ok(src2);
        assert_eq!(at(&root2, "/a").as_str(), Some("text  \n \n"));
        assert_eq!(text(src2, &root2, "/a"), "text");
        assert_eq!(text(src, &root, "/b"), "stripped");
        assert_eq!(mapped(src, &root, "/a", "three"), "three");
        assert_eq!(mapped(src, &root, "/a", "  indented"), "  indented");
        // Across line breaks: a literal break is the source break.
        assert_eq!(
            mapped(src, &root, "/a", "one\n  indented"),
            "one\n    indented"
        );
        let NodeKind::String(s) = &at(&root, "/a").kind else {
            panic!()
        };
        assert_eq!(s.style, StrStyle::Literal);
        assert!(src[s.raw()].starts_with("|\n"));
    }

    #[test]
    fn folded_block_scalars() {
        let src = "tool:\n  description: >\n    Searches the web\n    for pages.\n\n    Returns JSON.\n      kept  as is\n    end\n  other: >+\n    keep\n\n\nnext: x\n";
        let root = parse_ok(src);
        assert_eq!(
            at(&root, "/tool/description").as_str(),
            Some("Searches the web for pages.\nReturns JSON.\n  kept  as is\nend\n")
        );
        assert_eq!(
            text(src, &root, "/tool/description"),
            "Searches the web\n    for pages.\n\n    Returns JSON.\n      kept  as is\n    end"
        );
        assert_eq!(mapped(src, &root, "/tool/description", "web"), "web");
        assert_eq!(mapped(src, &root, "/tool/description", "pages"), "pages");
        assert_eq!(mapped(src, &root, "/tool/description", "JSON"), "JSON");
        assert_eq!(
            mapped(src, &root, "/tool/description", "kept  as"),
            "kept  as"
        );
        // A range across a fold maps to the enclosing source range.
        assert_eq!(
            mapped(src, &root, "/tool/description", "web for"),
            "web\n    for"
        );
        assert_eq!(at(&root, "/tool/other").as_str(), Some("keep\n\n\n"));
        assert_eq!(text(src, &root, "/tool/other"), "keep");
    }

    #[test]
    fn block_scalar_indentation_indicator_and_properties() {
        let src = "a: |2\n\n    more\n   less\nb: &x !!str >-1\n   indented\n  base\nc: *x\n";
        let root = parse_ok(src);
        assert_eq!(at(&root, "/a").as_str(), Some("\n  more\n less\n"));
        assert_eq!(text(src, &root, "/a"), "  more\n   less");
        assert_eq!(mapped(src, &root, "/a", "less"), "less");
        // Indentation 1 (the mapping's 0 plus the indicator): both lines are more indented.
        assert_eq!(at(&root, "/b").as_str(), Some("  indented\n base"));
        assert_eq!(text(src, &root, "/b"), "  indented\n  base");
        assert_eq!(mapped(src, &root, "/b", "base"), "base");
        // The alias reports at its use site.
        assert_eq!(text(src, &root, "/c"), "*x");
        assert_eq!(mapped(src, &root, "/c", "base"), "*x");
    }

    #[test]
    fn quoted_scalars_and_escapes() {
        let src = "a: \"caf\\u00e9 \\\"bar\\\" \\x41\\t\\U0001F600 word\"   # trailing comment\nb: 'it''s a ''word'''  \n\"k e y\" : 'v'\nc: \"fold\n  ed \\\n  tight\"\n";
        let root = parse_ok(src);
        assert_eq!(at(&root, "/a").as_str(), Some("café \"bar\" A\t😀 word"));
        assert_eq!(
            text(src, &root, "/a"),
            "\"caf\\u00e9 \\\"bar\\\" \\x41\\t\\U0001F600 word\""
        );
        assert_eq!(mapped(src, &root, "/a", "word"), "word");
        assert_eq!(mapped(src, &root, "/a", "é"), "\\u00e9");
        assert_eq!(mapped(src, &root, "/a", "bar"), "bar");
        assert_eq!(mapped(src, &root, "/a", "café"), "caf\\u00e9");
        assert_eq!(at(&root, "/b").as_str(), Some("it's a 'word'"));
        assert_eq!(text(src, &root, "/b"), "'it''s a ''word'''");
        assert_eq!(mapped(src, &root, "/b", "word"), "word");
        assert_eq!(mapped(src, &root, "/b", "it's"), "it''s");
        assert_eq!(key_text(src, &root, "", "k e y"), "\"k e y\"");
        assert_eq!(text(src, &root, "/k e y"), "'v'");
        assert_eq!(at(&root, "/c").as_str(), Some("fold ed tight"));
        assert_eq!(mapped(src, &root, "/c", "ed"), "ed");
        assert_eq!(mapped(src, &root, "/c", "tight"), "tight");
        assert_eq!(mapped(src, &root, "/c", "ed tight"), "ed \\\n  tight");
    }

    #[test]
    fn plain_multi_line_scalars_fold() {
        let src = "d: This tool\n  searches   the\n\n  web  # comment\ne: x\n";
        let root = parse_ok(src);
        assert_eq!(
            at(&root, "/d").as_str(),
            Some("This tool searches   the\nweb")
        );
        assert_eq!(
            text(src, &root, "/d"),
            "This tool\n  searches   the\n\n  web"
        );
        assert_eq!(mapped(src, &root, "/d", "searches"), "searches");
        assert_eq!(mapped(src, &root, "/d", "web"), "web");
        assert_eq!(
            mapped(src, &root, "/d", "tool searches"),
            "tool\n  searches"
        );
    }

    #[test]
    fn shared_spans_are_anchored_nodes_and_aliases() {
        let src = "a: &x one\nb: *x\nc: &m\n  k: v\nd: two\n";
        let shared: Vec<&str> = shared_spans(src)
            .into_iter()
            .map(|span| src[span].trim_end())
            .collect();
        assert_eq!(shared, ["&x one", "*x", "&m\n  k: v"]);
        assert!(shared_spans("a: one\nb: [1, 2]\n").is_empty());
    }

    #[test]
    fn aliases_report_at_the_use_site() {
        let src = "defs:\n  params: &p\n    type: object\n    props: [a, b]\n  name: &n tool\nuse:\n  - *p\n  - *n\n  - [*p]\n";
        let root = parse_ok(src);
        assert_eq!(
            text(src, &root, "/defs/params"),
            "type: object\n    props: [a, b]"
        );
        assert_eq!(text(src, &root, "/defs/name"), "tool");
        assert_eq!(text(src, &root, "/use/0"), "*p");
        assert_eq!(text(src, &root, "/use/0/type"), "*p");
        assert_eq!(text(src, &root, "/use/0/props/1"), "*p");
        assert_eq!(text(src, &root, "/use/2/0/props"), "*p");
        assert_eq!(text(src, &root, "/use/1"), "*n");
        assert_eq!(at(&root, "/use/1").as_str(), Some("tool"));
        assert_eq!(mapped(src, &root, "/use/1", "oo"), "*n");
        let entry = at(&root, "/use/0").entry("type").expect("type");
        assert_eq!(&src[entry.key_span()], "*p");
        assert_eq!(
            at(&root, "/use/0").to_json(),
            at(&root, "/defs/params").to_json()
        );
        // Merge keys stay plain keys.
        let root = parse_ok("base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n");
        assert_eq!(at(&root, "/d").as_object().map(<[Entry]>::len), Some(2));
        assert!(at(&root, "/d").get("<<").is_some());
    }

    #[test]
    fn alias_used_as_key_and_anchored_key() {
        let src = "&k name: a\nb: {*k : c}\n";
        let root = parse_ok(src);
        assert_eq!(key_text(src, &root, "", "name"), "name");
        assert_eq!(at(&root, "/b/name").as_str(), Some("c"));
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut src = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            src.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let e = error(&src);
        assert!(e.message.contains("aliases expand"), "{e:?}");
        assert_eq!(&src[e.span.start..e.span.start + 1], "*");
    }

    const BYTES_LIMIT: &str = "aliases expand to more than 32 MiB (the limit is 10 times the \
                               file's size, at least 32 MiB)";

    /// The line `span` starts on, and the text from there.
    fn line_of<'a>(src: &'a str, span: &Span) -> (usize, &'a str) {
        let line = src[..span.start].matches('\n').count();
        (line, &src[span.start..])
    }

    #[test]
    fn alias_bombs_of_long_strings_are_refused() {
        // Few nodes, many bytes: 1 KiB aliased 1,000 times, that 1,000 times (1 GiB).
        let mut src = format!("a0: &a0 {}\n", "x".repeat(1024));
        src.push_str(&format!("a1: &a1 [{}]\n", vec!["*a0"; 1000].join(", ")));
        src.push_str(&format!("a2: &a2 [{}]\n", vec!["*a1"; 1000].join(", ")));
        let e = error(&src);
        assert_eq!(e.message, BYTES_LIMIT);
        assert_eq!(e.span.len(), 1);
        let (line, rest) = line_of(&src, &e.span);
        assert_eq!(line, 2);
        assert!(rest.starts_with("*a1, "), "{rest:.10}");
        // Each `*a1` copies a bit over 1 MiB: the limit is crossed at the 27th or so.
        let index = src[..e.span.start].matches("*a1").count();
        assert!((20..32).contains(&index), "{index}");
    }

    #[test]
    fn long_aliased_keys_are_counted() {
        // 64 KiB keys copied 10,000 times into entries (and into their values' pointers).
        let mut src = format!("k: &k {}\n", "k".repeat(1 << 16));
        src.push_str(&format!("m: {{{}}}\n", vec!["*k : 1"; 10_000].join(", ")));
        let e = error(&src);
        assert_eq!(e.message, BYTES_LIMIT);
        let (line, rest) = line_of(&src, &e.span);
        assert_eq!(line, 1);
        assert!(rest.starts_with("*k : 1"), "{rest:.10}");
        // Key and pointer: about 128 KiB per entry.
        let index = src[..e.span.start].matches("*k").count();
        assert!((200..300).contains(&index), "{index}");

        // Nested, each level's pointer repeats every aliased key above it.
        let mut src = format!("k: &k {}\n", "k".repeat(1 << 16));
        src.push_str(&format!(
            "m: {}1{}\n",
            "{*k : ".repeat(250),
            "}".repeat(250)
        ));
        let e = error(&src);
        assert_eq!(e.message, BYTES_LIMIT);
        let (line, rest) = line_of(&src, &e.span);
        assert_eq!(line, 1);
        assert!(rest.starts_with("*k : {"), "{rest:.10}");
        let depth = src[..e.span.start].matches("*k").count();
        assert!((20..40).contains(&depth), "{depth}");

        // A few short aliased keys are fine.
        let root = parse_ok("k: &k name\nm: {*k : a, b: {*k : c}}\n");
        assert_eq!(at(&root, "/m/b/name").as_str(), Some("c"));
    }

    #[test]
    fn alias_byte_limit_grows_with_the_file() {
        // 1 MiB aliased 20 times: within the 32 MiB floor.
        let mut src = format!("a: &a {}\n", "x".repeat(1 << 20));
        src.push_str(&format!("b: [{}]\n", vec!["*a"; 20].join(", ")));
        let root = parse_ok(&src);
        assert_eq!(at(&root, "/b/19").as_str().map(str::len), Some(1 << 20));
        assert_eq!(text(&src, &root, "/b/19"), "*a");
        // A 4 MiB file may expand to 10 times that: 9 copies are fine, the 10th (a node more
        // than the file's text) crosses the limit.
        let big = "x".repeat(4 << 20);
        let src = format!("a: &a {big}\nb: [{}]\n", ["*a"; 9].join(", "));
        assert!(parse(&src).is_ok());
        let src = format!("a: &a {big}\nb: [{}]\n", ["*a"; 11].join(", "));
        let e = error(&src);
        assert_eq!(
            e.message,
            "aliases expand to more than 40.0 MiB (the limit is 10 times the file's size, at \
             least 32 MiB)"
        );
        assert_eq!(src[..e.span.start].matches("*a").count(), 9);
    }

    #[test]
    fn alias_node_limit_still_holds() {
        // Only reachable for files over 10 MB or so: the byte limit is checked on its own.
        let mut builder = Builder::new("a: *x\n");
        builder.alias_bytes_limit = usize::MAX;
        assert!(builder.charge(ALIAS_NODE_LIMIT, 1 << 40, 3).is_ok());
        let e = builder.charge(1, 0, 3).expect_err("over the node limit");
        assert_eq!(e.message, "aliases expand to more than 1000000 nodes");
        assert_eq!(e.span, 3..4);
    }

    #[test]
    fn multiple_documents_are_refused() {
        let src = "a: 1\n---\nb: 2\n--- c\n";
        let e = error(src);
        assert_eq!(
            e.message,
            "the file holds 3 YAML documents; toolcheck reads one manifest per file"
        );
        assert_eq!(&src[e.span.clone()], "---");
        assert_eq!(e.span.start, 5);
        // One explicit document is fine, `...` included.
        let root = parse_ok("--- # c\na: 1\n...\n");
        assert_eq!(root.to_json(), serde_json::json!({"a": 1}));
    }

    #[test]
    fn empty_inputs_are_null() {
        for src in [
            "",
            "\n",
            "# only a comment\n",
            "---\n",
            "--- \n...\n",
            "\u{feff}",
        ] {
            let root = parse_ok(src);
            assert_eq!(root.kind, NodeKind::Null, "{src:?}");
            assert_eq!(root.span(), 0..0, "{src:?}");
            assert_eq!(root.pointer, "");
        }
    }

    #[test]
    fn crlf_line_endings() {
        let src = "a: 1\r\nb: |\r\n  x word\r\n  y\r\nc: >\r\n  folded\r\n  text\r\nd: plain\r\n  multi\r\ne: [1,\r\n 2]\r\n";
        let root = parse_ok(src);
        assert_eq!(text(src, &root, "/a"), "1");
        assert_eq!(at(&root, "/b").as_str(), Some("x word\ny\n"));
        assert_eq!(text(src, &root, "/b"), "x word\r\n  y");
        assert_eq!(mapped(src, &root, "/b", "word"), "word");
        assert_eq!(mapped(src, &root, "/b", "word\ny"), "word\r\n  y");
        assert_eq!(at(&root, "/c").as_str(), Some("folded text\n"));
        assert_eq!(mapped(src, &root, "/c", "text"), "text");
        assert_eq!(at(&root, "/d").as_str(), Some("plain multi"));
        assert_eq!(mapped(src, &root, "/d", "multi"), "multi");
        assert_eq!(text(src, &root, "/e"), "[1,\r\n 2]");
        assert_eq!(text(src, &root, ""), &src[..src.len() - 2]);
    }

    #[test]
    fn byte_order_mark_counts_in_offsets() {
        let src = "\u{feff}name: tool\ndescription: \"é word\"\n";
        let root = parse_ok(src);
        assert_eq!(key_text(src, &root, "", "name"), "name");
        assert_eq!(at(&root, "").span().start, 3);
        assert_eq!(text(src, &root, "/name"), "tool");
        assert_eq!(mapped(src, &root, "/description", "word"), "word");
        let src = "\u{feff}--- |\n  text here\n";
        let root = parse_ok(src);
        assert_eq!(text(src, &root, ""), "text here");
        assert_eq!(mapped(src, &root, "", "here"), "here");
    }

    #[test]
    fn non_ascii_before_the_target() {
        let src = "# é 日本語 😀 comment 🎉\nk😀: \"é日\"  # ü😀\nname: 日本語 😀 tool\nlist: [é, 😀, {ключ: значение}]\ndesc: >\n  日本語の説明 with\n  a word 😀\n";
        let root = parse_ok(src);
        assert_eq!(text(src, &root, "/k😀"), "\"é日\"");
        assert_eq!(key_text(src, &root, "", "k😀"), "k😀");
        assert_eq!(text(src, &root, "/name"), "日本語 😀 tool");
        assert_eq!(mapped(src, &root, "/name", "tool"), "tool");
        assert_eq!(text(src, &root, "/list/1"), "😀");
        assert_eq!(text(src, &root, "/list/2/ключ"), "значение");
        assert_eq!(mapped(src, &root, "/desc", "word"), "word");
        assert_eq!(mapped(src, &root, "/desc", "with a"), "with\n  a");
    }

    #[test]
    fn long_non_ascii_input_maps_offsets_past_checkpoints() {
        let mut src = String::new();
        for i in 0..500 {
            src.push_str(&format!("k{i}: \"é日😀 value {i}\"\n"));
        }
        let root = parse_ok(&src);
        assert_eq!(text(&src, &root, "/k499"), "\"é日😀 value 499\"");
        assert_eq!(mapped(&src, &root, "/k317", "317"), "317");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = "[".repeat(10_000);
        let e = error(&src);
        assert!(e.span.start < 300, "{e:?}");
        let src = "- ".repeat(10_000) + "x\n";
        let e = error(&src);
        assert_eq!(e.message, "nesting deeper than 256 levels");
        assert_eq!(e.span, 512..513);
        let src = "{a: ".repeat(10_000);
        assert!(parse(&src).is_err());
        // 256 levels are fine.
        let src = "- ".repeat(256) + "x\n";
        let root = parse_ok(&src);
        let pointer = "/0".repeat(256);
        assert_eq!(text(&src, &root, &pointer), "x");
        // An alias cannot smuggle the depth past the limit.
        let mut src = String::from("a: &a ");
        src.push_str(&"[".repeat(200));
        src.push_str(&"]".repeat(200));
        src.push_str("\nb: ");
        src.push_str(&"[".repeat(100));
        src.push_str("*a");
        src.push_str(&"]".repeat(100));
        let e = error(&src);
        assert!(
            e.message.starts_with("nesting deeper than 256 levels"),
            "{e:?}"
        );
        assert_eq!(&src[e.span.clone()], "*");
    }

    #[test]
    fn syntax_errors_point_at_the_problem() {
        let src = "a: [1, 2\n";
        let e = error(src);
        assert!(!e.message.contains("line"), "{e:?}");
        assert_eq!(e.span.start, 9);
        let src = "name: é\nbad: b: c\n";
        let e = error(src);
        assert_eq!(e.message, "mapping values are not allowed in this context");
        assert_eq!(&src[e.span.clone()], ":");
        assert_eq!(e.span.start, 15);
        let src = "a:\n\t- b\n";
        let e = error(src);
        assert!(e.message.contains("tab"), "{e:?}");
        let src = "a: \"unterminated\n";
        assert!(parse(src).is_err());
        let src = "a: *nope\n";
        assert!(parse(src).is_err());
    }

    #[test]
    fn complex_keys_are_refused() {
        let src = "? [a, b]\n: c\n";
        let e = error(src);
        assert_eq!(e.message, "complex mapping keys are not supported");
        assert_eq!(&src[e.span.clone()], "[");
        let src = "x: &s [a]\ny: {*s : c}\n";
        let e = error(src);
        assert_eq!(e.message, "complex mapping keys are not supported");
        assert_eq!(&src[e.span.clone()], "*");
    }

    #[test]
    fn duplicate_keys_are_kept() {
        let src = "a: 1\na: 2\n";
        let root = parse_ok(src);
        assert_eq!(root.as_object().map(<[Entry]>::len), Some(2));
        assert_eq!(text(src, &root, "/a"), "2");
    }

    #[test]
    fn pointers_escape_keys() {
        let src = "\"a/b\": {\"~c\": 1}\n";
        let root = parse_ok(src);
        assert_eq!(text(src, &root, "/a~1b/~0c"), "1");
    }

    /// For every word of every sample string, the mapped range is the word itself or a range
    /// that strictly contains it — never somewhere else.
    #[test]
    fn words_map_to_themselves_or_an_enclosing_range() {
        let samples = [
            "a: plain words here\n",
            "a: plain\n  folded  words\n\n  over lines\n",
            "a: 'single ''quoted'' words\n  folded'\n",
            "a: \"double \\\"quoted\\\" caf\\u00e9 \\x41b\\\n   continued\n\n  words\\n end\"\n",
            "a: |\n  literal words\n    more indented\n\n  last\n",
            "a: >-\n  folded words\n  next line\n\n    spaced line\n  back\n",
            "a: |+2\n    kept words\n\n",
            "a: >\n\n  after empty\n  line\n",
            "a: \"tab\\tsep \\t word\"\n",
            "a: \"日本\\u8a9e word 😀\"\n",
            "- |\r\n  crlf words\r\n  here\r\n",
        ];
        for src in samples {
            let root = parse_ok(src);
            let node = root
                .at_pointer("/a")
                .or_else(|| root.at_pointer("/0"))
                .expect("a string node");
            let value = node.as_str().expect("a string");
            let NodeKind::String(s) = &node.kind else {
                panic!()
            };
            assert!(
                string_segments(s.style, &src[s.raw()], s.raw().start, value).is_some(),
                "no segments for {src:?} ({value:?})"
            );
            let mut start = 0;
            for word in value.split([' ', '\n', '\t']) {
                let decoded = start..start + word.len();
                start += word.len() + 1;
                if word.is_empty() {
                    continue;
                }
                let range = node.source_range(src, decoded);
                let source = &src[range.clone()];
                if source != word {
                    assert!(
                        range.start >= node.span().start.min(s.raw().start)
                            && range.end <= node.span().end.max(s.raw().end),
                        "{word:?} in {src:?} mapped outside the node: {source:?}"
                    );
                    assert!(
                        source.len() > word.len(),
                        "{word:?} in {src:?} mapped to {source:?}"
                    );
                    if word.is_ascii() && !source.contains('\\') {
                        assert!(source.contains(word), "{word:?} in {src:?} -> {source:?}");
                    }
                }
            }
        }
    }

    /// Generated scalars of every style, each word unique in the file: the mapped range of a
    /// word always holds the word's true source location (exactly, or an enclosing range), and
    /// segments are trusted for most of them (so the check is not vacuous).
    #[test]
    fn generated_scalars_map_words_to_their_true_location() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut trusted = 0;
        let mut total = 0;
        for case in 0..3000 {
            let mut word = 0;
            let mut fresh = || {
                word += 1;
                format!("w{word}z")
            };
            let style = case % 5;
            let mut body = String::new();
            match style {
                0 => {
                    body.push_str(&fresh());
                    for _ in 0..next(8) {
                        body.push_str([" ", "  ", "\n  ", "\n\n  ", " \n   "][next(5)]);
                        body.push_str(&fresh());
                    }
                }
                1 | 2 => {
                    let quote = if style == 1 { "'" } else { "\"" };
                    body.push_str(quote);
                    for _ in 0..next(10) + 1 {
                        let piece = next(12);
                        match piece {
                            0..=3 => body.push_str(&fresh()),
                            4 => body.push(' '),
                            5 => body.push_str("\n  "),
                            6 => body.push_str("  \n\n   "),
                            7 => body.push_str("é日"),
                            _ if style == 1 => body.push_str("''"),
                            8 => body.push_str(["\\n", "\\t", "\\\"", "\\\\", "\\/"][next(5)]),
                            9 => body.push_str("\\u00e9"),
                            10 => body.push_str("\\\n   "),
                            _ => body.push_str("\\ "),
                        }
                    }
                    body.push_str(quote);
                }
                _ => {
                    let header = ["|", "|-", "|+", ">", ">-", ">+", "|2", ">2", "|-1", ">+1"];
                    body.push_str(header[next(header.len())]);
                    body.push_str(["\n", "  # c\n", "\r\n"][next(3)]);
                    for line in 0..next(6) + 1 {
                        match next(6) {
                            0 if line > 0 => body.push('\n'),
                            1 if line > 0 => body.push_str("  \n"),
                            _ => {
                                body.push_str("  ");
                                body.push_str(["", "", " ", "   "][next(4)]);
                                body.push_str(&fresh());
                                for _ in 0..next(3) {
                                    body.push_str([" ", "  ", " é "][next(3)]);
                                    body.push_str(&fresh());
                                }
                                body.push('\n');
                            }
                        }
                    }
                }
            }
            let src = format!("k: é\na: {body}\nz: 1\n");
            let Ok(root) = parse(&src) else { continue };
            let Some(node) = root.at_pointer("/a") else {
                continue;
            };
            let NodeKind::String(s) = &node.kind else {
                continue;
            };
            total += 1;
            if string_segments(s.style, &src[s.raw()], s.raw().start, &s.value).is_some() {
                trusted += 1;
            }
            let bounds = node.span().start.min(s.raw().start)..node.span().end.max(s.raw().end);
            let value = &s.value;
            let mut at = 0;
            while let Some(offset) = value[at..].find('w') {
                let start = at + offset;
                let Some(len) = value[start..].find('z').map(|end| end + 1) else {
                    break;
                };
                let word = &value[start..start + len];
                at = start + len;
                let truth = src.find(word).expect("the word is in the source");
                let range = node.source_range(&src, start..start + len);
                assert!(
                    range.start <= truth && truth + len <= range.end,
                    "{word:?} in {src:?} mapped to {:?} ({:?})",
                    &src[range.clone()],
                    value
                );
                assert!(
                    bounds.start <= range.start && range.end <= bounds.end,
                    "{word:?} in {src:?} mapped outside the scalar"
                );
            }
        }
        assert!(total > 2500, "only {total} parsed");
        assert!(
            trusted * 10 > total * 9,
            "segments trusted for {trusted} of {total}"
        );
    }

    /// Pseudo-random YAML-ish inputs: parsing never panics, spans are in bounds, and string
    /// segments (when trusted) are consistent.
    #[test]
    fn never_panics_on_noise() {
        const PIECES: &[&str] = &[
            "a",
            "b: ",
            "- ",
            "\n",
            "  ",
            "\t",
            "\"",
            "'",
            "\\",
            "|",
            ">",
            "-",
            "+",
            "2",
            "#",
            "&x ",
            "*x",
            "!!str ",
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            "é",
            "😀",
            "\r\n",
            "---\n",
            "...",
            "? ",
            "%YAML 1.2\n",
            "\u{feff}",
            "\\u00e9",
            "''",
            "~",
            "1.5",
            "\n  ",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let src: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            match parse(&src) {
                Ok(root) => check_tree(&src, &root),
                Err(e) => {
                    assert!(
                        e.span.start <= e.span.end && e.span.end <= src.len(),
                        "{src:?}"
                    );
                    assert!(src.is_char_boundary(e.span.start), "{src:?}");
                }
            }
        }
    }

    fn check_tree(src: &str, root: &Node) {
        let mut todo = vec![root];
        while let Some(node) = todo.pop() {
            assert!(src.get(node.span()).is_some(), "{src:?}: {node:?}");
            match &node.kind {
                NodeKind::String(s) => {
                    assert!(src.get(s.raw()).is_some(), "{src:?}: {node:?}");
                    let len = s.value.len();
                    let range = node.source_range(src, 0..len);
                    assert!(src.get(range).is_some(), "{src:?}: {node:?}");
                    let raw = &src[s.raw()];
                    if let Some(segments) = string_segments(s.style, raw, s.raw().start, &s.value) {
                        let mut previous_end = s.raw().start;
                        for segment in segments {
                            assert!(segment.source.start >= previous_end, "{src:?}: {node:?}");
                            assert!(segment.source.end <= s.raw().end, "{src:?}: {node:?}");
                            previous_end = segment.source.end;
                        }
                    }
                }
                NodeKind::Array(items) => todo.extend(items),
                NodeKind::Object(entries) => {
                    for entry in entries {
                        assert!(src.get(entry.key_span()).is_some(), "{src:?}");
                        todo.push(&entry.value);
                    }
                }
                _ => {}
            }
        }
    }
}

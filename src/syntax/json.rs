//! Strict JSON with spans.

use super::{Node, ParseError, Segment};

/// Parses strict JSON (RFC 8259) into a [`Node`] tree.
pub fn parse(_source: &str) -> Result<Node, ParseError> {
    todo!("json parser")
}

/// Segments of a JSON string literal `raw` (quotes included) starting at byte `base`.
pub(crate) fn string_segments(_raw: &str, _base: usize) -> Option<Vec<Segment>> {
    None
}

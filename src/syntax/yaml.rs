//! YAML with spans.

use super::{Node, ParseError, Segment, StrStyle};

/// Parses a single-document YAML stream into a [`Node`] tree.
pub fn parse(_source: &str) -> Result<Node, ParseError> {
    todo!("yaml parser")
}

/// Segments of a YAML scalar of `style` whose raw source is `raw`, starting at byte `base`.
pub(crate) fn string_segments(
    _style: StrStyle,
    _raw: &str,
    _base: usize,
    _value: &str,
) -> Option<Vec<Segment>> {
    None
}

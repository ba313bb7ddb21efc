//! Shared by the schema rules: the native manifest's `limits` entries, pointers relative to the
//! input schema, and number formatting for messages.

use crate::normalize::Tool;
use crate::parse::{Entry, Node};

/// The kind of bound a `limits` entry declares, and the schema keyword that would enforce it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    MinItems,
    MaxItems,
    MinLength,
    MaxLength,
    Minimum,
    Maximum,
}

impl Bound {
    pub(crate) const ALL: [Bound; 6] = [
        Bound::MinItems,
        Bound::MaxItems,
        Bound::MinLength,
        Bound::MaxLength,
        Bound::Minimum,
        Bound::Maximum,
    ];

    /// The key in a `limits` entry.
    pub(crate) fn limit_key(self) -> &'static str {
        match self {
            Bound::MinItems => "min_items",
            Bound::MaxItems => "max_items",
            Bound::MinLength => "min_length",
            Bound::MaxLength => "max_length",
            Bound::Minimum => "minimum",
            Bound::Maximum => "maximum",
        }
    }

    /// The JSON Schema keyword with the same meaning.
    pub(crate) fn schema_keyword(self) -> &'static str {
        match self {
            Bound::MinItems => "minItems",
            Bound::MaxItems => "maxItems",
            Bound::MinLength => "minLength",
            Bound::MaxLength => "maxLength",
            Bound::Minimum => "minimum",
            Bound::Maximum => "maximum",
        }
    }

    /// The opposite end of the same range (`min_items` ↔ `max_items`).
    pub(crate) fn opposite(self) -> Bound {
        match self {
            Bound::MinItems => Bound::MaxItems,
            Bound::MaxItems => Bound::MinItems,
            Bound::MinLength => Bound::MaxLength,
            Bound::MaxLength => Bound::MinLength,
            Bound::Minimum => Bound::Maximum,
            Bound::Maximum => Bound::Minimum,
        }
    }

    pub(crate) fn is_min(self) -> bool {
        matches!(self, Bound::MinItems | Bound::MinLength | Bound::Minimum)
    }

    /// The JSON type the bound applies to.
    pub(crate) fn applies_to(self) -> &'static [&'static str] {
        match self {
            Bound::MinItems | Bound::MaxItems => &["array"],
            Bound::MinLength | Bound::MaxLength => &["string"],
            Bound::Minimum | Bound::Maximum => &["number", "integer"],
        }
    }

    pub(crate) fn from_schema_keyword(keyword: &str) -> Option<Bound> {
        Bound::ALL
            .into_iter()
            .find(|bound| bound.schema_keyword() == keyword)
    }
}

/// One entry of a tool's `limits` list.
#[derive(Debug)]
pub(crate) struct Limit<'a> {
    /// The `at` value: a JSON Pointer into the input schema (a string node).
    pub(crate) at: &'a Node,
    /// Every numeric bound it declares, in source order.
    pub(crate) bounds: Vec<(Bound, &'a Entry, f64)>,
}

impl<'a> Limit<'a> {
    pub(crate) fn pointer(&self) -> &'a str {
        self.at.as_str().unwrap_or_default()
    }

    pub(crate) fn bound(&self, bound: Bound) -> Option<(&'a Entry, f64)> {
        self.bounds
            .iter()
            .find(|(kind, _, _)| *kind == bound)
            .map(|(_, entry, value)| (*entry, *value))
    }
}

/// The tool's well-formed `limits` entries (`invalid-manifest` reports the malformed ones).
pub(crate) fn limits<'a>(tool: &Tool<'a>) -> Vec<Limit<'a>> {
    let items = tool
        .limits
        .and_then(|entry| entry.value.as_array())
        .unwrap_or_default();
    items
        .iter()
        .filter_map(|item| {
            let at = item.get("at").filter(|at| at.as_str().is_some())?;
            let bounds = Bound::ALL
                .into_iter()
                .filter_map(|bound| {
                    let entry = item.entry(bound.limit_key())?;
                    Some((bound, entry, entry.value.as_f64()?))
                })
                .collect();
            Some(Limit { at, bounds })
        })
        .collect()
}

/// The pointer of `node` relative to `schema` (`""` for the schema itself).
pub(crate) fn relative_pointer(schema: &Node, node: &Node) -> String {
    node.pointer
        .strip_prefix(&schema.pointer)
        .unwrap_or_else(|| node.pointer.written())
}

/// A number as people write it: `2`, not `2.0`.
pub(crate) fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// The types a schema declares with `type` (a string or a list of strings); empty when it
/// declares none.
pub(crate) fn declared_types(schema: &Node) -> Vec<&str> {
    match schema.get("type") {
        Some(node) => match node.as_array() {
            Some(items) => items.iter().filter_map(Node::as_str).collect(),
            None => node.as_str().into_iter().collect(),
        },
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::format_number;

    #[test]
    fn numbers_print_like_people_write_them() {
        assert_eq!(format_number(2.0), "2");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(0.5), "0.5");
    }
}

//! Shared by the schema rules: the native manifest's `limits` entries, pointers relative to the
//! input schema, and number formatting for messages.

use std::cell::OnceCell;
use std::collections::HashMap;

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

/// Number words and their values, as tool texts write bounds (`up to four`, `a dozen`).
pub(crate) const NUMBER_WORDS: &[(&str, f64)] = &[
    ("zero", 0.0),
    ("one", 1.0),
    ("single", 1.0),
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("dozen", 12.0),
    ("thirteen", 13.0),
    ("fourteen", 14.0),
    ("fifteen", 15.0),
    ("sixteen", 16.0),
    ("seventeen", 17.0),
    ("eighteen", 18.0),
    ("nineteen", 19.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("forty", 40.0),
    ("fifty", 50.0),
    ("sixty", 60.0),
    ("seventy", 70.0),
    ("eighty", 80.0),
    ("ninety", 90.0),
    ("hundred", 100.0),
    ("thousand", 1000.0),
];

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

/// The entries of the schema root's `properties` (none when it has no such object).
pub(crate) fn root_properties(schema: &Node) -> &[Entry] {
    schema
        .get("properties")
        .and_then(Node::as_object)
        .unwrap_or_default()
}

/// Whether `property` has a non-empty `description`: its own, that of the local definition its
/// `$ref` points at, or that of an `anyOf`/`oneOf`/`allOf` branch (`anyOf: [{type: string,
/// description: ...}, {type: "null"}]`, as schema generators write a nullable field). The
/// model reads the schema as it is, so a description in a branch is one it sees.
pub(crate) fn has_description(refs: &Refs<'_>, property: &Node) -> bool {
    described_within(refs, property, 0)
}

/// How many `$ref`s and branches deep [`has_description`] looks.
const DESCRIPTION_DEPTH: usize = 4;

fn described_within(refs: &Refs<'_>, schema: &Node, depth: usize) -> bool {
    if depth > DESCRIPTION_DEPTH {
        return false;
    }
    let described = schema
        .get("description")
        .and_then(Node::as_str)
        .is_some_and(|text| !text.trim().is_empty());
    if described {
        return true;
    }
    if let Some(reference) = schema.get("$ref").and_then(Node::as_str) {
        match refs.resolve(reference) {
            Resolved::Found(target) => {
                if described_within(refs, target, depth + 1) {
                    return true;
                }
            }
            // Whatever it points at, this rule cannot see it: no finding.
            Resolved::Remote | Resolved::Missing => return true,
        }
    }
    ["anyOf", "oneOf", "allOf"].iter().any(|key| {
        schema
            .get(key)
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .any(|branch| described_within(refs, branch, depth + 1))
    })
}

/// What a `$ref` resolves to inside one schema document.
#[derive(Debug)]
pub(crate) enum Resolved<'a> {
    /// The node it points at.
    Found(&'a Node),
    /// A local reference (a JSON Pointer fragment or an anchor) that points at nothing.
    Missing,
    /// A reference to another document (a URL or a relative file) that no `$id` of this
    /// schema names: it cannot be resolved without fetching it.
    Remote,
}

/// Resolves `$ref`s inside one schema document, without fetching anything: `#` and
/// `#/json/pointer` (percent-decoded, then `~0`/`~1`), `#anchor` (a `$anchor`,
/// `$dynamicAnchor`, or a draft-07 `$id: "#anchor"`), and a URL that names an `$id` of the
/// document (exactly, or by its last path segments), with either kind of fragment.
///
/// The `$id`s and anchors are indexed on the first reference that needs them, once per
/// schema, so each reference costs a lookup.
pub(crate) struct Refs<'a> {
    root: &'a Node,
    index: OnceCell<Index<'a>>,
}

#[derive(Default)]
struct Index<'a> {
    /// Every `$id` (without fragment) and each of its tails after a `/`, to its subschema.
    ids: HashMap<&'a str, &'a Node>,
    /// Every anchor name, to its subschema (anchors of all embedded documents together:
    /// never a false "missing").
    anchors: HashMap<&'a str, &'a Node>,
}

impl<'a> Refs<'a> {
    pub(crate) fn new(root: &'a Node) -> Self {
        Refs {
            root,
            index: OnceCell::new(),
        }
    }

    fn index(&self) -> &Index<'a> {
        self.index.get_or_init(|| {
            let mut index = Index::default();
            crate::normalize::schema::walk(self.root, &mut |subschema| {
                let text = |key: &str| subschema.get(key).and_then(Node::as_str);
                for key in ["$anchor", "$dynamicAnchor"] {
                    if let Some(name) = text(key) {
                        index.anchors.entry(name).or_insert(subschema);
                    }
                }
                // Draft-04 spells it `id`; only a URI or an anchor counts, not some other use.
                let legacy = text("id").filter(|id| id.starts_with('#') || id.contains("://"));
                let Some(id) = text("$id").or(legacy) else {
                    return;
                };
                if let Some(name) = id.strip_prefix('#') {
                    index.anchors.entry(name).or_insert(subschema);
                    return;
                }
                let id = id.split('#').next().unwrap_or_default();
                if id.is_empty() {
                    return;
                }
                index.ids.entry(id).or_insert(subschema);
                for (at, _) in id.match_indices('/') {
                    let tail = &id[at + 1..];
                    if !tail.is_empty() {
                        index.ids.entry(tail).or_insert(subschema);
                    }
                }
            });
            index
        })
    }

    /// The subschema whose `$id` is `base`, ends with `/base`, or is a tail of `base` (a
    /// relative `$id` resolved against an enclosing one, approximately).
    fn find_id(&self, base: &str) -> Option<&'a Node> {
        let base = base.trim_start_matches("./");
        let ids = &self.index().ids;
        if let Some(node) = ids.get(base) {
            return Some(node);
        }
        base.match_indices('/')
            .map(|(at, _)| &base[at + 1..])
            .find_map(|tail| ids.get(tail).copied())
    }

    pub(crate) fn resolve(&self, reference: &str) -> Resolved<'a> {
        let (base, fragment) = match reference.split_once('#') {
            Some((base, fragment)) => (base, fragment),
            None => (reference, ""),
        };
        let document = if base.is_empty() {
            self.root
        } else {
            match self.find_id(base) {
                Some(node) => node,
                None => return Resolved::Remote,
            }
        };
        let fragment = percent_decode(fragment);
        if fragment.is_empty() {
            return Resolved::Found(document);
        }
        let found = if fragment.starts_with('/') {
            document.at_pointer(&fragment).or_else(|| {
                // In a subschema with its own `$id`, `#/...` is relative to that subschema;
                // this resolver does not track which one encloses the reference, so any of
                // them will do (never a false "missing").
                if !base.is_empty() {
                    return None;
                }
                self.index()
                    .ids
                    .values()
                    .find_map(|embedded| embedded.at_pointer(&fragment))
            })
        } else {
            self.index().anchors.get(fragment.as_str()).copied()
        };
        match found {
            Some(node) => Resolved::Found(node),
            None => Resolved::Missing,
        }
    }
}

/// `%XX` escapes decoded (a URI fragment); malformed escapes and invalid UTF-8 are kept as
/// written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte == b'%' {
            let hex = bytes
                .get(index + 1..index + 3)
                .and_then(|hex| std::str::from_utf8(hex).ok())
                .and_then(|hex| u8::from_str_radix(hex, 16).ok());
            if let Some(decoded) = hex {
                out.push(decoded);
                index += 3;
                continue;
            }
        }
        out.push(byte);
        index += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::{Refs, Resolved, format_number, percent_decode};
    use crate::parse::parse;

    #[test]
    fn numbers_print_like_people_write_them() {
        assert_eq!(format_number(2.0), "2");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(0.5), "0.5");
    }

    #[test]
    fn draft04_ids_and_reference_loops_resolve_without_hanging() {
        let schema = parse(
            r##"{"id": "http://x.test/a.json", "definitions": {"n": {"$ref": "#/definitions/n"},
                 "m": {"id": "#m"}}, "properties": {"id": {"type": "string"}}}"##,
            true,
        )
        .unwrap();
        let refs = Refs::new(&schema);
        assert!(matches!(
            refs.resolve("a.json#/definitions/n"),
            Resolved::Found(_)
        ));
        assert!(matches!(refs.resolve("#m"), Resolved::Found(_)));
        assert!(matches!(
            refs.resolve("#/definitions/n"),
            Resolved::Found(_)
        ));
        assert!(matches!(
            refs.resolve("#/properties/nope"),
            Resolved::Missing
        ));
    }

    #[test]
    fn percent_escapes_decode_and_bad_ones_stay() {
        assert_eq!(percent_decode("/$defs/a%20b"), "/$defs/a b");
        assert_eq!(percent_decode("%zz%2"), "%zz%2");
        assert_eq!(percent_decode("%C3%A9"), "é");
        assert_eq!(percent_decode("%FF"), "%FF");
    }

    #[test]
    fn references_resolve_locally_or_are_remote() {
        let schema = parse(
            r##"{"$id": "https://x.test/s/root.json",
                 "$defs": {"a/b": {"type": "string"}, "c~d": {"$anchor": "cd"},
                           "e": {"$id": "e.json", "$defs": {"f": {}}}}}"##,
            true,
        )
        .unwrap();
        let refs = Refs::new(&schema);
        let found = |r: &str| matches!(refs.resolve(r), Resolved::Found(_));
        assert!(found("#"));
        assert!(found("#/$defs/a~1b"));
        assert!(found("#/%24defs/c~0d"));
        assert!(found("#cd"));
        assert!(found("root.json#/$defs/a~1b"));
        assert!(found("https://x.test/s/e.json#/$defs/f"));
        assert!(found("e.json"));
        assert!(found("#/$defs/f"), "relative to the embedded e.json");
        assert!(matches!(refs.resolve("#/$defs/nope"), Resolved::Missing));
        assert!(matches!(refs.resolve("#nope"), Resolved::Missing));
        assert!(matches!(
            refs.resolve("https://other.test/x.json"),
            Resolved::Remote
        ));
        assert!(matches!(refs.resolve("other.json#/a"), Resolved::Remote));
    }
}

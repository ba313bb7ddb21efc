//! The check of `invalid-json-schema`. Its code, docs and default options are in
//! `rules/schema/invalid-json-schema.yaml`.

use std::collections::{HashMap, HashSet};

use jsonschema::{Draft, ValidationError};
use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::{Entry, Node, NodeKind, escape_pointer_token, unescape_pointer_token};
use crate::rule::{Anchor, Ctx, Rule};

mod hollow;
mod message;

use hollow::Hollow;
use message::describe;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvalidJsonSchema {}

impl Rule for InvalidJsonSchema {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let draft = match schema.get("$schema") {
            Some(uri) => match uri.as_str() {
                Some(text) => match Draft::from_schema_uri(text) {
                    Draft::Unknown => {
                        ctx.report(
                            Field::InputSchema,
                            Anchor::Value(uri),
                            format!("unknown `$schema` `{text}`"),
                        )
                        .help(
                            "toolcheck validates drafts 2020-12, 2019-09, 07, 06 and 04 and \
                             downloads nothing: use one of their URIs, or drop `$schema` to \
                             mean 2020-12",
                        );
                        return;
                    }
                    draft => draft,
                },
                // Not a string: the 2020-12 meta-schema reports it.
                None => Draft::Draft202012,
            },
            None => Draft::Draft202012,
        };
        let mut finder = NodeFinder::new(schema);
        let mut seen: HashSet<(usize, String)> = HashSet::new();
        validate(schema, draft, WHOLE_NODES, &mut |path, error| {
            // The root's `type` is `non-object-root`'s (TC402): it reports any root type but
            // `object`, BFCL's `dict` included, with a fix. One cause, one finding.
            if path == "/type" {
                return;
            }
            let node = finder.find(path).unwrap_or(schema);
            let (message, help) = describe(error, path, draft);
            // By address: the finder gives one node for each pointer, so this is keying by
            // the node's pointer without writing out long ones.
            if !seen.insert((std::ptr::from_ref(node) as usize, message.clone())) {
                return;
            }
            let finding = ctx.report(Field::InputSchema, Anchor::Value(node), message);
            if let Some(help) = help {
                finding.help(help);
            }
        });
    }
}

/// A schema of up to this many nodes is validated in one call. The validator collects every
/// error before it returns any, up to 2 KB each, so a larger schema is validated one
/// subschema at a time ([`validate`]): a schema with 100,000 bad properties would otherwise
/// hold 100,000 errors at once.
const WHOLE_NODES: usize = 2_000;

/// Validates `schema` against the meta-schema of `draft` and gives each error, with its
/// instance path relative to `schema`, to `sink`: the errors one validator call on the whole
/// schema returns, in the same order.
///
/// A schema of more than `whole_nodes` nodes is split where the meta-schema applies itself to
/// a subschema and nothing else (`properties/*`, `allOf/*`, `not`; see [`slot`]): there the
/// subschema's errors are the errors of the subschema validated alone. The schema is
/// validated with each such subschema replaced by `{}`, except the first of each keyword,
/// replaced by a marker that draws exactly one error. The validator reaches a keyword's
/// subschemas one after the other, so the errors of each (validated the same way, in turn)
/// take the marker's error's place.
fn validate(
    schema: &Node,
    draft: Draft,
    whole_nodes: usize,
    sink: &mut dyn FnMut(&str, &ValidationError<'_>),
) {
    validate_at(schema, &mut String::new(), draft, whole_nodes, sink);
}

/// [`validate`] for the subschema at `at` (relative to the schema). One `at` grows and
/// shrinks as subschemas are entered and left: a copy for each level would take the square
/// of the depth when keys are long.
fn validate_at(
    schema: &Node,
    at: &mut String,
    draft: Draft,
    whole_nodes: usize,
    sink: &mut dyn FnMut(&str, &ValidationError<'_>),
) {
    let validator = meta_validator(draft);
    let hollow = if larger_than(schema, whole_nodes) {
        Hollow::new(schema, draft)
    } else {
        None
    };
    let Some(hollow) = hollow else {
        let value = schema.to_json();
        // Most schemas are valid, and the check that stops at the first error builds none.
        if validator.is_valid(&value) {
            return;
        }
        for error in validator.iter_errors(&value) {
            sink(&format!("{at}{}", error.instance_path().as_str()), &error);
        }
        return;
    };
    let mut reached = vec![false; hollow.slots.len()];
    for error in validator.iter_errors(&hollow.value) {
        let path = error.instance_path().as_str();
        let Some(index) = hollow.slots.iter().position(|slot| slot.marker == path) else {
            sink(&format!("{at}{path}"), &error);
            continue;
        };
        if !std::mem::replace(&mut reached[index], true) {
            hollow.slots[index].validate(at, draft, whole_nodes, sink);
        }
    }
    // Every marker draws its error, so this is not expected; should one not, its keyword's
    // subschemas are still validated, only not in the validator's order.
    for (slot, reached) in hollow.slots.iter().zip(reached) {
        if !reached {
            slot.validate(at, draft, whole_nodes, sink);
        }
    }
}

/// Whether `node` has more than `limit` nodes (itself and everything below it).
fn larger_than(node: &Node, limit: usize) -> bool {
    let mut count = 0;
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        count += 1;
        if count > limit {
            return true;
        }
        match &node.kind {
            NodeKind::Array(items) => stack.extend(items),
            NodeKind::Object(entries) => stack.extend(entries.iter().map(|entry| &entry.value)),
            _ => {}
        }
    }
    false
}

/// Finds a node of a schema by its pointer relative to the schema: the first in document
/// order with that pointer (duplicate keys give several nodes one pointer). A large object is
/// indexed by key when first looked into, so many lookups in one stay linear; no pointer is
/// written out, so long keys nested deep cost nothing more.
struct NodeFinder<'n> {
    schema: &'n Node,
    /// The places of each key, for each large object looked into (by its address).
    indexes: HashMap<usize, HashMap<&'n str, Vec<usize>>>,
}

/// An object with more entries than this is indexed; a smaller one is scanned.
const SCANNED_ENTRIES: usize = 16;

impl<'n> NodeFinder<'n> {
    fn new(schema: &'n Node) -> Self {
        NodeFinder {
            schema,
            indexes: HashMap::new(),
        }
    }

    fn find(&mut self, pointer: &str) -> Option<&'n Node> {
        let tokens: Vec<&str> = match pointer {
            "" => Vec::new(),
            _ => pointer.strip_prefix('/')?.split('/').collect(),
        };
        self.find_below(self.schema, &tokens)
    }

    fn find_below(&mut self, node: &'n Node, tokens: &[&str]) -> Option<&'n Node> {
        let Some((token, rest)) = tokens.split_first() else {
            return Some(node);
        };
        match &node.kind {
            NodeKind::Array(items) => {
                let index = token.parse::<usize>().ok()?;
                // Only as a node's pointer writes it: `/3`, not `/03` or `/+3`.
                if index.to_string() != *token {
                    return None;
                }
                self.find_below(items.get(index)?, rest)
            }
            NodeKind::Object(entries) => {
                let key = unescape_pointer_token(token);
                if escape_pointer_token(&key) != *token {
                    return None;
                }
                self.places(node, entries, &key)
                    .into_iter()
                    .find_map(|place| self.find_below(&entries[place].value, rest))
            }
            _ => None,
        }
    }

    /// Where the entries of `key` are in `entries` (`node`'s), in document order.
    fn places(&mut self, node: &'n Node, entries: &'n [Entry], key: &str) -> Vec<usize> {
        if entries.len() <= SCANNED_ENTRIES {
            return (0..entries.len())
                .filter(|&place| entries[place].key == key)
                .collect();
        }
        let index = self
            .indexes
            .entry(std::ptr::from_ref(node) as usize)
            .or_insert_with(|| {
                let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
                for (place, entry) in entries.iter().enumerate() {
                    index.entry(entry.key.as_str()).or_default().push(place);
                }
                index
            });
        index.get(key).cloned().unwrap_or_default()
    }
}

/// The meta-schema validator of `draft`. jsonschema builds each one once, on first use, and
/// keeps it in a process-wide `LazyLock`; this returns a handle borrowing it.
fn meta_validator(draft: Draft) -> jsonschema::meta::MetaValidator<'static> {
    match draft {
        Draft::Draft4 => jsonschema::draft4::meta::validator(),
        Draft::Draft6 => jsonschema::draft6::meta::validator(),
        Draft::Draft7 => jsonschema::draft7::meta::validator(),
        Draft::Draft201909 => jsonschema::draft201909::meta::validator(),
        _ => jsonschema::draft202012::meta::validator(),
    }
}
#[cfg(test)]
mod tests {
    use crate::lint::lint_text;

    use super::*;

    const DRAFTS: [Draft; 5] = [
        Draft::Draft4,
        Draft::Draft6,
        Draft::Draft7,
        Draft::Draft201909,
        Draft::Draft202012,
    ];

    /// Every keyword of every draft, each wrong somewhere, with repeated keys, keys to escape,
    /// empty and misshapen keywords, and subschemas that are not objects.
    const EVERYTHING: &str = r#"{
        "type": "dict", "required": "a", "minLength": -1, "$schema": 5,
        "properties": {
            "a": {"type": "str", "properties": {"x": {"type": "int"}, "y": true, "z": 5}},
            "b/c~d": {"enum": "x", "items": [{"type": "float"}, {"minimum": "0"}]},
            "e": "string",
            "a": {"type": "list", "required": [1, 1], "not": {"type": "n"}},
            "f": {"pattern": "(", "format": 5, "$id": 7}
        },
        "properties": {"g": {"type": "dict"}, "h": {"type": ["string", "string"]}},
        "patternProperties": {"(": {"type": "x"}, "^ok$": {"minItems": -2}},
        "additionalProperties": {"type": "dict", "additionalProperties": false},
        "items": {"type": "num"},
        "prefixItems": [{"type": "a"}, {"type": "b"}],
        "additionalItems": {"type": "dict"},
        "allOf": [{"type": "dict"}, {"not": {"type": "x"}}, 1, {"allOf": []}, {"anyOf": {}}],
        "anyOf": {},
        "oneOf": [{"$ref": 5}, {"properties": []}, {"properties": {}}],
        "not": {"type": "bad", "properties": {"q": {"type": "q"}}},
        "if": {"type": "i"}, "then": {"type": "t"}, "else": {"type": "e"},
        "contains": {"type": "c"},
        "propertyNames": {"type": "p"},
        "dependencies": {"a": {"type": "d"}, "b": ["x", "x"]},
        "dependentSchemas": {"a": {"type": "ds"}},
        "dependentRequired": {"a": [1]},
        "$defs": {"d/1~": {"type": "def"}, "d2": {"$defs": {"d3": {"type": "deep"}}}},
        "definitions": {"d1": {"type": "old"}, "d1": {"type": "older"}},
        "unevaluatedProperties": {"type": "u"},
        "unevaluatedItems": {"type": "ui"},
        "contentSchema": {"type": "cs"},
        "const": {"type": "no schema"}, "default": {"type": "no schema"},
        "examples": [{"type": "no schema"}]
    }"#;

    /// What the rule makes of each error: its path, message and help.
    fn described(
        schema: &Node,
        draft: Draft,
        whole_nodes: usize,
    ) -> Vec<(String, String, Option<String>)> {
        let mut found = Vec::new();
        validate(schema, draft, whole_nodes, &mut |path, error| {
            let (message, help) = describe(error, path, draft);
            found.push((path.to_string(), message, help));
        });
        found
    }

    /// Validated one subschema at a time, `schema` gives the same errors in the same order as
    /// validated whole.
    fn check_split_validation(schema: &Node, draft: Draft, context: &str) {
        let whole = described(schema, draft, usize::MAX);
        for whole_nodes in [0, 1, 4, 30] {
            let split = described(schema, draft, whole_nodes);
            assert!(
                split == whole,
                "{context} ({draft:?}, split above {whole_nodes} nodes):\n{split:#?}\n\
                 whole:\n{whole:#?}"
            );
        }
    }

    #[test]
    fn split_validation_gives_the_whole_validations_errors_in_its_order() {
        let schema = crate::parse::json::parse(EVERYTHING).expect("parses");
        for draft in DRAFTS {
            let hollow = Hollow::new(&schema, draft).expect("subschemas to split off");
            assert!(hollow.slots.len() >= 6, "{draft:?}");
            let whole = described(&schema, draft, usize::MAX);
            assert!(whole.len() >= 20, "{draft:?}: {whole:#?}");
            check_split_validation(&schema, draft, "everything");
        }
        // A large list and a large map of subschemas, each wrong.
        let many: Vec<String> = (0..200).map(|i| format!(r#"{{"type": "t{i}"}}"#)).collect();
        let text = format!(
            r#"{{"allOf": [{}], "properties": {{{}}}}}"#,
            many.join(", "),
            many.iter()
                .enumerate()
                .map(|(i, s)| format!(r#""p{i}": {s}"#))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let schema = crate::parse::json::parse(&text).expect("parses");
        check_split_validation(&schema, Draft::Draft202012, "many");
    }

    /// Every input schema of the fixtures and of `../shared/corpora` (when present).
    #[test]
    fn split_validation_of_every_fixture_and_corpus_schema() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut dirs = vec![root.join("fixtures"), root.join("../shared/corpora")];
        while let Some(dir) = dirs.pop() {
            let Ok(read) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in read.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path
                    .extension()
                    .is_some_and(|ext| ext == "json" || ext == "yaml" || ext == "yml")
                {
                    files.push(path);
                }
            }
        }
        let mut schemas = 0;
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let json = path.extension().is_some_and(|ext| ext == "json");
            let Ok(root) = crate::parse::parse(&text, json) else {
                continue;
            };
            let mut stack = vec![&root];
            while let Some(node) = stack.pop() {
                for entry in node.as_object().unwrap_or_default() {
                    if ["inputSchema", "input_schema", "parameters"].contains(&entry.key.as_str())
                        && entry.value.as_object().is_some()
                    {
                        schemas += 1;
                        let context = format!("{} {}", path.display(), entry.value.pointer);
                        check_split_validation(&entry.value, Draft::Draft202012, &context);
                    }
                }
                match &node.kind {
                    NodeKind::Array(items) => stack.extend(items),
                    NodeKind::Object(entries) => {
                        stack.extend(entries.iter().map(|entry| &entry.value))
                    }
                    _ => {}
                }
            }
        }
        assert!(schemas > 100, "{schemas} schemas");
    }

    /// The lookup as it was: a map of every node by its pointer, the first one in document
    /// order for a pointer that several share.
    fn nodes_by_pointer(schema: &Node) -> HashMap<String, &Node> {
        let mut nodes = HashMap::new();
        let mut stack = vec![schema];
        while let Some(node) = stack.pop() {
            let pointer = node.pointer.strip_prefix(&schema.pointer).unwrap();
            nodes.entry(pointer).or_insert(node);
            match &node.kind {
                NodeKind::Array(items) => stack.extend(items.iter().rev()),
                NodeKind::Object(entries) => {
                    stack.extend(entries.iter().rev().map(|entry| &entry.value))
                }
                _ => {}
            }
        }
        nodes
    }

    #[test]
    fn the_finder_finds_the_first_node_of_a_pointer() {
        // Repeated keys at several levels, keys to escape, and an object large enough to be
        // indexed (its repeated `k3` holds `x` only in its second entry).
        let keys: Vec<String> = (0..40)
            .map(|i| {
                format!(
                    r#""k{}": {{"n": {i}{}}}"#,
                    i % 30,
                    if i == 33 { ", \"x\": 1" } else { "" }
                )
            })
            .collect();
        let text = format!(
            r#"{{"schema": {{"a": {{"b": 1}}, "a": {{"c": [0, {{"d": 2}}]}}, "e/f": {{"g~h": 3}},
                "big": {{{}}}, "": {{"": 4}}}}}}"#,
            keys.join(", ")
        );
        let root = crate::parse::json::parse(&text).expect("parses");
        let schema = root.get("schema").expect("schema");
        let expected = nodes_by_pointer(schema);
        let mut finder = NodeFinder::new(schema);
        for (pointer, node) in &expected {
            let found = finder.find(pointer).map(std::ptr::from_ref);
            assert_eq!(found, Some(std::ptr::from_ref(*node)), "{pointer}");
        }
        assert!(expected.contains_key("/big/k3/x"));
        assert!(expected.contains_key("/a/c"));
        for pointer in [
            "/a/c/01",
            "/a/c/+1",
            "/a/x",
            "/e~1f/g~2h",
            "a",
            "/big/k3/n/1",
            "/a/b/c",
        ] {
            assert!(finder.find(pointer).is_none(), "{pointer}");
        }
    }

    fn tc407(name: &str, text: &str) -> Vec<String> {
        lint_text(name, text)
            .diagnostics
            .iter()
            .filter(|d| &*d.code == "TC407")
            .map(|d| format!("{} {}", d.pointer, d.message))
            .collect()
    }

    /// Nesting near the parser's cap (256) must not overflow the stack of a test thread
    /// (2 MiB), with a finding at the bottom.
    #[test]
    fn deep_nesting_is_validated_without_overflow() {
        let depth = 120;
        let mut schema = r#"{"type": "dict"}"#.to_string();
        for _ in 0..depth {
            schema = format!(r#"{{"type": "object", "properties": {{"a": {schema}}}}}"#);
        }
        let text = format!(r#"{{"name": "deep", "description": "d", "inputSchema": {schema}}}"#);
        let found = tc407("deep.json", &text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].ends_with("`dict` is not a JSON Schema type"));
    }

    /// BFCL's root `type: dict` is one finding, non-object-root's (with its fix); the same
    /// type below the root is this rule's.
    #[test]
    fn the_root_type_is_left_to_non_object_root() {
        let text = r#"{"name": "bfcl", "description": "d", "inputSchema": {
            "type": "dict", "properties": {"a": {"type": "dict"}}
        }}"#;
        let codes: Vec<String> = lint_text("bfcl.json", text)
            .diagnostics
            .iter()
            .filter(|d| d.pointer.written().ends_with("/type"))
            .map(|d| format!("{} {}", d.code, d.pointer))
            .collect();
        assert_eq!(
            codes,
            [
                "TC402 /inputSchema/type",
                "TC407 /inputSchema/properties/a/type"
            ]
        );
    }

    /// `$ref`s, local, recursive or remote, are never resolved: no download, no loop.
    #[test]
    fn references_are_not_followed() {
        let text = r##"{"name": "r", "description": "d", "inputSchema": {
            "type": "object",
            "properties": {"self": {"$ref": "#"}, "far": {"$ref": "http://127.0.0.1:9/x.json"}}
        }}"##;
        assert!(tc407("ref.json", text).is_empty());
    }
}

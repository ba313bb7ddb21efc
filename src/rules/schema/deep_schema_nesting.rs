//! The check of `deep-schema-nesting`. Its code, docs and default options are in
//! `rules/schema/deep-schema-nesting.yaml`.

use serde::Deserialize;

use super::helpers;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DeepSchemaNesting {
    /// The deepest nesting of objects and arrays that is fine.
    max_depth: usize,
}

/// Keywords whose subschema describes a value one level down (inside an object or array).
const CHILD_SINGLE: &[&str] = &[
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
];
const CHILD_LISTS: &[&str] = &["prefixItems", "items"];
const CHILD_MAPS: &[&str] = &["properties", "patternProperties"];
/// Keywords whose subschemas describe the same value (no new level).
const SAME_LISTS: &[&str] = &["allOf", "anyOf", "oneOf"];
const SAME_SINGLE: &[&str] = &["if", "then", "else"];
/// Definitions: measured on their own, from depth 0, since where they are used is unknown.
const DEFINITIONS: &[&str] = &["$defs", "definitions"];

impl Rule for DeepSchemaNesting {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let mut found = Vec::new();
        self.visit(schema, 0, &mut false, &mut found);
        // One finding per tool: every place past the limit has the one cause, a schema
        // that nests too deep; the first stands for them all.
        let Some(&first) = found.first() else {
            return;
        };
        let others = match found.len() - 1 {
            0 => String::new(),
            1 => "; 1 more place in this schema goes past the limit".to_string(),
            more => format!("; {more} more places in this schema go past the limit"),
        };
        ctx.report(
            Field::InputSchema,
            Anchor::Start(first),
            format!(
                "the schema nests objects and arrays {} deep here (at most {} is fine)",
                self.max_depth + 1,
                self.max_depth
            ),
        )
        .help(format!(
            "flatten the input: lift nested fields to the top level, or take the inner \
             structure as a string in a simple format the tool parses; models fill deep \
             structures less reliably{others}"
        ));
    }
}

impl DeepSchemaNesting {
    /// `depth` is the number of objects and arrays around the value `schema` describes;
    /// `flagged` whether the innermost of them already has a finding (one per container: its
    /// fields or alternatives past the limit are one problem).
    fn visit<'a>(
        &self,
        schema: &'a Node,
        depth: usize,
        flagged: &mut bool,
        found: &mut Vec<&'a Node>,
    ) {
        if schema.as_object().is_none() {
            return;
        }
        let depth = if is_container(schema) {
            depth + 1
        } else {
            depth
        };
        if depth > self.max_depth {
            // The first level past the limit (always `max_depth + 1`: each container adds
            // one) stands for the whole branch below it, and for its siblings.
            if !std::mem::replace(flagged, true) {
                found.push(schema);
            }
            return;
        }
        // The values inside this one share its flag; a schema that is no container passes
        // its parent's on.
        let mut own = false;
        let inner: &mut bool = if is_container(schema) {
            &mut own
        } else {
            &mut *flagged
        };
        for key in CHILD_SINGLE {
            if let Some(child) = schema.get(key) {
                self.visit(child, depth, inner, found);
            }
        }
        for key in CHILD_LISTS {
            for child in schema.get(key).and_then(Node::as_array).unwrap_or_default() {
                self.visit(child, depth, inner, found);
            }
        }
        for key in CHILD_MAPS {
            for entry in schema
                .get(key)
                .and_then(Node::as_object)
                .unwrap_or_default()
            {
                self.visit(&entry.value, depth, inner, found);
            }
        }
        // A combinator branch describes this same value: the level is already counted.
        let outer = if is_container(schema) {
            depth - 1
        } else {
            depth
        };
        for key in SAME_LISTS {
            for branch in schema.get(key).and_then(Node::as_array).unwrap_or_default() {
                self.visit(branch, outer, flagged, found);
            }
        }
        for key in SAME_SINGLE {
            if let Some(branch) = schema.get(key) {
                self.visit(branch, outer, flagged, found);
            }
        }
        for key in DEFINITIONS {
            for entry in schema
                .get(key)
                .and_then(Node::as_object)
                .unwrap_or_default()
            {
                self.visit(&entry.value, 0, &mut false, found);
            }
        }
    }
}

/// Whether the schema describes an object or an array (a level of nesting).
fn is_container(schema: &Node) -> bool {
    let types = helpers::declared_types(schema);
    types
        .iter()
        .any(|ty| matches!(*ty, "object" | "array" | "dict" | "list" | "tuple"))
        || ["properties", "items", "prefixItems", "additionalProperties"]
            .iter()
            .any(|key| schema.get(key).is_some())
}

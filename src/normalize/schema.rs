//! Walking JSON Schemas: every subschema, and every declared property, at any depth.

use crate::parse::{Entry, Node};

/// Keywords whose value is one subschema.
const SINGLE: &[&str] = &[
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];

/// Keywords whose value is a list of subschemas.
const LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Keywords whose value maps names to subschemas.
const MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Calls `visit` on `schema` and every subschema below it (objects only). Depth is bounded by
/// the parser's nesting limit.
pub fn walk<'a>(schema: &'a Node, visit: &mut dyn FnMut(&'a Node)) {
    if schema.as_object().is_none() {
        return;
    }
    visit(schema);
    for_each_child(schema, &mut |child| walk(child, visit));
}

/// Calls `visit` with every property declaration (`properties` entry) at any depth.
pub fn walk_properties<'a>(schema: &'a Node, visit: &mut dyn FnMut(&'a Entry)) {
    walk(schema, &mut |subschema| {
        for entry in subschema
            .get("properties")
            .and_then(Node::as_object)
            .unwrap_or_default()
        {
            visit(entry);
        }
    });
}

/// Calls `visit` with every property declaration at any depth and whether its object lists
/// it in `required`.
pub fn walk_properties_required<'a>(schema: &'a Node, visit: &mut dyn FnMut(&'a Entry, bool)) {
    walk(schema, &mut |object| {
        let required: Vec<&str> = object
            .get("required")
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
            .collect();
        for entry in object
            .get("properties")
            .and_then(Node::as_object)
            .unwrap_or_default()
        {
            visit(entry, required.contains(&&*entry.key));
        }
    });
}

/// The direct subschemas of `schema`.
pub fn for_each_child<'a>(schema: &'a Node, visit: &mut dyn FnMut(&'a Node)) {
    for key in SINGLE {
        if let Some(child) = schema.get(key).filter(|child| child.as_object().is_some()) {
            visit(child);
        }
    }
    for key in LISTS {
        for child in schema.get(key).and_then(Node::as_array).unwrap_or_default() {
            visit(child);
        }
    }
    for key in MAPS {
        for entry in schema
            .get(key)
            .and_then(Node::as_object)
            .unwrap_or_default()
        {
            visit(&entry.value);
        }
    }
}

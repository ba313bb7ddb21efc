//! The check of `unknown-required-property`. Its code, docs and default options are in
//! `rules/schema/unknown-required-property.yaml`.

use std::collections::HashSet;

use regex::Regex;
use serde::Deserialize;

use super::helpers::{Refs, Resolved};
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::for_each_child;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnknownRequiredProperty {}

/// Keywords whose subschemas apply to the same instance as their parent: a `required` in one
/// of them may name a property the parent or a sibling declares, and their properties count
/// for the parent's `required`.
const SAME_INSTANCE_LISTS: &[&str] = &["allOf", "anyOf", "oneOf"];
const SAME_INSTANCE_SINGLE: &[&str] = &["if", "then", "else", "not"];

/// How far `$ref`s and combinators are followed to collect the names an object declares.
const MAX_HOPS: usize = 16;

/// What an object schema declares, for its `required` list.
#[derive(Default)]
struct Declared<'a> {
    names: HashSet<&'a str>,
    patterns: Vec<&'a str>,
    /// A part this rule cannot see (a remote `$ref`, a bad pattern): any name may be declared.
    open: bool,
}

impl<'a> Declared<'a> {
    fn declares(&self, name: &str) -> bool {
        self.open
            || self.names.contains(name)
            || self
                .patterns
                .iter()
                .any(|pattern| Regex::new(pattern).map_or(true, |re| re.is_match(name)))
    }

    /// Adds what `schema` declares, and what its same-instance parts (`allOf`, `$ref`, ...)
    /// declare.
    fn collect(
        &mut self,
        root: &Refs<'a>,
        schema: &'a Node,
        hops: usize,
        seen: &mut HashSet<usize>,
    ) {
        if hops > MAX_HOPS {
            self.open = true;
            return;
        }
        // A `$ref` chain may loop: each node is collected once (by address; few per object).
        let address = schema as *const Node as usize;
        if !seen.insert(address) {
            return;
        }
        if let Some(properties) = schema.get("properties").and_then(Node::as_object) {
            self.names
                .extend(properties.iter().map(|entry| entry.key.as_str()));
        }
        if let Some(patterns) = schema.get("patternProperties").and_then(Node::as_object) {
            self.patterns
                .extend(patterns.iter().map(|entry| entry.key.as_str()));
        }
        if let Some(dependent) = schema.get("dependentSchemas").and_then(Node::as_object) {
            for entry in dependent {
                self.collect(root, &entry.value, hops + 1, seen);
            }
        }
        for key in SAME_INSTANCE_LISTS {
            for branch in schema.get(key).and_then(Node::as_array).unwrap_or_default() {
                self.collect(root, branch, hops + 1, seen);
            }
        }
        for key in SAME_INSTANCE_SINGLE {
            if let Some(branch) = schema.get(key) {
                self.collect(root, branch, hops + 1, seen);
            }
        }
        if let Some(reference) = schema.get("$ref") {
            match reference.as_str().map(|r| root.resolve(r)) {
                Some(Resolved::Found(target)) => self.collect(root, target, hops + 1, seen),
                _ => self.open = true,
            }
        }
        if schema.get("$dynamicRef").is_some() || schema.get("$recursiveRef").is_some() {
            self.open = true;
        }
    }
}

impl Rule for UnknownRequiredProperty {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        check(&Refs::new(schema), schema, &[], ctx);
    }
}

/// Checks `schema` and its subschemas. `inherited` is what the enclosing objects declare when
/// `schema` is one of their combinator branches (they apply to the same instance).
fn check<'a>(root: &Refs<'a>, schema: &'a Node, inherited: &[&Declared<'a>], ctx: &mut Ctx<'_>) {
    if schema.as_object().is_none() {
        return;
    }
    let required = schema
        .get("required")
        .and_then(Node::as_array)
        .unwrap_or_default();
    let needs_declared = !required.is_empty()
        || SAME_INSTANCE_LISTS
            .iter()
            .chain(SAME_INSTANCE_SINGLE)
            .chain(&["dependentSchemas"])
            .any(|key| schema.get(key).is_some());
    let mut chain = inherited.to_vec();
    let own = needs_declared.then(|| {
        let mut declared = Declared::default();
        declared.collect(root, schema, 0, &mut HashSet::new());
        declared
    });
    if let Some(declared) = &own {
        chain.push(declared);
        // A fragment with no `type` that declares nothing at all (`$defs: {named: {required:
        // [name]}}`, mixed in with `allOf`) is a constraint for schemas that declare the
        // names; a typed object that declares nothing is not.
        let fragment = schema.get("type").is_none()
            && chain
                .iter()
                .all(|declared| declared.names.is_empty() && declared.patterns.is_empty());
        let required = if fragment { &[][..] } else { required };
        for item in required {
            // Not a string: `invalid-json-schema` reports it.
            let Some(name) = item.as_str() else {
                continue;
            };
            if chain.iter().any(|declared| declared.declares(name)) {
                continue;
            }
            let help = if chain.iter().all(|declared| declared.names.is_empty()) {
                format!(
                    "declare `{name}` under `properties` with a type and a description, or \
                     remove it from `required`"
                )
            } else {
                format!(
                    "declare `{name}` under `properties`, fix the spelling, or remove it from \
                     `required`; a model asked for a property it has never seen invents one"
                )
            };
            ctx.report(
                Field::InputSchema,
                Anchor::Value(item),
                format!("`required` names `{name}`, which is not a declared property"),
            )
            .help(help);
        }
    }
    // Branches that apply to this same instance inherit what it declares.
    for key in SAME_INSTANCE_LISTS {
        for branch in schema.get(key).and_then(Node::as_array).unwrap_or_default() {
            check(root, branch, &chain, ctx);
        }
    }
    // A `required` under `not` forbids the names: any name is fine there.
    for key in SAME_INSTANCE_SINGLE.iter().filter(|key| **key != "not") {
        if let Some(branch) = schema.get(key) {
            check(root, branch, &chain, ctx);
        }
    }
    if let Some(dependent) = schema.get("dependentSchemas").and_then(Node::as_object) {
        for entry in dependent {
            check(root, &entry.value, &chain, ctx);
        }
    }
    // Every other subschema is a new instance.
    let same_instance: HashSet<*const Node> = SAME_INSTANCE_LISTS
        .iter()
        .filter_map(|key| schema.get(key).and_then(Node::as_array))
        .flatten()
        .chain(
            SAME_INSTANCE_SINGLE
                .iter()
                .filter_map(|key| schema.get(key)),
        )
        .chain(
            schema
                .get("dependentSchemas")
                .and_then(Node::as_object)
                .unwrap_or_default()
                .iter()
                .map(|entry| &entry.value),
        )
        .map(|node| node as *const Node)
        .collect();
    for_each_child(schema, &mut |child| {
        if !same_instance.contains(&(child as *const Node)) {
            check(root, child, &[], ctx);
        }
    });
}

//! The check of `schema-rejected-by-target`. Its code and docs are in
//! `rules/targets/schema-rejected-by-target.yaml`.
//!
//! One walk over each input schema checks every active schema constraint at once; a construct
//! that several selected targets reject is one finding that names them all.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::{Entry, Node, NodeKind};
use crate::rule::{Anchor, Ctx, Rule};
use crate::rules::schema::helpers::{Refs, Resolved, declared_types};
use crate::targets::profile::{Check, EnumValues, Place};
use crate::targets::{Active, Targets};

mod message;

use message::{describe, who_does};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaRejectedByTarget {}

/// The schema keys of Gemini's JSON Schema escape hatch: the `gemini` profile's keyword list is
/// about `parameters`; here only `$schema` is still refused.
const JSON_SCHEMA_KEYS: &[&str] = &["parametersJsonSchema", "parameters_json_schema"];

/// Past this many distinct `$ref` targets in one schema, only direct recursion (a `$ref` to
/// its own ancestor) is looked for, so the work stays bounded.
const MAX_REF_TARGETS: usize = 64;

/// What is wrong; one finding per problem and node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Problem {
    Keyword,
    TypeList,
    EnumValue,
    Format,
    RefSiblings,
    ExternalRef,
    Recursion,
    DefsBelowRoot,
    MinItems,
    RootType,
    RefInAllOf,
}

/// One constraint that a node breaks.
struct Hit<'a> {
    problem: Problem,
    /// The key or value the finding points at.
    at: Anchor<'a>,
    /// Identifies the node, to merge the hits of several targets.
    span: (usize, usize),
    active: &'a Active,
}

/// The active schema constraints, sorted by how the walk uses them.
#[derive(Default)]
struct Checks<'a> {
    /// Keyword → constraints rejecting it, by place.
    root: HashMap<&'a str, Vec<&'a Active>>,
    below: HashMap<&'a str, Vec<&'a Active>>,
    allowed: Vec<(&'a Active, HashSet<&'a str>)>,
    type_array: Vec<&'a Active>,
    enum_values: Vec<(&'a Active, EnumValues)>,
    ref_siblings: Vec<&'a Active>,
    external_ref: Vec<&'a Active>,
    recursion: Vec<&'a Active>,
    defs_below_root: Vec<&'a Active>,
    formats: Vec<(&'a Active, HashSet<&'a str>)>,
    max_min_items: Vec<(&'a Active, u64)>,
    root_type: Vec<(&'a Active, &'a str)>,
    ref_in_all_of: Vec<&'a Active>,
}

impl<'a> Checks<'a> {
    /// The constraints of `targets` that this rule checks; with `json_schema`, those of the
    /// `gemini` profile that only hold for `parameters` are left out.
    fn of(targets: &'a Targets, json_schema: bool) -> Checks<'a> {
        let mut checks = Checks::default();
        for active in targets.constraints() {
            let gemini_parameters_only = json_schema && &*active.constraint.from == "gemini";
            match &active.constraint.check {
                Check::Keywords(keywords) => {
                    for keyword in &keywords.keywords {
                        if gemini_parameters_only && keyword != "$schema" {
                            continue;
                        }
                        if keywords.at != Place::BelowRoot {
                            checks.root.entry(keyword).or_default().push(active);
                        }
                        if keywords.at != Place::Root {
                            checks.below.entry(keyword).or_default().push(active);
                        }
                    }
                }
                _ if gemini_parameters_only => {}
                Check::AllowedKeywords(keywords) => checks
                    .allowed
                    .push((active, keywords.iter().map(String::as_str).collect())),
                Check::TypeArray => checks.type_array.push(active),
                Check::EnumValues(values) => checks.enum_values.push((active, *values)),
                Check::RefSiblings => checks.ref_siblings.push(active),
                Check::ExternalRef => checks.external_ref.push(active),
                Check::Recursion => checks.recursion.push(active),
                Check::DefsBelowRoot => checks.defs_below_root.push(active),
                Check::Formats(formats) => checks
                    .formats
                    .push((active, formats.iter().map(String::as_str).collect())),
                Check::MaxMinItems(max) => checks.max_min_items.push((active, *max)),
                Check::RootType(ty) => checks.root_type.push((active, ty)),
                Check::RefInAllOf => checks.ref_in_all_of.push(active),
                _ => {}
            }
        }
        checks
    }

    fn is_empty(&self) -> bool {
        self.root.is_empty()
            && self.below.is_empty()
            && self.allowed.is_empty()
            && self.type_array.is_empty()
            && self.enum_values.is_empty()
            && self.ref_siblings.is_empty()
            && self.external_ref.is_empty()
            && self.recursion.is_empty()
            && self.defs_below_root.is_empty()
            && self.formats.is_empty()
            && self.max_min_items.is_empty()
            && self.root_type.is_empty()
            && self.ref_in_all_of.is_empty()
    }

    fn resolves_refs(&self) -> bool {
        !self.external_ref.is_empty() || !self.recursion.is_empty()
    }
}

impl Rule for SchemaRejectedByTarget {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        let Some(entry) = tool.input_schema else {
            return;
        };
        let schema = &entry.value;
        // A boolean or otherwise broken schema is `non-object-root`'s and `invalid-json-schema`'s.
        if schema.as_object().is_none() {
            return;
        }
        let checks = Checks::of(targets, JSON_SCHEMA_KEYS.contains(&entry.key.as_str()));
        if checks.is_empty() {
            return;
        }
        let mut hits = Vec::new();
        root_type(&checks, entry, &mut hits);
        report(ctx, schema, &mut hits);
        let mut refs = Vec::new();
        crate::normalize::schema::walk(schema, &mut |node| {
            check_node(&checks, schema, node, ctx, &mut hits, &mut refs);
        });
        if checks.resolves_refs() && !refs.is_empty() {
            check_refs(&checks, schema, &refs, ctx, &mut hits);
        }
    }
}

/// The schema root's `type`, for each `root-type` constraint.
fn root_type<'a>(checks: &Checks<'a>, entry: &'a Entry, hits: &mut Vec<Hit<'a>>) {
    let schema = &entry.value;
    for (active, wanted) in &checks.root_type {
        let (at, span) = match schema.get("type") {
            Some(ty) if ty.as_str() == Some(wanted) => continue,
            Some(ty) => (Anchor::Value(ty), ty),
            None => (Anchor::Key(entry), schema),
        };
        hits.push(Hit {
            problem: Problem::RootType,
            at,
            span: (span.span().start, span.span().end),
            active,
        });
    }
}

/// Every constraint that one subschema breaks, except those that need `$ref`s resolved (the
/// `$ref`s are gathered for [`check_refs`]).
fn check_node<'a>(
    checks: &Checks<'a>,
    schema: &'a Node,
    node: &'a Node,
    ctx: &mut Ctx<'_>,
    hits: &mut Vec<Hit<'a>>,
    refs: &mut Vec<&'a Node>,
) {
    let is_root = std::ptr::eq(node, schema);
    let entries = node.as_object().unwrap_or_default();
    let places = if is_root { &checks.root } else { &checks.below };
    let beside_ref = !checks.ref_siblings.is_empty() && entries.iter().any(|e| e.key != "$ref");
    for entry in entries {
        let key = entry.key.as_str();
        let key_hit = |problem, active| Hit {
            problem,
            at: Anchor::Key(entry),
            span: (entry.key_span().start, entry.key_span().end),
            active,
        };
        let value_hit = |problem, node: &'a Node, active| Hit {
            problem,
            at: Anchor::Value(node),
            span: (node.span().start, node.span().end),
            active,
        };
        for active in places.get(key).into_iter().flatten() {
            hits.push(key_hit(Problem::Keyword, active));
        }
        for (active, allowed) in &checks.allowed {
            if !allowed.contains(key) {
                hits.push(key_hit(Problem::Keyword, active));
            }
        }
        match key {
            "type" if entry.value.as_array().is_some() => {
                for active in &checks.type_array {
                    hits.push(value_hit(Problem::TypeList, &entry.value, active));
                }
            }
            "enum" => {
                let items = entry.value.as_array().unwrap_or_default();
                for (active, accepted) in &checks.enum_values {
                    if let Some(bad) = items.iter().find(|item| !enum_value_ok(*accepted, item)) {
                        hits.push(value_hit(Problem::EnumValue, bad, active));
                    }
                }
            }
            "format" if string_format(node, &entry.value) => {
                let format = entry.value.as_str().unwrap_or_default();
                for (active, formats) in &checks.formats {
                    if !formats.contains(format) {
                        hits.push(value_hit(Problem::Format, &entry.value, active));
                    }
                }
            }
            "$ref" if entry.value.as_str().is_some() => {
                if beside_ref {
                    for active in &checks.ref_siblings {
                        hits.push(key_hit(Problem::RefSiblings, active));
                    }
                }
                refs.push(node);
            }
            "$defs" | "definitions" if !is_root => {
                for active in &checks.defs_below_root {
                    hits.push(key_hit(Problem::DefsBelowRoot, active));
                }
            }
            "minItems" if entry.value.as_f64().is_some() => {
                let value = entry.value.as_f64().unwrap_or_default();
                for (active, max) in &checks.max_min_items {
                    if value > *max as f64 {
                        hits.push(value_hit(Problem::MinItems, &entry.value, active));
                    }
                }
            }
            "allOf" => {
                let branches = entry.value.as_array().unwrap_or_default();
                for branch in branches {
                    let Some(reference) = branch.entry("$ref") else {
                        continue;
                    };
                    for active in &checks.ref_in_all_of {
                        hits.push(Hit {
                            problem: Problem::RefInAllOf,
                            at: Anchor::Key(reference),
                            span: (reference.key_span().start, reference.key_span().end),
                            active,
                        });
                    }
                }
            }
            _ => {}
        }
        // The hits of one keyword are complete: report them before the next.
        report(ctx, schema, hits);
    }
}

/// Whether `format` (a value in `node`) is a string format: a string, in a schema that
/// declares no type or `string` among its types.
fn string_format(node: &Node, format: &Node) -> bool {
    let types = declared_types(node);
    format.as_str().is_some() && (types.is_empty() || types.contains(&"string"))
}

fn enum_value_ok(accepted: EnumValues, value: &Node) -> bool {
    match accepted {
        EnumValues::Strings => value.as_str().is_some(),
        EnumValues::Primitives => !matches!(value.kind, NodeKind::Array(_) | NodeKind::Object(_)),
    }
}

/// External and recursive `$ref`s: each subschema in `sites` has a string `$ref`.
fn check_refs<'a>(
    checks: &Checks<'a>,
    schema: &'a Node,
    sites: &[&'a Node],
    ctx: &mut Ctx<'_>,
    hits: &mut Vec<Hit<'a>>,
) {
    let refs = Refs::new(schema);
    let definitions = Definitions::of(schema);
    // Each site's `$ref` value and what it resolves to.
    let mut resolved: Vec<(&'a Node, &'a Node, Option<&'a Node>)> = Vec::new();
    // A schema with its `$ref` key written twice is one site.
    let mut seen = HashSet::new();
    for site in sites {
        if !seen.insert(std::ptr::from_ref(*site)) {
            continue;
        }
        let Some(value) = site.get("$ref") else {
            continue;
        };
        let Some(reference) = value.as_str() else {
            continue;
        };
        if let Some(target) = definitions.get(reference) {
            resolved.push((site, value, Some(target)));
            continue;
        }
        match refs.resolve(reference) {
            Resolved::Found(target) => resolved.push((site, value, Some(target))),
            Resolved::Remote => {
                for active in &checks.external_ref {
                    hits.push(Hit {
                        problem: Problem::ExternalRef,
                        at: Anchor::Value(value),
                        span: (value.span().start, value.span().end),
                        active,
                    });
                }
                report(ctx, schema, hits);
            }
            Resolved::Missing => resolved.push((site, value, None)),
        }
    }
    if checks.recursion.is_empty() {
        return;
    }
    let recursive = recursive_refs(&resolved);
    for (index, (_, value, _)) in resolved.iter().enumerate() {
        if !recursive.contains(&index) {
            continue;
        }
        for active in &checks.recursion {
            hits.push(Hit {
                problem: Problem::Recursion,
                at: Anchor::Value(value),
                span: (value.span().start, value.span().end),
                active,
            });
        }
        report(ctx, schema, hits);
    }
}

/// The root's `$defs` and `definitions` by name, so that the usual `#/$defs/NAME` costs one
/// lookup however many definitions there are (a JSON Pointer walk scans the object).
struct Definitions<'a> {
    by_name: HashMap<(&'a str, &'a str), &'a Node>,
}

impl<'a> Definitions<'a> {
    fn of(schema: &'a Node) -> Definitions<'a> {
        let mut by_name = HashMap::new();
        for keyword in ["$defs", "definitions"] {
            // The last of duplicated keys wins, as in `Node::get`.
            let Some(entry) = schema.entry(keyword) else {
                continue;
            };
            for definition in entry.value.as_object().unwrap_or_default() {
                by_name.insert((keyword, definition.key.as_str()), &definition.value);
            }
        }
        Definitions { by_name }
    }

    /// The definition `reference` names when it is a plain `#/$defs/NAME` (no escapes).
    fn get(&self, reference: &str) -> Option<&'a Node> {
        let pointer = reference.strip_prefix("#/")?;
        let (keyword, name) = pointer.split_once('/')?;
        if name.contains(['/', '~', '%']) {
            return None;
        }
        self.by_name.get(&(keyword, name)).copied()
    }
}

/// Whether `outer`'s source holds `inner` (a subschema within it, or itself).
fn contains(outer: &Node, inner: &Node) -> bool {
    outer.span().start <= inner.span().start && inner.span().end <= outer.span().end
}

/// The indexes of the `$ref`s that close a cycle: expanding the schema they point at reaches
/// them again, directly (`"$ref": "#"` inside the root) or through other definitions.
fn recursive_refs(resolved: &[(&Node, &Node, Option<&Node>)]) -> HashSet<usize> {
    let mut recursive = HashSet::new();
    // The distinct targets, by span.
    let mut targets: Vec<&Node> = Vec::new();
    let mut target_of: Vec<Option<usize>> = Vec::with_capacity(resolved.len());
    let mut by_span: HashMap<(usize, usize), usize> = HashMap::new();
    for (index, (site, _, target)) in resolved.iter().enumerate() {
        let Some(target) = target else {
            target_of.push(None);
            continue;
        };
        if contains(target, site) {
            recursive.insert(index);
        }
        let key = (target.span().start, target.span().end);
        let next = targets.len();
        let id = *by_span.entry(key).or_insert(next);
        if id == next {
            targets.push(target);
        }
        target_of.push(Some(id));
    }
    if targets.len() > MAX_REF_TARGETS {
        return recursive;
    }
    // Target `t` leads to target `u` when a `$ref` inside `t` points at `u`.
    let count = targets.len();
    let mut leads = vec![Vec::new(); count];
    for (site_index, (site, _, _)) in resolved.iter().enumerate() {
        let Some(to) = target_of[site_index] else {
            continue;
        };
        for (from, target) in targets.iter().enumerate() {
            if contains(target, site) {
                leads[from].push(to);
            }
        }
    }
    // What each target reaches in one step or more.
    let reach: Vec<Vec<bool>> = (0..count)
        .map(|start| {
            let mut seen = vec![false; count];
            let mut stack: Vec<usize> = leads[start].clone();
            while let Some(at) = stack.pop() {
                if !std::mem::replace(&mut seen[at], true) {
                    stack.extend(&leads[at]);
                }
            }
            seen
        })
        .collect();
    for (index, (site, _, _)) in resolved.iter().enumerate() {
        let Some(to) = target_of[index] else {
            continue;
        };
        // Expanding the target reaches a schema that holds this `$ref`.
        let cycle = targets
            .iter()
            .enumerate()
            .any(|(holder, target)| contains(target, site) && reach[to][holder]);
        if cycle {
            recursive.insert(index);
        }
    }
    recursive
}

/// Reports the hits gathered so far, one finding per problem and node, naming every target.
fn report<'a>(ctx: &mut Ctx<'_>, schema: &Node, hits: &mut Vec<Hit<'a>>) {
    let mut done = vec![false; hits.len()];
    for first in 0..hits.len() {
        if done[first] {
            continue;
        }
        let hit = &hits[first];
        // The constraints of this finding: one per target (a target's specific constraint
        // wins over its keyword list).
        let mut actives: Vec<&Active> = Vec::new();
        for (other, same) in hits.iter().enumerate().skip(first) {
            if done[other] || same.problem != hit.problem || same.span != hit.span {
                continue;
            }
            done[other] = true;
            match actives
                .iter_mut()
                .find(|seen| seen.constraint.from == same.active.constraint.from)
            {
                Some(seen) => {
                    if matches!(seen.constraint.check, Check::AllowedKeywords(_)) {
                        *seen = same.active;
                    }
                }
                None => actives.push(same.active),
            }
        }
        let (message, fix) = describe(hit, schema, &actives);
        let mut help = fix;
        let mut cited = HashSet::new();
        for active in &actives {
            if cited.insert(active.cite()) {
                help.push_str("; ");
                if actives.len() > 1 {
                    let _ = write!(help, "{}: ", active.who());
                }
                help.push_str(&active.cite());
            }
        }
        let message = format!("{message}: {}", who_does(&actives));
        ctx.report(Field::InputSchema, hit.at.clone(), message)
            .help(help);
    }
    hits.clear();
}

#[cfg(test)]
mod tests {
    use super::message::plural;
    use super::recursive_refs;
    use crate::parse::{Node, parse};

    #[test]
    fn verbs_agree_with_several_targets() {
        assert_eq!(plural("rejects the request"), "reject the request");
        assert_eq!(plural("does not allow it"), "do not allow it");
        assert_eq!(plural("drops the tool"), "drop the tool");
    }

    /// The `$ref`s of `schema` at `pointers`, with the node each points at.
    fn sites<'a>(
        schema: &'a Node,
        pointers: &[&str],
    ) -> Vec<(&'a Node, &'a Node, Option<&'a Node>)> {
        pointers
            .iter()
            .map(|pointer| {
                let site = schema.at_pointer(pointer).unwrap();
                let value = site.get("$ref").unwrap();
                let target = schema.at_pointer(value.as_str().unwrap().trim_start_matches('#'));
                (site, value, target)
            })
            .collect()
    }

    #[test]
    fn cycles_through_other_definitions_are_recursive_and_plain_references_are_not() {
        let schema = parse(
            r##"{"type": "object",
                 "properties": {"a": {"$ref": "#/$defs/a"}, "leaf": {"$ref": "#/$defs/leaf"}},
                 "$defs": {"a": {"properties": {"b": {"$ref": "#/$defs/b"}}},
                           "b": {"properties": {"a": {"$ref": "#/$defs/a"}}},
                           "leaf": {"type": "string"}}}"##,
            true,
        )
        .unwrap();
        let resolved = sites(
            &schema,
            &[
                "/properties/a",
                "/properties/leaf",
                "/$defs/a/properties/b",
                "/$defs/b/properties/a",
            ],
        );
        let recursive = recursive_refs(&resolved);
        // `properties/a` enters the cycle without closing it; the two inside close it.
        assert!(!recursive.contains(&0));
        assert!(!recursive.contains(&1));
        assert!(recursive.contains(&2));
        assert!(recursive.contains(&3));
    }
}

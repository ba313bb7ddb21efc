//! The caps on a whole request of strict tools: how many strict tools, optional parameters
//! and union-typed parameters the target accepts across them.

use std::collections::HashSet;

use super::cap;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::walk;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx};
use crate::targets::Active;
use crate::targets::profile::Check;

/// A strict tool's parameters that the per-request caps count, at every depth.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Parameters {
    /// Properties not listed in their object's `required`.
    optional: usize,
    /// Properties typed as a union: a `type` list of two or more types, or `anyOf`.
    unions: usize,
}

pub(super) fn parameters(tool: &Tool<'_>) -> Parameters {
    let mut counts = Parameters::default();
    let Some(schema) = tool.input_schema() else {
        return counts;
    };
    walk(schema, &mut |object| {
        let Some(properties) = object.get("properties").and_then(Node::as_object) else {
            return;
        };
        // A `required` that is no list is `invalid-json-schema`'s: nothing counted as optional.
        let required: Option<HashSet<&str>> = match object.get("required") {
            None => Some(HashSet::new()),
            Some(node) => node
                .as_array()
                .map(|items| items.iter().filter_map(Node::as_str).collect()),
        };
        for property in properties {
            if required
                .as_ref()
                .is_some_and(|listed| !listed.contains(property.key.as_str()))
            {
                counts.optional += 1;
            }
            if is_union(&property.value) {
                counts.unions += 1;
            }
        }
    });
    counts
}

pub(super) fn is_union(schema: &Node) -> bool {
    let listed = schema
        .get("type")
        .and_then(Node::as_array)
        .is_some_and(|types| types.len() >= 2);
    listed || schema.get("anyOf").and_then(Node::as_array).is_some()
}

/// Where a per-request finding points: the tool's name, else the tool.
pub(super) fn tool_target<'a>(tool: &Tool<'a>) -> Anchor<'a> {
    match tool.name {
        Some(entry) => Anchor::Value(&entry.value),
        None => Anchor::Start(tool.node),
    }
}

pub(super) fn check_request(
    active: &Active,
    strict: &[&Tool<'_>],
    counts: &[Parameters],
    ctx: &mut Ctx<'_>,
) {
    let who = active.who();
    let verb = active.constraint.effect.verb();
    let (crossing, message, help) = match &active.constraint.check {
        Check::MaxStrictTools(max) => {
            let max = cap(*max);
            if strict.len() <= max {
                return;
            }
            (
                max,
                format!(
                    "this file has {} strict tools, over the {max} per request {who} accepts \
                     (this is number {}); {who} {verb}",
                    strict.len(),
                    max + 1
                ),
                format!(
                    "send at most {max} tools with `\"strict\": true`: set `\"strict\": false` \
                     on tools whose input needs no guarantee, or load fewer tools per request; \
                     {}",
                    active.cite()
                ),
            )
        }
        Check::MaxOptionalParameters(max) | Check::MaxUnionParameters(max) => {
            let max = cap(*max);
            let optional = matches!(active.constraint.check, Check::MaxOptionalParameters(_));
            let count = |counts: &Parameters| match optional {
                true => counts.optional,
                false => counts.unions,
            };
            let total: usize = counts.iter().map(count).sum();
            if total <= max {
                return;
            }
            let mut running = 0;
            let mut crossing = 0;
            for (index, counts) in counts.iter().enumerate() {
                running += count(counts);
                if running > max {
                    crossing = index;
                    break;
                }
            }
            let (what, fix) = match optional {
                true => (
                    "optional parameters",
                    "list parameters in `required`, drop rarely used ones",
                ),
                false => (
                    "parameters typed as a union (a `type` list or `anyOf`)",
                    "give parameters one type (an optional parameter rather than a nullable \
                     one), drop rarely used ones",
                ),
            };
            (
                crossing,
                format!(
                    "the strict tools of this file have {total} {what}, over the {max} per \
                     request {who} accepts (this tool brings them from {} to {running}); {who} \
                     {verb}",
                    running.saturating_sub(counts.get(crossing).map_or(0, count))
                ),
                format!(
                    "{fix}, or set `\"strict\": false` on some tools; {}",
                    active.cite()
                ),
            )
        }
        _ => return,
    };
    let Some(tool) = strict.get(crossing) else {
        return;
    };
    ctx.set_tool(Some(tool.name()).filter(|name| !name.is_empty()));
    ctx.report(Field::Name, tool_target(tool), message)
        .help(help);
}

//! The check of `limit-mismatch`. Its code, docs and default options are in
//! `rules/schema/limit-mismatch.yaml`.

use serde::Deserialize;

use super::helpers::{self, Bound, Limit, format_number};
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::{Entry, Node};
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitMismatch {}

impl Rule for LimitMismatch {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let limits = helpers::limits(tool);
        if limits.is_empty() {
            return;
        }
        let Some(schema) = tool.input_schema() else {
            for limit in &limits {
                ctx.report(
                    Field::Limits,
                    Anchor::Value(limit.at),
                    format!(
                        "`at: {}` points into an input schema the tool does not have",
                        show_pointer(limit.pointer())
                    ),
                )
                .help("add the input schema, or remove the `limits` entry");
            }
            return;
        };
        let mut subschemas: Vec<String> = Vec::new();
        crate::normalize::schema::walk(schema, &mut |node| {
            subschemas.push(helpers::relative_pointer(schema, node));
        });
        for limit in &limits {
            let pointer = limit.pointer();
            let target = schema.at_pointer(pointer);
            let is_subschema = subschemas.iter().any(|at| at == pointer)
                || target.is_some_and(|node| node.as_bool().is_some());
            match target {
                Some(node) if is_subschema => check_bounds(limit, node, ctx),
                found => {
                    let message = match found {
                        Some(node) => format!(
                            "`at: {}` points at {}, not at a subschema of the input schema",
                            show_pointer(pointer),
                            node.type_name()
                        ),
                        None => format!(
                            "`at: {}` resolves to nothing in the input schema",
                            show_pointer(pointer)
                        ),
                    };
                    let help = if !pointer.is_empty() && !pointer.starts_with('/') {
                        "`at` is a JSON Pointer into the input schema and starts with `/`, e.g. \
                         `/properties/options`"
                            .to_string()
                    } else {
                        let candidates = subschemas
                            .iter()
                            .map(String::as_str)
                            .filter(|p| !p.is_empty());
                        match crate::text::suggest::did_you_mean(pointer, candidates) {
                            Some(close) => format!("did you mean `{close}`?"),
                            None => "point `at` at the property the tool checks, e.g. \
                                     `/properties/options` or `/properties/list/items`"
                                .to_string(),
                        }
                    };
                    ctx.report(Field::Limits, Anchor::Value(limit.at), message)
                        .help(help);
                }
            }
        }
    }
}

fn show_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "\"\"" } else { pointer }
}

fn number_of<'a>(node: &'a Node, key: &str) -> Option<(&'a Entry, f64)> {
    let entry = node.entry(key)?;
    Some((entry, entry.value.as_f64()?))
}

fn check_bounds(limit: &Limit<'_>, node: &Node, ctx: &mut Ctx<'_>) {
    let types = helpers::declared_types(node);
    // The first of these that holds is reported.
    for &(bound, entry, value) in &limit.bounds {
        let _reported = for_another_type(limit, &types, bound, entry, ctx)
            || past_its_opposite(limit, bound, entry, value, ctx)
            || unlike_the_schema(node, bound, entry, value, ctx)
            || across_the_schema(node, bound, entry, value, ctx);
    }
}

/// A bound for another type than the schema declares.
fn for_another_type(
    limit: &Limit<'_>,
    types: &[&str],
    bound: Bound,
    entry: &Entry,
    ctx: &mut Ctx<'_>,
) -> bool {
    let key = bound.limit_key();
    if !types.is_empty() && !bound.applies_to().iter().any(|ty| types.contains(ty)) {
        let declared = types.join(", ");
        ctx.report(
            Field::Limits,
            Anchor::Value(&entry.value),
            format!(
                "`{key}` applies to {}, but the schema at `{}` is `type: {declared}`",
                if bound.applies_to().contains(&"array") {
                    "arrays"
                } else if bound.applies_to().contains(&"string") {
                    "strings"
                } else {
                    "numbers"
                },
                show_pointer(limit.pointer())
            ),
        )
        .help("point `at` at the right property, or use the bound for its type");
        return true;
    }
    false
}

/// The entry contradicts itself: a minimum over its own maximum.
fn past_its_opposite(
    limit: &Limit<'_>,
    bound: Bound,
    entry: &Entry,
    value: f64,
    ctx: &mut Ctx<'_>,
) -> bool {
    let key = bound.limit_key();
    let number = format_number(value);
    if bound.is_min()
        && let Some((max_entry, max)) = limit.bound(bound.opposite())
        && value > max
    {
        ctx.report(
            Field::Limits,
            Anchor::Value(&entry.value),
            format!(
                "`{key}: {number}` is greater than `{}: {}`",
                max_entry.key,
                format_number(max)
            ),
        )
        .help("no value satisfies both bounds; fix one of them");
        return true;
    }
    false
}

/// The same bound in the schema says otherwise.
fn unlike_the_schema(
    node: &Node,
    bound: Bound,
    entry: &Entry,
    value: f64,
    ctx: &mut Ctx<'_>,
) -> bool {
    let key = bound.limit_key();
    let number = format_number(value);
    if let Some((schema_entry, schema_value)) = number_of(node, bound.schema_keyword()) {
        let contradicts = if bound.is_min() {
            schema_value > value
        } else {
            schema_value != value
        };
        if contradicts {
            let help = if bound.is_min() {
                format!(
                    "the schema rejects values the tool accepts; lower `{}` to {number} or \
                     below (or delete it), or raise `{key}`",
                    schema_entry.key
                )
            } else {
                format!(
                    "make them agree: the tool enforces `{key}: {number}`, so write `{}: \
                     {number}` in the schema",
                    schema_entry.key
                )
            };
            ctx.report(
                Field::Limits,
                Anchor::Value(&entry.value),
                format!(
                    "`{key}: {number}` but the schema says `{}: {}`",
                    schema_entry.key,
                    format_number(schema_value)
                ),
            )
            .help(help)
            .related(
                format!("`{}` in the schema", schema_entry.key),
                schema_entry.key_span(),
            );
            return true;
        }
    }
    false
}

/// The opposite bound in the schema leaves no value both accept.
fn across_the_schema(
    node: &Node,
    bound: Bound,
    entry: &Entry,
    value: f64,
    ctx: &mut Ctx<'_>,
) -> bool {
    let key = bound.limit_key();
    let number = format_number(value);
    let opposite = bound.opposite().schema_keyword();
    let exclusive = match bound {
        Bound::Minimum => Some("exclusiveMaximum"),
        Bound::Maximum => Some("exclusiveMinimum"),
        _ => None,
    };
    let crossing = [Some(opposite), exclusive]
        .into_iter()
        .flatten()
        .filter_map(|keyword| number_of(node, keyword))
        .find(|(schema_entry, schema_value)| {
            let exclusive = schema_entry.key.starts_with("exclusive");
            match (bound.is_min(), exclusive) {
                (true, false) => value > *schema_value,
                (true, true) => value >= *schema_value,
                (false, false) => value < *schema_value,
                (false, true) => value <= *schema_value,
            }
        });
    if let Some((schema_entry, schema_value)) = crossing {
        let relation = if bound.is_min() {
            "allows at most"
        } else {
            "requires at least"
        };
        ctx.report(
            Field::Limits,
            Anchor::Value(&entry.value),
            format!(
                "`{key}: {number}` but the schema {relation} `{}: {}`",
                schema_entry.key,
                format_number(schema_value)
            ),
        )
        .help("no value satisfies both; fix the limit or the schema")
        .related(
            format!("`{}` in the schema", schema_entry.key),
            schema_entry.key_span(),
        );
    }
    false
}

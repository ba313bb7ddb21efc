//! The check of `schema-over-target-limit`. Its code and docs are in
//! `rules/targets/schema-over-target-limit.yaml`.

use serde::Deserialize;

use super::non_strict_schema::sent_strict;
use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::parse::{Entry, Node, NodeKind};
use crate::rule::{Anchor, Ctx, Rule};
use crate::rules::schema::helpers::{declared_types, relative_pointer};
use crate::targets::Active;
use crate::targets::profile::{Check, LargeEnum};

mod request;

use request::{Parameters, check_request, parameters};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaOverTargetLimit {}

impl Rule for SchemaOverTargetLimit {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() {
            return;
        }
        let strict: Vec<&Tool<'_>> = set.tools.iter().filter(|tool| sent_strict(tool)).collect();
        let per_schema: Vec<&Active> = targets
            .checks(|check| {
                matches!(
                    check,
                    Check::MaxNesting(_)
                        | Check::MaxProperties(_)
                        | Check::MaxEnumValues(_)
                        | Check::MaxSchemaChars(_)
                        | Check::MaxLargeEnumChars(_)
                )
            })
            .collect();
        if !per_schema.is_empty() {
            for tool in &strict {
                let Some(schema) = tool.input_schema() else {
                    continue;
                };
                let mut items = Vec::new();
                collect(schema, 0, &mut items);
                ctx.set_tool(Some(tool.name()).filter(|name| !name.is_empty()));
                for active in &per_schema {
                    check_schema(active, schema, &items, ctx);
                }
            }
        }
        let per_request: Vec<&Active> = targets
            .checks(|check| {
                matches!(
                    check,
                    Check::MaxStrictTools(_)
                        | Check::MaxOptionalParameters(_)
                        | Check::MaxUnionParameters(_)
                )
            })
            .collect();
        if !per_request.is_empty() && !strict.is_empty() {
            let counts: Vec<Parameters> = strict.iter().map(|tool| parameters(tool)).collect();
            for active in per_request {
                check_request(active, &strict, &counts, ctx);
            }
        }
        ctx.set_tool(None);
    }
}

/// What the per-schema caps count, in document order.
enum Item<'a> {
    /// An object or array schema and its nesting level (the root object is level 1).
    Container(&'a Node, usize),
    /// A `properties` entry.
    Property(&'a Entry),
    /// A `$defs`/`definitions` entry.
    Definition(&'a Entry),
    /// An `enum` entry (its value should be a list).
    Enum(&'a Entry),
    /// A `const` entry.
    Const(&'a Entry),
}

/// Collects the items of `schema` in document order. `outer` is the number of objects and
/// arrays around the value `schema` describes. Depth is bounded by the parser's nesting limit.
fn collect<'a>(schema: &'a Node, outer: usize, items: &mut Vec<Item<'a>>) {
    let Some(entries) = schema.as_object() else {
        return;
    };
    let level = match is_container(schema) {
        true => {
            items.push(Item::Container(schema, outer + 1));
            outer + 1
        }
        false => outer,
    };
    for entry in entries {
        let value = &entry.value;
        match entry.key.as_str() {
            "properties" => {
                for property in value.as_object().unwrap_or_default() {
                    items.push(Item::Property(property));
                    collect(&property.value, level, items);
                }
            }
            "patternProperties" => {
                for property in value.as_object().unwrap_or_default() {
                    collect(&property.value, level, items);
                }
            }
            // Measured on their own: where a definition is used is not known here.
            "$defs" | "definitions" => {
                for definition in value.as_object().unwrap_or_default() {
                    items.push(Item::Definition(definition));
                    collect(&definition.value, 0, items);
                }
            }
            "items"
            | "prefixItems"
            | "additionalItems"
            | "additionalProperties"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "contains" => match &value.kind {
                NodeKind::Array(children) => {
                    for child in children {
                        collect(child, level, items);
                    }
                }
                _ => collect(value, level, items),
            },
            // Alternatives and conditions describe the same value: no new level.
            "anyOf" | "oneOf" | "allOf" => {
                for branch in value.as_array().unwrap_or_default() {
                    collect(branch, outer, items);
                }
            }
            "if" | "then" | "else" | "not" => collect(value, outer, items),
            "dependentSchemas" => {
                for dependent in value.as_object().unwrap_or_default() {
                    collect(&dependent.value, outer, items);
                }
            }
            "enum" => items.push(Item::Enum(entry)),
            "const" => items.push(Item::Const(entry)),
            _ => {}
        }
    }
}

/// Whether the schema describes an object or an array (a level of nesting), as
/// `deep-schema-nesting` counts them.
fn is_container(schema: &Node) -> bool {
    declared_types(schema)
        .iter()
        .any(|ty| matches!(*ty, "object" | "array"))
        || ["properties", "items", "prefixItems", "additionalProperties"]
            .iter()
            .any(|key| schema.get(key).is_some())
}

fn cap(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

/// Characters a value adds to the schema's string total: a string's characters, anything
/// else as written.
fn chars_of(node: &Node) -> usize {
    match node.as_str() {
        Some(text) => text.chars().count(),
        None => node.span().len(),
    }
}

/// ` (N in all)` when the count where the cap is crossed is not the whole.
fn in_all(running: usize, total: usize) -> String {
    match total > running {
        true => format!(" ({total} in all)"),
        false => String::new(),
    }
}

fn enum_values(entry: &Entry) -> &[Node] {
    entry.value.as_array().unwrap_or_default()
}

/// `the object at properties/a`, `the root object`.
fn place(schema: &Node, node: &Node) -> String {
    let noun = match declared_types(node).contains(&"array") || node.get("items").is_some() {
        true => "array",
        false => "object",
    };
    let pointer = relative_pointer(schema, node);
    match pointer.strip_prefix('/') {
        Some(path) if !path.is_empty() => format!("the {noun} at {path}"),
        _ => format!("the root {noun}"),
    }
}

fn check_schema(active: &Active, schema: &Node, items: &[Item<'_>], ctx: &mut Ctx<'_>) {
    match &active.constraint.check {
        Check::MaxNesting(max) => check_nesting(active, schema, items, cap(*max), ctx),
        Check::MaxProperties(max) => check_properties(active, items, cap(*max), ctx),
        Check::MaxEnumValues(max) => check_enum_values(active, items, cap(*max), ctx),
        Check::MaxSchemaChars(max) => check_schema_chars(active, items, cap(*max), ctx),
        Check::MaxLargeEnumChars(large) => check_large_enums(active, items, large, ctx),
        _ => {}
    }
}

/// The first container nested deeper than the target accepts (and how deep the schema goes).
fn check_nesting(
    active: &Active,
    schema: &Node,
    items: &[Item<'_>],
    max: usize,
    ctx: &mut Ctx<'_>,
) {
    let who = active.who();
    let verb = active.constraint.effect.verb();
    let levels = items.iter().filter_map(|item| match item {
        Item::Container(node, level) => Some((*node, *level)),
        _ => None,
    });
    let mut first = None;
    let mut deepest = 0;
    for (node, level) in levels {
        deepest = deepest.max(level);
        if level > max && first.is_none() {
            first = Some((node, level));
        }
    }
    let Some((node, level)) = first else {
        return;
    };
    let message = format!(
        "{} is nested {level} levels deep (the schema reaches {deepest}), over the {max} \
         levels {who} accepts; {who} {verb}",
        place(schema, node)
    );
    let help = format!(
        "flatten the input: lift nested fields up a level, or take the inner structure \
         as a string the tool parses; {}",
        active.cite()
    );
    ctx.report(Field::InputSchema, Anchor::Start(node), message)
        .help(help);
}

/// The first object property past the number the target accepts, counted over the schema.
fn check_properties(active: &Active, items: &[Item<'_>], max: usize, ctx: &mut Ctx<'_>) {
    let who = active.who();
    let verb = active.constraint.effect.verb();
    let properties: Vec<&Entry> = items
        .iter()
        .filter_map(|item| match item {
            Item::Property(entry) => Some(*entry),
            _ => None,
        })
        .collect();
    let Some(over) = properties.get(max) else {
        return;
    };
    let message = format!(
        "property `{}` is object property {} of this schema{}, over the {max} {who} \
         accepts; {who} {verb}",
        over.key,
        max + 1,
        in_all(max + 1, properties.len())
    );
    let help = format!(
        "split the tool into smaller ones, or drop rarely used fields; {}",
        active.cite()
    );
    ctx.report(Field::InputSchema, Anchor::Key(over), message)
        .help(help);
}

/// The `enum` that brings the schema's enum values past the number the target accepts.
fn check_enum_values(active: &Active, items: &[Item<'_>], max: usize, ctx: &mut Ctx<'_>) {
    let who = active.who();
    let verb = active.constraint.effect.verb();
    let mut total = 0;
    let mut crossing = None;
    for item in items {
        if let Item::Enum(entry) = item {
            total += enum_values(entry).len();
            if total > max && crossing.is_none() {
                crossing = Some((*entry, total));
            }
        }
    }
    let Some((entry, running)) = crossing else {
        return;
    };
    let message = format!(
        "this `enum` brings the schema to {running} enum values{}, over the {max} {who} \
         accepts; {who} {verb}",
        in_all(running, total)
    );
    let help = format!(
        "take the rarer values as a free string (name the common ones in the \
         description), or split the tool; {}",
        active.cite()
    );
    ctx.report(Field::InputSchema, Anchor::Key(entry), message)
        .help(help);
}

/// Where the schema's names and enum and const values pass the characters the target accepts.
fn check_schema_chars(active: &Active, items: &[Item<'_>], max: usize, ctx: &mut Ctx<'_>) {
    let who = active.who();
    let verb = active.constraint.effect.verb();
    let mut total = 0usize;
    let mut crossing = None;
    for item in items {
        let (entry, chars) = match item {
            Item::Property(entry) | Item::Definition(entry) => (*entry, entry.key.chars().count()),
            Item::Enum(entry) => (*entry, enum_values(entry).iter().map(chars_of).sum()),
            Item::Const(entry) => (*entry, chars_of(&entry.value)),
            Item::Container(..) => continue,
        };
        total = total.saturating_add(chars);
        if total > max && crossing.is_none() {
            crossing = Some((entry, total));
        }
    }
    let Some((entry, running)) = crossing else {
        return;
    };
    let message = format!(
        "the schema's property names, definition names, enum and const values reach \
         {running} characters here{}, over the {max} {who} accepts; {who} {verb}",
        in_all(running, total)
    );
    let help = format!(
        "shorten property names and enum values, or split the tool; {}",
        active.cite()
    );
    ctx.report(Field::InputSchema, Anchor::Key(entry), message)
        .help(help);
}

/// Each large string `enum` whose values are longer in all than the target accepts.
fn check_large_enums(active: &Active, items: &[Item<'_>], large: &LargeEnum, ctx: &mut Ctx<'_>) {
    let who = active.who();
    let verb = active.constraint.effect.verb();
    let (over, max) = (cap(large.over), cap(large.max));
    for item in items {
        let Item::Enum(entry) = item else {
            continue;
        };
        let values = enum_values(entry);
        if values.len() <= over || !values.iter().all(|value| value.as_str().is_some()) {
            continue;
        }
        let chars: usize = values.iter().map(chars_of).sum();
        if chars <= max {
            continue;
        }
        let message = format!(
            "this string `enum` has {} values of {chars} characters in all; over {over} \
             values, {who} accepts at most {max} characters; {who} {verb}",
            values.len()
        );
        let help = format!(
            "take the value as a free string and check it in the tool (name the common \
             values in the description), or shorten the values; {}",
            active.cite()
        );
        ctx.report(Field::InputSchema, Anchor::Key(entry), message)
            .help(help);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::helpers::messages;

    fn tool(schema: Value) -> Value {
        json!({"name": "t", "description": "A tool. Not for others.", "input_schema": schema})
    }

    fn object(properties: serde_json::Map<String, Value>) -> Value {
        let required: Vec<&String> = properties.keys().collect();
        json!({"type": "object", "properties": properties, "required": required,
               "additionalProperties": false})
    }

    #[test]
    fn the_first_property_past_5000_is_reported() {
        let properties = |n: usize| {
            (0..n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect()
        };
        let found = messages(
            "TC606",
            &["openai-strict"],
            json!([tool(object(properties(5002)))]),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("property `p5000` is object property 5001 of this schema (5002 in all), over the 5000 `openai-strict` accepts"), "{}", found[0]);
        let found = messages(
            "TC606",
            &["openai-strict"],
            json!([tool(object(properties(5000)))]),
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn names_and_values_over_120000_characters_are_reported_once() {
        let long = "n".repeat(1000);
        let properties = (0..121)
            .map(|i| (format!("{long}{i:03}"), json!({"type": "string"})))
            .collect();
        let found = messages(
            "TC606",
            &["openai-strict"],
            json!([tool(object(properties))]),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("reach 120360 characters here (121363 in all), over the 120000"),
            "{}",
            found[0]
        );
    }

    #[test]
    fn a_long_string_enum_of_more_than_250_values_is_reported() {
        let values = |n: usize, width: usize| -> Vec<String> {
            (0..n).map(|i| format!("{i:0width$}")).collect()
        };
        let schema = |values: Vec<String>| {
            let mut properties = serde_json::Map::new();
            properties.insert("kind".into(), json!({"type": "string", "enum": values}));
            object(properties)
        };
        let over = messages(
            "TC606",
            &["openai-strict"],
            json!([tool(schema(values(251, 60)))]),
        );
        assert_eq!(over.len(), 1, "{over:?}");
        assert!(
            over[0].contains("has 251 values of 15060 characters"),
            "{}",
            over[0]
        );
        // 250 values may be as long as they like; 251 short ones are fine.
        for (n, width) in [(250, 70), (251, 50)] {
            let found = messages(
                "TC606",
                &["openai-strict"],
                json!([tool(schema(values(n, width)))]),
            );
            assert!(found.is_empty(), "{n} x {width}: {found:?}");
        }
    }

    #[test]
    fn deep_schemas_are_reported_once_without_overflow() {
        let mut schema = json!({"type": "string"});
        for i in 0..120 {
            let mut properties = serde_json::Map::new();
            properties.insert(format!("l{i}"), schema);
            schema = object(properties);
        }
        let found = messages("TC606", &["openai-strict"], json!([tool(schema.clone())]));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("is nested 11 levels deep (the schema reaches 120)"),
            "{}",
            found[0]
        );
        // Not a strict target, or none at all: nothing.
        assert!(messages("TC606", &["openai"], json!([tool(schema.clone())])).is_empty());
        assert!(messages("TC606", &[], json!([tool(schema)])).is_empty());
    }

    #[test]
    fn wrong_types_are_skipped() {
        let tools = json!([
            tool(json!({"type": 5, "enum": 3, "properties": [], "$defs": "x"})),
            tool(json!({"type": "object", "properties": {"a": {"enum": {"x": 1}}},
                        "required": "a", "anyOf": {"type": "object"}})),
            tool(json!(true)),
            {"name": "no_schema", "description": "No schema. Not for others."},
        ]);
        for targets in [["openai-strict"], ["anthropic-strict"]] {
            assert!(messages("TC606", &targets, tools.clone()).is_empty());
        }
    }
}

//! The check of `non-strict-schema`. Its code and docs are in
//! `rules/targets/non-strict-schema.yaml`.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::walk;
use crate::parse::{Entry, Node, NodeKind};
use crate::rule::{Anchor, Ctx, Rule};
use crate::rules::schema::helpers::{declared_types, relative_pointer};
use crate::targets::Active;
use crate::targets::profile::Check;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NonStrictSchema {}

/// The strict-mode checks of one selected target.
struct Strict<'t> {
    target: Arc<str>,
    closed: Option<&'t Active>,
    required: Option<&'t Active>,
}

impl Rule for NonStrictSchema {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let targets = ctx.targets;
        if targets.is_empty() || !sent_strict(tool) {
            return;
        }
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let mut groups: Vec<Strict<'_>> = Vec::new();
        for active in
            targets.checks(|check| matches!(check, Check::ClosedObjects | Check::AllRequired))
        {
            let index = match groups.iter().position(|g| g.target == active.target) {
                Some(index) => index,
                None => {
                    groups.push(Strict {
                        target: active.target.clone(),
                        closed: None,
                        required: None,
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[index];
            match active.constraint.check {
                Check::ClosedObjects => group.closed = group.closed.or(Some(active)),
                _ => group.required = group.required.or(Some(active)),
            }
        }
        if groups.is_empty() {
            return;
        }
        let mut objects = Vec::new();
        walk(schema, &mut |node| {
            if is_object(node) {
                objects.push(node);
            }
        });
        for object in objects {
            let place = place(schema, object);
            for group in &groups {
                check_object(group, object, &place, ctx);
            }
        }
    }
}

/// Whether the tool goes out strict under a strict target: every tool does, unless it says
/// `"strict": false` (OpenAI and Anthropic both read `strict` on the tool; OpenAI Chat on its
/// `function`, which is the tool's node here).
pub(crate) fn sent_strict(tool: &Tool<'_>) -> bool {
    tool.node.get("strict").and_then(Node::as_bool) != Some(false)
}

/// An object schema: `type: object` (alone or in a list) or `properties`.
fn is_object(node: &Node) -> bool {
    declared_types(node).contains(&"object")
        || node.get("properties").and_then(Node::as_object).is_some()
}

/// How a message names the object: `the root object`, `the object at properties/filter`.
fn place(schema: &Node, object: &Node) -> String {
    let pointer = relative_pointer(schema, object);
    match pointer.strip_prefix('/') {
        Some(path) if !path.is_empty() => format!("the object at {path}"),
        _ => "the root object".to_string(),
    }
}

fn check_object(group: &Strict<'_>, object: &Node, place: &str, ctx: &mut Ctx<'_>) {
    let properties = object.get("properties").and_then(Node::as_object);
    // OpenAI's strict mode (the targets with `all-required`) also wants `properties` on every
    // object, even empty: `object schema missing properties`.
    let unlisted = group.required.is_some() && properties.is_none();
    let mut reported = false;
    if let Some(closed) = group.closed {
        reported = check_closed(closed, object, place, unlisted, ctx);
    }
    let Some(required) = group.required else {
        return;
    };
    if unlisted
        && !reported
        && let Some(entry) = object.entry("type")
    {
        let message = format!(
            "{place} has no `properties`; {} {}",
            required.who(),
            required.constraint.effect.verb()
        );
        let help = format!(
            "add `\"properties\": {{}}`: strict mode rejects an object without it, even one \
             that takes no fields (observed 400 `object schema missing properties`, \
             everruns/everruns#984); {}",
            required.cite()
        );
        ctx.report(Field::InputSchema, Anchor::Key(entry), message)
            .help(help);
    }
    let Some(properties) = properties else {
        return;
    };
    let listed: HashSet<&str> = match object.get("required") {
        None => HashSet::new(),
        Some(node) => match node.as_array() {
            Some(items) => items.iter().filter_map(Node::as_str).collect(),
            // A `required` that is no list is `invalid-json-schema`'s.
            None => return,
        },
    };
    for entry in properties {
        if listed.contains(entry.key.as_str()) {
            continue;
        }
        let of = match place {
            "the root object" => String::new(),
            place => format!(" of {place}"),
        };
        let message = format!(
            "property `{}`{of} is not in `required`; {} {}",
            entry.key,
            required.who(),
            required.constraint.effect.verb()
        );
        let help = format!("{}; {}", nullable_help(entry), required.cite());
        ctx.report(Field::InputSchema, Anchor::Key(entry), message)
            .help(help);
    }
}

/// Reports the object unless it has `additionalProperties: false`; whether it did.
fn check_closed(
    closed: &Active,
    object: &Node,
    place: &str,
    unlisted: bool,
    ctx: &mut Ctx<'_>,
) -> bool {
    let verb = closed.constraint.effect.verb();
    let also = match unlisted {
        true => " and `\"properties\": {}` (or the fields it takes)",
        false => "",
    };
    let (target, message, fix) = match object.entry("additionalProperties") {
        Some(entry) if entry.value.as_bool() == Some(false) => return false,
        Some(entry) => {
            let found = match &entry.value.kind {
                NodeKind::Bool(_) => "`true`",
                NodeKind::Object(_) => "a schema",
                _ => entry.value.type_name(),
            };
            let fix = match entry.value.kind {
                NodeKind::Object(_) => String::from(
                    "strict mode has no open-ended maps: name the keys under `properties` and \
                     set `\"additionalProperties\": false`, or take a list of key/value \
                     objects",
                ),
                _ => format!("set `\"additionalProperties\": false`{also}"),
            };
            (
                Anchor::Value(&entry.value),
                format!(
                    "`additionalProperties` of {place} is {found}, not `false`; {} {verb}",
                    closed.who()
                ),
                fix,
            )
        }
        None => {
            let Some(entry) = object.entry("properties").or_else(|| object.entry("type")) else {
                return false;
            };
            (
                Anchor::Key(entry),
                format!(
                    "{} does not set `additionalProperties: false`; {} {verb}",
                    place,
                    closed.who()
                ),
                format!("add `\"additionalProperties\": false` to it{also}"),
            )
        }
    };
    ctx.report(Field::InputSchema, target, message)
        .help(format!("{fix}; {}", closed.cite()));
    true
}

/// How to make a property required without forcing the model to invent a value: the OpenAI
/// idiom, a union with `null`.
fn nullable_help(property: &Entry) -> String {
    let name = &property.key;
    let schema = &property.value;
    let types = declared_types(schema);
    let null_branch = schema
        .get("anyOf")
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .any(|branch| declared_types(branch).contains(&"null"));
    if types.contains(&"null") || null_branch {
        return format!(
            "add `{name}` to `required`; it already accepts `null`, which the model sends when \
             it has no value"
        );
    }
    let in_enum = match schema.get("enum").and_then(Node::as_array) {
        Some(_) => " and `null` in its `enum`",
        None => "",
    };
    match types.as_slice() {
        [] => format!(
            "add `{name}` to `required` and make it nullable, `\"anyOf\": [<its schema>, \
             {{\"type\": \"null\"}}]`, so the model can send `null` when it has no value"
        ),
        types => {
            let listed: Vec<String> = types.iter().map(|ty| format!("\"{ty}\"")).collect();
            format!(
                "add `{name}` to `required` and make it nullable, `\"type\": [{}, \"null\"]`{in_enum}, \
                 so the model can send `null` when it has no value",
                listed.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    /// The messages of TC605 when `tools` is linted under `targets`.
    fn messages(targets: &[&str], tools: Value) -> Vec<String> {
        super::super::helpers::messages("TC605", targets, tools)
    }

    fn tool(schema: Value) -> Value {
        json!({"name": "t", "description": "A tool. Not for others.", "input_schema": schema})
    }

    #[test]
    fn a_nullable_object_is_an_object() {
        let schema = json!({"type": "object", "additionalProperties": false, "properties": {
            "a": {"type": ["object", "null"], "properties": {"b": {"type": "string"}},
                  "required": ["b"]}}, "required": ["a"]});
        assert_eq!(
            messages(&["anthropic-strict"], json!([tool(schema)])),
            [
                "the object at properties/a does not set `additionalProperties: false`; \
                 `anthropic-strict` rejects the request"
            ]
        );
    }

    #[test]
    fn each_target_reports_its_own_and_a_non_strict_tool_is_skipped() {
        let open = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let mut skipped = tool(open.clone());
        skipped["strict"] = json!(false);
        let found = messages(
            &["openai-strict", "anthropic-strict"],
            json!([tool(open), skipped]),
        );
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(
            messages(
                &["openai", "anthropic"],
                json!([tool(json!({"type": "object"}))])
            )
            .is_empty()
        );
    }

    #[test]
    fn many_optional_properties_are_capped_and_deep_nesting_does_not_overflow() {
        let properties: serde_json::Map<String, Value> = (0..80)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        let schema = json!({"type": "object", "properties": properties,
                            "additionalProperties": false});
        let found = messages(&["openai-strict"], json!([tool(schema)]));
        assert_eq!(found.len(), 51, "50 shown, then one summary");
        assert!(
            found.iter().any(|m| m.contains("(and 29 more like it")),
            "{found:?}"
        );

        let mut deep = json!({"type": "string"});
        for i in 0..120 {
            deep = json!({"type": "object", "properties": {format!("l{i}"): deep},
                          "required": [format!("l{i}")], "additionalProperties": false});
        }
        assert!(messages(&["openai-strict"], json!([tool(deep)])).is_empty());
    }

    #[test]
    fn wrong_types_are_skipped() {
        let tools = json!([
            tool(json!({"type": 5, "properties": [], "required": "x"})),
            tool(
                json!({"type": "object", "properties": {"a": true}, "required": {"a": 1},
                        "additionalProperties": false})
            ),
            tool(json!("object")),
        ]);
        assert!(messages(&["openai-strict"], tools).is_empty());
    }
}

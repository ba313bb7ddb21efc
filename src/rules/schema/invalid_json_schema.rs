//! The check of `invalid-json-schema`. Its code, docs and default options are in
//! `rules/schema/invalid-json-schema.yaml`.

use std::collections::{HashMap, HashSet};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{Draft, ValidationError};
use serde::Deserialize;
use serde_json::Value;

use crate::lint::diagnostic::Field;
use crate::lint::rule::{Ctx, Rule, Target};
use crate::normalize::Tool;
use crate::parse::{Node, NodeKind, escape_pointer_token, unescape_pointer_token};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvalidJsonSchema {}

/// The JSON Schema type names.
const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

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
                            Target::Value(uri),
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
        let value = schema.to_json();
        let validator = meta_validator(draft);
        let mut seen: HashSet<(String, String)> = HashSet::new();
        // Built at the first error: a lookup per error by walking the tree would be quadratic
        // in a schema with many bad properties.
        let mut by_pointer: Option<HashMap<String, &Node>> = None;
        for error in validator.iter_errors(&value) {
            let path = error.instance_path().as_str();
            let nodes = by_pointer.get_or_insert_with(|| nodes_by_pointer(schema));
            let node = nodes.get(path).copied().unwrap_or(schema);
            let (message, help) = describe(&error, path, draft);
            if !seen.insert((node.pointer.to_string(), message.clone())) {
                continue;
            }
            let finding = ctx.report(Field::InputSchema, Target::Value(node), message);
            if let Some(help) = help {
                finding.help(help);
            }
        }
    }
}

/// Every node of `schema` by its pointer relative to the schema (what the validator's
/// instance paths are).
fn nodes_by_pointer(schema: &Node) -> HashMap<String, &Node> {
    let mut nodes = HashMap::new();
    let mut stack = vec![(schema, String::new())];
    while let Some((node, pointer)) = stack.pop() {
        match &node.kind {
            // Reversed, so nodes are visited in document order and a duplicate key resolves to
            // its first entry, as `Node::get` does.
            NodeKind::Array(items) => stack.extend(
                items
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(index, item)| (item, format!("{pointer}/{index}"))),
            ),
            NodeKind::Object(entries) => stack.extend(entries.iter().rev().map(|entry| {
                let key = escape_pointer_token(&entry.key);
                (&entry.value, format!("{pointer}/{key}"))
            })),
            _ => {}
        }
        nodes.entry(pointer).or_insert(node);
    }
    nodes
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

fn draft_name(draft: Draft) -> &'static str {
    match draft {
        Draft::Draft4 => "draft-04",
        Draft::Draft6 => "draft-06",
        Draft::Draft7 => "draft-07",
        Draft::Draft201909 => "draft 2019-09",
        _ => "draft 2020-12",
    }
}

/// A short rendering of a JSON value for a message.
fn show(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    const MAX: usize = 60;
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        text
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The usual mistakes for a type name, from Python and other type systems.
fn type_suggestion(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "dict" | "map" | "hash" | "hashmap" | "record" | "struct" | "mapping" | "json" => "object",
        "float" | "double" | "decimal" | "real" | "numeric" => "number",
        "int" | "long" | "int32" | "int64" | "uint" => "integer",
        "str" | "text" | "char" | "date" | "datetime" | "uuid" | "enum" => "string",
        "bool" => "boolean",
        "list" | "tuple" | "set" | "sequence" | "arraylist" => "array",
        "none" | "nil" => "null",
        lower => return TYPES.iter().copied().find(|t| *t == lower),
    })
}

fn types_help(found: Option<&str>) -> String {
    let list = TYPES
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if found.is_some_and(|name| name.eq_ignore_ascii_case("any")) {
        return format!("to accept any value, leave `type` out; the JSON Schema types are {list}");
    }
    match found.and_then(type_suggestion) {
        Some(suggestion) => format!("write `{suggestion}`; the JSON Schema types are {list}"),
        None => format!("the JSON Schema types are {list}"),
    }
}

fn expected_types(kind: &TypeKind) -> Vec<String> {
    match kind {
        TypeKind::Single(ty) => vec![ty.to_string()],
        TypeKind::Multiple(set) => set.iter().map(|ty| ty.to_string()).collect(),
    }
}

/// A readable message (and help) for one meta-schema error at `path`.
fn describe(error: &ValidationError<'_>, path: &str, draft: Draft) -> (String, Option<String>) {
    let key = path
        .rsplit('/')
        .next()
        .map(unescape_pointer_token)
        .filter(|_| !path.is_empty())
        .unwrap_or_else(|| "schema".to_string());
    let instance: &Value = error.instance();
    let shown = show(instance);
    let against = draft_name(draft);
    match error.kind() {
        ValidationErrorKind::AnyOf { .. }
        | ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::Enum { .. }
            if key == "type" =>
        {
            match instance {
                Value::String(name) if name.trim().is_empty() => (
                    "an empty string is not a JSON Schema type".to_string(),
                    Some(types_help(None)),
                ),
                Value::String(name) => (
                    format!("`{name}` is not a JSON Schema type"),
                    Some(types_help(Some(name))),
                ),
                Value::Array(_) => (
                    "`type` lists a name that is not a JSON Schema type, or lists one twice"
                        .to_string(),
                    Some(types_help(None)),
                ),
                other => (
                    format!(
                        "`type` must be a type name or a list of them, found {}",
                        json_type(other)
                    ),
                    Some(types_help(None)),
                ),
            }
        }
        ValidationErrorKind::Type { kind } => {
            let expected = expected_types(kind);
            let is_schema_slot = expected.len() == 2
                && expected.iter().any(|t| t == "boolean")
                && expected.iter().any(|t| t == "object");
            if is_schema_slot {
                let suggestion = match instance {
                    Value::String(name) => type_suggestion(name),
                    _ => None,
                };
                let help = Some(match suggestion {
                    Some(ty) => format!("a schema is an object: write `{{\"type\": \"{ty}\"}}`"),
                    None => "a schema is an object such as `{\"type\": \"string\"}`".to_string(),
                });
                return (
                    format!(
                        "`{key}` must be a schema (an object or a boolean), found {}",
                        json_type(instance)
                    ),
                    help,
                );
            }
            let wanted = expected
                .iter()
                .map(|t| article(t))
                .collect::<Vec<_>>()
                .join(" or ");
            let help = match (key.as_str(), instance) {
                ("required", Value::String(name)) => Some(format!(
                    "`required` lists property names: write `required: [\"{name}\"]`"
                )),
                ("required", Value::Bool(_)) => Some(
                    "`required: true` on a property is draft 3; list the property's name in \
                     the parent object's `required` array instead"
                        .to_string(),
                ),
                ("enum", _) => Some("`enum` lists the allowed values: `enum: [a, b]`".to_string()),
                _ => None,
            };
            (
                format!("`{key}` must be {wanted}, found {}", json_type(instance)),
                help,
            )
        }
        ValidationErrorKind::Minimum { limit } => (
            format!("`{key}` must be at least {limit}, found {shown}"),
            None,
        ),
        ValidationErrorKind::MinItems { limit } => (
            format!(
                "`{key}` must have at least {limit} item{}",
                if *limit == 1 { "" } else { "s" }
            ),
            None,
        ),
        ValidationErrorKind::UniqueItems => (format!("`{key}` lists the same value twice"), None),
        ValidationErrorKind::Format { format } if format == "regex" => (
            format!("`{shown}` is not a valid regular expression"),
            Some(
                "JSON Schema patterns are ECMA-262 regular expressions; check the escaping and \
                 the syntax"
                    .to_string(),
            ),
        ),
        ValidationErrorKind::Format { format } => (
            format!("`{key}` is not a valid `{format}`: `{shown}`"),
            None,
        ),
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            let parent = path.rsplit('/').nth(1).unwrap_or_default();
            let allowed = match (parent, key.as_str()) {
                (_, "items") => Some("a schema, or (before 2020-12) a list of schemas"),
                ("dependencies", _) => Some("a schema, or a list of property names"),
                (_, "type") => Some("a type name, or a list of type names"),
                _ => None,
            };
            let location = if path.is_empty() { "/" } else { path };
            (
                format!("`{location}` has none of the shapes the {against} meta-schema allows"),
                Some(match allowed {
                    Some(allowed) => format!("found `{shown}`; expected {allowed}"),
                    None => format!("found `{shown}`"),
                }),
            )
        }
        _ => (
            format!("invalid `{key}`: {}", short_error(error)),
            Some(format!(
                "the schema is checked against the {against} meta-schema"
            )),
        ),
    }
}

fn article(ty: &str) -> String {
    match ty {
        "array" | "object" | "integer" => format!("an {ty}"),
        "null" => "null".to_string(),
        other => format!("a {other}"),
    }
}

/// The library's message, with a long instance cut short.
fn short_error(error: &ValidationError<'_>) -> String {
    let text = error.to_string();
    const MAX: usize = 160;
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::lint_text;

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

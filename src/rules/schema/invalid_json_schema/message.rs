//! The messages of `invalid-json-schema`: each meta-schema error as a sentence about the
//! keyword that is wrong, with the fix in its help.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{Draft, ValidationError};
use serde_json::Value;

use crate::parse::unescape_pointer_token;

/// The JSON Schema type names.
const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

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
pub(super) fn describe(
    error: &ValidationError<'_>,
    path: &str,
    draft: Draft,
) -> (String, Option<String>) {
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
            describe_type_name(instance)
        }
        ValidationErrorKind::Type { kind } => describe_wrong_type(kind, &key, instance),
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
            describe_no_shape(path, &key, &shown, against)
        }
        _ => (
            format!("invalid `{key}`: {}", short_error(error)),
            Some(format!(
                "the schema is checked against the {against} meta-schema"
            )),
        ),
    }
}

/// `type` holding something other than type names.
fn describe_type_name(instance: &Value) -> (String, Option<String>) {
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
            "`type` lists a name that is not a JSON Schema type, or lists one twice".to_string(),
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

/// A keyword holding a value of the wrong JSON type (a schema slot holding a non-schema).
fn describe_wrong_type(kind: &TypeKind, key: &str, instance: &Value) -> (String, Option<String>) {
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
    let help = match (key, instance) {
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

/// A value that has none of the shapes its keyword allows.
fn describe_no_shape(
    path: &str,
    key: &str,
    shown: &str,
    against: &str,
) -> (String, Option<String>) {
    let parent = path.rsplit('/').nth(1).unwrap_or_default();
    let allowed = match (parent, key) {
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

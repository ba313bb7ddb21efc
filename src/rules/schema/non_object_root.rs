//! The check of `non-object-root`. Its code, docs and default options are in
//! `rules/schema/non-object-root.yaml`.

use serde::Deserialize;

use crate::diagnostic::{Edit, Field, Severity};
use crate::normalize::{Dialect, Tool};
use crate::parse::{Entry, Node, NodeKind};
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NonObjectRoot {}

/// The key this tool's dialect uses for its input schema, for help texts; `None` when the
/// dialect does not say (a tool with only a name and a description).
fn schema_key(dialect: Dialect) -> Option<&'static str> {
    match dialect {
        Dialect::Mcp => Some("inputSchema"),
        Dialect::OpenAiChat | Dialect::OpenAiResponses | Dialect::Harness => Some("parameters"),
        Dialect::Gemini => Some("parametersJsonSchema"),
        Dialect::Native | Dialect::Anthropic => Some("input_schema"),
        Dialect::Generic => None,
    }
}

impl Rule for NonObjectRoot {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(entry) = tool.input_schema else {
            no_schema(tool, ctx);
            return;
        };
        let key = entry.key.as_str();
        let schema = &entry.value;
        if let Some(value) = schema.as_bool() {
            ctx.report(
                Field::InputSchema,
                Anchor::Value(schema),
                format!("the input schema is `{value}`, not an object schema"),
            )
            .help(format!(
                "write `{key}: {{\"type\": \"object\"}}`; providers reject boolean schemas"
            ));
            return;
        }
        match schema.get("type") {
            Some(ty) => check_root_type(ty, ctx),
            None => no_type(entry, ctx),
        }
    }
}

/// A tool without an input schema, reported at its name.
fn no_schema(tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
    let (field, target) = match tool.name {
        Some(name) => (Field::Name, Anchor::Value(&name.value)),
        None => (Field::InputSchema, Anchor::Value(tool.node)),
    };
    ctx.report(
        field,
        target,
        format!("tool `{}` has no input schema", tool.name()),
    )
    .help(match schema_key(tool.dialect) {
        Some(key) => format!(
            "providers require an object schema, even for a tool without parameters: \
             add `{key}: {{\"type\": \"object\"}}`"
        ),
        None => "providers require an object schema, even for a tool without \
                 parameters: add `{\"type\": \"object\"}` under the key your format \
                 uses (`inputSchema` for MCP, `input_schema` for Anthropic, `parameters` \
                 for OpenAI)"
            .to_string(),
    });
}

/// A schema without a root `type`; milder, and fixed, where its `properties` say it is an
/// object.
fn no_type(entry: &Entry, ctx: &mut Ctx<'_>) {
    let schema = &entry.value;
    let declares_properties = schema.get("properties").is_some();
    let message = if declares_properties {
        "the input schema declares `properties` but no `type`"
    } else {
        "the input schema has no `type`"
    };
    let insertion = declares_properties
        .then(|| insert_object_type(&ctx.file.text, schema))
        .flatten();
    let finding = ctx
        .report(Field::InputSchema, Anchor::Key(entry), message)
        .help("add `\"type\": \"object\"` at the schema's root; providers require it");
    // `properties` says what was meant, and many hosts infer the type: the milder case.
    if declares_properties {
        finding.at_most(Severity::Warning);
    }
    if let Some(edit) = insertion {
        finding.fix(vec![edit]);
    }
}

/// A root `type` other than `object`; `dict` and `map` rewritten to it.
fn check_root_type(ty: &Node, ctx: &mut Ctx<'_>) {
    match &ty.kind {
        NodeKind::String(s) if &*s.value == "object" => {}
        NodeKind::String(s) => {
            let help = if matches!(&*s.value, "dict" | "map") {
                format!("`{}` is not a JSON Schema type: write `object`", s.value)
            } else {
                "the root of an input schema is an object: write `\"type\": \"object\"` \
                 and put the value into a property"
                    .to_string()
            };
            let written = requoted(ctx.file.text.get(ty.span()).unwrap_or_default(), "object");
            let finding = ctx
                .report(
                    Field::InputSchema,
                    Anchor::Value(ty),
                    format!(
                        "the input schema's root `type` is `{}`, not `object`",
                        s.value
                    ),
                )
                .help(help);
            // `dict` and `map` mean an object: the one rewrite that keeps the meaning.
            if matches!(&*s.value, "dict" | "map") {
                finding.fix(vec![Edit {
                    span: ty.span(),
                    replacement: written,
                }]);
            }
        }
        NodeKind::Array(_) => {
            ctx.report(
                Field::InputSchema,
                Anchor::Value(ty),
                "the input schema's root `type` is a list, not `object`",
            )
            .help("write `\"type\": \"object\"`; providers accept only a single object type at the root");
        }
        _ => {
            ctx.report(
                Field::InputSchema,
                Anchor::Value(ty),
                format!(
                    "the input schema's root `type` is {}, not `object`",
                    ty.type_name()
                ),
            )
            .help("write `\"type\": \"object\"`");
        }
    }
}

/// `word` written the way `scalar` (a type name as written in the source) is quoted.
fn requoted(scalar: &str, word: &str) -> String {
    match scalar.chars().next() {
        Some(quote @ ('"' | '\'')) => format!("{quote}{word}{quote}"),
        _ => word.to_string(),
    }
}

/// The edit that adds `type: object` as the first key of `schema`: `"type": "object", ` after
/// the `{` of a JSON or flow mapping (valid YAML too), or a `type: object` line above the first
/// key of a block mapping, at its indentation. `None` where that cannot be done safely.
fn insert_object_type(text: &str, schema: &Node) -> Option<Edit> {
    let start = schema.span().start;
    let written = text.get(schema.span())?;
    if let Some(inside) = written.strip_prefix('{') {
        let empty = inside.trim_start().starts_with('}');
        return Some(Edit {
            span: start + 1..start + 1,
            replacement: if empty {
                "\"type\": \"object\"".to_string()
            } else {
                "\"type\": \"object\", ".to_string()
            },
        });
    }
    // A block mapping starts at its first key; only spaces may come before it on its line.
    let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
    let indent = &text[line_start..start];
    (!indent.is_empty() && indent.bytes().all(|b| b == b' ')).then(|| Edit {
        span: start..start,
        replacement: format!("type: object\n{indent}"),
    })
}

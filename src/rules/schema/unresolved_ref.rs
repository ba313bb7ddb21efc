//! The check of `unresolved-ref`. Its code, docs and default options are in
//! `rules/schema/unresolved-ref.yaml`.

use serde::Deserialize;

use super::helpers::{Refs, Resolved};
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnresolvedRef {}

impl Rule for UnresolvedRef {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let refs = Refs::new(schema);
        // Only keywords of subschemas: a property *named* `$ref` is a key of `properties`, and
        // a `$ref` inside `default`, `const`, `enum` or `examples` is data.
        crate::normalize::schema::walk(schema, &mut |subschema| {
            let Some(value) = subschema.get("$ref") else {
                return;
            };
            // Not a string: `invalid-json-schema` reports it.
            let Some(reference) = value.as_str() else {
                return;
            };
            match refs.resolve(reference) {
                Resolved::Found(_) => {}
                Resolved::Missing => {
                    ctx.report(
                        Field::InputSchema,
                        Anchor::Value(value),
                        format!("`$ref` `{reference}` points at nothing in this schema"),
                    )
                    .help(missing_help(schema, reference));
                }
                Resolved::Remote => {
                    ctx.report(
                        Field::InputSchema,
                        Anchor::Value(value),
                        format!(
                            "`$ref` `{reference}` points outside this schema and cannot be \
                             resolved offline"
                        ),
                    )
                    .help(
                        "hosts send the schema to the model as it is and do not fetch other \
                         documents: copy the definition under `$defs` and point at it with \
                         `#/$defs/<name>`",
                    );
                }
            }
        });
    }
}

/// The help for a local reference that points at nothing: the definitions that exist, when the
/// reference looks for one.
fn missing_help(schema: &Node, reference: &str) -> String {
    let names: Vec<&str> = ["$defs", "definitions"]
        .iter()
        .filter_map(|key| schema.get(key).and_then(Node::as_object))
        .flatten()
        .map(|entry| entry.key.as_str())
        .take(6)
        .collect();
    if names.is_empty() {
        format!(
            "inline the subschema, or define it under `$defs` at the schema's root and point \
             at it with `#/$defs/<name>`; `{reference}` finds nothing"
        )
    } else {
        let listed = names
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ");
        format!("fix the pointer or add the definition; the schema defines {listed}")
    }
}

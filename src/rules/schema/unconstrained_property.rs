//! The check of `unconstrained-property`. Its code, docs and default options are in
//! `rules/schema/unconstrained-property.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::normalize::schema::walk_properties;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnconstrainedProperty {}

impl Rule for UnconstrainedProperty {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        walk_properties(schema, &mut |entry| {
            let shape = match (entry.value.as_bool(), entry.value.as_object()) {
                (Some(true), _) => "`true`",
                (_, Some([])) => "`{}`",
                _ => return,
            };
            let name = &entry.key;
            ctx.report(
                Field::InputSchema,
                Anchor::Key(entry),
                format!("property `{name}` accepts anything (its schema is {shape})"),
            )
            .help(
                "give it a `type` (and `items` or `properties` for a list or an object) and a \
                 `description`; strict hosts reject an untyped property and the model has to \
                 guess what to send",
            );
        });
    }
}

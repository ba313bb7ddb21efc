//! The check of `undescribed-parameter`. Its code, docs and default options are in
//! `rules/schema/undescribed-parameter.yaml`.

use serde::Deserialize;

use super::helpers;
use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndescribedParameter {}

impl Rule for UndescribedParameter {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        let refs = helpers::Refs::new(schema);
        for entry in helpers::root_properties(schema) {
            // `true` and `{}` are `unconstrained-property`'s; a non-object is a broken schema.
            let Some(fields) = entry.value.as_object() else {
                continue;
            };
            if fields.is_empty() || helpers::has_description(&refs, &entry.value) {
                continue;
            }
            let name = &entry.key;
            ctx.report(
                Field::InputSchema,
                Anchor::Key(entry),
                format!("parameter `{name}` has no description"),
            )
            // A fixed text: a tool set can have a finding on every parameter, and the message
            // already names it.
            .help(
                "add a `description`: what the value means, its format and an example; the \
                 model sees nothing else about it but the name and type",
            );
        }
    }
}

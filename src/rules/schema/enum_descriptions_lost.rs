//! The check of `enum-descriptions-lost`. Its code, docs and default options are in
//! `rules/schema/enum-descriptions-lost.yaml`.

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::normalize::Tool;
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumDescriptionsLost {}

impl Rule for EnumDescriptionsLost {
    fn check_tool(&self, tool: &Tool<'_>, ctx: &mut Ctx<'_>) {
        let Some(schema) = tool.input_schema() else {
            return;
        };
        crate::normalize::schema::walk(schema, &mut |subschema| {
            for key in ["oneOf", "anyOf"] {
                let Some(entry) = subschema.entry(key) else {
                    continue;
                };
                let Some(branches) = entry.value.as_array() else {
                    continue;
                };
                let all_const = !branches.is_empty()
                    && branches.iter().all(|branch| branch.get("const").is_some());
                if !all_const {
                    continue;
                }
                let described = branches.iter().filter(|branch| described(branch)).count();
                if described == 0 {
                    continue;
                }
                ctx.report(
                    Field::InputSchema,
                    Anchor::Key(entry),
                    format!(
                        "`{key}` lists {} `const` values, {described} with a description; \
                         hosts that flatten it to an `enum` drop the descriptions",
                        branches.len()
                    ),
                )
                .help(
                    "use an `enum` of the values and explain each value in the parent's \
                     `description` (`\"fast\": cheaper, lower quality; ...`)",
                );
            }
        });
    }
}

fn described(branch: &Node) -> bool {
    branch
        .get("description")
        .and_then(Node::as_str)
        .is_some_and(|text| !text.trim().is_empty())
}

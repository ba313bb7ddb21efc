//! The check of `duplicate-tool-name`. Its code, docs and default options are in
//! `rules/names/duplicate-tool-name.yaml`.

use std::collections::HashMap;

use serde::Deserialize;

use crate::lint::diagnostic::Field;
use crate::lint::rule::{Ctx, Rule, Target};
use crate::normalize::{Tool, ToolSet};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateToolName {}

impl Rule for DuplicateToolName {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let mut first: HashMap<&str, &Tool<'_>> = HashMap::new();
        for tool in &set.tools {
            let Some(entry) = tool.name else {
                continue;
            };
            let Some(name) = entry.value.as_str() else {
                continue;
            };
            let Some(original) = first.get(name) else {
                first.insert(name, tool);
                continue;
            };
            let Some(original_name) = original.name else {
                continue;
            };
            // Some files gather the variants of a tool that a host picks from at run time;
            // say whether this one is a copy or a different definition.
            let help = if original.node.to_json() == tool.node.to_json() {
                "this definition is an exact copy of the first: delete one of them"
            } else {
                "the two definitions differ: give each tool its own name, or keep only the one \
                 the model should see"
            };
            ctx.set_tool(Some(name));
            ctx.report(
                Field::Name,
                Target::Value(&entry.value),
                format!("duplicate tool name `{name}`"),
            )
            .related(
                format!("`{name}` is first defined here"),
                original_name.value.span.clone(),
            )
            .help(help);
        }
        ctx.set_tool(None);
    }
}

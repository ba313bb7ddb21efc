//! The check of `duplicate-tool-name`. Its code, docs and default options are in
//! `rules/names/duplicate-tool-name.yaml`.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use crate::lint::diagnostic::{Field, Severity};
use crate::lint::rule::{Ctx, Rule, RunCtx, SetRef, Target};
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

    /// Across the files of one run, the same name is a warning: hosts that load several
    /// servers often prefix names (`mcp__server__tool`), but a model still sees two tools
    /// that claim the same job.
    fn check_run(&self, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        let mut first: HashMap<&str, (usize, &crate::parse::Node)> = HashMap::new();
        for (index, set_ref) in sets.iter().enumerate() {
            let mut seen_here: HashSet<&str> = HashSet::new();
            for tool in &set_ref.set.tools {
                let Some(entry) = tool.name else {
                    continue;
                };
                let Some(name) = entry.value.as_str() else {
                    continue;
                };
                // Duplicates inside one file are `check_set`'s; compare each file's first.
                if !seen_here.insert(name) {
                    continue;
                }
                match first.get(name) {
                    None => {
                        first.insert(name, (index, &entry.value));
                    }
                    Some(&(first_index, first_node)) if first_index != index => {
                        let first_file = sets[first_index].file;
                        let file = ctx.file(index);
                        file.set_tool(Some(name));
                        file.report(
                            Field::Name,
                            Target::Value(&entry.value),
                            format!(
                                "tool name `{name}` is also defined in `{}`",
                                first_file.name
                            ),
                        )
                        .related_in(
                            format!("`{name}` is first defined here"),
                            first_file,
                            first_node.span.clone(),
                        )
                        .help(
                            "when a host loads both files, the model sees two tools with one \
                             name; rename one, or drop the copy",
                        )
                        .at_most(Severity::Warning);
                        file.set_tool(None);
                    }
                    Some(_) => {}
                }
            }
        }
    }
}

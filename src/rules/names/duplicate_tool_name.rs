use std::collections::HashMap;

use serde::Deserialize;

use crate::diagnostic::Field;
use crate::model::ToolSet;
use crate::rule::{Ctx, Rule, Target, declare_rule};
use crate::syntax::Entry;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateToolName {}

declare_rule! {
    /// ## What it does
    /// Flags a tool whose name is already used by an earlier tool of the same file (or
    /// server). Names are compared exactly: MCP tool names are case-sensitive.
    ///
    /// ## Why is this bad?
    /// The model calls a tool by its name, so two tools with one name cannot both be called:
    /// providers reject such a request, or a host silently keeps only one of the two, and
    /// the model reads a description for a tool it cannot reach.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   - name: search
    ///     description: Search the documentation.
    ///   - name: search
    ///     description: Search the code.
    /// ```
    ///
    /// Use instead: give each tool its own name (`search_docs`, `search_code`), or merge the
    /// two into one tool.
    ///
    /// ## Options
    /// None.
    DuplicateToolName {
        code: "TC502",
        name: "duplicate-tool-name",
        family: Names,
        severity: Error,
        summary: "two tools with the same name in one file or server",
    }
}

impl Rule for DuplicateToolName {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let mut first: HashMap<&str, &Entry> = HashMap::new();
        for entry in set.tools.iter().filter_map(|tool| tool.name) {
            let Some(name) = entry.value.as_str() else {
                continue;
            };
            let Some(original) = first.get(name) else {
                first.insert(name, entry);
                continue;
            };
            ctx.set_tool(Some(name));
            ctx.report(
                Field::Name,
                Target::Value(&entry.value),
                format!("duplicate tool name `{name}`"),
            )
            .related(
                format!("`{name}` is first defined here"),
                original.value.span.clone(),
            )
            .help("give each tool its own name, or merge the two tools into one");
        }
        ctx.set_tool(None);
    }
}

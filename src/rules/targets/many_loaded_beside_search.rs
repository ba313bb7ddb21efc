//! The check of `many-loaded-beside-search`. Its code, docs and default options are in
//! `rules/targets/many-loaded-beside-search.yaml`.

use serde::Deserialize;

use super::helpers::file_target;
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Ctx, Rule};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ManyLoadedBesideSearch {
    /// The most tools loaded up front beside the tool search tool.
    max_loaded: usize,
}

impl Rule for ManyLoadedBesideSearch {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        if !set.builtins.iter().any(|builtin| builtin.is_tool_search()) {
            return;
        }
        let loaded: Vec<&str> = set
            .tools
            .iter()
            .filter(|tool| !tool.defer_loading)
            .map(|tool| tool.name())
            .collect();
        if loaded.len() <= self.max_loaded {
            return;
        }
        let Some(target) = file_target(set) else {
            return;
        };
        let names: Vec<String> = loaded.iter().map(|name| format!("`{name}`")).collect();
        ctx.report(
            Field::File,
            target,
            format!(
                "{} tools are loaded beside the tool search tool, more than {}",
                loaded.len(),
                self.max_loaded
            ),
        )
        .help(format!(
            "keep the 3-5 tools used most loaded and mark the others `defer_loading: true`, so \
             that tool search loads them when needed; loaded: {}",
            names.join(", ")
        ));
    }
}

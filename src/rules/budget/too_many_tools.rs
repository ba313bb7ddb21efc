//! The check of `too-many-tools`. Its code, docs and default options are in
//! `rules/budget/too-many-tools.yaml`.

use serde::Deserialize;

use super::helpers::report_set;
use crate::lint::rule::{Ctx, Rule};
use crate::normalize::ToolSet;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TooManyTools {
    /// The most tools one file may load up front.
    max_tools: usize,
}

impl Rule for TooManyTools {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let loaded = set.tools.iter().filter(|tool| !tool.defer_loading).count();
        if loaded <= self.max_tools {
            return;
        }
        let deferred = set.tools.len() - loaded;
        let message = format!(
            "{loaded} tools are loaded at once, limit {}{}",
            self.max_tools,
            if deferred > 0 {
                format!(" ({deferred} more deferred)")
            } else {
                String::new()
            }
        );
        if let Some(finding) = report_set(set, ctx, message) {
            finding.help(
                "models choose worse past 30-50 tools; mark rarely used tools \
                 `defer_loading: true` so that tool search loads them when needed, or merge \
                 endpoint-shaped tools into task-shaped ones",
            );
        }
    }
}

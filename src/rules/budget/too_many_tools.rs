use serde::Deserialize;

use super::set_target::report_set;
use crate::model::ToolSet;
use crate::rule::{Ctx, Rule, declare_rule};

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct TooManyTools {
    /// The most tools one file may load up front.
    max_tools: usize,
}

impl Default for TooManyTools {
    fn default() -> Self {
        TooManyTools { max_tools: 30 }
    }
}

declare_rule! {
    /// ## What it does
    /// Counts the tools of one file or server that are loaded up front (not marked
    /// `defer_loading: true`; provider built-ins without a schema are not counted) and flags
    /// the file when there are more than `max-tools`.
    ///
    /// ## Why is this bad?
    /// Models pick the right tool less often as the menu grows; selection accuracy degrades
    /// past 30-50 tools, and similar tools get confused with each other.
    ///
    /// ## Example
    /// A server with 60 tools, one per API endpoint, all loaded.
    ///
    /// Use instead: keep the few tools most tasks need loaded and mark the rest
    /// `defer_loading: true` so that tool search finds them; or merge endpoint-shaped tools
    /// into fewer task-shaped ones.
    ///
    /// ## Options
    /// - `max-tools` (integer, default `30`): the most loaded tools in one file.
    TooManyTools {
        code: "TC108",
        name: "too-many-tools",
        family: Budget,
        severity: Warning,
        summary: "more loaded (non-deferred) tools in one file than the limit (default 30)",
    }
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

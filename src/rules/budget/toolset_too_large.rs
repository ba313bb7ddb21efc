//! The check of `toolset-too-large`. Its code, docs and default options are in
//! `rules/budget/toolset-too-large.yaml`.

use serde::Deserialize;

use super::helpers::report_set;
use crate::lint::rule::{Ctx, Rule};
use crate::normalize::ToolSet;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ToolsetTooLarge {
    /// The budget for all loaded tools of one file together, in tokens.
    max_tokens: usize,
}

impl Rule for ToolsetTooLarge {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        let loaded: Vec<_> = set
            .tools
            .iter()
            .filter(|tool| !tool.defer_loading)
            .collect();
        // A token is at least one byte: tools of at most `max_tokens` bytes in all fit.
        let bytes: usize = loaded.iter().map(|tool| ctx.tokens.tool_bytes(tool)).sum();
        if bytes <= self.max_tokens {
            return;
        }
        let mut totals: Vec<(&str, usize)> = loaded
            .iter()
            .zip(ctx.tokens.tools(&loaded))
            .map(|(tool, tokens)| (tool.name(), tokens.total()))
            .collect();
        let total: usize = totals.iter().map(|(_, tokens)| tokens).sum();
        if total <= self.max_tokens {
            return;
        }
        // Largest first; equally large tools stay in file order, so the help is stable.
        totals.sort_by_key(|(_, tokens)| std::cmp::Reverse(*tokens));
        let largest: Vec<String> = totals
            .iter()
            .take(3)
            .map(|(name, tokens)| {
                let name = if name.is_empty() { "(unnamed)" } else { name };
                format!("`{name}` ({tokens})")
            })
            .collect();
        let message = format!(
            "{} loaded tools are {total} tokens ({}), budget {}",
            loaded.len(),
            ctx.encoding,
            self.max_tokens
        );
        let help = format!(
            "the largest: {}; mark rarely used tools `defer_loading: true` so that tool search \
             loads them when needed, keep the 3-5 most used loaded, or shorten the largest",
            largest.join(", ")
        );
        if let Some(finding) = report_set(set, ctx, message) {
            finding.help(help);
        }
    }
}

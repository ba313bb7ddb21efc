use serde::Deserialize;

use super::set_target::report_set;
use crate::model::ToolSet;
use crate::rule::{Ctx, Rule, declare_rule};

#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct ToolsetTooLarge {
    /// The budget for all loaded tools of one file together, in tokens.
    max_tokens: usize,
}

impl Default for ToolsetTooLarge {
    fn default() -> Self {
        ToolsetTooLarge { max_tokens: 20_000 }
    }
}

declare_rule! {
    /// ## What it does
    /// Adds up what `tool-too-long` counts (name, description, snippet, guidelines and the
    /// input schema as compact JSON) over every tool of one file or server that is loaded up
    /// front, i.e. not marked `defer_loading: true`, and flags the file when the sum is over
    /// the budget. The help names the three largest tools. `toolcheck tokens` shows the whole
    /// table.
    ///
    /// ## Why is this bad?
    /// Every loaded tool is sent with every request. A server of forty tools can take tens of
    /// thousands of tokens, 10% of a 200k window and more, before the user says a word, and
    /// the provider's tool-use system prompt comes on top.
    ///
    /// ## Example
    /// An MCP server whose 45 tools add up to 31,000 tokens, all loaded.
    ///
    /// Use instead: mark the large, rarely used tools `defer_loading: true` so that tool
    /// search loads them when needed, and keep the 3–5 most used loaded; or shorten the
    /// largest ones first.
    ///
    /// ## Options
    /// - `max-tokens` (integer, default `20000`, 10% of a 200k window): the budget for all
    ///   loaded tools of one file.
    ToolsetTooLarge {
        code: "TC107",
        name: "toolset-too-large",
        family: Budget,
        severity: Warning,
        summary: "all loaded (non-deferred) tools of one file together over their token budget (default 20000)",
    }
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

//! The check of `toolset-too-large`. Its code, docs and default options are in
//! `rules/budget/toolset-too-large.yaml`.

use serde::Deserialize;

use super::helpers::{report_session, report_set, shown, tokens_as_host};
use crate::normalize::ToolSet;
use crate::rule::{Ctx, Rule, RunCtx, SessionRef, SetRef};
use crate::text::group_digits;
use crate::tokens::budget::{THRESHOLD, fewest_to_defer};

/// Where the 10% share comes from: the share of the window over which Claude Code's
/// `ENABLE_TOOL_SEARCH=auto` defers MCP tools to tool search (providers.md, TC-TOK-002).
const THRESHOLD_SOURCE: &str = "https://code.claude.com/docs/en/agent-sdk/tool-search";

/// The most servers a session finding lists by name.
const SHOWN_SERVERS: usize = 6;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ToolsetTooLarge {
    /// The budget for all loaded tools of one file together, in tokens.
    max_tokens: usize,
}

impl Rule for ToolsetTooLarge {
    fn check_set(&self, set: &ToolSet<'_>, ctx: &mut Ctx<'_>) {
        // A file of a session counts towards its session's total (`check_session`).
        if ctx.in_session {
            return;
        }
        let loaded: Vec<_> = set
            .tools
            .iter()
            .filter(|tool| !tool.defer_loading)
            .collect();
        // A token is at least one byte: tools of at most `max_tokens` bytes in all fit.
        let bytes = ctx.tokens.tools_bytes(&loaded);
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

    /// The session's loaded tools over 10% of its window: the total, each server's share, and
    /// the fewest servers to defer (largest first) to get under it.
    fn check_session(&self, session: &SessionRef<'_>, sets: &[SetRef<'_>], ctx: &mut RunCtx<'_>) {
        let budget = (session.window as f64 * THRESHOLD) as usize;
        // Counted as the host counts (claude-code: Claude's estimate from o200k_base), as
        // its share of the window is the host's.
        let host_count = session.host.tokens.as_ref();
        // The bound below: `tools` tools of `exact` bytes in all.
        let as_host = |exact: usize, tools: usize| {
            host_count.map_or(exact, |count| count.scale(exact) + count.per_tool * tools)
        };
        let loaded: Vec<Vec<_>> = sets
            .iter()
            .map(|set| {
                set.set
                    .tools
                    .iter()
                    .filter(|tool| session.loads(tool))
                    .collect()
            })
            .collect();
        // A token is at least one byte: tools of at most `budget` bytes in all fit.
        let bytes: usize = loaded
            .iter()
            .enumerate()
            .map(|(index, tools)| ctx.file(index).tokens.tools_bytes(tools))
            .sum();
        let tools: usize = loaded.iter().map(Vec::len).sum();
        // (Each tool's count is rounded on its own: at most one more each.)
        if as_host(bytes, tools) + tools <= budget {
            return;
        }
        let mut servers: Vec<(&str, usize)> = loaded
            .iter()
            .enumerate()
            .map(|(index, tools)| {
                (
                    session.servers[index],
                    tokens_as_host(session, ctx, index, tools),
                )
            })
            .collect();
        let total: usize = servers.iter().map(|(_, tokens)| tokens).sum();
        // `auto` defers them all once they reach its share of the window.
        if total <= budget || session.auto_defers(total) {
            return;
        }
        // Largest first; equally large servers stay in input order, so the help is stable.
        servers.sort_by_key(|(_, tokens)| std::cmp::Reverse(*tokens));
        let share = |tokens: usize| tokens as f64 * 100.0 / session.window.max(1) as f64;
        let mut by_server: Vec<String> = servers
            .iter()
            .take(SHOWN_SERVERS)
            .map(|(server, tokens)| {
                format!(
                    "{} {} ({:.1}%)",
                    shown(server),
                    group_digits(*tokens),
                    share(*tokens)
                )
            })
            .collect();
        if servers.len() > SHOWN_SERVERS {
            by_server.push(format!("{} more", servers.len() - SHOWN_SERVERS));
        }
        // The fewest servers to defer: the largest ones, until the rest fits.
        let sizes: Vec<usize> = servers.iter().map(|(_, tokens)| *tokens).collect();
        let (count, rest) = fewest_to_defer(&sizes, budget);
        let defer: Vec<String> = servers[..count].iter().map(|(s, _)| shown(s)).collect();
        let advice = if defer.len() < servers.len() {
            format!(
                "defer {} first (largest first: the fewest servers that bring the session \
                 under {}, to {} tokens, {:.1}%), so that tool search loads their tools when \
                 needed, and keep the 3-5 most used tools loaded",
                join_and(&defer),
                group_digits(budget),
                group_digits(rest),
                share(rest)
            )
        } else {
            "no server can stay loaded whole under it: mark the rarely used tools \
             `defer_loading: true`, largest server first, and keep the 3-5 most used loaded"
                .to_string()
        };
        let counted = match host_count {
            Some(count) if count.approximate => {
                format!(
                    "≈, {} × {} as {} counts",
                    count.encoding, count.factor, session.host.name
                )
            }
            _ => ctx.file(0).encoding.to_string(),
        };
        let message = format!(
            "session `{}` loads {} tokens of tools ({counted}) from {} {}, {:.1}% of its \
             {}-token window, over {:.0}% ({})",
            session.name,
            group_digits(total),
            servers.len(),
            if servers.len() == 1 {
                "server"
            } else {
                "servers"
            },
            share(total),
            group_digits(session.window),
            THRESHOLD * 100.0,
            group_digits(budget),
        );
        let help = format!(
            "by server: {}; {advice}; source: {THRESHOLD_SOURCE} (past {:.0}% of the window, \
             Claude Code defers MCP tools to tool search)",
            by_server.join(", "),
            THRESHOLD * 100.0
        );
        if let Some(finding) = report_session(sets, ctx, message) {
            finding.help(help);
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    }
}

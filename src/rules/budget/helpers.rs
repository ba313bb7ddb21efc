//! Where a finding about a whole tool set points: the `tools` key of a set object, or the first
//! byte of the document when the tools are a bare array (not the whole file: a renderer would
//! print all of it).

use crate::diagnostic::Diagnostic;
use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::rule::{Anchor, Ctx, RunCtx, SessionRef, SetRef};
use crate::targets::tool_search::ToolSearch;

/// Reports a file-level finding about `set`; `None` for an empty document.
pub fn report_set<'c>(
    set: &ToolSet<'_>,
    ctx: &'c mut Ctx<'_>,
    message: String,
) -> Option<&'c mut Diagnostic> {
    if let Some(entry) = set.tools_entry {
        return Some(ctx.report(Field::File, Anchor::Key(entry), message));
    }
    let root = set.root?;
    Some(ctx.report(Field::File, Anchor::Start(root), message))
}

/// Reports a finding about a whole session at its first file that has a place for it.
pub fn report_session<'c>(
    sets: &[SetRef<'_>],
    ctx: &'c mut RunCtx<'_>,
    message: String,
) -> Option<&'c mut Diagnostic> {
    let index = sets
        .iter()
        .position(|set| set.set.tools_entry.is_some() || set.set.root.is_some())?;
    report_set(sets[index].set, ctx.file(index), message)
}

/// `name` or `(unnamed)`, between backticks.
pub fn shown(name: &str) -> String {
    if name.is_empty() {
        "(unnamed)".to_string()
    } else {
        format!("`{name}`")
    }
}

/// The tokens of `tools` of the session's file `index` as its host counts them (claude-code:
/// Claude's estimate), each tool rounded on its own as the token report counts it.
pub fn tokens_as_host(
    session: &SessionRef<'_>,
    ctx: &mut RunCtx<'_>,
    index: usize,
    tools: &[&Tool<'_>],
) -> usize {
    let count = session.host.tokens.as_ref();
    ctx.file(index)
        .tokens
        .tools(tools)
        .iter()
        .map(|tokens| {
            count.map_or(tokens.total(), |count| {
                count.scale(tokens.total()) + count.per_tool
            })
        })
        .sum()
}

/// Whether the session's `auto:N` mode defers every tool but the `alwaysLoad` ones: their
/// definitions, as the host counts them, reach N% of the window.
pub fn auto_defers_all(
    session: &SessionRef<'_>,
    sets: &[SetRef<'_>],
    ctx: &mut RunCtx<'_>,
) -> bool {
    if !matches!(session.tool_search, ToolSearch::Auto(_)) || !session.host_defers() {
        return false;
    }
    let definitions: usize = sets
        .iter()
        .enumerate()
        .map(|(index, set)| {
            let tools: Vec<&Tool<'_>> = set
                .set
                .tools
                .iter()
                .filter(|tool| !tool.always_load)
                .collect();
            tokens_as_host(session, ctx, index, &tools)
        })
        .sum();
    session.auto_defers(definitions)
}

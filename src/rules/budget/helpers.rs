//! Where a finding about a whole tool set points: the `tools` key of a set object, or the first
//! byte of the document when the tools are a bare array (not the whole file: a renderer would
//! print all of it).

use crate::diagnostic::Diagnostic;
use crate::diagnostic::Field;
use crate::normalize::ToolSet;
use crate::rule::{Anchor, Ctx, RunCtx, SetRef};

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

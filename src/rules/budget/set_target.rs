//! Where a finding about a whole tool set points: the `tools` key of a set object, or the first
//! byte of the document when the tools are a bare array (not the whole file: a renderer would
//! print all of it).

use crate::diagnostic::Field;
use crate::model::ToolSet;
use crate::rule::{Ctx, Finding, Target};

/// Reports a file-level finding about `set`; `None` for an empty document.
pub fn report_set<'c>(
    set: &ToolSet<'_>,
    ctx: &'c mut Ctx<'_>,
    message: String,
) -> Option<&'c mut Finding> {
    if let Some(entry) = set.tools_entry {
        return Some(ctx.report(Field::File, Target::Key(entry), message));
    }
    let root = set.root?;
    let finding = ctx.report(Field::File, Target::Value(root), message);
    finding.span = root.span.start..root.span.start + usize::from(root.span.end > root.span.start);
    Some(finding)
}

//! Where a finding about a whole tool set points: the `tools` key of a set object, or the first
//! byte of the document when the tools are a bare array (not the whole file: a renderer would
//! print all of it).

use crate::lint::diagnostic::Diagnostic;
use crate::lint::diagnostic::Field;
use crate::lint::rule::{Ctx, Target};
use crate::normalize::ToolSet;

/// Reports a file-level finding about `set`; `None` for an empty document.
pub fn report_set<'c>(
    set: &ToolSet<'_>,
    ctx: &'c mut Ctx<'_>,
    message: String,
) -> Option<&'c mut Diagnostic> {
    if let Some(entry) = set.tools_entry {
        return Some(ctx.report(Field::File, Target::Key(entry), message));
    }
    let root = set.root?;
    Some(ctx.report(Field::File, Target::Start(root), message))
}

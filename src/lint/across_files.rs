//! The checks across files (`Rule::check_run`), over the tool sets every file was normalized
//! into once, after each file's own checks.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::file::Checked;
use super::panic_message;
use super::rule::{Ctx, RunCtx, SetRef};
use super::select::Selection;
use crate::tokens::Encoding;

pub(crate) fn check(files: &mut [Checked<'_>], selection: &Selection, encoding: Encoding) {
    let mut found = Vec::new();
    let mut failed = None;
    {
        let with_sets: Vec<usize> = (0..files.len())
            .filter(|&index| files[index].set.is_some())
            .collect();
        let sets: Vec<SetRef<'_>> = with_sets
            .iter()
            .filter_map(|&index| {
                let file = &files[index];
                Some(SetRef {
                    file: file.file,
                    set: file.set.as_ref()?,
                })
            })
            .collect();
        for (active, rule) in &selection.rules {
            let ctxs = sets
                .iter()
                .map(|set| {
                    let mut ctx = Ctx::new(set.file, encoding, active);
                    ctx.targets = &selection.targets;
                    ctx
                })
                .collect();
            let mut run = RunCtx::new(ctxs);
            let outcome = catch_unwind(AssertUnwindSafe(|| rule.check_run(&sets, &mut run)));
            if let Err(payload) = outcome {
                let message = panic_message(&*payload);
                failed = Some(format!("in `{}` across files: {message}", active.name));
                break;
            }
            for (set_index, diagnostic) in run.take_findings() {
                found.push((with_sets[set_index], diagnostic));
            }
        }
    }
    for (index, diagnostic) in found {
        let diagnostics = &mut files[index].diagnostics;
        diagnostics.push(diagnostic);
        diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }
    // A check across files has no one file to blame: the first file carries the error.
    if let (Some(message), Some(first)) = (failed, files.first_mut()) {
        first.internal_error.get_or_insert(message);
    }
}

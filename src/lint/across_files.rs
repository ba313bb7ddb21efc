//! The checks across files ([`Rule::across_files`](super::rule::Rule::across_files)): each
//! rule's check of the run sees every file's outline in input order, after the file's own
//! checks, and reports into that file.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::file::Checked;
use super::panic_message;
use super::select::Selection;
use crate::rule::{AcrossFiles, ActiveRule, Ctx};
use crate::tokens::Encoding;

/// The checks across files of one run.
pub(crate) struct Across<'s> {
    checks: Vec<(&'s ActiveRule, Box<dyn AcrossFiles + 's>)>,
    selection: &'s Selection,
    encoding: Encoding,
}

impl<'s> Across<'s> {
    pub fn start(selection: &'s Selection, encoding: Encoding) -> Self {
        let checks = selection
            .rules
            .iter()
            .filter_map(|(active, rule)| Some((active, rule.across_files()?)))
            .collect();
        Across {
            checks,
            selection,
            encoding,
        }
    }

    /// Whether any rule of the run checks across files (so files need an outline).
    pub fn any(&self) -> bool {
        !self.checks.is_empty()
    }

    /// Checks one file against the earlier ones. A check that panics is reported on this file
    /// and stops for the rest of the run; the others go on.
    pub fn check(&mut self, file: &mut Checked) {
        let Some(outline) = file.outline.take() else {
            return;
        };
        let mut found = Vec::new();
        let mut failed = Vec::new();
        for (index, (active, check)) in self.checks.iter_mut().enumerate() {
            let mut ctx = Ctx::new(&file.file, self.encoding, active);
            ctx.targets = &self.selection.targets;
            match catch_unwind(AssertUnwindSafe(|| check.check(&outline, &mut ctx))) {
                Ok(()) => found.extend(ctx.take_findings()),
                Err(payload) => {
                    let message = panic_message(&*payload);
                    let error = format!("in `{}` across files: {message}", active.name);
                    file.internal_error.get_or_insert(error);
                    failed.push(index);
                }
            }
        }
        for index in failed.into_iter().rev() {
            self.checks.remove(index);
        }
        if !found.is_empty() {
            file.diagnostics.extend(found);
            crate::diagnostic::sort(&mut file.diagnostics);
        }
    }
}

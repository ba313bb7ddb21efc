//! Output formats. Each renders the whole run to a string, so output never interleaves.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use crate::lint::diagnostic::{Diagnostic, Severity};
use crate::lint::{FileReport, Suppressed};

/// Counts for the summary line and the JSON `summary` object.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub files: usize,
    pub tools: usize,
    pub skipped: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings a baseline recorded (not shown); absent from JSON when there are none.
    #[serde(skip_serializing_if = "is_zero")]
    pub baselined: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut summary = Summary {
            files: reports.iter().filter(|report| report.linted).count(),
            ..Summary::default()
        };
        for report in reports {
            summary.tools += report.tools;
            summary.skipped += report.skipped;
            summary.baselined += report
                .suppressed
                .iter()
                .filter(|s| s.reason.as_deref() == Some(crate::suppress::baseline::REASON))
                .count();
            for diagnostic in &report.diagnostics {
                match diagnostic.severity {
                    Severity::Error => summary.errors += 1,
                    Severity::Warning => summary.warnings += 1,
                    Severity::Info => summary.infos += 1,
                }
            }
        }
        summary
    }
}

/// All diagnostics of a run, in output order (file, offset, code).
pub fn diagnostics(reports: &[FileReport]) -> impl Iterator<Item = &Diagnostic> {
    reports.iter().flat_map(|report| &report.diagnostics)
}

/// All suppressed findings of a run, in output order.
pub fn suppressed(reports: &[FileReport]) -> impl Iterator<Item = &Suppressed> {
    reports.iter().flat_map(|report| &report.suppressed)
}

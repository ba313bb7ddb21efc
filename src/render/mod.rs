//! Output formats. Each renders the whole run to a string, so output never interleaves.

pub mod concise;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
pub mod statistics;

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
    /// Findings `--fix` can fix (not part of the JSON contract).
    #[serde(skip)]
    pub fixable: usize,
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
                summary.fixable += usize::from(diagnostic.fix.is_some());
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

/// The lines under the human summary of a run with findings: what `--fix` would fix, and
/// where to read about a rule and how to silence one (with `code`, a rule of this run).
pub fn footer(summary: &Summary, code: Option<&str>) -> String {
    let mut out = String::new();
    if summary.fixable > 0 {
        out.push_str(&format!(
            "[*] {} fixable with `toolcheck lint --fix` (preview with `--diff`)\n",
            summary.fixable
        ));
    }
    if let Some(code) = code {
        out.push_str(&format!(
            "hint: `toolcheck explain {code}` for a rule's details\n"
        ));
        // The meta rules (an unreadable manifest, an unused suppression) are fixed, not silenced.
        if !code.starts_with("TC0") {
            out.push_str(&format!(
                "hint: silence a finding with `# toolcheck: ignore[{code}]` on its YAML line, \
                 or with `per-file-ignores` in toolcheck.yaml\n"
            ));
        }
    }
    out
}

/// All diagnostics of a run, in output order (file, offset, code).
pub fn diagnostics(reports: &[FileReport]) -> impl Iterator<Item = &Diagnostic> + Clone {
    reports.iter().flat_map(|report| &report.diagnostics)
}

/// All suppressed findings of a run, in output order.
pub fn suppressed(reports: &[FileReport]) -> impl Iterator<Item = &Suppressed> {
    reports.iter().flat_map(|report| &report.suppressed)
}

/// The code with the most findings (the first in code order among equals), for the footer's
/// example.
pub fn most_common_code<'a>(diagnostics: impl Iterator<Item = &'a Diagnostic>) -> Option<&'a str> {
    statistics::count(diagnostics).first().map(|row| row.code)
}

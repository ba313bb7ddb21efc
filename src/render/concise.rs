//! `--output-format concise`: one line per finding, `path:line:col: severity: CODE [*] name
//! message` (`[*]` when `--fix` can fix it), as compilers print them (editors' error formats read
//! the severity) with ruff's code and fix marker; then the summary and the footer.

use std::io;

use super::{Output, Totals};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::FileReport;

/// One finding's line, without its line break.
pub fn line(diagnostic: &Diagnostic, color: bool) -> String {
    let at = diagnostic.file.line_column(diagnostic.span.start);
    let severity = diagnostic.severity.as_str();
    let severity = if color {
        let tint = match diagnostic.severity {
            Severity::Error => "31",
            Severity::Warning => "33",
            Severity::Info => "36",
        };
        format!("\x1b[1;{tint}m{severity}:\x1b[0m")
    } else {
        format!("{severity}:")
    };
    let fixable = if diagnostic.fix.is_some() { " [*]" } else { "" };
    // One line per finding, whatever the message holds.
    let message = diagnostic.message.replace(['\n', '\r'], " ");
    format!(
        "{}:{}:{}: {severity} {}{fixable} {} {message}",
        diagnostic.file.name, at.line, at.column, diagnostic.code, diagnostic.rule
    )
}

/// The lines, written as the run goes, then the summary.
pub struct ConciseOutput<W> {
    pub out: W,
    pub color: bool,
    pub quiet: bool,
}

impl<W: io::Write> Output for ConciseOutput<W> {
    fn report(&mut self, report: &FileReport) -> io::Result<()> {
        for diagnostic in &report.diagnostics {
            writeln!(self.out, "{}", line(diagnostic, self.color))?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>, totals: &Totals) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        let summary = &totals.summary;
        writeln!(self.out, "{}", super::human::summary_line(summary))?;
        let footer = super::footer(totals, super::Listing::Concise);
        self.out.write_all(footer.as_bytes())
    }
}

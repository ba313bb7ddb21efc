//! `--output-format concise`: one line per finding, `path:line:col: CODE [*] name message`
//! (`[*]` when `--fix` can fix it), as ruff and eslint's compact format print them; then the
//! summary and the footer.

use std::io;

use super::{Output, Totals};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::FileReport;

/// One finding's line, without its line break.
pub fn line(diagnostic: &Diagnostic, color: bool) -> String {
    let at = diagnostic.file.line_column(diagnostic.span.start);
    let code = if color {
        let tint = match diagnostic.severity {
            Severity::Error => "31",
            Severity::Warning => "33",
            Severity::Info => "36",
        };
        format!("\x1b[1;{tint}m{}\x1b[0m", diagnostic.code)
    } else {
        diagnostic.code.to_string()
    };
    let fixable = if diagnostic.fix.is_some() { " [*]" } else { "" };
    // One line per finding, whatever the message holds.
    let message = diagnostic.message.replace(['\n', '\r'], " ");
    format!(
        "{}:{}:{}: {code}{fixable} {} {message}",
        diagnostic.file.name, at.line, at.column, diagnostic.rule
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
        let footer = super::footer(summary, totals.most_common_code());
        self.out.write_all(footer.as_bytes())
    }
}

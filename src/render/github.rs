//! `--format github`: GitHub Actions workflow commands, one `::error`/`::warning`/`::notice`
//! per diagnostic, which the runner turns into annotations on the pull request.

use std::io;

use super::human::summary_line;
use super::{Output, Totals};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::FileReport;

/// The workflow commands, written as the run goes, then the summary line.
pub struct GithubOutput<W> {
    pub out: W,
    pub quiet: bool,
}

impl<W: io::Write> Output for GithubOutput<W> {
    fn report(&mut self, report: &FileReport) -> io::Result<()> {
        for diagnostic in &report.diagnostics {
            writeln!(self.out, "{}", command(diagnostic))?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>, totals: &Totals) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        // A plain line, not a workflow command: it shows in the log only.
        writeln!(self.out, "{}", summary_line(&totals.summary))
    }
}

/// `::error file=F,line=L,endLine=L2,col=C,endColumn=C2,title=TC209 absolute-words::message`.
///
/// The message is the diagnostic's, then `help: ...` and any related location on further
/// lines, all escaped so the command stays on one line.
pub fn command(diagnostic: &Diagnostic) -> String {
    let name = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let start = diagnostic.file.line_column(diagnostic.span.start);
    let end = diagnostic.file.line_column(diagnostic.span.end);
    let properties = [
        ("file", diagnostic.file.name.replace('\\', "/")),
        ("line", start.line.to_string()),
        ("endLine", end.line.to_string()),
        ("col", start.column.to_string()),
        ("endColumn", end.column.to_string()),
        ("title", format!("{} {}", diagnostic.code, diagnostic.rule)),
    ]
    .iter()
    .map(|(key, value)| format!("{key}={}", escape_property(value)))
    .collect::<Vec<_>>()
    .join(",");
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    for related in &diagnostic.related {
        let at = related.file.line_column(related.span.start);
        message.push_str(&format!(
            "\n{}: {}:{}:{}",
            related.message, related.file.name, at.line, at.column
        ));
    }
    format!("::{name} {properties}::{}", escape_data(&message))
}

/// Escapes a message (actions/toolkit `escapeData`).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (actions/toolkit `escapeProperty`).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_toolkit() {
        assert_eq!(escape_data("100% a\r\nb: c, d"), "100%25 a%0D%0Ab: c, d");
        assert_eq!(
            escape_property("C:\\dir,x%\n"),
            "C%3A\\dir%2Cx%25%0A".to_string()
        );
        // `%` first, so an escape sequence in the input is not decoded later.
        assert_eq!(escape_data("%0A"), "%250A");
        assert_eq!(escape_property("é:ü"), "é%3Aü");
    }
}
